package sparql_test

import (
	"context"
	"fmt"
	"os"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/results"
)

// A dataset loaded from Turtle, updated and queried, the answer written as
// SPARQL results in TSV.
func Example() {
	data := `@prefix : <http://example.org/> .
:call1 :method "tools/list" ; :ms 12 .
:call2 :method "tools/call" ; :ms 340 .
:call3 :method "tools/call" ; :ms 95 .`
	quads, _, err := rdf.Parse([]byte(data), rdf.Turtle, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	d := sparql.NewDataset()
	if err := d.Add(quads...); err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	u, err := sparql.ParseUpdate(`PREFIX : <http://example.org/>
INSERT { ?c :slow true } WHERE { ?c :ms ?ms FILTER(?ms > 100) }`, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := d.Update(ctx, u, sparql.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	q, err := sparql.ParseQuery(`PREFIX : <http://example.org/>
SELECT ?method (COUNT(*) AS ?calls) (SUM(?ms) AS ?total) (COUNT(?slow) AS ?slowCalls)
WHERE { ?c :method ?method ; :ms ?ms OPTIONAL { ?c :slow ?slow } }
GROUP BY ?method ORDER BY ?method`, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := d.Query(ctx, q, sparql.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := res.Write(os.Stdout, results.TSV); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ?method	?calls	?total	?slowCalls
	// "tools/call"	2	435	1
	// "tools/list"	1	12	0
}
