package syntax_test

import (
	"errors"
	"fmt"

	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

func ExampleParseQuery() {
	q, err := syntax.ParseQuery(`
PREFIX ex: <http://example.org/>
SELECT ?tool (COUNT(*) AS ?calls)
WHERE {
  ?call ex:tool ?tool .
  OPTIONAL { ?call ex:error ?e FILTER(?e != 0) }
}
GROUP BY ?tool
ORDER BY DESC(?calls)
LIMIT 3`, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(algebra.Format(q.Op))
	// Output:
	// (slice 0 3 (project (?tool ?calls) (order ((desc ?calls)) (extend ((?calls ?.agg1)) (group (?tool) ((?.agg1 (count *))) (leftjoin (bgp (triple ?call <http://example.org/tool> ?tool)) (bgp (triple ?call <http://example.org/error> ?e)) (!= ?e 0)))))))
}

func ExampleParseQuery_error() {
	_, err := syntax.ParseQuery("SELECT ?s ?o\nWHERE { ?s ?p ?o }\nGROUP BY ?s", "")
	var se *syntax.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Line, se.Col)
	}
	fmt.Println(err)
	// Output:
	// 1 11
	// line 1, column 11: ?o is neither grouped nor aggregated: add it to GROUP BY, or use an aggregate such as (SAMPLE(?o) AS ?...)
}

func ExampleParseUpdate() {
	u, err := syntax.ParseUpdate(`
PREFIX ex: <http://example.org/>
DELETE { ?s ex:status "open" } INSERT { ?s ex:status "closed" }
WHERE { ?s ex:status "open" } ;
DROP SILENT GRAPH ex:scratch`, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, op := range u.Ops {
		switch op := op.(type) {
		case algebra.Modify:
			fmt.Println("modify where", algebra.Format(op.Where))
		case algebra.Drop:
			fmt.Println("drop", op.Target.IRI, "silent:", op.Silent)
		}
	}
	// Output:
	// modify where (bgp (triple ?s <http://example.org/status> "open"))
	// drop http://example.org/scratch silent: true
}
