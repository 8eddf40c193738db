package site

import (
	"strings"
	"testing"
)

// TestLinks follows links from a description and from the index through
// a small build: two blocks below _sources/geo, one file published, one
// only in the sources.
func TestLinks(t *testing.T) {
	published := map[string]bool{"_sources/geo/a/fig.png": true}
	exists := map[string]bool{"_sources/geo/a/fig.png": true, "_sources/geo/a/notes.txt": true}
	bt := &Built{
		Blocks: []BuiltBlock{
			{ID: "x.geo.a", Dir: "_sources/geo/a", Page: "bblock/x.geo.a.html", Sections: map[string]bool{"description": true, "report": true}},
			{ID: "x.geo.b", Dir: "_sources/geo/b", Page: "bblock/x.geo.b.html", Sections: map[string]bool{"examples": true, "report": true}},
		},
		Published: func(p string) bool { return published[p] },
		Exists:    func(p string) bool { return exists[p] },
	}
	tests := []struct {
		from, dir, dest string
		href            string // "" for text alone
		missing         bool   // whether missing is told
	}{
		{"bblock/x.geo.a.html", "_sources/geo/a", "fig.png#top", "../_sources/geo/a/fig.png#top", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "../b", "x.geo.b.html", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "../", "../index.html#q=x.geo.", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "bblocks://x.geo.b/examples", "x.geo.b.html#examples", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "bblocks://x.geo.b/ontology", "x.geo.b.html", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "bblocks://x.other", "", true},
		{"bblock/x.geo.a.html", "_sources/geo/a", "x.geo.b", "x.geo.b.html", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "validation", "", true},
		{"bblock/x.geo.a.html", "_sources/geo/a", "x.geo.a/validation", "x.geo.a.html#report", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "https://example.org/x", "https://example.org/x", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "#here", "#here", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "/abs/path", "", true},
		{"bblock/x.geo.a.html", "_sources/geo/a", "notes.txt", "", false},
		{"bblock/x.geo.a.html", "_sources/geo/a", "gone.txt", "", true},
		{"bblock/x.geo.a.html", "_sources/geo/a", "../../../../secret", "", true},
		{"index.html", "", "bblock/x.geo.a", "bblock/x.geo.a.html", false},
		{"index.html", "", "bblock/x.geo.a/about", "bblock/x.geo.a.html#description", false},
		{"index.html", "", "_sources/geo/", "index.html#q=x.geo.", false},
	}
	for _, tt := range tests {
		told := false
		href, ok := bt.Links(tt.from, tt.dir, func(string, string) { told = true })(tt.dest)
		if href != tt.href || ok != (tt.href != "") || told != tt.missing {
			t.Errorf("from %s in %q, %q: got %q, %v, missing told %v; want %q, missing told %v",
				tt.from, tt.dir, tt.dest, href, ok, told, tt.href, tt.missing)
		}
	}
}

// TestGraphAndDeps draws the graphs of a build of three blocks, c
// depending on b, b on a and on an import, and lists their dependencies.
func TestGraphAndDeps(t *testing.T) {
	bt := &Built{
		Blocks: []BuiltBlock{
			{ID: "x.a", Name: "A", Page: "bblock/x.a.html"},
			{ID: "x.b", Name: "B", Page: "bblock/x.b.html", Deps: []string{"x.a", "o.imp"}},
			{ID: "x.c", Name: "C", Page: "bblock/x.c.html", Deps: []string{"x.b"}},
			{ID: "x.d", Name: "D", Page: "bblock/x.d.html"},
		},
		NameOf: func(id string) string { return map[string]string{"o.imp": "Imported"}[id] },
	}
	ids := func(nodes []GraphNode) string {
		var s []string
		for _, n := range nodes {
			s = append(s, n.ID+"="+n.Name+"@"+n.Page)
		}
		return strings.Join(s, " ")
	}
	tests := []struct{ from, id, want string }{
		{"index.html", "", "x.a=A@bblock/x.a.html x.b=B@bblock/x.b.html x.c=C@bblock/x.c.html x.d=D@bblock/x.d.html o.imp=Imported@"},
		{"bblock/x.b.html", "x.b", "x.a=A@x.a.html x.b=B@x.b.html x.c=C@x.c.html o.imp=Imported@"},
		// The blocks not built that a kept block depends on are drawn,
		// also for a block that depends on the page's (as the pages
		// always drew them).
		{"bblock/x.a.html", "x.a", "x.a=A@x.a.html x.b=B@x.b.html o.imp=Imported@"},
		{"bblock/x.d.html", "x.d", "x.d=D@x.d.html"},
	}
	for _, tt := range tests {
		nodes := bt.Graph(tt.from, tt.id)
		if got := ids(nodes); got != tt.want {
			t.Errorf("Graph(%s, %q) = %s, want %s", tt.from, tt.id, got, tt.want)
		}
		for _, n := range nodes {
			if n.Current != (n.ID == tt.id) {
				t.Errorf("Graph(%s, %q): %s current %v", tt.from, tt.id, n.ID, n.Current)
			}
		}
	}
	deps := bt.Deps("index.html", []string{"x.a", "o.imp"})
	if len(deps) != 2 || deps[0] != (Dep{ID: "x.a", Page: "bblock/x.a.html"}) || deps[1] != (Dep{ID: "o.imp"}) {
		t.Errorf("Deps = %+v", deps)
	}
}
