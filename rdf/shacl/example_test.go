package shacl_test

import (
	"fmt"
	"os"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl"
)

func parse(turtle string) []rdf.Triple {
	qs, _, err := rdf.Parse([]byte(turtle), rdf.Turtle, "")
	if err != nil {
		panic(err)
	}
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	return ts
}

func Example() {
	shapes, err := shacl.Compile(parse(`
		@prefix sh: <http://www.w3.org/ns/shacl#> .
		@prefix jrpc: <http://json-rpc.org/ontology#> .
		<#RequestShape> sh:targetClass jrpc:Request ;
			sh:property [ sh:path jrpc:hasMethod ; sh:minCount 1 ; sh:pattern "^[a-z/]+$" ] .`))
	if err != nil {
		fmt.Println(err)
		return
	}
	data := shacl.NewGraph(parse(`
		@prefix jrpc: <http://json-rpc.org/ontology#> .
		<#m1> a jrpc:Request ; jrpc:hasMethod "tools/list" .
		<#m2> a jrpc:Request ; jrpc:hasMethod "Tools.List" .`))
	report, err := shapes.Validate(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("conforms:", report.Conforms)
	report.WriteText(os.Stdout)
	// Output:
	// conforms: false
	// Validation Report
	// Conforms: false
	// Results (1):
	// Violation in PatternConstraintComponent:
	// 	Source Shape: [ sh:path <http://json-rpc.org/ontology#hasMethod> ; sh:minCount 1 ; sh:pattern "^[a-z/]+$" ]
	// 	Focus Node: <#m2>
	// 	Value Node: "Tools.List"
	// 	Result Path: <http://json-rpc.org/ontology#hasMethod>
	// 	Message: the value does not match the pattern "^[a-z/]+$"
}

func ExampleShapes_Infer() {
	shapes, _ := shacl.Compile(parse(`
		@prefix sh: <http://www.w3.org/ns/shacl#> .
		@prefix ex: <http://example.org/> .
		ex:Parent sh:targetSubjectsOf ex:child ;
			sh:rule [ a sh:TripleRule ; sh:subject [ sh:path ex:child ] ; sh:predicate ex:parent ; sh:object sh:this ] .`))
	inferred, err := shapes.Infer(shacl.NewGraph(parse(`
		@prefix ex: <http://example.org/> .
		ex:ann ex:child ex:bob, ex:cid .`)))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range inferred {
		fmt.Println(t)
	}
	// Output:
	// <http://example.org/bob> <http://example.org/parent> <http://example.org/ann> .
	// <http://example.org/cid> <http://example.org/parent> <http://example.org/ann> .
}
