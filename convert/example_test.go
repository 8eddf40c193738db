package convert_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/toolchain"
	"github.com/jrpcld/jrpcld/schema"
)

// One message to triples with the embedded JSON-RPC 2.0 block's context.
func ExampleMapping_Triples() {
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		panic(err)
	}
	m, err := convert.NewMapping(ctx, "http://example.com/log/")
	if err != nil {
		panic(err)
	}
	msg, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search"}}`))
	if err != nil {
		panic(err)
	}
	triples, notices, err := m.Triples(msg.(map[string]any), "http://example.com/log#m1", "b")
	if err != nil {
		panic(err)
	}
	w := rdf.NewNTriplesWriter(os.Stdout)
	w.WriteGroup(triples)
	w.Close()
	fmt.Println(len(notices), "notices")
	// Output:
	// <http://example.com/log#m1> <http://json-rpc.org/ontology#hasId> "7"^^<http://www.w3.org/2001/XMLSchema#integer> .
	// <http://example.com/log#m1> <http://json-rpc.org/ontology#version> "2.0" .
	// <http://example.com/log#m1> <http://json-rpc.org/ontology#hasMethod> "tools/call" .
	// <http://example.com/log#m1> <http://json-rpc.org/ontology#hasParameters> "{\"name\":\"search\"}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .
	// 0 notices
}

// A log to Turtle: each message a node of the log's graph, the response
// linked to the request it answers.
func ExampleConverter_Convert() {
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		panic(err)
	}
	log := `{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{}}}
`
	r, err := rpclog.NewReader(strings.NewReader(log), "session.jsonl", rpclog.ReaderOptions{})
	if err != nil {
		panic(err)
	}
	c := convert.NewConverter(ctx)
	err = c.Convert(os.Stdout, rdf.Turtle, []convert.Log{{Reader: r, File: "session.jsonl", IRI: "http://example.com/session"}})
	if err != nil {
		panic(err)
	}
	// Output:
	// @prefix jlog: <https://jrpcld.github.io/ns/log#> .
	// @prefix jrpc: <http://json-rpc.org/ontology#> .
	// @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
	// @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
	// @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
	// @prefix log: <http://example.com/session#> .
	//
	// <http://example.com/session> a jlog:Log .
	// log:c2s-1 a jrpc:Request ;
	//     jlog:inLog <http://example.com/session> ;
	//     jlog:position 1 ;
	//     jlog:direction jlog:ClientToServer ;
	//     jlog:id 1 ;
	//     jrpc:hasId 1 ;
	//     jrpc:version "2.0" ;
	//     jrpc:hasMethod "ping" .
	//
	// log:s2c-2 a jrpc:Response ;
	//     jlog:inLog <http://example.com/session> ;
	//     jlog:position 2 ;
	//     jlog:direction jlog:ServerToClient ;
	//     jlog:answers log:c2s-1 ;
	//     jlog:id 1 ;
	//     jrpc:hasId 1 ;
	//     jrpc:version "2.0" ;
	//     jrpc:hasResult "{}"^^rdf:JSON .
}

// The whole way with exported API only: a log is checked against the
// JSON-RPC 2.0 block's schema, turned into N-Triples, and read back into
// the messages as sent (member order and white space aside).
func Example_roundTrip() {
	block := bblock.Default()
	log := `{"jsonrpc":"2.0","id":"q1","method":"tools/call","params":{"name":"search","arguments":{"q":"rdf","limit":10}}}
{"jsonrpc":"2.0","id":"q1","result":{"content":[{"type":"text","text":"3 hits"}],"isError":false}}
{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":0.5},"@context":"data, not JSON-LD"}
`
	// Validate.
	s, err := schema.Compile(block, nil)
	if err != nil {
		panic(err)
	}
	c, _ := schema.NewChecker(s, "")
	r, _ := rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	sum, err := schema.ValidateLog(r, c, "log.jsonl", func(f schema.Finding) { fmt.Println(f.Diagnostic) })
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d of %d messages valid\n", sum.Valid, sum.Messages)

	// Convert.
	ctx, _, err := toolchain.ForBlock(block, nil, nil)
	if err != nil {
		panic(err)
	}
	var nt bytes.Buffer
	r, _ = rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	conv := convert.NewConverter(ctx)
	conv.Report = func(i diag.Diagnostic) { fmt.Println(i) }
	if err := conv.Convert(&nt, rdf.NTriples, []convert.Log{{Reader: r, File: "log.jsonl", IRI: "http://example.com/log"}}); err != nil {
		panic(err)
	}

	// And back.
	res, err := wire.NewDecoder(ctx).WriteJSONL(os.Stdout, &nt, rdf.NTriples, wire.JSONLOptions{})
	if err != nil || len(res.Problems) > 0 {
		panic(fmt.Sprint(err, res.Problems))
	}
	// Output:
	// 3 of 3 messages valid
	// log.jsonl:3: warning: member "@context" is data, not a JSON-LD instruction; it is not mapped to RDF (jlog:patch keeps it) (at /@context)
	// {"jsonrpc":"2.0","id":"q1","method":"tools/call","params":{"arguments":{"limit":10,"q":"rdf"},"name":"search"}}
	// {"jsonrpc":"2.0","id":"q1","result":{"content":[{"text":"3 hits","type":"text"}],"isError":false}}
	// {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":0.5},"@context":"data, not JSON-LD"}
}
