package shgraph

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"slices"

	"github.com/jrpcld/jrpcld/rdf"
)

// ID names a term of a graph: 1 to len(terms)-1 for the graph's own terms,
// higher for terms a validation adds (the constants of the shapes that the
// data does not hold); 0 names nothing.
type ID uint32

// Edge is one half of a triple, the other half being the key of the index
// it sits in.
type Edge struct{ A, B ID }

// Graph is an RDF graph indexed for validation: its terms are numbered,
// and its triples are sorted three ways, by subject, by object and by
// predicate, so that the objects of a subject and predicate, the subjects
// of a predicate and object, and every triple of a predicate are each one
// contiguous run. A Graph is read-only once made and safe for use by
// several goroutines.
type Graph struct {
	terms []rdf.Term // by ID; terms[0] is unused
	dict  dict
	size  int // triples

	// spo holds (p, o) sorted by subject, then p, then o: the triples of
	// subject s are spo[sOff[s]:sOff[s+1]]. ops holds (p, s) by object,
	// pso (s, o) by predicate, with oOff and pOff alike.
	spo, ops, pso    []Edge
	sOff, oOff, pOff []uint32
}

// dict numbers terms: IRIs and blank nodes by their string, literals by
// the string literalKey makes of them; one string hashes faster than a
// whole term, whose three strings are hashed one by one.
type dict struct {
	iris, blanks, literals map[string]ID
}

// get returns the number of t; key is room for a literal's key, reused.
func (d *dict) get(t rdf.Term, key *[]byte) (ID, bool) {
	var n ID
	var ok bool
	switch t.Kind {
	case rdf.IRI:
		n, ok = d.iris[t.Value]
	case rdf.Blank:
		n, ok = d.blanks[t.Value]
	default:
		*key = literalKey((*key)[:0], t)
		n, ok = d.literals[string(*key)] // no string is made for the look-up
	}
	return n, ok
}

// literalKey appends to buf what tells literal t from every other: the
// length of its form, the form, the length of its language tag, the tag,
// whether it is Escaped, then its datatype (as == on rdf.Term does).
func literalKey(buf []byte, t rdf.Term) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(t.Value)))
	buf = append(buf, t.Value...)
	buf = binary.AppendUvarint(buf, uint64(len(t.Lang)))
	buf = append(buf, t.Lang...)
	if t.Escaped {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	return append(buf, t.Datatype...)
}

// lookup is dict.get for the read-only Graph, which several goroutines
// may use at once: the key's room is its own.
func (d *dict) lookup(t rdf.Term) ID {
	var room [128]byte
	key := room[:0]
	n, _ := d.get(t, &key)
	return n
}

// Builder makes a Graph from triples added in any number of calls.
type Builder struct {
	g   *Graph
	raw [][3]ID
	// lastP caches the ID of the last predicate: triples come grouped by
	// subject, and few predicates recur.
	lastP   string
	lastPID ID
	// lastS and lastSID cache the last subject alike, as the document
	// wrote it (before the blank prefix).
	lastS   rdf.Term
	lastSID ID
	blanks  string // the prefix of blank node labels
	key     []byte // room for literals' keys
}

// SetBlankPrefix makes the labels of the blank nodes added from now on
// start with prefix: the blank nodes of two documents stay apart when each
// is added with a prefix of its own.
func (b *Builder) SetBlankPrefix(prefix string) { b.blanks, b.lastSID = prefix, 0 }

// NewBuilder returns an empty Builder; size, when known, is about the
// number of triples to come.
func NewBuilder(size int) *Builder {
	b := &Builder{g: &Graph{terms: make([]rdf.Term, 1), dict: dict{
		iris: map[string]ID{}, blanks: map[string]ID{}, literals: map[string]ID{}}}}
	b.grow(size)
	return b
}

// grow makes room for about n more triples: the term maps (only while the
// Builder is empty) and the triple list.
func (b *Builder) grow(n int) {
	if n <= 0 {
		return
	}
	// The graph of a log of a million triples has about a term for three
	// triples: an IRI for nine, a literal for five.
	g := b.g
	b.raw = slices.Grow(b.raw, n)
	g.terms = slices.Grow(g.terms, n/3)
	if len(g.terms) == 1 {
		g.dict.iris = make(map[string]ID, n/8)
		g.dict.literals = make(map[string]ID, n/5)
	}
}

// Add adds triples to the graph.
func (b *Builder) Add(triples ...rdf.Triple) {
	for _, t := range triples {
		b.add(t.S, t.P, t.O)
	}
}

// AddQuads adds the triples of quads, whatever graph each is in.
func (b *Builder) AddQuads(quads []rdf.Quad) {
	for _, q := range quads {
		b.add(q.S, q.P, q.O)
	}
}

func (b *Builder) add(s rdf.Term, p string, o rdf.Term) {
	if p != b.lastP || b.lastPID == 0 {
		b.lastP, b.lastPID = p, b.intern(rdf.NewIRI(p))
	}
	if b.lastSID == 0 || s != b.lastS {
		b.lastS, b.lastSID = s, b.intern(s)
	}
	oid := b.intern(o)
	b.raw = append(grow(b.raw), [3]ID{b.lastSID, b.lastPID, oid})
}

func (b *Builder) intern(t rdf.Term) ID {
	if t.Kind == rdf.Blank && b.blanks != "" {
		t.Value = b.blanks + t.Value
	}
	d := &b.g.dict
	if n, ok := d.get(t, &b.key); ok {
		return n
	}
	n := ID(len(b.g.terms))
	b.g.terms = append(grow(b.g.terms), t)
	switch t.Kind {
	case rdf.IRI:
		d.iris[t.Value] = n
	case rdf.Blank:
		d.blanks[t.Value] = n
	default:
		d.literals[string(b.key)] = n // the key get made
	}
	return n
}

// grow makes room for one more element in s, doubling its capacity when
// it is full: append's own growth, a quarter at a time past a few hundred
// elements, copies a large graph's terms and triples about four times over
// while it is read (growslice was a fifth of the profile of loading a
// million triples).
func grow[E any](s []E) []E {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 256))
}

// Graph indexes the triples added and returns the graph, duplicates
// counted once. The Builder is done with.
func (b *Builder) Graph() *Graph {
	g := b.g
	g.index(b.raw)
	b.g, b.raw = nil, nil
	return g
}

// ReadLines reads N-Triples or N-Quads (every graph merged) from r with
// rdf.ReadLines, which parses a piece at a time on every core, and adds
// each piece's triples on a goroutine of its own while the next piece is
// parsed: memory holds the graph and a few pieces, never the whole
// document. A syntax error is a *diag.Diagnostic with the line counted
// from the document's start; no piece after it is added.
func (b *Builder) ReadLines(r io.Reader, syntax rdf.Format) error {
	if syntax != rdf.NTriples && syntax != rdf.NQuads {
		return fmt.Errorf("shacl: ReadLines reads N-Triples and N-Quads, not %v", syntax)
	}
	parsed := make(chan []rdf.Quad, runtime.GOMAXPROCS(0))
	added := make(chan struct{})
	go func() {
		defer close(added)
		for qs := range parsed {
			b.AddQuads(qs)
		}
	}()
	err := rdf.ReadLines(r, syntax, func(qs []rdf.Quad) error {
		parsed <- qs
		return nil
	})
	close(parsed)
	<-added
	return err
}

// New returns the graph of triples, duplicates counted once.
func New(triples []rdf.Triple) *Graph {
	b := NewBuilder(len(triples))
	b.Add(triples...)
	return b.Graph()
}

// FromQuads returns the graph of the quads' triples, whatever
// graph each quad is in.
func FromQuads(quads []rdf.Quad) *Graph {
	b := NewBuilder(len(quads))
	b.AddQuads(quads)
	return b.Graph()
}

// Len returns the number of triples of the graph.
func (g *Graph) Len() int { return g.size }

// Triples returns the triples of the graph, by subject.
func (g *Graph) Triples() []rdf.Triple {
	ts := make([]rdf.Triple, 0, g.size)
	for s := 1; s < len(g.sOff)-1; s++ {
		for _, e := range g.spo[g.sOff[s]:g.sOff[s+1]] {
			ts = append(ts, rdf.Triple{S: g.terms[s], P: g.terms[e.A].Value, O: g.terms[e.B]})
		}
	}
	return ts
}

// Has reports whether the graph holds the triple t.
func (g *Graph) Has(t rdf.Triple) bool {
	s, p, o := g.dict.lookup(t.S), g.dict.lookup(rdf.NewIRI(t.P)), g.dict.lookup(t.O)
	if s == 0 || p == 0 || o == 0 {
		return false
	}
	_, found := slices.BinarySearchFunc(g.Objects(s, p), o, func(e Edge, o ID) int { return cmp.Compare(e.B, o) })
	return found
}

// index sorts the triples into the three indexes with counting sorts:
// spo by a stable sort on o, then p, then s, which leaves each subject's
// run sorted by (p, o); pso from spo, stable on p; ops from pso, stable on
// o. Duplicates are dropped from spo before the others are made.
func (g *Graph) index(raw [][3]ID) {
	n := len(g.terms)
	tmp := make([][3]ID, len(raw))
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
func countingSort(src, dst [][3]ID, k, n int) {
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
func project(sorted [][3]ID, key, a, b, n int) ([]Edge, []uint32) {
	es := make([]Edge, len(sorted))
	off := make([]uint32, n+1)
	for i, t := range sorted {
		es[i] = Edge{t[a], t[b]}
		off[t[key]+1]++
	}
	for i := 1; i <= n; i++ {
		off[i] += off[i-1]
	}
	return es, off
}

// run returns the edges of key k in an index, or none when k is not a
// term of the graph.
func run(es []Edge, off []uint32, k ID) []Edge {
	if int(k)+1 >= len(off) {
		return nil
	}
	return es[off[k]:off[k+1]]
}

// sub returns the part of a run whose first member is a.
func sub(es []Edge, a ID) []Edge {
	i, _ := slices.BinarySearchFunc(es, a, func(e Edge, a ID) int { return cmp.Compare(e.A, a) })
	j := i
	for j < len(es) && es[j].A == a {
		j++
	}
	return es[i:j]
}

// objects returns the triples with subject s and predicate p, as (p, o)
// edges sorted by o.
func (g *Graph) Objects(s, p ID) []Edge { return sub(run(g.spo, g.sOff, s), p) }

// subjects returns the triples with predicate p and object o, as (p, s)
// edges sorted by s.
func (g *Graph) Subjects(p, o ID) []Edge { return sub(run(g.ops, g.oOff, o), p) }

// out returns every triple of subject s, as (p, o) edges.
func (g *Graph) Out(s ID) []Edge { return run(g.spo, g.sOff, s) }

// withPredicate returns every triple of predicate p, as (s, o) edges
// sorted by s, then o.
func (g *Graph) WithPredicate(p ID) []Edge { return run(g.pso, g.pOff, p) }

// ID returns the number of a term, or 0 when the graph does not hold it.
func (g *Graph) ID(t rdf.Term) ID {
	return g.dict.lookup(t)
}

// Term returns the term numbered n, which must be below NumTerms.
func (g *Graph) Term(n ID) rdf.Term { return g.terms[n] }

// NumTerms returns one more than the highest number of a term of the
// graph: the numbers at and above it are free for terms the graph lacks.
func (g *Graph) NumTerms() int { return len(g.terms) }
