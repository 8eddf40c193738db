package eval

import (
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// walkOp calls v with the name of every variable op mentions, in its
// patterns, expressions, nested patterns and results, in the order they
// appear (a name may come more than once).
func walkOp(op algebra.Op, v func(string)) {
	node := func(n algebra.Node) {
		if n.IsVar() {
			v(n.Var)
		}
	}
	// What comes before the operands, then the operands, then the rest.
	switch o := op.(type) {
	case algebra.Graph:
		node(o.Name)
	case algebra.Service:
		node(o.Endpoint)
	}
	for _, sub := range operands(op) {
		walkOp(sub, v)
	}
	switch o := op.(type) {
	case algebra.BGP:
		for _, p := range o.Patterns {
			node(p.S)
			node(p.P)
			node(p.O)
		}
	case algebra.PathPattern:
		node(o.S)
		node(o.O)
	case algebra.LeftJoin:
		walkExpr(o.Expr, v)
	case algebra.Filter:
		for _, x := range o.Exprs {
			walkExpr(x, v)
		}
	case algebra.Extend:
		v(o.Var)
		walkExpr(o.Expr, v)
	case algebra.Table:
		for _, name := range o.Vars {
			v(name)
		}
	case algebra.Group:
		for _, k := range o.By {
			walkExpr(k.Expr, v)
			if k.Var != "" {
				v(k.Var)
			}
		}
		for _, a := range o.Aggs {
			v(a.Var)
			for _, x := range a.Args {
				walkExpr(x, v)
			}
		}
	case algebra.OrderBy:
		for _, c := range o.Conds {
			walkExpr(c.Expr, v)
		}
	case algebra.Project:
		for _, name := range o.Vars {
			v(name)
		}
	}
}

// operands returns the operators op applies to, in order: none for a
// BGP, a path pattern or a table.
func operands(op algebra.Op) []algebra.Op {
	switch o := op.(type) {
	case algebra.Join:
		return []algebra.Op{o.Left, o.Right}
	case algebra.LeftJoin:
		return []algebra.Op{o.Left, o.Right}
	case algebra.Union:
		return []algebra.Op{o.Left, o.Right}
	case algebra.Minus:
		return []algebra.Op{o.Left, o.Right}
	case algebra.Filter:
		return []algebra.Op{o.Sub}
	case algebra.Graph:
		return []algebra.Op{o.Sub}
	case algebra.Extend:
		return []algebra.Op{o.Sub}
	case algebra.Group:
		return []algebra.Op{o.Sub}
	case algebra.OrderBy:
		return []algebra.Op{o.Sub}
	case algebra.Project:
		return []algebra.Op{o.Sub}
	case algebra.Distinct:
		return []algebra.Op{o.Sub}
	case algebra.Reduced:
		return []algebra.Op{o.Sub}
	case algebra.Slice:
		return []algebra.Op{o.Sub}
	case algebra.Service:
		return []algebra.Op{o.Sub}
	}
	return nil
}

// walkExpr calls v with the name of every variable x mentions, also in
// EXISTS patterns.
func walkExpr(x algebra.Expr, v func(string)) {
	switch x := x.(type) {
	case algebra.VarExpr:
		v(x.Name)
	case algebra.Call:
		for _, a := range x.Args {
			walkExpr(a, v)
		}
	case algebra.Exists:
		walkOp(x.Op, v)
	}
}

// certain returns the variables bound in every solution of op (a subset:
// when in doubt a variable is left out), for choosing a hash join's keys.
func certain(op algebra.Op) map[string]bool {
	out := map[string]bool{}
	add := func(n algebra.Node) {
		if n.IsVar() {
			out[n.Var] = true
		}
	}
	switch o := op.(type) {
	case algebra.BGP:
		for _, p := range o.Patterns {
			add(p.S)
			add(p.P)
			add(p.O)
		}
	case algebra.PathPattern:
		add(o.S)
		add(o.O)
	case algebra.Join:
		for k := range certain(o.Left) {
			out[k] = true
		}
		for k := range certain(o.Right) {
			out[k] = true
		}
	case algebra.LeftJoin, algebra.Minus, algebra.Filter, algebra.Extend,
		algebra.Distinct, algebra.Reduced, algebra.Slice, algebra.OrderBy:
		// Every solution of the first operand's is extended, or
		// left out.
		return certain(operands(op)[0])
	case algebra.Union:
		r := certain(o.Right)
		for k := range certain(o.Left) {
			if r[k] {
				out[k] = true
			}
		}
	case algebra.Graph:
		out = certain(o.Sub)
		add(o.Name)
	case algebra.Table:
	outer:
		for i, name := range o.Vars {
			for _, r := range o.Rows {
				if r[i] == (rdf.Term{}) {
					continue outer
				}
			}
			out[name] = true
		}
	case algebra.Project:
		sub := certain(o.Sub)
		for _, name := range o.Vars {
			if sub[name] {
				out[name] = true
			}
		}
	case algebra.Group:
		sub := certain(o.Sub)
		for _, k := range o.By {
			if vx, ok := k.Expr.(algebra.VarExpr); ok && sub[vx.Name] && k.Var == vx.Name {
				out[k.Var] = true
			}
		}
	}
	return out
}
