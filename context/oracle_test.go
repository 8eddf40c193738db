package context

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ctxtest"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/shared"
)

// oracleCase is a register the differential test builds with the OGC tool
// chain's own code (../shared/tools/ogc-oracle) and with jrpcld.
type oracleCase struct {
	dir string
	// contextMap maps context references, as the user would with
	// --context-map: jrpcld reads no file a context names by itself.
	contextMap map[string]string
	// deviations are the terms where jrpcld's context means something else
	// on purpose, by block.
	deviations map[string][]deviation
	// betterThanOracle lists the blocks the oracle fails on and jrpcld
	// builds, with the warning that says why.
	betterThanOracle map[string]string
}

// deviation is a term whose meaning jrpcld keeps where the tool chain
// changes it: at is "scope path|term" (the path "a/b", "" for the top), and
// warn the words of the warning that says so.
type deviation struct {
	at   string
	warn []string
}

func oracleCases(t *testing.T) map[string]oracleCase {
	regs := filepath.Join("..", "testdata", "ogc-registers")
	cases := map[string]oracleCase{}
	entries, err := os.ReadDir(regs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			cases[e.Name()] = oracleCase{dir: filepath.Join(regs, e.Name())}
		}
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
	c.deviations = map[string][]deviation{"t.sensor": {{"calibration/operator|label", []string{`term "label"`, "calibration > operator"}}}}
	cases["scoped-contexts"] = c
	// The tool chain compacts an IRI with a prefix that the scope redefines.
	c = cases["prefix-shadowing"]
	c.deviations = map[string][]deviation{"t.doc": {{"part|name", []string{"http://example.org/a/name is written in full"}}}}
	cases["prefix-shadowing"] = c
	c = cases["oracle-errors"]
	c.betterThanOracle = map[string]string{"t.self-ref": "RecursionError"}
	cases["oracle-errors"] = c
	cases["embedded"] = oracleCase{dir: embeddedRegister(t)}
	cases["mcp"] = oracleCase{dir: shared.Dir(t, "reference", "ogc-mcp-bblocks")}
	cases["tutorial"] = oracleCase{dir: shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src")}
	return cases
}

// TestOracle builds every context and annotated schema of the synthetic
// registers of testdata/ogc-registers, of the MCP register and of the OGC
// tutorial register with the OGC tool chain's own code and with jrpcld, and
// requires the same: contexts that mean the same in every scope (compared
// with json-gold as the JSON-LD processor: the definition in effect of every
// term, at the top and under every chain of property-scoped contexts), and
// equal annotated schemas. Where the oracle builds no context, jrpcld builds
// none; where it needs an imported register, jrpcld says so; where it fails,
// jrpcld fails too, except in the listed cases, where it builds the context
// and warns. The deliberate deviations are listed and must come with a
// warning.
func TestOracle(t *testing.T) {
	oracle := shared.Oracle(t)
	for name, oc := range oracleCases(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			cmd := exec.Command(oracle, oc.dir, out)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdout, err := cmd.Output()
			if err != nil {
				t.Fatalf("oracle: %v\n%s", err, stderr.Bytes())
			}
			reg, err := bblock.LoadRegisterDir(oc.dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			tc := NewToolchain(reg, &Options{Files: oc.contextMap})
			sc := bufio.NewScanner(bytes.NewReader(stdout))
			blocks := 0
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) < 2 || !slices.Contains([]string{"ok", "none", "skip", "error"}, f[0]) {
					continue
				}
				status, id := f[0], f[1]
				b := reg.Block(id)
				if b == nil {
					t.Errorf("%s: the oracle built a block jrpcld does not see", id)
					continue
				}
				blocks++
				checkOracleBlock(t, tc, b, status, filepath.Join(out, filepath.FromSlash(b.OutputPath())), oc)
			}
			if blocks != len(reg.Blocks) {
				t.Errorf("the oracle reported %d blocks, jrpcld loads %d:\n%s", blocks, len(reg.Blocks), stdout)
			}
		})
	}
}

func checkOracleBlock(t *testing.T, tc *Toolchain, b *bblock.Block, status, dir string, oc oracleCase) {
	doc, warns, err := tc.Context(b)
	switch status {
	case "skip":
		if !errors.Is(err, ErrImport) {
			t.Errorf("%s needs an imported register: got %v", b.ID, err)
		}
		return
	case "error":
		if why, ok := oc.betterThanOracle[b.ID]; ok {
			if err != nil || doc == nil || !hasWarning(warns, why) {
				t.Errorf("%s: the oracle fails on it (%s); jrpcld should build it and warn: %v, warnings %v", b.ID, why, err, warns)
			}
			return
		}
		if err == nil {
			t.Errorf("%s: the oracle fails on it, jrpcld builds it", b.ID)
		}
		return
	case "none":
		if err != nil && !errors.Is(err, ErrNoSchema) || doc != nil {
			t.Errorf("%s: the oracle builds no context; jrpcld: %v, %v", b.ID, doc != nil, err)
		}
		return
	}
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
		if !slices.ContainsFunc(expected, func(e deviation) bool { return matches(d, e.at) }) {
			t.Errorf("%s: context differs from the oracle's: %s", b.ID, d)
		}
	}
	for _, e := range expected {
		if !slices.ContainsFunc(diffs, func(d string) bool { return matches(d, e.at) }) {
			t.Errorf("%s: the deliberate difference at %s is gone; update the test", b.ID, e.at)
		}
		if !hasWarning(warns, e.warn...) {
			t.Errorf("%s: no warning %q about %s in %v", b.ID, e.warn, e.at, warns)
		}
	}

	// The annotated schema, by value, its references written as the
	// oracle writes them (below its base URL).
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
		t.Errorf("%s: annotated schema differs from the oracle's:\n--- jrpcld\n%s\n--- oracle\n%s", b.ID, gj, wj)
	}
}

// embeddedRegister writes the embedded JSON-RPC 2.0 block as a register
// source tree in a temporary folder, for the oracle.
func embeddedRegister(t *testing.T) string {
	dir := t.TempDir()
	write := func(p string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, bblock.ConfigFile), []byte("name: embedded\nidentifier-prefix: jrpcld.\nimports: []\n"))
	src := bblock.DefaultFS()
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		if err == nil {
			write(filepath.Join(dir, bblock.SourcesDir, "json-rpc", filepath.FromSlash(p)), data)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// oracleBaseURL is the register URL the oracle builds with (its default).
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
