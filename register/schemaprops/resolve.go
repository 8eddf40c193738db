package schemaprops

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Resolved is what the tool chain makes of the properties a context build
// met: the properties, and the definitions subtrees met more than once were
// moved to.
type Resolved struct {
	nodes []*node
	defs  []def
}

// def is a subtree kept once, its paths relative to where it was first met.
type def struct {
	key   string
	nodes []*node
}

// Empty reports whether there is nothing to list: the tool chain then
// writes no resolvedProperties.json.
func (r *Resolved) Empty() bool { return len(r.nodes) == 0 && len(r.defs) == 0 }

// Resolve resolves what c recorded, as the tool chain does once the
// context is built: it lifts the properties that every branch of an anyOf
// or oneOf defines the same way out of the branches, moves each subtree a
// reference led to more than once into a definition, and relabels the
// branches that have no title. c is left as it was.
func (c *Collector) Resolve() *Resolved {
	if c == nil {
		return &Resolved{}
	}
	t := newTree(c.nodes.all())
	t.hoist()
	defs := t.dedup(c.reuses)
	r := &Resolved{nodes: t.m.all(), defs: defs}
	relabel(r.nodes)
	for _, d := range r.defs {
		relabel(d.nodes)
	}
	return r
}

// tree is a copy of the recorded nodes with an index of each node's
// children, by name in the order they were added.
type tree struct {
	m        nodeMap
	children map[string]*childList
}

type childList struct {
	names []string
	keys  map[string]string
}

func (l *childList) set(name, key string) {
	if _, ok := l.keys[name]; !ok {
		l.names = append(l.names, name)
	}
	l.keys[name] = key
}

func (l *childList) remove(name string) {
	if _, ok := l.keys[name]; ok {
		delete(l.keys, name)
		l.names = slices.DeleteFunc(l.names, func(s string) bool { return s == name })
	}
}

// list returns the children's keys in order.
func (l *childList) list() []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l.names))
	for i, n := range l.names {
		out[i] = l.keys[n]
	}
	return out
}

func newTree(nodes []*node) *tree {
	t := &tree{children: map[string]*childList{}}
	for _, n := range nodes {
		t.m.put(n.clone())
	}
	t.index()
	return t
}

// index builds the children index from the nodes.
func (t *tree) index() {
	t.children = map[string]*childList{}
	for _, n := range t.m.all() {
		t.addChild(n)
	}
}

func (t *tree) addChild(n *node) {
	if len(n.path) == 0 {
		return
	}
	pk := n.parentKey()
	l := t.children[pk]
	if l == nil {
		l = &childList{keys: map[string]string{}}
		t.children[pk] = l
	}
	l.set(n.path[len(n.path)-1], n.key())
}

// del removes the node at key k and its entry among its parent's children.
func (t *tree) del(k string) *node {
	n := t.m.del(k)
	if n == nil {
		return nil
	}
	pk := n.parentKey()
	if l := t.children[pk]; l != nil {
		l.remove(n.path[len(n.path)-1])
		if len(l.names) == 0 {
			delete(t.children, pk)
		}
	}
	return n
}

// add puts n, merging it into the node at its path when there is one.
func (t *tree) add(n *node) {
	if cur := t.m.get(n.key()); cur != nil {
		cur.merge(n)
	} else {
		t.m.put(n)
	}
	t.addChild(n)
}

// descendants returns the nodes below key k, in the order the tool chain
// finds them (a stack: the last child first, each followed by its own).
func (t *tree) descendants(k string) []*node {
	var out []*node
	stack := t.children[k].list()
	for len(stack) > 0 {
		ck := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n := t.m.get(ck); n != nil {
			out = append(out, n)
			stack = append(stack, t.children[ck].list()...)
		}
	}
	return out
}

// hoist lifts out of the branches of each anyOf and oneOf (the deepest
// first) the leaf properties every branch defines the same way, removes
// the branches left empty, and the group itself when at most one branch
// remains (the contents of that branch take its place).
func (t *tree) hoist() {
	var groups []*node
	for _, n := range t.m.all() {
		if n.keyword == "anyOf" || n.keyword == "oneOf" {
			groups = append(groups, n)
		}
	}
	slices.SortStableFunc(groups, func(a, b *node) int { return len(b.path) - len(a.path) })
	for _, g := range groups {
		gk := g.key()
		if !t.m.has(gk) {
			continue
		}
		parent := g.path[:len(g.path)-1]
		var branches []string
		for _, ck := range t.children[gk].list() {
			if t.m.get(ck).keyword == "branch" {
				branches = append(branches, ck)
			}
		}
		if len(branches) < 2 {
			continue
		}
		anyRef := false
		for _, bk := range branches {
			if n := t.m.get(bk); n != nil && n.ref != "" {
				anyRef = true
			}
		}
		if !anyRef {
			// The properties of each branch, by name.
			props := make([]map[string]string, len(branches))
			for i, bk := range branches {
				props[i] = map[string]string{}
				for _, ck := range t.children[bk].list() {
					if n := t.m.get(ck); n.keyword == "" {
						props[i][n.path[len(n.path)-1]] = ck
					}
				}
			}
			for _, name := range commonNames(t, branches, props) {
				leaves := true
				for i := range branches {
					if _, ok := t.children[props[i][name]]; ok {
						leaves = false
					}
				}
				if !leaves {
					continue
				}
				first := t.m.get(props[0][name])
				same := true
				for i := 1; i < len(branches); i++ {
					if !sameDefinition(t.m.get(props[i][name]), first) {
						same = false
					}
				}
				if !same {
					continue
				}
				merged := first.clone()
				merged.path = append(slices.Clone(parent), name)
				for i := 1; i < len(branches); i++ {
					merged.merge(t.m.get(props[i][name]))
				}
				t.add(merged)
				for i := range branches {
					t.del(props[i][name])
				}
			}
		}
		for _, bk := range branches {
			if n := t.m.get(bk); n != nil && t.children[bk] == nil && n.ref == "" {
				t.del(bk)
			}
		}
		var remaining []string
		for _, bk := range branches {
			if n := t.m.get(bk); n != nil && n.keyword == "branch" {
				remaining = append(remaining, bk)
			}
		}
		switch {
		case len(remaining) == 1 && t.m.get(remaining[0]).ref == "":
			sole := t.m.get(remaining[0])
			for _, d := range t.descendants(remaining[0]) {
				t.del(d.key())
				moved := d.clone()
				moved.path = append(slices.Clone(parent), d.path[len(sole.path):]...)
				t.add(moved)
			}
			t.del(remaining[0])
			t.del(gk)
		case len(remaining) == 0:
			t.del(gk)
		}
	}
}

// commonNames returns the names of the properties every branch has, in
// the order of the first branch.
//
// The tool chain takes them from a Python set, whose order for strings
// changes from run to run (hash randomisation): the order of the lifted
// properties, which go to the end of the list, is not reproducible there.
func commonNames(t *tree, branches []string, props []map[string]string) []string {
	var out []string
	for _, ck := range t.children[branches[0]].list() {
		n := t.m.get(ck)
		if n.keyword != "" {
			continue
		}
		name := n.path[len(n.path)-1]
		all := true
		for _, p := range props[1:] {
			if _, ok := p[name]; !ok {
				all = false
			}
		}
		if all {
			out = append(out, name)
		}
	}
	return out
}

// dedup moves the subtree each reused reference was first walked into
// into a definition (once per target), with paths relative to it, and
// points both the first node and each later one at it.
func (t *tree) dedup(reuses []reuse) []def {
	if len(reuses) == 0 {
		return nil
	}
	t.index()
	var defs []def
	have := map[string]bool{}
	for _, r := range reuses {
		if slices.Equal(r.src, r.dst) {
			continue
		}
		dk := joinPath(r.dst)
		if !t.m.has(dk) {
			continue
		}
		if !have[r.key] {
			sk := joinPath(r.src)
			below := t.descendants(sk)
			if len(below) == 0 {
				continue
			}
			d := def{key: r.key}
			for _, n := range below {
				c := n.clone()
				c.path = slices.Clone(n.path[len(r.src):])
				d.nodes = append(d.nodes, c)
			}
			slices.SortStableFunc(d.nodes, func(a, b *node) int { return comparePaths(a.path, b.path) })
			defs = append(defs, d)
			have[r.key] = true
			t.removeBelow(sk)
			if n := t.m.get(sk); n != nil {
				n.ref = r.key
			}
		}
		if n := t.m.get(dk); n != nil {
			n.ref = r.key
		}
	}
	return defs
}

// removeBelow removes the nodes below key k, leaving the children index
// of the nodes that stay as it is, as the tool chain does.
func (t *tree) removeBelow(k string) {
	stack := t.children[k].list()
	for len(stack) > 0 {
		ck := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, t.children[ck].list()...)
		t.m.del(ck)
		delete(t.children, ck)
	}
	delete(t.children, k)
}

func joinPath(p []string) string {
	return (&node{path: p}).key()
}

// relabel gives the branches whose title is a single lowercase letter
// (the label of a branch without a title) the labels a, b, c... in the
// order of the branches that remain of each group.
func relabel(nodes []*node) {
	groups := map[string][]*node{}
	var order []string
	for _, n := range nodes {
		if n.keyword != "branch" || len(n.path) == 0 {
			continue
		}
		pk := n.parentKey()
		if _, ok := groups[pk]; !ok {
			order = append(order, pk)
		}
		groups[pk] = append(groups[pk], n)
	}
	for _, pk := range order {
		bs := groups[pk]
		slices.SortStableFunc(bs, func(a, b *node) int { return branchIndex(a) - branchIndex(b) })
		for i, b := range bs {
			if s, ok := b.title.(string); ok && utf8.RuneCountInString(s) == 1 {
				if r, _ := utf8.DecodeRuneInString(s); unicode.IsLower(r) {
					b.title = letter(i)
				}
			}
		}
	}
}

// branchIndex is the number a branch's path ends in, 0 when it ends in
// something else.
func branchIndex(n *node) int {
	i, _ := digits(n.path[len(n.path)-1])
	return i
}

// comparePaths orders paths part by part, as the tool chain sorts the
// entries of a definition: parts made of digits by their number, others as
// strings (the tool chain cannot compare a number with a string; jrpcld
// puts the number first).
func comparePaths(a, b []string) int {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		xn, xd := digits(x)
		yn, yd := digits(y)
		var c int
		switch {
		case xd && yd:
			c = cmp.Compare(xn, yn)
		case xd:
			c = -1
		case yd:
			c = 1
		default:
			c = strings.Compare(x, y)
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// digits returns the number s writes when s is made of ASCII digits.
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
