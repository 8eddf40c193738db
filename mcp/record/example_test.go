package record_test

import (
	"os"
	"time"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/mcp/record"
)

// A Log writes each message as an envelope line as soon as it is recorded.
func ExampleLog() {
	log := record.NewLog(os.Stdout)
	log.Now = func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) }
	log.Record(jsonrpc.ClientToServer, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"))
	log.Record(jsonrpc.ServerToClient, []byte("server ready\n"))
	// Output:
	// {"dir":"c2s","ts":"2026-11-20T09:00:00.000Z","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
	// {"dir":"s2c","ts":"2026-11-20T09:00:00.000Z","msg":"server ready\n"}
}
