package context_test

import (
	"fmt"
	"os"

	"github.com/jrpcld/jrpcld/bblock"
	jsonld "github.com/jrpcld/jrpcld/context"
)

// Build the JSON-LD context of the embedded JSON-RPC 2.0 block and print
// two of its terms.
func ExampleBuild() {
	doc, warnings, err := jsonld.Build(bblock.Default(), nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	ctx := doc["@context"].(map[string]any)
	part := map[string]any{"@version": ctx["@version"], "jsonrpc": ctx["jsonrpc"], "error": ctx["error"]}
	if err := jsonld.WriteJSON(os.Stdout, part); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "@version": 1.1,
	//   "error": {
	//     "@context": {
	//       "code": {
	//         "@id": "jrpc:hasErrorCode",
	//         "@type": "xsd:integer"
	//       },
	//       "data": {
	//         "@id": "jrpc:hasErrorData",
	//         "@type": "@json"
	//       },
	//       "message": {
	//         "@id": "jrpc:hasErrorMessage",
	//         "@type": "xsd:string"
	//       }
	//     },
	//     "@id": "jrpc:hasError",
	//     "@type": "@id"
	//   },
	//   "jsonrpc": {
	//     "@id": "jrpc:version",
	//     "@type": "xsd:string"
	//   }
	// }
}
