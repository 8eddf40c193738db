package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/schema/kind"
)

// unionStep is one message of a conversation checked against a schema that
// is a union of its messages, with the findings it must get, each as
// "severity pointer kind: words" (words a part of the message).
type unionStep struct {
	dir  jsonrpc.Direction
	msg  string
	want []string
}

// checkUnion compiles block id of the register in dir and checks steps in
// order with one Checker, so that responses are paired with their requests.
func checkUnion(t *testing.T, dir, id string, steps []unionStep) {
	t.Helper()
	reg, err := bblock.LoadRegisterDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := reg.Block(id)
	if b == nil {
		t.Fatalf("%s: no block %s (it has %v)", dir, id, reg.IDs())
	}
	s, err := Compile(b, reg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChecker(s, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range steps {
		_, ds := c.Check(decode(t, st.msg), st.dir, i)
		if len(ds) != len(st.want) {
			t.Errorf("step %d %s: %d findings %v, want %d %q", i, st.msg, len(ds), ds, len(st.want), st.want)
			continue
		}
		for j, w := range st.want {
			head, words, _ := strings.Cut(w, ": ")
			d := ds[j]
			got := d.Severity.String() + " " + d.Pointer + " " + string(d.Violation)
			if got != head || !strings.Contains(d.Message, words) {
				t.Errorf("step %d %s: finding %q %q, want %q with %q", i, st.msg, got, d.Message, head, words)
			}
			if strings.Contains(d.Message, "none of the alternatives") {
				t.Errorf("step %d %s: %q lists alternatives; one verdict wanted", i, st.msg, d.Message)
			}
		}
	}
}

// TestUnionBlock: with a hand-made block whose schema, as the OGC MCP
// block's, is an anyOf of every message, each message gets one verdict: a
// request by the alternative its method names, an unknown method a single
// error saying the block does not define it, a response by its request's
// result, and a response to a request with no result of its own (ping) by
// the results no other request claims; only a response to a request the
// log does not show may be any of the results.
func TestUnionBlock(t *testing.T) {
	c2s, s2c := jsonrpc.ClientToServer, jsonrpc.ServerToClient
	checkUnion(t, "testdata/union-block", "u.msg", []unionStep{
		{c2s, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":1,"result":{}}`, nil},
		// EchoResult would accept it, but ping's answer is a Result, which
		// must be empty.
		{c2s, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":2,"result":{"text":"hi"}}`, []string{"error /result maxProperties: "}},
		{c2s, `{"jsonrpc":"2.0","id":3,"method":"echo","params":{"text":5}}`, []string{"error /params/text type: string"}},
		{s2c, `{"jsonrpc":"2.0","id":3,"result":{}}`, []string{"error /result required: 'text'"}},
		{c2s, `{"jsonrpc":"2.0","id":4,"method":"frobnicate"}`, []string{`error /method methodUnknown: "frobnicate" is not one of the 2 methods schema u.msg defines`}},
		{s2c, `{"jsonrpc":"2.0","id":4,"result":{"text":"?"}}`, nil},
		// id 9 was never asked: any of the server's results will do.
		{s2c, `{"jsonrpc":"2.0","id":9,"result":{"text":"a"}}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":10,"result":{"text":1}}`, nil},
	})
}

// TestOGCBlockVerdicts: the same with the OGC MCP block (issue 41): an
// unknown method is one error, no longer a warning and an error saying its
// method must be "ping"; the answer to a ping is valid, no longer a failure
// of twelve alternatives.
func TestOGCBlockVerdicts(t *testing.T) {
	dir := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	c2s, s2c := jsonrpc.ClientToServer, jsonrpc.ServerToClient
	checkUnion(t, dir, "mcp.mcp", []unionStep{
		{c2s, `{"jsonrpc":"2.0","id":1,"method":"frobnicate","params":{}}`, []string{`error /method methodUnknown: "frobnicate" is not one of the`}},
		{c2s, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":2,"result":{}}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, nil},
		{c2s, `{"jsonrpc":"2.0","id":3,"result":{}}`, nil},
		{c2s, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}`, []string{"error /params/name type: want string"}},
	})
}

// TestUnknownMethodSeverity: an unknown method is a warning where the
// schema accepts the message anyway (a generic request definition, or a
// root that admits any method) and an error only where it does not.
func TestUnknownMethodSeverity(t *testing.T) {
	reg, err := bblock.LoadRegisterDir("testdata/union-block", nil)
	if err != nil {
		t.Fatal(err)
	}
	union, err := Compile(reg.Block("u.msg"), reg)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "open.json")
	if err := os.WriteFile(file, []byte(dispatchSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	open, err := CompileFile(file) // its root admits any message
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		s    *Schema
		want diag.Severity
	}{{"union", union, diag.Error}, {"open root", open, diag.Warning}} {
		c, err := NewChecker(tt.s, "")
		if err != nil {
			t.Fatal(err)
		}
		_, ds := c.Check(decode(t, `{"jsonrpc":"2.0","id":1,"method":"nope"}`), jsonrpc.ClientToServer, 0)
		if len(ds) != 1 || ds[0].Severity != tt.want || ds[0].Violation != kind.MethodUnknown || ds[0].Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s: %v, want one %v of kind %s, code %d", tt.name, ds, tt.want, kind.MethodUnknown, jsonrpc.CodeMethodNotFound)
		}
	}
}
