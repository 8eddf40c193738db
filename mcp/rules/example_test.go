package rules_test

import (
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp/rules"
	"github.com/jrpcld/jrpcld/schema"
)

// A client that calls a tool before the server has answered initialize,
// and never sends notifications/initialized (that it calls a tool it did
// not list is no finding: no tools/list in full shows the tool missing):
// the log is read once for the version of its messages, then checked with
// the rules beside the JSON-RPC 2.0 rules (a schema per version would go
// in Options.Schemas).
func Example() {
	log := `{"dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}
{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}}
{"dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}
{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}
`
	r, _ := rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	versions, _ := rules.Scan(r)
	fmt.Println(versions.Spans[0].Version, "from", versions.Spans[0].Reason())

	rc := rules.NewChecker(rules.Options{Versions: versions})
	c, _ := schema.NewChecker(nil, "")
	c.Observe(rc)
	r, _ = rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	show := func(f schema.Finding) { fmt.Printf("%d %s %s\n", f.Line, f.Severity, f.Rule) }
	schema.ValidateLog(r, c, "log.jsonl", show)
	for _, f := range rc.End() {
		show(f)
	}
	// Output:
	// 2025-06-18 from the server's answer to initialize, line 3
	// 2 warning mcp-lifecycle-client-waits-for-initialize
	// 3 error mcp-lifecycle-initialized
}
