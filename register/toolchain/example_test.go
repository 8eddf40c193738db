package toolchain_test

import (
	"fmt"
	"os"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// Build the JSON-LD context of the embedded JSON-RPC 2.0 block, as the OGC
// tool chain builds it from the block's annotated schema, and print one of
// its terms.
func ExampleBuild() {
	doc, warnings, err := toolchain.Build(bblock.Default(), nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	ctx := doc.Value().(map[string]any)["@context"].(map[string]any)
	if err := ldctx.WriteJSON(os.Stdout, map[string]any{"error": ctx["error"]}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
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
	//   }
	// }
}
