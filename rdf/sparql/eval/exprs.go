package eval

import (
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// test reports whether x's effective boolean value is true on r; an error
// is false, as FILTER takes it.
func (e *evaluator) test(x algebra.Expr, r row, g active) bool {
	e.solution++
	t, err := e.evalExpr(x, r, g)
	if err != nil {
		return false
	}
	b, err := expr.EBV(t)
	return err == nil && b
}

// bound returns the ID variable name is bound to in r, or errUnbound.
func (e *evaluator) bound(name string, r row) (store.ID, error) {
	s, ok := e.slots[name]
	if !ok || r[s] == 0 {
		return 0, errUnbound
	}
	return r[s], nil
}

// ebv returns x's effective boolean value on r, or its error.
func (e *evaluator) ebv(x algebra.Expr, r row, g active) (bool, error) {
	t, err := e.evalExpr(x, r, g)
	if err != nil {
		return false, err
	}
	return expr.EBV(t)
}

// evalExpr returns the value of x on the solution r, matching patterns of
// EXISTS in g. Its error is a type error (expr.ErrType) except when the
// evaluation as a whole fails (recorded in e.err).
func (e *evaluator) evalExpr(x algebra.Expr, r row, g active) (rdf.Term, error) {
	switch x := x.(type) {
	case algebra.Const:
		return x.Term, nil
	case algebra.VarExpr:
		id, err := e.bound(x.Name, r)
		if err != nil {
			return rdf.Term{}, err
		}
		return e.term(id), nil
	case algebra.Exists:
		found := false
		e.eval(x.Op, g, r)(func(row) bool { found = true; return false })
		if e.err != nil {
			return rdf.Term{}, e.err
		}
		return expr.Bool(found != x.Not), nil
	case algebra.Call:
		return e.evalCall(x, r, g)
	}
	return rdf.Term{}, &expr.TypeError{Msg: "unknown expression"}
}

func (e *evaluator) evalCall(x algebra.Call, r row, g active) (rdf.Term, error) {
	switch x.Name {
	case "||", "&&":
		if len(x.Args) != 2 {
			break
		}
		// An error on one side is overruled by true (||) or false (&&) on
		// the other.
		or := x.Name == "||"
		a, errA := e.ebv(x.Args[0], r, g)
		if errA == nil && a == or {
			return expr.Bool(or), nil
		}
		b, errB := e.ebv(x.Args[1], r, g)
		switch {
		case errB == nil && b == or:
			return expr.Bool(or), nil
		case errA != nil:
			return rdf.Term{}, errA
		case errB != nil:
			return rdf.Term{}, errB
		}
		return expr.Bool(!or), nil
	case "BOUND":
		if len(x.Args) != 1 {
			break
		}
		v, ok := x.Args[0].(algebra.VarExpr)
		if !ok {
			return rdf.Term{}, &expr.TypeError{Op: "BOUND", Msg: "the argument is not a variable"}
		}
		s, ok := e.slots[v.Name]
		return expr.Bool(ok && r[s] != 0), nil
	case "IF":
		if len(x.Args) != 3 {
			break
		}
		c, err := e.ebv(x.Args[0], r, g)
		if err != nil {
			return rdf.Term{}, err
		}
		if c {
			return e.evalExpr(x.Args[1], r, g)
		}
		return e.evalExpr(x.Args[2], r, g)
	case "COALESCE":
		for _, a := range x.Args {
			if t, err := e.evalExpr(a, r, g); err == nil {
				return t, nil
			}
			if e.err != nil {
				return rdf.Term{}, e.err
			}
		}
		return rdf.Term{}, &expr.TypeError{Op: "COALESCE", Msg: "every argument is an error"}
	case "IN", "NOT IN":
		return e.evalIn(x, r, g)
	case "BNODE":
		if len(x.Args) == 1 {
			return e.bnodeOf(x.Args[0], r, g)
		}
	case "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/":
		if len(x.Args) == 2 {
			return e.evalBinary(x, r, g)
		}
		return rdf.Term{}, &expr.TypeError{Op: x.Name, Msg: "wrong number of arguments"}
	}
	args := make([]rdf.Term, len(x.Args))
	for i, a := range x.Args {
		t, err := e.evalExpr(a, r, g)
		if err != nil {
			return rdf.Term{}, err
		}
		args[i] = t
	}
	switch x.Name {
	case "UMINUS", "UPLUS", "!":
		if len(args) == 1 {
			return expr.Unary(x.Name, args[0])
		}
	default:
		return expr.Call(x.Name, args, &e.env)
	}
	return rdf.Term{}, &expr.TypeError{Op: x.Name, Msg: "wrong number of arguments"}
}

// evalBinary is a comparison or arithmetic operator on its two
// arguments' values.
func (e *evaluator) evalBinary(x algebra.Call, r row, g active) (rdf.Term, error) {
	a, err := e.value(x.Args[0], r, g)
	if err != nil {
		return rdf.Term{}, err
	}
	b, err := e.value(x.Args[1], r, g)
	if err != nil {
		return rdf.Term{}, err
	}
	switch x.Name {
	case "+", "-", "*", "/":
		return expr.ArithValues(x.Name, a, b)
	}
	return expr.CompareValues(x.Name, a, b)
}

// value returns the value of x on r, as evalExpr does, read once per
// term: a variable's from e.values by the ID it is bound to, a constant's
// from e.consts.
func (e *evaluator) value(x algebra.Expr, r row, g active) (expr.Value, error) {
	switch x := x.(type) {
	case algebra.VarExpr:
		id, err := e.bound(x.Name, r)
		if err != nil {
			return expr.Value{}, err
		}
		return e.valueOf(id), nil
	case algebra.Const:
		v, ok := e.consts[x.Term]
		if !ok {
			v = expr.NewValue(x.Term)
			e.consts[x.Term] = v
		}
		return v, nil
	}
	t, err := e.evalExpr(x, r, g)
	if err != nil {
		return expr.Value{}, err
	}
	return expr.NewValue(t), nil
}

// maxValues bounds e.values: past it, it starts again, so that a filter
// on every term of a large graph does not hold a value for each.
const maxValues = 1 << 16

// valueOf returns the value of the term numbered id.
func (e *evaluator) valueOf(id store.ID) expr.Value {
	v, ok := e.values[id]
	if !ok {
		if len(e.values) >= maxValues {
			clear(e.values)
		}
		v = expr.NewValue(e.term(id))
		e.values[id] = v
	}
	return v
}

// evalIn is IN and NOT IN: true (false for NOT IN) when the value equals
// one of the list; else an error when a comparison was one; else false
// (true).
func (e *evaluator) evalIn(x algebra.Call, r row, g active) (rdf.Term, error) {
	not := x.Name == "NOT IN"
	if len(x.Args) == 0 {
		return rdf.Term{}, &expr.TypeError{Op: x.Name, Msg: "no value"}
	}
	v, err := e.evalExpr(x.Args[0], r, g)
	if err != nil {
		return rdf.Term{}, err
	}
	var firstErr error
	for _, a := range x.Args[1:] {
		t, err := e.evalExpr(a, r, g)
		if err == nil {
			var eq rdf.Term
			if eq, err = expr.Compare("=", v, t); err == nil {
				if b, _ := expr.EBV(eq); b {
					return expr.Bool(!not), nil
				}
			}
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if e.err != nil {
			return rdf.Term{}, e.err
		}
	}
	if firstErr != nil {
		return rdf.Term{}, firstErr
	}
	return expr.Bool(not), nil
}

// bnodeOf is BNODE(str): one blank node per string within a solution.
func (e *evaluator) bnodeOf(a algebra.Expr, r row, g active) (rdf.Term, error) {
	t, err := e.evalExpr(a, r, g)
	if err != nil {
		return rdf.Term{}, err
	}
	if t.Kind != rdf.Literal || t.Lang != "" || (t.Datatype != "" && t.Datatype != rdf.XSDString) {
		return rdf.Term{}, &expr.TypeError{Op: "BNODE", Msg: "the argument is not a simple literal or xsd:string"}
	}
	if e.labels == nil || e.labelsOf != e.solution {
		e.labels, e.labelsOf = map[string]rdf.Term{}, e.solution
	}
	b, ok := e.labels[t.Value]
	if !ok {
		b = e.freshBlank()
		e.labels[t.Value] = b
	}
	return b, nil
}
