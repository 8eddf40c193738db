package site

import (
	"fmt"
	"html/template"
	"slices"
	"strings"
	"unicode/utf8"
)

// GraphNode is a building block drawn in a dependency graph.
type GraphNode struct {
	ID, Name string
	// Page is the link to the block's page from the page the graph is on,
	// "" for a block the register did not build (an import).
	Page string
	// Deps are the ids of the blocks it depends on; those that are not
	// nodes of the graph are not drawn.
	Deps []string
	// Current marks the block whose page the graph is on.
	Current bool
}

// Sizes of the drawing, in pixels.
const (
	nodeWidth  = 250
	nodeHeight = 28
	columnGap  = 80
	rowGap     = 12
	margin     = 8
	// labelRunes is how much of a name a box shows; the rest is in its
	// tooltip.
	labelRunes = 34
)

// placed is a graph laid out: each vertex (the nodes, then a waypoint per
// column an edge passes through) in a column and a row, and each edge as
// the vertices it runs through, from the dependent to what it depends on.
type placed struct {
	col, row []int
	edges    [][]int
	columns  int
}

// layout places the nodes in columns, each block right of every block it
// depends on (the edge that closes a cycle is left out of that rule), an
// edge that spans columns passing through a waypoint in each column
// between, and orders each column so that few edges cross: a few sweeps of
// the barycentre heuristic, each column ordered by the mean row of its
// neighbours in the column before it, left to right, then right to left.
func layout(nodes []GraphNode) placed {
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if _, dup := index[n.ID]; !dup {
			index[n.ID] = i
		}
	}
	deps := make([][]int, len(nodes))
	for i, n := range nodes {
		for _, d := range n.Deps {
			if j, ok := index[d]; ok && j != i && !slices.Contains(deps[i], j) {
				deps[i] = append(deps[i], j)
			}
		}
	}
	// Columns: the longest chain of dependencies below each node, found
	// by a depth-first walk that ignores the edge closing a cycle.
	var p placed
	p.col = make([]int, len(nodes))
	state := make([]byte, len(nodes)) // 0 new, 1 on the walk, 2 done
	var visit func(i int)
	visit = func(i int) {
		state[i] = 1
		for _, j := range deps[i] {
			if state[j] == 0 {
				visit(j)
			}
			if state[j] == 2 {
				p.col[i] = max(p.col[i], p.col[j]+1)
			}
		}
		state[i] = 2
	}
	for i := range nodes {
		if state[i] == 0 {
			visit(i)
		}
	}
	// Edges, with a waypoint in each column between their ends.
	for i := range nodes {
		for _, j := range deps[i] {
			e := []int{i}
			for c := p.col[i] - 1; c > p.col[j]; c-- {
				p.col = append(p.col, c)
				e = append(e, len(p.col)-1)
			}
			p.edges = append(p.edges, append(e, j))
		}
	}
	left := make([][]int, len(p.col)) // neighbours one column left
	right := make([][]int, len(p.col))
	for _, e := range p.edges {
		for k := 0; k+1 < len(e); k++ {
			a, b := e[k], e[k+1]
			if p.col[a] == p.col[b]+1 {
				left[a] = append(left[a], b)
				right[b] = append(right[b], a)
			}
		}
	}
	for _, c := range p.col {
		p.columns = max(p.columns, c+1)
	}
	byCol := make([][]int, p.columns)
	for v, c := range p.col {
		byCol[c] = append(byCol[c], v)
	}
	p.row = make([]int, len(p.col))
	for _, c := range byCol {
		for r, v := range c {
			p.row[v] = r
		}
	}
	order := func(c []int, neighbours [][]int) {
		key := make(map[int]float64, len(c))
		for _, v := range c {
			key[v] = float64(p.row[v])
			if n := len(neighbours[v]); n > 0 {
				sum := 0.0
				for _, w := range neighbours[v] {
					sum += float64(p.row[w])
				}
				key[v] = sum / float64(n)
			}
		}
		slices.SortStableFunc(c, func(a, b int) int {
			switch {
			case key[a] < key[b]:
				return -1
			case key[a] > key[b]:
				return 1
			}
			return 0
		})
		for r, v := range c {
			p.row[v] = r
		}
	}
	for sweep := 0; sweep < 4; sweep++ {
		for c := 1; c < p.columns; c++ {
			order(byCol[c], left)
		}
		for c := p.columns - 2; c >= 0; c-- {
			order(byCol[c], right)
		}
	}
	return p
}

// Connected returns the nodes that depend on, or are depended on by,
// another node, in the order given, and the number of those left out.
func Connected(nodes []GraphNode) ([]GraphNode, int) {
	ids := map[string]bool{}
	for _, n := range nodes {
		ids[n.ID] = true
	}
	linked := map[string]bool{}
	for _, n := range nodes {
		for _, d := range n.Deps {
			if ids[d] && d != n.ID {
				linked[d], linked[n.ID] = true, true
			}
		}
	}
	var out []GraphNode
	for _, n := range nodes {
		if linked[n.ID] {
			out = append(out, n)
		}
	}
	return out, len(nodes) - len(out)
}

// graphSVG draws the dependency graph of nodes as inline SVG: a box per
// block (a link to its page, its name cut to fit, the full name and id in
// its tooltip), an arrow from each block to each block it depends on. ""
// when there is no edge to draw.
func graphSVG(nodes []GraphNode, label string) template.HTML {
	p := layout(nodes)
	if len(p.edges) == 0 {
		return ""
	}
	x := func(v int) int { return margin + p.col[v]*(nodeWidth+columnGap) }
	y := func(v int) int { return margin + p.row[v]*(nodeHeight+rowGap) + nodeHeight/2 }
	width, height := 0, 0
	for v := range p.col {
		width = max(width, x(v)+nodeWidth+margin)
		height = max(height, y(v)+nodeHeight/2+margin)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		width, height, width, height, template.HTMLEscapeString(label))
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#57606a"/></marker></defs>`)
	for _, e := range p.edges {
		// From the left side of the dependent, through the waypoints, to
		// the right side of what it depends on: curves between columns,
		// straight across a waypoint's column; dashed when it runs right
		// to left (the edge that closes a cycle).
		from, to := e[0], e[len(e)-1]
		dash := ""
		if p.col[to] >= p.col[from] {
			dash = ` stroke-dasharray="4 3"`
		}
		fmt.Fprintf(&b, `<path class="edge" d="M%d %d`, x(from), y(from))
		cx, cy := x(from), y(from)
		for k, v := range e[1:] {
			nx, ny := x(v)+nodeWidth, y(v)
			mid := (cx + nx) / 2
			fmt.Fprintf(&b, `C%d %d %d %d %d %d`, mid, cy, mid, ny, nx, ny)
			cx, cy = nx, ny
			if k+2 < len(e) { // a waypoint: straight across its column
				cx = x(v)
				fmt.Fprintf(&b, `L%d %d`, cx, cy)
			}
		}
		fmt.Fprintf(&b, `" fill="none" stroke="#8c959f" stroke-width="1.2" marker-end="url(#arrow)"%s/>`, dash)
	}
	for i, n := range nodes {
		name := n.Name
		if name == "" {
			name = n.ID
		}
		text := name
		if utf8.RuneCountInString(text) > labelRunes {
			text = string([]rune(text)[:labelRunes-1]) + "…"
		}
		class := "node"
		switch {
		case n.Current:
			class += " current"
		case n.Page == "":
			class += " outside"
		}
		link := n.Page != "" && !n.Current
		if link {
			fmt.Fprintf(&b, `<a href="%s">`, template.HTMLEscapeString(n.Page))
		}
		fmt.Fprintf(&b, `<g class="%s"><title>%s</title><rect x="%d" y="%d" width="%d" height="%d" rx="5"/><text x="%d" y="%d">%s</text></g>`,
			class, template.HTMLEscapeString(name+" — "+n.ID), x(i), y(i)-nodeHeight/2, nodeWidth, nodeHeight,
			x(i)+8, y(i)+5, template.HTMLEscapeString(text))
		if link {
			b.WriteString(`</a>`)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text written above is escaped
}
