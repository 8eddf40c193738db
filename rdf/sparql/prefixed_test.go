package sparql_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

// TestPrefixed checks the prefixes declared before a query or update: a
// name the text uses without declaring it resolves, a PREFIX of the text
// overrides one, the map given is left as it was, and a syntax error is
// located in the text as written.
func TestPrefixed(t *testing.T) {
	declared := map[string]string{"ex": "http://ex/", "other": "http://other/"}
	tests := []struct {
		name, query string
		want        []string // the values of ?o, sorted
		errLine     int      // the line of the syntax error expected, 0 for none
	}{
		{"declared prefix", "SELECT ?o WHERE { ex:s ex:p ?o }", []string{"1"}, 0},
		{"the query's PREFIX overrides", "PREFIX ex: <http://other/>\nSELECT ?o WHERE { ex:s ex:p ?o }", []string{"2"}, 0},
		{"both", "SELECT ?o WHERE { { ex:s ex:p ?o } UNION { other:s other:p ?o } }", []string{"1", "2"}, 0},
		{"undeclared prefix", "SELECT ?o WHERE { ex:s none:p ?o }", nil, 1},
		{"error line as written", "SELECT ?o\nWHERE {\n ex:s ex:p ?o ", nil, 3},
	}
	d := sparql.NewDataset()
	if err := d.Add(
		rdf.Quad{Triple: rdf.T(rdf.NewIRI("http://ex/s"), "http://ex/p", rdf.NewLiteral("1", rdf.XSDInteger))},
		rdf.Quad{Triple: rdf.T(rdf.NewIRI("http://other/s"), "http://other/p", rdf.NewLiteral("2", rdf.XSDInteger))},
	); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := sparql.ParseQueryPrefixed(tc.query, "", declared)
			if tc.errLine != 0 {
				var se *syntax.SyntaxError
				if !errors.As(err, &se) || se.Line != tc.errLine {
					t.Fatalf("got %v, want a syntax error on line %d", err, tc.errLine)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := d.Query(context.Background(), q, sparql.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for sol := range res.Solutions() {
				got = append(got, sol[0].Value)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if declared["ex"] != "http://ex/" || len(declared) != 2 {
		t.Errorf("the prefixes given were changed: %v", declared)
	}
	u, err := sparql.ParseUpdatePrefixed("DELETE WHERE { ex:s ?p ?o }", "", declared)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Update(context.Background(), u, sparql.Options{}); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 1 {
		t.Errorf("the update with a declared prefix left %d quads, want 1", d.Len())
	}
}
