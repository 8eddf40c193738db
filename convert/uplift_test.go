package convert

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// upliftAll uplifts every JSON snippet of b and returns the results by
// "title/snippet".
func upliftAll(t *testing.T, b *bblock.Block, reg *bblock.Register) map[string]*Uplift {
	t.Helper()
	ctx, _, err := toolchain.ForBlock(b, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Uplift{}
	for i, ex := range b.Examples.Examples {
		for j, sn := range ex.Snippets {
			if !sn.IsJSON() {
				continue
			}
			code, err := b.SnippetCode(sn)
			if err != nil {
				t.Fatal(err)
			}
			up, err := UpliftSnippet(code, ctx, b.Examples.Prefixes, ex, sn, "", "e"+itoa(i)+"s"+itoa(j)+"b")
			if err != nil {
				t.Fatalf("%s: %v", ex.Title, err)
			}
			out[ex.Title+"/"+itoa(j)] = up
		}
	}
	return out
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+i%10))) }

// TestOGCExampleUplift: all 23 examples of the OGC tree give non-empty graphs
// whose rdf.Turtle an independent parser reads back to the same graph.
func TestOGCExampleUplift(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range reg.Blocks {
		for name, up := range upliftAll(t, b, reg) {
			n++
			if len(up.Triples) == 0 {
				t.Errorf("%s %s: empty graph", b.ID, name)
				continue
			}
			var buf bytes.Buffer
			w := rdf.NewTurtleWriter(&buf, up.Prefixes)
			if err := w.WriteGroup(up.Triples); err != nil {
				t.Fatal(err)
			}
			w.Close()
			back := rdftest.Rapper(t, buf.Bytes(), "")
			if ok, diff := rdftest.Isomorphic(up.Triples, back); !ok {
				t.Errorf("%s %s: Turtle reads back differently:\n%s\n%s", b.ID, name, diff, buf.String())
			}
		}
	}
	if n != 23 {
		t.Errorf("%d snippets, want 23", n)
	}
}

// TestOGCUpliftQuirks checks the published json-rpc block's examples against
// triples written by hand from BBLOCKS.md: the context's @base wins over the
// example's base-uri, a string id becomes an IRI, and no rdf:type is made.
func TestOGCUpliftQuirks(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ups := upliftAll(t, reg.Block("mcp.json-rpc"), reg)
	const jrpc = "http://json-rpc.org/ontology#"
	want := `_:r <` + jrpc + `hasId> <https://override-me-for-custom-content.eg/1> .
_:r <` + jrpc + `hasMethod> "subtract" .
_:r <` + jrpc + `hasParameters> "{\"p1\":42,\"p2\":23}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .
_:r <` + jrpc + `version> "2.0" .
`
	wantTriples, err := rdftest.ParseNTriples([]byte(want))
	if err != nil {
		t.Fatal(err)
	}
	got := ups["Call (positional params)/0"]
	if ok, diff := rdftest.Isomorphic(got.Triples, wantTriples); !ok {
		t.Errorf("positional call:\n%s", diff)
	}
	for _, tr := range got.Triples {
		if tr.P == rdf.RDFType {
			t.Errorf("rdf:type made: %v", tr)
		}
	}
}

// TestUpliftIDs: a numeric id is an integer literal, a null id is dropped,
// and @json values of every kind become canonical rdf:JSON literals.
func TestUpliftIDs(t *testing.T) {
	ctx := map[string]any{
		"jrpc": rdf.JRPCNS, "xsd": rdf.XSDNS,
		"id":     map[string]any{"@id": "jrpc:hasId", "@type": "@id"},
		"result": map[string]any{"@id": "jrpc:hasResult", "@type": "@json"},
	}
	tests := []struct{ code, want string }{
		{`{"id": 7, "result": [1, {"b": 2, "a": 1}]}`, `_:x <` + rdf.JRPCNS + `hasId> "7"^^<` + rdf.XSDInteger + `> .
_:x <` + rdf.JRPCNS + `hasResult> "[1,{\"a\":1,\"b\":2}]"^^<` + rdf.RDFJSON + `> .
`},
		{`{"id": null, "result": "text"}`, `_:x <` + rdf.JRPCNS + `hasResult> "\"text\""^^<` + rdf.RDFJSON + `> .
`},
		{`{"id": "a", "result": null}`, `_:x <` + rdf.JRPCNS + `hasId> <http://example.com/base/a> .
_:x <` + rdf.JRPCNS + `hasResult> "null"^^<` + rdf.RDFJSON + `> .
`},
	}
	for _, tt := range tests {
		up, err := UpliftSnippet([]byte(tt.code), processed(t, ctx), nil, bblock.Example{BaseURI: "http://example.com/base/"}, bblock.Snippet{}, "", "b")
		if err != nil {
			t.Fatal(err)
		}
		want, err := rdftest.ParseNTriples([]byte(tt.want))
		if err != nil {
			t.Fatal(err)
		}
		if ok, diff := rdftest.Isomorphic(up.Triples, want); !ok {
			t.Errorf("%s:\n%s", tt.code, diff)
		}
	}
}

// TestDefaultExampleUplift: every example of the embedded block gives a graph.
func TestDefaultExampleUplift(t *testing.T) {
	for name, up := range upliftAll(t, bblock.Default(), nil) {
		if len(up.Triples) == 0 {
			t.Errorf("%s: empty graph", name)
		}
	}
}
