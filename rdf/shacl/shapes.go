package shacl

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// Shapes is a compiled shapes graph: its shapes, their targets,
// constraints and rules, ready to validate any number of data graphs. A
// Shapes is read-only and safe for use by several goroutines.
type Shapes struct {
	shapes   []*shape // every shape, in the order the shapes graph first names them
	targeted []*shape // the shapes that have targets and are not deactivated
	ruled    []*shape // the shapes that have rules, by sh:order
	consts   []rdf.Term
	warnings []string
	graph    *Graph // the shapes graph
}

// shape is one node shape or property shape.
type shape struct {
	index       int
	node        rdf.Term
	path        *Path // nil for a node shape
	deactivated bool
	severity    rdf.Term
	messages    []rdf.Term

	targetNodes, targetClasses, targetSubjectsOf, targetObjectsOf []ref

	constraints   []*constraint
	rules         []*rule
	sparqlTargets []*algebra.Query
	parents       []*shape // the shapes whose sh:property this shape is
	order         float64  // sh:order, for the order rules run in
	// unsupported is the error of a shape that uses what jrpcld does not
	// run; the shapes graph is refused when the shape is in use.
	unsupported   error
	targetTriples bool // the shapes graph gives it targets
}

// component is a constraint component of SHACL Core.
type component uint8

const (
	cClass component = iota
	cDatatype
	cNodeKind
	cMinCount
	cMaxCount
	cMinExclusive
	cMinInclusive
	cMaxExclusive
	cMaxInclusive
	cMinLength
	cMaxLength
	cPattern
	cLanguageIn
	cUniqueLang
	cEquals
	cDisjoint
	cLessThan
	cLessThanOrEquals
	cNot
	cAnd
	cOr
	cXone
	cNode
	cProperty
	cQualifiedMinCount
	cQualifiedMaxCount
	cClosed
	cHasValue
	cIn
	cSPARQL // sh:sparql, and the SPARQL-based components the shapes graph declares
)

var componentNames = [...]string{
	cClass: "Class", cDatatype: "Datatype", cNodeKind: "NodeKind", cMinCount: "MinCount", cMaxCount: "MaxCount",
	cMinExclusive: "MinExclusive", cMinInclusive: "MinInclusive", cMaxExclusive: "MaxExclusive",
	cMaxInclusive: "MaxInclusive", cMinLength: "MinLength", cMaxLength: "MaxLength", cPattern: "Pattern",
	cLanguageIn: "LanguageIn", cUniqueLang: "UniqueLang", cEquals: "Equals", cDisjoint: "Disjoint",
	cLessThan: "LessThan", cLessThanOrEquals: "LessThanOrEquals", cNot: "Not", cAnd: "And", cOr: "Or",
	cXone: "Xone", cNode: "Node", cProperty: "Property", cQualifiedMinCount: "QualifiedMinCount",
	cQualifiedMaxCount: "QualifiedMaxCount", cClosed: "Closed", cHasValue: "HasValue", cIn: "In",
	cSPARQL: "SPARQL",
}

// IRI returns the component's IRI, e.g. sh:MinCountConstraintComponent.
func (c component) IRI() string { return NS + componentNames[c] + "ConstraintComponent" }

// constraint is one use of a component by a shape, with its parameters.
type constraint struct {
	comp   component
	param  rdf.Term // the main parameter's value, for messages
	ref    ref      // a class, a datatype, sh:hasValue's term, a property (equals, disjoint, lessThan...)
	refs   []ref    // sh:in, sh:ignoredProperties and the closed shape's properties
	in     map[ref]bool
	n      int       // min/max count and length; qualified min or max count
	nodeKD uint8     // sh:nodeKind, as a set of kinds
	bound  xsd.Value // min/max exclusive/inclusive
	re     *regexp.Regexp
	langs  []string // sh:languageIn
	shapes []*shape // not, and, or, xone, node, property, qualifiedValueShape
	others []*shape // the sibling qualified value shapes, when disjoint
	sq     *sparqlCheck
}

// compiler reads a shapes graph.
type compiler struct {
	g       *Graph
	s       *Shapes
	byNode  map[rdf.Term]*shape
	consts  map[rdf.Term]ref
	pending []*shape
	// exprParts counts the parts of the node expression being read (a
	// path counts its own, in shgraph.Parse).
	exprParts int
	comps     []*declaredComponent
}

// maxParts bounds the parts of one path and of one node expression.
const maxParts = limits.Depth

// Compile reads a shapes graph. Every shape is checked: a parameter of
// the wrong kind (a literal where a shape is expected, a count that is
// not an integer, a list that is not well formed, an invalid regular
// expression) is an *Error naming the shape, and so is a feature the
// package does not support (ErrUnsupported).
func Compile(shapes []rdf.Triple) (*Shapes, error) {
	return CompileGraph(NewGraph(shapes))
}

// CompileGraph is Compile on a graph already made.
func CompileGraph(g *Graph) (*Shapes, error) {
	c := &compiler{g: g, s: &Shapes{graph: g}, byNode: map[rdf.Term]*shape{}, consts: map[rdf.Term]ref{}}
	var err error
	if c.comps, err = c.declaredComponents(); err != nil {
		return nil, err
	}
	for _, n := range c.shapeNodes() {
		c.shape(n)
	}
	for len(c.pending) > 0 {
		sh := c.pending[0]
		c.pending = c.pending[1:]
		if err := c.compile(sh); err != nil {
			if !errors.Is(err, ErrUnsupported) {
				return nil, &Error{Shape: c.describe(sh.node), Err: err}
			}
			// Refused only if a shape in use needs it (inUse).
			sh.unsupported = &Error{Shape: c.describe(sh.node), Err: err}
		}
	}
	if err := c.s.inUse(); err != nil {
		return nil, err
	}
	for _, sh := range c.s.shapes {
		if !sh.deactivated && sh.hasTargets() {
			c.s.targeted = append(c.s.targeted, sh)
		}
		if len(sh.rules) > 0 && !sh.deactivated {
			c.s.ruled = append(c.s.ruled, sh)
		}
	}
	sort.SliceStable(c.s.ruled, func(i, j int) bool { return c.s.ruled[i].order < c.s.ruled[j].order })
	if err := c.siblings(); err != nil {
		return nil, err
	}
	return c.s, nil
}

// Warnings returns what Compile noticed in the shapes graph that does not
// stop it: shapes that are recursive, for one.
func (s *Shapes) Warnings() []string { return s.warnings }

// Len returns the number of shapes.
func (s *Shapes) Len() int { return len(s.shapes) }

// Targeted returns the number of shapes that have targets and are not
// deactivated: with none, Validate checks no node and every graph
// conforms.
func (s *Shapes) Targeted() int { return len(s.targeted) }

func (sh *shape) hasTargets() bool {
	return len(sh.targetNodes)+len(sh.targetClasses)+len(sh.targetSubjectsOf)+len(sh.targetObjectsOf)+len(sh.sparqlTargets) > 0
}

// ref returns the constant for term t.
func (c *compiler) ref(t rdf.Term) ref {
	if r, ok := c.consts[t]; ok {
		return r
	}
	r := ref(len(c.s.consts))
	c.s.consts = append(c.s.consts, t)
	c.consts[t] = r
	return r
}

// values returns the objects of n and the predicate pred in the shapes
// graph, in the graph's order.
func (c *compiler) values(n rdf.Term, pred string) []rdf.Term {
	s, p := c.g.ID(n), c.g.ID(rdf.NewIRI(pred))
	if s == 0 || p == 0 {
		return nil
	}
	es := c.g.Objects(s, p)
	ts := make([]rdf.Term, len(es))
	for i, e := range es {
		ts[i] = c.g.Term(e.B)
	}
	return ts
}

func (c *compiler) has(n rdf.Term, pred string) bool { return len(c.values(n, pred)) > 0 }

// subjectsOf returns the subjects of pred in the shapes graph.
func (c *compiler) subjectsOf(pred string) []rdf.Term {
	var ts []rdf.Term
	for _, e := range c.g.WithPredicate(c.g.ID(rdf.NewIRI(pred))) {
		if len(ts) == 0 || ts[len(ts)-1] != c.g.Term(e.A) {
			ts = append(ts, c.g.Term(e.A))
		}
	}
	return ts
}

// list returns the members of the SHACL list whose head is n.
func (c *compiler) list(n rdf.Term) ([]rdf.Term, error) {
	var items []rdf.Term
	seen := map[rdf.Term]bool{}
	for n != rdf.NewIRI(rdf.RDFNil) {
		if n.Kind == rdf.Literal {
			return nil, fmt.Errorf("%s is not a well-formed list: a literal where a member belongs", c.describe(n))
		}
		if seen[n] {
			return nil, fmt.Errorf("%s is not a well-formed list: its rdf:rest leads back to it (a cycle)", c.describe(n))
		}
		seen[n] = true
		first, rest := c.values(n, rdf.RDFFirst), c.values(n, rdf.RDFRest)
		if len(first) != 1 || len(rest) != 1 {
			return nil, fmt.Errorf("%s is not a well-formed list: a member needs one rdf:first and one rdf:rest", c.describe(n))
		}
		items = append(items, first[0])
		n = rest[0]
	}
	return items, nil
}

// isInstance reports whether n is a SHACL instance of class in the shapes
// graph: a type of n is class or one of its subclasses.
func (c *compiler) isInstance(n rdf.Term, class string) bool {
	seen := map[rdf.Term]bool{}
	queue := c.values(n, rdf.RDFType)
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		if t.Value == class && t.Kind == rdf.IRI {
			return true
		}
		if !seen[t] {
			seen[t] = true
			queue = append(queue, c.values(t, rdfsSubClassOf)...)
		}
	}
	return false
}

// shapeParams are the parameters whose subjects are shapes (SHACL 2.1).
var shapeParams = []string{
	shTargetNode, shTargetClass, shTargetSubjectsOf, shTargetObjectsOf, shClass, shDatatype, shNodeKind,
	shMinCount, shMaxCount, shMinExclusive, shMinInclusive, shMaxExclusive, shMaxInclusive, shMinLength,
	shMaxLength, shPattern, shLanguageIn, shUniqueLang, shEquals, shDisjoint, shLessThan, shLessThanOrEquals,
	shNot, shAnd, shOr, shXone, shNode, shProperty, shQualifiedValueShape, shClosed, shHasValue, shIn, shPath, shRule,
	shSPARQL, shTarget,
}

// shapeNodes returns the nodes that are shapes by their own triples, in
// the order the shapes graph first names them as subjects.
func (c *compiler) shapeNodes() []rdf.Term {
	set := map[rdf.Term]bool{}
	for _, p := range shapeParams {
		for _, s := range c.subjectsOf(p) {
			set[s] = true
		}
	}
	for _, dc := range c.comps {
		for _, p := range dc.params {
			for _, s := range c.subjectsOf(p.path) {
				set[s] = true
			}
		}
	}
	for _, class := range []string{shNodeShape, shPropertyShape} {
		for _, s := range c.subjectsOf(rdf.RDFType) {
			if c.isInstance(s, class) {
				set[s] = true
			}
		}
	}
	nodes := make([]rdf.Term, 0, len(set))
	for n := range set {
		nodes = append(nodes, n)
	}
	// The graph numbers terms in the order it first met them.
	slices.SortFunc(nodes, func(a, b rdf.Term) int { return cmp.Compare(c.g.ID(a), c.g.ID(b)) })
	return nodes
}

// shape returns the shape of node n, made (and queued to compile) the
// first time.
func (c *compiler) shape(n rdf.Term) *shape {
	if sh, ok := c.byNode[n]; ok {
		return sh
	}
	sh := &shape{index: len(c.s.shapes), node: n}
	c.byNode[n] = sh
	c.s.shapes = append(c.s.shapes, sh)
	c.pending = append(c.pending, sh)
	return sh
}

// describe writes a node of the shapes graph for an error message (see
// describe).
func (c *compiler) describe(t rdf.Term) string { return describe(c.g, t) }

// single returns the one value of pred on the shape, or the zero Term.
func (c *compiler) single(sh *shape, pred string) (rdf.Term, error) {
	vs := c.values(sh.node, pred)
	if len(vs) > 1 {
		return rdf.Term{}, fmt.Errorf("%s has %d values, it takes one", short(pred), len(vs))
	}
	if len(vs) == 0 {
		return rdf.Term{}, nil
	}
	return vs[0], nil
}

func short(iri string) string {
	for _, ns := range []struct{ ns, prefix string }{{NS, "sh:"}, {rdf.RDFNS, "rdf:"}, {rdf.RDFSNS, "rdfs:"}, {rdf.XSDNS, "xsd:"}} {
		if strings.HasPrefix(iri, ns.ns) {
			return ns.prefix + iri[len(ns.ns):]
		}
	}
	return "<" + iri + ">"
}

func isTrue(t rdf.Term) bool {
	return t.Kind == rdf.Literal && t.Datatype == rdf.XSDBoolean && t.Value == "true"
}

// integer reads the non-negative integer value of a count or length.
func integer(t rdf.Term, pred string) (int, error) {
	if n, ok := xsd.Integer(t); ok {
		if n.Sign() >= 0 {
			if n.IsInt64() && n.Int64() < math.MaxInt32 {
				return int(n.Int64()), nil
			}
			return math.MaxInt32, nil
		}
	}
	return 0, fmt.Errorf("%s must be a non-negative xsd:integer, not %s", short(pred), t)
}

func (c *compiler) shapeRef(t rdf.Term, pred string) (*shape, error) {
	if t.Kind == rdf.Literal {
		return nil, fmt.Errorf("the value of %s must be a shape, not the literal %s", short(pred), c.describe(t))
	}
	return c.shape(t), nil
}

// compile reads the targets, constraints and rules of a shape.
func (c *compiler) compile(sh *shape) error {
	n := sh.node
	sh.targetTriples = c.hasTargetTriples(n)
	d, err := c.single(sh, shDeactivated)
	if err != nil {
		return err
	}
	// A deactivated shape is not read further: whatever it holds, it
	// never keeps a shapes graph from compiling.
	if sh.deactivated = isTrue(d); sh.deactivated {
		return nil
	}
	if len(c.values(n, shPath)) > 0 {
		pv, err := c.single(sh, shPath)
		if err != nil {
			return err
		}
		if sh.path, err = c.parsePath(pv); err != nil {
			return fmt.Errorf("sh:path: %w", err)
		}
	}
	if err := c.refuse(sh); err != nil {
		return err
	}
	sh.severity = rdf.NewIRI(shViolation)
	if s, err := c.single(sh, shSeverity); err != nil {
		return err
	} else if s != (rdf.Term{}) {
		if s.Kind != rdf.IRI {
			return fmt.Errorf("sh:severity must be an IRI, not %s", s)
		}
		sh.severity = s
	}
	sh.messages = c.values(n, shMessage)
	for _, t := range c.values(n, shTargetNode) {
		sh.targetNodes = append(sh.targetNodes, c.ref(t))
	}
	for _, t := range c.values(n, shTargetClass) {
		sh.targetClasses = append(sh.targetClasses, c.ref(t))
	}
	// A shape that is an rdfs:Class targets its instances (implicit class
	// target).
	if n.Kind == rdf.IRI && c.isInstance(n, rdfsClass) && !slices.Contains(sh.targetClasses, c.ref(n)) {
		sh.targetClasses = append(sh.targetClasses, c.ref(n))
	}
	for _, t := range c.values(n, shTargetSubjectsOf) {
		if t.Kind != rdf.IRI {
			return fmt.Errorf("sh:targetSubjectsOf must be an IRI, not %s", c.describe(t))
		}
		sh.targetSubjectsOf = append(sh.targetSubjectsOf, c.ref(t))
	}
	for _, t := range c.values(n, shTargetObjectsOf) {
		if t.Kind != rdf.IRI {
			return fmt.Errorf("sh:targetObjectsOf must be an IRI, not %s", c.describe(t))
		}
		sh.targetObjectsOf = append(sh.targetObjectsOf, c.ref(t))
	}
	if err := c.constraints(sh); err != nil {
		return err
	}
	if err := c.sparqlTargets(sh); err != nil {
		return err
	}
	if err := c.sparqlConstraints(sh); err != nil {
		return err
	}
	if err := c.components(sh); err != nil {
		return err
	}
	return c.rules(sh)
}

// constraints reads every constraint of a shape, in the order of the
// components' table in SHACL 4.
func (c *compiler) constraints(sh *shape) error {
	n := sh.node
	add := func(k *constraint) { sh.constraints = append(sh.constraints, k) }
	for _, t := range c.values(n, shClass) {
		if t.Kind == rdf.Literal {
			return fmt.Errorf("sh:class must be an IRI or blank node, not %s", c.describe(t))
		}
		add(&constraint{comp: cClass, param: t, ref: c.ref(t)})
	}
	for _, t := range c.values(n, shDatatype) {
		if t.Kind != rdf.IRI {
			return fmt.Errorf("sh:datatype must be an IRI, not %s", c.describe(t))
		}
		add(&constraint{comp: cDatatype, param: t, ref: c.ref(t)})
	}
	for _, t := range c.values(n, shNodeKind) {
		kinds := map[string]uint8{shIRI: 1, shBlankNode: 2, shLiteral: 4, shBlankNodeOrIRI: 3, shBlankNodeOrLiteral: 6, shIRIOrLiteral: 5}
		k, ok := kinds[t.Value]
		if t.Kind != rdf.IRI || !ok {
			return fmt.Errorf("sh:nodeKind must be one of sh:IRI, sh:BlankNode, sh:Literal, sh:BlankNodeOrIRI, sh:BlankNodeOrLiteral, sh:IRIOrLiteral, not %s", c.describe(t))
		}
		add(&constraint{comp: cNodeKind, param: t, nodeKD: k})
	}
	for _, p := range []struct {
		pred string
		comp component
	}{{shMinCount, cMinCount}, {shMaxCount, cMaxCount}, {shMinLength, cMinLength}, {shMaxLength, cMaxLength}} {
		for _, t := range c.values(n, p.pred) {
			if (p.comp == cMinCount || p.comp == cMaxCount) && sh.path == nil {
				return fmt.Errorf("%s is for property shapes, and this shape has no sh:path", short(p.pred))
			}
			k, err := integer(t, p.pred)
			if err != nil {
				return err
			}
			add(&constraint{comp: p.comp, param: t, n: k})
		}
	}
	for _, p := range []struct {
		pred string
		comp component
	}{{shMinExclusive, cMinExclusive}, {shMinInclusive, cMinInclusive}, {shMaxExclusive, cMaxExclusive}, {shMaxInclusive, cMaxInclusive}} {
		for _, t := range c.values(n, p.pred) {
			if t.Kind != rdf.Literal {
				return fmt.Errorf("%s must be a literal, not %s", short(p.pred), t)
			}
			add(&constraint{comp: p.comp, param: t, bound: xsd.ValueOf(t)})
		}
	}
	if pats := c.values(n, shPattern); len(pats) > 0 {
		flags := c.values(n, shFlags)
		if len(flags) > 1 {
			return fmt.Errorf("sh:flags has %d values, it takes one", len(flags))
		}
		f := ""
		if len(flags) == 1 {
			if flags[0].Kind != rdf.Literal {
				return fmt.Errorf("sh:flags must be a literal, not %s", c.describe(flags[0]))
			}
			f = flags[0].Value
		}
		for _, t := range pats {
			if t.Kind != rdf.Literal {
				return fmt.Errorf("sh:pattern must be a literal, not %s", c.describe(t))
			}
			re, err := xsd.Regexp(t.Value, f)
			if err != nil {
				return fmt.Errorf("sh:pattern %q: %w", t.Value, err)
			}
			add(&constraint{comp: cPattern, param: t, re: re})
		}
	}
	for _, t := range c.values(n, shLanguageIn) {
		items, err := c.list(t)
		if err != nil {
			return fmt.Errorf("sh:languageIn: %w", err)
		}
		k := &constraint{comp: cLanguageIn, param: t}
		for _, it := range items {
			if it.Kind != rdf.Literal {
				return fmt.Errorf("sh:languageIn lists language tags as literals, not %s", c.describe(it))
			}
			k.langs = append(k.langs, it.Value)
		}
		add(k)
	}
	for _, t := range c.values(n, shUniqueLang) {
		if sh.path == nil {
			return errors.New("sh:uniqueLang is for property shapes, and this shape has no sh:path")
		}
		if isTrue(t) {
			add(&constraint{comp: cUniqueLang, param: t})
		}
	}
	for _, p := range []struct {
		pred string
		comp component
	}{{shEquals, cEquals}, {shDisjoint, cDisjoint}, {shLessThan, cLessThan}, {shLessThanOrEquals, cLessThanOrEquals}} {
		for _, t := range c.values(n, p.pred) {
			if t.Kind != rdf.IRI {
				return fmt.Errorf("%s must be an IRI, not %s", short(p.pred), t)
			}
			if (p.comp == cLessThan || p.comp == cLessThanOrEquals) && sh.path == nil {
				return fmt.Errorf("%s is for property shapes, and this shape has no sh:path", short(p.pred))
			}
			add(&constraint{comp: p.comp, param: t, ref: c.ref(t)})
		}
	}
	for _, t := range c.values(n, shNot) {
		s, err := c.shapeRef(t, shNot)
		if err != nil {
			return err
		}
		add(&constraint{comp: cNot, param: t, shapes: []*shape{s}})
	}
	for _, p := range []struct {
		pred string
		comp component
	}{{shAnd, cAnd}, {shOr, cOr}, {shXone, cXone}} {
		for _, t := range c.values(n, p.pred) {
			items, err := c.list(t)
			if err != nil {
				return fmt.Errorf("%s: %w", short(p.pred), err)
			}
			k := &constraint{comp: p.comp, param: t}
			for _, it := range items {
				s, err := c.shapeRef(it, p.pred)
				if err != nil {
					return err
				}
				k.shapes = append(k.shapes, s)
			}
			add(k)
		}
	}
	for _, t := range c.values(n, shNode) {
		s, err := c.shapeRef(t, shNode)
		if err != nil {
			return err
		}
		add(&constraint{comp: cNode, param: t, shapes: []*shape{s}})
	}
	for _, t := range c.values(n, shProperty) {
		s, err := c.shapeRef(t, shProperty)
		if err != nil {
			return err
		}
		if !c.has(t, shPath) {
			return fmt.Errorf("the value of sh:property, %s, must be a property shape (with sh:path)", c.describe(t))
		}
		s.parents = append(s.parents, sh)
		add(&constraint{comp: cProperty, param: t, shapes: []*shape{s}})
	}
	if qs := c.values(n, shQualifiedValueShape); len(qs) > 0 {
		if len(qs) > 1 {
			return fmt.Errorf("sh:qualifiedValueShape has %d values, it takes one", len(qs))
		}
		if sh.path == nil {
			return errors.New("sh:qualifiedValueShape is for property shapes, and this shape has no sh:path")
		}
		q, err := c.shapeRef(qs[0], shQualifiedValueShape)
		if err != nil {
			return err
		}
		for _, p := range []struct {
			pred string
			comp component
		}{{shQualifiedMinCount, cQualifiedMinCount}, {shQualifiedMaxCount, cQualifiedMaxCount}} {
			t, err := c.single(sh, p.pred)
			if err != nil {
				return err
			}
			if t == (rdf.Term{}) {
				continue
			}
			k, err := integer(t, p.pred)
			if err != nil {
				return err
			}
			add(&constraint{comp: p.comp, param: t, n: k, shapes: []*shape{q}})
		}
	}
	if t, err := c.single(sh, shClosed); err != nil {
		return err
	} else if isTrue(t) {
		k := &constraint{comp: cClosed, param: t, in: map[ref]bool{}}
		for _, ps := range c.values(n, shProperty) {
			for _, p := range c.values(ps, shPath) {
				if p.Kind == rdf.IRI {
					k.in[c.ref(p)] = true
				}
			}
		}
		for _, ip := range c.values(n, shIgnoredProperties) {
			items, err := c.list(ip)
			if err != nil {
				return fmt.Errorf("sh:ignoredProperties: %w", err)
			}
			for _, it := range items {
				k.in[c.ref(it)] = true
			}
		}
		add(k)
	}
	for _, t := range c.values(n, shHasValue) {
		add(&constraint{comp: cHasValue, param: t, ref: c.ref(t)})
	}
	for _, t := range c.values(n, shIn) {
		items, err := c.list(t)
		if err != nil {
			return fmt.Errorf("sh:in: %w", err)
		}
		k := &constraint{comp: cIn, param: t, in: map[ref]bool{}}
		for _, it := range items {
			k.refs = append(k.refs, c.ref(it))
			k.in[c.ref(it)] = true
		}
		add(k)
	}
	return nil
}

// siblings gives each qualified constraint with
// sh:qualifiedValueShapesDisjoint true the qualified value shapes of its
// siblings: the other property shapes of the shapes it is a property of.
func (c *compiler) siblings() error {
	for _, sh := range c.s.shapes {
		var disjoint bool
		if t, err := c.single(sh, shQualifiedDisjoint); err != nil {
			return &Error{Shape: c.describe(sh.node), Err: err}
		} else {
			disjoint = isTrue(t)
		}
		if !disjoint {
			continue
		}
		var others []*shape
		for _, parent := range sh.parents {
			for _, k := range parent.constraints {
				if k.comp != cProperty || k.shapes[0] == sh {
					continue
				}
				for _, q := range c.values(k.shapes[0].node, shQualifiedValueShape) {
					others = append(others, c.byNode[q])
				}
			}
		}
		for _, k := range sh.constraints {
			if k.comp == cQualifiedMinCount || k.comp == cQualifiedMaxCount {
				for _, o := range others {
					if o != nil && o != k.shapes[0] && !slices.Contains(k.others, o) {
						k.others = append(k.others, o)
					}
				}
			}
		}
	}
	return nil
}

// numeric reads sh:order.
func numeric(t rdf.Term) (float64, bool) {
	return xsd.ValueOf(t).Float()
}
