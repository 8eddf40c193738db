package syntax_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

// BenchmarkInsertData parses an INSERT DATA of 150,000 triples (2.3 MB).
func BenchmarkInsertData(b *testing.B) {
	var s strings.Builder
	s.WriteString("PREFIX : <http://e/>\nINSERT DATA {\n")
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&s, ":s%d :p \"value %d\" ; :q [ :r %d ] .\n", i, i, i)
	}
	s.WriteString("}")
	text := s.String()
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		if _, err := syntax.ParseUpdate(text, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBinds parses a group of 2,000 triple patterns each followed by
// a BIND, which checks the variables in scope before it each time.
func BenchmarkBinds(b *testing.B) {
	var s strings.Builder
	s.WriteString("SELECT * {")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&s, "?s ?p%d ?o%d . BIND(?o%d + 1 AS ?b%d)\n", i, i, i, i)
	}
	s.WriteString("}")
	text := s.String()
	for i := 0; i < b.N; i++ {
		if _, err := syntax.ParseQuery(text, ""); err != nil {
			b.Fatal(err)
		}
	}
}
