package toolchain

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/context/ctxtest"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// oracleCase is a register whose contexts and annotated schemas jrpcld
// builds and compares with what the OGC tool chain's own code built for it
// (../shared/reference/SET/REF).
type oracleCase struct {
	dir  string
	fsys fs.FS  // the sources when they are not a folder (the embedded block)
	set  string // the set of reference builds: ogc-full or ogc-pending
	ref  string // the folder of the reference build in set
	// contextMap maps context references, as the user would with
	// --context-map: jrpcld reads no file a context names by itself.
	contextMap map[string]string
	// deviations are the terms where jrpcld's context means something else
	// on purpose, by block.
	deviations map[string][]deviation
	// betterThanOracle lists the blocks the tool chain fails on and jrpcld
	// builds, with the warning that says why.
	betterThanOracle map[string]string
	// loads lists the blocks the tool chain could not load and jrpcld
	// builds, with the departure of docs/ogc.md that says why.
	loads map[string]string
	// departs lists the blocks whose context or annotated schema differs
	// from the tool chain's on purpose, with the departure of docs/ogc.md
	// that says how: jrpcld builds both, and they are not compared.
	departs map[string]string
	keep    bool // built with Options.KeepMeaning
}

// deviation is a term whose meaning the tool chain's compaction changes:
// at is "scope path|term" (the path "a/b", "" for the top). By default
// jrpcld compacts as the tool chain does and warns with the words of
// changed; with Options.KeepMeaning it keeps the meaning, so its context
// differs there, and warns with the words of kept.
type deviation struct {
	at      string
	kept    []string
	changed []string
}

func oracleCases(t *testing.T) map[string]oracleCase {
	regs := filepath.Join("..", "..", "testdata", "ogc-registers")
	cases := map[string]oracleCase{}
	entries, err := os.ReadDir(regs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := oracleCase{dir: filepath.Join(regs, e.Name()), ref: "testdata-" + e.Name()}
		// Its reference is in ogc-full, or in ogc-pending for those built
		// later; a register with neither fails (testOracle).
		for _, set := range []string{"ogc-full", "ogc-pending"} {
			if shared.HasOGCFull(t, set, c.ref) {
				c.set = set
			}
		}
		cases[e.Name()] = c
	}
	abs := func(p ...string) string {
		a, err := filepath.Abs(filepath.Join(append([]string{regs}, p...)...))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	// References inside contexts, mapped as a user would.
	c := cases["context-syntax"]
	c.contextMap = map[string]string{"shared-terms.jsonld": abs("context-syntax", "_sources", "import-context", "shared-terms.jsonld")}
	cases["context-syntax"] = c
	// The tool chain drops a scoped term that an outer context defines in a
	// way that contains it, even where a nearer scope defines it otherwise,
	// or the outer definition says more: the term would change meaning.
	c = cases["scoped-contexts"]
	c.deviations = map[string][]deviation{"t.sensor": {{"calibration/operator|label",
		[]string{`term "label"`, "calibration > operator", "is kept"},
		[]string{`term "label"`, "calibration > operator", "is dropped", "now means sn:calibrationLabel (@language en) instead of sn:label", "--keep-meaning"}}}}
	cases["scoped-contexts"] = c
	// The tool chain compacts an IRI with a prefix that the scope redefines.
	c = cases["prefix-shadowing"]
	c.deviations = map[string][]deviation{"t.doc": {{"part|name",
		[]string{"http://example.org/a/name is written in full"},
		[]string{"http://example.org/a/name is written ex:name", "defines \"ex\" as http://example.org/b/", "--keep-meaning"}}}}
	cases["prefix-shadowing"] = c
	c = cases["oracle-errors"]
	c.betterThanOracle = map[string]string{"t.self-ref": "RecursionError"}
	cases["oracle-errors"] = c
	// A snippet's shacl-closure written as one string: the tool chain's
	// check of examples.yaml refuses the block.
	c = cases["shacl-checks"]
	c.loads = map[string]string{"t.member": "departure 13"}
	cases["shacl-checks"] = c
	// The tool chain fails on the block whose annotated schema keeps a
	// reference into its own schema, moved by extends (departure 16).
	// And the tool chain leaves the reference to the extended block as
	// bblocks://ID, and builds no context (departure 21).
	c = cases["extends"]
	c.betterThanOracle = map[string]string{"t.detailed": "are moved with it"}
	c.departs = map[string]string{"t.tagged": "departure 21"}
	cases["extends"] = c
	// The schema built for extension points (departure 19).
	c = cases["extension-points"]
	c.departs = map[string]string{"t.walk": "departure 19", "t.mountain-trip": "departure 19"}
	cases["extension-points"] = c
	cases["mcp"] = oracleCase{dir: shared.Dir(t, "reference", "ogc-mcp-bblocks"), set: "ogc-full", ref: "mcp"}
	cases["tutorial"] = oracleCase{dir: shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src"), set: "ogc-full", ref: "tutorial"}
	cases["jsonrpc"] = oracleCase{fsys: embeddedRegister(t), set: "ogc-pending", ref: "jsonrpc"}
	return cases
}

// embeddedRegister returns the register of the embedded JSON-RPC 2.0 block
// alone, as the reference build ogc-pending/jsonrpc was made of it: the
// block in _sources/json-rpc, the identifier prefix jrpcld.
func embeddedRegister(t *testing.T) fs.FS {
	tree := fstest.MapFS{bblock.ConfigFile: {Data: []byte("name: embedded\nidentifier-prefix: jrpcld.\nimports: []\n")}}
	src := bblock.DefaultFS()
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		tree[path.Join(bblock.SourcesDir, "json-rpc", p)] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestOracle builds every context and annotated schema of the synthetic
// registers of testdata/ogc-registers, of the MCP register and of the OGC
// tutorial register and of the embedded block, and requires what the OGC
// tool chain's own code built for them (../shared/reference/ogc-full and
// ogc-pending): contexts that mean the same in
// every scope (compared with json-gold as the JSON-LD processor: the
// definition in effect of every term, at the top and under every chain of
// property-scoped contexts), and equal annotated schemas. Where the tool
// chain built no context, jrpcld builds none; where it needs an imported
// register, jrpcld says so; where it failed (a block with a schema and no
// annotated schema), jrpcld fails too, except in the listed cases, where it
// builds the context and warns. The deliberate deviations are listed and
// must come with a warning. Contexts are built both ways: as the tool chain
// compacts them (the default: equal everywhere, a warning where a term's
// meaning changes) and keeping each term's meaning (Options.KeepMeaning:
// the listed deviations).
func TestOracle(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(map[bool]string{false: "as the tool chain", true: "keeping meaning"}[keep], func(t *testing.T) { testOracle(t, keep) })
	}
}

func testOracle(t *testing.T, keep bool) {
	for name, oc := range oracleCases(t) {
		oc.keep = keep
		t.Run(name, func(t *testing.T) {
			if oc.set == "" {
				t.Fatalf("no reference build of %s in ../shared/reference/ogc-full nor ogc-pending: ask for one", name)
			}
			t.Parallel()
			ref := shared.OGCFull(t, oc.set, oc.ref)
			var reg *bblock.Register
			var err error
			if oc.fsys != nil {
				reg, err = bblock.LoadRegister(oc.fsys, nil)
			} else {
				reg, err = bblock.LoadRegisterDir(oc.dir, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			tc := New(reg, &ldctx.Options{Files: oc.contextMap, KeepMeaning: keep})
			for _, rb := range ref.Blocks {
				b := reg.Block(rb.ID)
				if b == nil {
					t.Errorf("%s: the tool chain built a block jrpcld does not see", rb.ID)
					continue
				}
				checkOracleBlock(t, tc, b, rb, filepath.Join(ref.Dir, "annotated", filepath.FromSlash(b.OutputPath())), oc)
			}
			if len(ref.Blocks) != len(reg.Blocks) {
				t.Errorf("the tool chain built %d blocks, jrpcld loads %d", len(ref.Blocks), len(reg.Blocks))
			}
		})
	}
}

// refStatus is what the tool chain did with a block's context: "ok" (it
// wrote one), "none" (it annotated the schema, or there is none, and wrote
// no context), "skip" (the block needs an imported register), "error" (it
// has a schema and the tool chain wrote no annotated schema: it failed, or
// it could not load the block at all).
func refStatus(b *bblock.Block, rb shared.RefBlock, dir string) string {
	switch {
	case rb.Status == "skip", rb.Status == "error":
		return rb.Status
	case rb.Context != "":
		return "ok"
	}
	if _, err := os.Stat(filepath.Join(dir, "schema.yaml")); err == nil || b.Files.Schema == "" {
		return "none"
	}
	return "error"
}

func checkOracleBlock(t *testing.T, tc *Toolchain, b *bblock.Block, rb shared.RefBlock, dir string, oc oracleCase) {
	doc, warns, err := tc.Context(b)
	status := refStatus(b, rb, dir)
	if rb.Status == "error" {
		// The tool chain could not load the block.
		if why, ok := oc.loads[b.ID]; !ok || err != nil || doc == nil {
			t.Errorf("%s: the tool chain could not load it; jrpcld should build it (%s): %v", b.ID, why, err)
		}
		return
	}
	if why, ok := oc.departs[b.ID]; ok {
		if _, _, aerr := tc.Annotate(b); err != nil || doc == nil || aerr != nil {
			t.Errorf("%s: jrpcld departs from the tool chain here (%s) and should build the context and annotated schema: %v, %v", b.ID, why, err, aerr)
		}
		return
	}
	switch status {
	case "skip":
		// It needs an imported register, or a schema named by a URL
		// nothing maps: an error naming the import, or --map.
		if !errors.Is(err, ErrImport) && !strings.Contains(b.Problems.Errors().Error(), "--map") {
			t.Errorf("%s needs an imported register or a mapped URL: got %v, %v", b.ID, err, b.Problems)
		}
		return
	case "error":
		if why, ok := oc.betterThanOracle[b.ID]; ok {
			if err != nil || doc == nil || !hasWarning(warns, why) {
				t.Errorf("%s: the tool chain fails on it (%s); jrpcld should build it and warn: %v, warnings %v", b.ID, why, err, warns)
			}
			return
		}
		if err == nil {
			t.Errorf("%s: the tool chain fails on it, jrpcld builds it", b.ID)
		}
		return
	case "none":
		if err != nil && !errors.Is(err, ErrNoSchema) || doc != nil {
			t.Errorf("%s: the tool chain builds no context; jrpcld: %v, %v", b.ID, doc != nil, err)
		}
	default:
		if err != nil || doc == nil {
			t.Errorf("%s: %v (context %v)", b.ID, err, doc != nil)
			return
		}
		// The context, by meaning.
		want := readJSONFile(t, filepath.Join(dir, "context.jsonld"))
		got := ojson.Plain(doc.v)
		diffs := ctxtest.DiffEffective(t, got.(map[string]any)["@context"], want.(map[string]any)["@context"])
		expected := oc.deviations[b.ID]
		matches := func(d, e string) bool { return strings.HasPrefix(d, e+":") }
		for _, d := range diffs {
			if !oc.keep || !slices.ContainsFunc(expected, func(e deviation) bool { return matches(d, e.at) }) {
				t.Errorf("%s: context differs from the tool chain's: %s", b.ID, d)
			}
		}
		for _, e := range expected {
			words := e.changed
			if oc.keep {
				words = e.kept
				if !slices.ContainsFunc(diffs, func(d string) bool { return matches(d, e.at) }) {
					t.Errorf("%s: the deliberate difference at %s is gone; update the test", b.ID, e.at)
				}
			}
			if !hasWarning(warns, words...) {
				t.Errorf("%s: no warning %q about %s in %v", b.ID, words, e.at, warns)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "schema.yaml")); err != nil {
		return // no schema, so no annotated schema
	}

	// The annotated schema, by value, its references written as the tool
	// chain writes them (below its base URL).
	ann, _, err := tc.Annotate(b)
	if err != nil {
		t.Errorf("%s: annotating: %v", b.ID, err)
		return
	}
	wantSchema := readYAMLFile(t, filepath.Join(dir, "schema.yaml"))
	gotSchema := ann.MapRefs(func(r string) string {
		if strings.HasPrefix(r, "/") {
			return oracleBaseURL + r[1:]
		}
		return r
	}).v
	if !ojson.Equal(gotSchema, wantSchema) {
		gj, _ := ojson.Marshal(gotSchema)
		wj, _ := ojson.Marshal(wantSchema)
		t.Errorf("%s: annotated schema differs from the tool chain's:\n--- jrpcld\n%s\n--- tool chain\n%s", b.ID, gj, wj)
	}
}

// oracleBaseURL is the register URL the reference builds were made with.
const oracleBaseURL = "https://ogc-oracle.invalid/register/"

func readJSONFile(t *testing.T, p string) any {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.DecodeJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return ojson.Plain(v)
}

func readYAMLFile(t *testing.T, p string) any {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.DecodeYAML(data)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return v
}
