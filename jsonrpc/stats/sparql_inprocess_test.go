package stats

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
)

// runInProcess runs the queries in jrpcld's own engine (package
// rdf/sparql, what "jrpcld query" runs), in the forms Oxigraph gets them:
// Turtle and N-Triples in the default graph, N-Quads in named graphs with
// an empty default graph, and N-Quads with the default graph the union of
// all graphs.
func runInProcess(t *testing.T, ctx context.Context, f *sparqlFixture) {
	forms := []struct {
		name   string
		files  []string
		format rdf.Format
		union  bool
	}{
		{"turtle", f.turtle, rdf.Turtle, false},
		{"ntriples", f.ntriples, rdf.NTriples, false},
		{"nquads", f.nquads, rdf.NQuads, false},
		{"nquads-union", f.nquads, rdf.NQuads, true},
	}
	for _, form := range forms {
		t.Run(form.name, func(t *testing.T) {
			ds := sparql.NewDataset()
			for i, file := range form.files {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				quads, _, err := rdf.Parse(data, form.format, rpclogBase(file))
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				// The blank nodes of each file are its own: the labels
				// Parse makes for [] are alike in every file.
				for j := range quads {
					q := &quads[j]
					q.S, q.O = ownBlank(q.S, i), ownBlank(q.O, i)
				}
				if err := ds.Add(quads...); err != nil {
					t.Fatal(err)
				}
			}
			a := newAnswers()
			for i, file := range queryFiles() {
				a.rows[i], a.errs[i] = queryInProcess(ctx, ds, file, form.union)
			}
			f.check(t, a.rows, a.errs)
		})
	}
}

// ownBlank gives a blank node a label of file i's own.
func ownBlank(t rdf.Term, i int) rdf.Term {
	if t.Kind != rdf.Blank {
		return t
	}
	if n, ok := strings.CutPrefix(t.Value, "#"); ok {
		return rdf.NewBlank("f" + strconv.Itoa(i) + "-" + n)
	}
	return rdf.NewBlank("f" + strconv.Itoa(i) + "." + t.Value)
}

// rpclogBase is the base IRI of a graph file: its file: URL.
func rpclogBase(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	return "file://" + filepath.ToSlash(abs)
}

// queryInProcess runs the query of a file on ds and returns its rows, each
// variable's value as its term's text (an IRI, or a literal's lexical
// form), as the other engines' rows are read.
func queryInProcess(ctx context.Context, ds *sparql.Dataset, file string, union bool) ([]map[string]string, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	q, err := sparql.ParseQuery(string(text), rpclogBase(file))
	if err != nil {
		return nil, err
	}
	res, err := ds.Query(ctx, q, sparql.Options{DefaultGraphUnion: union})
	if err != nil {
		return nil, err
	}
	var rows []map[string]string
	for sol := range res.Solutions() {
		row := map[string]string{}
		for i, v := range res.Vars {
			if sol[i] != (rdf.Term{}) {
				row[v] = sol[i].Value
			}
		}
		rows = append(rows, row)
	}
	return rows, res.Err()
}
