package shacl

// SHACL-SPARQL (SHACL sections 5 and 6): SPARQL-based constraints
// (sh:sparql) and constraint components whose validators are SPARQL ASK or
// SELECT queries, run by jrpcld's SPARQL engine with the variables the
// specification pre-binds substituted into the query.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/internal/shgraph"
	"github.com/jrpcld/jrpcld/rdf/shacl/internal/shsparql"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// ShapesGraphIRI names the shapes graph in the dataset SPARQL-based
// constraints run on: $shapesGraph is bound to it, so that
// GRAPH $shapesGraph { ... } reads the shapes graph. The data graph is the
// default graph.
const ShapesGraphIRI = shsparql.ShapesGraph

// More SHACL-SPARQL terms.
const (
	shSelect             = NS + "select"
	shAsk                = NS + "ask"
	shOptional           = NS + "optional"
	shValidator          = NS + "validator"
	shNodeValidator      = NS + "nodeValidator"
	shPropertyValidator  = NS + "propertyValidator"
	shSPARQLConstraintCC = NS + "SPARQLConstraintComponent"
)

// sparqlCheck is a SPARQL-based constraint, or one use of a SPARQL-based
// constraint component by a shape with its parameters' values.
type sparqlCheck struct {
	source    rdf.Term // sh:sourceConstraint: the sh:sparql value; the zero Term for a component
	component string   // sh:sourceConstraintComponent
	query     *algebra.Query
	ask       bool                // an ASK validator, run once per value node with $value bound
	params    map[string]rdf.Term // the parameters' values, pre-bound by name
	messages  []rdf.Term          // the constraint's or validator's sh:message, templates
}

// sparqlResult is what a SPARQL-based check found: the terms of a
// result, which the query may have made (a ?value the data lacks).
type sparqlResult struct {
	focus, value rdf.Term
	path         *Path
	messages     []rdf.Term
}

// declaredComponent is a constraint component declared in the shapes graph.
type declaredComponent struct {
	node       rdf.Term
	params     []param
	validators map[string]rdf.Term // by sh:validator, sh:nodeValidator, sh:propertyValidator
}

// param is a parameter of a declared constraint component.
type param struct {
	path     string // its sh:path, the predicate a shape gives its value with
	name     string // the variable its value is pre-bound to
	optional bool
}

// declaredComponents returns the constraint components the shapes graph
// declares outside SHACL's own namespace (SHACL's vocabulary, when a
// shapes graph holds it, declares the Core components).
func (c *compiler) declaredComponents() ([]*declaredComponent, error) {
	var comps []*declaredComponent
	for _, n := range c.subjectsOf(shParameter) {
		if !c.isInstance(n, shConstraintComponent) || n.Kind == rdf.IRI && strings.HasPrefix(n.Value, NS) {
			continue
		}
		dc := &declaredComponent{node: n, validators: map[string]rdf.Term{}}
		for _, p := range c.values(n, shParameter) {
			paths := c.values(p, shPath)
			if len(paths) != 1 || paths[0].Kind != rdf.IRI {
				return nil, &Error{Shape: c.describe(n), Err: fmt.Errorf("a parameter of a constraint component needs one sh:path, an IRI")}
			}
			opt := false
			if o := c.values(p, shOptional); len(o) > 0 {
				opt = isTrue(o[0])
			}
			dc.params = append(dc.params, param{path: paths[0].Value, name: shsparql.LocalName(paths[0].Value), optional: opt})
		}
		for _, pred := range []string{shValidator, shNodeValidator, shPropertyValidator} {
			if vs := c.values(n, pred); len(vs) > 0 {
				dc.validators[pred] = vs[0]
			}
		}
		comps = append(comps, dc)
	}
	return comps, nil
}

// sparqlConstraints reads a shape's sh:sparql constraints.
func (c *compiler) sparqlConstraints(sh *shape) error {
	for _, n := range c.values(sh.node, shSPARQL) {
		if n.Kind == rdf.Literal {
			return fmt.Errorf("sh:sparql must be a SPARQL-based constraint (an IRI or blank node with sh:select), not %s", c.describe(n))
		}
		if d := c.values(n, shDeactivated); len(d) > 0 && isTrue(d[0]) {
			continue
		}
		sel := c.values(n, shSelect)
		if len(sel) != 1 || sel[0].Kind != rdf.Literal {
			return fmt.Errorf("the SPARQL-based constraint %s needs one sh:select, a literal", c.describe(n))
		}
		q, err := c.sparqlQuery(sh, n, sel[0].Value, []string{"this", "shapesGraph", "currentShape"})
		if err != nil {
			return fmt.Errorf("sh:sparql %s: %w", c.describe(n), err)
		}
		if q.Form != sparql.Select {
			return fmt.Errorf("sh:sparql %s: sh:select must be a SELECT query", c.describe(n))
		}
		sh.constraints = append(sh.constraints, &constraint{comp: cSPARQL, param: n,
			sq: &sparqlCheck{source: n, component: shSPARQLConstraintCC, query: q, messages: c.values(n, shMessage)}})
	}
	return nil
}

// components adds the constraints of the declared components a shape
// uses: those it gives a value for every parameter that is not optional
// (each combination of values when a parameter has several). A component
// without a SPARQL validator for the kind of shape is refused: what is not
// checked must not pass.
func (c *compiler) components(sh *shape) error {
	for _, dc := range c.comps {
		if !c.complete(sh, dc) {
			continue
		}
		values := make([][]rdf.Term, len(dc.params))
		for i, p := range dc.params {
			values[i] = c.values(sh.node, p.path)
		}
		pred := shNodeValidator
		if sh.path != nil {
			pred = shPropertyValidator
		}
		v, ok := dc.validators[pred]
		if ok && !c.has(v, shSelect) {
			ok = false
		}
		ask := false
		if !ok {
			if v, ok = dc.validators[shValidator]; ok && !c.has(v, shAsk) {
				ok = false
			}
			ask = ok
		}
		if !ok {
			return fmt.Errorf("it uses the constraint component %s, which has no SPARQL validator for a %s shape (sh:%s with sh:select, or sh:validator with sh:ask): %w",
				c.describe(dc.node), map[bool]string{true: "property", false: "node"}[sh.path != nil], strings.TrimPrefix(pred, NS), ErrUnsupported)
		}
		text := c.values(v, shSelect)
		pre := []string{"this", "shapesGraph", "currentShape"}
		if ask {
			text = c.values(v, shAsk)
			pre = append(pre, "value")
		}
		for _, p := range dc.params {
			pre = append(pre, p.name)
		}
		if len(text) != 1 || text[0].Kind != rdf.Literal {
			return fmt.Errorf("the validator %s of %s needs one query, a literal", c.describe(v), c.describe(dc.node))
		}
		q, err := c.sparqlQuery(sh, v, text[0].Value, pre)
		if err != nil {
			return fmt.Errorf("the validator of %s: %w", c.describe(dc.node), err)
		}
		if ask && q.Form != sparql.Ask || !ask && q.Form != sparql.Select {
			return fmt.Errorf("the validator %s of %s: sh:ask takes an ASK query, sh:select a SELECT query", c.describe(v), c.describe(dc.node))
		}
		messages := c.values(v, shMessage)
		if len(messages) == 0 {
			messages = c.values(dc.node, shMessage)
		}
		for _, combo := range shsparql.Combinations(values) {
			params := map[string]rdf.Term{}
			for i, p := range dc.params {
				if combo[i] != (rdf.Term{}) {
					params[p.name] = combo[i]
				}
			}
			first := rdf.Term{}
			for _, t := range combo {
				if t != (rdf.Term{}) {
					first = t
					break
				}
			}
			sh.constraints = append(sh.constraints, &constraint{comp: cSPARQL, param: first,
				sq: &sparqlCheck{component: dc.node.Value, query: q, ask: ask, params: params, messages: messages}})
		}
	}
	return nil
}

// complete reports whether a shape gives a value for every parameter of
// dc that is not optional, and for one at least.
func (c *compiler) complete(sh *shape, dc *declaredComponent) bool {
	some := false
	for _, p := range dc.params {
		has := c.has(sh.node, p.path)
		if !has && !p.optional {
			return false
		}
		some = some || has
	}
	return some
}

// prefixes returns the PREFIX declarations of a constraint or validator
// (see shsparql.Prefixes).
func (c *compiler) prefixes(n rdf.Term) (string, error) {
	return shsparql.Prefixes(n, c.values, c.describe)
}

// sparqlQuery parses the query text of a constraint or validator n of
// shape sh: its prefixes declared, $PATH replaced by the shape's path, and
// checked for what pre-binding the variables pre cannot do.
func (c *compiler) sparqlQuery(sh *shape, n rdf.Term, text string, pre []string) (*algebra.Query, error) {
	prefixes, err := c.prefixes(n)
	if err != nil {
		return nil, err
	}
	text, hasPath := shsparql.SubstitutePath(text, pathText(sh.path))
	if hasPath && sh.path == nil {
		return nil, errors.New("the query uses $PATH, which only a property shape has")
	}
	q, err := sparql.ParseQuery(prefixes+text, "")
	if err != nil {
		return nil, fmt.Errorf("the query does not parse (lines counted after %d PREFIX lines): %w", strings.Count(prefixes, "\n"), err)
	}
	if err := shsparql.CheckPreBinding(q, pre); err != nil {
		return nil, err
	}
	return q, nil
}

// dataset returns the dataset the validation's queries run on.
func (v *validator) dataset() (*sparql.Dataset, error) {
	return v.queries.Get(func() (data, shapes []rdf.Triple) { return v.g.Triples(), v.s.graph.Triples() })
}

// pathText returns a property shape's path in SPARQL's syntax, "" for a
// node shape.
func pathText(p *Path) string {
	if p == nil {
		return ""
	}
	return p.String()
}

// checkSPARQL evaluates a SPARQL-based constraint or component for a
// focus node and its value nodes, as check does for the Core components.
func (v *validator) checkSPARQL(sh *shape, k *constraint, focus id, values []id, out *[]result) bool {
	sq := k.sq
	ds, err := v.dataset()
	if err != nil {
		v.setQueryErr(sh, k, err)
		return true
	}
	bindings := map[string]rdf.Term{"this": v.term(focus), "currentShape": sh.node, "shapesGraph": rdf.NewIRI(ShapesGraphIRI)}
	for name, t := range sq.params {
		bindings[name] = t
	}
	ctx := context.Background()
	ok := true
	if sq.ask {
		for _, n := range values {
			bindings["value"] = v.term(n)
			res, err := ds.Query(ctx, sq.query, sparql.Options{Bindings: bindings})
			if err != nil {
				v.setQueryErr(sh, k, err)
				return true
			}
			if res.Bool {
				continue
			}
			ok = false
			if out == nil {
				return false
			}
			*out = append(*out, result{focus: focus, shape: sh, k: k, sparql: &sparqlResult{
				focus: v.term(focus), value: v.term(n), path: sh.path, messages: shsparql.FillTemplates(sq.messages, bindings, nil, nil)}})
		}
		return ok
	}
	res, err := ds.Query(ctx, sq.query, sparql.Options{Bindings: bindings})
	if err != nil {
		v.setQueryErr(sh, k, err)
		return true
	}
	col := map[string]int{}
	for i, name := range res.Vars {
		col[name] = i
	}
	get := func(sol []rdf.Term, name string) rdf.Term {
		if i, ok := col[name]; ok {
			return v.queries.Original(sol[i])
		}
		return rdf.Term{}
	}
	for sol := range res.Solutions() {
		if f := get(sol, "failure"); isTrue(f) {
			v.setQueryErr(sh, k, errors.New("the query reported a failure (?failure true)"))
			res.Close()
			return true
		}
		ok = false
		if out == nil {
			res.Close()
			return false
		}
		r := &sparqlResult{focus: get(sol, "this"), value: get(sol, "value"), path: sh.path}
		if r.focus == (rdf.Term{}) {
			r.focus = v.term(focus)
		}
		if r.value == (rdf.Term{}) {
			r.value = r.focus
		}
		if p := get(sol, "path"); p.Kind == rdf.IRI && p.Value != "" {
			r.path = shgraph.NewPredicate(p.Value, 0)
		}
		if m := get(sol, "message"); m.Kind == rdf.Literal {
			r.messages = []rdf.Term{m}
		} else {
			r.messages = shsparql.FillTemplates(sq.messages, bindings, res.Vars, sol)
		}
		*out = append(*out, result{focus: focus, shape: sh, k: k, sparql: r})
	}
	if err := res.Err(); err != nil {
		v.setQueryErr(sh, k, err)
	}
	return ok
}

func (v *validator) setQueryErr(sh *shape, k *constraint, err error) {
	if v.queryErr == nil {
		c := k.sq.component
		if k.sq.source != (rdf.Term{}) {
			c = describe(v.s.graph, k.sq.source)
		}
		v.queryErr = &QueryError{Shape: describe(v.s.graph, sh.node), Constraint: c, Err: err}
	}
}

// constructRule runs a SPARQL rule for a focus node and returns the
// triples its CONSTRUCT makes. The blank nodes the template makes are
// given labels of their own, so that those of two focus nodes stay apart.
func (v *validator) constructRule(sh *shape, r *rule, focus id) ([]rdf.Triple, error) {
	fail := func(err error) error {
		return &QueryError{Shape: describe(v.s.graph, sh.node), Constraint: "rule " + describe(v.s.graph, r.node), Err: err}
	}
	ds, err := v.dataset()
	if err != nil {
		return nil, fail(err)
	}
	bindings := map[string]rdf.Term{"this": v.term(focus), "currentShape": sh.node, "shapesGraph": rdf.NewIRI(ShapesGraphIRI)}
	res, err := ds.Query(context.Background(), r.construct, sparql.Options{Bindings: bindings})
	if err != nil {
		return nil, fail(err)
	}
	v.runs++
	fresh := func(t rdf.Term) rdf.Term {
		switch {
		case t.Kind == rdf.Blank && v.g.ID(t) == 0:
			t.Value = fmt.Sprintf("sparql-rule-%d-%s", v.runs, t.Value)
		case t.Kind == rdf.Literal:
			t = v.queries.Original(t)
		}
		return t
	}
	out := make([]rdf.Triple, len(res.Graph))
	for i, t := range res.Graph {
		out[i] = rdf.Triple{S: fresh(t.S), P: t.P, O: fresh(t.O)}
	}
	return out, nil
}

// sparqlTargets reads a shape's sh:target values: SPARQL-based targets
// (SHACL-AF 5.1), whose SELECT gives the focus nodes as ?this. Any other
// kind of target is refused.
func (c *compiler) sparqlTargets(sh *shape) error {
	for _, t := range c.values(sh.node, shTarget) {
		sel := c.values(t, shSelect)
		if t.Kind == rdf.Literal || len(sel) != 1 || sel[0].Kind != rdf.Literal {
			return fmt.Errorf("the target %s is not a SPARQL-based target (sh:select), the only kind of sh:target jrpcld runs: %w", c.describe(t), ErrUnsupported)
		}
		q, err := c.sparqlQuery(sh, t, sel[0].Value, []string{"shapesGraph", "currentShape"})
		if err != nil {
			return fmt.Errorf("sh:target %s: %w", c.describe(t), err)
		}
		if q.Form != sparql.Select {
			return fmt.Errorf("sh:target %s: sh:select must be a SELECT query", c.describe(t))
		}
		sh.sparqlTargets = append(sh.sparqlTargets, q)
	}
	return nil
}

// sparqlFocus adds the focus nodes of a shape's SPARQL-based targets to
// set. It runs before the validation's goroutines start (it numbers terms
// the data graph lacks).
func (v *validator) sparqlFocus(sh *shape, set *nodeSet) {
	if len(sh.sparqlTargets) == 0 {
		return
	}
	ds, err := v.dataset()
	for _, q := range sh.sparqlTargets {
		var res *sparql.Result
		if err == nil {
			res, err = ds.Query(context.Background(), q, sparql.Options{Bindings: map[string]rdf.Term{
				"currentShape": sh.node, "shapesGraph": rdf.NewIRI(ShapesGraphIRI)}})
		}
		if err != nil {
			break
		}
		col := slices.Index(res.Vars, "this")
		for sol := range res.Solutions() {
			if col >= 0 && sol[col] != (rdf.Term{}) {
				set.Add(v.idOf(v.queries.Original(sol[col])))
			}
		}
		if err = res.Err(); err != nil {
			break
		}
	}
	if err != nil && v.queryErr == nil {
		v.queryErr = &QueryError{Shape: describe(v.s.graph, sh.node), Constraint: "target", Err: err}
	}
}
