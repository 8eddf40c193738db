package eval

import (
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
)

// evalFiltered returns the solutions of a filter's pattern, before the
// filter. When the pattern is a chain of joins and the filter requires two
// variables to be equal (FILTER(?a = ?b), alone or within &&), one bound
// on each side of a join of the chain, that join hashes the solutions of
// its right side on the value of their variable (expr.EqualKey) and meets
// each solution of its left side with those of the same key only, rather
// than with every one: what would be a cross product when the sides share
// no variable is then as fast as a join on one. The filter still runs on
// every solution; the join only leaves out those it would refuse.
func (e *evaluator) evalFiltered(o algebra.Filter, g active, seed row) seq {
	pairs := equalities(o.Exprs)
	if len(pairs) == 0 {
		return e.eval(o.Sub, g, seed)
	}
	sub := o.Sub
	if b, ok := sub.(algebra.BGP); ok {
		sub = splitBGP(b, pairs)
	}
	if j, ok := sub.(algebra.Join); ok {
		if s, ok := e.evalEquiJoin(j, g, seed, pairs); ok {
			return s
		}
	}
	return e.eval(o.Sub, g, seed)
}

// splitBGP returns b as the join of two basic graph patterns when a pair
// of variables to be equal lies in two parts of b that share no variable
// (which b would match as a cross product): the part of the pair's second
// variable on the right, the rest on the left. Otherwise it returns b.
func splitBGP(b algebra.BGP, pairs [][2]string) algebra.Op {
	part := components(b)
	for _, p := range pairs {
		ca, okA := part.of[p[0]]
		cb, okB := part.of[p[1]]
		if !okA || !okB || ca == cb {
			continue
		}
		var left, right algebra.BGP
		for i, tp := range b.Patterns {
			if part.pattern[i] == cb {
				right.Patterns = append(right.Patterns, tp)
			} else {
				left.Patterns = append(left.Patterns, tp)
			}
		}
		return algebra.Join{Left: left, Right: right}
	}
	return b
}

// bgpParts numbers the parts of a basic graph pattern that share no
// variable: the part of each pattern, and of each variable.
type bgpParts struct {
	pattern []int
	of      map[string]int
}

// components finds the parts of b: patterns that share a variable, or are
// linked by patterns that do, are in one part.
func components(b algebra.BGP) bgpParts {
	parent := make([]int, len(b.Patterns))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	first := map[string]int{} // a variable's first pattern
	for i, tp := range b.Patterns {
		for _, n := range []algebra.Node{tp.S, tp.P, tp.O} {
			if !n.IsVar() {
				continue
			}
			if j, ok := first[n.Var]; ok {
				parent[find(i)] = find(j)
			} else {
				first[n.Var] = i
			}
		}
	}
	parts := bgpParts{pattern: make([]int, len(b.Patterns)), of: map[string]int{}}
	for i := range b.Patterns {
		parts.pattern[i] = find(i)
	}
	for name, i := range first {
		parts.of[name] = find(i)
	}
	return parts
}

// equalities returns the pairs of variables that the expressions require
// to be equal: ?a = ?b as one of the operands of && at the top of an
// expression, or as the expression itself. Where "=" is false or an
// error, so is the && around it, and the filter refuses the solution.
func equalities(exprs []algebra.Expr) [][2]string {
	var out [][2]string
	var walk func(x algebra.Expr)
	walk = func(x algebra.Expr) {
		c, ok := x.(algebra.Call)
		if !ok {
			return
		}
		switch c.Name {
		case "&&":
			for _, a := range c.Args {
				walk(a)
			}
		case "=":
			if len(c.Args) != 2 {
				return
			}
			a, okA := c.Args[0].(algebra.VarExpr)
			b, okB := c.Args[1].(algebra.VarExpr)
			if okA && okB && a.Name != b.Name {
				out = append(out, [2]string{a.Name, b.Name})
			}
		}
	}
	for _, x := range exprs {
		walk(x)
	}
	return out
}

// evalEquiJoin evaluates the chain of joins j, hashing on the first pair
// of variables one of its joins binds one on each side, left to right:
// the join j itself, or, down its left side, the join that does. It
// reports false when no join of the chain splits a pair.
func (e *evaluator) evalEquiJoin(j algebra.Join, g active, seed row, pairs [][2]string) (seq, bool) {
	left, right := certain(j.Left), certain(j.Right)
	for _, p := range pairs {
		a, b := p[0], p[1]
		if left[b] && right[a] {
			a, b = b, a
		}
		sa, okA := e.slots[a]
		sb, okB := e.slots[b]
		if left[a] && right[b] && okA && okB {
			return e.hashEquiJoin(j, g, seed, sa, sb), true
		}
	}
	if lj, ok := j.Left.(algebra.Join); ok {
		if s, ok := e.evalEquiJoin(lj, g, seed, pairs); ok {
			return e.joinWith(s, j, g, seed), true
		}
	}
	return nil, false
}

// hashEquiJoin joins j's sides on the value of the variable of slot a,
// which its left side binds, and of slot b, which its right side binds:
// the right side's solutions are held, hashed on the EqualKey of b's term.
func (e *evaluator) hashEquiJoin(j algebra.Join, g active, seed row, a, b int) seq {
	left := e.eval(j.Left, g, seed)
	return func(yield func(row) bool) {
		rows := e.collect(e.eval(j.Right, g, seed))
		defer e.release(len(rows))
		if e.err != nil {
			return
		}
		byKey := make(map[string][]int32, len(rows))
		for i, r := range rows {
			if r[b] != 0 {
				k := expr.EqualKey(e.term(r[b]))
				byKey[k] = append(byKey[k], int32(i))
			}
		}
		out := e.newRow()
		left(func(l row) bool {
			if l[a] == 0 {
				return true // "=" on an unbound variable is an error
			}
			for _, i := range byKey[expr.EqualKey(e.term(l[a]))] {
				if !e.tick() {
					return false
				}
				if r := rows[i]; compatible(l, r) && !yield(mergeInto(out, l, r)) {
					return false
				}
			}
			return e.err == nil
		})
	}
}
