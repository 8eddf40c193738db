package syntax

import (
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// groupPattern reads a GroupGraphPattern and returns its algebra with its
// filters applied.
func (p *parser) groupPattern(what string) algebra.Op {
	op, filters := p.group(what)
	return filtered(op, filters)
}

// filtered wraps op in a Filter of filters, if there are any.
func filtered(op algebra.Op, filters []algebra.Expr) algebra.Op {
	if len(filters) == 0 {
		return op
	}
	return algebra.Filter{Exprs: filters, Sub: op}
}

// join joins x to g, the group so far (nil while it is empty).
func join(g, x algebra.Op) algebra.Op {
	if g == nil {
		return x
	}
	return algebra.Join{Left: g, Right: x}
}

// orUnit returns g, or the unit table if g is nil.
func orUnit(g algebra.Op) algebra.Op {
	if g == nil {
		return unit()
	}
	return g
}

// group reads a GroupGraphPattern and translates it as section 18.2.2.6
// says, returning the filters apart so that OPTIONAL can make them the
// condition of its LeftJoin.
func (p *parser) group(what string) (algebra.Op, []algebra.Expr) {
	p.enter(p.expect("{", what))
	defer p.leave()
	outerAgg := p.agg
	p.agg = nil
	defer func() { p.agg = outerAgg }()
	if p.peek().isWord("SELECT") {
		op := p.subSelect()
		p.expect("}", "to close the subquery")
		return op, nil
	}
	p.newBGP()
	var g algebra.Op
	var filters []algebra.Expr
	var block []ptriple
	// inScope holds the variables in scope in g, for BIND to check; each
	// part added to g adds its own.
	inScope := map[string]bool{}
	grow := func(op algebra.Op) {
		for _, v := range algebra.InScope(op) {
			inScope[v] = true
		}
	}
	flush := func() {
		if len(block) > 0 {
			op := p.triplesOp(block)
			grow(op)
			g = join(g, op)
			block = nil
		}
	}
	for {
		t := p.peek()
		if t.is("}") {
			p.i++
			break
		}
		if !startsNotTriples(t) {
			c := &tctx{paths: true, vars: true, blanks: true}
			p.triplesSameSubject(c)
			block = append(block, c.out...)
			if p.accept(".") {
				continue
			}
			if t := p.peek(); !t.is("}") && !startsNotTriples(t) {
				p.failAt(t, "expected '.', '}' or a pattern keyword after a triple pattern, found %s", t.describe())
			}
			continue
		}
		p.i++
		if t.isWord("FILTER") {
			bgp := p.bgp
			filters = append(filters, p.constraint("after FILTER"))
			p.bgp = bgp
			p.accept(".")
			continue
		}
		flush()
		switch {
		case t.isWord("OPTIONAL"):
			op, fs := p.group("after OPTIONAL")
			grow(op)
			lj := algebra.LeftJoin{Left: orUnit(g), Right: op}
			if len(fs) > 0 {
				lj.Expr = conjunction(fs)
			}
			g = lj
		case t.isWord("MINUS"):
			g = algebra.Minus{Left: orUnit(g), Right: p.groupPattern("after MINUS")}
		case t.isWord("BIND"):
			p.expect("(", "after BIND")
			e := p.expression()
			p.expectWord("AS", "in BIND(expression AS ?var)")
			v := p.next()
			if v.kind != tVar {
				p.failAt(v, "expected a variable after AS, found %s", v.describe())
			}
			p.expect(")", "to close BIND")
			if inScope[v.val] {
				p.failAt(v, "BIND cannot set ?%s: the variable is already in scope in the group before it", v.val)
			}
			inScope[v.val] = true
			g = algebra.Extend{Sub: orUnit(g), Var: v.val, Expr: e}
		case t.isWord("GRAPH"):
			name := p.varOrIRI("after GRAPH")
			op := algebra.Graph{Name: name, Sub: p.groupPattern("after GRAPH")}
			grow(op)
			g = join(g, op)
		case t.isWord("SERVICE"):
			silent := p.acceptWord("SILENT")
			name := p.varOrIRI("after SERVICE")
			op := algebra.Service{Endpoint: name, Silent: silent, Sub: p.groupPattern("after SERVICE")}
			grow(op)
			g = join(g, op)
		case t.isWord("VALUES"):
			op := *p.dataBlock()
			grow(op)
			g = join(g, op)
		case t.is("{"):
			p.i--
			op := p.groupPattern("")
			for p.acceptWord("UNION") {
				op = algebra.Union{Left: op, Right: p.groupPattern("after UNION")}
			}
			grow(op)
			g = join(g, op)
		}
		p.newBGP()
		p.accept(".")
	}
	flush()
	return orUnit(g), filters
}

// startsNotTriples reports whether t starts a GraphPatternNotTriples or a
// FILTER.
func startsNotTriples(t token) bool {
	if t.is("{") {
		return true
	}
	for _, w := range []string{"OPTIONAL", "MINUS", "GRAPH", "SERVICE", "FILTER", "BIND", "VALUES"} {
		if t.isWord(w) {
			return true
		}
	}
	return false
}

// conjunction returns the && of es.
func conjunction(es []algebra.Expr) algebra.Expr {
	e := es[0]
	for _, x := range es[1:] {
		e = algebra.Call{Name: "&&", Args: []algebra.Expr{e, x}}
	}
	return e
}

// varOrIRI reads a variable or an IRI.
func (p *parser) varOrIRI(what string) algebra.Node {
	t := p.peek()
	switch {
	case t.kind == tVar:
		p.i++
		return algebra.Node{Var: t.val}
	case isIRIToken(t):
		p.i++
		return algebra.Node{Term: rdf.NewIRI(p.iriOf(t))}
	}
	p.failAt(t, "expected a variable or an IRI %s, found %s", what, t.describe())
	return algebra.Node{}
}

// tctx says what a run of triples may hold and collects them.
type tctx struct {
	paths  bool // property paths in predicates (patterns)
	vars   bool // variables
	blanks bool // blank nodes, [] and non-empty ( )
	// terms: blank nodes stay blank nodes (templates, data) rather than
	// becoming hidden variables (patterns).
	terms bool
	// update: blank node labels are scoped to one operation of an update
	// request (INSERT DATA: the blank nodes an INSERT DATA adds are new
	// ones, which a later operation cannot name).
	update bool
	// what names the place for messages, e.g. "in DELETE DATA".
	what string
	out  []ptriple
}

// insert puts t at index i of the triples read.
func (c *tctx) insert(i int, t ptriple) {
	c.out = append(c.out, ptriple{})
	copy(c.out[i+1:], c.out[i:])
	c.out[i] = t
}

// ptriple is a triple read: P is the predicate unless Path, a property
// path that is not a single IRI, is set.
type ptriple struct {
	S, P, O algebra.Node
	Path    algebra.Path
}

// triplesSameSubject reads a subject and its property list.
func (p *parser) triplesSameSubject(c *tctx) {
	t := p.peek()
	if (t.is("(") && !p.peekAt(1).is(")")) || (t.is("[") && !p.peekAt(1).is("]")) {
		s := p.triplesNode(c)
		if p.startsVerb(c) {
			p.propertyList(c, s)
		}
		return
	}
	s := p.varOrTerm(c)
	if !p.startsVerb(c) {
		n := p.peek()
		p.failAt(n, "expected a predicate after the subject, found %s", n.describe())
	}
	p.propertyList(c, s)
}

// startsVerb reports whether a verb (a predicate or a path) comes next.
func (p *parser) startsVerb(c *tctx) bool {
	t := p.peek()
	if t.kind == tVar || isIRIToken(t) || t.kind == tWord && t.val == "a" {
		return true
	}
	return c.paths && (t.is("^") || t.is("!") || t.is("("))
}

// propertyList reads predicate-object lists separated by ';' for subject s.
func (p *parser) propertyList(c *tctx, s algebra.Node) {
	for {
		pred, path := p.verb(c)
		for {
			// The triple comes before those of a list or [] object, as
			// the text has them.
			mark := len(c.out)
			o := p.graphNode(c)
			c.insert(mark, ptriple{S: s, P: pred, O: o, Path: path})
			if !p.accept(",") {
				break
			}
		}
		if !p.accept(";") {
			return
		}
		for p.accept(";") {
		}
		if !p.startsVerb(c) {
			return
		}
	}
}

// verb reads a predicate: a variable, an IRI, 'a' or, where paths are
// allowed, a property path.
func (p *parser) verb(c *tctx) (algebra.Node, algebra.Path) {
	t := p.peek()
	if t.kind == tVar {
		if !c.vars {
			p.failAt(t, "variables are not allowed %s", c.what)
		}
		p.i++
		return algebra.Node{Var: t.val}, nil
	}
	if !c.paths {
		if t.kind == tWord && t.val == "a" {
			p.i++
			return algebra.Node{Term: rdf.NewIRI(rdf.RDFType)}, nil
		}
		if !isIRIToken(t) {
			p.failAt(t, "expected a predicate (an IRI, a variable or 'a'), found %s", t.describe())
		}
		p.i++
		return algebra.Node{Term: rdf.NewIRI(p.iriOf(t))}, nil
	}
	path := p.path()
	if iri, ok := path.(algebra.PathIRI); ok {
		return algebra.Node{Term: rdf.NewIRI(iri.IRI)}, nil
	}
	return algebra.Node{}, path
}

// path reads a property path: PathAlternative.
func (p *parser) path() algebra.Path {
	p.enter(p.peek())
	defer p.leave()
	left := p.pathSequence()
	for p.accept("|") {
		left = algebra.PathAlt{Left: left, Right: p.pathSequence()}
	}
	return left
}

func (p *parser) pathSequence() algebra.Path {
	left := p.pathEltOrInverse()
	for p.accept("/") {
		left = algebra.PathSeq{Left: left, Right: p.pathEltOrInverse()}
	}
	return left
}

func (p *parser) pathEltOrInverse() algebra.Path {
	if p.accept("^") {
		return algebra.PathInverse{P: p.pathElt()}
	}
	return p.pathElt()
}

func (p *parser) pathElt() algebra.Path {
	prim := p.pathPrimary()
	switch {
	case p.accept("?"):
		return algebra.PathZeroOrOne{P: prim}
	case p.accept("*"):
		return algebra.PathZeroOrMore{P: prim}
	case p.peek().is("+"):
		p.i++
		return algebra.PathOneOrMore{P: prim}
	}
	return prim
}

func (p *parser) pathPrimary() algebra.Path {
	t := p.peek()
	switch {
	case isIRIToken(t):
		p.i++
		return algebra.PathIRI{IRI: p.iriOf(t)}
	case t.kind == tWord && t.val == "a":
		p.i++
		return algebra.PathIRI{IRI: rdf.RDFType}
	case t.is("("):
		p.i++
		path := p.path()
		p.expect(")", "to close the path")
		return path
	case t.is("!"):
		p.i++
		var neg algebra.PathNegated
		if p.accept("(") {
			if !p.accept(")") {
				p.pathOneInPropertySet(&neg)
				for p.accept("|") {
					p.pathOneInPropertySet(&neg)
				}
				p.expect(")", "to close the negated property set")
			}
		} else {
			p.pathOneInPropertySet(&neg)
		}
		return neg
	}
	p.failAt(t, "expected a predicate or a property path, found %s", t.describe())
	return nil
}

// pathOneInPropertySet reads one IRI of a negated property set.
func (p *parser) pathOneInPropertySet(neg *algebra.PathNegated) {
	inverse := p.accept("^")
	t := p.next()
	var iri string
	switch {
	case isIRIToken(t):
		iri = p.iriOf(t)
	case t.kind == tWord && t.val == "a":
		iri = rdf.RDFType
	default:
		p.failAt(t, "expected an IRI or 'a' in a negated property set, found %s", t.describe())
	}
	if inverse {
		neg.Inverse = append(neg.Inverse, iri)
	} else {
		neg.Forward = append(neg.Forward, iri)
	}
}

// graphNode reads an object: a variable, a term, a collection or a blank
// node property list.
func (p *parser) graphNode(c *tctx) algebra.Node {
	t := p.peek()
	if (t.is("(") && !p.peekAt(1).is(")")) || (t.is("[") && !p.peekAt(1).is("]")) {
		return p.triplesNode(c)
	}
	return p.varOrTerm(c)
}

// triplesNode reads a non-empty collection or blank node property list
// and returns its node.
func (p *parser) triplesNode(c *tctx) algebra.Node {
	t := p.next()
	if !c.blanks {
		p.failAt(t, "blank nodes are not allowed %s", c.what)
	}
	p.enter(t)
	defer p.leave()
	if t.is("[") {
		b := p.anon(c)
		p.propertyList(c, b)
		p.expect("]", "to close the blank node's property list")
		return b
	}
	first, rest := algebra.Node{Term: rdf.NewIRI(rdf.RDFFirst)}, algebra.Node{Term: rdf.NewIRI(rdf.RDFRest)}
	head := p.anon(c)
	node := head
	for {
		mark := len(c.out)
		o := p.graphNode(c)
		c.insert(mark, ptriple{S: node, P: first, O: o})
		if p.accept(")") {
			c.out = append(c.out, ptriple{S: node, P: rest, O: algebra.Node{Term: rdf.NewIRI(rdf.RDFNil)}})
			return head
		}
		next := p.anon(c)
		c.out = append(c.out, ptriple{S: node, P: rest, O: next})
		node = next
	}
}

// anon returns a new blank node: a hidden variable in a pattern, a blank
// node labelled '#' and a number in a template.
func (p *parser) anon(c *tctx) algebra.Node {
	if c.terms {
		return algebra.Node{Term: rdf.NewBlank(p.freshName("#"))}
	}
	return algebra.Node{Var: p.freshName(".b")}
}

// varOrTerm reads a variable, an IRI, a literal, a blank node, () or [].
func (p *parser) varOrTerm(c *tctx) algebra.Node {
	t := p.peek()
	switch {
	case t.kind == tVar:
		if !c.vars {
			p.failAt(t, "variables are not allowed %s", c.what)
		}
		p.i++
		return algebra.Node{Var: t.val}
	case isIRIToken(t):
		p.i++
		return algebra.Node{Term: rdf.NewIRI(p.iriOf(t))}
	case t.kind == tBlank:
		if !c.blanks {
			p.failAt(t, "blank nodes are not allowed %s", c.what)
		}
		p.i++
		return p.label(c, t)
	case t.is("(") && p.peekAt(1).is(")"):
		p.i += 2
		return algebra.Node{Term: rdf.NewIRI(rdf.RDFNil)}
	case t.is("[") && p.peekAt(1).is("]"):
		if !c.blanks {
			p.failAt(t, "blank nodes are not allowed %s", c.what)
		}
		p.i += 2
		return p.anon(c)
	}
	if lit, ok := p.literal(); ok {
		return algebra.Node{Term: lit}
	}
	p.failAt(t, "expected a variable, an IRI, a literal or a blank node, found %s", t.describe())
	return algebra.Node{}
}

// label returns the node of the blank node label t, checking where the
// label may be used: in patterns, within one basic graph pattern; in an
// update's data and templates, within one operation.
func (p *parser) label(c *tctx, t token) algebra.Node {
	if c.terms {
		if c.update {
			if op, ok := p.dataLabels[t.val]; ok && op != p.op {
				p.failAt(t, "the blank node label _:%s is used by an earlier operation of the request", t.val)
			}
			p.dataLabels[t.val] = p.op
		}
		return algebra.Node{Term: rdf.NewBlank(t.val)}
	}
	if bgp, ok := p.labels[t.val]; ok && bgp != p.bgp {
		p.failAt(t, "the blank node label _:%s is used in two basic graph patterns: a label is shared only within one", t.val)
	}
	p.labels[t.val] = p.bgp
	return algebra.Node{Var: "._" + t.val}
}

// triplesOp translates a block of triples read in a pattern: plain
// triples make a BGP, paths are translated as section 18.2.2.4 says and
// those left PathPatterns joined to it.
func (p *parser) triplesOp(block []ptriple) algebra.Op {
	var bgp []algebra.TriplePattern
	var paths []algebra.Op
	var add func(s algebra.Node, path algebra.Path, o algebra.Node)
	add = func(s algebra.Node, path algebra.Path, o algebra.Node) {
		switch x := path.(type) {
		case algebra.PathIRI:
			bgp = append(bgp, algebra.TriplePattern{S: s, P: algebra.Node{Term: rdf.NewIRI(x.IRI)}, O: o})
		case algebra.PathInverse:
			add(o, x.P, s)
		case algebra.PathSeq:
			v := algebra.Node{Var: p.freshName(".p")}
			add(s, x.Left, v)
			add(v, x.Right, o)
		default:
			paths = append(paths, algebra.PathPattern{S: s, Path: path, O: o})
		}
	}
	for _, t := range block {
		if t.Path == nil {
			bgp = append(bgp, algebra.TriplePattern{S: t.S, P: t.P, O: t.O})
		} else {
			add(t.S, t.Path, t.O)
		}
	}
	var op algebra.Op
	if len(bgp) > 0 {
		op = algebra.BGP{Patterns: bgp}
	}
	for _, x := range paths {
		op = join(op, x)
	}
	return op
}

// constructTemplate reads CONSTRUCT's template in {}.
func (p *parser) constructTemplate() []algebra.TriplePattern {
	p.expect("{", "to open the CONSTRUCT template")
	c := &tctx{vars: true, blanks: true, terms: true}
	p.triplesTemplate(c, "}")
	var tps []algebra.TriplePattern
	for _, t := range c.out {
		tps = append(tps, algebra.TriplePattern{S: t.S, P: t.P, O: t.O})
	}
	return tps
}

// constructWherePattern reads CONSTRUCT WHERE's pattern, which is only
// triples, and returns it and the template, the same triples: a blank
// node in them is a hidden variable in both, so that the query gives the
// triples matched.
func (p *parser) constructWherePattern() (algebra.Op, []algebra.TriplePattern) {
	p.expect("{", "after CONSTRUCT WHERE")
	p.newBGP()
	c := &tctx{vars: true, blanks: true}
	p.triplesTemplate(c, "}")
	if len(c.out) == 0 {
		return unit(), nil
	}
	tps := make([]algebra.TriplePattern, len(c.out))
	for i, t := range c.out {
		tps[i] = algebra.TriplePattern{S: t.S, P: t.P, O: t.O}
	}
	return algebra.BGP{Patterns: tps}, tps
}

// triplesTemplate reads triples separated by '.' up to and including the
// punctuation end.
func (p *parser) triplesTemplate(c *tctx, end string) {
	for !p.accept(end) {
		p.triplesSameSubject(c)
		if p.accept(".") {
			continue
		}
		if t := p.peek(); !t.is(end) {
			p.failAt(t, "expected '.' or '%s' after a triple, found %s", end, t.describe())
		}
	}
}
