package mcp_test

import (
	"os"
	"strings"

	"github.com/jrpcld/jrpcld/mcp"
)

// An mcp-recorder cassette becomes envelope lines.
func ExampleReadRecording() {
	cassette := `{"version":"1.0","interactions":[{"type":"jsonrpc_request",
	  "request":{"method":"ping","jsonrpc":"2.0","id":1},"response":{"jsonrpc":"2.0","id":1,"result":{}}}]}`
	entries, _, err := mcp.ReadRecording(strings.NewReader(cassette), mcp.MCPRecorder)
	if err != nil {
		panic(err)
	}
	mcp.WriteLog(os.Stdout, entries)
	// Output:
	// {"dir":"c2s","msg":{"method":"ping","jsonrpc":"2.0","id":1}}
	// {"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{}}}
}
