package eval

import (
	"encoding/binary"
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// eval returns the solutions of op matched in g, each compatible with
// seed and holding its bindings (seed is nil or a row: for EXISTS, the
// solution substituted into the pattern; for the right side of a join,
// a solution of the left).
func (e *evaluator) eval(op algebra.Op, g active, seed row) seq {
	switch o := op.(type) {
	case algebra.BGP:
		return e.evalBGP(o, g, seed)
	case algebra.PathPattern:
		return e.evalPath(o, g, seed)
	case algebra.Join:
		return e.evalJoin(o, g, seed)
	case algebra.LeftJoin:
		return e.evalLeftJoin(o, g, seed)
	case algebra.Filter:
		return e.evalFilter(o, g, seed)
	case algebra.Union:
		left, right := e.eval(o.Left, g, seed), e.eval(o.Right, g, seed)
		return func(yield func(row) bool) {
			ok := true
			left(func(r row) bool { ok = yield(r); return ok })
			if ok && e.err == nil {
				right(yield)
			}
		}
	case algebra.Minus:
		return e.evalMinus(o, g, seed)
	case algebra.Graph:
		return e.evalGraph(o, seed)
	case algebra.Extend:
		return e.evalExtend(o, g, seed)
	case algebra.Table:
		return e.evalTable(o, seed)
	case algebra.Group:
		return e.evalGroup(o, g, seed)
	case algebra.OrderBy:
		return e.evalOrderBy(o, g, seed)
	case algebra.Project:
		return e.evalProject(o, g, seed)
	case algebra.Distinct:
		return e.evalDistinct(o.Sub, g, seed)
	case algebra.Reduced:
		return e.evalReduced(o.Sub, g, seed)
	case algebra.Slice:
		return e.evalSlice(o, g, seed)
	case algebra.Service:
		return func(yield func(row) bool) {
			if !o.Silent {
				e.fail(&RefusedError{What: "SERVICE", Why: "jrpcld never queries the network"})
				return
			}
			r := e.newRow()
			copy(r, seed)
			yield(r) // a SILENT SERVICE that fails gives the one empty solution
		}
	}
	return func(func(row) bool) {
		e.fail(&RefusedError{What: fmt.Sprintf("the operator %T", op), Why: "the evaluator does not know it"})
	}
}

// seedable reports whether op's solutions from a seed are exactly its
// solutions joined with the seed: patterns without expressions, whose
// variables the seed may bind before matching.
func seedable(op algebra.Op) bool {
	switch o := op.(type) {
	case algebra.BGP, algebra.PathPattern:
		return true
	case algebra.Table:
		// Probing a large VALUES block once per solution costs more than
		// hashing it once.
		return len(o.Rows) <= 8
	case algebra.Join:
		return seedable(o.Left) && seedable(o.Right)
	case algebra.Union:
		return seedable(o.Left) && seedable(o.Right)
	case algebra.Graph:
		return seedable(o.Sub)
	}
	return false
}

// collect runs s and keeps copies of its solutions, counted as held (the
// caller releases them).
func (e *evaluator) collect(s seq) []row {
	var rows []row
	s(func(r row) bool {
		if !e.hold(1) {
			return false
		}
		rows = append(rows, append(row(nil), r...))
		return e.tick()
	})
	return rows
}

// compatible reports whether a and b agree on every variable both bind.
func compatible(a, b row) bool {
	for i, v := range a {
		if v != 0 && b[i] != 0 && v != b[i] {
			return false
		}
	}
	return true
}

// mergeInto sets dst to the union of the compatible rows a and b.
func mergeInto(dst, a, b row) row {
	for i := range dst {
		if a[i] != 0 {
			dst[i] = a[i]
		} else {
			dst[i] = b[i]
		}
	}
	return dst
}

// index is a hash table over held rows on some key slots; with no key
// slots, every row is a candidate for every probe.
type index struct {
	slots []int
	rows  []row
	m     map[string][]int32
	buf   []byte
}

// newIndex indexes rows on the slots of keys bound in every row.
func newIndex(rows []row, keys map[string]bool, e *evaluator) *index {
	ix := &index{rows: rows}
	for name := range keys {
		s, ok := e.slots[name]
		if !ok {
			continue
		}
		all := true
		for _, r := range rows {
			if r[s] == 0 {
				all = false
				break
			}
		}
		if all {
			ix.slots = append(ix.slots, s)
		}
	}
	if len(ix.slots) == 0 {
		return ix
	}
	ix.m = make(map[string][]int32, len(rows))
	for i, r := range rows {
		k := string(ix.key(r))
		ix.m[k] = append(ix.m[k], int32(i))
	}
	return ix
}

func (ix *index) key(r row) []byte {
	ix.buf = ix.buf[:0]
	for _, s := range ix.slots {
		ix.buf = binary.LittleEndian.AppendUint32(ix.buf, uint32(r[s]))
	}
	return ix.buf
}

// probe calls fn with each held row that may be compatible with r, until
// fn returns false.
func (ix *index) probe(r row, fn func(row) bool) bool {
	if ix.m == nil {
		for _, c := range ix.rows {
			if !fn(c) {
				return false
			}
		}
		return true
	}
	for _, s := range ix.slots {
		if r[s] == 0 { // r leaves a key unbound: every row is a candidate
			for _, c := range ix.rows {
				if !fn(c) {
					return false
				}
			}
			return true
		}
	}
	for _, i := range ix.m[string(ix.key(r))] {
		if !fn(ix.rows[i]) {
			return false
		}
	}
	return true
}

func (e *evaluator) evalJoin(o algebra.Join, g active, seed row) seq {
	return e.joinWith(e.eval(o.Left, g, seed), o, g, seed)
}

// joinWith joins left, the solutions of o.Left, with o.Right.
func (e *evaluator) joinWith(left seq, o algebra.Join, g active, seed row) seq {
	each := e.joinEach(left, o.Left, o.Right, g, seed)
	return func(yield func(row) bool) {
		each(func(_ row, matches seq) bool {
			ok := true
			matches(func(m row) bool { ok = yield(m); return ok })
			return ok && e.err == nil
		})
	}
}

func (e *evaluator) evalLeftJoin(o algebra.LeftJoin, g active, seed row) seq {
	each := e.joinEach(e.eval(o.Left, g, seed), o.Left, o.Right, g, seed)
	return func(yield func(row) bool) {
		each(func(l row, matches seq) bool {
			found, ok := false, true
			matches(func(m row) bool {
				if o.Expr == nil || e.test(o.Expr, m, g) {
					found = true
					ok = yield(m)
				}
				return ok && e.err == nil
			})
			if ok && !found && e.err == nil {
				ok = yield(l)
			}
			return ok && e.err == nil
		})
	}
}

// joinEach is what a join and a left join share: it calls each with every
// solution l of left (the solutions of leftOp) and the solutions of right
// compatible with l, merged with it, until each returns false. When right
// is seedable it is evaluated from each l (walking the store's indexes
// with l's bindings); else its solutions are held once, hashed on the
// variables certain in leftOp's, and probed with each l.
func (e *evaluator) joinEach(left seq, leftOp, right algebra.Op, g active, seed row) func(each func(l row, matches seq) bool) {
	if seedable(right) {
		return func(each func(row, seq) bool) {
			left(func(l row) bool { return each(l, e.eval(right, g, l)) && e.err == nil })
		}
	}
	return func(each func(row, seq) bool) {
		rows := e.collect(e.eval(right, g, seed))
		defer e.release(len(rows))
		if e.err != nil {
			return
		}
		ix := newIndex(rows, certain(leftOp), e)
		out := e.newRow()
		left(func(l row) bool {
			return each(l, func(yield func(row) bool) {
				ix.probe(l, func(r row) bool {
					if !e.tick() {
						return false
					}
					if !compatible(l, r) {
						return true
					}
					return yield(mergeInto(out, l, r))
				})
			})
		})
	}
}

func (e *evaluator) evalMinus(o algebra.Minus, g active, seed row) seq {
	left := e.eval(o.Left, g, seed)
	return func(yield func(row) bool) {
		rows := e.collect(e.eval(o.Right, g, seed))
		defer e.release(len(rows))
		if e.err != nil {
			return
		}
		ix := newIndex(rows, certain(o.Left), e)
		left(func(l row) bool {
			removed := false
			ix.probe(l, func(r row) bool {
				if !e.tick() {
					return false
				}
				shared := false
				for i, v := range l {
					if v != 0 && r[i] != 0 {
						if v != r[i] {
							return true
						}
						shared = true
					}
				}
				removed = shared
				return !removed
			})
			if e.err != nil {
				return false
			}
			return removed || yield(l)
		})
	}
}

func (e *evaluator) evalFilter(o algebra.Filter, g active, seed row) seq {
	sub := e.evalFiltered(o, g, seed)
	return func(yield func(row) bool) {
		sub(func(r row) bool {
			for _, x := range o.Exprs {
				if !e.test(x, r, g) {
					return e.err == nil
				}
			}
			return yield(r)
		})
	}
}

// evalGraph matches o.Sub in the named graph o.Name, or in each named
// graph with o.Name's variable bound to the graph's name.
func (e *evaluator) evalGraph(o algebra.Graph, seed row) seq {
	if !o.Name.IsVar() {
		id, ok := e.storeID(o.Name.Term)
		var gr *store.Graph
		if ok {
			gr = e.namedGraph(id)
		}
		if gr == nil {
			return func(func(row) bool) {}
		}
		return e.eval(o.Sub, active{gr}, seed)
	}
	s := e.slot(o.Name.Var)
	return func(yield func(row) bool) {
		names := e.ds.named
		if seed != nil && seed[s] != 0 {
			names = nil
			if e.namedGraph(seed[s]) != nil {
				names = []store.ID{seed[s]}
			}
		}
		for _, name := range names {
			ok := true
			e.eval(o.Sub, active{e.snap.Graph(name)}, seed)(func(r row) bool {
				switch r[s] {
				case 0:
					r[s] = name
					ok = yield(r)
					r[s] = 0
				case name:
					ok = yield(r)
				}
				return ok && e.tick()
			})
			if !ok || e.err != nil {
				return
			}
		}
	}
}

// evalExtend evaluates a chain of BIND (Extend) over one pattern, so that
// the expressions of one solution share BNODE(str)'s blank nodes.
func (e *evaluator) evalExtend(o algebra.Extend, g active, seed row) seq {
	chain := []algebra.Extend{o}
	sub := o.Sub
	for {
		x, ok := sub.(algebra.Extend)
		if !ok {
			break
		}
		chain = append(chain, x)
		sub = x.Sub
	}
	inner := e.eval(sub, g, seed)
	slots := make([]int, len(chain))
	for i, x := range chain {
		slots[i] = e.slot(x.Var)
	}
	return func(yield func(row) bool) {
		var saved []store.ID
		inner(func(r row) bool {
			e.solution++
			saved = saved[:0]
			for i := len(chain) - 1; i >= 0; i-- {
				s := slots[i]
				saved = append(saved, r[s])
				if t, err := e.evalExpr(chain[i].Expr, r, g); err == nil && r[s] == 0 {
					r[s] = e.id(t)
				}
			}
			ok := e.err == nil && yield(r)
			for i, v := range saved {
				r[slots[len(chain)-1-i]] = v
			}
			return ok
		})
	}
}

// evalTable yields the rows of a VALUES block compatible with seed.
func (e *evaluator) evalTable(o algebra.Table, seed row) seq {
	slots := make([]int, len(o.Vars))
	for i, v := range o.Vars {
		slots[i] = e.slot(v)
	}
	return func(yield func(row) bool) {
		r := e.newRow()
	rows:
		for _, vals := range o.Rows {
			clear(r)
			copy(r, seed)
			for i, t := range vals {
				if t == (rdf.Term{}) {
					continue
				}
				id := e.id(t)
				if r[slots[i]] != 0 && r[slots[i]] != id {
					continue rows
				}
				r[slots[i]] = id
			}
			if !yield(r) {
				return
			}
		}
	}
}

// evalProject keeps the projected variables of each solution (and the
// seed's bindings, which a pattern from a seed always holds).
func (e *evaluator) evalProject(o algebra.Project, g active, seed row) seq {
	slots := make([]int, len(o.Vars))
	for i, v := range o.Vars {
		slots[i] = e.slot(v)
	}
	var inSeed row
	if seed != nil {
		// Only the variables the subquery shows are substituted into it.
		inSeed = e.newRow()
		for _, s := range slots {
			inSeed[s] = seed[s]
		}
	}
	sub := e.eval(o.Sub, g, inSeed)
	return func(yield func(row) bool) {
		out := e.newRow()
		sub(func(r row) bool {
			clear(out)
			copy(out, seed)
			for _, s := range slots {
				if r[s] != 0 {
					out[s] = r[s]
				}
			}
			return yield(out)
		})
	}
}

func rowKey(buf []byte, r row) []byte {
	buf = buf[:0]
	for _, v := range r {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
	}
	return buf
}

func (e *evaluator) evalDistinct(sub algebra.Op, g active, seed row) seq {
	in := e.eval(sub, g, seed)
	return func(yield func(row) bool) {
		seen := map[string]struct{}{}
		defer func() { e.release(len(seen)) }()
		var buf []byte
		in(func(r row) bool {
			buf = rowKey(buf, r)
			if _, dup := seen[string(buf)]; dup {
				return e.tick()
			}
			if !e.hold(1) {
				return false
			}
			seen[string(buf)] = struct{}{}
			return yield(r)
		})
	}
}

// evalReduced drops a solution equal to the one just before it: REDUCED
// allows any number of duplicates to stay, and this costs no memory.
func (e *evaluator) evalReduced(sub algebra.Op, g active, seed row) seq {
	in := e.eval(sub, g, seed)
	return func(yield func(row) bool) {
		var last row
		first := true
		in(func(r row) bool {
			if !first && slicesEqual(last, r) {
				return e.tick()
			}
			first = false
			last = append(last[:0], r...)
			return yield(r)
		})
	}
}

func slicesEqual(a, b row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (e *evaluator) evalSlice(o algebra.Slice, g active, seed row) seq {
	in := e.eval(o.Sub, g, seed)
	return func(yield func(row) bool) {
		if o.Limit == 0 {
			return
		}
		var n int64
		in(func(r row) bool {
			n++
			if n <= o.Offset {
				return e.tick()
			}
			if !yield(r) {
				return false
			}
			return o.Limit < 0 || n < o.Offset+o.Limit
		})
	}
}
