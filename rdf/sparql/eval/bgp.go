package eval

import (
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// pos is one position of a triple pattern: a variable's slot, or (slot
// -1) a constant's ID, 0 when the store does not hold the constant.
type pos struct {
	slot int
	id   store.ID
}

// tpat is a triple pattern resolved against the store and the slots.
type tpat [3]pos

// planKey identifies a plan: the pattern list (by its first element's
// address) and which of its variable positions are bound on entry.
type planKey struct {
	bgp   bgpKey
	graph *store.Graph
	bound uint64
}

// bgpKey identifies a BGP's pattern list: its first element's address and
// its length.
type bgpKey struct {
	first *algebra.TriplePattern
	n     int
}

// resolve turns a pattern's nodes into positions; ok is false when a
// constant is not in the store, so that the pattern matches nothing.
func (e *evaluator) resolve(tp algebra.TriplePattern) (p tpat, ok bool) {
	ok = true
	for i, n := range [3]algebra.Node{tp.S, tp.P, tp.O} {
		if n.IsVar() {
			p[i] = pos{slot: e.slot(n.Var)}
			continue
		}
		id, found := e.storeID(n.Term)
		p[i] = pos{slot: -1, id: id}
		ok = ok && found
	}
	return p, ok
}

// resolveAll returns the resolved patterns of b, nil when one has a
// constant the store lacks; once per BGP.
func (e *evaluator) resolveAll(b algebra.BGP) []tpat {
	key := bgpKey{&b.Patterns[0], len(b.Patterns)}
	if pats, ok := e.resolved[key]; ok {
		return pats
	}
	pats := make([]tpat, len(b.Patterns))
	for i, tp := range b.Patterns {
		p, ok := e.resolve(tp)
		if !ok {
			pats = nil
			break
		}
		pats[i] = p
	}
	e.resolved[key] = pats
	return pats
}

// evalBGP matches the patterns of b in g, from the bindings of seed.
func (e *evaluator) evalBGP(b algebra.BGP, g active, seed row) seq {
	return func(yield func(row) bool) {
		r := e.newRow()
		copy(r, seed)
		if len(b.Patterns) == 0 {
			yield(r)
			return
		}
		pats := e.resolveAll(b)
		if pats == nil {
			return
		}
		order := e.plan(b, pats, g, r)
		if len(order) == 0 {
			return
		}
		var match func(i int) bool
		match = func(i int) bool {
			if i == len(order) {
				return yield(r)
			}
			return e.matchPattern(pats[order[i]], g, r, func() bool { return match(i + 1) })
		}
		match(0)
	}
}

// matchPattern binds r to each triple of g matching p given r's
// bindings, calling next for each; it restores r and returns false as
// soon as next does.
func (e *evaluator) matchPattern(p tpat, g active, r row, next func() bool) bool {
	var want [3]store.ID
	for i, ps := range p {
		switch {
		case ps.slot < 0:
			want[i] = ps.id
		case r[ps.slot] != 0:
			if r[ps.slot] >= e.base {
				return true // a term the query made matches no triple
			}
			want[i] = r[ps.slot]
		}
	}
	return e.scan(g, want[0], want[1], want[2], func(s, pr, o store.ID) bool {
		got := [3]store.ID{s, pr, o}
		var set [3]int
		n := 0
		ok := true
		for i, ps := range p {
			if ps.slot < 0 || want[i] != 0 {
				continue
			}
			switch cur := r[ps.slot]; {
			case cur == 0:
				r[ps.slot] = got[i]
				set[n] = ps.slot
				n++
			case cur != got[i]:
				ok = false // the same variable twice, bound apart
			}
		}
		goOn := true
		if ok {
			goOn = next()
		}
		for _, s := range set[:n] {
			r[s] = 0
		}
		return goOn
	})
}

// scan calls fn with each triple of g matching (s, p, o), 0 a wildcard
// (a term the query made matches nothing),
// each once even when several graphs of g hold it, until fn returns false;
// it returns false when fn or the evaluator stopped it.
func (e *evaluator) scan(g active, s, p, o store.ID, fn func(s, p, o store.ID) bool) bool {
	if s >= e.base || p >= e.base || o >= e.base {
		return true // a term the query made is in no triple
	}
	for k, gr := range g {
		rg := gr.Match(s, p, o)
	next:
		for i := range rg.Len() {
			if !e.tick() {
				return false
			}
			ts, tp, to := rg.At(i)
			for _, prev := range g[:k] {
				if prev.Contains(ts, tp, to) {
					continue next
				}
			}
			if !fn(ts, tp, to) {
				return false
			}
		}
	}
	return true
}

// count returns the number of triples of g matching (s, p, o), counting a
// triple in several graphs more than once (an estimate for planning).
func count(g active, s, p, o store.ID) int {
	n := 0
	for _, gr := range g {
		n += gr.Count(s, p, o)
	}
	return n
}

// plan returns the order to match pats in, given the slots bound in r, or
// an empty order when some pattern matches no triple whatever the bindings:
// greedily the pattern with the fewest matches, counting its constants and
// taking each bound variable to divide them by 100, preferring one that
// shares a bound variable when there is one so as not to make a cross
// product. Plans are kept per pattern list and bound positions.
func (e *evaluator) plan(b algebra.BGP, pats []tpat, g active, r row) []int {
	var key planKey
	cache := len(pats)*3 <= 64
	if cache {
		key.bgp = bgpKey{&b.Patterns[0], len(b.Patterns)}
		if len(g) > 0 {
			key.graph = g[0]
		}
		for i, p := range pats {
			for j, ps := range p {
				if ps.slot >= 0 && r[ps.slot] != 0 {
					key.bound |= 1 << (i*3 + j)
				}
			}
		}
		if order, ok := e.plans[key]; ok {
			return order
		}
	}
	bound := map[int]bool{}
	for _, p := range pats {
		for _, ps := range p {
			if ps.slot >= 0 && r[ps.slot] != 0 {
				bound[ps.slot] = true
			}
		}
	}
	base := make([]int, len(pats))
	for i, p := range pats {
		var c [3]store.ID
		for j, ps := range p {
			if ps.slot < 0 {
				c[j] = ps.id
			}
		}
		base[i] = count(g, c[0], c[1], c[2])
		if base[i] == 0 {
			order := []int{} // no triple matches a pattern: no solution
			if cache {
				e.plans[key] = order
			}
			return order
		}
	}
	done := make([]bool, len(pats))
	order := make([]int, 0, len(pats))
	for len(order) < len(pats) {
		best, bestConn, bestEst := -1, false, 0.0
		for i, p := range pats {
			if done[i] {
				continue
			}
			est := float64(base[i])
			conn := false
			for _, ps := range p {
				if ps.slot >= 0 && bound[ps.slot] {
					est /= 100
					conn = true
				}
			}
			if best < 0 || conn && !bestConn || conn == bestConn && est < bestEst {
				best, bestConn, bestEst = i, conn, est
			}
		}
		done[best] = true
		order = append(order, best)
		for _, ps := range pats[best] {
			if ps.slot >= 0 {
				bound[ps.slot] = true
			}
		}
	}
	if cache {
		e.plans[key] = order
	}
	return order
}
