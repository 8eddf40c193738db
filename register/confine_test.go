package register

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
)

// blockMeta is a minimal bblock.json.
const blockMeta = `{"name": "X", "status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`

// TestOutputConfined (issue 23, item 1): nothing a register source tree
// says, and no symbolic link already in the output folder, makes the build
// write outside -o.
func TestOutputConfined(t *testing.T) {
	t.Run("identifier-prefix", func(t *testing.T) {
		top := t.TempDir()
		escape := filepath.Join(top, "escaped")
		out := filepath.Join(top, "a", "b", "c", "out")
		// From out/bblock/, "../../../../" is top: the page of block x
		// would be top/escaped/.x.html.
		tree := fstest.MapFS{
			"bblocks-config.yaml":    {Data: []byte("identifier-prefix: \"../../../../escaped/\"\nimports: []\n")},
			"_sources/x/bblock.json": {Data: []byte(blockMeta)},
		}
		reg, err := bblock.LoadRegister(tree, nil)
		if err == nil {
			Build(reg, out, Options{})
			t.Fatalf("a prefix with slashes is accepted (block ids %v)", reg.IDs())
		}
		if !strings.Contains(err.Error(), "identifier-prefix") || !strings.Contains(err.Error(), bblock.ConfigFile) {
			t.Errorf("the error does not name the key and its file: %v", err)
		}
		if _, err := os.Stat(escape); err == nil {
			t.Errorf("%s was written", escape)
		}
	})
	t.Run("link in the output folder", func(t *testing.T) {
		top := t.TempDir()
		elsewhere := filepath.Join(top, "elsewhere")
		out := filepath.Join(top, "out")
		for _, d := range []string{elsewhere, out} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(elsewhere, filepath.Join(out, "tests")); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		// register.json a link to a file outside: replaced, not written through.
		victim := filepath.Join(top, "victim.json")
		if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(out, "register.json")); err != nil {
			t.Fatal(err)
		}
		reg, err := DefaultRegister()
		if err != nil {
			t.Fatal(err)
		}
		_, err = Build(reg, out, Options{})
		if err == nil {
			t.Error("the build wrote through a link that leaves the output folder")
		}
		if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
			t.Errorf("the build wrote %d entries into %s through out/tests", len(entries), elsewhere)
		}
		if data, _ := os.ReadFile(victim); string(data) != "keep" {
			t.Errorf("the build wrote %s through out/register.json", victim)
		}
	})
	t.Run("names", func(t *testing.T) {
		top := t.TempDir()
		out := filepath.Join(top, "out")
		for _, name := range []string{"../x", "a/../../x", "/x"} {
			if err := writeTree(out, map[string][]byte{name: []byte("x")}); err == nil {
				t.Errorf("writeTree wrote %q", name)
			}
		}
		if entries, _ := os.ReadDir(top); len(entries) != 1 {
			t.Errorf("%s holds %d entries, want out alone", top, len(entries))
		}
	})
}

// TestSourcesConfined (issue 23, item 2): a file of the sources that is a
// symbolic link leading outside _sources (a schema, a context, a
// description, a snippet, a test resource, a folder a $ref goes through) is
// refused with an error that says so, and nothing of what it leads to is
// read, published or copied; links that stay inside _sources are followed.
func TestSourcesConfined(t *testing.T) {
	top := t.TempDir()
	const secret = "SECRET-c4f1"
	outside := filepath.Join(top, "outside")
	src := filepath.Join(top, "src")
	files := map[string]string{
		"outside/schema.yaml":              "type: object\nproperties:\n  " + secret + ":\n    type: string\n",
		"outside/context.json":             `{"@context": {"` + secret + `": "http://example.com/` + secret + `"}}`,
		"outside/text.md":                  secret + "\n",
		"outside/snippet.json":             `{"` + secret + `": "x"}`,
		"outside/dir/part.yaml":            "type: object\nproperties:\n  " + secret + ":\n    type: string\n",
		"src/bblocks-config.yaml":          "identifier-prefix: t.\nimports: []\n",
		"src/_sources/a/bblock.json":       blockMeta,
		"src/_sources/a/examples.yaml":     "- title: linked\n  snippets:\n    - language: json\n      ref: ex.json\n",
		"src/_sources/b/bblock.json":       blockMeta,
		"src/_sources/b/schema.yaml":       "type: object\nallOf:\n  - $ref: ../shared/part.yaml\n",
		"src/_sources/c/bblock.json":       blockMeta,
		"src/_sources/c/schema.yaml":       "type: object\nproperties:\n  name:\n    type: string\n",
		"src/_sources/c/context.jsonld":    `{"@context": {"name": "http://example.com/name"}}`,
		"src/_sources/d/bblock.json":       blockMeta,
		"src/_sources/d/schema.yaml":       "type: object\n",
		"src/_sources/d/tests/x.json":      "{}",
		"src/_sources/keep/bblock.json":    blockMeta,
		"src/_sources/keep/context.jsonld": `{"@context": {"name": "http://example.com/name"}}`,
	}
	for name, content := range files {
		p := filepath.Join(top, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{ // link in src/_sources -> target
		"a/schema.yaml":    filepath.Join(outside, "schema.yaml"),
		"a/context.jsonld": "../../../outside/context.json",
		"a/description.md": filepath.Join(outside, "text.md"),
		"a/ex.json":        filepath.Join(outside, "snippet.json"),
		"shared":           "../../outside/dir",
		"d/tests/y.json":   filepath.Join(outside, "snippet.json"),
		// Inside _sources: followed.
		"keep/schema.yaml": "../c/schema.yaml",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(src, "_sources", filepath.FromSlash(name))); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	reg, err := bblock.LoadRegisterDir(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	for name, data := range tree(t, out) {
		if strings.Contains(string(data), secret) {
			t.Errorf("%s holds what a link outside the sources leads to", name)
		}
	}
	byID := map[string]BlockResult{}
	for _, b := range res.Blocks {
		byID[b.ID] = b
	}
	for _, id := range []string{"t.a", "t.b", "t.d"} {
		b := byID[id]
		if b.Passed {
			t.Errorf("%s passed", id)
		}
		if msgs := strings.Join(b.Errors, "\n"); !strings.Contains(msgs, "symbolic link leads outside") {
			t.Errorf("%s: no error says a link leads outside the sources:\n%s", id, msgs)
		}
	}
	if b := byID["t.keep"]; !b.Passed {
		t.Errorf("t.keep, whose schema is a link inside _sources, fails: %v", b.Errors)
	}
	if ctx := readFile(t, filepath.Join(out, "annotated", "keep", "context.jsonld")); !strings.Contains(string(ctx), "http://example.com/name") {
		t.Errorf("t.keep's context lacks its term:\n%s", ctx)
	}
}

// TestSourcesFolderConfined: a _sources folder that is itself a link out of
// the register is refused.
func TestSourcesFolderConfined(t *testing.T) {
	top := t.TempDir()
	outside := filepath.Join(top, "outside")
	src := filepath.Join(top, "src")
	for _, d := range []string{filepath.Join(outside, "x"), src} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(outside, "x", "bblock.json"), []byte(blockMeta), 0o644)
	os.WriteFile(filepath.Join(src, bblock.ConfigFile), []byte("identifier-prefix: t.\nimports: []\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(src, bblock.SourcesDir)); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	reg, err := bblock.LoadRegisterDir(src, nil)
	if err == nil {
		t.Fatalf("loaded, blocks %v", reg.IDs())
	}
	if !errors.Is(err, bblock.ErrLeavesTree) {
		t.Errorf("the error does not say a link leads outside: %v", err)
	}
}

// writeTree writes the files below the folder out as a build does (see
// treeWriter), in the order of their names.
func writeTree(out string, files map[string][]byte) error {
	tw := &treeWriter{out: out}
	defer tw.close()
	for _, n := range slices.Sorted(maps.Keys(files)) {
		if err := tw.write(n, files[n]); err != nil {
			return err
		}
	}
	return nil
}
