package expr_test

import (
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
)

func Example() {
	price := rdf.NewLiteral("12.50", rdf.XSDDecimal)
	qty := rdf.NewLiteral("3", rdf.XSDInteger)

	total, _ := expr.Arith("*", price, qty)
	fmt.Println(total)

	cheap, _ := expr.Compare("<", total, rdf.NewLiteral("40", rdf.XSDInteger))
	fmt.Println(cheap)

	name, _ := expr.Call("UCASE", []rdf.Term{rdf.NewLangLiteral("chat", "fr")}, nil)
	fmt.Println(name)

	_, err := expr.Arith("+", qty, rdf.NewIRI("http://example/x"))
	fmt.Println(err)

	sum, _ := expr.NewAggregator("SUM", false, "")
	sum.Add([]rdf.Term{total})
	sum.Add([]rdf.Term{qty})
	s, _ := sum.Result()
	fmt.Println(s)
	// Output:
	// "37.5"^^<http://www.w3.org/2001/XMLSchema#decimal>
	// "true"^^<http://www.w3.org/2001/XMLSchema#boolean>
	// "CHAT"@fr
	// +: type error: not a number: an IRI
	// "40.5"^^<http://www.w3.org/2001/XMLSchema#decimal>
}
