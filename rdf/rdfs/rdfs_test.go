package rdfs

import (
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

const prefixes = `@prefix ex: <http://example.org/> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
`

const ex = "http://example.org/"

var one = rdf.NewLiteral("1", rdf.XSDInteger)

// parse returns the triples of Turtle text, with the prefixes above.
func parse(t *testing.T, text string) []rdf.Triple {
	t.Helper()
	qs, _, err := rdf.Parse([]byte(prefixes+text), rdf.Turtle, "")
	if err != nil {
		t.Fatal(err)
	}
	var ts []rdf.Triple
	for _, q := range qs {
		ts = append(ts, q.Triple)
	}
	return ts
}

// TestInferAll checks the whole closure of a graph of one triple, worked
// out by hand rule by rule: rdf1 types ex:p, rdfs4a and rdfs4b type ex:a
// and ex:b; then rdf1 on those types rdf:type, rdfs6 makes ex:p and
// rdf:type their own sub-properties, rdf1 on those types
// rdfs:subPropertyOf, and rdfs6 makes it its own.
func TestInferAll(t *testing.T) {
	got := Infer(parse(t, `ex:a ex:p ex:b .`))
	want := parse(t, `
ex:p rdf:type rdf:Property .
ex:a rdf:type rdfs:Resource .
ex:b rdf:type rdfs:Resource .
rdf:type rdf:type rdf:Property .
ex:p rdfs:subPropertyOf ex:p .
rdf:type rdfs:subPropertyOf rdf:type .
rdfs:subPropertyOf rdf:type rdf:Property .
rdfs:subPropertyOf rdfs:subPropertyOf rdfs:subPropertyOf .
`)
	sortTriples(got)
	sortTriples(want)
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", lines(got), lines(want))
	}
}

// TestInfer checks, rule by rule, triples the closure must hold and
// triples it must not, on small graphs.
func TestInfer(t *testing.T) {
	tests := []struct {
		name, graph string
		has, hasNot string
		// triples of literal subjects, which Turtle cannot state
		litHas, litHasNot []rdf.Triple
	}{
		{"subClassOf (rdfs9, rdfs11)",
			`ex:x a ex:A . ex:A rdfs:subClassOf ex:B . ex:B rdfs:subClassOf ex:C .`,
			`ex:x a ex:B , ex:C . ex:A rdfs:subClassOf ex:C .`,
			// reflexive only for a declared rdfs:Class
			`ex:A rdfs:subClassOf ex:A . ex:x a rdfs:Class . ex:C rdfs:subClassOf ex:A .`, nil, nil},
		{"domain and range (rdfs2, rdfs3), a literal typed",
			`ex:p rdfs:domain ex:D ; rdfs:range ex:R . ex:x ex:p ex:y , "v" .`,
			`ex:x a ex:D . ex:y a ex:R .`,
			`ex:y a ex:D . ex:x a ex:R .`,
			[]rdf.Triple{rdf.T(rdf.NewLiteral("v", rdf.XSDString), rdf.RDFType, rdf.NewIRI(ex+"R"))},
			[]rdf.Triple{rdf.T(rdf.NewLiteral("v", rdf.XSDString), rdf.RDFType, rdf.NewIRI(ex+"D"))}},
		{"domain stated after its use",
			`ex:x ex:p ex:y . ex:q rdfs:subPropertyOf ex:p . ex:z ex:q ex:w . ex:p rdfs:domain ex:D .`,
			`ex:x a ex:D . ex:z ex:p ex:w . ex:z a ex:D .`,
			`ex:w a ex:D .`, nil, nil},
		{"subPropertyOf (rdfs5, rdfs7)",
			`ex:p rdfs:subPropertyOf ex:q . ex:q rdfs:subPropertyOf ex:r . ex:x ex:p ex:y .`,
			`ex:x ex:q ex:y . ex:x ex:r ex:y . ex:p rdfs:subPropertyOf ex:r .`,
			`ex:x ex:r ex:x . ex:r rdfs:subPropertyOf ex:p .`, nil, nil},
		{"a super-property's domain",
			`ex:p rdfs:subPropertyOf ex:q . ex:q rdfs:domain ex:D . ex:x ex:p ex:y .`,
			`ex:x ex:q ex:y . ex:x a ex:D .`,
			`ex:y a ex:D .`, nil, nil},
		{"a class (rdfs8, rdfs10)",
			`ex:A a rdfs:Class .`,
			`ex:A rdfs:subClassOf rdfs:Resource , ex:A .`,
			`rdfs:Class rdfs:subClassOf rdfs:Class .`, nil, nil},
		{"a property (rdf1, rdfs6)",
			`ex:x ex:p ex:y .`,
			`ex:p a rdf:Property ; rdfs:subPropertyOf ex:p .`,
			`ex:x a rdf:Property .`, nil, nil},
		{"a datatype (rdfs13), no axiom",
			`ex:D a rdfs:Datatype .`,
			`ex:D rdfs:subClassOf rdfs:Literal .`,
			`ex:D rdfs:subClassOf ex:D . rdfs:Datatype rdfs:subClassOf rdfs:Class .`, nil, nil},
		{"a container membership property (rdfs12)",
			`ex:m a rdfs:ContainerMembershipProperty .`,
			`ex:m rdfs:subPropertyOf rdfs:member .`,
			`ex:m rdfs:subPropertyOf ex:m . rdf:_1 a rdf:Property .`, nil, nil},
		{"rdfs4a and rdfs4b on the graph as given only",
			`ex:x ex:p ex:y .`,
			`ex:x a rdfs:Resource . ex:y a rdfs:Resource .`,
			// rdf:Property and rdfs:Resource appear only in inferred triples
			`rdf:Property a rdfs:Resource . rdfs:Resource a rdfs:Resource . ex:p a rdfs:Resource .`, nil, nil},
		{"no datatype axioms, no literal copies",
			`ex:x ex:p "1"^^<http://www.w3.org/2001/XMLSchema#integer> , "01"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
			``, ``,
			[]rdf.Triple{rdf.T(one, rdf.RDFType, rdf.NewIRI(rdf.RDFSNS+"Resource"))},
			[]rdf.Triple{rdf.T(one, rdf.RDFType, rdf.NewIRI(rdf.XSDInteger)), rdf.T(rdf.NewIRI(ex+"x"), ex+"p", rdf.NewLiteral("1.0", rdf.XSDInteger))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			graph := parse(t, tt.graph)
			got := Infer(graph)
			in := map[rdf.Triple]bool{}
			for _, tr := range got {
				if in[tr] {
					t.Errorf("%s inferred twice", tr)
				}
				in[tr] = true
			}
			for _, tr := range graph {
				if in[tr] {
					t.Errorf("%s is the graph's own, not inferred", tr)
				}
				in[tr] = true
			}
			for _, tr := range append(parse(t, tt.has), tt.litHas...) {
				if !in[tr] {
					t.Errorf("missing %s", tr)
				}
			}
			for _, tr := range append(parse(t, tt.hasNot), tt.litHasNot...) {
				if in[tr] {
					t.Errorf("inferred %s, which the rules do not give", tr)
				}
			}
		})
	}
}

// TestInferLeavesTheGraph checks that Infer does not change its input.
func TestInferLeavesTheGraph(t *testing.T) {
	graph := parse(t, `ex:A rdfs:subClassOf ex:B . ex:x a ex:A .`)
	before := slices.Clone(graph)
	Infer(graph)
	if !slices.Equal(graph, before) {
		t.Error("Infer changed the graph")
	}
}

func sortTriples(ts []rdf.Triple) {
	slices.SortFunc(ts, func(a, b rdf.Triple) int { return strings.Compare(a.String(), b.String()) })
}

func lines(ts []rdf.Triple) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.String() + "\n")
	}
	return b.String()
}
