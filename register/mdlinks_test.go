package register

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
)

// linksTree is a register whose texts link every way the OGC tool chain's
// authors do: to files beside a description, to other blocks' folders, to
// a folder of blocks, by bblocks:// URI and as the viewer's pages, and to
// things the build cannot publish.
var linksTree = fstest.MapFS{
	"bblocks-config.yaml": {Data: []byte("name: Links\nidentifier-prefix: l.\n" +
		"description: Start with [the first](bblock/l.geo.first), see [geo](_sources/geo/) and [nothing](bblock/l.nope).\n")},
	"_sources/geo/first/bblock.json": {Data: []byte(`{"name": "First", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1",
 "abstract": "The [second](bblocks://l.geo.second/examples) block."}`)},
	"_sources/geo/first/description.md": {Data: []byte("See [the figure](fig.png#top), [the second block](../second), " +
		"[its examples](bblocks://l.geo.second/examples), [a sibling page](l.geo.second), [all of geo](../), " +
		"[the web](https://example.org/x), [a report](/register/build-local/tests/report.html), [validation](validation), " +
		"[the configuration](../../../bblocks-config.yaml), [outside](../../../../secret) and [an import](bblocks://other.block).\n")},
	"_sources/geo/first/fig.png":        {Data: []byte("\x89PNG")},
	"_sources/geo/second/bblock.json":   {Data: []byte(`{"name": "Second", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`)},
	"_sources/geo/second/examples.yaml": {Data: []byte("examples:\n  - title: One\n    content: Back to [the first](../first/description.md).\n")},
}

var hrefRE = regexp.MustCompile(`<a href="([^"]*)">([^<]*)</a>`)

// TestMarkdownLinks builds linksTree and reads where the pages' links lead
// and what the build warns of.
func TestMarkdownLinks(t *testing.T) {
	reg, err := bblock.LoadRegister(linksTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	// A file beside a description is linked where the build published
	// its copy, and shown as text when it did not.
	published := func(p, href string) string {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			return ""
		}
		return href
	}
	figure := published("_sources/geo/first/fig.png", "../_sources/geo/first/fig.png#top")
	firstDescription := published("_sources/geo/first/description.md", "../_sources/geo/first/description.md")
	links := func(page string) map[string]string {
		got := map[string]string{}
		for _, m := range hrefRE.FindAllStringSubmatch(string(readFile(t, filepath.Join(out, page))), -1) {
			got[m[2]] = m[1]
		}
		return got
	}
	tests := []struct {
		page, text, href string // href "" for text alone
	}{
		{"index.html", "the first", "bblock/l.geo.first.html"},
		{"index.html", "geo", "index.html#q=l.geo."},
		{"index.html", "nothing", ""},
		{"bblock/l.geo.first.html", "second", "l.geo.second.html#examples"},
		{"bblock/l.geo.first.html", "the figure", figure},
		{"bblock/l.geo.first.html", "the second block", "l.geo.second.html"},
		{"bblock/l.geo.first.html", "its examples", "l.geo.second.html#examples"},
		{"bblock/l.geo.first.html", "a sibling page", "l.geo.second.html"},
		{"bblock/l.geo.first.html", "all of geo", "../index.html#q=l.geo."},
		{"bblock/l.geo.first.html", "the web", "https://example.org/x"},
		{"bblock/l.geo.first.html", "a report", ""},
		{"bblock/l.geo.first.html", "validation", ""},
		{"bblock/l.geo.first.html", "outside", ""},
		{"bblock/l.geo.first.html", "the configuration", ""},
		{"bblock/l.geo.first.html", "an import", ""},
		{"bblock/l.geo.second.html", "the first", firstDescription},
	}
	pages := map[string]map[string]string{}
	for _, tc := range tests {
		if pages[tc.page] == nil {
			pages[tc.page] = links(tc.page)
		}
		if got := pages[tc.page][tc.text]; got != tc.href {
			t.Errorf("%s: %q links to %q, want %q", tc.page, tc.text, got, tc.href)
		}
	}
	var warns []string
	warns = append(warns, res.Warnings...)
	for _, b := range res.Blocks {
		warns = append(warns, b.Warnings...)
	}
	all := strings.Join(warns, "\n")
	for _, want := range []string{
		`bblocks-config.yaml: the link "bblock/l.nope" leads nowhere (no file bblock/l.nope in the register's sources)`,
		`description.md: the link "/register/build-local/tests/report.html" leads nowhere (a path from the web server's root`,
		`description.md: the link "validation" leads nowhere (no file _sources/geo/first/validation in the register's sources)`,
		`description.md: the link "../../../../secret" leads nowhere (outside the register's sources)`,
		`description.md: the link "bblocks://other.block" leads nowhere (no block other.block in this build)`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in\n%s", want, all)
		}
	}
	// A file of the sources the build did not publish is shown as text,
	// without a warning: the author's link is right.
	if n := strings.Count(all, "leads nowhere"); n != 5 {
		t.Errorf("%d warnings of links, want 5:\n%s", n, all)
	}
}
