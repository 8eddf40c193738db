package site

import "testing"

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
