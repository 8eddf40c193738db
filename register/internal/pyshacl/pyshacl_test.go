package pyshacl

import (
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl"
)

const ex = "http://example.com/ns#"

func iri(local string) rdf.Term { return rdf.NewIRI(ex + local) }

// TestNodeShapes: the node shapes in the order the graph first names them,
// worked out by hand: a typed NodeShape; the value of sh:node; a subject
// of a target; the members of an sh:or list; not a property shape (one
// with sh:path), whether it has a target or is a value of sh:property.
func TestNodeShapes(t *testing.T) {
	const sh = shacl.NS
	p, list, rest := rdf.NewBlank("p"), rdf.NewBlank("l1"), rdf.NewBlank("l2")
	ts := []rdf.Triple{
		rdf.T(iri("A"), rdf.RDFType, rdf.NewIRI(sh+"NodeShape")),
		rdf.T(iri("A"), sh+"property", p),
		rdf.T(p, sh+"path", iri("x")),
		rdf.T(p, sh+"node", iri("B")),
		rdf.T(iri("C"), sh+"targetClass", iri("K")),
		rdf.T(iri("D"), sh+"path", iri("y")),
		rdf.T(iri("D"), sh+"targetNode", iri("n")),
		rdf.T(iri("E"), sh+"or", list),
		rdf.T(list, rdf.RDFFirst, iri("F")),
		rdf.T(list, rdf.RDFRest, rest),
		rdf.T(rest, rdf.RDFFirst, iri("G")),
		rdf.T(rest, rdf.RDFRest, rdf.NewIRI(rdf.RDFNil)),
	}
	want := []rdf.Term{iri("A"), iri("B"), iri("C"), iri("F"), iri("G")}
	if got := NodeShapes(ts); !reflect.DeepEqual(got, want) {
		t.Errorf("NodeShapes = %v, want %v", got, want)
	}
}

// TestNamer: names as rdflib and the tool chain write them, by hand.
func TestNamer(t *testing.T) {
	b1, b2, lone, other := rdf.NewBlank("b1"), rdf.NewBlank("b2"), rdf.NewBlank("lone"), rdf.NewBlank("other")
	graph := []rdf.Triple{
		rdf.T(iri("s"), ex+"p", b1),
		rdf.T(b1, ex+"q", b2),
	}
	n := NewNamer(graph, map[string]string{"ex": ex, "sub": ex + "sub/", "dot": ex + "a."})
	tests := []struct {
		term rdf.Term
		want string
	}{
		{iri("Thing"), "ex:Thing"},
		{rdf.NewIRI(rdf.RDFType), "rdf:type"},                              // a namespace every rdflib graph binds
		{rdf.NewIRI(ex + "sub/Thing"), "sub:Thing"},                        // split after the last "/"
		{rdf.NewIRI(ex + "a.b"), "dot:b"},                                  // the longest bound namespace past the split
		{rdf.NewIRI("http://other.org/a/b1"), "<http://other.org/a/b1>"},   // no prefix binds it
		{rdf.NewIRI("http://example.com/123"), "<http://example.com/123>"}, // no local name can start
		{rdf.NewLiteral("5", rdf.XSDInteger), "5"},
		{b1, "ex:s/ex:p"},      // from the IRI that points to it
		{b2, "ex:s/ex:p/ex:q"}, // through a blank node
		{lone, "_:N1"},         // none points to it
		{other, "_:N2"},
		{lone, "_:N1"}, // the same label again
	}
	for _, tt := range tests {
		if got := n.Name(tt.term); got != tt.want {
			t.Errorf("Name(%v) = %q, want %q", tt.term, got, tt.want)
		}
	}
}

// TestText: pySHACL's text report, by hand: a graph that conforms, and one
// result of sh:minCount.
func TestText(t *testing.T) {
	shapes, err := shacl.Compile([]rdf.Triple{
		rdf.T(iri("S"), rdf.RDFType, rdf.NewIRI(shacl.NS+"NodeShape")),
		rdf.T(iri("S"), shacl.NS+"targetNode", iri("n")),
		rdf.T(iri("S"), shacl.NS+"property", iri("P")),
		rdf.T(iri("P"), shacl.NS+"path", iri("name")),
		rdf.T(iri("P"), shacl.NS+"minCount", rdf.NewLiteral("1", rdf.XSDInteger)),
	})
	if err != nil {
		t.Fatal(err)
	}
	good, err := shapes.Validate(shacl.NewGraph([]rdf.Triple{rdf.T(iri("n"), ex+"name", rdf.NewLiteral("x", rdf.XSDString))}))
	if err != nil {
		t.Fatal(err)
	}
	if got := Text(good); got != "Validation Report\nConforms: True\n" {
		t.Errorf("conforming: %q", got)
	}
	bad, err := shapes.Validate(shacl.NewGraph(nil))
	if err != nil {
		t.Fatal(err)
	}
	got := Text(bad)
	for _, line := range []string{
		"Validation Report\nConforms: False\nResults (1):\n",
		"Constraint Violation in MinCountConstraintComponent (" + shacl.NS + "MinCountConstraintComponent):\n",
		"\tSeverity: sh:Violation\n",
		"\tFocus Node: <" + ex + "n>\n",
		"\tResult Path: <" + ex + "name>\n",
		"\tMessage: ",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("the report has no %q:\n%s", line, got)
		}
	}
}
