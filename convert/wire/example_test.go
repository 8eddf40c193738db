package wire_test

import (
	"fmt"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// A graph jrpcld wrote, read back into the messages of its log.
func ExampleDecoder_Logs() {
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		panic(err)
	}
	ttl := `@prefix jlog: <https://jrpcld.github.io/ns/log#> .
@prefix jrpc: <http://json-rpc.org/ontology#> .
@prefix log: <http://example.com/session#> .

log:c2s-1 a jrpc:Request ; jlog:inLog <http://example.com/session> ; jlog:position 1 ;
    jlog:direction jlog:ClientToServer ; jlog:id "a" ;
    jrpc:version "2.0" ; jrpc:hasMethod "ping" .
log:s2c-2 a jrpc:Response ; jlog:inLog <http://example.com/session> ; jlog:position 2 ;
    jlog:direction jlog:ServerToClient ; jlog:id "a" ;
    jrpc:version "2.0" ; jrpc:hasResult "{}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .
`
	quads, err := wire.ReadRDF([]byte(ttl), rdf.Turtle)
	if err != nil {
		panic(err)
	}
	logs, problems := wire.NewDecoder(ctx).Logs(quads)
	for _, l := range logs {
		fmt.Println(l.IRI)
		for _, m := range l.Messages {
			fmt.Print(string(m.AppendJSONL(nil, true)))
		}
	}
	fmt.Println(len(problems), "problems")
	// Output:
	// http://example.com/session
	// {"dir":"c2s","msg":{"jsonrpc":"2.0","id":"a","method":"ping"}}
	// {"dir":"s2c","msg":{"jsonrpc":"2.0","id":"a","result":{}}}
	// 0 problems
}
