package stats

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/examples/queries"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
)

// runInProcess runs the pack in jrpcld's own engine (package rdf/sparql)
// through package queries, what "jrpcld stats --sparql" runs, in the forms
// Oxigraph gets them:
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
			a := packAnswers(t, ctx, ds, form.union)
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

// packAnswers runs the pack on ds as "jrpcld stats --sparql" does
// (queries.Run), and reads each query's rows back from what it prints with
// --format json (queries.WriteJSON): each variable's value as its term's
// text (an IRI, or a literal's lexical form), as the other engines' rows
// are read.
func packAnswers(t *testing.T, ctx context.Context, ds *sparql.Dataset, union bool) *answers {
	t.Helper()
	a := newAnswers()
	ans, err := queries.Run(ctx, ds, sparql.Options{DefaultGraphUnion: union})
	if err != nil {
		var qe *queries.QueryError
		if !errors.As(err, &qe) {
			t.Fatal(err)
		}
		for i, q := range sparqlQueries {
			if q.file == qe.Name {
				a.errs[i] = err
			}
		}
		return a
	}
	var printed bytes.Buffer
	if err := queries.WriteJSON(&printed, ans); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Queries []struct {
			Name    string
			Results struct {
				Bindings []map[string]struct{ Value string }
			}
		}
	}
	if err := json.Unmarshal(printed.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	rows := map[string][]map[string]string{}
	for _, q := range decoded.Queries {
		rs := []map[string]string{}
		for _, b := range q.Results.Bindings {
			row := map[string]string{}
			for v, term := range b {
				row[v] = term.Value
			}
			rs = append(rs, row)
		}
		rows[q.Name] = rs
	}
	for i, q := range sparqlQueries {
		if r, ok := rows[q.file]; ok {
			a.rows[i] = r
		} else {
			a.errs[i] = fmt.Errorf("%s is not in the output of stats --sparql", q.file)
		}
	}
	return a
}
