package eval

import (
	"context"
	"slices"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// Result is a query's answer: Vars and the solutions (Each) of a SELECT,
// Bool of an ASK, Triples of a CONSTRUCT or DESCRIBE.
type Result struct {
	Form    algebra.Form
	Vars    []string
	Bool    bool
	Triples []rdf.Triple

	e     *evaluator
	op    algebra.Op
	slots []int
	used  bool
}

// Query evaluates q on snap. A SELECT's solutions are computed as Each
// reads them; the other forms are computed before Query returns.
func Query(ctx context.Context, snap *store.Snapshot, q *algebra.Query, opts Options) (*Result, error) {
	e := newEvaluator(ctx, snap, opts)
	e.env.Base = q.Base
	e.collectVars(q.Op)
	for _, tp := range q.Template {
		for _, n := range []algebra.Node{tp.S, tp.P, tp.O} {
			if n.IsVar() {
				e.slot(n.Var)
			}
		}
	}
	for _, n := range q.DescribeNodes {
		if n.IsVar() {
			e.slot(n.Var)
		}
	}
	e.buildDataset(q.From, q.FromNamed, "")
	vars := projection(q.Op)
	if e.seedBindings() {
		// The query's own projection keeps the pre-bound variables in
		// scope: only a subquery's hides them.
		bq := *q
		bq.Op = keepBound(q.Op, opts.Bindings)
		q = &bq
	}
	res := &Result{Form: q.Form, e: e, op: q.Op}
	switch q.Form {
	case algebra.Select:
		res.Vars = vars
		res.slots = make([]int, len(res.Vars))
		for i, v := range res.Vars {
			res.slots[i] = e.slot(v)
		}
		return res, nil
	case algebra.Ask:
		e.eval(q.Op, e.ds.dflt, e.seed)(func(row) bool { res.Bool = true; return false })
	case algebra.Construct:
		res.Triples = e.construct(q)
	case algebra.Describe:
		res.Triples = e.describe(q)
	}
	if e.err != nil {
		return nil, e.err
	}
	return res, nil
}

// Each calls fn with each solution of a SELECT, a term per variable of
// Vars (the zero Term when unbound), until fn returns false; the slice is
// reused between calls. It returns the error that stopped the evaluation.
// The solutions can be read once.
func (r *Result) Each(fn func([]rdf.Term) bool) error {
	if r.Form != algebra.Select {
		return nil
	}
	if r.used {
		return &RefusedError{What: "reading the solutions twice", Why: "they are computed as they are read"}
	}
	r.used = true
	e := r.e
	out := make([]rdf.Term, len(r.slots))
	e.eval(r.op, e.ds.dflt, e.seed)(func(w row) bool {
		for i, s := range r.slots {
			out[i] = e.term(w[s])
		}
		return fn(out)
	})
	return e.err
}

// seedBindings makes the row of Options.Bindings, the seed a query is
// evaluated from, and reports whether there is one. Every slot is made
// before it.
func (e *evaluator) seedBindings() bool {
	if len(e.opts.Bindings) == 0 {
		return false
	}
	for name := range e.opts.Bindings {
		e.slot(name)
	}
	e.seed = e.newRow()
	for name, t := range e.opts.Bindings {
		if t != (rdf.Term{}) {
			e.seed[e.slot(name)] = e.id(t)
		}
	}
	return true
}

// keepBound returns op with the pre-bound variables added to its
// outermost projection (under the solution modifiers), which would
// otherwise keep them out of the pattern as a subquery's does.
func keepBound(op algebra.Op, bound map[string]rdf.Term) algebra.Op {
	switch o := op.(type) {
	case algebra.Slice:
		o.Sub = keepBound(o.Sub, bound)
		return o
	case algebra.Distinct:
		return algebra.Distinct{Sub: keepBound(o.Sub, bound)}
	case algebra.Reduced:
		return algebra.Reduced{Sub: keepBound(o.Sub, bound)}
	case algebra.OrderBy:
		o.Sub = keepBound(o.Sub, bound)
		return o
	case algebra.Project:
		vars := slices.Clone(o.Vars)
		for name := range bound {
			if !slices.Contains(vars, name) {
				vars = append(vars, name)
			}
		}
		return algebra.Project{Sub: o.Sub, Vars: vars}
	}
	return op
}

// projection returns the variables a SELECT's operator projects: its
// outermost Project's.
func projection(op algebra.Op) []string {
	op = algebra.Unmodified(op)
	if p, ok := op.(algebra.Project); ok {
		return p.Vars
	}
	return algebra.InScope(op)
}

// instantiate returns the term n stands for in solution r: a variable's
// value, a blank node of the template renamed fresh for r (through
// blanks), or the term; the zero Term when a variable is unbound.
func (e *evaluator) instantiate(n algebra.Node, r row, blanks map[string]rdf.Term) rdf.Term {
	switch {
	case n.IsVar():
		if s, ok := e.slots[n.Var]; ok && r[s] != 0 {
			return e.term(r[s])
		}
		return rdf.Term{}
	case n.Term.Kind == rdf.Blank:
		b, ok := blanks[n.Term.Value]
		if !ok {
			b = e.freshBlank()
			blanks[n.Term.Value] = b
		}
		return b
	}
	return n.Term
}

// triple returns the triple (s, p, o) and whether RDF allows it: a subject
// that is an IRI or a blank node, an IRI predicate, an object.
func triple(s, p, o rdf.Term) (rdf.Triple, bool) {
	ok := (s.Kind == rdf.IRI || s.Kind == rdf.Blank) && s.Value != "" &&
		p.Kind == rdf.IRI && p.Value != "" && o != (rdf.Term{})
	return rdf.Triple{S: s, P: p.Value, O: o}, ok
}

// construct instantiates q's template with each solution, leaving out the
// triples with an unbound variable or a term where RDF allows none, each
// triple once.
func (e *evaluator) construct(q *algebra.Query) []rdf.Triple {
	seen := map[rdf.Triple]bool{}
	defer func() { e.release(len(seen)) }()
	var out []rdf.Triple
	e.eval(q.Op, e.ds.dflt, e.seed)(func(r row) bool {
		blanks := map[string]rdf.Term{}
		for _, tp := range q.Template {
			t, ok := triple(e.instantiate(tp.S, r, blanks), e.instantiate(tp.P, r, blanks), e.instantiate(tp.O, r, blanks))
			if !ok || seen[t] {
				continue
			}
			if !e.hold(1) {
				return false
			}
			seen[t] = true
			out = append(out, t)
		}
		return e.tick()
	})
	return out
}

// describe returns the concise bounded description, in the default graph,
// of each resource DESCRIBE names or its pattern binds: the triples whose
// subject it is and, recursively, those of each blank node object.
func (e *evaluator) describe(q *algebra.Query) []rdf.Triple {
	var ids []store.ID
	seen := map[store.ID]bool{}
	add := func(id store.ID) {
		if id != 0 && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	var varSlots []int
	for _, n := range q.DescribeNodes {
		if n.IsVar() {
			varSlots = append(varSlots, e.slot(n.Var))
		} else {
			add(e.id(n.Term))
		}
	}
	if q.DescribeAll || len(varSlots) > 0 {
		if q.DescribeAll {
			for _, v := range projection(q.Op) {
				varSlots = append(varSlots, e.slot(v))
			}
		}
		e.eval(q.Op, e.ds.dflt, e.seed)(func(r row) bool {
			for _, s := range varSlots {
				add(r[s])
			}
			return e.tick()
		})
	}
	var out []rdf.Triple
	done := map[store.ID]bool{}
	for len(ids) > 0 {
		s := ids[0]
		ids = ids[1:]
		if done[s] {
			continue
		}
		done[s] = true
		e.scan(e.ds.dflt, s, 0, 0, func(ts, tp, to store.ID) bool {
			out = append(out, rdf.Triple{S: e.term(ts), P: e.term(tp).Value, O: e.term(to)})
			if e.term(to).Kind == rdf.Blank && !done[to] {
				ids = append(ids, to)
			}
			return true
		})
		if e.err != nil {
			return nil
		}
	}
	return out
}
