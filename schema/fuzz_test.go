package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// FuzzChecker checks any JSON value, in either direction, against the
// embedded block and against a schema that dispatches by method: no panic,
// and a result is valid exactly when it has no error-severity problem.
func FuzzChecker(f *testing.F) {
	for _, seed := range equivSeeds {
		f.Add([]byte(seed), true)
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"t"}}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":0,"result":{"content":[]}}`), true)
	f.Add([]byte(`[{"jsonrpc":"2.0","id":0,"method":"roots/list"},{"jsonrpc":"2.0","id":0,"result":{}}]`), false)
	// Issue 23: a member named twice, numbers too big to compute with.
	f.Add([]byte(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":1,"name":"x"},"id":1}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","method":"m","params":[1E1000001,1E1000001],"id":1E999999}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","error":{"code":1e1001,"message":"x"},"id":1}`), true)
	file := filepath.Join(f.TempDir(), "mcp.json")
	if err := os.WriteFile(file, []byte(dispatchSchema), 0o644); err != nil {
		f.Fatal(err)
	}
	mcp, err := CompileFile(file)
	if err != nil {
		f.Fatal(err)
	}
	def := compileDefault(f)
	f.Fuzz(func(t *testing.T, data []byte, fromServer bool) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		dir := jsonrpc.ClientToServer
		if fromServer {
			dir = jsonrpc.ServerToClient
		}
		for _, s := range []*Schema{def, mcp} {
			c, err := NewChecker(s, "")
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2; i++ { // twice: the second may pair with the first
				m, ds := c.Check(v, dir, i)
				for _, p := range ds {
					if p.Message == "" {
						t.Errorf("%s: problem without a message: %+v", data, p)
					}
				}
				// The rules' diagnostics come first, and a message they
				// reject is invalid whatever the schema says.
				rules := m.AllDiagnostics()
				if len(ds) < len(rules) || len(rules) > 0 && !reflect.DeepEqual(ds[:len(rules)], rules) {
					t.Errorf("%s: diagnostics %+v do not start with the rules' %+v", data, ds, rules)
				}
				if !m.Valid() && !diag.HasErrors(ds) {
					t.Errorf("%s: invalid by the rules, but no error in %+v", data, ds)
				}
			}
		}
	})
}
