package shsparql

import (
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
)

func TestSubstitutePath(t *testing.T) {
	const p = "^<http://ex/p>"
	for _, tc := range []struct{ in, want string }{
		{"$this $PATH ?v", "$this ^<http://ex/p> ?v"},
		{"$this ?PATH ?v", "$this ^<http://ex/p> ?v"},
		{"$this $PATHS ?v", "$this $PATHS ?v"},
		{`"$PATH" $PATH`, `"$PATH" ^<http://ex/p>`},
		{`'it\'s $PATH' $PATH`, `'it\'s $PATH' ^<http://ex/p>`},
		{"<http://x/$PATH> $PATH # $PATH\n$PATH", "<http://x/$PATH> ^<http://ex/p> # $PATH\n^<http://ex/p>"},
		{"FILTER(?a < $PATH)", "FILTER(?a < ^<http://ex/p>)"},
	} {
		if got, found := SubstitutePath(tc.in, p); got != tc.want || found != (got != tc.in) {
			t.Errorf("SubstitutePath(%q) = %q, %v; want %q", tc.in, got, found, tc.want)
		}
	}
}

// TestCheckPreBinding: what SHACL 5.2.1 allows and refuses, with $this
// and $value pre-bound.
func TestCheckPreBinding(t *testing.T) {
	pre := []string{"this", "value", "shapesGraph", "currentShape"}
	for _, tc := range []struct {
		query string
		ok    bool
	}{
		{"SELECT $this ?v WHERE { $this ?p ?v }", true},
		{"SELECT $this (1 AS ?n) WHERE { }", true},
		{"SELECT $this WHERE { { SELECT $this $value WHERE { } } }", true},
		{"ASK { FILTER NOT EXISTS { $this ?p ?o } }", true},
		{"SELECT $this WHERE { { SELECT $this WHERE { } } }", false}, // $value not returned
		{"SELECT $this WHERE { $this ?p ?o MINUS { $this ?p 1 } }", false},
		{"ASK { FILTER EXISTS { ?a ?b ?c MINUS { ?a ?b 1 } } }", false},
		{"SELECT $this WHERE { } VALUES ?x { 1 }", false},
		{"SELECT $this WHERE { BIND(1 AS ?value) }", false},
		{"SELECT ($this AS ?x) WHERE { } GROUP BY (1 AS ?this)", false},
		{"SELECT $this WHERE { SERVICE <http://x/> { } }", false},
	} {
		q, err := sparql.ParseQuery(tc.query, "")
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		if err := CheckPreBinding(q, pre); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.query, err, tc.ok)
		}
	}
}

func TestFillTemplates(t *testing.T) {
	msgs := []rdf.Term{rdf.NewLiteral("{$this} has {?n} {?missing} {x} {", ""), rdf.NewLangLiteral("{?n}!", "en")}
	got := FillTemplates(msgs, map[string]rdf.Term{"this": rdf.NewIRI("http://ex/a")}, []string{"n"}, []rdf.Term{rdf.NewLiteral("3", rdf.XSDInteger)})
	want := []rdf.Term{rdf.NewLiteral("http://ex/a has 3 {?missing} {x} {", ""), rdf.NewLangLiteral("3!", "en")}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLocalNameAndCombinations(t *testing.T) {
	for iri, want := range map[string]string{"http://ex/a#max-Count_2": "max-Count_2", "http://ex/path/lang": "lang", "urn:x:y": "y"} {
		if got := LocalName(iri); got != want {
			t.Errorf("LocalName(%s) = %q, want %q", iri, got, want)
		}
	}
	a, b, c := rdf.NewIRI("a"), rdf.NewIRI("b"), rdf.NewIRI("c")
	got := Combinations([][]rdf.Term{{a, b}, nil, {c}})
	if len(got) != 2 || !slices.Equal(got[0], []rdf.Term{a, {}, c}) || !slices.Equal(got[1], []rdf.Term{b, {}, c}) {
		t.Errorf("Combinations: %v", got)
	}
}
