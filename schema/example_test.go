package schema_test

import (
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/schema"
)

func ExampleChecker_Check() {
	s, err := schema.Compile(bblock.Default(), nil)
	if err != nil {
		panic(err)
	}
	c, err := schema.NewChecker(s, "")
	if err != nil {
		panic(err)
	}
	for i, text := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}`,
		`{"jsonrpc":"2.0","id":1,"result":19}`,
		`{"jsonrpc":"1.0","id":2,"method":"subtract"}`,
	} {
		v, err := jsonrpc.Decode([]byte(text))
		if err != nil {
			panic(err)
		}
		m, ds := c.Check(v, jsonrpc.NoDirection, i)
		fmt.Println(m.Kind, !diag.HasErrors(ds))
		for _, d := range ds {
			fmt.Println(" ", d.Code, d)
		}
	}
	// Output:
	// request true
	// response true
	// invalid false
	//   -32600 "jsonrpc" must be the string "2.0", got "1.0" (at /jsonrpc)
}

func ExampleValidateLog() {
	log := `{"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","id":1,"result":{}}
{"jsonrpc":"2.0","method":1}
`
	r, err := rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	if err != nil {
		panic(err)
	}
	c, _ := schema.NewChecker(nil, "") // the JSON-RPC 2.0 rules only
	sum, err := schema.ValidateLog(r, c, "log.jsonl", func(f schema.Finding) {
		fmt.Println(f.Kind, f.Diagnostic)
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d messages, %d valid\n", sum.Messages, sum.Valid)
	// Output:
	// invalid log.jsonl:3: "method" must be a string, got 1 (at /method)
	// 3 messages, 2 valid
}
