package rdftest

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// Term kinds of a key.
const (
	kindDefault byte = iota // the default graph (graph position only)
	kindIRI
	kindBlank
	kindLiteral
)

// key is a comparable form of a term. Literals compare on lexical form,
// datatype and language tag; the tag is lower-cased (RDF 1.1 language tags
// are case-insensitive), an empty datatype means xsd:string and a tagged
// literal has datatype rdf:langString.
type key struct {
	kind          byte
	val, dt, lang string
}

// quad is a statement as keys: subject, predicate, object, graph.
type quad [4]key

// keyOf converts a term; the zero Term is the default graph, allowed only
// where graph is true.
func keyOf(t rdf.Term, graph bool) (key, error) {
	switch {
	case t == rdf.Term{}:
		if graph {
			return key{kind: kindDefault}, nil
		}
		return key{}, fmt.Errorf("empty term")
	case t.Kind == rdf.IRI:
		return key{kind: kindIRI, val: t.Value}, nil
	case t.Kind == rdf.Blank:
		return key{kind: kindBlank, val: t.Value}, nil
	case t.Kind == rdf.Literal:
		k := key{kind: kindLiteral, val: t.Value, dt: t.Datatype, lang: strings.ToLower(t.Lang)}
		switch {
		case k.lang != "":
			k.dt = rdf.RDFLangString
		case k.dt == "":
			k.dt = rdf.XSDString
		}
		return k, nil
	}
	return key{}, fmt.Errorf("term of kind %d", t.Kind)
}

// String formats k in an N-Quads-like form for messages (literal lexical
// forms use Go quoting).
func (k key) String() string {
	switch k.kind {
	case kindIRI:
		return "<" + k.val + ">"
	case kindBlank:
		return "_:" + k.val
	case kindLiteral:
		s := strconv.Quote(k.val)
		if k.lang != "" {
			return s + "@" + k.lang
		}
		if k.dt != rdf.XSDString {
			return s + "^^<" + k.dt + ">"
		}
		return s
	}
	return ""
}

// Isomorphic reports whether two graphs (sets of triples; duplicates
// ignored) are isomorphic, mapping blank nodes bijectively. On failure, the
// returned string describes a difference: triples only in a and only in b,
// with blank nodes named by their colour after refinement.
func Isomorphic(a, b []rdf.Triple) (bool, string) {
	qa, err := tripleKeys(a)
	if err != nil {
		return false, "a: " + err.Error()
	}
	qb, err := tripleKeys(b)
	if err != nil {
		return false, "b: " + err.Error()
	}
	return isomorphic(qa, qb)
}

// IsomorphicQuads reports whether two datasets (sets of quads; duplicates
// ignored; a zero G is the default graph) are isomorphic, mapping blank
// nodes, graph names included, bijectively. On failure, the returned string
// describes a difference as for Isomorphic.
func IsomorphicQuads(a, b []rdf.Quad) (bool, string) {
	qa, err := quadKeys(a)
	if err != nil {
		return false, "a: " + err.Error()
	}
	qb, err := quadKeys(b)
	if err != nil {
		return false, "b: " + err.Error()
	}
	return isomorphic(qa, qb)
}

func tripleKeys(ts []rdf.Triple) ([]quad, error) {
	qs := make([]quad, len(ts))
	for i, t := range ts {
		if err := fill(&qs[i], t, rdf.Term{}); err != nil {
			return nil, fmt.Errorf("triple %d: %w", i, err)
		}
	}
	return qs, nil
}

func quadKeys(qs []rdf.Quad) ([]quad, error) {
	out := make([]quad, len(qs))
	for i, q := range qs {
		if err := fill(&out[i], q.Triple, q.G); err != nil {
			return nil, fmt.Errorf("quad %d: %w", i, err)
		}
	}
	return out, nil
}

func fill(q *quad, t rdf.Triple, g rdf.Term) error {
	if t.P == "" {
		return fmt.Errorf("empty predicate")
	}
	terms := [4]rdf.Term{t.S, rdf.NewIRI(t.P), t.O, g}
	for j, term := range terms {
		k, err := keyOf(term, j == 3)
		if err != nil {
			return err
		}
		q[j] = k
	}
	return nil
}

// graph is a deduplicated set of quads prepared for colour refinement.
type graph struct {
	quads []quad
	set   map[quad]struct{}
	// slots[i][j] is the blank node index at position j of quad i, or -1.
	slots  [][4]int32
	consts [][4]uint64 // hashes of the non-blank terms
	labels []string    // blank node labels by index
	occ    [][]occurrence
	nbrs   [][]int32 // distinct other blank nodes sharing a quad, per blank node
}

// occurrence is a position of a blank node: quad index and slot.
type occurrence struct {
	quad int32
	pos  int32
}

func newGraph(qs []quad) *graph {
	g := &graph{set: make(map[quad]struct{}, len(qs))}
	blanks := make(map[string]int32)
	for _, q := range qs {
		if _, dup := g.set[q]; dup {
			continue
		}
		g.set[q] = struct{}{}
		qi := int32(len(g.quads))
		g.quads = append(g.quads, q)
		var sl [4]int32
		var cs [4]uint64
		for j, k := range q {
			if k.kind != kindBlank {
				sl[j] = -1
				cs[j] = hashKey(k)
				continue
			}
			b, ok := blanks[k.val]
			if !ok {
				b = int32(len(g.labels))
				blanks[k.val] = b
				g.labels = append(g.labels, k.val)
				g.occ = append(g.occ, nil)
			}
			sl[j] = b
			g.occ[b] = append(g.occ[b], occurrence{quad: qi, pos: int32(j)})
		}
		g.slots = append(g.slots, sl)
		g.consts = append(g.consts, cs)
	}
	g.nbrs = make([][]int32, len(g.labels))
	mark := make([]int, len(g.labels)) // b+1 once x is a neighbour of b
	for b, occs := range g.occ {
		for _, o := range occs {
			for _, x := range g.slots[o.quad] {
				if x >= 0 && int(x) != b && mark[x] != b+1 {
					mark[x] = b + 1
					g.nbrs[b] = append(g.nbrs[b], x)
				}
			}
		}
	}
	return g
}

// Hashing: FNV-1a for strings and a 64-bit finaliser to combine values.
// Hashes only steer the search; every candidate mapping is verified exactly.

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

func hashKey(k key) uint64 {
	h := uint64(0xcbf29ce484222325) ^ uint64(k.kind)
	h = hashString(h, k.val)
	h = mix(h, uint64(len(k.val)))
	h = hashString(h, k.dt)
	h = mix(h, uint64(len(k.dt)))
	h = hashString(h, k.lang)
	return mix(h, uint64(len(k.lang)))
}

func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

const (
	selfTag       = 0x5e1f5e1f5e1f5e1f
	individualTag = 0x1d1d1d1d1d1d1d1d
)

// refine computes one round of colour refinement: a blank node's new colour
// hashes its colour and the sorted signatures of the quads it occurs in.
func (g *graph) refine(col []uint64, scratch []uint64) []uint64 {
	next := make([]uint64, len(col))
	for b := range col {
		sigs := scratch[:0]
		for _, o := range g.occ[b] {
			h := uint64(o.pos + 1)
			for j, s := range g.slots[o.quad] {
				switch {
				case s < 0:
					h = mix(h, g.consts[o.quad][j])
				case int(s) == b:
					h = mix(h, selfTag)
				default:
					h = mix(h, col[s])
				}
			}
			sigs = append(sigs, h)
		}
		slices.Sort(sigs)
		h := col[b]
		for _, s := range sigs {
			h = mix(h, s)
		}
		next[b] = h
		scratch = sigs
	}
	return next
}

func distinct(col []uint64) int {
	s := slices.Clone(col)
	slices.Sort(s)
	return len(slices.Compact(s))
}

// side is the colouring of one graph during the search. Colours stay put
// while their cell does not split, so refinement work stays near the nodes
// whose colour changed.
type side struct {
	g     *graph
	col   []uint64           // colour per blank node
	sig   []uint64           // signature per blank node, from its neighbours' colours
	cells map[uint64][]int32 // members per colour, in index order; slices are never modified in place
}

func newSide(g *graph) *side {
	s := &side{g: g, col: uniform(len(g.labels)), sig: make([]uint64, len(g.labels)), cells: map[uint64][]int32{}}
	if len(g.labels) > 0 {
		all := make([]int32, len(g.labels))
		for i := range all {
			all[i] = int32(i)
		}
		s.cells[1] = all
	}
	return s
}

func (s *side) clone() *side {
	return &side{g: s.g, col: slices.Clone(s.col), sig: slices.Clone(s.sig), cells: maps.Clone(s.cells)}
}

// signature hashes the sorted hashes of the quads b occurs in, each quad
// seen with b as "self", other blank nodes as their colours and the other
// terms as themselves.
func (s *side) signature(b int32, scratch []uint64) ([]uint64, uint64) {
	sigs := scratch[:0]
	for _, o := range s.g.occ[b] {
		h := uint64(o.pos + 1)
		for j, x := range s.g.slots[o.quad] {
			switch {
			case x < 0:
				h = mix(h, s.g.consts[o.quad][j])
			case x == b:
				h = mix(h, selfTag)
			default:
				h = mix(h, s.col[x])
			}
		}
		sigs = append(sigs, h)
	}
	slices.Sort(sigs)
	h := uint64(len(sigs))
	for _, x := range sigs {
		h = mix(h, x)
	}
	return sigs, h
}

// individualise gives x a colour of its own, derived from its old colour
// and the search depth so that both sides agree on it.
func (s *side) individualise(x int32, depth int) {
	c := s.col[x]
	rest := make([]int32, 0, len(s.cells[c])-1)
	for _, m := range s.cells[c] {
		if m != x {
			rest = append(rest, m)
		}
	}
	s.cells[c] = rest
	n := mix(mix(c, individualTag), uint64(depth))
	s.col[x] = n
	s.cells[n] = []int32{x}
}

// neighbours returns the distinct blank nodes sharing a quad with a node of
// changed.
func (s *side) neighbours(changed []int32) []int32 {
	seen := make(map[int32]bool)
	var out []int32
	for _, c := range changed {
		for _, n := range s.g.nbrs[c] {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// stabilise refines a and b in lockstep, starting from the dirty nodes whose
// neighbourhood changed, until no cell splits. It reports false as soon as
// a cell's signatures differ between the sides.
func stabilise(a, b *side, dirtyA, dirtyB []int32) bool {
	var scratch, sa, sb []uint64
	for len(dirtyA) > 0 || len(dirtyB) > 0 {
		touched := make(map[uint64]bool)
		for _, x := range dirtyA {
			scratch, a.sig[x] = a.signature(x, scratch)
			touched[a.col[x]] = true
		}
		for _, y := range dirtyB {
			scratch, b.sig[y] = b.signature(y, scratch)
			touched[b.col[y]] = true
		}
		var changedA, changedB []int32
		for c := range touched {
			ma, mb := a.cells[c], b.cells[c]
			if len(ma) != len(mb) {
				return false
			}
			sa, sb = sa[:0], sb[:0]
			for i := range ma {
				sa = append(sa, a.sig[ma[i]])
				sb = append(sb, b.sig[mb[i]])
			}
			slices.Sort(sa)
			slices.Sort(sb)
			if !slices.Equal(sa, sb) {
				return false
			}
			if sa[0] == sa[len(sa)-1] {
				continue // the cell does not split
			}
			changedA = append(changedA, a.split(c)...)
			changedB = append(changedB, b.split(c)...)
		}
		dirtyA, dirtyB = a.neighbours(changedA), b.neighbours(changedB)
	}
	return true
}

// split replaces cell c by one cell per signature and returns its members.
func (s *side) split(c uint64) []int32 {
	members := s.cells[c]
	delete(s.cells, c)
	for _, m := range members {
		n := mix(c, s.sig[m])
		s.col[m] = n
		s.cells[n] = append(s.cells[n][:len(s.cells[n]):len(s.cells[n])], m)
	}
	return members
}

// matcher searches a blank node bijection between two graphs.
type matcher struct {
	a, b      *graph
	tries     int
	maxTries  int
	exhausted bool
}

// search looks for a verified bijection from stable colourings: first by
// pairing the members of each cell in order, then by individualising a node
// of the smallest tied cell against each candidate and recursing. It
// returns nil when there is none.
func (m *matcher) search(a, b *side, depth int) []int32 {
	if m.tries >= m.maxTries {
		m.exhausted = true
		return nil
	}
	m.tries++
	// With a unique colour per node this pairing is the only candidate;
	// with ties it is a cheap guess that succeeds whenever the tied nodes
	// are interchangeable, such as equal leaves under one parent.
	mapping := make([]int32, len(a.col))
	var pick uint64
	best := 0
	for c, ma := range a.cells {
		mb := b.cells[c]
		for i, x := range ma {
			mapping[x] = mb[i]
		}
		if n := len(ma); n > 1 && (best == 0 || n < best || (n == best && c < pick)) {
			best, pick = n, c
		}
	}
	if m.verify(mapping) {
		return mapping
	}
	if best == 0 {
		return nil // the only candidate failed
	}
	x := a.cells[pick][0]
	for _, y := range b.cells[pick] {
		na, nb := a.clone(), b.clone()
		na.individualise(x, depth)
		nb.individualise(y, depth)
		if !stabilise(na, nb, na.neighbours([]int32{x}), nb.neighbours([]int32{y})) {
			continue
		}
		if r := m.search(na, nb, depth+1); r != nil {
			return r
		}
		if m.exhausted {
			return nil
		}
	}
	return nil
}

// verify checks that mapping sends every quad of a to a quad of b; with
// equal sizes and an injective mapping that makes the graphs isomorphic.
func (m *matcher) verify(mapping []int32) bool {
	seen := make([]bool, len(m.b.labels))
	for _, y := range mapping {
		if seen[y] {
			return false
		}
		seen[y] = true
	}
	for i, q := range m.a.quads {
		var r quad
		for j, k := range q {
			if s := m.a.slots[i][j]; s >= 0 {
				k.val = m.b.labels[mapping[s]]
			}
			r[j] = k
		}
		if _, ok := m.b.set[r]; !ok {
			return false
		}
	}
	return true
}

// isomorphic compares two quad lists.
func isomorphic(qa, qb []quad) (bool, string) {
	a, b := newGraph(qa), newGraph(qb)
	var head string
	exhausted := false
	if len(a.quads) != len(b.quads) || len(a.labels) != len(b.labels) {
		head = fmt.Sprintf("a has %d distinct statements and %d blank nodes, b has %d and %d\n",
			len(a.quads), len(a.labels), len(b.quads), len(b.labels))
	} else {
		m := &matcher{a: a, b: b, maxTries: 100000}
		sa, sb := newSide(a), newSide(b)
		all := make([]int32, len(a.labels))
		for i := range all {
			all[i] = int32(i)
		}
		if stabilise(sa, sb, all, all) && m.search(sa, sb, 0) != nil {
			return true, ""
		}
		if m.exhausted {
			exhausted = true
			head = "gave up after trying 100000 blank node bijections\n"
		}
	}
	// First show the statements that differ regardless of blank node
	// identity; when there are none the difference is in how blank nodes
	// connect, so name them by their refined colours.
	msg := diff(a, b, nil, nil)
	if msg == "" {
		ca, cb := stable(a, b)
		msg = diff(a, b, ca, cb)
	}
	if msg == "" && !exhausted {
		msg = "the graphs have the same colour-refined structure, but no blank node bijection maps one onto the other\n"
	}
	return false, head + msg
}

func uniform(n int) []uint64 {
	col := make([]uint64, n)
	for i := range col {
		col[i] = 1
	}
	return col
}

// stable refines the colours of a and b in lockstep (so that the values are
// comparable) until neither partition splits any further.
func stable(a, b *graph) ([]uint64, []uint64) {
	ca, cb := uniform(len(a.labels)), uniform(len(b.labels))
	na, nb := distinct(ca), distinct(cb)
	for {
		ca, cb = a.refine(ca, nil), b.refine(cb, nil)
		da, db := distinct(ca), distinct(cb)
		if da == na && db == nb {
			return ca, cb
		}
		na, nb = da, db
	}
}

// diff lists the statements only in a and only in b (as multisets), with
// each blank node named by its colour, or as _:_ when col is nil.
func diff(a, b *graph, ca, cb []uint64) string {
	la, lb := a.lines(ca), b.lines(cb)
	i, j := 0, 0
	var onlyA, onlyB []string
	for i < len(la) || j < len(lb) {
		switch {
		case j == len(lb) || (i < len(la) && la[i] < lb[j]):
			onlyA = append(onlyA, la[i])
			i++
		case i == len(la) || lb[j] < la[i]:
			onlyB = append(onlyB, lb[j])
			j++
		default:
			i++
			j++
		}
	}
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return ""
	}
	var sb strings.Builder
	section := func(title string, ls []string) {
		fmt.Fprintf(&sb, "%d statements only in %s:\n", len(ls), title)
		for n, l := range ls {
			if n == 20 {
				fmt.Fprintf(&sb, "  ... %d more\n", len(ls)-n)
				break
			}
			sb.WriteString("  " + l + "\n")
		}
	}
	section("a", onlyA)
	section("b", onlyB)
	return sb.String()
}

// lines renders the quads sorted, blank nodes named by colour.
func (g *graph) lines(col []uint64) []string {
	out := make([]string, len(g.quads))
	for i, q := range g.quads {
		var sb strings.Builder
		for j, k := range q {
			if k.kind == kindDefault {
				continue
			}
			if j > 0 {
				sb.WriteByte(' ')
			}
			if s := g.slots[i][j]; s >= 0 {
				if col == nil {
					sb.WriteString("_:_")
				} else {
					fmt.Fprintf(&sb, "_:c%016x", col[s])
				}
				continue
			}
			sb.WriteString(k.String())
		}
		sb.WriteString(" .")
		out[i] = sb.String()
	}
	slices.Sort(out)
	return out
}
