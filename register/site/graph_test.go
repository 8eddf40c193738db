package site

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestLayout checks the layout's promises on graphs with chains, shared
// dependencies, edges that skip columns, unknown dependencies and a cycle:
// a block stands right of what it depends on (but for the edge closing a
// cycle), an edge has a waypoint in each column it crosses, and no two
// vertices share a place.
func TestLayout(t *testing.T) {
	tests := []struct {
		name    string
		nodes   []GraphNode
		edges   int
		columns int
		back    int // edges that close a cycle
	}{
		{"chain", []GraphNode{{ID: "a"}, {ID: "b", Deps: []string{"a"}}, {ID: "c", Deps: []string{"b"}}}, 2, 3, 0},
		{"skip a column", []GraphNode{{ID: "a"}, {ID: "b", Deps: []string{"a"}}, {ID: "c", Deps: []string{"b", "a", "a"}}}, 3, 3, 0},
		{"diamond and an unknown dependency", []GraphNode{{ID: "a"}, {ID: "b", Deps: []string{"a", "zz"}}, {ID: "c", Deps: []string{"a"}},
			{ID: "d", Deps: []string{"b", "c"}}}, 4, 3, 0},
		{"cycle", []GraphNode{{ID: "a", Deps: []string{"c"}}, {ID: "b", Deps: []string{"a"}}, {ID: "c", Deps: []string{"b"}}, {ID: "d", Deps: []string{"d"}}}, 3, 3, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := layout(tc.nodes)
			if len(p.edges) != tc.edges || p.columns != tc.columns {
				t.Fatalf("%d edges in %d columns, want %d in %d", len(p.edges), p.columns, tc.edges, tc.columns)
			}
			back := 0
			for _, e := range p.edges {
				from, to := e[0], e[len(e)-1]
				if p.col[from] <= p.col[to] {
					back++
					continue
				}
				for k := 1; k < len(e); k++ {
					if p.col[e[k-1]] != p.col[e[k]]+1 {
						t.Errorf("edge %v jumps from column %d to %d", e, p.col[e[k-1]], p.col[e[k]])
					}
				}
			}
			if back != tc.back {
				t.Errorf("%d edges run right to left, want %d", back, tc.back)
			}
			seen := map[[2]int]bool{}
			for v := range p.col {
				at := [2]int{p.col[v], p.row[v]}
				if seen[at] {
					t.Errorf("two vertices at column %d row %d", at[0], at[1])
				}
				seen[at] = true
			}
		})
	}
}

// TestGraphSVG: a link per block built, none for the current block or an
// import, names escaped, cut to fit with the full name in the tooltip, and
// nothing drawn without an edge.
func TestGraphSVG(t *testing.T) {
	long := strings.Repeat("Long name ", 6)
	nodes := []GraphNode{{ID: "x.a", Name: "A <b>&", Page: "x.a.html"}, {ID: "x.b", Name: long, Page: "x.b.html", Deps: []string{"x.a", "y.c"}, Current: true},
		{ID: "y.c", Name: "Imported"}}
	svg := string(graphSVG(nodes, "Dependencies of x.b"))
	links := regexp.MustCompile(`<a href="([^"]*)">`).FindAllStringSubmatch(svg, -1)
	if len(links) != 1 || links[0][1] != "x.a.html" {
		t.Errorf("links %v, want one, to x.a.html", links)
	}
	for _, want := range []string{"A &lt;b&gt;&amp;", `class="node current"`, `class="node outside"`, "<title>" + long + " — x.b</title>",
		">" + string([]rune(long)[:labelRunes-1]) + "…<", `aria-label="Dependencies of x.b"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the drawing lacks %q", want)
		}
	}
	if n := strings.Count(svg, `class="edge"`); n != 2 {
		t.Errorf("%d edges drawn, want 2", n)
	}
	if strings.Contains(svg, "<b>") {
		t.Error("a name is not escaped")
	}
	if got := graphSVG([]GraphNode{{ID: "a"}, {ID: "b", Deps: []string{"zz"}}}, "x"); got != "" {
		t.Errorf("a graph without edges drew %.80s", got)
	}
	connected, left := Connected([]GraphNode{{ID: "a"}, {ID: "b", Deps: []string{"a"}}, {ID: "c", Deps: []string{"zz", "c"}}})
	if fmt.Sprint(len(connected), left) != "2 1" {
		t.Errorf("Connected kept %d and left out %d, want 2 and 1", len(connected), left)
	}
}
