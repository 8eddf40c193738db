package shacl

import (
	"fmt"
	"sort"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// rule is a SHACL-AF triple rule (sh:TripleRule).
type rule struct {
	node        rdf.Term
	order       float64
	deactivated bool
	s, p, o     *expr
	conditions  []*shape
	construct   *algebra.Query // a SPARQL rule's CONSTRUCT; nil for a triple rule
}

// exprKind tells what a node expression is.
type exprKind uint8

const (
	exprThis         exprKind = iota // sh:this: the focus node
	exprConstant                     // an IRI or a literal
	exprPath                         // [ sh:path P ]: the nodes P reaches from the focus node
	exprUnion                        // [ sh:union (E...) ]
	exprIntersection                 // [ sh:intersection (E...) ]
	exprFilter                       // [ sh:filterShape S ; sh:nodes E ]
)

// expr is a node expression of SHACL-AF.
type expr struct {
	kind   exprKind
	ref    ref
	path   *Path
	subs   []*expr
	filter *shape
}

// rules reads the rules of a shape and its sh:order.
func (c *compiler) rules(sh *shape) error {
	if t, err := c.single(sh, shOrder); err != nil {
		return err
	} else if t != (rdf.Term{}) {
		f, ok := numeric(t)
		if !ok {
			return fmt.Errorf("sh:order must be a number, not %s", c.describe(t))
		}
		sh.order = f
	}
	for _, rn := range c.values(sh.node, shRule) {
		r, err := c.rule(sh, rn)
		if err != nil {
			return fmt.Errorf("sh:rule %s: %w", c.describe(rn), err)
		}
		sh.rules = append(sh.rules, r)
	}
	sort.SliceStable(sh.rules, func(i, j int) bool { return sh.rules[i].order < sh.rules[j].order })
	return nil
}

func (c *compiler) rule(sh *shape, n rdf.Term) (*rule, error) {
	r := &rule{node: n}
	switch {
	case c.isInstance(n, shSPARQLRule) || c.has(n, shConstruct):
		text := c.values(n, shConstruct)
		if len(text) != 1 || text[0].Kind != rdf.Literal {
			return nil, fmt.Errorf("a SPARQL rule needs one sh:construct, a literal")
		}
		q, err := c.sparqlQuery(sh, n, text[0].Value, []string{"this", "shapesGraph", "currentShape"})
		if err != nil {
			return nil, err
		}
		if q.Form != sparql.Construct {
			return nil, fmt.Errorf("sh:construct must be a CONSTRUCT query")
		}
		r.construct = q
		return r, c.ruleOptions(r, n)
	case c.isInstance(n, shJSRule):
		return nil, fmt.Errorf("JavaScript rules (sh:JSRule): %w", ErrUnsupported)
	case !c.isInstance(n, shTripleRule) && !c.has(n, shSubject):
		return nil, fmt.Errorf("a rule must be a sh:TripleRule or a sh:SPARQLRule")
	}
	one := func(pred string) (rdf.Term, error) {
		vs := c.values(n, pred)
		if len(vs) != 1 {
			return rdf.Term{}, fmt.Errorf("a triple rule needs exactly one %s, it has %d", short(pred), len(vs))
		}
		return vs[0], nil
	}
	for _, x := range []struct {
		pred string
		dst  **expr
	}{{shSubject, &r.s}, {shPredicate, &r.p}, {shObject, &r.o}} {
		t, err := one(x.pred)
		if err != nil {
			return nil, err
		}
		if *x.dst, err = c.expr(t, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", short(x.pred), err)
		}
	}
	return r, c.ruleOptions(r, n)
}

// ruleOptions reads a rule's sh:order, sh:deactivated and sh:condition.
func (c *compiler) ruleOptions(r *rule, n rdf.Term) error {
	if vs := c.values(n, shOrder); len(vs) > 0 {
		f, ok := numeric(vs[0])
		if !ok || len(vs) > 1 {
			return fmt.Errorf("sh:order must be one number")
		}
		r.order = f
	}
	if vs := c.values(n, shDeactivated); len(vs) > 0 {
		r.deactivated = isTrue(vs[0])
	}
	for _, cn := range c.values(n, shCondition) {
		items := []rdf.Term{cn}
		if c.has(cn, rdf.RDFFirst) {
			var err error
			if items, err = c.list(cn); err != nil {
				return fmt.Errorf("sh:condition: %w", err)
			}
		}
		for _, it := range items {
			s, err := c.shapeRef(it, shCondition)
			if err != nil {
				return err
			}
			r.conditions = append(r.conditions, s)
		}
	}
	return nil
}

// expr reads a node expression: one nested more than 32 deep, or of more
// than 512 parts in all (not counting its paths'), is an error, as a path
// is (see parsePath).
func (c *compiler) expr(n rdf.Term, depth int) (*expr, error) {
	if depth == 0 {
		c.exprParts = 0
	}
	if depth > 32 {
		return nil, fmt.Errorf("node expression nested more than 32 deep")
	}
	if c.exprParts++; c.exprParts > maxParts {
		return nil, fmt.Errorf("node expression of more than %d parts (a node it holds many times?)", maxParts)
	}
	if n.Kind == rdf.IRI && n.Value == shThis {
		return &expr{kind: exprThis}, nil
	}
	if n.Kind != rdf.Blank {
		return &expr{kind: exprConstant, ref: c.ref(n)}, nil
	}
	if ps := c.values(n, shPath); len(ps) > 0 {
		p, err := c.parsePath(ps[0])
		if err != nil {
			return nil, err
		}
		return &expr{kind: exprPath, path: p}, nil
	}
	for _, op := range []struct {
		pred string
		kind exprKind
	}{{shUnion, exprUnion}, {shIntersection, exprIntersection}} {
		if ls := c.values(n, op.pred); len(ls) > 0 {
			items, err := c.list(ls[0])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", short(op.pred), err)
			}
			e := &expr{kind: op.kind}
			for _, it := range items {
				sub, err := c.expr(it, depth+1)
				if err != nil {
					return nil, err
				}
				e.subs = append(e.subs, sub)
			}
			return e, nil
		}
	}
	if fs := c.values(n, shFilterShape); len(fs) > 0 {
		nodes := c.values(n, shNodes)
		if len(nodes) != 1 {
			return nil, fmt.Errorf("a filter shape expression needs one sh:nodes")
		}
		sub, err := c.expr(nodes[0], depth+1)
		if err != nil {
			return nil, err
		}
		s, err := c.shapeRef(fs[0], shFilterShape)
		if err != nil {
			return nil, err
		}
		return &expr{kind: exprFilter, subs: []*expr{sub}, filter: s}, nil
	}
	return nil, fmt.Errorf("%s is not a node expression jrpcld runs (sh:this, an IRI, a literal, sh:path, sh:union, sh:intersection, sh:filterShape; function expressions are SHACL-SPARQL): %w", c.describe(n), ErrUnsupported)
}

// nodes evaluates a node expression for a focus node.
func (v *validator) nodes(e *expr, focus id) []id {
	switch e.kind {
	case exprThis:
		return []id{focus}
	case exprConstant:
		return []id{v.bind[e.ref]}
	case exprPath:
		var set nodeSet
		v.eval(e.path, focus, false, &set)
		return set.Nodes()
	case exprUnion:
		var set nodeSet
		for _, s := range e.subs {
			for _, n := range v.nodes(s, focus) {
				set.Add(n)
			}
		}
		return set.Nodes()
	case exprIntersection:
		var cur []id
		for i, s := range e.subs {
			ns := v.nodes(s, focus)
			if i == 0 {
				cur = ns
				continue
			}
			var keep []id
			for _, n := range cur {
				if contains(ns, n) {
					keep = append(keep, n)
				}
			}
			cur = keep
		}
		return cur
	}
	var keep []id
	for _, n := range v.nodes(e.subs[0], focus) {
		if v.conforms(n, e.filter) {
			keep = append(keep, n)
		}
	}
	return keep
}

// HasRules reports whether the shapes have rules that are not
// deactivated.
func (s *Shapes) HasRules() bool { return len(s.ruled) > 0 }

// Infer runs the shapes' SHACL-AF rules (triple rules and SPARQL rules) on the data graph and
// returns the triples they infer that the graph does not hold, in the
// order they were inferred. Shapes run in the order of their sh:order,
// and each shape's rules in theirs; each rule runs once over the focus
// nodes of its shape that pass its conditions, and sees what the rules
// before it inferred (as pySHACL runs them). A triple whose subject
// would be a literal, or whose predicate would not be an IRI, is not
// made. Conditions and filter shapes that nest the checks of nodes against
// shapes too deep fail with a *NestingError, as in Validate.
func (s *Shapes) Infer(data *Graph) ([]rdf.Triple, error) {
	g := data
	var inferred []rdf.Triple
	for _, sh := range s.ruled {
		for _, r := range sh.rules {
			if r.deactivated {
				continue
			}
			v := newValidator(bind(s, g))
			var add []rdf.Triple
			seen := map[rdf.Triple]bool{}
			focus := v.focusNodes(sh)
			if v.queryErr != nil {
				return nil, v.queryErr
			}
			for _, f := range focus {
				v.focus, v.shape, v.depth = f, sh, 0
				pass := true
				for _, cond := range r.conditions {
					if !v.conforms(f, cond) {
						pass = false
						break
					}
				}
				if v.err != nil {
					return nil, v.err
				}
				if !pass {
					continue
				}
				if r.construct != nil {
					ts, err := v.constructRule(sh, r, f)
					if err != nil {
						return nil, err
					}
					for _, t := range ts {
						if !seen[t] && !g.Has(t) {
							seen[t] = true
							add = append(add, t)
						}
					}
					continue
				}
				ss, ps, os := v.nodes(r.s, f), v.nodes(r.p, f), v.nodes(r.o, f)
				if v.err != nil {
					return nil, v.err
				}
				for _, sn := range ss {
					st := v.term(sn)
					if st.Kind == rdf.Literal {
						continue
					}
					for _, pn := range ps {
						pt := v.term(pn)
						if pt.Kind != rdf.IRI {
							continue
						}
						for _, on := range os {
							t := rdf.T(st, pt.Value, v.term(on))
							if !seen[t] && !g.Has(t) {
								seen[t] = true
								add = append(add, t)
							}
						}
					}
				}
			}
			if len(add) > 0 {
				inferred = append(inferred, add...)
				g = NewGraph(append(g.Triples(), add...))
			}
		}
	}
	return inferred, nil
}
