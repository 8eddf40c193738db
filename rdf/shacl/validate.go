package shacl

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/internal/shgraph"
	"github.com/jrpcld/jrpcld/rdf/shacl/internal/shsparql"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// maxNesting bounds how many checks of a node against a shape one check
// may nest (through sh:node, sh:property, sh:and, sh:or, sh:xone, sh:not,
// sh:qualifiedValueShape and filter shapes), each a step of recursion of
// about 10 KB of stack: a recursive shape over a chain of a million nodes
// exhausted the stack (a fatal error) where the chain could not loop.
const maxNesting = limits.Depth

// binding is what the shapes' constants are in one data graph: each
// constant's id, the terms the data does not hold numbered after its own,
// and the subclasses of each class the shapes name.
type binding struct {
	s                   *Shapes
	g                   *Graph
	ids                 []id       // by ref
	extra               []rdf.Term // the terms numbered len(g.terms) and up
	rdfType, subClassOf id
	queries             *shsparql.Data // for SPARQL-based constraints
}

func bind(s *Shapes, g *Graph) *binding {
	b := &binding{s: s, g: g, ids: make([]id, len(s.consts)), queries: &shsparql.Data{}}
	for i, t := range s.consts {
		b.ids[i] = b.idOf(t)
	}
	b.rdfType = b.idOf(rdf.NewIRI(rdf.RDFType))
	b.subClassOf = b.idOf(rdf.NewIRI(rdfsSubClassOf))
	return b
}

// idOf returns the id of t, numbering it after the graph's terms when the
// graph does not hold it.
func (b *binding) idOf(t rdf.Term) id {
	if n := b.g.ID(t); n != 0 {
		return n
	}
	for i, e := range b.extra {
		if e == t {
			return id(b.g.NumTerms() + i)
		}
	}
	b.extra = append(b.extra, t)
	return id(b.g.NumTerms() + len(b.extra) - 1)
}

func (b *binding) term(n id) rdf.Term {
	if int(n) < b.g.NumTerms() {
		return b.g.Term(n)
	}
	return b.extra[int(n)-b.g.NumTerms()]
}

// validator checks nodes against shapes; each goroutine has its own.
type validator struct {
	*binding
	bind    []id
	classes map[id]map[id]bool // class -> itself and its subclasses
	sets    map[*constraint]map[id]bool
	memo    map[uint64]bool
	active  map[uint64]bool
	cycles  int
	// recursive is set when a node was met again while it was being
	// checked against the same shape.
	recursive bool
	// depth counts the checks nested in the one under way, which is of
	// focus against shape; err is set once they go past maxNesting.
	depth int
	focus id
	shape *shape
	err   *NestingError
	// queryErr is set when the query of a SPARQL-based constraint fails.
	queryErr *QueryError
	runs     int // SPARQL rules run, for the labels of their blank nodes
}

func newValidator(b *binding) *validator {
	return &validator{binding: b, bind: b.ids, classes: map[id]map[id]bool{}, sets: map[*constraint]map[id]bool{},
		memo: map[uint64]bool{}, active: map[uint64]bool{}}
}

// result is a validation result as the validator finds it.
type result struct {
	focus, value id // value 0: none
	shape        *shape
	k            *constraint
	pred         id // the path of a closed shape's result
	sparql       *sparqlResult
}

// Validate checks the data graph against the shapes and returns the
// validation report. Focus nodes are checked on every core; the results
// come in a fixed order: by shape, in the order the shapes graph names
// them, then by focus node, then by constraint. A check that nests the
// checks of nodes against shapes more than 512 deep fails the validation
// with a *NestingError.
func (s *Shapes) Validate(data *Graph) (*Report, error) {
	b := bind(s, data)
	type job struct {
		sh    *shape
		nodes []id
		out   []result
		rec   bool
		err   *NestingError
		qerr  *QueryError
	}
	var jobs []*job
	v := newValidator(b)
	for _, sh := range s.targeted {
		nodes := v.focusNodes(sh)
		const chunk = 2048
		for i := 0; i < len(nodes); i += chunk {
			jobs = append(jobs, &job{sh: sh, nodes: nodes[i:min(i+chunk, len(nodes))]})
		}
	}
	if v.queryErr != nil {
		return nil, v.queryErr
	}
	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	next := make(chan *job)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := newValidator(b)
			for j := range next {
				for _, n := range j.nodes {
					if failed.Load() {
						break
					}
					if j.err = v.validateFocus(j.sh, n, &j.out); j.err != nil {
						failed.Store(true)
					}
					if v.queryErr != nil {
						j.qerr = v.queryErr
						failed.Store(true)
						break
					}
				}
				j.rec = v.recursive
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	r := &Report{Conforms: true, shapes: s.graph, data: data}
	recursive := false
	for _, j := range jobs {
		if j.err != nil {
			return nil, j.err
		}
		if j.qerr != nil {
			return nil, j.qerr
		}
		for _, res := range j.out {
			r.Results = append(r.Results, v.export(res))
		}
		recursive = recursive || j.rec
	}
	r.Conforms = len(r.Results) == 0
	if recursive {
		r.Warnings = append(r.Warnings, "the shapes are recursive: a node met again while it was being checked against the same shape was taken to conform to it")
	}
	return r, nil
}

// validateFocus checks focus against sh, as validate does, and returns
// the error of a check nested too deep.
func (v *validator) validateFocus(sh *shape, focus id, out *[]result) *NestingError {
	v.focus, v.shape, v.depth, v.err = focus, sh, 0, nil
	v.validate(sh, focus, out)
	return v.err
}

// ValidateNode checks one node against the shape whose node in the shapes
// graph is shape, whatever the shape's targets, and returns the report.
// There is an error when there is no such shape, and a *NestingError as
// for Validate.
func (s *Shapes) ValidateNode(data *Graph, node, shapeNode rdf.Term) (*Report, error) {
	var sh *shape
	for _, x := range s.shapes {
		if x.node == shapeNode {
			sh = x
		}
	}
	if sh == nil {
		return nil, fmt.Errorf("there is no shape %s", termText(shapeNode))
	}
	if err := reachUnsupported([]*shape{sh}); err != nil {
		return nil, err
	}
	v := newValidator(bind(s, data))
	var out []result
	if !sh.deactivated {
		if err := v.validateFocus(sh, v.idOf(node), &out); err != nil {
			return nil, err
		}
		if v.queryErr != nil {
			return nil, v.queryErr
		}
	}
	r := &Report{Conforms: len(out) == 0, shapes: s.graph, data: data}
	for _, res := range out {
		r.Results = append(r.Results, v.export(res))
	}
	return r, nil
}

// FocusNodes returns, for each shape that has targets and is not
// deactivated, its node in the shapes graph and its focus nodes in the
// data graph. The query of a SPARQL-based target that fails is a
// *QueryError naming the shape, never a shape without focus nodes.
func (s *Shapes) FocusNodes(data *Graph) ([]ShapeFocus, error) {
	v := newValidator(bind(s, data))
	var fs []ShapeFocus
	for _, sh := range s.targeted {
		f := ShapeFocus{Shape: sh.node, Property: sh.path != nil}
		for _, n := range v.focusNodes(sh) {
			f.Nodes = append(f.Nodes, v.term(n))
		}
		if v.queryErr != nil {
			return nil, v.queryErr
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// ShapeFocus is a shape and its focus nodes.
type ShapeFocus struct {
	Shape    rdf.Term
	Property bool // a property shape
	Nodes    []rdf.Term
}

// subclasses returns class and every class that is a subclass of it in
// the data graph, through any number of rdfs:subClassOf.
func (v *validator) subclasses(class id) map[id]bool {
	if set, ok := v.classes[class]; ok {
		return set
	}
	set := map[id]bool{class: true}
	queue := []id{class}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, e := range v.g.Subjects(v.subClassOf, c) {
			if !set[e.B] {
				set[e.B] = true
				queue = append(queue, e.B)
			}
		}
	}
	v.classes[class] = set
	return set
}

// isInstance reports whether n is a SHACL instance of class in the data
// graph.
func (v *validator) isInstance(n, class id) bool {
	types := v.g.Objects(n, v.rdfType)
	if len(types) == 0 {
		return false
	}
	subs := v.subclasses(class)
	for _, e := range types {
		if subs[e.B] {
			return true
		}
	}
	return false
}

// focusNodes returns the focus nodes of a shape's targets, each once.
func (v *validator) focusNodes(sh *shape) []id {
	var set nodeSet
	for _, r := range sh.targetNodes {
		set.Add(v.bind[r])
	}
	for _, r := range sh.targetClasses {
		for c := range v.subclasses(v.bind[r]) {
			for _, e := range v.g.Subjects(v.rdfType, c) {
				set.Add(e.B)
			}
		}
	}
	for _, r := range sh.targetSubjectsOf {
		var last id
		for _, e := range v.g.WithPredicate(v.bind[r]) {
			if e.A != last {
				set.Add(e.A)
				last = e.A
			}
		}
	}
	for _, r := range sh.targetObjectsOf {
		for _, e := range v.g.WithPredicate(v.bind[r]) {
			set.Add(e.B)
		}
	}
	v.sparqlFocus(sh, &set)
	return set.Nodes()
}

// valueNodes returns the value nodes of a shape for a focus node.
func (v *validator) valueNodes(sh *shape, focus id) []id {
	if sh.path == nil {
		return []id{focus}
	}
	if r, ok := shgraph.PredicateRef(sh.path); ok {
		es := v.g.Objects(focus, v.bind[r])
		ns := make([]id, len(es))
		for i, e := range es {
			ns[i] = e.B
		}
		return ns
	}
	var set nodeSet
	v.eval(sh.path, focus, false, &set)
	return set.Nodes()
}

// conforms reports whether n conforms to sh. A node met again while it is
// being checked against the same shape (recursive shapes) is taken to
// conform, and what depends on that is not remembered.
func (v *validator) conforms(n id, sh *shape) bool {
	if sh.deactivated {
		return true
	}
	key := uint64(sh.index)<<32 | uint64(n)
	if r, ok := v.memo[key]; ok {
		return r
	}
	before := v.cycles
	r := v.nested(n, sh, func() bool { return v.validate(sh, n, nil) })
	if v.cycles == before && v.err == nil {
		v.memo[key] = r
	}
	return r
}

// nested runs check, the check of n against sh inside another check,
// unless n is being checked against sh already (then n is taken to
// conform, as conforms says) or the checks nested are past maxNesting
// (then v.err is set, and the validation fails). It returns what check
// returns, or true.
func (v *validator) nested(n id, sh *shape, check func() bool) bool {
	key := uint64(sh.index)<<32 | uint64(n)
	switch {
	case v.err != nil:
		return true
	case v.active[key]:
		v.cycles++
		v.recursive = true
		return true
	case v.depth >= maxNesting:
		v.err = &NestingError{Focus: v.term(v.focus), Shape: v.shape.node, At: v.term(n), AtShape: sh.node,
			Limit: maxNesting, shapes: v.s.graph}
		return true
	}
	v.active[key] = true
	v.depth++
	r := check()
	v.depth--
	delete(v.active, key)
	return r
}

// validate checks focus against sh and reports whether it conforms. With
// out, every result is added to it; without, it stops at the first.
func (v *validator) validate(sh *shape, focus id, out *[]result) bool {
	if sh.deactivated {
		return true
	}
	values := v.valueNodes(sh, focus)
	ok := true
	for _, k := range sh.constraints {
		if !v.check(sh, k, focus, values, out) {
			ok = false
			if out == nil {
				return false
			}
		}
	}
	return ok
}

// check evaluates one constraint.
func (v *validator) check(sh *shape, k *constraint, focus id, values []id, out *[]result) bool {
	ok := true
	fail := func(value id) bool {
		ok = false
		if out != nil {
			*out = append(*out, result{focus: focus, value: value, shape: sh, k: k})
		}
		return out != nil // go on only when collecting
	}
	each := func(bad func(n id) bool) bool {
		for _, n := range values {
			if bad(n) && !fail(n) {
				return false
			}
		}
		return ok
	}
	switch k.comp {
	case cClass:
		class := v.bind[k.ref]
		return each(func(n id) bool { return v.term(n).Kind == rdf.Literal || !v.isInstance(n, class) })
	case cDatatype:
		dt := v.s.consts[k.ref].Value
		return each(func(n id) bool {
			t := v.term(n)
			return t.Kind != rdf.Literal || t.Datatype != dt || !xsd.WellFormed(t)
		})
	case cNodeKind:
		return each(func(n id) bool { return k.nodeKD&(1<<v.term(n).Kind) == 0 })
	case cMinCount:
		if len(values) < k.n {
			fail(0)
		}
	case cMaxCount:
		if len(values) > k.n {
			fail(0)
		}
	case cMinExclusive, cMinInclusive, cMaxExclusive, cMaxInclusive:
		return each(func(n id) bool {
			c, cmpOK := xsd.Compare(xsd.ValueOf(v.term(n)), k.bound)
			if !cmpOK {
				return true
			}
			switch k.comp {
			case cMinExclusive:
				return c <= 0
			case cMinInclusive:
				return c < 0
			case cMaxExclusive:
				return c >= 0
			}
			return c > 0
		})
	case cMinLength, cMaxLength:
		return each(func(n id) bool {
			t := v.term(n)
			if t.Kind == rdf.Blank {
				return true
			}
			l := utf8.RuneCountInString(t.Value)
			return k.comp == cMinLength && l < k.n || k.comp == cMaxLength && l > k.n
		})
	case cPattern:
		return each(func(n id) bool {
			t := v.term(n)
			return t.Kind == rdf.Blank || !k.re.MatchString(t.Value)
		})
	case cLanguageIn:
		return each(func(n id) bool {
			t := v.term(n)
			if t.Kind != rdf.Literal || t.Lang == "" {
				return true
			}
			for _, r := range k.langs {
				if langMatches(t.Lang, r) {
					return false
				}
			}
			return true
		})
	case cUniqueLang:
		seen := map[string]int{}
		for _, n := range values {
			if t := v.term(n); t.Kind == rdf.Literal && t.Lang != "" {
				l := strings.ToLower(t.Lang)
				seen[l]++
				if seen[l] == 2 && !fail(0) {
					return false
				}
			}
		}
	case cEquals, cDisjoint, cLessThan, cLessThanOrEquals:
		others := v.g.Objects(focus, v.bind[k.ref])
		switch k.comp {
		case cEquals:
			for _, n := range values {
				if !hasObject(others, n) && !fail(n) {
					return false
				}
			}
			for _, e := range others {
				if !contains(values, e.B) && !fail(e.B) {
					return false
				}
			}
		case cDisjoint:
			return each(func(n id) bool { return hasObject(others, n) })
		default:
			for _, n := range values {
				a := xsd.ValueOf(v.term(n))
				for _, e := range others {
					c, cmpOK := xsd.Compare(a, xsd.ValueOf(v.term(e.B)))
					if (!cmpOK || c > 0 || c == 0 && k.comp == cLessThan) && !fail(n) {
						return false
					}
				}
			}
		}
	case cNot:
		return each(func(n id) bool { return v.conforms(n, k.shapes[0]) })
	case cAnd:
		return each(func(n id) bool {
			for _, s := range k.shapes {
				if !v.conforms(n, s) {
					return true
				}
			}
			return false
		})
	case cOr:
		return each(func(n id) bool {
			for _, s := range k.shapes {
				if v.conforms(n, s) {
					return false
				}
			}
			return true
		})
	case cXone:
		return each(func(n id) bool {
			c := 0
			for _, s := range k.shapes {
				if v.conforms(n, s) {
					c++
				}
			}
			return c != 1
		})
	case cNode:
		return each(func(n id) bool { return !v.conforms(n, k.shapes[0]) })
	case cProperty:
		ps := k.shapes[0]
		for _, n := range values {
			if out == nil {
				if !v.conforms(n, ps) {
					return false
				}
			} else if !v.nested(n, ps, func() bool { return v.validate(ps, n, out) }) {
				ok = false
			}
		}
	case cQualifiedMinCount, cQualifiedMaxCount:
		count := 0
		for _, n := range values {
			if !v.conforms(n, k.shapes[0]) {
				continue
			}
			alone := true
			for _, o := range k.others {
				if v.conforms(n, o) {
					alone = false
					break
				}
			}
			if alone {
				count++
			}
		}
		if k.comp == cQualifiedMinCount && count < k.n || k.comp == cQualifiedMaxCount && count > k.n {
			fail(0)
		}
	case cClosed:
		allowed := v.set(k)
		for _, n := range values {
			for _, e := range v.g.Out(n) {
				if !allowed[e.A] {
					ok = false
					if out == nil {
						return false
					}
					*out = append(*out, result{focus: focus, value: e.B, shape: sh, k: k, pred: e.A})
				}
			}
		}
	case cHasValue:
		if !contains(values, v.bind[k.ref]) {
			fail(0)
		}
	case cIn:
		in := v.set(k)
		return each(func(n id) bool { return !in[n] })
	case cSPARQL:
		return v.checkSPARQL(sh, k, focus, values, out)
	}
	return ok
}

// set returns the ids of a constraint's set of constants.
func (v *validator) set(k *constraint) map[id]bool {
	if s, ok := v.sets[k]; ok {
		return s
	}
	s := make(map[id]bool, len(k.in))
	for r := range k.in {
		s[v.bind[r]] = true
	}
	v.sets[k] = s
	return s
}

func contains(ns []id, n id) bool {
	for _, m := range ns {
		if m == n {
			return true
		}
	}
	return false
}

func hasObject(es []edge, n id) bool {
	for _, e := range es {
		if e.B == n {
			return true
		}
	}
	return false
}

// langMatches is SPARQL's langMatches: basic filtering of RFC 4647.
func langMatches(tag, rng string) bool {
	if rng == "*" {
		return tag != ""
	}
	if len(tag) < len(rng) || !strings.EqualFold(tag[:len(rng)], rng) {
		return false
	}
	return len(tag) == len(rng) || tag[len(rng)] == '-'
}

// export turns a result into its report form.
func (b *binding) export(r result) Result {
	sh := r.shape
	res := Result{
		Focus:     b.term(r.focus),
		Path:      sh.path,
		Shape:     sh.node,
		Component: r.k.comp.IRI(),
		Severity:  sh.severity.Value,
		Messages:  sh.messages,
		Param:     r.k.param,
	}
	if r.value != 0 {
		res.Value = b.term(r.value)
	}
	if r.k.comp == cClosed {
		res.Path = shgraph.NewPredicate(b.term(r.pred).Value, 0)
	}
	if q := r.sparql; q != nil {
		res.Focus, res.Value, res.Path = q.focus, q.value, q.path
		res.Component, res.SourceConstraint = r.k.sq.component, r.k.sq.source
		if len(sh.messages) == 0 || r.k.sq.source != (rdf.Term{}) {
			if len(q.messages) > 0 {
				res.Messages = q.messages
			}
		}
	}
	return res
}
