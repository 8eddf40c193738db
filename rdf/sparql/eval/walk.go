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
	case algebra.Join:
		walkOp(o.Left, v)
		walkOp(o.Right, v)
	case algebra.LeftJoin:
		walkOp(o.Left, v)
		walkOp(o.Right, v)
		walkExpr(o.Expr, v)
	case algebra.Filter:
		walkOp(o.Sub, v)
		for _, x := range o.Exprs {
			walkExpr(x, v)
		}
	case algebra.Union:
		walkOp(o.Left, v)
		walkOp(o.Right, v)
	case algebra.Minus:
		walkOp(o.Left, v)
		walkOp(o.Right, v)
	case algebra.Graph:
		node(o.Name)
		walkOp(o.Sub, v)
	case algebra.Extend:
		walkOp(o.Sub, v)
		v(o.Var)
		walkExpr(o.Expr, v)
	case algebra.Table:
		for _, name := range o.Vars {
			v(name)
		}
	case algebra.Group:
		walkOp(o.Sub, v)
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
		walkOp(o.Sub, v)
		for _, c := range o.Conds {
			walkExpr(c.Expr, v)
		}
	case algebra.Project:
		walkOp(o.Sub, v)
		for _, name := range o.Vars {
			v(name)
		}
	case algebra.Distinct:
		walkOp(o.Sub, v)
	case algebra.Reduced:
		walkOp(o.Sub, v)
	case algebra.Slice:
		walkOp(o.Sub, v)
	case algebra.Service:
		node(o.Endpoint)
		walkOp(o.Sub, v)
	}
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
	case algebra.LeftJoin:
		return certain(o.Left)
	case algebra.Minus:
		return certain(o.Left)
	case algebra.Filter:
		return certain(o.Sub)
	case algebra.Extend:
		return certain(o.Sub)
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
	case algebra.Distinct:
		return certain(o.Sub)
	case algebra.Reduced:
		return certain(o.Sub)
	case algebra.Slice:
		return certain(o.Sub)
	case algebra.OrderBy:
		return certain(o.Sub)
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
