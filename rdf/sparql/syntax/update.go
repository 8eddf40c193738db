package syntax

import (
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// update reads a whole update request: operations separated by ';', each
// possibly after BASE and PREFIX declarations, which hold for the
// operations after them.
func (p *parser) update() *algebra.Update {
	u := &algebra.Update{}
	for {
		p.prologue()
		if p.peek().kind == tEOF {
			break
		}
		p.op++
		p.labels = map[string]int{}
		u.Ops = append(u.Ops, p.update1())
		if !p.accept(";") {
			break
		}
	}
	if t := p.peek(); t.kind != tEOF {
		p.failAt(t, "expected ';' between update operations or the end of the request, found %s", t.describe())
	}
	u.Base, u.Prefixes = p.base, p.prefixes
	return u
}

// update1 reads one update operation.
func (p *parser) update1() algebra.UpdateOp {
	t := p.peek()
	switch {
	case t.isWord("LOAD"):
		p.i++
		op := algebra.Load{Silent: p.acceptWord("SILENT")}
		op.Source = p.iri("after LOAD")
		if p.acceptWord("INTO") {
			p.expectWord("GRAPH", "after INTO")
			op.Into = p.iri("after INTO GRAPH")
		}
		return op
	case t.isWord("CLEAR"):
		p.i++
		silent := p.acceptWord("SILENT")
		return algebra.Clear{Silent: silent, Target: p.graphRefAll("after CLEAR")}
	case t.isWord("DROP"):
		p.i++
		silent := p.acceptWord("SILENT")
		return algebra.Drop{Silent: silent, Target: p.graphRefAll("after DROP")}
	case t.isWord("CREATE"):
		p.i++
		silent := p.acceptWord("SILENT")
		p.expectWord("GRAPH", "after CREATE")
		return algebra.Create{Silent: silent, Graph: p.iri("after CREATE GRAPH")}
	case t.isWord("ADD") || t.isWord("MOVE") || t.isWord("COPY"):
		p.i++
		op := algebra.Transfer{Kind: strings.ToUpper(t.val), Silent: p.acceptWord("SILENT")}
		op.From = p.graphOrDefault("after " + op.Kind)
		p.expectWord("TO", "after the graph to "+strings.ToLower(op.Kind))
		op.To = p.graphOrDefault("after TO")
		return op
	case t.isWord("INSERT") && p.peekAt(1).isWord("DATA"):
		p.i += 2
		c := &tctx{blanks: true, terms: true, update: true, what: "in INSERT DATA"}
		return algebra.InsertData{Quads: p.dataQuads(c)}
	case t.isWord("DELETE") && p.peekAt(1).isWord("DATA"):
		p.i += 2
		c := &tctx{terms: true, what: "in DELETE DATA"}
		return algebra.DeleteData{Quads: p.dataQuads(c)}
	case t.isWord("DELETE") && p.peekAt(1).isWord("WHERE"):
		p.i += 2
		c := &tctx{vars: true, terms: true, what: "in DELETE WHERE"}
		qs := p.quads(c)
		return algebra.Modify{Delete: qs, Where: quadsOp(qs)}
	case t.isWord("WITH") || t.isWord("DELETE") || t.isWord("INSERT"):
		return p.modify()
	}
	p.failAt(t, "expected an update operation (INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY or WITH), found %s", t.describe())
	return nil
}

// modify reads DELETE/INSERT ... WHERE with its WITH and USING clauses.
func (p *parser) modify() algebra.Modify {
	var m algebra.Modify
	if p.acceptWord("WITH") {
		m.With = p.iri("after WITH")
	}
	hasDelete := false
	if p.acceptWord("DELETE") {
		hasDelete = true
		m.Delete = p.quads(&tctx{vars: true, terms: true, what: "in a DELETE template"})
	}
	if p.acceptWord("INSERT") {
		m.Insert = p.quads(&tctx{vars: true, blanks: true, terms: true, what: "in an INSERT template"})
	} else if !hasDelete {
		t := p.peek()
		p.failAt(t, "expected DELETE or INSERT after WITH, found %s", t.describe())
	}
	for p.acceptWord("USING") {
		if p.acceptWord("NAMED") {
			m.UsingNamed = append(m.UsingNamed, p.iri("after USING NAMED"))
		} else {
			m.Using = append(m.Using, p.iri("after USING"))
		}
	}
	p.expectWord("WHERE", "after the templates of DELETE/INSERT")
	m.Where = p.groupPattern("after WHERE")
	return m
}

// graphRefAll reads GRAPH <iri>, DEFAULT, NAMED or ALL.
func (p *parser) graphRefAll(what string) algebra.GraphTarget {
	switch {
	case p.acceptWord("GRAPH"):
		return algebra.GraphTarget{IRI: p.iri("after GRAPH")}
	case p.acceptWord("DEFAULT"):
		return algebra.GraphTarget{Default: true}
	case p.acceptWord("NAMED"):
		return algebra.GraphTarget{Named: true}
	case p.acceptWord("ALL"):
		return algebra.GraphTarget{All: true}
	}
	t := p.peek()
	p.failAt(t, "expected GRAPH <iri>, DEFAULT, NAMED or ALL %s, found %s", what, t.describe())
	return algebra.GraphTarget{}
}

// graphOrDefault reads DEFAULT or [GRAPH] <iri>.
func (p *parser) graphOrDefault(what string) algebra.GraphTarget {
	if p.acceptWord("DEFAULT") {
		return algebra.GraphTarget{Default: true}
	}
	p.acceptWord("GRAPH")
	return algebra.GraphTarget{IRI: p.iri(what + " (or DEFAULT)")}
}

// quads reads a QuadPattern: triples, and GRAPH blocks of triples, in {}.
func (p *parser) quads(c *tctx) []algebra.QuadPattern {
	var qs []algebra.QuadPattern
	p.quadsTo(c, func(t ptriple, g algebra.Node) {
		qs = append(qs, algebra.QuadPattern{TriplePattern: algebra.TriplePattern{S: t.S, P: t.P, O: t.O}, Graph: g})
	})
	return qs
}

// quadsTo reads triples, and GRAPH blocks of triples, in {}, and gives
// each to emit with its graph (the zero Node for the default graph).
func (p *parser) quadsTo(c *tctx, emit func(t ptriple, g algebra.Node)) {
	p.expect("{", c.what)
	take := func(g algebra.Node) {
		for _, t := range c.out {
			emit(t, g)
		}
		c.out = c.out[:0]
	}
	for !p.accept("}") {
		if p.acceptWord("GRAPH") {
			t := p.peek()
			g := p.varOrIRI("after GRAPH")
			if g.IsVar() && !c.vars {
				p.failAt(t, "variables are not allowed %s", c.what)
			}
			p.expect("{", "after GRAPH and its name")
			p.triplesTemplate(c, "}")
			take(g)
			p.accept(".")
			continue
		}
		p.triplesSameSubject(c)
		take(algebra.Node{})
		if p.accept(".") {
			continue
		}
		if t := p.peek(); !t.is("}") && !t.isWord("GRAPH") {
			p.failAt(t, "expected '.', '}' or GRAPH after a triple, found %s", t.describe())
		}
	}
}

// dataQuads reads QuadData: quads without variables.
func (p *parser) dataQuads(c *tctx) []rdf.Quad {
	var qs []rdf.Quad
	p.quadsTo(c, func(t ptriple, g algebra.Node) {
		qs = append(qs, rdf.Quad{Triple: rdf.T(t.S.Term, t.P.Term.Value, t.O.Term), G: g.Term})
	})
	return qs
}

// quadsOp returns the pattern DELETE WHERE's quads match: the triples in
// the default graph a BGP, those in GRAPH blocks a Graph each, joined.
func quadsOp(qs []algebra.QuadPattern) algebra.Op {
	var op algebra.Op
	for i := 0; i < len(qs); {
		j := i
		for j < len(qs) && qs[j].Graph == qs[i].Graph {
			j++
		}
		var bgp algebra.BGP
		for _, q := range qs[i:j] {
			bgp.Patterns = append(bgp.Patterns, q.TriplePattern)
		}
		if qs[i].Graph == (algebra.Node{}) {
			op = join(op, bgp)
		} else {
			op = join(op, algebra.Graph{Name: qs[i].Graph, Sub: bgp})
		}
		i = j
	}
	return orUnit(op)
}
