package shacl

import (
	"slices"

	"github.com/jrpcld/jrpcld/rdf"
)

// id names a term of a graph: 1 to len(terms)-1 for the graph's own terms,
// higher for terms a validation adds (the constants of the shapes that the
// data does not hold); 0 names nothing.
type id uint32

// edge is one half of a triple, the other half being the key of the index
// it sits in.
type edge struct{ a, b id }

// Graph is an RDF graph indexed for validation: its terms are numbered,
// and its triples are sorted three ways, by subject, by object and by
// predicate, so that the objects of a subject and predicate, the subjects
// of a predicate and object, and every triple of a predicate are each one
// contiguous run. A Graph is read-only once made and safe for use by
// several goroutines.
type Graph struct {
	terms []rdf.Term      // by id; terms[0] is unused
	ids   map[rdf.Term]id // the inverse of terms
	size  int             // triples

	// spo holds (p, o) sorted by subject, then p, then o: the triples of
	// subject s are spo[sOff[s]:sOff[s+1]]. ops holds (p, s) by object,
	// pso (s, o) by predicate, with oOff and pOff alike.
	spo, ops, pso    []edge
	sOff, oOff, pOff []uint32
}

// NewGraph returns the graph of triples, duplicates counted once.
func NewGraph(triples []rdf.Triple) *Graph {
	g := &Graph{terms: make([]rdf.Term, 1, len(triples)/2+2), ids: make(map[rdf.Term]id, len(triples)/2+2)}
	raw := make([][3]id, len(triples))
	for i, t := range triples {
		raw[i] = [3]id{g.intern(t.S), g.intern(rdf.NewIRI(t.P)), g.intern(t.O)}
	}
	g.index(raw)
	return g
}

// NewGraphFromQuads returns the graph of the quads' triples, whatever
// graph each quad is in.
func NewGraphFromQuads(quads []rdf.Quad) *Graph {
	ts := make([]rdf.Triple, len(quads))
	for i, q := range quads {
		ts[i] = q.Triple
	}
	return NewGraph(ts)
}

func (g *Graph) intern(t rdf.Term) id {
	if n, ok := g.ids[t]; ok {
		return n
	}
	n := id(len(g.terms))
	g.terms = append(g.terms, t)
	g.ids[t] = n
	return n
}

// Len returns the number of triples of the graph.
func (g *Graph) Len() int { return g.size }

// Triples returns the triples of the graph, by subject.
func (g *Graph) Triples() []rdf.Triple {
	ts := make([]rdf.Triple, 0, g.size)
	for s := 1; s < len(g.sOff)-1; s++ {
		for _, e := range g.spo[g.sOff[s]:g.sOff[s+1]] {
			ts = append(ts, rdf.Triple{S: g.terms[s], P: g.terms[e.a].Value, O: g.terms[e.b]})
		}
	}
	return ts
}

// Has reports whether the graph holds the triple t.
func (g *Graph) Has(t rdf.Triple) bool {
	s, ok1 := g.ids[t.S]
	p, ok2 := g.ids[rdf.NewIRI(t.P)]
	o, ok3 := g.ids[t.O]
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	_, found := slices.BinarySearchFunc(g.objects(s, p), o, func(e edge, o id) int { return cmpID(e.b, o) })
	return found
}

func cmpID(a, b id) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// index sorts the triples into the three indexes with counting sorts:
// spo by a stable sort on o, then p, then s, which leaves each subject's
// run sorted by (p, o); pso from spo, stable on p; ops from pso, stable on
// o. Duplicates are dropped from spo before the others are made.
func (g *Graph) index(raw [][3]id) {
	n := len(g.terms)
	tmp := make([][3]id, len(raw))
	for _, k := range []int{2, 1, 0} {
		countingSort(raw, tmp, k, n)
		raw, tmp = tmp, raw
	}
	raw = slices.Compact(raw)
	g.size = len(raw)
	g.spo, g.sOff = project(raw, 0, 1, 2, n)
	tmp = tmp[:len(raw)]
	countingSort(raw, tmp, 1, n)
	g.pso, g.pOff = project(tmp, 1, 0, 2, n)
	countingSort(tmp, raw, 2, n)
	g.ops, g.oOff = project(raw, 2, 1, 0, n)
}

// countingSort writes src into dst sorted stably by column k, whose
// values are below n.
func countingSort(src, dst [][3]id, k, n int) {
	count := make([]uint32, n+1)
	for _, t := range src {
		count[t[k]+1]++
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	for _, t := range src {
		dst[count[t[k]]] = t
		count[t[k]]++
	}
}

// project returns the (a, b) columns of sorted, which is sorted by column
// key, and the offsets of each key's run.
func project(sorted [][3]id, key, a, b, n int) ([]edge, []uint32) {
	es := make([]edge, len(sorted))
	off := make([]uint32, n+1)
	for i, t := range sorted {
		es[i] = edge{t[a], t[b]}
		off[t[key]+1]++
	}
	for i := 1; i <= n; i++ {
		off[i] += off[i-1]
	}
	return es, off
}

// run returns the edges of key k in an index, or none when k is not a
// term of the graph.
func run(es []edge, off []uint32, k id) []edge {
	if int(k)+1 >= len(off) {
		return nil
	}
	return es[off[k]:off[k+1]]
}

// sub returns the part of a run whose first member is a.
func sub(es []edge, a id) []edge {
	i, _ := slices.BinarySearchFunc(es, a, func(e edge, a id) int { return cmpID(e.a, a) })
	j := i
	for j < len(es) && es[j].a == a {
		j++
	}
	return es[i:j]
}

// objects returns the triples with subject s and predicate p, as (p, o)
// edges sorted by o.
func (g *Graph) objects(s, p id) []edge { return sub(run(g.spo, g.sOff, s), p) }

// subjects returns the triples with predicate p and object o, as (p, s)
// edges sorted by s.
func (g *Graph) subjects(p, o id) []edge { return sub(run(g.ops, g.oOff, o), p) }

// out returns every triple of subject s, as (p, o) edges.
func (g *Graph) out(s id) []edge { return run(g.spo, g.sOff, s) }

// withPredicate returns every triple of predicate p, as (s, o) edges
// sorted by s, then o.
func (g *Graph) withPredicate(p id) []edge { return run(g.pso, g.pOff, p) }

// id returns the number of a term, or 0 when the graph does not hold it.
func (g *Graph) id(t rdf.Term) id { return g.ids[t] }

// object returns the one object of s and p, or 0 when there is none.
func (g *Graph) object(s, p id) id {
	if es := g.objects(s, p); len(es) > 0 {
		return es[0].b
	}
	return 0
}
