package register

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/context/ctxtest"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// tutorialNeedsImports are the blocks of the OGC tutorial register that
// depend on blocks of the main OGC register (imports: default), whose files
// ../shared does not hold.
var tutorialNeedsImports = []string{
	"ogc.bbr.tutorial.exercise6",
	"ogc.bbr.tutorial.exercise6_completed",
	"ogc.bbr.tutorial.exercise7_completed",
}

// TestBuildAtOGCPaths builds the MCP register and the OGC tutorial
// register with jrpcld build and compares the contexts with what the OGC
// tool chain's own code built for them (../shared/reference/ogc-full), at
// the paths the tool chain writes them (annotated/ + the block id without
// its first component), by what they mean; a block the tool chain writes
// no context for gets none. Blocks that need an imported register fail,
// naming the import.
func TestBuildAtOGCPaths(t *testing.T) {
	for name, src := range map[string]string{
		"mcp":      shared.Dir(t, "reference", "ogc-mcp-bblocks"),
		"tutorial": shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src"),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ref := shared.OGCFull(t, "ogc-full", name)
			reg, err := bblock.LoadRegisterDir(src, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, res := buildReg(t, reg, Options{})
			results := map[string]BlockResult{}
			for _, b := range res.Blocks {
				results[b.ID] = b
			}
			for _, rb := range ref.Blocks {
				id := rb.ID
				p := strings.ReplaceAll(strings.SplitN(id, ".", 2)[1], ".", "/")
				ours := filepath.Join(out, "annotated", filepath.FromSlash(p), "context.jsonld")
				_, statErr := os.Stat(ours)
				switch {
				case rb.Status == "skip":
					if statErr == nil || results[id].Passed || !strings.Contains(strings.Join(results[id].Errors, "\n"), "--import") {
						t.Errorf("%s needs an imported register: jrpcld should fail naming the import and --import: %+v", id, results[id])
					}
					if name == "tutorial" && !slices.Contains(tutorialNeedsImports, id) {
						t.Errorf("%s needs an import, which the test does not expect", id)
					}
				case rb.Context != "":
					if statErr != nil {
						t.Errorf("%s: the tool chain writes %s, jrpcld does not", id, rb.Context)
						continue
					}
					want := readJSON(t, filepath.Join(ref.Dir, filepath.FromSlash(rb.Context)))["@context"]
					got := readJSON(t, ours)["@context"]
					for _, d := range ctxtest.DiffEffective(t, got, want) {
						t.Errorf("%s: annotated/%s/context.jsonld differs from the tool chain's: %s", id, p, d)
					}
				default:
					if statErr == nil {
						t.Errorf("%s: the tool chain writes no context, jrpcld writes %s", id, ours)
					}
				}
			}
			if len(ref.Blocks) != len(reg.Blocks) {
				t.Errorf("the tool chain built %d blocks, jrpcld built %d", len(ref.Blocks), len(reg.Blocks))
			}
		})
	}
}

// TestBuildTutorialGraphs compares the verdict on each block, and every
// example graph the OGC tool chain published for the tutorial register (tests/PATH/example_*.ttl) with
// jrpcld's at the same path, by isomorphism, each read by rapper (a literal
// typed xsd:string is a plain one, as in RDF 1.1: the tool chain writes the
// type). The blocks that need the main OGC register are left out, and said
// to be.
func TestBuildTutorialGraphs(t *testing.T) {
	pub := shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "published")
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	// The verdicts, as register.json's validationPassed: jrpcld's match the
	// tool chain's (SHACL rules aside, which jrpcld does not check and
	// which, in this register, only decide test resources that must fail).
	published := readJSON(t, filepath.Join(pub, "register.json"))
	verdicts := map[string]bool{}
	for _, b := range published["bblocks"].([]any) {
		m := b.(map[string]any)
		verdicts[m["itemIdentifier"].(string)], _ = m["validationPassed"].(bool)
	}
	for _, b := range res.Blocks {
		if slices.Contains(tutorialNeedsImports, b.ID) {
			continue
		}
		if want, ok := verdicts[b.ID]; !ok || b.Passed != want {
			t.Errorf("%s: passed %v, the tool chain published validationPassed %v (%v)", b.ID, b.Passed, want, b.Errors)
		}
	}
	files, err := filepath.Glob(filepath.Join(pub, "tests", "bbr", "tutorial", "*", "example_*.ttl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no published example graphs: %v", err)
	}
	compared := 0
	for _, f := range files {
		rel, _ := filepath.Rel(pub, f)
		block := "ogc.bbr.tutorial." + filepath.Base(filepath.Dir(f))
		if slices.Contains(tutorialNeedsImports, block) {
			t.Logf("%s: left out, %s needs the main OGC register", rel, block)
			continue
		}
		ours, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		want := rdftest.ParseWith(t, "rapper", "turtle", readFile(t, f), "")
		got := rdftest.ParseWith(t, "rapper", "turtle", ours, "")
		if ok, why := rdftest.IsomorphicQuads(got, want); !ok {
			t.Errorf("%s differs from the published graph: %s", rel, why)
		}
		compared++
	}
	if compared < 13 {
		t.Errorf("compared %d graphs, want all 13 of the blocks without imports", compared)
	}
}

// TestBuildMatchesPublishedContexts holds jrpcld build to the files the
// OGC tool chain published (../shared/reference/ogc-published), not only to
// the reference builds: each published annotated/PATH/context.jsonld, of the
// MCP register as the current tool chain builds it and of the tutorial
// register as published, must mean what jrpcld writes at the same path.
// The tutorial blocks that need the main OGC register are left out, and
// said to be.
func TestBuildMatchesPublishedContexts(t *testing.T) {
	for name, c := range map[string]struct{ src, pub string }{
		"mcp": {shared.Dir(t, "reference", "ogc-mcp-bblocks"), shared.Dir(t, "reference", "ogc-published", "mcp-bblocks-current")},
		"tutorial": {shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src"),
			shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "published")},
	} {
		t.Run(name, func(t *testing.T) {
			reg, err := bblock.LoadRegisterDir(c.src, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := buildReg(t, reg, Options{})
			var published []string
			err = filepath.WalkDir(filepath.Join(c.pub, "annotated"), func(p string, d os.DirEntry, err error) error {
				if err == nil && d.Name() == "context.jsonld" {
					published = append(published, p)
				}
				return err
			})
			if err != nil || len(published) == 0 {
				t.Fatalf("no published contexts in %s: %v", c.pub, err)
			}
			compared := 0
			for _, p := range published {
				rel, _ := filepath.Rel(c.pub, p)
				block := "ogc." + strings.ReplaceAll(filepath.ToSlash(filepath.Dir(strings.TrimPrefix(rel, "annotated"+string(filepath.Separator)))), "/", ".")
				if slices.Contains(tutorialNeedsImports, block) {
					t.Logf("%s: left out, %s needs the main OGC register", rel, block)
					continue
				}
				if _, err := os.Stat(filepath.Join(out, rel)); err != nil {
					t.Errorf("%s: published, not written by jrpcld: %v", rel, err)
					continue
				}
				got := readJSON(t, filepath.Join(out, rel))["@context"]
				want := readJSON(t, p)["@context"]
				for _, d := range ctxtest.DiffEffective(t, got, want) {
					t.Errorf("%s differs from the published context: %s", rel, d)
				}
				compared++
			}
			if compared == 0 {
				t.Error("no published context compared")
			}
			t.Logf("%d published contexts compared", compared)
		})
	}
}
