// Package eval evaluates the SPARQL 1.1 algebra (package algebra) over an
// in-memory dataset (package store): queries of the four forms, and
// updates.
//
// Solutions are rows of term IDs, one slot per variable of the query, so
// that joins and comparisons are on integers; a term an expression makes
// that the store does not hold gets an ID of the query's own, above the
// store's. Operators are push iterators: a solution flows up to LIMIT, to
// the result or to the operator that must hold it (a hash join's build
// side, ORDER BY, GROUP BY, DISTINCT) without lists in between, and a LIMIT
// stops the work below it. What is held at once is counted against
// Options.MaxSolutions, and the context is checked as the work goes, so
// that a query too large or too slow stops with an error instead of taking
// the machine.
//
// A basic graph pattern is joined in the order its patterns' match counts
// suggest (fewest first, each next one sharing a variable when one does),
// walking the store's indexes with the bindings found so far; a join whose
// right side is such a pattern does the same from each solution of its
// left side, and other joins hash.
package eval

import (
	"context"
	"math/rand"
	"strconv"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// DefaultMaxSolutions is the number of solutions a query may hold at once
// when Options.MaxSolutions is 0.
const DefaultMaxSolutions = 10_000_000

// Options tune one evaluation.
type Options struct {
	// MaxSolutions bounds the solutions held at once (in joins, ORDER BY,
	// GROUP BY, DISTINCT, CONSTRUCT's graph); past it the query stops with
	// a *LimitError. 0 means DefaultMaxSolutions; negative means no bound.
	MaxSolutions int
	// DefaultGraphUnion makes the default graph the union of every graph
	// of the store, when the query names no dataset (no FROM, FROM NAMED,
	// USING or USING NAMED).
	DefaultGraphUnion bool
	// Now is the time NOW() returns; the zero Time means the time the
	// evaluation starts.
	Now time.Time
	// Seed seeds RAND(), UUID() and STRUUID(); 0 means a seed from the
	// clock.
	Seed int64
	// Load reads the graph LOAD names, for updates; nil refuses LOAD (the
	// engine never reads a file or the network on its own).
	Load func(iri string) ([]rdf.Triple, error)
	// Bindings pre-binds variables of a query (by name, without '?'), as
	// SHACL-SPARQL pre-binds $this: the query is evaluated as EXISTS
	// evaluates its pattern, each variable's value substituted wherever
	// the variable occurs (a subquery sees only those it projects), and
	// every solution binds it. A zero Term leaves its variable free.
	Bindings map[string]rdf.Term
}

// row is a solution: the ID bound to each variable slot, 0 when unbound.
// A row an operator yields is valid only during the call; one that keeps
// it copies it.
type row []store.ID

// seq is a stream of solutions, pushed to yield until it returns false.
type seq func(yield func(row) bool)

// evaluator is the state of one query or update operation on one snapshot.
type evaluator struct {
	ctx  context.Context
	snap *store.Snapshot
	opts Options

	slots map[string]int // variable name → slot
	names []string       // slot → name

	// Terms made during the evaluation and not in the store: ID base+i is
	// extra[i].
	base  store.ID
	extra []rdf.Term
	extID map[rdf.Term]store.ID
	// values are the terms' values the operators have read, by ID, so
	// that each is read once however many solutions compare it.
	values map[store.ID]expr.Value
	consts map[rdf.Term]expr.Value // the query's constants' (a query has few)

	env   expr.Env
	bnode int // the last fresh blank node number
	// labels maps BNODE(str)'s strings to their blank nodes for the
	// solution numbered labelsOf.
	labels   map[string]rdf.Term
	labelsOf int
	solution int // bumped for each solution an expression is evaluated on

	max   int
	held  int
	ticks int
	err   error

	ds       dataset
	seed     row // Options.Bindings, or nil
	plans    map[planKey][]int
	lookups  map[rdf.Term]lookup
	resolved map[bgpKey][]tpat // a BGP's patterns; nil when one cannot match
}

func newEvaluator(ctx context.Context, snap *store.Snapshot, opts Options) *evaluator {
	e := &evaluator{
		ctx:   ctx,
		snap:  snap,
		opts:  opts,
		slots: map[string]int{},
		base:  store.ID(snap.Terms()),
		extID: map[rdf.Term]store.ID{},

		values: map[store.ID]expr.Value{},
		consts: map[rdf.Term]expr.Value{},
		max:    opts.MaxSolutions,
		plans:  map[planKey][]int{},

		lookups:  map[rdf.Term]lookup{},
		resolved: map[bgpKey][]tpat{},
	}
	if e.max == 0 {
		e.max = DefaultMaxSolutions
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	seed := opts.Seed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	e.env = expr.Env{Now: now, Rand: rand.New(rand.NewSource(seed)), NewBNode: e.freshBlank}
	return e
}

// slot returns the slot of variable name, adding one if new.
func (e *evaluator) slot(name string) int {
	if i, ok := e.slots[name]; ok {
		return i
	}
	e.slots[name] = len(e.names)
	e.names = append(e.names, name)
	return len(e.names) - 1
}

// newRow returns an empty row with a slot for every variable.
func (e *evaluator) newRow() row { return make(row, len(e.names)) }

// term returns the term numbered id.
func (e *evaluator) term(id store.ID) rdf.Term {
	if id < e.base {
		return e.snap.Term(id)
	}
	if i := int(id - e.base); i < len(e.extra) {
		return e.extra[i]
	}
	return rdf.Term{}
}

// id returns t's ID, numbering it among the query's own terms when the
// store does not hold it.
func (e *evaluator) id(t rdf.Term) store.ID {
	if t == (rdf.Term{}) {
		return 0
	}
	if id, ok := e.snap.Lookup(t); ok {
		return id
	}
	t = store.Normalize(t)
	if id, ok := e.extID[t]; ok {
		return id
	}
	id := e.base + store.ID(len(e.extra))
	e.extra = append(e.extra, t)
	e.extID[t] = id
	return id
}

// storeID returns t's ID in the store, and false when the store does not
// hold it (so no triple matches it).
func (e *evaluator) storeID(t rdf.Term) (store.ID, bool) {
	if l, ok := e.lookups[t]; ok {
		return l.id, l.ok
	}
	id, ok := e.snap.Lookup(t)
	e.lookups[t] = lookup{id, ok}
	return id, ok
}

// lookup is a term's ID in the store, remembered: the query's constants
// are looked up once, not once per solution.
type lookup struct {
	id store.ID
	ok bool
}

// freshBlank returns a blank node no term of the store or of the query
// has.
func (e *evaluator) freshBlank() rdf.Term {
	for {
		e.bnode++
		t := rdf.NewBlank("g" + strconv.Itoa(e.bnode))
		if _, ok := e.snap.Lookup(t); ok {
			continue
		}
		if _, ok := e.extID[t]; ok {
			continue
		}
		return t
	}
}

// fail records the first error; the streams stop at their next check.
func (e *evaluator) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// tick counts a unit of work and reports whether to go on: false once an
// error is recorded or the context is done.
func (e *evaluator) tick() bool {
	if e.err != nil {
		return false
	}
	e.ticks++
	if e.ticks&1023 == 0 {
		if err := e.ctx.Err(); err != nil {
			e.fail(&CanceledError{Err: err})
			return false
		}
	}
	return true
}

// hold counts n more solutions held, failing past the limit.
func (e *evaluator) hold(n int) bool {
	e.held += n
	if e.max > 0 && e.held > e.max {
		e.fail(&LimitError{Max: e.max})
		return false
	}
	return true
}

// release counts n solutions no longer held.
func (e *evaluator) release(n int) { e.held -= n }

// collectVars gives a slot to every variable of op, its expressions and
// nested patterns.
func (e *evaluator) collectVars(op algebra.Op) {
	walkOp(op, func(name string) { e.slot(name) })
}

// dataset is the RDF dataset a query runs on: the graphs merged into its
// default graph and its named graphs.
type dataset struct {
	dflt    active
	named   []store.ID // in the order GRAPH ?g visits them
	inNamed map[store.ID]bool
}

// active is the graph a pattern is matched against: one graph, or the
// merge of several (a default graph made of FROM graphs or the union),
// whose triples count once however many graphs hold them.
type active []*store.Graph

// buildDataset makes the dataset of a query or WHERE clause: from and
// named name the graphs (FROM / USING and FROM NAMED / USING NAMED); when
// both are empty the store's default graph (or, with DefaultGraphUnion, all
// its graphs) and all its named graphs. with, when set and the clauses are
// empty, is the default graph instead (an update's WITH).
func (e *evaluator) buildDataset(from, named []string, with string) {
	if len(from) == 0 && len(named) == 0 {
		switch {
		case with != "":
			e.ds.dflt = e.graphsNamed([]string{with})
		case e.opts.DefaultGraphUnion:
			e.ds.dflt = active{e.snap.Graph(store.DefaultGraph)}
			for _, g := range e.snap.NamedGraphs() {
				e.ds.dflt = append(e.ds.dflt, e.snap.Graph(g))
			}
		default:
			e.ds.dflt = active{e.snap.Graph(store.DefaultGraph)}
		}
		e.ds.named = e.snap.NamedGraphs()
		e.ds.inNamed = nil
		return
	}
	e.ds.dflt = e.graphsNamed(from)
	e.ds.inNamed = map[store.ID]bool{}
	e.ds.named = nil
	for _, iri := range named {
		id, ok := e.storeID(rdf.NewIRI(iri))
		if ok && e.snap.Graph(id) != nil && !e.ds.inNamed[id] {
			e.ds.inNamed[id] = true
			e.ds.named = append(e.ds.named, id)
		}
	}
}

// graphsNamed returns the store's graphs named by iris, each once; those
// the store does not have are left out (they are empty).
func (e *evaluator) graphsNamed(iris []string) active {
	var a active
	seen := map[store.ID]bool{}
	for _, iri := range iris {
		id, ok := e.storeID(rdf.NewIRI(iri))
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
		if g := e.snap.Graph(id); g != nil {
			a = append(a, g)
		}
	}
	return a
}

// namedGraph returns the named graph id of the dataset, or nil.
func (e *evaluator) namedGraph(id store.ID) *store.Graph {
	if id == store.DefaultGraph || e.ds.inNamed != nil && !e.ds.inNamed[id] {
		return nil
	}
	return e.snap.Graph(id)
}
