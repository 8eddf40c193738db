package rpclog_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

func ExampleReader() {
	log := `{"dir":"c2s","ts":"2026-11-20T09:00:00Z","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
not JSON
{"dir":"s2c","ts":"2026-11-20T09:00:01Z","msg":{"jsonrpc":"2.0","id":1,"result":{}}}
`
	r, err := rpclog.NewReader(strings.NewReader(log), "session.jsonl", rpclog.ReaderOptions{})
	if err != nil {
		panic(err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if rec.Err != nil {
			fmt.Println(rec.Err)
			continue
		}
		fmt.Println(rec.Line, rec.Dir, rec.TS, string(rec.Raw))
	}
	// Output:
	// 1 c2s 2026-11-20T09:00:00Z {"jsonrpc":"2.0","id":1,"method":"ping"}
	// session.jsonl:2:2: invalid character 'o' in literal null (expecting 'u')
	// 3 s2c 2026-11-20T09:00:01Z {"jsonrpc":"2.0","id":1,"result":{}}
}
