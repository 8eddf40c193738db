package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/context/ctxtest"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// TestContextAsPublished compares the context jrpcld ships with the one
// the tool chain's published tutorial build carries (bblocks.jsonld, its
// second context), by meaning in every scope. Two differences are on
// purpose (docs/ogc.md, "The register's own uplift"): links' scoped
// context, a URL the tool chain fetches, is written inline; and the
// documentation's property-valued index (dct:identifier), which rdflib
// ignores, is left out so that bblocks.jsonld means what bblocks.ttl says.
func TestContextAsPublished(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(shared.Dir(t, "reference", "ogc-published", "full-builds", "bblocks-tutorial", "build"), JSONLDFile))
	if err != nil {
		t.Fatal(err)
	}
	var pub struct {
		Context []map[string]any `json:"@context"`
	}
	if err := json.Unmarshal(data, &pub); err != nil {
		t.Fatal(err)
	}
	if len(pub.Context) != 2 {
		t.Fatalf("the published context is a list of %d, want 2 (@base, then the terms)", len(pub.Context))
	}
	theirs := pub.Context[1]
	var own struct {
		Context map[string]any `json:"@context"`
	}
	if err := json.Unmarshal(Context(), &own); err != nil {
		t.Fatal(err)
	}
	ours := own.Context

	links, ok := theirs["links"].(map[string]any)
	if !ok || !strings.HasPrefix(links["@context"].(string), "https://") {
		t.Fatalf("the published context's links: %v, want a scoped context named by URL", theirs["links"])
	}
	// The meaning of the linked context, as the viewer's JSON Link block
	// defines it (../shared holds it inside the tutorial's contexts).
	withLinks := filepath.Join(shared.Dir(t, "reference", "ogc-published", "full-builds", "bblocks-tutorial", "build"),
		"annotated", "bbr", "tutorial", "exercise6", "context.jsonld")
	var block struct {
		Context map[string]any `json:"@context"`
	}
	data, err = os.ReadFile(withLinks)
	if err == nil {
		err = json.Unmarshal(data, &block)
	}
	if err != nil {
		t.Fatal(err)
	}
	linkDef := block.Context["links"].(map[string]any)["@context"].(map[string]any)
	for _, prefix := range []string{"oa", "dct", "rdfs"} {
		if linkDef[prefix] == nil {
			linkDef[prefix] = block.Context[prefix]
		}
	}
	links["@context"] = linkDef
	doc := theirs["documentation"].(map[string]any)
	if doc["@index"] != "dct:identifier" {
		t.Fatalf("the published documentation's @index is %v, want dct:identifier", doc["@index"])
	}
	delete(doc, "@index")
	// The prefixes jrpcld adds for the scoped links context.
	ours = clone(ours)
	delete(ours, "oa")
	oursLinks := ours["links"].(map[string]any)["@context"].(map[string]any)
	for _, prefix := range []string{"oa", "dct", "rdfs"} {
		oursLinks[prefix] = linkDef[prefix]
	}
	for _, d := range ctxtest.DiffEffective(t, ours, theirs) {
		t.Error(d)
	}
}

// clone returns a deep copy of a JSON object.
func clone(m map[string]any) map[string]any {
	return ojson.Plain(ojson.Clone(ojson.FromPlain(m))).(map[string]any)
}

// TestReshape checks the reshaping of register.json on the cases the
// published builds do not show: no base URL, no blocks, a block without
// an item class, profiles and dependencies as identifiers or URIs, and the
// JSON Write refuses.
func TestReshape(t *testing.T) {
	tests := []struct {
		name, register string
		want           []string // N-Triples lines the graph must hold
		wantErr        string
	}{
		{"no base URL", `{"name":"R","baseURL":"./","bblocks":[{"itemIdentifier":"a.b","name":"B","itemClass":"schema","ontology":"o.ttl"}]}`,
			[]string{
				`<https://www.opengis.net/def/bblocks/> <http://www.w3.org/2000/01/rdf-schema#label> "Building Blocks - R" .`,
				`<bblocks://a.b> <http://www.w3.org/2004/02/skos/core#inScheme> <https://www.opengis.net/def/bblocks/> .`,
				`<bblocks://a.b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://www.opengis.net/def/bblocks/Schema> .`,
				`_:r <http://www.w3.org/ns/dx/prof/hasArtifact> <https://www.opengis.net/def/bblocks/o.ttl> .`,
			}, ""},
		{"no blocks", `{"name":"R","baseURL":"https://x.example/r/"}`,
			[]string{`<https://x.example/r/> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://www.opengis.net/def/bblocks/BBlocksRegister> .`}, ""},
		{"references", `{"name":"R","baseURL":"https://x.example/r/","bblocks":[{"itemIdentifier":"a.b","name":"B","dependsOn":["a.c","bblocks://a.d"],"isProfileOf":"a.e","status":"stable"}]}`,
			[]string{
				`<bblocks://a.b> <https://www.opengis.net/def/bblocks/dependsOn> <bblocks://a.c> .`,
				`<bblocks://a.b> <https://www.opengis.net/def/bblocks/dependsOn> <bblocks://a.d> .`,
				`<bblocks://a.b> <http://www.w3.org/ns/dx/prof/isProfileOf> <bblocks://a.e> .`,
				`<bblocks://a.b> <https://www.opengis.net/def/bblocks/status> <http://www.opengis.net/def/status/stable> .`,
				`<bblocks://a.b> <http://www.w3.org/2004/02/skos/core#topConceptOf> <https://x.example/r/> .`,
			}, ""},
		{"not an object", `[]`, nil, "not a JSON object"},
		{"a block not an object", `{"bblocks":[1]}`, nil, "/bblocks/0"},
		{"not JSON", `{`, nil, "register.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Write([]byte(tc.register), Options{})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := rdftest.ParseTurtle(f.Turtle, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range tc.want {
				want, err := rdftest.ParseNTriples([]byte(line + "\n"))
				if err != nil {
					t.Fatal(err)
				}
				if !holds(got, want[0]) {
					t.Errorf("the graph lacks %s\n%s", line, f.Turtle)
				}
			}
			if strings.Contains(string(f.Turtle), "prov:Entity") {
				t.Errorf("provenance written without the file's URL:\n%s", f.Turtle)
			}
		})
	}
}

// holds reports whether the graph has the statement, a blank node in it
// matching any blank node.
func holds(g []rdf.Triple, want rdf.Triple) bool {
	match := func(a, b rdf.Term) bool { return a == b || (a.Kind == rdf.Blank && b.Kind == rdf.Blank) }
	for _, t := range g {
		if match(t.S, want.S) && t.P == want.P && match(t.O, want.O) {
			return true
		}
	}
	return false
}
