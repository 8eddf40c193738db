package jsonrpc_test

import (
	"fmt"

	"github.com/jrpcld/jrpcld/jsonrpc"
)

func ExampleClassify() {
	for _, text := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}`,
		`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"no"}}]`,
	} {
		v, err := jsonrpc.Decode([]byte(text))
		if err != nil {
			fmt.Println(err)
			continue
		}
		m := jsonrpc.Classify(v)
		fmt.Println(m.Kind, m.Valid(), m.Err())
		for _, mm := range m.Members {
			fmt.Println("  member:", mm.Kind)
		}
	}
	// Output:
	// request true <nil>
	// response true <nil>
	// invalid false "params" must be an object or an array, got "x"; omit "params" when there are none (at /params)
	// batch true <nil>
	//   member: notification
	//   member: error-response
}

func ExampleTracker() {
	t := jsonrpc.NewTracker[string](0)
	t.Request(jsonrpc.ClientToServer, "7", "tools/call")
	// A response to id 7 sent the same way answers nothing; sent back, it
	// answers the request.
	_, ok := t.Answer(jsonrpc.ClientToServer, "7")
	fmt.Println(ok)
	method, ok := t.Answer(jsonrpc.ServerToClient, "7")
	fmt.Println(method, ok)
	// Output:
	// false
	// tools/call true
}
