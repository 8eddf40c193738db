package syntax

import (
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// builtins are the built-in functions other than aggregates, EXISTS and
// NOT EXISTS, with the least and most numbers of arguments they take (-1:
// any number).
var builtins = map[string][2]int{
	"STR": {1, 1}, "LANG": {1, 1}, "LANGMATCHES": {2, 2}, "DATATYPE": {1, 1},
	"BOUND": {1, 1}, "IRI": {1, 1}, "URI": {1, 1}, "BNODE": {0, 1}, "RAND": {0, 0},
	"ABS": {1, 1}, "CEIL": {1, 1}, "FLOOR": {1, 1}, "ROUND": {1, 1},
	"CONCAT": {0, -1}, "SUBSTR": {2, 3}, "STRLEN": {1, 1}, "REPLACE": {3, 4},
	"UCASE": {1, 1}, "LCASE": {1, 1}, "ENCODE_FOR_URI": {1, 1},
	"CONTAINS": {2, 2}, "STRSTARTS": {2, 2}, "STRENDS": {2, 2},
	"STRBEFORE": {2, 2}, "STRAFTER": {2, 2},
	"YEAR": {1, 1}, "MONTH": {1, 1}, "DAY": {1, 1}, "HOURS": {1, 1},
	"MINUTES": {1, 1}, "SECONDS": {1, 1}, "TIMEZONE": {1, 1}, "TZ": {1, 1},
	"NOW": {0, 0}, "UUID": {0, 0}, "STRUUID": {0, 0},
	"MD5": {1, 1}, "SHA1": {1, 1}, "SHA256": {1, 1}, "SHA384": {1, 1}, "SHA512": {1, 1},
	"COALESCE": {0, -1}, "IF": {3, 3}, "STRLANG": {2, 2}, "STRDT": {2, 2},
	"SAMETERM": {2, 2}, "ISIRI": {1, 1}, "ISURI": {1, 1}, "ISBLANK": {1, 1},
	"ISLITERAL": {1, 1}, "ISNUMERIC": {1, 1}, "REGEX": {2, 3},
}

// aggregates are the aggregate functions.
var aggregates = map[string]bool{
	"COUNT": true, "SUM": true, "MIN": true, "MAX": true, "AVG": true,
	"SAMPLE": true, "GROUP_CONCAT": true,
}

// isBuiltinWord reports whether t names a built-in call, aggregates and
// EXISTS included.
func isBuiltinWord(t token) bool {
	if t.kind != tWord {
		return false
	}
	u := strings.ToUpper(t.val)
	_, ok := builtins[u]
	return ok || aggregates[u] || u == "EXISTS" || u == "NOT"
}

// startsConstraint reports whether t starts a Constraint: an expression in
// (), a built-in call or a function call.
func startsConstraint(t token) bool {
	return t.is("(") || isBuiltinWord(t) || isIRIToken(t)
}

// constraint reads a Constraint.
func (p *parser) constraint(what string) algebra.Expr {
	t := p.peek()
	switch {
	case t.is("("):
		p.i++
		e := p.expression()
		p.expect(")", "to close the expression")
		return e
	case isBuiltinWord(t):
		return p.builtinCall()
	case isIRIToken(t):
		p.i++
		if !p.peek().is("(") {
			p.failAt(p.peek(), "expected '(' and the arguments of the function %s, found %s", t.describe(), p.peek().describe())
		}
		return p.functionCall(p.iriOf(t))
	}
	p.failAt(t, "expected an expression in (), a function call or a built-in call %s, found %s", what, t.describe())
	return nil
}

// expression reads an Expression.
func (p *parser) expression() algebra.Expr {
	p.enter(p.peek())
	defer p.leave()
	e := p.andExpr()
	for p.accept("||") {
		e = algebra.Call{Name: "||", Args: []algebra.Expr{e, p.andExpr()}}
	}
	return e
}

func (p *parser) andExpr() algebra.Expr {
	e := p.relational()
	for p.accept("&&") {
		e = algebra.Call{Name: "&&", Args: []algebra.Expr{e, p.relational()}}
	}
	return e
}

func (p *parser) relational() algebra.Expr {
	e := p.additive()
	t := p.peek()
	switch {
	case t.kind == tPunct && (t.val == "=" || t.val == "!=" || t.val == "<" || t.val == ">" || t.val == "<=" || t.val == ">="):
		p.i++
		return algebra.Call{Name: t.val, Args: []algebra.Expr{e, p.additive()}}
	case t.isWord("IN"):
		p.i++
		return algebra.Call{Name: "IN", Args: append([]algebra.Expr{e}, p.expressionList("after IN")...)}
	case t.isWord("NOT") && p.peekAt(1).isWord("IN"):
		p.i += 2
		return algebra.Call{Name: "NOT IN", Args: append([]algebra.Expr{e}, p.expressionList("after NOT IN")...)}
	}
	return e
}

// expressionList reads ExpressionList: () or expressions in () separated
// by ','.
func (p *parser) expressionList(what string) []algebra.Expr {
	p.expect("(", what)
	var es []algebra.Expr
	if p.accept(")") {
		return es
	}
	for {
		es = append(es, p.expression())
		if p.accept(")") {
			return es
		}
		p.expect(",", "or ')' between the expressions of the list")
	}
}

func (p *parser) additive() algebra.Expr {
	e := p.multiplicative()
	for {
		t := p.peek()
		switch {
		case t.is("+") || t.is("-"):
			p.i++
			e = algebra.Call{Name: t.val, Args: []algebra.Expr{e, p.multiplicative()}}
		case isNumber(t) && (t.val[0] == '+' || t.val[0] == '-'):
			// "?x +1" is ?x + 1: the sign the number took is the operator.
			p.i++
			unsigned := t
			unsigned.val = t.val[1:]
			r := p.multiplicativeRest(numberConst(unsigned))
			e = algebra.Call{Name: t.val[:1], Args: []algebra.Expr{e, r}}
		default:
			return e
		}
	}
}

func isNumber(t token) bool { return t.kind == tInteger || t.kind == tDecimal || t.kind == tDouble }

// numberConst returns the constant of a number token.
func numberConst(t token) algebra.Expr {
	dt := rdf.XSDInteger
	switch t.kind {
	case tDecimal:
		dt = rdf.XSDDecimal
	case tDouble:
		dt = rdf.XSDDouble
	}
	return algebra.Const{Term: rdf.NewLiteral(t.val, dt)}
}

func (p *parser) multiplicative() algebra.Expr {
	return p.multiplicativeRest(p.unary())
}

// multiplicativeRest reads the '*' and '/' that follow e.
func (p *parser) multiplicativeRest(e algebra.Expr) algebra.Expr {
	for {
		t := p.peek()
		if !t.is("*") && !t.is("/") {
			return e
		}
		p.i++
		e = algebra.Call{Name: t.val, Args: []algebra.Expr{e, p.unary()}}
	}
}

func (p *parser) unary() algebra.Expr {
	t := p.peek()
	switch {
	case t.is("!"):
		p.i++
		return algebra.Call{Name: "!", Args: []algebra.Expr{p.primary()}}
	case t.is("+"):
		p.i++
		return algebra.Call{Name: "UPLUS", Args: []algebra.Expr{p.primary()}}
	case t.is("-"):
		p.i++
		return algebra.Call{Name: "UMINUS", Args: []algebra.Expr{p.primary()}}
	}
	return p.primary()
}

func (p *parser) primary() algebra.Expr {
	t := p.peek()
	switch {
	case t.is("("):
		p.i++
		e := p.expression()
		p.expect(")", "to close the expression")
		return e
	case t.kind == tVar:
		p.i++
		return algebra.VarExpr{Name: t.val}
	case isIRIToken(t):
		p.i++
		iri := p.iriOf(t)
		if p.peek().is("(") {
			return p.functionCall(iri)
		}
		return algebra.Const{Term: rdf.NewIRI(iri)}
	case isBuiltinWord(t):
		return p.builtinCall()
	case isNumber(t):
		p.i++
		return numberConst(t)
	}
	if lit, ok := p.literal(); ok {
		return algebra.Const{Term: lit}
	}
	switch t.kind {
	case tBlank:
		p.failAt(t, "a blank node cannot be used in an expression: use a variable")
	case tWord:
		p.failAt(t, "unknown function or keyword %s in an expression", t.describe())
	}
	p.failAt(t, "expected an expression, found %s", t.describe())
	return nil
}

// functionCall reads the arguments of a call of the function iri.
func (p *parser) functionCall(iri string) algebra.Expr {
	open := p.expect("(", "after the function's IRI")
	call := algebra.Call{Name: iri}
	if p.accept(")") {
		return call
	}
	if p.peek().isWord("DISTINCT") {
		p.failAt(open, "DISTINCT in a call of <%s>: only the built-in aggregates take DISTINCT", iri)
	}
	for {
		call.Args = append(call.Args, p.expression())
		if p.accept(")") {
			return call
		}
		p.expect(",", "or ')' between the function's arguments")
	}
}

// builtinCall reads a built-in call, an aggregate, EXISTS or NOT EXISTS.
func (p *parser) builtinCall() algebra.Expr {
	t := p.next()
	name := strings.ToUpper(t.val)
	switch {
	case name == "EXISTS":
		return algebra.Exists{Op: p.existsPattern()}
	case name == "NOT":
		p.expectWord("EXISTS", "or IN after NOT")
		return algebra.Exists{Not: true, Op: p.existsPattern()}
	case aggregates[name]:
		return p.aggregate(t, name)
	}
	span := builtins[name]
	args := p.expressionList("after " + name)
	if len(args) < span[0] || span[1] >= 0 && len(args) > span[1] {
		switch {
		case span[0] == span[1]:
			p.failAt(t, "%s takes %d arguments, not %d", name, span[0], len(args))
		case span[1] < 0:
			p.failAt(t, "%s takes at least %d arguments, not %d", name, span[0], len(args))
		}
		p.failAt(t, "%s takes %d to %d arguments, not %d", name, span[0], span[1], len(args))
	}
	if name == "BOUND" {
		if _, ok := args[0].(algebra.VarExpr); !ok {
			p.failAt(t, "BOUND takes a variable")
		}
	}
	return algebra.Call{Name: name, Args: args}
}

// existsPattern reads the group of EXISTS, which starts its own scope for
// aggregates (none allowed).
func (p *parser) existsPattern() algebra.Op {
	return p.groupPattern("after EXISTS")
}

// aggregate reads an aggregate's arguments and returns the hidden variable
// that stands for its value.
func (p *parser) aggregate(t token, name string) algebra.Expr {
	if p.agg == nil {
		p.failAt(t, "the aggregate %s is not allowed here: only in SELECT, HAVING and ORDER BY, and not inside another aggregate", name)
	}
	scope := p.agg
	p.agg = nil
	defer func() { p.agg = scope }()
	p.expect("(", "after "+name)
	a := algebra.Aggregate{Name: name, Separator: " "}
	a.Distinct = p.acceptWord("DISTINCT")
	if name == "COUNT" && p.accept("*") {
		p.expect(")", "after COUNT(*")
	} else {
		a.Args = []algebra.Expr{p.expression()}
		if name == "GROUP_CONCAT" && p.accept(";") {
			p.expectWord("SEPARATOR", "after ';' in GROUP_CONCAT")
			p.expect("=", "after SEPARATOR")
			s := p.next()
			if s.kind != tString {
				p.failAt(s, "expected a string after SEPARATOR=, found %s", s.describe())
			}
			a.Separator = s.val
		}
		if !p.peek().is(")") {
			p.failAt(p.peek(), "%s takes one expression: expected ')', found %s", name, p.peek().describe())
		}
		p.i++
	}
	// The same aggregate written twice (in SELECT and HAVING, say) is
	// computed once.
	for _, b := range scope.aggs {
		if b.Name == a.Name && b.Distinct == a.Distinct && b.Separator == a.Separator && sameExprs(b.Args, a.Args) {
			return algebra.VarExpr{Name: b.Var}
		}
	}
	a.Var = p.freshName(".agg")
	if len(scope.aggs) == 0 {
		scope.first = t
	}
	scope.aggs = append(scope.aggs, a)
	return algebra.VarExpr{Name: a.Var}
}

// sameExprs reports whether a and b are the same expressions, as written.
func sameExprs(a, b []algebra.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if algebra.FormatExpr(a[i]) != algebra.FormatExpr(b[i]) {
			return false
		}
	}
	return true
}
