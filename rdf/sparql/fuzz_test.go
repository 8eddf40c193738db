package sparql_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
)

// FuzzQuery evaluates any query that parses, and any update, on a small
// dataset: nothing may panic, and each must end within its timeout. The
// seeds are a few queries written here and, when ../shared is there, the
// W3C suites' queries and updates.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		"SELECT * { ?s ?p ?o OPTIONAL { ?o ?q ?r FILTER(?r != ?s) } }",
		"SELECT ?s (COUNT(DISTINCT *) AS ?n) { ?s :p* ?o } GROUP BY ?s HAVING(?n > 1) ORDER BY DESC(?n)",
		"CONSTRUCT { ?o ?p ?s } WHERE { GRAPH ?g { ?s ?p ?o } MINUS { ?s :q ?x } }",
		"ASK { VALUES ?x { 1 UNDEF } FILTER NOT EXISTS { ?x ^:p/:q? ?y } }",
		"DESCRIBE * { ?s ?p ?o } LIMIT 1",
		"DELETE { ?s ?p ?o } INSERT { GRAPH :g { ?o ?p ?s } } WHERE { ?s ?p ?o }",
		"SELECT * { { SELECT ?s { ?s ?p ?o } LIMIT 2 } BIND(BNODE(STR(?s)) AS ?b) }",
	} {
		f.Add(s)
	}
	if shared.Present() {
		root := shared.Dir(f, "reference", "w3c-rdf-tests", "sparql")
		filepath.WalkDir(root, func(path string, de os.DirEntry, err error) error {
			if err == nil && (strings.HasSuffix(path, ".rq") || strings.HasSuffix(path, ".ru")) {
				if data, err := os.ReadFile(path); err == nil {
					f.Add(string(data))
				}
			}
			return nil
		})
	}
	data := `<http://ex/a> <http://ex/p> <http://ex/b> .
<http://ex/b> <http://ex/p> <http://ex/a> .
<http://ex/b> <http://ex/q> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
_:x <http://ex/p> "x"@en <http://ex/g> .
<http://ex/a> <http://ex/q> _:x <http://ex/g> .
`
	quads, _, err := rdf.Parse([]byte(data), rdf.NQuads, "")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		text = "PREFIX : <http://ex/>\n" + text
		d := sparql.NewDataset()
		if err := d.Add(quads...); err != nil {
			t.Fatal(err)
		}
		opts := sparql.Options{Timeout: 2 * time.Second, MaxSolutions: 100000}
		if q, err := sparql.ParseQuery(text, "http://ex/base/"); err == nil {
			res, err := d.Query(context.Background(), q, opts)
			if err == nil {
				for range res.Solutions() {
				}
			}
		}
		if u, err := sparql.ParseUpdate(text, "http://ex/base/"); err == nil {
			d.Update(context.Background(), u, opts)
		}
	})
}
