package register

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
)

// TestDeepDescription: a description.md whose blockquotes nest past 512 is
// a warning naming the file, the line and the limit, and its page shows it
// as written; the block still builds.
func TestDeepDescription(t *testing.T) {
	meta := `{"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "api", "version": "1"}`
	fsys := fstest.MapFS{
		"bblocks-config.yaml":       {Data: []byte("identifier-prefix: t.\nimports: []\n")},
		"_sources/a/bblock.json":    {Data: []byte(meta)},
		"_sources/a/description.md": {Data: []byte("# A\n\n" + strings.Repeat(">", 100_000) + " <b>x</b>\n")},
		"_sources/a/examples.yaml":  {Data: []byte("[]\n")},
	}
	reg, err := bblock.LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	const want = "description.md line 3: blockquotes and lists nested more than 512 deep: the description is shown as written, not rendered"
	if len(res.Blocks) != 1 || !res.Blocks[0].Passed || !slices.Contains(res.Blocks[0].Warnings, want) {
		t.Fatalf("%+v, want a block that passed, with the warning %q", res.Blocks, want)
	}
	var page []byte
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") && strings.Contains(p, "t.a") {
			page, _ = os.ReadFile(p)
		}
		return nil
	})
	if !strings.Contains(string(page), "Shown as written: line 3 nests blockquotes and lists more than 512 deep.") ||
		!strings.Contains(string(page), "&gt;&gt;&gt; &lt;b&gt;x&lt;/b&gt;") {
		t.Errorf("the block's page does not show the description as written")
	}
}
