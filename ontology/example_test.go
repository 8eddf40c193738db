package ontology_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/jrpcld/jrpcld/ontology"
	"github.com/jrpcld/jrpcld/rdf"
)

const rpc = `@prefix rpc: <http://example.org/rpc#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

rpc:Message a owl:Class ; rdfs:label "Message" .
rpc:Request a owl:Class ; rdfs:subClassOf rpc:Message .
rpc:hasVersion a owl:DatatypeProperty ;
    rdfs:domain rpc:Message ;
    rdfs:range xsd:string .
`

// A context maps the term "jsonrpc" to rpc:version, but the ontology declares rpc:hasVersion.
func ExampleOntology_Undeclared() {
	o, err := ontology.Parse(strings.NewReader(rpc), rdf.Turtle, "")
	if err != nil {
		log.Fatal(err)
	}
	fromContext := []string{
		"http://example.org/rpc#version",
		"http://example.org/rpc#Request",
		"http://www.w3.org/2001/XMLSchema#string", // well-known: not the ontology's business
	}
	fmt.Println(o.Undeclared(fromContext))
	// Output: [http://example.org/rpc#version]
}

func ExampleOntology_WriteSummary() {
	o, err := ontology.Parse(strings.NewReader(rpc), rdf.Turtle, "")
	if err != nil {
		log.Fatal(err)
	}
	if err := o.WriteSummary(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Prefixes (4)
	//   owl:   <http://www.w3.org/2002/07/owl#>
	//   rdfs:  <http://www.w3.org/2000/01/rdf-schema#>
	//   rpc:   <http://example.org/rpc#>
	//   xsd:   <http://www.w3.org/2001/XMLSchema#>
	//
	// Classes (2)
	//   rpc:Message  "Message"
	//   rpc:Request  -          subClassOf rpc:Message
	//
	// Properties (1)
	//   rpc:hasVersion  datatype  -  domain rpc:Message  range xsd:string
	//
	// Individuals (0)
}

func ExampleParse_error() {
	_, err := ontology.Parse(strings.NewReader("@prefix ex: <http://example.org/> .\n\nex:a ex:b ex:c ;\n  ex:d <no closing .\n"), rdf.Turtle, "")
	fmt.Println(err)
	// Output: 4:11: character ' ' is not allowed in an IRI
}
