package register

import (
	"os"
	"path/filepath"
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
