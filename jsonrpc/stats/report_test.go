package stats

import (
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// hostileLog has a method name that would recolour a terminal and forge a
// table row, a tool name with a right-to-left override, and an error
// response to the hostile method.
const hostileLog = `{"jsonrpc":"2.0","id":1,"method":"x\u001b[31m\r\nforged | row"}
{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such method"}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"report\u202etxt.exe","arguments":{}}}
{"jsonrpc":"2.0","method":"note\u009b2J\u2066"}
`

// TestWriteTextEscapes: every cell of the text report that comes from the
// input (the file name, the log IRI, methods in the method and error
// tables, tool names, the schema name) is written with its control and
// bidirectional characters escaped, so that no such character reaches the
// output raw and the escaped forms are shown instead.
func TestWriteTextEscapes(t *testing.T) {
	c, _ := collect(t, hostileLog, Options{Schema: "schema\x1b]0;title\x07.json"})
	r := NewReport()
	r.Add(&LogStats{File: "log\r.jsonl", Log: "http://x/\u202elog", Stats: c.Stats()})
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, r := range out {
		if r != '\n' && termsafe.Escape(string(r)) != string(r) {
			t.Errorf("raw %U at byte %d of the report:\n%s", r, i, out)
		}
	}
	for _, want := range []string{
		`log\r.jsonl (log http://x/\u202elog): 4 messages`,                       // file and IRI
		`  x\x1b[31m\r\nforged | row         1              0       1`,           // method table
		`  -32601      x\x1b[31m\r\nforged | row      1`,                         // error table
		`  report\u202etxt.exe      1        0`,                                  // tool table
		`  note\u009b2J\u2066                0              1       0`,           // C1 and isolate
		`validation (JSON-RPC 2.0 rules and schema schema\x1b]0;title\x07.json)`, // schema name
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}
