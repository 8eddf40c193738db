// Package store is the SPARQL engine's in-memory dataset: a default graph
// and named graphs, their terms numbered by a dictionary so that the
// evaluator joins and compares small integers instead of strings, and each
// graph indexed three ways (SPO, POS, OSP) so that a triple pattern with
// any of its positions bound is one binary search, and its number of
// matches, which the planner orders joins by, is known without a scan.
//
// Indexes are sorted slices that are never changed in place: additions and
// deletions are buffered and merged into new slices when a Snapshot is next
// taken. A Snapshot is so an immutable view of the dataset that queries read
// without locks while updates go on; many single additions cost one sort,
// not one merge each.
package store

import (
	"math"
	"slices"
	"sync"

	"github.com/jrpcld/jrpcld/rdf"
)

// ID is a term's number in a Store's dictionary. 0 is no term (an unbound
// variable, or the default graph where a graph is named).
type ID uint32

// DefaultGraph is the graph name of the default graph.
const DefaultGraph ID = 0

// Triple is a statement as IDs: subject, predicate, object.
type Triple [3]ID

// Store is a mutable dataset. Its methods are safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	dict    dict
	graphs  map[ID]*Graph // the default graph is always present
	pending []change
	// snap is the last snapshot taken, reused while nothing changed.
	snap *Snapshot
}

// change is one buffered addition or deletion.
type change struct {
	graph ID
	t     Triple
	del   bool
}

// New returns an empty store.
func New() *Store {
	s := &Store{graphs: map[ID]*Graph{DefaultGraph: {}}}
	s.dict.init()
	return s
}

// Add adds quads to the store, creating their named graphs. A literal's
// Escaped lexical form is stored unescaped, and an empty datatype as
// xsd:string, so that terms equal in RDF are one ID.
func (s *Store) Add(quads ...rdf.Quad) error {
	return s.apply(quads, false)
}

// Delete removes quads from the store; quads it does not hold are ignored.
// A named graph left empty still exists (see DropGraph).
func (s *Store) Delete(quads ...rdf.Quad) error {
	return s.apply(quads, true)
}

func (s *Store) apply(quads []rdf.Quad, del bool) error {
	for _, q := range quads {
		if err := checkQuad(q); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = slices.Grow(s.pending, len(quads))
	// Statements come grouped by subject and name few predicates: the
	// last subject's ID and each predicate's are kept for the call.
	var lastS rdf.Term
	var lastSID ID
	preds := map[string]ID{}
	for _, q := range quads {
		if len(s.dict.terms) > math.MaxUint32-4 {
			return FullError{}
		}
		var g ID
		if !q.InDefaultGraph() {
			g = s.intern(q.G, del)
		}
		sub := lastSID
		if q.S != lastS || sub == 0 {
			sub = s.intern(q.S, del)
			lastS, lastSID = q.S, sub
		}
		obj := s.intern(q.O, del)
		pred, ok := preds[q.P]
		if !ok {
			pred = s.intern(rdf.NewIRI(q.P), del)
			preds[q.P] = pred
		}
		if del && (sub == 0 || obj == 0 || pred == 0 || (g == 0 && !q.InDefaultGraph())) {
			continue // a term never seen: the quad is not there
		}
		if !del && s.graphs[g] == nil {
			s.graphs[g] = &Graph{}
		}
		s.pending = append(s.pending, change{graph: g, t: Triple{sub, pred, obj}, del: del})
	}
	if len(quads) > 0 {
		s.snap = nil
	}
	return nil
}

// intern returns t's ID, numbering it unless lookupOnly (then 0 when t has
// none).
func (s *Store) intern(t rdf.Term, lookupOnly bool) ID {
	t = Normalize(t)
	if lookupOnly {
		id, _ := s.dict.lookup(t)
		return id
	}
	return s.dict.intern(t)
}

// CreateGraph makes the named graph name exist, empty, and reports
// whether it was not there before.
func (s *Store) CreateGraph(name rdf.Term) (bool, error) {
	if err := checkGraphName(name); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.dict.intern(Normalize(name))
	if s.graphs[g] != nil {
		return false, nil
	}
	s.graphs[g] = &Graph{}
	s.snap = nil
	return true, nil
}

// ClearGraph removes every triple of a graph (the zero Term is the default
// graph) and reports whether the graph existed. The graph still exists.
func (s *Store) ClearGraph(name rdf.Term) bool {
	return s.removeGraph(name, false)
}

// DropGraph removes a named graph and its triples, or clears the default
// graph (the zero Term), and reports whether the graph existed.
func (s *Store) DropGraph(name rdf.Term) bool {
	return s.removeGraph(name, true)
}

func (s *Store) removeGraph(name rdf.Term, drop bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var g ID
	if name != (rdf.Term{}) {
		var ok bool
		if g, ok = s.dict.lookup(Normalize(name)); !ok {
			return false
		}
	}
	if s.graphs[g] == nil {
		return false
	}
	s.flush()
	if drop && g != DefaultGraph {
		delete(s.graphs, g)
	} else {
		s.graphs[g] = &Graph{}
	}
	s.snap = nil
	return true
}

// Snapshot returns an immutable view of the store as it is now.
func (s *Store) Snapshot() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.snap != nil {
		return s.snap
	}
	s.flush()
	snap := &Snapshot{dict: &s.dict, terms: s.dict.terms[:len(s.dict.terms):len(s.dict.terms)], graphs: make(map[ID]*Graph, len(s.graphs))}
	for id, g := range s.graphs {
		snap.graphs[id] = g
		if id != DefaultGraph {
			snap.named = append(snap.named, id)
		}
	}
	slices.Sort(snap.named)
	s.snap = snap
	return snap
}

// flush merges the pending changes into new indexes, a run of additions
// or deletions of one graph at a time.
func (s *Store) flush() {
	p := s.pending
	s.pending = nil
	for len(p) > 0 {
		// Take the longest run of the same kind; within it, order does not
		// matter.
		n := 1
		for n < len(p) && p[n].del == p[0].del {
			n++
		}
		run := p[:n]
		p = p[n:]
		byGraph := map[ID][]Triple{}
		if g := run[0].graph; all(run, func(c change) bool { return c.graph == g }) {
			ts := make([]Triple, len(run))
			for i, c := range run {
				ts[i] = c.t
			}
			byGraph[g] = ts
		} else {
			for _, c := range run {
				byGraph[c.graph] = append(byGraph[c.graph], c.t)
			}
		}
		for g, ts := range byGraph {
			old := s.graphs[g]
			if old == nil {
				if run[0].del {
					continue
				}
				old = &Graph{}
			}
			if run[0].del {
				s.graphs[g] = old.without(ts)
			} else {
				s.graphs[g] = old.with(ts)
			}
		}
	}
}

// all reports whether every change of run satisfies f.
func all(run []change, f func(change) bool) bool {
	for _, c := range run {
		if !f(c) {
			return false
		}
	}
	return true
}

// Snapshot is an immutable view of a Store. Its methods are safe for
// concurrent use, also while the Store changes.
type Snapshot struct {
	dict   *dict
	terms  []rdf.Term // the dictionary as it was: index is the ID
	graphs map[ID]*Graph
	named  []ID // the named graphs, sorted
}

// Term returns the term numbered id; the zero Term for 0 or an ID the
// snapshot does not know.
func (s *Snapshot) Term(id ID) rdf.Term {
	if int(id) < len(s.terms) {
		return s.terms[id]
	}
	return rdf.Term{}
}

// Lookup returns t's ID, and false when the snapshot holds no such term.
func (s *Snapshot) Lookup(t rdf.Term) (ID, bool) {
	id, ok := s.dict.lookup(Normalize(t))
	if !ok || int(id) >= len(s.terms) {
		return 0, false
	}
	return id, true
}

// Terms is the number of IDs the snapshot knows: IDs are 1 to Terms()-1.
func (s *Snapshot) Terms() int { return len(s.terms) }

// Graph returns the graph named name (DefaultGraph for the default one),
// or nil when there is no such graph.
func (s *Snapshot) Graph(name ID) *Graph { return s.graphs[name] }

// NamedGraphs returns the names of the named graphs, in ID order. The
// slice is shared: do not change it.
func (s *Snapshot) NamedGraphs() []ID { return s.named }

// Quads calls yield with every quad, graph by graph (the default graph
// first), until yield returns false.
func (s *Snapshot) Quads(yield func(rdf.Quad) bool) {
	for _, g := range append([]ID{DefaultGraph}, s.named...) {
		name := s.Term(g)
		for _, t := range s.graphs[g].spo {
			q := rdf.Quad{Triple: rdf.Triple{S: s.Term(t[0]), P: s.Term(t[1]).Value, O: s.Term(t[2])}, G: name}
			if !yield(q) {
				return
			}
		}
	}
}

// dict numbers terms. IDs are never reused; terms is append-only, so a
// snapshot's prefix of it stays valid.
type dict struct {
	mu    sync.RWMutex
	ids   map[rdf.Term]ID
	terms []rdf.Term
}

func (d *dict) init() {
	d.ids = map[rdf.Term]ID{}
	d.terms = []rdf.Term{{}}
}

// intern returns t's ID, numbering it if new. The caller holds the Store's
// lock, so only readers of other snapshots run meanwhile: the map is read
// without the dictionary's lock, which only its writer, this one, needs
// against them.
func (d *dict) intern(t rdf.Term) ID {
	if id, ok := d.ids[t]; ok {
		return id
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	id := ID(len(d.terms))
	d.terms = append(d.terms, t)
	d.ids[t] = id
	return id
}

func (d *dict) lookup(t rdf.Term) (ID, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	id, ok := d.ids[t]
	return id, ok
}
