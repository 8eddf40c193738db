package store

import (
	"cmp"
	"slices"
	"sort"
)

// Graph is one graph's triples, immutable, in three sorted orders: spo
// holds (s, p, o), pos holds (p, o, s) and osp holds (o, s, p), so that the
// triples matching a pattern are one contiguous range of one of them
// whichever positions are bound.
type Graph struct {
	spo, pos, osp []Triple
}

// Len returns the number of triples; 0 for a nil Graph.
func (g *Graph) Len() int {
	if g == nil {
		return 0
	}
	return len(g.spo)
}

// Range is the triples of a graph matching a pattern: a slice of one index
// and the way its entries map to subject, predicate and object.
type Range struct {
	ts         []Triple
	si, pi, oi uint8
}

// Len returns the number of matching triples.
func (r Range) Len() int { return len(r.ts) }

// At returns the i-th matching triple as subject, predicate, object.
func (r Range) At(i int) (s, p, o ID) {
	t := &r.ts[i]
	return t[r.si], t[r.pi], t[r.oi]
}

// Match returns the triples matching the pattern (s, p, o), where 0 is an
// unbound position. A nil Graph matches nothing.
func (g *Graph) Match(s, p, o ID) Range {
	if g == nil {
		return Range{}
	}
	switch {
	case s != 0 && p != 0:
		return Range{ts: prefix(g.spo, s, p, o), si: 0, pi: 1, oi: 2}
	case s != 0 && o != 0:
		return Range{ts: prefix(g.osp, o, s, 0), si: 1, pi: 2, oi: 0}
	case s != 0:
		return Range{ts: prefix(g.spo, s, 0, 0), si: 0, pi: 1, oi: 2}
	case p != 0:
		return Range{ts: prefix(g.pos, p, o, 0), si: 2, pi: 0, oi: 1}
	case o != 0:
		return Range{ts: prefix(g.osp, o, 0, 0), si: 1, pi: 2, oi: 0}
	}
	return Range{ts: g.spo, si: 0, pi: 1, oi: 2}
}

// Count returns the number of triples matching (s, p, o), as Match does,
// in logarithmic time.
func (g *Graph) Count(s, p, o ID) int { return g.Match(s, p, o).Len() }

// Contains reports whether the graph holds the triple (s, p, o).
func (g *Graph) Contains(s, p, o ID) bool { return g.Count(s, p, o) > 0 }

// Nodes calls yield with every term that is a subject or an object of the
// graph, each once, in no particular order, until yield returns false.
func (g *Graph) Nodes(yield func(ID) bool) {
	if g == nil {
		return
	}
	// Subjects, from spo; then the objects that are no subject, from osp.
	var last ID
	for i, t := range g.spo {
		if i == 0 || t[0] != last {
			last = t[0]
			if !yield(last) {
				return
			}
		}
	}
	for i, t := range g.osp {
		if i > 0 && t[0] == last {
			continue
		}
		last = t[0]
		if len(prefix(g.spo, last, 0, 0)) == 0 && !yield(last) {
			return
		}
	}
}

// prefix returns the range of ts (sorted) whose entries start with a, then
// b, then c, a 0 ending the prefix.
func prefix(ts []Triple, a, b, c ID) []Triple {
	key := Triple{a, b, c}
	n := 3
	switch {
	case b == 0:
		n = 1
	case c == 0:
		n = 2
	}
	lo := sort.Search(len(ts), func(i int) bool { return cmpPrefix(ts[i], key, n) >= 0 })
	hi := lo + sort.Search(len(ts)-lo, func(i int) bool { return cmpPrefix(ts[lo+i], key, n) > 0 })
	return ts[lo:hi]
}

func cmpPrefix(t, key Triple, n int) int {
	for i := range n {
		if c := cmp.Compare(t[i], key[i]); c != 0 {
			return c
		}
	}
	return 0
}

func cmpTriple(a, b Triple) int { return cmpPrefix(a, b, 3) }

// permutations of (s, p, o) into each index's order.
func toPOS(t Triple) Triple { return Triple{t[1], t[2], t[0]} }
func toOSP(t Triple) Triple { return Triple{t[2], t[0], t[1]} }

// sorted returns ts permuted by perm, sorted and without duplicates, in
// a new slice.
func sorted(ts []Triple, perm func(Triple) Triple) []Triple {
	out := make([]Triple, len(ts))
	for i, t := range ts {
		out[i] = perm(t)
	}
	if len(out) < radixMin {
		slices.SortFunc(out, cmpTriple)
	} else {
		out = radixSort(out, make([]Triple, len(out)))
	}
	return slices.Compact(out)
}

// radixMin is the length from which sorted sorts by radix: below it,
// comparisons cost less than the passes' counts.
const radixMin = 256

// radixSort sorts ts by its three IDs, the first most significant, with
// tmp (as long as ts) as room, and returns the sorted slice, ts or tmp: a
// least significant digit first radix sort on 16-bit digits, which skips
// the digits every entry shares (the high halves of IDs below 65,536).
func radixSort(ts, tmp []Triple) []Triple {
	var count [1 << 16]int
	for pass := range 6 {
		pos, shift := 2-pass/2, uint(16*(pass%2))
		clear(count[:])
		for _, t := range ts {
			count[(t[pos]>>shift)&0xffff]++
		}
		if count[(ts[0][pos]>>shift)&0xffff] == len(ts) {
			continue // one digit for all: the order stays
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, t := range ts {
			d := (t[pos] >> shift) & 0xffff
			tmp[count[d]] = t
			count[d]++
		}
		ts, tmp = tmp, ts
	}
	return ts
}

// with returns g with the triples add (in SPO) added.
func (g *Graph) with(add []Triple) *Graph {
	id := func(t Triple) Triple { return t }
	return &Graph{
		spo: merge(g.spo, sorted(add, id)),
		pos: merge(g.pos, sorted(add, toPOS)),
		osp: merge(g.osp, sorted(add, toOSP)),
	}
}

// without returns g with the triples del (in SPO) removed.
func (g *Graph) without(del []Triple) *Graph {
	id := func(t Triple) Triple { return t }
	return &Graph{
		spo: subtract(g.spo, sorted(del, id)),
		pos: subtract(g.pos, sorted(del, toPOS)),
		osp: subtract(g.osp, sorted(del, toOSP)),
	}
}

// merge returns the sorted union of two sorted sets, in a new slice.
func merge(a, b []Triple) []Triple {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	out := make([]Triple, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := cmpTriple(a[i], b[j]); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// subtract returns the sorted set a without the entries of the sorted set
// b, in a new slice.
func subtract(a, b []Triple) []Triple {
	if len(b) == 0 || len(a) == 0 {
		return a
	}
	out := make([]Triple, 0, len(a))
	j := 0
	for _, t := range a {
		for j < len(b) && cmpTriple(b[j], t) < 0 {
			j++
		}
		if j < len(b) && b[j] == t {
			continue
		}
		out = append(out, t)
	}
	return out
}
