package rdf_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

func ExampleTurtleWriter() {
	msg := rdf.NewIRI("http://example.com/log#c2s-1")
	params := rdf.NewBlank("p1")
	w := rdf.NewTurtleWriter(os.Stdout, []rdf.Prefix{{Name: "jrpc", IRI: rdf.JRPCNS}, {Name: "log", IRI: "http://example.com/log#"}})
	err := w.WriteGroup([]rdf.Triple{
		rdf.T(msg, rdf.RDFType, rdf.NewIRI(rdf.JRPCRequest)),
		rdf.T(msg, rdf.JRPCNS+"hasMethod", rdf.NewLiteral("tools/call", "")),
		rdf.T(msg, rdf.JRPCNS+"hasId", rdf.NewLiteral("7", rdf.XSDInteger)),
		rdf.T(msg, rdf.JRPCNS+"hasParameters", params),
		rdf.T(params, rdf.JRPCNS+"name", rdf.NewLiteral("search", "")),
	})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// @prefix jrpc: <http://json-rpc.org/ontology#> .
	// @prefix log: <http://example.com/log#> .
	//
	// log:c2s-1 a jrpc:Request ;
	//     jrpc:hasMethod "tools/call" ;
	//     jrpc:hasId 7 ;
	//     jrpc:hasParameters [ jrpc:name "search" ] .
}

func ExampleParse() {
	doc := `@prefix ex: <http://example.com/> .
ex:a ex:knows [ ex:name "Bo"@en ] .`
	quads, prefixes, err := rdf.Parse([]byte(doc), rdf.Turtle, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prefixes["ex"])
	for _, q := range quads {
		fmt.Println(q.Triple)
	}
	_, _, err = rdf.Parse([]byte("<http://e/s> <http://e/p> ."), rdf.NTriples, "")
	fmt.Println(err)
	// Output:
	// http://example.com/
	// _:#1 <http://example.com/name> "Bo"@en .
	// <http://example.com/a> <http://example.com/knows> _:#1 .
	// 1:27: expected an object (<IRI>, _:label or "literal"), found "."
}

func ExampleFormatOf() {
	for _, name := range []string{"log.ttl", "log.nq.gz", "ontology.owl", "log.jsonl"} {
		f, gz, ok := rdf.FormatOf(name)
		if !ok {
			fmt.Println(name, "is not RDF")
			continue
		}
		fmt.Println(name, f, f.MediaType(), "gzip:", gz)
	}
	// Output:
	// log.ttl turtle text/turtle gzip: false
	// log.nq.gz nquads application/n-quads gzip: true
	// ontology.owl rdfxml application/rdf+xml gzip: false
	// log.jsonl is not RDF
}

// N-Quads read as a stream, a piece at a time: each piece's quads are
// handed on in document order.
func ExampleReadLines() {
	doc := `<http://example.com/a> <http://example.com/p> "1" <http://example.com/g> .
<http://example.com/b> <http://example.com/p> "2" .
`
	err := rdf.ReadLines(strings.NewReader(doc), rdf.NQuads, func(qs []rdf.Quad) error {
		for _, q := range qs {
			fmt.Println(q.S.Value, q.O.Value, q.InDefaultGraph())
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// http://example.com/a 1 false
	// http://example.com/b 2 true
}
