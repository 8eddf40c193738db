package mcpimport_test

import (
	"os"
	"strings"

	"github.com/jrpcld/jrpcld/mcpimport"
)

// An mcp-recorder cassette becomes envelope lines.
func ExampleRead() {
	cassette := `{"version":"1.0","interactions":[{"type":"jsonrpc_request",
	  "request":{"method":"ping","jsonrpc":"2.0","id":1},"response":{"jsonrpc":"2.0","id":1,"result":{}}}]}`
	entries, _, err := mcpimport.Read(strings.NewReader(cassette), mcpimport.MCPRecorder)
	if err != nil {
		panic(err)
	}
	mcpimport.Write(os.Stdout, entries)
	// Output:
	// {"dir":"c2s","msg":{"method":"ping","jsonrpc":"2.0","id":1}}
	// {"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{}}}
}
