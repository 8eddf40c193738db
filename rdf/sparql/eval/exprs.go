package eval

import (
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
)

var (
	trueTerm  = rdf.NewLiteral("true", rdf.XSDBoolean)
	falseTerm = rdf.NewLiteral("false", rdf.XSDBoolean)
)

func boolTerm(b bool) rdf.Term {
	if b {
		return trueTerm
	}
	return falseTerm
}

// errUnbound is the error of an unbound variable's value.
var errUnbound = &expr.TypeError{Msg: "unbound variable"}

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
		s, ok := e.slots[x.Name]
		if !ok || r[s] == 0 {
			return rdf.Term{}, errUnbound
		}
		return e.term(r[s]), nil
	case algebra.Exists:
		found := false
		e.eval(x.Op, g, r)(func(row) bool { found = true; return false })
		if e.err != nil {
			return rdf.Term{}, e.err
		}
		return boolTerm(found != x.Not), nil
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
			return boolTerm(or), nil
		}
		b, errB := e.ebv(x.Args[1], r, g)
		switch {
		case errB == nil && b == or:
			return boolTerm(or), nil
		case errA != nil:
			return rdf.Term{}, errA
		case errB != nil:
			return rdf.Term{}, errB
		}
		return boolTerm(!or), nil
	case "BOUND":
		if len(x.Args) != 1 {
			break
		}
		v, ok := x.Args[0].(algebra.VarExpr)
		if !ok {
			return rdf.Term{}, &expr.TypeError{Op: "BOUND", Msg: "the argument is not a variable"}
		}
		s, ok := e.slots[v.Name]
		return boolTerm(ok && r[s] != 0), nil
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
	case "=", "!=", "<", ">", "<=", ">=":
		if len(args) == 2 {
			return expr.Compare(x.Name, args[0], args[1])
		}
	case "+", "-", "*", "/":
		if len(args) == 2 {
			return expr.Arith(x.Name, args[0], args[1])
		}
	case "UMINUS", "UPLUS", "!":
		if len(args) == 1 {
			return expr.Unary(x.Name, args[0])
		}
	default:
		return expr.Call(x.Name, args, &e.env)
	}
	return rdf.Term{}, &expr.TypeError{Op: x.Name, Msg: "wrong number of arguments"}
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
					return boolTerm(!not), nil
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
	return boolTerm(not), nil
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
