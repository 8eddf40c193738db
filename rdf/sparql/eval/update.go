package eval

import (
	"context"
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// Update applies the operations of u to st in order, each seeing what the
// ones before it did. The first that fails stops the request with its
// error (the ones before it stay applied); SILENT makes an operation's
// failure no error.
func Update(ctx context.Context, st *store.Store, u *algebra.Update, opts Options) error {
	for i, op := range u.Ops {
		if err := ctx.Err(); err != nil {
			return &CanceledError{Err: err}
		}
		if err := updateOp(ctx, st, op, u.Base, opts); err != nil {
			if len(u.Ops) > 1 {
				return fmt.Errorf("operation %d of %d: %w", i+1, len(u.Ops), err)
			}
			return err
		}
	}
	return nil
}

func updateOp(ctx context.Context, st *store.Store, op algebra.UpdateOp, base string, opts Options) error {
	switch o := op.(type) {
	case algebra.InsertData:
		e := newEvaluator(ctx, st.Snapshot(), opts)
		blanks := map[string]rdf.Term{}
		quads := make([]rdf.Quad, len(o.Quads))
		for i, q := range o.Quads {
			quads[i] = q
			quads[i].S = e.freshFor(q.S, blanks)
			quads[i].O = e.freshFor(q.O, blanks)
		}
		return st.Add(quads...)
	case algebra.DeleteData:
		return st.Delete(o.Quads...)
	case algebra.Modify:
		return modify(ctx, st, o, base, opts)
	case algebra.Load:
		return load(st, o, opts)
	case algebra.Clear:
		return clearOrDrop(st, "CLEAR", o.Target, o.Silent, false)
	case algebra.Drop:
		return clearOrDrop(st, "DROP", o.Target, o.Silent, true)
	case algebra.Create:
		created, err := st.CreateGraph(rdf.NewIRI(o.Graph))
		switch {
		case err != nil:
			return err
		case !created && !o.Silent:
			return &UpdateError{Op: "CREATE", Msg: "the graph <" + o.Graph + "> exists already"}
		}
		return nil
	case algebra.Transfer:
		return transfer(st, o)
	}
	return &RefusedError{What: fmt.Sprintf("the update operation %T", op), Why: "the evaluator does not know it"}
}

// freshFor returns t, or for a blank node the fresh one standing for its
// label in blanks.
func (e *evaluator) freshFor(t rdf.Term, blanks map[string]rdf.Term) rdf.Term {
	if t.Kind != rdf.Blank {
		return t
	}
	b, ok := blanks[t.Value]
	if !ok {
		b = e.freshBlank()
		e.id(b) // so that the next fresh one differs
		blanks[t.Value] = b
	}
	return b
}

// modify is DELETE/INSERT WHERE: the pattern matched once, then every
// deletion its solutions give made, then every insertion.
func modify(ctx context.Context, st *store.Store, m algebra.Modify, base string, opts Options) error {
	e := newEvaluator(ctx, st.Snapshot(), opts)
	e.env.Base = base
	e.collectVars(m.Where)
	for _, qs := range [][]algebra.QuadPattern{m.Delete, m.Insert} {
		for _, qp := range qs {
			for _, n := range []algebra.Node{qp.S, qp.P, qp.O, qp.Graph} {
				if n.IsVar() {
					e.slot(n.Var)
				}
			}
		}
	}
	e.buildDataset(m.Using, m.UsingNamed, m.With)
	var del, ins []rdf.Quad
	defer func() { e.release(len(del) + len(ins)) }()
	e.eval(m.Where, e.ds.dflt, nil)(func(r row) bool {
		for _, qp := range m.Delete {
			if q, ok := e.quad(qp, r, nil, m.With); ok {
				if !e.hold(1) {
					return false
				}
				del = append(del, q)
			}
		}
		blanks := map[string]rdf.Term{}
		for _, qp := range m.Insert {
			if q, ok := e.quad(qp, r, blanks, m.With); ok {
				if !e.hold(1) {
					return false
				}
				ins = append(ins, q)
			}
		}
		return e.tick()
	})
	if e.err != nil {
		return e.err
	}
	if err := st.Delete(del...); err != nil {
		return err
	}
	return st.Add(ins...)
}

// quad instantiates a template quad with r, fresh blank nodes through
// blanks; ok is false when a variable is unbound or a term is where RDF
// allows none. A quad pattern without GRAPH goes to the graph with (the
// default graph when with is "").
func (e *evaluator) quad(qp algebra.QuadPattern, r row, blanks map[string]rdf.Term, with string) (rdf.Quad, bool) {
	t, ok := triple(e.instantiate(qp.S, r, blanks), e.instantiate(qp.P, r, blanks), e.instantiate(qp.O, r, blanks))
	if !ok {
		return rdf.Quad{}, false
	}
	q := rdf.Quad{Triple: t}
	switch {
	case qp.Graph.IsVar() || qp.Graph.Term != (rdf.Term{}):
		q.G = e.instantiate(qp.Graph, r, blanks)
		if q.G.Kind != rdf.IRI || q.G.Value == "" {
			return rdf.Quad{}, false
		}
	case with != "":
		q.G = rdf.NewIRI(with)
	}
	return q, true
}

// load is LOAD: only through Options.Load, which the caller gives to read
// the local files it allows.
func load(st *store.Store, o algebra.Load, opts Options) error {
	if opts.Load == nil {
		if o.Silent {
			return nil
		}
		return &RefusedError{What: "LOAD <" + o.Source + ">", Why: "no loader was given (jrpcld reads only the local files its caller allows, never the network)"}
	}
	triples, err := opts.Load(o.Source)
	if err != nil {
		if o.Silent {
			return nil
		}
		return &UpdateError{Op: "LOAD", Msg: fmt.Sprintf("<%s>: %v", o.Source, err)}
	}
	quads := make([]rdf.Quad, len(triples))
	for i, t := range triples {
		quads[i].Triple = t
		if o.Into != "" {
			quads[i].G = rdf.NewIRI(o.Into)
		}
	}
	if o.Into != "" {
		if _, err := st.CreateGraph(rdf.NewIRI(o.Into)); err != nil {
			return err
		}
	}
	return st.Add(quads...)
}

// graphNames returns the graphs a target names: a named graph by IRI
// (with whether it exists), the default graph (the zero Term), every named
// graph, or all.
func graphNames(snap *store.Snapshot, t algebra.GraphTarget) (names []rdf.Term, exists bool) {
	switch {
	case t.IRI != "":
		id, ok := snap.Lookup(rdf.NewIRI(t.IRI))
		return []rdf.Term{rdf.NewIRI(t.IRI)}, ok && id != store.DefaultGraph && snap.Graph(id) != nil
	case t.Default:
		return []rdf.Term{{}}, true
	}
	if t.All {
		names = append(names, rdf.Term{})
	}
	for _, g := range snap.NamedGraphs() {
		names = append(names, snap.Term(g))
	}
	return names, true
}

func clearOrDrop(st *store.Store, op string, t algebra.GraphTarget, silent, drop bool) error {
	names, exists := graphNames(st.Snapshot(), t)
	if !exists {
		if silent {
			return nil
		}
		return &UpdateError{Op: op, Msg: "there is no graph <" + t.IRI + ">"}
	}
	for _, n := range names {
		if drop {
			st.DropGraph(n)
		} else {
			st.ClearGraph(n)
		}
	}
	return nil
}

// transfer is ADD, MOVE and COPY.
func transfer(st *store.Store, o algebra.Transfer) error {
	snap := st.Snapshot()
	from, exists := graphNames(snap, o.From)
	if !exists {
		if o.Silent {
			return nil
		}
		return &UpdateError{Op: o.Kind, Msg: "there is no graph <" + o.From.IRI + ">"}
	}
	to, _ := graphNames(snap, o.To)
	if from[0] == to[0] {
		return nil
	}
	var triples []rdf.Triple
	if id, ok := snap.Lookup(from[0]); ok || from[0] == (rdf.Term{}) {
		rg := snap.Graph(id).Match(0, 0, 0)
		for i := range rg.Len() {
			s, p, o := rg.At(i)
			triples = append(triples, rdf.Triple{S: snap.Term(s), P: snap.Term(p).Value, O: snap.Term(o)})
		}
	}
	if o.Kind != "ADD" {
		st.ClearGraph(to[0])
	}
	if to[0] != (rdf.Term{}) {
		if _, err := st.CreateGraph(to[0]); err != nil {
			return err
		}
	}
	quads := make([]rdf.Quad, len(triples))
	for i, t := range triples {
		quads[i] = rdf.Quad{Triple: t, G: to[0]}
	}
	if err := st.Add(quads...); err != nil {
		return err
	}
	if o.Kind == "MOVE" {
		st.DropGraph(from[0])
	}
	return nil
}
