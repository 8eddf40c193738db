package sparql_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/eval"
	"github.com/jrpcld/jrpcld/rdf/sparql/results"
)

var (
	isomorphic      = rdftest.Isomorphic
	isomorphicQuads = rdftest.IsomorphicQuads
)

const prefixes = "PREFIX : <http://ex/>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"

// load returns a dataset holding the N-Quads text nq, where ":" stands
// for http://ex/.
func load(t *testing.T, nq string) *sparql.Dataset {
	t.Helper()
	nq = strings.NewReplacer("<:", "<http://ex/").Replace(nq)
	qs, _, err := rdf.Parse([]byte(nq), rdf.NQuads, "")
	if err != nil {
		t.Fatal(err)
	}
	d := sparql.NewDataset()
	if err := d.Add(qs...); err != nil {
		t.Fatal(err)
	}
	return d
}

// selectRows runs a SELECT and returns its solutions as sorted lines
// "var=term ..." (unbound variables left out), http://ex/ written ":".
func selectRows(t *testing.T, d *sparql.Dataset, query string, opts sparql.Options) ([]string, error) {
	t.Helper()
	q, err := sparql.ParseQuery(prefixes+query, "http://ex/")
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	res, err := d.Query(context.Background(), q, opts)
	if err != nil {
		return nil, err
	}
	var out []string
	for sol := range res.Solutions() {
		var parts []string
		for i, v := range res.Vars {
			if sol[i] != (rdf.Term{}) {
				parts = append(parts, v+"="+strings.ReplaceAll(sol[i].String(), "<http://ex/", "<:"))
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	slices.Sort(out)
	return out, res.Err()
}

// bound returns Options pre-binding one variable to an IRI of http://ex/
// (":name").
func bound(name, iri string) sparql.Options {
	return sparql.Options{Bindings: map[string]rdf.Term{name: rdf.NewIRI("http://ex/" + strings.TrimPrefix(iri, ":"))}}
}

const pathData = `
<:a> <:p> <:b> .
<:b> <:p> <:c> .
<:c> <:p> <:a> .
<:a> <:q> <:x> .
<:a> <:q> <:y> .
<:x> <:r> <:z> .
<:y> <:r> <:z> .
<:a> <:v> "01"^^<http://www.w3.org/2001/XMLSchema#integer> .
<:g1s> <:p> <:o1> <:g1> .
<:g2s> <:p> <:o2> <:g2> .
`

// TestSelect checks what the W3C suites leave open or do not reach, each
// expected set worked out by hand from the data above and the
// specification's definitions.
func TestSelect(t *testing.T) {
	tests := []struct {
		name, query string
		opts        sparql.Options
		want        []string
	}{
		{"sequence keeps duplicates", "SELECT ?z { :a :q/:r ?z }", sparql.Options{},
			[]string{"z=<:z>", "z=<:z>"}},
		{"closure gives each end once", "SELECT ?z { :a (:q/:r)* ?z }", sparql.Options{},
			[]string{"z=<:a>", "z=<:z>"}},
		{"one or more around a cycle", "SELECT ?y { :a :p+ ?y }", sparql.Options{},
			[]string{"y=<:a>", "y=<:b>", "y=<:c>"}},
		{"zero length from a term the graph lacks", "SELECT ?y { :nowhere :p* ?y }", sparql.Options{},
			[]string{"y=<:nowhere>"}},
		{"both ends free: every node to itself", "SELECT ?x { ?x :nothing* ?x }", sparql.Options{},
			[]string{"x=\"01\"^^<http://www.w3.org/2001/XMLSchema#integer>", "x=<:a>", "x=<:b>", "x=<:c>", "x=<:x>", "x=<:y>", "x=<:z>"}},
		{"inverse path", "SELECT ?s { ?s ^:p :c }", sparql.Options{}, []string{"s=<:a>"}},
		{"inverse path bound at the other end", "SELECT ?o { :c ^:p ?o }", sparql.Options{}, []string{"o=<:b>"}},
		{"negated property set", "SELECT ?o { :a !(:p|:q) ?o }", sparql.Options{},
			[]string{"o=\"01\"^^<http://www.w3.org/2001/XMLSchema#integer>"}},
		{"lexical form kept", "SELECT ?v ?w { :a :v ?v BIND(?v AS ?w) }", sparql.Options{},
			[]string{"v=\"01\"^^<http://www.w3.org/2001/XMLSchema#integer> w=\"01\"^^<http://www.w3.org/2001/XMLSchema#integer>"}},
		{"default graph alone", "SELECT ?s { ?s :p ?o FILTER(?o IN (:o1, :o2)) }", sparql.Options{}, nil},
		{"default graph union", "SELECT ?s { ?s :p ?o FILTER(?o IN (:o1, :o2)) }", sparql.Options{DefaultGraphUnion: true},
			[]string{"s=<:g1s>", "s=<:g2s>"}},
		{"FROM picks the default graph", "SELECT ?s FROM :g2 { ?s ?p ?o }", sparql.Options{}, []string{"s=<:g2s>"}},
		{"FROM NAMED picks the named graphs", "SELECT ?g ?s FROM NAMED :g1 { GRAPH ?g { ?s ?p ?o } }", sparql.Options{},
			[]string{"g=<:g1> s=<:g1s>"}},
		{"FROM of a graph the dataset lacks", "SELECT ?s FROM :none { ?s ?p ?o }", sparql.Options{}, nil},
		{"GRAPH of a graph outside FROM NAMED", "SELECT ?s FROM NAMED :g1 { GRAPH :g2 { ?s ?p ?o } }", sparql.Options{}, nil},
		{"LIMIT stops a cross product", "SELECT ?a ?b { ?a ?p ?b . ?c ?q ?d } LIMIT 2", sparql.Options{},
			nil /* checked by count below */},
		{"SERVICE SILENT is the empty solution", "SELECT ?x { BIND(1 AS ?x) SERVICE SILENT <http://remote/> { ?s ?p ?o } }", sparql.Options{},
			[]string{"x=\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>"}},
		{"EXISTS sees the solution", "SELECT ?y { :a :q ?y FILTER EXISTS { ?y :r :z } }", sparql.Options{},
			[]string{"y=<:x>", "y=<:y>"}},
		{"MINUS without shared variables removes nothing", "SELECT ?y { :a :q ?y MINUS { ?s ?p ?o } }", sparql.Options{},
			[]string{"y=<:x>", "y=<:y>"}},
		{"subquery hides its other variables", "SELECT ?y ?o { :a :q ?y { SELECT ?o { :x :r ?o } } }", sparql.Options{},
			[]string{"y=<:x> o=<:z>", "y=<:y> o=<:z>"}},
		{"VALUES with UNDEF joins", "SELECT ?y ?k { :a :q ?y VALUES (?y ?k) { (UNDEF 1) (:x 2) } }", sparql.Options{},
			[]string{"y=<:x> k=\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>", "y=<:x> k=\"2\"^^<http://www.w3.org/2001/XMLSchema#integer>",
				"y=<:y> k=\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>"}},
		// Pre-binding substitutes the value wherever the variable occurs,
		// so that filters of inner groups see it (a join with the binding
		// would leave them unbound).
		{"pre-bound in a filter of a union branch", "SELECT ?this { { FILTER(false) } UNION { FILTER(?this = :a) } }", bound("this", ":a"),
			[]string{"this=<:a>"}},
		{"pre-bound elsewhere: no solution", "SELECT ?this { FILTER(?this = :a) }", bound("this", ":b"), nil},
		{"pre-bound in BIND", "SELECT ?that { BIND(?this AS ?that) }", bound("this", ":a"), []string{"that=<:a>"}},
		{"pre-bound in a pattern", "SELECT ?this ?y { ?this :q ?y }", bound("this", ":a"),
			[]string{"this=<:a> y=<:x>", "this=<:a> y=<:y>"}},
		{"pre-bound and not matched", "SELECT ?y { ?this :q ?y }", bound("this", ":b"), nil},
		{"pre-bound in a subquery that projects it", "SELECT ?this { { SELECT ?this { FILTER(?this = :a) } } }", bound("this", ":a"),
			[]string{"this=<:a>"}},
		{"not pre-bound in a subquery that hides it", "SELECT ?this { { SELECT ?x { FILTER(bound(?this)) } } }", bound("this", ":a"),
			nil},
		{"pre-bound variable the query does not name", "SELECT * { :a :v ?v }", bound("other", ":a"),
			[]string{"v=\"01\"^^<http://www.w3.org/2001/XMLSchema#integer>"}},
	}
	d := load(t, pathData)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := selectRows(t, d, tc.query, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "LIMIT stops a cross product" {
				if len(got) != 2 {
					t.Errorf("got %d solutions, want 2", len(got))
				}
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestConstructAndDescribe(t *testing.T) {
	d := load(t, `
<:a> <:p> _:b1 .
_:b1 <:q> _:b2 .
_:b2 <:r> "deep" .
<:a> <:s> "lit" .
<:c> <:p> <:a> .
`)
	tests := []struct {
		name, query string
		want        string // N-Triples, blank nodes up to renaming
	}{
		{"describe is the concise bounded description", "DESCRIBE :a",
			"<http://ex/a> <http://ex/p> _:x .\n_:x <http://ex/q> _:y .\n_:y <http://ex/r> \"deep\" .\n<http://ex/a> <http://ex/s> \"lit\" .\n"},
		{"describe a variable", "DESCRIBE ?s { ?s :p :a }", ""},
		{"construct drops triples RDF does not allow", "CONSTRUCT { ?o :from ?s . ?s :to ?o } WHERE { :a :s ?o . ?x :p ?s FILTER(isIRI(?s)) }",
			"<http://ex/a> <http://ex/to> \"lit\" .\n"},
		{"construct makes fresh blank nodes per solution", "CONSTRUCT { [] :about ?s } WHERE { ?s :p ?o }",
			"_:n1 <http://ex/about> <http://ex/a> .\n_:n2 <http://ex/about> <http://ex/c> .\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := sparql.ParseQuery(prefixes+tc.query, "")
			if err != nil {
				t.Fatal(err)
			}
			res, err := d.Query(context.Background(), q, sparql.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := rdf.Parse([]byte(tc.want), rdf.NTriples, "")
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "describe a variable" {
				// ?s is :c, whose description is its one triple.
				want = []rdf.Quad{{Triple: rdf.T(rdf.NewIRI("http://ex/c"), "http://ex/p", rdf.NewIRI("http://ex/a"))}}
			}
			var wt []rdf.Triple
			for _, q := range want {
				wt = append(wt, q.Triple)
			}
			if ok, diff := isomorphic(res.Graph, wt); !ok {
				t.Errorf("%s\ngot %v", diff, res.Graph)
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	loader := func(iri string) ([]rdf.Triple, error) {
		if iri != "http://ex/file.ttl" {
			return nil, errors.New("not allowed")
		}
		return []rdf.Triple{rdf.T(rdf.NewIRI("http://ex/l"), "http://ex/p", rdf.NewLiteral("loaded", ""))}, nil
	}
	tests := []struct {
		name, update string
		opts         sparql.Options
		want         string // N-Quads of the dataset after
		err          any    // the error type expected, nil for none
	}{
		{"LOAD through the loader", "LOAD :file.ttl INTO GRAPH :g", sparql.Options{Load: loader},
			"<http://ex/l> <http://ex/p> \"loaded\" <http://ex/g> .\n", nil},
		{"LOAD refused without a loader", "LOAD :file.ttl", sparql.Options{}, "", new(*eval.RefusedError)},
		{"LOAD SILENT without a loader", "LOAD SILENT :file.ttl", sparql.Options{}, "", nil},
		{"LOAD the loader refuses", "LOAD :other.ttl", sparql.Options{Load: loader}, "", new(*eval.UpdateError)},
		{"CREATE of an existing graph", "CREATE GRAPH :g ; CREATE GRAPH :g", sparql.Options{}, "", new(*eval.UpdateError)},
		{"DROP of a missing graph", "DROP GRAPH :none", sparql.Options{}, "", new(*eval.UpdateError)},
		{"operations see the ones before", "INSERT DATA { :s :p 1 } ; INSERT { ?s :q 2 } WHERE { ?s :p 1 }", sparql.Options{},
			"<http://ex/s> <http://ex/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n<http://ex/s> <http://ex/q> \"2\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n", nil},
		{"WITH is the graph of the templates and the pattern", "INSERT DATA { GRAPH :g { :s :p 1 } } ; WITH :g DELETE { ?s :p ?o } INSERT { ?s :r ?o } WHERE { ?s :p ?o }", sparql.Options{},
			"<http://ex/s> <http://ex/r> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> <http://ex/g> .\n", nil},
		{"INSERT DATA blank nodes are fresh each time", "INSERT DATA { _:b :p 1 . _:b :q 2 }", sparql.Options{},
			"_:x <http://ex/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n_:x <http://ex/q> \"2\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n" +
				"_:y <http://ex/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n_:y <http://ex/q> \"2\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := sparql.NewDataset()
			u, err := sparql.ParseUpdate(prefixes+tc.update, "")
			if err != nil {
				t.Fatal(err)
			}
			err = d.Update(context.Background(), u, tc.opts)
			if err == nil && strings.HasSuffix(tc.name, "each time") {
				err = d.Update(context.Background(), u, tc.opts)
			}
			if tc.err != nil {
				if err == nil || !errors.As(err, tc.err) {
					t.Fatalf("got error %v, want a %T", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := rdf.Parse([]byte(tc.want), rdf.NQuads, "")
			if err != nil {
				t.Fatal(err)
			}
			if ok, diff := isomorphicQuads(slices.Collect(d.Quads()), want); !ok {
				t.Error(diff)
			}
		})
	}
}

// TestLimits checks that a query past MaxSolutions or its timeout stops
// with the error that says so.
func TestLimits(t *testing.T) {
	var nq strings.Builder
	for i := range 300 {
		fmt.Fprintf(&nq, "<:s%d> <:p> <:o%d> .\n", i, i)
	}
	d := load(t, nq.String())
	q := "SELECT * { ?a :p ?b . ?c :p ?d . ?e :p ?f } ORDER BY ?a"

	_, err := selectRows(t, d, q, sparql.Options{MaxSolutions: 1000})
	var le *eval.LimitError
	if !errors.As(err, &le) || le.Max != 1000 {
		t.Errorf("MaxSolutions 1000: got %v, want a *LimitError", err)
	}

	start := time.Now()
	count := "SELECT (COUNT(*) AS ?n) { ?a :p ?b . ?c :p ?d . ?e :p ?f }"
	_, err = selectRows(t, d, count, sparql.Options{Timeout: 50 * time.Millisecond})
	var ce *eval.CanceledError
	if !errors.As(err, &ce) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Timeout: got %v, want a *CanceledError for the deadline", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("the timeout of 50ms stopped the query after %v", el)
	}

	_, err = selectRows(t, d, "SELECT * { SERVICE <http://remote/> { ?s ?p ?o } }", sparql.Options{})
	var re *eval.RefusedError
	if !errors.As(err, &re) {
		t.Errorf("SERVICE: got %v, want a *RefusedError", err)
	}
}

func TestWrite(t *testing.T) {
	d := load(t, pathData)
	tests := []struct {
		query string
		f     results.Format
		want  string
	}{
		{"SELECT ?y { :a :q ?y } ORDER BY ?y", results.CSV, "y\r\nhttp://ex/x\r\nhttp://ex/y\r\n"},
		{"SELECT ?y { :a :q ?y } ORDER BY DESC(?y)", results.TSV, "?y\n<http://ex/y>\n<http://ex/x>\n"},
		{"ASK { :a :q :x }", results.JSON, "{\"head\":{},\"boolean\":true}\n"},
	}
	for _, tc := range tests {
		q, err := sparql.ParseQuery(prefixes+tc.query, "")
		if err != nil {
			t.Fatal(err)
		}
		res, err := d.Query(context.Background(), q, sparql.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := res.Write(&buf, tc.f); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tc.want {
			t.Errorf("%s as %s:\ngot  %q\nwant %q", tc.query, tc.f, buf.String(), tc.want)
		}
	}
}

// TestConcurrent runs queries while updates change the dataset: each query
// sees the dataset as it was when it started (run with -race).
func TestConcurrent(t *testing.T) {
	d := sparql.NewDataset()
	q, err := sparql.ParseQuery(prefixes+"SELECT (COUNT(*) AS ?n) { ?s :p ?o }", "")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 200 {
			d.Add(rdf.Quad{Triple: rdf.T(rdf.NewIRI(fmt.Sprint("http://ex/s", i)), "http://ex/p", rdf.NewLiteral("x", ""))})
		}
	}()
	last := -1
	for range 50 {
		res, err := d.Query(context.Background(), q, sparql.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for sol := range res.Solutions() {
			var n int
			fmt.Sscan(sol[0].Value, &n)
			if n < last {
				t.Errorf("a later query counts %d, an earlier one %d", n, last)
			}
			last = n
		}
	}
	wg.Wait()
}

// TestBindingsAskConstruct: pre-bound variables reach ASK and CONSTRUCT
// as they reach SELECT (TestSelect).
func TestBindingsAskConstruct(t *testing.T) {
	d := load(t, pathData)
	for _, tc := range []struct {
		query, this string
		ask         bool
		want        []rdf.Triple
	}{
		{"ASK { FILTER(?this = :a) }", ":a", true, nil},
		{"ASK { FILTER(?this = :a) }", ":b", false, nil},
		{"ASK { ?this :p :c }", ":b", true, nil},
		{"CONSTRUCT { ?this :next ?o } WHERE { ?this :p ?o }", ":c", false,
			[]rdf.Triple{rdf.T(rdf.NewIRI("http://ex/c"), "http://ex/next", rdf.NewIRI("http://ex/a"))}},
	} {
		q, err := sparql.ParseQuery(prefixes+tc.query, "")
		if err != nil {
			t.Fatal(err)
		}
		res, err := d.Query(context.Background(), q, bound("this", tc.this))
		if err != nil {
			t.Fatal(err)
		}
		if q.Form == sparql.Ask && res.Bool != tc.ask {
			t.Errorf("%s with ?this %s: %v, want %v", tc.query, tc.this, res.Bool, tc.ask)
		}
		if q.Form == sparql.Construct {
			if ok, diff := isomorphic(res.Graph, tc.want); !ok {
				t.Errorf("%s with ?this %s: %s", tc.query, tc.this, diff)
			}
		}
	}
}
