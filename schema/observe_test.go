package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// observerFunc is an Observer made of a function.
type observerFunc func(*Observed) Choice

func (f observerFunc) Observe(m *Observed) Choice { return f(m) }

// TestObserver: an Observer sees every message in log order, with its line
// and text; its diagnostics are the message's; the schema it chooses is the
// one the message is checked against, and a response's result is checked
// against the definitions it names, any one of them.
func TestObserver(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) *Schema {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		s, err := CompileFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	strict := write("strict.json", dispatchSchema)
	// The same, but a CallToolResult that takes anything, and a
	// TaskResult: what the other version of a schema would say.
	loose := write("loose.json", strings.Replace(strings.Replace(dispatchSchema,
		`"CallToolResult": {"type": "object", "required": ["content"]}`,
		`"CallToolResult": {"type": "object"}, "TaskResult": {"type": "object", "required": ["task"]}`, 1),
		`"PingRequest"`, `"TaskRequest": {"type": "object", "properties": {"method": {"const": "tasks/get"}}}, "PingRequest"`, 1))
	if !strings.Contains(dispatchSchema, `"CallToolResult": {"type": "object", "required": ["content"]}`) {
		t.Fatal("the test schema changed: make loose.json again")
	}
	const log = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":1,"result":{}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":3,"result":{"content":[]}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":4,"result":{"task":{}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":5,"result":{"other":1}}
`
	var seen []string
	obs := observerFunc(func(m *Observed) Choice {
		seen = append(seen, strings.TrimSpace(string(m.Raw)))
		if m.Line != m.Index+1 {
			t.Errorf("message %d: line %d", m.Index, m.Line)
		}
		switch m.Index {
		case 0:
			return Choice{Diagnostics: []diag.Diagnostic{{Severity: diag.Error, Message: "observed", Rule: "r1"}}}
		case 3: // {} is a CallToolResult of loose.json, not of strict.json
			return Choice{Schema: loose}
		case 7: // a task result, or the request's result
			return Choice{Schema: loose, Results: []string{"TaskResult", ""}}
		case 9: // a task result only
			return Choice{Schema: loose, Results: []string{"TaskResult"}}
		}
		return Choice{}
	})
	c, _ := NewChecker(strict, "")
	c.Observe(obs, loose)
	r, err := rpclog.NewReader(strings.NewReader(log), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int][]string{}
	if _, err := ValidateLog(r, c, "log", func(f Finding) {
		byLine[f.Line] = append(byLine[f.Line], f.Rule+":"+f.Message)
	}); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		1: "r1:observed",
		2: "missing property 'content'", // strict
		// 4: loose: valid; 6: strict, valid; 8: a TaskResult
		10: "missing property 'task'",
	}
	for line := 1; line <= 10; line++ {
		got := strings.Join(byLine[line], "; ")
		if w := want[line]; w == "" && got != "" || !strings.Contains(got, w) {
			t.Errorf("line %d: %q, want %q", line, got, w)
		}
	}
	if len(seen) != 10 || seen[4] != strings.Split(log, "\n")[4] {
		t.Errorf("observed %d messages: %q", len(seen), seen)
	}
}

// TestMissingErrorID: an error response without "id" is valid where the
// schema's error response does not require one (MCP 2025-11-25), and
// invalid where it does (2025-06-18) or without a schema; a success
// response without one is invalid in all.
func TestMissingErrorID(t *testing.T) {
	const (
		noID    = `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`
		inBatch = `[{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}]`
		success = `{"jsonrpc":"2.0","result":{}}`
		badCode = `{"jsonrpc":"2.0","error":{"code":"x","message":"Parse error"}}`
	)
	for _, c := range []struct {
		version string // "" for no schema
		msg     string
		valid   bool
		kind    jsonrpc.Kind
	}{
		{"2025-11-25", noID, true, jsonrpc.KindErrorResponse},
		{"2026-07-28", noID, true, jsonrpc.KindErrorResponse},
		{"2025-06-18", noID, false, jsonrpc.KindInvalid},
		{"", noID, false, jsonrpc.KindInvalid},
		{"2025-11-25", inBatch, true, jsonrpc.KindBatch},
		{"2025-11-25", success, false, jsonrpc.KindInvalid},
		{"2025-11-25", badCode, false, jsonrpc.KindInvalid},
	} {
		var s *Schema
		if c.version != "" {
			var err error
			if s, err = CompileFile(shared.Dir(t, "reference", "mcp-schema", c.version, "schema.json")); err != nil {
				t.Fatal(err)
			}
		}
		ch, _ := NewChecker(s, "")
		m, ds := ch.Check(decode(t, c.msg), jsonrpc.ServerToClient, 0)
		if diag.HasErrors(ds) == c.valid || m.Kind != c.kind {
			t.Errorf("%s %s: kind %s, %v; want valid %v, kind %s", c.version, c.msg, m.Kind, ds, c.valid, c.kind)
		}
	}
}
