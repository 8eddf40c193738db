// Package syntax parses SPARQL 1.1 queries and updates and translates them
// to the algebra of rdf/sparql/algebra, as section 18.2 of the
// specification says. It is kept apart from the evaluator so that the
// grammar and its static rules (variable scope, grouping, where blank
// nodes and variables may appear) are checked once, before any data is
// touched, and a query the specification refuses never starts running.
//
// What the syntax makes, the evaluator relies on:
//   - Every Op, Path, Expr and UpdateOp is a value, never a pointer.
//   - Blank nodes in patterns, the middle steps of path sequences and
//     aggregates become hidden variables (algebra.Hidden). Blank nodes in
//     CONSTRUCT and INSERT templates and in INSERT DATA stay blank nodes
//     (labels starting with '#' for those written [] or ( )): the
//     evaluator makes fresh ones each time a template or INSERT DATA is
//     used.
//   - IRIs are resolved against the base and prefixes expanded; the
//     Query's and Update's Base and Prefixes are kept for writing results.
//   - A group with nothing in it is the unit table (algebra.Table with one
//     empty row).
package syntax

import (
	"slices"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// ParseQuery parses a SPARQL 1.1 query and translates it to the algebra;
// base resolves relative IRIs until the query sets its own with BASE. An
// error is a *SyntaxError.
func ParseQuery(src, base string) (*algebra.Query, error) {
	return ParseQueryPrefixed(src, base, nil)
}

// ParseQueryPrefixed parses a query as ParseQuery does, with prefixes
// declared before it (name to IRI): a PREFIX of the query overrides one.
// rdflib's query and update methods take a graph's prefixes so (initNs).
func ParseQueryPrefixed(src, base string, prefixes map[string]string) (*algebra.Query, error) {
	p, err := newParser(src, base, prefixes)
	if err != nil {
		return nil, err
	}
	var q *algebra.Query
	err = p.run(func() { q = p.query() })
	return q, err
}

// ParseUpdate parses a SPARQL 1.1 update request and translates it to the
// algebra; base resolves relative IRIs until the request sets its own with
// BASE. An error is a *SyntaxError.
func ParseUpdate(src, base string) (*algebra.Update, error) {
	return ParseUpdatePrefixed(src, base, nil)
}

// ParseUpdatePrefixed parses an update request as ParseUpdate does, with
// prefixes declared before it, as ParseQueryPrefixed does.
func ParseUpdatePrefixed(src, base string, prefixes map[string]string) (*algebra.Update, error) {
	p, err := newParser(src, base, prefixes)
	if err != nil {
		return nil, err
	}
	var u *algebra.Update
	err = p.run(func() { u = p.update() })
	return u, err
}

// parser reads the tokens of one query or update request.
type parser struct {
	src *source
	lx  *lexer
	// toks are the tokens read and not let go of; i is the next one's
	// index.
	toks     []token
	i        int
	base     string
	prefixes map[string]string

	// labels maps each blank node label of the patterns to the basic graph
	// pattern it is used in; bgp is the current one's number and scopes
	// the last number given.
	labels      map[string]int
	bgp, scopes int
	// fresh numbers the hidden variables and blank nodes made.
	fresh int
	// agg collects the aggregates of the SELECT, HAVING and ORDER BY being
	// read; nil where aggregates are not allowed.
	agg *aggScope
	// dataLabels maps each blank node label of an update's data and
	// templates to the operation it is used in; op numbers operations.
	dataLabels map[string]int
	op         int
	// depth counts the nested groups, expressions, paths and blank node
	// property lists being read, up to maxDepth.
	depth int
}

// maxDepth bounds the nesting of a query, so that a text made of
// thousands of '(' or '{' is refused before it exhausts the stack.
const maxDepth = 500

// enter counts one more level of nesting at t, failing past maxDepth; the
// caller defers p.leave().
func (p *parser) enter(t token) {
	p.depth++
	if p.depth > maxDepth {
		p.failAt(t, "the query nests more than %d levels deep", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// failure carries a SyntaxError up through the parser's calls to run.
type failure struct{ err *SyntaxError }

func newParser(src, base string, prefixes map[string]string) (*parser, error) {
	s, err := newSource(src)
	if err != nil {
		return nil, err
	}
	declared := make(map[string]string, len(prefixes))
	for name, iri := range prefixes {
		declared[name] = iri
	}
	return &parser{src: s, lx: &lexer{src: s, s: s.text}, base: base, prefixes: declared,
		labels: map[string]int{}, dataLabels: map[string]int{}}, nil
}

// run runs f, turning the parser's failure into the error returned.
func (p *parser) run(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fl, ok := r.(failure)
			if !ok {
				panic(r)
			}
			err = fl.err
		}
	}()
	f()
	return nil
}

// failAt stops parsing with a SyntaxError at t.
func (p *parser) failAt(t token, format string, args ...any) {
	panic(failure{p.src.errAt(t.pos, format, args...)})
}

func (p *parser) peek() token { return p.peekAt(0) }

// peekAt returns the token n places ahead, reading it if need be: the
// text is split into tokens as the parser goes, and the tokens read are
// let go of, all but the last.
func (p *parser) peekAt(n int) token {
	if p.i > 1024 {
		k := copy(p.toks, p.toks[p.i-1:])
		p.toks, p.i = p.toks[:k], 1
	}
	for p.i+n >= len(p.toks) {
		if k := len(p.toks); k > 0 && p.toks[k-1].kind == tEOF {
			return p.toks[k-1]
		}
		t, err := p.lx.next()
		if err != nil {
			panic(failure{err.(*SyntaxError)})
		}
		p.toks = append(p.toks, t)
	}
	return p.toks[p.i+n]
}

func (p *parser) next() token {
	t := p.peek()
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// accept consumes the punctuation s if it comes next.
func (p *parser) accept(s string) bool {
	if p.peek().is(s) {
		p.i++
		return true
	}
	return false
}

// acceptWord consumes the keyword w if it comes next.
func (p *parser) acceptWord(w string) bool {
	if p.peek().isWord(w) {
		p.i++
		return true
	}
	return false
}

// expect consumes the punctuation s or fails, naming what it is for.
func (p *parser) expect(s, what string) token {
	t := p.peek()
	if !t.is(s) {
		p.failAt(t, "expected '%s' %s, found %s", s, what, t.describe())
	}
	return p.next()
}

// expectWord consumes the keyword w or fails.
func (p *parser) expectWord(w, what string) {
	t := p.peek()
	if !t.isWord(w) {
		p.failAt(t, "expected %s %s, found %s", w, what, t.describe())
	}
	p.i++
}

// prologue reads BASE and PREFIX declarations.
func (p *parser) prologue() {
	for {
		switch t := p.peek(); {
		case t.isWord("BASE"):
			p.i++
			iri := p.next()
			if iri.kind != tIRI {
				p.failAt(iri, "expected an IRI in <> after BASE, found %s", iri.describe())
			}
			p.base = rdf.ResolveIRI(p.base, iri.val)
		case t.isWord("PREFIX"):
			p.i++
			name := p.next()
			if name.kind != tPName || name.local != "" {
				p.failAt(name, "expected a prefix ending with ':' after PREFIX, found %s", name.describe())
			}
			iri := p.next()
			if iri.kind != tIRI {
				p.failAt(iri, "expected an IRI in <> for the prefix %q, found %s", name.val+":", iri.describe())
			}
			p.prefixes[name.val] = rdf.ResolveIRI(p.base, iri.val)
		default:
			return
		}
	}
}

// iri reads an IRIREF or a prefixed name and returns the IRI.
func (p *parser) iri(what string) string {
	t := p.peek()
	if t.kind != tIRI && t.kind != tPName {
		p.failAt(t, "expected an IRI %s, found %s", what, t.describe())
	}
	return p.iriOf(p.next())
}

// iriOf returns the IRI an IRIREF or prefixed name token stands for.
func (p *parser) iriOf(t token) string {
	if t.kind == tIRI {
		return rdf.ResolveIRI(p.base, t.val)
	}
	ns, ok := p.prefixes[t.val]
	if !ok {
		p.failAt(t, "the prefix %q is not declared: add PREFIX %s: <...>", t.val+":", t.val)
	}
	return ns + t.local
}

func isIRIToken(t token) bool { return t.kind == tIRI || t.kind == tPName }

// freshName returns a hidden variable name starting with prefix.
func (p *parser) freshName(prefix string) string {
	p.fresh++
	return prefix + strconv.Itoa(p.fresh)
}

// newBGP starts a new basic graph pattern for the scope of blank node
// labels.
func (p *parser) newBGP() {
	p.scopes++
	p.bgp = p.scopes
}

// query reads a whole query.
func (p *parser) query() *algebra.Query {
	p.prologue()
	q := &algebra.Query{}
	t := p.peek()
	switch {
	case t.isWord("SELECT"):
		q.Form = algebra.Select
	case t.isWord("CONSTRUCT"):
		q.Form = algebra.Construct
	case t.isWord("ASK"):
		q.Form = algebra.Ask
	case t.isWord("DESCRIBE"):
		q.Form = algebra.Describe
	default:
		p.failAt(t, "expected SELECT, CONSTRUCT, ASK or DESCRIBE, found %s", t.describe())
	}
	q.Op = p.queryBody(q, false)
	if t := p.peek(); t.kind != tEOF {
		p.failAt(t, "expected the end of the query, found %s", t.describe())
	}
	q.Base, q.Prefixes = p.base, p.prefixes
	return q
}

// selectClause is what SELECT lists.
type selectClause struct {
	distinct, reduced, star bool
	items                   []selItem
}

// selItem is one variable of SELECT, with its expression if it has one.
type selItem struct {
	v   string
	e   algebra.Expr
	tok token
}

// aggScope collects the aggregates of one query level; first is where
// the first one is.
type aggScope struct {
	aggs  []algebra.Aggregate
	first token
}

// addNew appends to list those of vs it does not hold.
func addNew(list []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// queryBody reads a query from its form's keyword on (for a subquery too,
// q.Form Select) and returns its algebra.
func (p *parser) queryBody(q *algebra.Query, sub bool) algebra.Op {
	agg := &aggScope{}
	outer := p.agg
	defer func() { p.agg = outer }()
	var sel selectClause
	var where algebra.Op
	switch q.Form {
	case algebra.Select:
		p.i++
		sel = p.selectClause(agg)
	case algebra.Construct:
		p.i++
		if p.peek().is("{") {
			q.Template = p.constructTemplate()
		} else {
			p.datasetClauses(q)
			p.expectWord("WHERE", "or a template in {} after CONSTRUCT")
			where, q.Template = p.constructWherePattern()
		}
	case algebra.Describe:
		p.i++
		if p.accept("*") {
			q.DescribeAll = true
		} else {
			for p.peek().kind == tVar || isIRIToken(p.peek()) {
				t := p.next()
				if t.kind == tVar {
					q.DescribeNodes = append(q.DescribeNodes, algebra.Node{Var: t.val})
				} else {
					q.DescribeNodes = append(q.DescribeNodes, algebra.Node{Term: rdf.NewIRI(p.iriOf(t))})
				}
			}
			if len(q.DescribeNodes) == 0 {
				p.failAt(p.peek(), "expected a variable, an IRI or '*' after DESCRIBE, found %s", p.peek().describe())
			}
		}
	case algebra.Ask:
		p.i++
	}
	if where == nil {
		if t := p.peek(); sub && t.isWord("FROM") {
			p.failAt(t, "a subquery cannot have FROM or FROM NAMED")
		}
		p.datasetClauses(q)
		if q.Form == algebra.Describe && !p.peek().isWord("WHERE") && !p.peek().is("{") {
			where = unit()
		} else {
			p.acceptWord("WHERE")
			p.agg = nil
			where = p.groupPattern("as the WHERE clause")
		}
	}
	return p.modifiers(q, &sel, where, agg)
}

// subSelect reads a subquery, from SELECT to its VALUES.
func (p *parser) subSelect() algebra.Op {
	q := &algebra.Query{Form: algebra.Select}
	return p.queryBody(q, true)
}

// selectClause reads SELECT's modifiers and variables.
func (p *parser) selectClause(agg *aggScope) selectClause {
	var sel selectClause
	switch {
	case p.acceptWord("DISTINCT"):
		sel.distinct = true
	case p.acceptWord("REDUCED"):
		sel.reduced = true
	}
	if p.accept("*") {
		sel.star = true
		return sel
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tVar:
			p.i++
			sel.items = append(sel.items, selItem{v: t.val, tok: t})
			continue
		case t.is("("):
			p.i++
			p.agg = agg
			e := p.expression()
			p.agg = nil
			p.expectWord("AS", "after an expression in SELECT (write (expression AS ?var))")
			v := p.next()
			if v.kind != tVar {
				p.failAt(v, "expected a variable after AS, found %s", v.describe())
			}
			p.expect(")", "to close (expression AS ?var)")
			sel.items = append(sel.items, selItem{v: v.val, e: e, tok: v})
			continue
		}
		break
	}
	if len(sel.items) == 0 {
		t := p.peek()
		p.failAt(t, "expected variables, (expression AS ?var) or '*' after SELECT, found %s", t.describe())
	}
	return sel
}

// datasetClauses reads FROM and FROM NAMED.
func (p *parser) datasetClauses(q *algebra.Query) {
	for p.acceptWord("FROM") {
		if p.acceptWord("NAMED") {
			q.FromNamed = append(q.FromNamed, p.iri("after FROM NAMED"))
		} else {
			q.From = append(q.From, p.iri("after FROM"))
		}
	}
}

// modifiers reads GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET and VALUES and
// builds the query's algebra over where, as sections 18.2.4 and 18.2.5
// say.
func (p *parser) modifiers(q *algebra.Query, sel *selectClause, where algebra.Op, agg *aggScope) algebra.Op {
	var keys []algebra.GroupKey
	var asToks []token
	groupTok := p.peek()
	grouped := false
	if p.acceptWord("GROUP") {
		p.expectWord("BY", "after GROUP")
		grouped = true
		p.agg = nil
		keys, asToks = p.groupConditions()
	}
	var having []algebra.Expr
	if p.acceptWord("HAVING") {
		p.agg = agg
		having = append(having, p.constraint("after HAVING"))
		for startsConstraint(p.peek()) {
			having = append(having, p.constraint("after HAVING"))
		}
	}
	var order []algebra.OrderCond
	if p.acceptWord("ORDER") {
		p.expectWord("BY", "after ORDER")
		p.agg = agg
		order = p.orderConditions()
	}
	p.agg = nil
	offset, limit := int64(0), int64(-1)
	hasLimit, hasOffset := false, false
	for i := 0; i < 2; i++ {
		switch {
		case !hasLimit && p.acceptWord("LIMIT"):
			limit, hasLimit = p.count("LIMIT"), true
		case !hasOffset && p.acceptWord("OFFSET"):
			offset, hasOffset = p.count("OFFSET"), true
		}
	}
	var values *algebra.Table
	if p.acceptWord("VALUES") {
		values = p.dataBlock()
	}

	op := where
	// Section 18.2.4.1: GROUP BY, or an aggregate anywhere, groups; HAVING
	// alone only filters.
	grouping := grouped || len(agg.aggs) > 0
	inScope := algebra.InScope(where)
	if values != nil {
		inScope = addNew(inScope, values.Vars...)
	}
	var groupVars []string
	if grouping {
		if sel.star {
			t := groupTok
			if !grouped {
				t = agg.first
			}
			p.failAt(t, "SELECT * cannot be used with GROUP BY or aggregates: list the grouped variables")
		}
		op = algebra.Group{Sub: op, By: keys, Aggs: agg.aggs}
		for i, k := range keys {
			if k.Var == "" {
				continue
			}
			if asToks[i].kind == tVar && slices.Contains(inScope, k.Var) {
				p.failAt(asToks[i], "GROUP BY cannot bind ?%s: the variable is already in scope in the pattern", k.Var)
			}
			groupVars = addNew(groupVars, k.Var)
			inScope = addNew(inScope, k.Var)
		}
	}
	if having != nil {
		op = algebra.Filter{Exprs: having, Sub: op}
	}
	if values != nil {
		op = algebra.Join{Left: op, Right: *values}
	}
	vars := p.checkSelect(sel, grouping, inScope, groupVars)
	for _, it := range sel.items {
		if it.e != nil {
			op = algebra.Extend{Sub: op, Var: it.v, Expr: it.e}
		}
	}
	if order != nil {
		op = algebra.OrderBy{Sub: op, Conds: order}
	}
	switch q.Form {
	case algebra.Select:
		if sel.star {
			vars = inScope
		}
		op = algebra.Project{Sub: op, Vars: vars}
	case algebra.Describe:
		if q.DescribeAll {
			for _, v := range inScope {
				q.DescribeNodes = append(q.DescribeNodes, algebra.Node{Var: v})
			}
		}
		var vs []string
		for _, n := range q.DescribeNodes {
			if n.IsVar() {
				vs = append(vs, n.Var)
			}
		}
		op = algebra.Project{Sub: op, Vars: vs}
	}
	switch {
	case sel.distinct:
		op = algebra.Distinct{Sub: op}
	case sel.reduced:
		op = algebra.Reduced{Sub: op}
	}
	if offset > 0 || limit >= 0 {
		op = algebra.Slice{Sub: op, Offset: offset, Limit: limit}
	}
	return op
}

// checkSelect checks SELECT's variables against what is in scope below it
// and, in a grouping query, against the grouped variables, and returns
// the variables projected.
func (p *parser) checkSelect(sel *selectClause, grouping bool, inScope, groupVars []string) []string {
	taken := map[string]bool{}
	for _, v := range inScope {
		taken[v] = true
	}
	// visible are the variables a SELECT expression may use: in a grouping
	// query, the grouped ones and those SELECT defined before.
	visible := taken
	if grouping {
		visible = map[string]bool{}
		for _, v := range groupVars {
			visible[v] = true
		}
	}
	var vars []string
	projected := map[string]bool{}
	for _, it := range sel.items {
		if it.e == nil {
			if grouping && !visible[it.v] {
				p.failAt(it.tok, "?%s is neither grouped nor aggregated: add it to GROUP BY, or use an aggregate such as (SAMPLE(?%s) AS ?...)", it.v, it.v)
			}
		} else {
			if taken[it.v] || projected[it.v] {
				p.failAt(it.tok, "?%s is already in scope: (expression AS ?%s) must introduce a new variable", it.v, it.v)
			}
			if grouping {
				for _, v := range exprVars(it.e) {
					if !visible[v] {
						p.failAt(it.tok, "the expression for ?%s uses ?%s, which is neither grouped nor aggregated", it.v, v)
					}
				}
			}
			visible[it.v] = true
			taken[it.v] = true
		}
		if !projected[it.v] {
			vars = append(vars, it.v)
		}
		projected[it.v] = true
	}
	return vars
}

// exprVars returns the variables e uses outside EXISTS, leaving out
// hidden ones (aggregates).
func exprVars(e algebra.Expr) []string {
	var vs []string
	var walk func(e algebra.Expr)
	walk = func(e algebra.Expr) {
		switch x := e.(type) {
		case algebra.VarExpr:
			if !algebra.Hidden(x.Name) {
				vs = append(vs, x.Name)
			}
		case algebra.Call:
			for _, a := range x.Args {
				walk(a)
			}
		}
	}
	walk(e)
	return vs
}

// count reads LIMIT's or OFFSET's number.
func (p *parser) count(what string) int64 {
	t := p.next()
	if t.kind != tInteger || t.val[0] == '+' || t.val[0] == '-' {
		p.failAt(t, "expected a whole number after %s, found %s", what, t.describe())
	}
	n, err := strconv.ParseInt(t.val, 10, 64)
	if err != nil {
		p.failAt(t, "%s %s is too large", what, t.val)
	}
	return n
}

// groupConditions reads GROUP BY's conditions, and for each the token
// of the variable it binds with AS (the zero token for none).
func (p *parser) groupConditions() ([]algebra.GroupKey, []token) {
	var keys []algebra.GroupKey
	var asToks []token
	for {
		asToks = append(asToks, token{})
		t := p.peek()
		switch {
		case t.kind == tVar:
			p.i++
			keys = append(keys, algebra.GroupKey{Expr: algebra.VarExpr{Name: t.val}, Var: t.val})
		case t.is("("):
			p.i++
			k := algebra.GroupKey{Expr: p.expression()}
			if p.acceptWord("AS") {
				v := p.next()
				if v.kind != tVar {
					p.failAt(v, "expected a variable after AS, found %s", v.describe())
				}
				k.Var = v.val
				asToks[len(asToks)-1] = v
			} else if ve, ok := k.Expr.(algebra.VarExpr); ok {
				k.Var = ve.Name
			}
			p.expect(")", "to close the GROUP BY condition")
			keys = append(keys, k)
		case startsConstraint(t):
			keys = append(keys, algebra.GroupKey{Expr: p.constraint("in GROUP BY")})
		default:
			if len(keys) == 0 {
				p.failAt(t, "expected a variable or an expression after GROUP BY, found %s", t.describe())
			}
			return keys, asToks[:len(keys)]
		}
	}
}

// orderConditions reads ORDER BY's conditions.
func (p *parser) orderConditions() []algebra.OrderCond {
	var conds []algebra.OrderCond
	for {
		t := p.peek()
		switch {
		case t.isWord("ASC") || t.isWord("DESC"):
			p.i++
			p.expect("(", "after "+strings.ToUpper(t.val))
			e := p.expression()
			p.expect(")", "to close the ORDER BY condition")
			conds = append(conds, algebra.OrderCond{Expr: e, Desc: t.isWord("DESC")})
		case t.kind == tVar:
			p.i++
			conds = append(conds, algebra.OrderCond{Expr: algebra.VarExpr{Name: t.val}})
		case startsConstraint(t):
			conds = append(conds, algebra.OrderCond{Expr: p.constraint("in ORDER BY")})
		default:
			if len(conds) == 0 {
				p.failAt(t, "expected a variable, an expression in () or ASC/DESC after ORDER BY, found %s", t.describe())
			}
			return conds
		}
	}
}

// dataBlock reads VALUES's variables and rows.
func (p *parser) dataBlock() *algebra.Table {
	tab := &algebra.Table{}
	if t := p.peek(); t.kind == tVar {
		p.i++
		tab.Vars = []string{t.val}
		p.expect("{", "to open the VALUES rows")
		for !p.accept("}") {
			tab.Rows = append(tab.Rows, []rdf.Term{p.dataValue()})
		}
		return tab
	}
	p.expect("(", "or a variable after VALUES")
	seen := map[string]bool{}
	for !p.accept(")") {
		t := p.next()
		if t.kind != tVar {
			p.failAt(t, "expected a variable or ')' in VALUES, found %s", t.describe())
		}
		if seen[t.val] {
			p.failAt(t, "?%s is listed twice in VALUES", t.val)
		}
		seen[t.val] = true
		tab.Vars = append(tab.Vars, t.val)
	}
	p.expect("{", "to open the VALUES rows")
	for !p.accept("}") {
		open := p.expect("(", "to open a row of VALUES")
		row := []rdf.Term{}
		for !p.accept(")") {
			row = append(row, p.dataValue())
		}
		if len(row) != len(tab.Vars) {
			p.failAt(open, "this row of VALUES has %d values for %d variables", len(row), len(tab.Vars))
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab
}

// dataValue reads one value of VALUES: a term, or UNDEF (the zero Term).
func (p *parser) dataValue() rdf.Term {
	t := p.peek()
	if p.acceptWord("UNDEF") {
		return rdf.Term{}
	}
	if isIRIToken(t) {
		return rdf.NewIRI(p.iriOf(p.next()))
	}
	if lit, ok := p.literal(); ok {
		return lit
	}
	p.failAt(t, "expected an IRI, a literal or UNDEF in VALUES, found %s", t.describe())
	return rdf.Term{}
}

// literal reads an RDF literal, a number or a boolean if one comes next.
func (p *parser) literal() (rdf.Term, bool) {
	t := p.peek()
	switch t.kind {
	case tString:
		p.i++
		switch n := p.peek(); {
		case n.kind == tLang:
			p.i++
			return rdf.NewLangLiteral(t.val, n.val), true
		case n.is("^^"):
			p.i++
			return rdf.NewLiteral(t.val, p.iri("after ^^")), true
		}
		return rdf.NewLiteral(t.val, rdf.XSDString), true
	case tInteger:
		p.i++
		return rdf.NewLiteral(t.val, rdf.XSDInteger), true
	case tDecimal:
		p.i++
		return rdf.NewLiteral(t.val, rdf.XSDDecimal), true
	case tDouble:
		p.i++
		return rdf.NewLiteral(t.val, rdf.XSDDouble), true
	case tWord:
		if t.isWord("true") || t.isWord("false") {
			p.i++
			return rdf.NewLiteral(strings.ToLower(t.val), rdf.XSDBoolean), true
		}
	}
	return rdf.Term{}, false
}

// unit returns the table of one empty solution, the algebra of an empty
// group.
func unit() algebra.Table { return algebra.Table{Rows: [][]rdf.Term{{}}} }
