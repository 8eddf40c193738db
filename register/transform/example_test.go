package transform_test

import (
	"context"
	"fmt"
	"log"

	"github.com/jrpcld/jrpcld/register/transform"
)

// A jq transform of transforms.yaml, run on an example snippet as the
// tool chain runs it: the output is written as the tool chain writes JSON.
func ExampleTransform_Run() {
	decl := `transforms:
  - id: prefix-keys
    type: jq
    code: 'with_entries(.key |= "PREF\(.)")'
`
	ts, _, err := transform.Parse(transform.File, []byte(decl))
	if err != nil {
		log.Fatal(err)
	}
	t := ts[0]
	fmt.Println(t.ID, "takes", t.Inputs[0].MIME, "and gives", t.Outputs[0].MIME)
	out, err := t.Run(context.Background(), transform.Input{Data: []byte(`{"one": 1, "name": "é"}`), MediaType: "application/json"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// prefix-keys takes application/json and gives application/json
	// {
	//   "PREFname": "\u00e9",
	//   "PREFone": 1
	// }
}

// A SPARQL Update transform, run on a Turtle snippet as the tool chain
// runs it with rdflib: the example's prefixes are declared before the
// snippet and in scope for the update.
func ExampleTransform_Run_sparql() {
	decl := `transforms:
  - id: rename
    type: sparql-update
    code: 'DELETE { ?s ex:name ?n } INSERT { ?s ex:label ?n } WHERE { ?s ex:name ?n }'
`
	ts, _, err := transform.Parse(transform.File, []byte(decl))
	if err != nil {
		log.Fatal(err)
	}
	in := transform.Input{Data: []byte(`ex:alice ex:name "Alice" .`), MediaType: "text/turtle",
		Prefixes: map[string]string{"ex": "http://example.org/"}}
	out, err := ts[0].Run(context.Background(), in)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// @prefix ex: <http://example.org/> .
	//
	// ex:alice ex:label "Alice" .
}

// An XSLT transform is not run: the error says what runs it in the tool
// chain.
func ExampleNotRunError() {
	ts, _, err := transform.Parse(transform.File, []byte("transforms:\n  - id: style\n    type: xslt\n    code: '<xsl:stylesheet/>'\n"))
	if err != nil {
		log.Fatal(err)
	}
	_, err = ts[0].Run(context.Background(), transform.Input{Data: []byte("<a/>"), MediaType: "application/xml"})
	fmt.Println(err)
	// Output:
	// transform "style" (xslt) not run: jrpcld does not run xslt transforms; the OGC tool chain runs it with lxml's XSLT 1.0 processor (Python)
}
