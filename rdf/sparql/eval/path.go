package eval

import (
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// evalPath matches a property path pattern (section 18.5): sequences and
// alternatives keep duplicates, as the joins and unions they stand for do;
// P?, P* and P+ give each pair of ends once; zero-length paths connect a
// term to itself, every subject and object of the graph when both ends are
// free, and a given term even when the graph does not hold it.
func (e *evaluator) evalPath(o algebra.PathPattern, g active, seed row) seq {
	return func(yield func(row) bool) {
		r := e.newRow()
		copy(r, seed)
		s, sSlot := e.pathEnd(o.S, r)
		t, tSlot := e.pathEnd(o.O, r)
		// An end bound by the seed rather than written in the query must
		// be a node of the graph, as it is when the pattern is matched on
		// its own and joined: a zero-length path would otherwise connect a
		// term the graph lacks to itself.
		for _, end := range []struct {
			n  algebra.Node
			id store.ID
		}{{o.S, s}, {o.O, t}} {
			if end.n.IsVar() && end.id != 0 && !e.isNode(g, end.id) {
				return
			}
		}
		e.pathPairs(o.Path, g, s, t, func(x, y store.ID) bool {
			if sSlot >= 0 && sSlot == tSlot && x != y {
				return true
			}
			if sSlot >= 0 {
				r[sSlot] = x
			}
			if tSlot >= 0 {
				r[tSlot] = y
			}
			ok := yield(r)
			if sSlot >= 0 {
				r[sSlot] = 0
			}
			if tSlot >= 0 {
				r[tSlot] = 0
			}
			return ok
		})
	}
}

// pathEnd returns an end of a path pattern: its ID when it is a term or a
// bound variable (slot -1), else 0 and the variable's slot.
func (e *evaluator) pathEnd(n algebra.Node, r row) (store.ID, int) {
	if !n.IsVar() {
		return e.id(n.Term), -1
	}
	s := e.slot(n.Var)
	if r[s] != 0 {
		return r[s], -1
	}
	return 0, s
}

// pathPairs calls fn with each pair (x, y) that p connects in g, x being s
// unless s is 0 and y being o unless o is 0, until fn returns false.
func (e *evaluator) pathPairs(p algebra.Path, g active, s, o store.ID, fn func(x, y store.ID) bool) bool {
	switch p := p.(type) {
	case algebra.PathIRI:
		id, ok := e.storeID(rdf.NewIRI(p.IRI))
		if !ok {
			return true
		}
		return e.scan(g, s, id, o, func(x, _, y store.ID) bool { return fn(x, y) })
	case algebra.PathInverse:
		return e.pathPairs(p.P, g, o, s, func(x, y store.ID) bool { return fn(y, x) })
	case algebra.PathSeq:
		if s != 0 || o == 0 {
			return e.pathPairs(p.Left, g, s, 0, func(x, m store.ID) bool {
				return e.pathPairs(p.Right, g, m, o, func(_, y store.ID) bool { return fn(x, y) })
			})
		}
		return e.pathPairs(p.Right, g, 0, o, func(m, y store.ID) bool {
			return e.pathPairs(p.Left, g, 0, m, func(x, _ store.ID) bool { return fn(x, y) })
		})
	case algebra.PathAlt:
		return e.pathPairs(p.Left, g, s, o, fn) && e.pathPairs(p.Right, g, s, o, fn)
	case algebra.PathZeroOrOne:
		seen := map[[2]store.ID]bool{}
		defer func() { e.release(len(seen)) }()
		once := func(x, y store.ID) bool {
			if seen[[2]store.ID{x, y}] {
				return true
			}
			seen[[2]store.ID{x, y}] = true
			return e.hold(1) && fn(x, y)
		}
		if !e.zeroLength(g, s, o, once) {
			return false
		}
		return e.pathPairs(p.P, g, s, o, once)
	case algebra.PathZeroOrMore:
		return e.closure(p.P, g, s, o, true, fn)
	case algebra.PathOneOrMore:
		return e.closure(p.P, g, s, o, false, fn)
	case algebra.PathNegated:
		return e.negated(p, g, s, o, fn)
	}
	e.fail(&RefusedError{What: "a property path of an unknown kind", Why: "the evaluator does not know it"})
	return false
}

// zeroLength calls fn with the pairs a zero-length path gives: (s, s) or
// (o, o) when an end is given (both: when they are equal), else (n, n) for
// every subject and object n of g.
func (e *evaluator) zeroLength(g active, s, o store.ID, fn func(x, y store.ID) bool) bool {
	switch {
	case s != 0 && o != 0:
		return s != o || fn(s, s)
	case s != 0:
		return fn(s, s)
	case o != 0:
		return fn(o, o)
	}
	ok := true
	e.nodes(g, func(n store.ID) bool {
		ok = e.tick() && fn(n, n)
		return ok
	})
	return ok
}

// isNode reports whether id is a subject or an object of g.
func (e *evaluator) isNode(g active, id store.ID) bool {
	return id < e.base && (count(g, id, 0, 0) > 0 || count(g, 0, 0, id) > 0)
}

// nodes calls fn with every subject and object of g, each once.
func (e *evaluator) nodes(g active, fn func(store.ID) bool) {
	if len(g) == 1 {
		g[0].Nodes(fn)
		return
	}
	seen := map[store.ID]bool{}
	defer func() { e.release(len(seen)) }()
	for _, gr := range g {
		ok := true
		gr.Nodes(func(n store.ID) bool {
			if seen[n] {
				return true
			}
			seen[n] = true
			ok = e.hold(1) && fn(n)
			return ok
		})
		if !ok {
			return
		}
	}
}

// closure is P* (zero true) and P+: each end reachable from a start, once
// per start.
func (e *evaluator) closure(p algebra.Path, g active, s, o store.ID, zero bool, fn func(x, y store.ID) bool) bool {
	switch {
	case s != 0:
		return e.reach(p, g, s, o, zero, func(y store.ID) bool { return fn(s, y) })
	case o != 0:
		return e.reach(algebra.PathInverse{P: p}, g, o, 0, zero, func(x store.ID) bool { return fn(x, o) })
	}
	ok := true
	e.nodes(g, func(n store.ID) bool {
		ok = e.reach(p, g, n, 0, zero, func(y store.ID) bool { return fn(n, y) })
		return ok
	})
	return ok
}

// reach calls fn with each node reachable from start by p repeated (at
// least once, or also zero times when zero), each once, breadth first;
// when target is not 0 only target, if reachable.
func (e *evaluator) reach(p algebra.Path, g active, start, target store.ID, zero bool, fn func(store.ID) bool) bool {
	visited := map[store.ID]bool{}
	defer func() { e.release(len(visited)) }()
	if zero {
		visited[start] = true
		if !e.hold(1) {
			return false
		}
		if target == 0 || target == start {
			if !fn(start) {
				return false
			}
			if target != 0 {
				return true
			}
		}
	}
	frontier := []store.ID{start}
	for len(frontier) > 0 {
		var next []store.ID
		for _, x := range frontier {
			found, stopped := false, false
			e.pathPairs(p, g, x, 0, func(_, y store.ID) bool {
				if visited[y] {
					return e.tick()
				}
				visited[y] = true
				if !e.hold(1) {
					return false
				}
				next = append(next, y)
				if target == 0 || y == target {
					if !fn(y) {
						stopped = true
						return false
					}
					found = target != 0
					return !found
				}
				return true
			})
			switch {
			case stopped || e.err != nil:
				return false
			case found:
				return true
			}
		}
		frontier = next
	}
	return true
}

// negated is !(a|^b...): the triples whose predicate is not one of the
// forward IRIs, walked forward, and those whose predicate is not one of
// the inverse IRIs, walked backward.
func (e *evaluator) negated(p algebra.PathNegated, g active, s, o store.ID, fn func(x, y store.ID) bool) bool {
	ids := func(iris []string) map[store.ID]bool {
		m := map[store.ID]bool{}
		for _, iri := range iris {
			if id, ok := e.storeID(rdf.NewIRI(iri)); ok {
				m[id] = true
			}
		}
		return m
	}
	if len(p.Forward) > 0 || len(p.Inverse) == 0 {
		fwd := ids(p.Forward)
		if !e.scan(g, s, 0, o, func(x, pr, y store.ID) bool { return fwd[pr] || fn(x, y) }) {
			return false
		}
	}
	if len(p.Inverse) > 0 {
		inv := ids(p.Inverse)
		return e.scan(g, o, 0, s, func(y, pr, x store.ID) bool { return inv[pr] || fn(x, y) })
	}
	return true
}
