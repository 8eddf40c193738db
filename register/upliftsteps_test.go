package register

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// TestInheritedUpliftSteps builds testdata/ogc-registers/uplift-steps and
// holds each block to the rules of the tool chain's code for
// inheritedPostSteps (bblocks-postprocess, models.py,
// get_inherited_post_uplift_steps; validation/uplift.py): the inheritable
// post-uplift steps of the blocks a block depends on or is a profile of,
// transitively, each block after the blocks it depends on, run before the
// block's own steps, only when its semantic-uplift.yaml opts in, and from
// the blocks its list names. Each step is a SHACL triple rule whose class
// the one before infers, so the types of the graph (read by rapper) show
// which steps ran and in which order.
func TestInheritedUpliftSteps(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(filepath.Join("..", "testdata", "ogc-registers", "uplift-steps"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{BaseURL: "https://example.org/us/"})
	warnings := map[string]string{}
	passed := map[string]bool{}
	for _, b := range res.Blocks {
		warnings[b.ID] = strings.Join(b.Warnings, "\n")
		passed[b.ID] = b.Passed
	}
	const ex = "http://example.org/"
	base := "Running post-uplift shacl transform step from inline code (inherited from t.base)"
	mid := "Running post-uplift shacl transform step from inline code (inherited from t.mid)"
	own := "Running post-uplift shacl transform step from inline code"
	for _, c := range []struct {
		block string
		types []string // of ex:alice
		notes []string
	}{
		// base's step makes an Agent, mid's a Party of an Agent, the
		// block's own a Member of a Party: all three, in that order.
		{"child", []string{"Agent", "Member", "Party", "Person"}, []string{base, mid, own}},
		// Only mid's step: without base's before it, it finds no Agent.
		{"picky", []string{"Person"}, []string{mid}},
		// No inheritedPostSteps: nothing inherited.
		{"noopt", []string{"Person"}, nil},
		// isProfileOf counts as dependsOn does.
		{"profile", []string{"Agent", "Person"}, []string{base}},
	} {
		t.Run(c.block, func(t *testing.T) {
			ttl := readFile(t, filepath.Join(out, "tests", c.block, "example_1_1.ttl"))
			var types []string
			for _, tr := range rdftest.Rapper(t, ttl, "") {
				if tr.S.Value == ex+"alice" && tr.P == "http://www.w3.org/1999/02/22-rdf-syntax-ns#type" {
					types = append(types, strings.TrimPrefix(tr.O.Value, ex))
				}
			}
			slices.Sort(types)
			if !slices.Equal(types, c.types) {
				t.Errorf("ex:alice has the types %v, want %v", types, c.types)
			}
			if got := reportEntries(t, filepath.Join(out, "tests", c.block, "_report.json"), 0, "SEMANTIC_UPLIFT"); !slices.Equal(got, c.notes) {
				t.Errorf("report's semantic uplift entries:\n%q\nwant\n%q", got, c.notes)
			}
			if !passed["t."+c.block] {
				t.Errorf("t.%s failed", c.block)
			}
		})
	}
	// base's own step that is not inheritable made no BaseOnly anywhere
	// (checked above: no block's ex:alice has it).

	// A block the list names that it does not depend on: a warning.
	if !strings.Contains(warnings["t.picky"], "inheritedPostSteps names t.nowhere") {
		t.Errorf("t.picky: no warning about t.nowhere: %s", warnings["t.picky"])
	}
	// An inherited SPARQL step runs, after the uplift, its entry naming
	// the block it comes from; t.construct's CONSTRUCT copies the graph,
	// so the example keeps Alice's triples and passes.
	if !passed["t.construct-user"] {
		t.Error("t.construct-user failed; its inherited SPARQL step copies the graph")
	}
	rep := string(readFile(t, filepath.Join(out, "tests", "construct-user", "_report.json")))
	if !strings.Contains(rep, "Running post-uplift sparql-construct transform step from inline code (inherited from t.construct)") || strings.Contains(rep, "NotImplementedError") {
		t.Errorf("t.construct-user's report does not say it ran the inherited step:\n%s", rep)
	}
	alice := rdftest.Rapper(t, readFile(t, filepath.Join(out, "tests", "construct-user", "example_1_1.ttl")), "")
	if len(alice) < 3 {
		t.Errorf("t.construct-user's graph after the step: %v", alice)
	}

	// register.json and json-full publish each block's own steps, code
	// read from its ref and ref dropped, inheritable as written; a block
	// that only inherits publishes none.
	var regJSON struct {
		Bblocks []map[string]json.RawMessage `json:"bblocks"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "register.json")), &regJSON); err != nil {
		t.Fatal(err)
	}
	published := map[string]json.RawMessage{}
	for _, b := range regJSON.Bblocks {
		var id string
		json.Unmarshal(b["itemIdentifier"], &id)
		published[id] = b["semanticUplift"]
	}
	var baseSteps struct {
		AdditionalSteps []map[string]any `json:"additionalSteps"`
	}
	if err := json.Unmarshal(published["t.base"], &baseSteps); err != nil {
		t.Fatalf("t.base semanticUplift %s: %v", published["t.base"], err)
	}
	agent := string(readFile(t, filepath.Join("..", "testdata", "ogc-registers", "uplift-steps", "_sources", "base", "agent.shacl")))
	if s := baseSteps.AdditionalSteps; len(s) != 2 || s[0]["code"] != agent || s[0]["ref"] != nil || s[0]["inheritable"] != true ||
		s[1]["inheritable"] != false || s[1]["type"] != "shacl" {
		t.Errorf("t.base semanticUplift: %s", published["t.base"])
	}
	for _, id := range []string{"t.picky", "t.profile", "t.noopt"} {
		if published[id] != nil {
			t.Errorf("%s publishes semanticUplift %s; it declares no step", id, published[id])
		}
	}
	full := readJSON(t, filepath.Join(out, "generateddocs", "json-full", "base", "index.json"))
	fullSteps, _ := json.Marshal(full["semanticUplift"])
	var fromFull, fromReg any
	json.Unmarshal(fullSteps, &fromFull)
	json.Unmarshal(published["t.base"], &fromReg)
	if !reflect.DeepEqual(fromFull, fromReg) {
		t.Errorf("json-full's semanticUplift %s differs from register.json's %s", fullSteps, published["t.base"])
	}
}

// TestInheritedFromImport: a block of an imported register lends its
// inheritable steps through its register.json's semanticUplift, as the
// tool chain reads an imported block's steps. The uplift-steps register,
// built, is the import of a one-block register that inherits from t.mid.
func TestInheritedFromImport(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(filepath.Join("..", "testdata", "ogc-registers", "uplift-steps"), nil)
	if err != nil {
		t.Fatal(err)
	}
	imported, _ := buildReg(t, reg, Options{BaseURL: "https://example.org/us/"})
	src := t.TempDir()
	files := map[string]string{
		"bblocks-config.yaml":                "name: user\nidentifier-prefix: u.\nimports:\n  - https://example.org/us/\n",
		"_sources/user/bblock.json":          `{"name": "user", "abstract": "x", "status": "under-development", "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1", "dependsOn": ["t.mid"]}`,
		"_sources/user/context.jsonld":       string(readFile(t, filepath.Join("..", "testdata", "ogc-registers", "uplift-steps", "_sources", "child", "context.jsonld"))),
		"_sources/user/schema.yaml":          "type: object\n",
		"_sources/user/semantic-uplift.yaml": "inheritedPostSteps: true\n",
		"_sources/user/examples.yaml":        string(readFile(t, filepath.Join("..", "testdata", "ogc-registers", "uplift-steps", "_sources", "child", "examples.yaml"))),
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	im, err := bblock.LoadImports([]bblock.ImportMap{{URL: "https://example.org/us/", Dir: imported}})
	if err != nil {
		t.Fatal(err)
	}
	ureg, err := bblock.LoadRegisterDir(src, &bblock.Options{Imports: im})
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, ureg, Options{})
	for _, b := range res.Blocks {
		if !b.Passed {
			t.Errorf("%s failed: %v", b.ID, b.Errors)
		}
	}
	var types []string
	for _, tr := range rdftest.Rapper(t, readFile(t, filepath.Join(out, "tests", "user", "example_1_1.ttl")), "") {
		if tr.P == "http://www.w3.org/1999/02/22-rdf-syntax-ns#type" {
			types = append(types, strings.TrimPrefix(tr.O.Value, "http://example.org/"))
		}
	}
	slices.Sort(types)
	if want := []string{"Agent", "Party", "Person"}; !slices.Equal(types, want) {
		t.Errorf("types %v, want %v (t.base's step, then t.mid's, read from the import's register.json)", types, want)
	}
}

// TestDocUpliftFormats: a snippet's doc-uplift-formats chooses which of its
// uplifted forms the documentation adds to its example, as the tool
// chain's validate.py does: both by default, one named as a string, none
// for null or [], and, among snippets, the last one whose formats name a
// form gives it.
func TestDocUpliftFormats(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(filepath.Join("..", "testdata", "ogc-registers", "uplift-steps"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := buildReg(t, reg, Options{BaseURL: "https://example.org/us/"})
	var doc struct {
		Examples []struct {
			Title    string `json:"title"`
			Snippets []struct {
				Language string `json:"language"`
				Code     string `json:"code"`
			} `json:"snippets"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "generateddocs", "json-full", "docs", "index.json")), &doc); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"json", "jsonld", "ttl"}, {"json", "ttl"}, {"json"}, {"json"}, {"json", "json", "jsonld"}}
	if len(doc.Examples) != len(want) {
		t.Fatalf("%d examples, want %d", len(doc.Examples), len(want))
	}
	for i, ex := range doc.Examples {
		var langs []string
		for _, s := range ex.Snippets {
			langs = append(langs, s.Language)
		}
		if !slices.Equal(langs, want[i]) {
			t.Errorf("example %d (%s): snippets %v, want %v", i+1, ex.Title, langs, want[i])
		}
	}
	last := doc.Examples[4].Snippets
	if n := len(last); n == 3 && !strings.Contains(last[2].Code, "http://example.org/f") {
		t.Errorf("example 5's JSON-LD is not the second snippet's: %s", last[2].Code)
	}
	// The Markdown page's examples follow the same list.
	md := string(readFile(t, filepath.Join(out, "generateddocs", "markdown", "docs", "index.md")))
	md, _, _ = strings.Cut(md, "\n## Schema")
	if strings.Count(md, "```ttl") != 2 || strings.Count(md, "```jsonld") != 2 {
		t.Errorf("Markdown page: %d ttl and %d jsonld blocks, want 2 and 2", strings.Count(md, "```ttl"), strings.Count(md, "```jsonld"))
	}
}
