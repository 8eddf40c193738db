package syntax_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

// FuzzParse: no text makes the parser panic; every refusal is a
// *SyntaxError whose line and column are in the text.
func FuzzParse(f *testing.F) {
	for _, tt := range translations {
		f.Add(tt.query)
	}
	for _, tt := range errorsWant {
		f.Add(tt.query)
	}
	f.Add("INSERT DATA { <a> <b> [ <c> (1 2) ] } ; DELETE { ?s ?p ?o } INSERT { ?s ?p [] } WHERE { ?s ?p ?o }")
	f.Fuzz(func(t *testing.T, src string) {
		check := func(err error) {
			if err == nil {
				return
			}
			var se *syntax.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: %T %v, want a *SyntaxError", src, err, err)
			}
			if lines := strings.Count(src, "\n") + 1; se.Line < 1 || se.Line > lines || se.Col < 1 {
				t.Fatalf("%q: error at line %d, column %d, outside the text's %d lines", src, se.Line, se.Col, lines)
			}
		}
		q, err := syntax.ParseQuery(src, "http://base/")
		check(err)
		if err == nil {
			algebra.Format(q.Op)
			algebra.InScope(q.Op)
		}
		_, err = syntax.ParseUpdate(src, "http://base/")
		check(err)
	})
}
