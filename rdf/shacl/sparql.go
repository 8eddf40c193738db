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
	"sync"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// ShapesGraphIRI names the shapes graph in the dataset SPARQL-based
// constraints run on: $shapesGraph is bound to it, so that
// GRAPH $shapesGraph { ... } reads the shapes graph. The data graph is the
// default graph.
const ShapesGraphIRI = "urn:x-jrpcld:shapes-graph"

// More SHACL-SPARQL terms.
const (
	shSelect             = NS + "select"
	shAsk                = NS + "ask"
	shPrefixes           = NS + "prefixes"
	shDeclare            = NS + "declare"
	shPrefix             = NS + "prefix"
	shNamespace          = NS + "namespace"
	shOptional           = NS + "optional"
	shValidator          = NS + "validator"
	shNodeValidator      = NS + "nodeValidator"
	shPropertyValidator  = NS + "propertyValidator"
	shSPARQLConstraintCC = NS + "SPARQLConstraintComponent"
	owlImports           = rdf.OWLNS + "imports"
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

// localName is SHACL's name of a parameter: the end of its IRI after the
// last character that cannot be in an XML name.
func localName(iri string) string {
	i := len(iri)
	for i > 0 {
		c := iri[i-1]
		if c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			i--
			continue
		}
		break
	}
	return iri[i:]
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
			dc.params = append(dc.params, param{path: paths[0].Value, name: localName(paths[0].Value), optional: opt})
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
		for _, combo := range combinations(values) {
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

// combinations returns every choice of one value from each list; an
// empty list (an optional parameter without value) gives the zero Term.
func combinations(lists [][]rdf.Term) [][]rdf.Term {
	out := [][]rdf.Term{{}}
	for _, l := range lists {
		if len(l) == 0 {
			l = []rdf.Term{{}}
		}
		var next [][]rdf.Term
		for _, prefix := range out {
			for _, t := range l {
				next = append(next, append(slices.Clone(prefix), t))
			}
		}
		out = next
	}
	return out
}

// defaultPrefixes are declared for every query unless sh:prefixes
// declares them otherwise.
var defaultPrefixes = [][2]string{{"rdf", rdf.RDFNS}, {"rdfs", rdf.RDFSNS}, {"xsd", rdf.XSDNS}, {"owl", rdf.OWLNS}}

// prefixes returns the PREFIX declarations of a constraint or validator:
// the sh:declare of its sh:prefixes values, and of what they owl:imports,
// after the defaultPrefixes.
func (c *compiler) prefixes(n rdf.Term) (string, error) {
	decl := map[string]string{}
	var names []string
	seen := map[rdf.Term]bool{}
	queue := c.values(n, shPrefixes)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		for _, d := range c.values(p, shDeclare) {
			pre, ns := c.values(d, shPrefix), c.values(d, shNamespace)
			if len(pre) != 1 || len(ns) != 1 || pre[0].Kind != rdf.Literal || ns[0].Kind != rdf.Literal {
				return "", fmt.Errorf("the prefix declaration %s needs one sh:prefix and one sh:namespace, literals", c.describe(d))
			}
			if old, ok := decl[pre[0].Value]; ok && old != ns[0].Value {
				return "", fmt.Errorf("the prefix %q is declared as both <%s> and <%s>", pre[0].Value, old, ns[0].Value)
			} else if !ok {
				names = append(names, pre[0].Value)
			}
			decl[pre[0].Value] = ns[0].Value
		}
		queue = append(queue, c.values(p, owlImports)...)
	}
	var b strings.Builder
	// rdf:, rdfs:, xsd: and owl: are declared first, as rdflib (and so
	// pySHACL) declares them: shapes graphs in use write queries that use
	// them without sh:prefixes.
	for _, d := range defaultPrefixes {
		if _, ok := decl[d[0]]; !ok {
			fmt.Fprintf(&b, "PREFIX %s: <%s>\n", d[0], d[1])
		}
	}
	for _, name := range names {
		fmt.Fprintf(&b, "PREFIX %s: <%s>\n", name, decl[name])
	}
	return b.String(), nil
}

// sparqlQuery parses the query text of a constraint or validator n of
// shape sh: its prefixes declared, $PATH replaced by the shape's path, and
// checked for what pre-binding the variables pre cannot do.
func (c *compiler) sparqlQuery(sh *shape, n rdf.Term, text string, pre []string) (*algebra.Query, error) {
	prefixes, err := c.prefixes(n)
	if err != nil {
		return nil, err
	}
	text, hasPath := substitutePath(text, sh.path)
	if hasPath && sh.path == nil {
		return nil, errors.New("the query uses $PATH, which only a property shape has")
	}
	q, err := sparql.ParseQuery(prefixes+text, "")
	if err != nil {
		return nil, fmt.Errorf("the query does not parse (lines counted after %d PREFIX lines): %w", strings.Count(prefixes, "\n"), err)
	}
	if err := checkPreBinding(q, pre); err != nil {
		return nil, err
	}
	return q, nil
}

// substitutePath replaces the variable $PATH (or ?PATH) in a query's text
// by the path in SPARQL's syntax, and reports whether the query has it.
// Text in strings, IRIs and comments is left alone.
func substitutePath(text string, p *Path) (string, bool) {
	var b strings.Builder
	found := false
	var quote byte
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quote != 0:
			if ch == '\\' && i+1 < len(text) {
				b.WriteByte(ch)
				i++
				ch = text[i]
			} else if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '<' && i+1 < len(text) && !strings.ContainsAny(text[i+1:i+2], " =\t\n"):
			if j := strings.IndexAny(text[i:], "> \n"); j > 0 && text[i+j] == '>' {
				b.WriteString(text[i : i+j+1])
				i += j
				continue
			}
		case ch == '#':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			b.WriteString(text[i : i+j])
			i += j - 1
			continue
		case (ch == '$' || ch == '?') && strings.HasPrefix(text[i+1:], "PATH") &&
			(i+5 >= len(text) || !isNameByte(text[i+5])):
			found = true
			if p != nil {
				b.WriteString(p.String())
			} else {
				b.WriteString("$PATH")
			}
			i += 4
			continue
		}
		b.WriteByte(ch)
	}
	return b.String(), found
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// checkPreBinding refuses what SHACL 5.2.1 forbids in a query whose
// variables pre are pre-bound: MINUS, SERVICE, VALUES, AS of a pre-bound
// variable, and subqueries that do not return every pre-bound variable
// but $shapesGraph and $currentShape.
func checkPreBinding(q *algebra.Query, pre []string) error {
	op := q.Op
	if q.Form == sparql.Select {
		// The query's own projection and modifiers.
	top:
		for {
			switch o := op.(type) {
			case algebra.Slice:
				op = o.Sub
			case algebra.Distinct:
				op = o.Sub
			case algebra.Reduced:
				op = o.Sub
			case algebra.OrderBy:
				op = o.Sub
			case algebra.Project:
				op = o.Sub
				break top
			default:
				break top
			}
		}
	}
	var err error
	refuse := func(format string, args ...any) {
		if err == nil {
			err = fmt.Errorf("pre-binding (SHACL 5.2.1) does not allow "+format, args...)
		}
	}
	isPre := func(v string) bool { return slices.Contains(pre, v) }
	var walkExpr func(x algebra.Expr)
	var walk func(op algebra.Op)
	walkExpr = func(x algebra.Expr) {
		switch x := x.(type) {
		case algebra.Exists:
			walk(x.Op)
		case algebra.Call:
			for _, a := range x.Args {
				walkExpr(a)
			}
		}
	}
	walk = func(op algebra.Op) {
		switch o := op.(type) {
		case algebra.Minus:
			refuse("MINUS")
		case algebra.Service:
			refuse("SERVICE")
		case algebra.Table:
			if len(o.Vars) > 0 {
				refuse("VALUES")
			}
		case algebra.Join:
			walk(o.Left)
			walk(o.Right)
		case algebra.LeftJoin:
			walk(o.Left)
			walk(o.Right)
			if o.Expr != nil {
				walkExpr(o.Expr)
			}
		case algebra.Union:
			walk(o.Left)
			walk(o.Right)
		case algebra.Filter:
			walk(o.Sub)
			for _, x := range o.Exprs {
				walkExpr(x)
			}
		case algebra.Graph:
			walk(o.Sub)
		case algebra.Extend:
			if isPre(o.Var) {
				refuse("AS ?%s: the variable is pre-bound", o.Var)
			}
			walkExpr(o.Expr)
			walk(o.Sub)
		case algebra.Group:
			for _, k := range o.By {
				if isPre(k.Var) {
					refuse("AS ?%s: the variable is pre-bound", k.Var)
				}
				walkExpr(k.Expr)
			}
			walk(o.Sub)
		case algebra.OrderBy:
			walk(o.Sub)
		case algebra.Distinct:
			walk(o.Sub)
		case algebra.Reduced:
			walk(o.Sub)
		case algebra.Slice:
			walk(o.Sub)
		case algebra.Project:
			for _, v := range pre {
				if v != "shapesGraph" && v != "currentShape" && !slices.Contains(o.Vars, v) {
					refuse("a subquery that does not return ?%s, which is pre-bound", v)
				}
			}
			walk(o.Sub)
		}
	}
	walk(op)
	return err
}

// sparqlData is the dataset SPARQL-based checks run on, made once per
// validation: the data graph as its default graph, the shapes graph named
// ShapesGraphIRI.
type sparqlData struct {
	once sync.Once
	ds   *sparql.Dataset
	err  error
	// orig maps the literals the store normalizes (language tags in lower
	// case) back to the data graph's own.
	orig map[rdf.Term]rdf.Term
}

func (d *sparqlData) get(data, shapes *Graph) (*sparql.Dataset, error) {
	d.once.Do(func() {
		d.ds, d.orig = sparql.NewDataset(), map[rdf.Term]rdf.Term{}
		name := rdf.NewIRI(ShapesGraphIRI)
		for _, g := range []struct {
			g    *Graph
			name rdf.Term
		}{{data, rdf.Term{}}, {shapes, name}} {
			if g.g == nil {
				continue
			}
			ts := g.g.Triples()
			qs := make([]rdf.Quad, len(ts))
			for i, t := range ts {
				qs[i] = rdf.Quad{Triple: t, G: g.name}
				if n := store.Normalize(t.O); n != t.O && g.name == (rdf.Term{}) {
					d.orig[n] = t.O
				}
			}
			if err := d.ds.Add(qs...); err != nil {
				d.err = err
				return
			}
		}
	})
	return d.ds, d.err
}

// original returns the data graph's own form of a term a query returned.
func (d *sparqlData) original(t rdf.Term) rdf.Term {
	if o, ok := d.orig[t]; ok {
		return o
	}
	return t
}

// checkSPARQL evaluates a SPARQL-based constraint or component for a
// focus node and its value nodes, as check does for the Core components.
func (v *validator) checkSPARQL(sh *shape, k *constraint, focus id, values []id, out *[]result) bool {
	sq := k.sq
	ds, err := v.queries.get(v.g, v.s.graph)
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
				focus: v.term(focus), value: v.term(n), path: sh.path, messages: fillTemplates(sq.messages, bindings, nil, nil)}})
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
			return v.queries.original(sol[i])
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
			r.path = &Path{kind: pathPredicate, iri: p.Value}
		}
		if m := get(sol, "message"); m.Kind == rdf.Literal {
			r.messages = []rdf.Term{m}
		} else {
			r.messages = fillTemplates(sq.messages, bindings, res.Vars, sol)
		}
		*out = append(*out, result{focus: focus, shape: sh, k: k, sparql: r})
	}
	if err := res.Err(); err != nil {
		v.setQueryErr(sh, k, err)
	}
	return ok
}

// QueryError is a validation that failed because a SPARQL-based
// constraint's query failed (a limit, a time-out, ?failure bound to true).
type QueryError struct {
	Shape, Constraint string // as an error message describes them
	Err               error
}

// Error names the shape and the constraint whose query failed.
func (e *QueryError) Error() string {
	return "validation failed: shape " + e.Shape + ", SPARQL constraint " + e.Constraint + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *QueryError) Unwrap() error { return e.Err }

func (v *validator) setQueryErr(sh *shape, k *constraint, err error) {
	if v.queryErr == nil {
		c := k.sq.component
		if k.sq.source != (rdf.Term{}) {
			c = describe(v.s.graph, k.sq.source)
		}
		v.queryErr = &QueryError{Shape: describe(v.s.graph, sh.node), Constraint: c, Err: err}
	}
}

// fillTemplates returns the messages with each {?name} and {$name}
// replaced by the value of the variable: a solution's, or a pre-bound
// one's. A variable without a value is left as written.
func fillTemplates(msgs []rdf.Term, bound map[string]rdf.Term, vars []string, sol []rdf.Term) []rdf.Term {
	if len(msgs) == 0 {
		return nil
	}
	value := func(name string) (string, bool) {
		for i, v := range vars {
			if v == name && sol[i] != (rdf.Term{}) {
				return sol[i].Value, true
			}
		}
		if t, ok := bound[name]; ok && t != (rdf.Term{}) {
			return t.Value, true
		}
		return "", false
	}
	out := make([]rdf.Term, len(msgs))
	for i, m := range msgs {
		s := m.Value
		var b strings.Builder
		for {
			j := strings.Index(s, "{")
			if j < 0 || j+2 >= len(s) || s[j+1] != '?' && s[j+1] != '$' {
				if j >= 0 {
					b.WriteString(s[:j+1])
					s = s[j+1:]
					continue
				}
				b.WriteString(s)
				break
			}
			end := strings.IndexByte(s[j:], '}')
			if end < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:j])
			if val, ok := value(s[j+2 : j+end]); ok {
				b.WriteString(val)
			} else {
				b.WriteString(s[j : j+end+1])
			}
			s = s[j+end+1:]
		}
		m.Value, m.Escaped = b.String(), false
		out[i] = m
	}
	return out
}

// constructRule runs a SPARQL rule for a focus node and returns the
// triples its CONSTRUCT makes. The blank nodes the template makes are
// given labels of their own, so that those of two focus nodes stay apart.
func (v *validator) constructRule(sh *shape, r *rule, focus id) ([]rdf.Triple, error) {
	fail := func(err error) error {
		return &QueryError{Shape: describe(v.s.graph, sh.node), Constraint: "rule " + describe(v.s.graph, r.node), Err: err}
	}
	ds, err := v.queries.get(v.g, v.s.graph)
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
		case t.Kind == rdf.Blank && v.g.id(t) == 0:
			t.Value = fmt.Sprintf("sparql-rule-%d-%s", v.runs, t.Value)
		case t.Kind == rdf.Literal:
			t = v.queries.original(t)
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
	ds, err := v.queries.get(v.g, v.s.graph)
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
				set.add(v.idOf(v.queries.original(sol[col])))
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
