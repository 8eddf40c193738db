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

// A SPARQL transform is not run: the error says what runs it in the tool
// chain.
func ExampleNotRunError() {
	ts, _, err := transform.Parse(transform.File, []byte("transforms:\n  - id: rename\n    type: sparql-update\n    code: 'DELETE WHERE { ?s ?p ?o }'\n"))
	if err != nil {
		log.Fatal(err)
	}
	_, err = ts[0].Run(context.Background(), transform.Input{Data: []byte("<a:b> <a:c> <a:d> ."), MediaType: "text/turtle"})
	fmt.Println(err)
	// Output:
	// transform "rename" (sparql-update) not run: jrpcld does not run sparql-update transforms; the OGC tool chain runs it with rdflib's SPARQL engine (Python)
}
