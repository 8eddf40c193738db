package shgraph

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

func TestReadLines(t *testing.T) {
	iri := func(s string) rdf.Term { return rdf.NewIRI(ex + s) }
	tests := []struct {
		name   string
		syntax rdf.Format
		doc    string
		want   []rdf.Triple
	}{
		{"triples", rdf.NTriples,
			"<" + ex + "a> <" + ex + "p> <" + ex + "b> .\n# a comment\n\n<" + ex + "a> <" + ex + "q> \"x\"@en .\n_:n <" + ex + "p> <" + ex + "a> .\n",
			[]rdf.Triple{
				rdf.T(iri("a"), ex+"p", iri("b")),
				rdf.T(iri("a"), ex+"q", rdf.NewLangLiteral("x", "en")),
				rdf.T(rdf.NewBlank("n"), ex+"p", iri("a")),
			}},
		{"quads, the graphs merged and a duplicate counted once", rdf.NQuads,
			"<" + ex + "a> <" + ex + "p> <" + ex + "b> <" + ex + "g1> .\n<" + ex + "a> <" + ex + "p> <" + ex + "b> <" + ex + "g2> .\n<" + ex + "c> <" + ex + "p> \"1\"^^<" + rdf.XSDInteger + "> .",
			[]rdf.Triple{
				rdf.T(iri("a"), ex+"p", iri("b")),
				rdf.T(iri("c"), ex+"p", rdf.NewLiteral("1", rdf.XSDInteger)),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder(0)
			if err := b.ReadLines(strings.NewReader(tt.doc), tt.syntax); err != nil {
				t.Fatal(err)
			}
			g := b.Graph()
			if ok, diff := rdftest.Isomorphic(g.Triples(), tt.want); !ok {
				t.Errorf("the graph read is not the one written: %s", diff)
			}
		})
	}
}

// TestReadLinesBlankPrefix reads the same blank subject from two documents
// with a prefix each: the last subject the Builder remembers must not make
// them one node.
func TestReadLinesBlankPrefix(t *testing.T) {
	b := NewBuilder(0)
	for i, doc := range []string{
		"_:x <" + ex + "p> \"1\" .\n",
		"_:x <" + ex + "q> \"2\" .\n",
	} {
		b.SetBlankPrefix(fmt.Sprintf("f%d.", i))
		if err := b.ReadLines(strings.NewReader(doc), rdf.NTriples); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Graph()
	want := []rdf.Triple{
		rdf.T(rdf.NewBlank("a"), ex+"p", rdf.NewLiteral("1", "")),
		rdf.T(rdf.NewBlank("b"), ex+"q", rdf.NewLiteral("2", "")),
	}
	if ok, diff := rdftest.Isomorphic(g.Triples(), want); !ok {
		t.Errorf("the two documents' blank nodes are not apart: %s", diff)
	}
}

// TestReadLinesPieces reads a document of two pieces of rdf.ReadLines
// (about 8 MiB each), so that one is added while the next is parsed, and
// the same with a syntax error on its last line, whose number counts every
// line before.
func TestReadLinesPieces(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 10 MB")
	}
	const n = 75000
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, "<%ss%d> <%sp> \"value number %d of the document, padded to about a hundred bytes\" .\n", ex, i/2, ex, i)
	}
	doc := sb.String()
	if len(doc) <= 8<<20 {
		t.Fatalf("the document is %d bytes: too short for two pieces", len(doc))
	}
	b := NewBuilder(0)
	if err := b.ReadLines(strings.NewReader(doc), rdf.NTriples); err != nil {
		t.Fatal(err)
	}
	g := b.Graph()
	if g.Len() != n {
		t.Errorf("Len = %d, want %d", g.Len(), n)
	}
	for _, i := range []int{0, 1, n/2 + 1, n - 1} {
		s, p := g.ID(rdf.NewIRI(fmt.Sprintf("%ss%d", ex, i/2))), g.ID(rdf.NewIRI(ex+"p"))
		objs := g.Objects(s, p)
		want := fmt.Sprintf("value number %d of the document, padded to about a hundred bytes", i)
		found := false
		for _, e := range objs {
			found = found || g.Term(e.B).Value == want
		}
		if len(objs) != 2 || !found {
			t.Errorf("subject s%d: %d objects, %q among them: %v", i/2, len(objs), want, found)
		}
	}

	err := NewBuilder(0).ReadLines(strings.NewReader(doc+"<"+ex+"s> <"+ex+"p> oops .\n"), rdf.NTriples)
	var d *diag.Diagnostic
	if !errors.As(err, &d) || d.Line != n+1 {
		t.Errorf("error = %v, want a diagnostic on line %d", err, n+1)
	}
}

func TestReadLinesSyntax(t *testing.T) {
	if err := NewBuilder(0).ReadLines(strings.NewReader(""), rdf.Turtle); err == nil || !strings.Contains(err.Error(), "N-Triples and N-Quads") {
		t.Errorf("Turtle: error = %v, want one naming the syntaxes read", err)
	}
}
