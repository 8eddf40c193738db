// Package sparql is jrpcld's SPARQL 1.1 engine: queries (SELECT, ASK,
// CONSTRUCT, DESCRIBE) and updates over an in-memory dataset, in-process,
// so that traffic graphs can be queried and the register's SPARQL stages
// run without a triple store beside jrpcld.
//
// It is a thin layer over four packages: syntax parses the text into the
// algebra (package algebra), store holds the dataset, eval evaluates, and
// results writes the answers as SPARQL JSON, XML, CSV or TSV. The W3C
// SPARQL 1.0 and 1.1 test suites run through this package
// (w3c_test.go); docs/sparql.md gives the figures.
//
// The engine never reaches the network: SERVICE is refused, and LOAD
// reads only through the loader its caller gives (Options.Load). A query
// stops with an error past Options.Timeout or Options.MaxSolutions
// solutions held at once.
package sparql

import (
	"context"
	"io"
	"iter"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/eval"
	"github.com/jrpcld/jrpcld/rdf/sparql/results"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

// Dataset is an RDF dataset held in memory: a default graph and named
// graphs. It is safe for concurrent use: a query reads the dataset as it
// was when the query started, while updates go on.
type Dataset struct{ st *store.Store }

// NewDataset returns an empty dataset.
func NewDataset() *Dataset { return &Dataset{st: store.New()} }

// Add adds quads (a quad with the zero graph goes to the default graph).
// A quad RDF does not allow (a literal subject, an empty predicate) is an
// error, and then none of quads is added.
func (d *Dataset) Add(quads ...rdf.Quad) error { return d.st.Add(quads...) }

// Delete removes quads; those the dataset does not hold are ignored.
func (d *Dataset) Delete(quads ...rdf.Quad) error { return d.st.Delete(quads...) }

// Quads returns the dataset's quads as it is now, graph by graph, the
// default graph first.
func (d *Dataset) Quads() iter.Seq[rdf.Quad] { return d.st.Snapshot().Quads }

// Graphs returns the names of the named graphs, an empty one included
// (CREATE GRAPH makes one), in no particular order.
func (d *Dataset) Graphs() []rdf.Term {
	snap := d.st.Snapshot()
	var out []rdf.Term
	for _, g := range snap.NamedGraphs() {
		out = append(out, snap.Term(g))
	}
	return out
}

// Len returns the number of quads.
func (d *Dataset) Len() int {
	snap := d.st.Snapshot()
	n := snap.Graph(store.DefaultGraph).Len()
	for _, g := range snap.NamedGraphs() {
		n += snap.Graph(g).Len()
	}
	return n
}

// ParseQuery parses a SPARQL 1.1 query; base resolves its relative IRIs
// until it sets its own. An error is a *syntax.SyntaxError with the line
// and column.
func ParseQuery(src, base string) (*algebra.Query, error) { return syntax.ParseQuery(src, base) }

// ParseUpdate parses a SPARQL 1.1 update request, as ParseQuery does.
func ParseUpdate(src, base string) (*algebra.Update, error) { return syntax.ParseUpdate(src, base) }

// ParseQueryPrefixed parses a query as ParseQuery does, with prefixes (name
// to IRI) declared before its text, as rdflib declares a graph's prefixes
// for a query on it: a PREFIX of the query overrides one. Line numbers
// count from the query's own first line.
func ParseQueryPrefixed(src, base string, prefixes map[string]string) (*algebra.Query, error) {
	return syntax.ParseQueryPrefixed(src, base, prefixes)
}

// ParseUpdatePrefixed parses an update request as ParseUpdate does, with
// prefixes declared before it, as ParseQueryPrefixed does.
func ParseUpdatePrefixed(src, base string, prefixes map[string]string) (*algebra.Update, error) {
	return syntax.ParseUpdatePrefixed(src, base, prefixes)
}

// Options tune a query or update. The zero value is a good default.
type Options struct {
	// Timeout stops the evaluation past this duration (0: none beyond the
	// context's).
	Timeout time.Duration
	// MaxSolutions bounds the solutions held at once; 0 means
	// eval.DefaultMaxSolutions, negative no bound.
	MaxSolutions int
	// DefaultGraphUnion makes the default graph the union of all graphs
	// when the query names no dataset (FROM, FROM NAMED).
	DefaultGraphUnion bool
	// Now is NOW()'s value; the zero Time means when the query starts.
	Now time.Time
	// Load reads the graph an update's LOAD names; nil refuses LOAD. Give
	// one that reads only the local files the user named.
	Load func(iri string) ([]rdf.Triple, error)
	// Bindings pre-binds variables of a query by name (without '?'), as
	// SHACL-SPARQL pre-binds $this: each value is substituted wherever its
	// variable occurs, as EXISTS substitutes (a subquery sees only the
	// variables it projects), and every solution binds it.
	Bindings map[string]rdf.Term
}

func (o Options) eval() eval.Options {
	return eval.Options{MaxSolutions: o.MaxSolutions, DefaultGraphUnion: o.DefaultGraphUnion, Now: o.Now, Load: o.Load,
		Bindings: o.Bindings}
}

// Form is a query's form: Select, Construct, Ask or Describe.
type Form = algebra.Form

// The query forms.
const (
	Select    = algebra.Select
	Construct = algebra.Construct
	Ask       = algebra.Ask
	Describe  = algebra.Describe
)

// Result is a query's answer. A SELECT's solutions are computed as
// Solutions is read, once; Bool is an ASK's answer; Graph is what a
// CONSTRUCT or DESCRIBE builds, each triple once.
type Result struct {
	Form  Form
	Vars  []string // a SELECT's variables, in order
	Bool  bool
	Graph []rdf.Triple

	res    *eval.Result
	cancel context.CancelFunc
	err    error
}

// Query evaluates q on the dataset. The dataset's graphs are those FROM
// and FROM NAMED name, when q has them (a graph the dataset lacks is
// empty); else the default graph (or all, with DefaultGraphUnion) and all
// named graphs.
func (d *Dataset) Query(ctx context.Context, q *algebra.Query, opts Options) (*Result, error) {
	cancel := context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	res, err := eval.Query(ctx, d.st.Snapshot(), q, opts.eval())
	if err != nil {
		cancel()
		return nil, err
	}
	r := &Result{Form: q.Form, Vars: res.Vars, Bool: res.Bool, Graph: res.Triples, res: res, cancel: cancel}
	if q.Form != Select {
		cancel()
	}
	return r, nil
}

// Solutions returns a SELECT's solutions: each a term per variable of
// Vars, the zero Term where unbound, valid until the next one (copy it to
// keep it). After the loop, Err tells whether the evaluation failed.
func (r *Result) Solutions() iter.Seq[[]rdf.Term] {
	return func(yield func([]rdf.Term) bool) {
		defer r.cancel()
		if r.res == nil || r.err != nil {
			return
		}
		r.err = r.res.Each(yield)
	}
}

// Err returns the error that stopped Solutions, or nil.
func (r *Result) Err() error { return r.err }

// Close releases a SELECT result whose solutions are not read to the end
// (it stops its timeout's timer).
func (r *Result) Close() { r.cancel() }

// Write writes a SELECT's solutions, or an ASK's answer, in the results
// format f. For CONSTRUCT and DESCRIBE use an RDF writer on Graph.
func (r *Result) Write(w io.Writer, f results.Format) error {
	switch r.Form {
	case Ask:
		return results.WriteBoolean(w, f, r.Bool)
	case Select:
		rw, err := results.NewWriter(w, f, r.Vars)
		if err != nil {
			return err
		}
		for sol := range r.Solutions() {
			if err = rw.Write(sol); err != nil {
				r.Close()
				return err
			}
		}
		if r.err != nil {
			return r.err
		}
		return rw.Close()
	}
	return &eval.RefusedError{What: "writing a graph as query results", Why: "CONSTRUCT and DESCRIBE give a graph: write Graph with an RDF writer"}
}

// Update applies the update request u to the dataset, operation by
// operation; it stops at the first that fails (the ones before it stay
// applied).
func (d *Dataset) Update(ctx context.Context, u *algebra.Update, opts Options) error {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	return eval.Update(ctx, d.st, u, opts.eval())
}
