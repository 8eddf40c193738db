package owlimports

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

func imp(s, o string) rdf.Triple { return rdf.T(rdf.NewIRI(s), Imports, rdf.NewIRI(o)) }

func TestParseMap(t *testing.T) {
	tests := []struct {
		pairs []string
		want  Map
		err   string
	}{
		{nil, Map{}, ""},
		{[]string{"http://ex.org/o=o.ttl", "urn:x:y=a=b.ttl"}, Map{"http://ex.org/o": "o.ttl", "urn:x:y": "a=b.ttl"}, ""},
		{[]string{"http://ex.org/o"}, nil, "not URL=FILE"},
		{[]string{"http://ex.org/o="}, nil, "not URL=FILE"},
		{[]string{"o.ttl=o.ttl"}, nil, "not an absolute IRI"},
		{[]string{"http://ex.org/o=a.ttl", "http://ex.org/o=b.ttl"}, nil, "mapped twice"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.pairs, " "), func(t *testing.T) {
			got, err := ParseMap(tt.pairs)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "--map URL=FILE") {
					t.Errorf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestFollow follows a chain a -> b -> c, with a cycle back to a (the
// graph's own ontology, not read again), an
// unmapped import met twice, and an import of a literal, which is left.
func TestFollow(t *testing.T) {
	files := map[string][]rdf.Triple{
		"b.ttl": {imp("http://ex.org/b", "http://ex.org/c"), imp("http://ex.org/b", "http://ex.org/far")},
		"c.ttl": {imp("http://ex.org/c", "http://ex.org/a"), rdf.T(rdf.NewIRI("http://ex.org/c"), rdf.RDFType, rdf.NewIRI(rdf.OWLNS+"Ontology"))},
	}
	m := Map{"http://ex.org/a": "a.ttl", "http://ex.org/b": "b.ttl", "http://ex.org/c": "c.ttl"}
	var loaded []string
	load := func(iri, file string) ([]rdf.Triple, error) {
		loaded = append(loaded, file)
		return files[file], nil
	}
	graph := []rdf.Triple{
		imp("http://ex.org/a", "http://ex.org/b"),
		imp("http://ex.org/a", "http://ex.org/far"),
		rdf.T(rdf.NewIRI("http://ex.org/a"), Imports, rdf.NewLiteral("http://ex.org/lit", rdf.XSDString)),
	}
	added, unmapped, err := Follow(graph, m, load)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]rdf.Triple(nil), files["b.ttl"]...), files["c.ttl"]...)
	// a.ttl is not read: ex:a is the graph's own ontology.
	if !reflect.DeepEqual(added, want) {
		t.Errorf("added %v, want %v", added, want)
	}
	if !reflect.DeepEqual(loaded, []string{"b.ttl", "c.ttl"}) {
		t.Errorf("loaded %v", loaded)
	}
	if !reflect.DeepEqual(unmapped, []string{"http://ex.org/far"}) {
		t.Errorf("unmapped %v", unmapped)
	}
}

func TestFollowError(t *testing.T) {
	boom := errors.New("no such file")
	_, _, err := Follow([]rdf.Triple{imp("http://ex.org/a", "http://ex.org/b")}, Map{"http://ex.org/b": "b.ttl"},
		func(string, string) ([]rdf.Triple, error) { return nil, boom })
	var ie *ImportError
	if !errors.As(err, &ie) || !errors.Is(err, boom) || !strings.Contains(err.Error(), "http://ex.org/b") || !strings.Contains(err.Error(), "b.ttl") {
		t.Errorf("error %v", err)
	}
}
