package queries

import (
	"context"
	"embed"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
)

//go:embed *.rq
var files embed.FS

// Query is one query of the pack.
type Query struct {
	Name  string // its file, such as "kinds.rq"
	Title string // the figure it computes, as docs/stats.md names it
	Text  string // the SPARQL text
}

// pack is the pack in its order (that of docs/stats.md's table) with the
// title of each query.
var pack = []struct{ name, title string }{
	{"kinds.rq", "messages by kind and direction"},
	{"requests.rq", "requests per method"},
	{"notifications.rq", "notifications per method"},
	{"pairing.rq", "requests, answered and unanswered per direction"},
	{"reused-ids.rq", "requests reusing the id of an open request, per direction"},
	{"orphans.rq", "orphan responses per direction"},
	{"errors.rq", "error responses by code and method"},
	{"tools.rq", "tools/call calls and isError results per tool"},
	{"latency.rq", "count, p50, p90, p99 and max latency per method (ms)"},
}

// Pack returns the queries of the pack, in its order.
func Pack() []Query {
	qs := make([]Query, len(pack))
	for i, p := range pack {
		text, err := files.ReadFile(p.name)
		if err != nil {
			// Every name of pack is embedded: TestPackIsTheFolder checks it.
			panic("queries: " + p.name + " is not embedded")
		}
		qs[i] = Query{Name: p.name, Title: p.title, Text: string(text)}
	}
	return qs
}

// Base is the base IRI the pack's queries are parsed with. They hold no
// relative IRI; it only keeps the parse from depending on where jrpcld runs.
const Base = "https://jrpcld.github.io/examples/queries/"

// Answer is the rows of one query: each row holds the values of Vars in
// order, the zero Term for an unbound variable.
type Answer struct {
	Query Query
	Vars  []string
	Rows  [][]rdf.Term
}

// Run runs every query of the pack on ds with opts, in the pack's order, and
// returns their rows. The first query that fails stops it, with a
// *QueryError naming the query. The rows of a query are few (one per log and
// key), so they are held.
func Run(ctx context.Context, ds *sparql.Dataset, opts sparql.Options) ([]Answer, error) {
	var answers []Answer
	for _, q := range Pack() {
		a, err := run(ctx, ds, q, opts)
		if err != nil {
			return answers, &QueryError{Name: q.Name, Err: err}
		}
		answers = append(answers, a)
	}
	return answers, nil
}

// run runs one query.
func run(ctx context.Context, ds *sparql.Dataset, q Query, opts sparql.Options) (Answer, error) {
	parsed, err := sparql.ParseQuery(q.Text, Base+q.Name)
	if err != nil {
		return Answer{}, err
	}
	res, err := ds.Query(ctx, parsed, opts)
	if err != nil {
		return Answer{}, err
	}
	defer res.Close()
	a := Answer{Query: q, Vars: res.Vars}
	for sol := range res.Solutions() {
		a.Rows = append(a.Rows, append([]rdf.Term(nil), sol...))
	}
	return a, res.Err()
}
