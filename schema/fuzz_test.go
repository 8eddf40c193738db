package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
				r := c.Check(v, dir, i)
				invalid := false
				for _, p := range r.Diagnostics {
					if p.Severity == diag.Error {
						invalid = true
					}
					if p.Message == "" {
						t.Errorf("%s: problem without a message: %+v", data, p)
					}
				}
				if r.Valid() == invalid {
					t.Errorf("%s: Valid() = %v with problems %+v", data, r.Valid(), r.Diagnostics)
				}
			}
		}
	})
}
