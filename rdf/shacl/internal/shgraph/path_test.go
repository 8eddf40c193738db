package shgraph

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

// reader reads paths from a graph made of Turtle, numbering constants
// in the order it meets them.
type reader struct {
	g      *Graph
	consts []rdf.Term
}

func (r *reader) Values(n rdf.Term, pred string) []rdf.Term {
	s, p := r.g.ID(n), r.g.ID(rdf.NewIRI(pred))
	if s == 0 || p == 0 {
		return nil
	}
	var ts []rdf.Term
	for _, e := range r.g.Objects(s, p) {
		ts = append(ts, r.g.Term(e.B))
	}
	return ts
}

func (r *reader) List(n rdf.Term) ([]rdf.Term, error) {
	var items []rdf.Term
	for i := 0; n != rdf.NewIRI(rdf.RDFNil); i++ {
		first, rest := r.Values(n, rdf.RDFFirst), r.Values(n, rdf.RDFRest)
		if len(first) != 1 || len(rest) != 1 || i > 100 {
			return nil, fmt.Errorf("not a list")
		}
		items, n = append(items, first[0]), rest[0]
	}
	return items, nil
}

func (r *reader) Describe(n rdf.Term) string { return n.String() }

func (r *reader) Ref(n rdf.Term) Ref {
	if i := slices.Index(r.consts, n); i >= 0 {
		return Ref(i)
	}
	r.consts = append(r.consts, n)
	return Ref(len(r.consts) - 1)
}

// TestPaths reads each kind of path, writes it back in SPARQL's syntax
// and as triples, and evaluates it on a small graph; the expected nodes
// are worked out by hand from the data.
func TestPaths(t *testing.T) {
	shapes := New(ttl(t, `@prefix sh: <http://www.w3.org/ns/shacl#> .
		ex:predicate ex:path ex:p .
		ex:inverse ex:path [ sh:inversePath ex:p ] .
		ex:sequence ex:path ( ex:p ex:q ) .
		ex:alternative ex:path [ sh:alternativePath ( ex:p ex:q ) ] .
		ex:zeroOrMore ex:path [ sh:zeroOrMorePath ex:p ] .
		ex:oneOrMore ex:path [ sh:oneOrMorePath ex:p ] .
		ex:zeroOrOne ex:path [ sh:zeroOrOnePath ex:p ] .
		ex:inverseSequence ex:path [ sh:inversePath ( ex:p ex:q ) ] .`))
	data := New(ttl(t, `ex:a ex:p ex:b . ex:b ex:p ex:c . ex:b ex:q ex:d . ex:a ex:q ex:e .`))
	p, q := "<"+ex+"p>", "<"+ex+"q>"
	for _, c := range []struct {
		shape, text, from string
		want              []string
	}{
		{"predicate", p, "a", []string{"b"}},
		{"inverse", "^" + p, "c", []string{"b"}},
		{"sequence", p + "/" + q, "a", []string{"d"}},
		{"alternative", p + "|" + q, "a", []string{"b", "e"}},
		{"zeroOrMore", p + "*", "a", []string{"a", "b", "c"}},
		{"oneOrMore", p + "+", "a", []string{"b", "c"}},
		{"zeroOrOne", p + "?", "a", []string{"a", "b"}},
		{"inverseSequence", "^(" + p + "/" + q + ")", "d", []string{"a"}},
	} {
		t.Run(c.shape, func(t *testing.T) {
			r := &reader{g: shapes}
			node := r.Values(rdf.NewIRI(ex+c.shape), ex+"path")[0]
			path, err := Parse(node, r)
			if err != nil {
				t.Fatal(err)
			}
			if path.String() != c.text {
				t.Errorf("String = %s, want %s", path.String(), c.text)
			}
			blanks := 0
			head, ts := path.Triples(func() rdf.Term { blanks++; return rdf.NewBlank(fmt.Sprint("b", blanks)) })
			again, err := Parse(head, &reader{g: New(ts)})
			if err != nil || again.String() != c.text {
				t.Errorf("Triples read back: %v, %v", again, err)
			}
			consts := make([]ID, len(r.consts))
			for i, k := range r.consts {
				consts[i] = data.ID(k)
			}
			var out NodeSet
			Eval(data, consts, path, data.ID(rdf.NewIRI(ex+c.from)), false, &out)
			var got []string
			for _, n := range out.Nodes() {
				got = append(got, strings.TrimPrefix(data.Term(n).Value, ex))
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("from ex:%s: %v, want %v", c.from, got, c.want)
			}
		})
	}
}

// TestPathErrors: what is not a path is an error saying why.
func TestPathErrors(t *testing.T) {
	g := New(ttl(t, `@prefix sh: <http://www.w3.org/ns/shacl#> .
		ex:none ex:path [ ex:other ex:p ] .
		ex:oneAlternative ex:path [ sh:alternativePath ( ex:p ) ] .
		ex:twoInverses ex:path [ sh:inversePath ex:p, ex:q ] .
		ex:literal ex:path "p" .`))
	for _, c := range []struct{ shape, want string }{
		{"none", "is not a path: it is not a list and has none of"},
		{"oneAlternative", "an alternative path needs at least two members, has 1"},
		{"twoInverses", "a path has more than one sh:inversePath"},
		{"literal", `a literal ("p") is not a path`},
	} {
		r := &reader{g: g}
		_, err := Parse(r.Values(rdf.NewIRI(ex+c.shape), ex+"path")[0], r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.shape, err, c.want)
		}
	}
	if _, err := Parse(rdf.NewIRI(rdf.RDFNil), &reader{g: g}); err == nil || err.Error() != "rdf:nil is not a path" {
		t.Errorf("rdf:nil: %v", err)
	}
}
