package schema

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/jsonrpc"
)

// The embedded block's schema and the JSON-RPC rules say the same: a value
// is valid by one exactly when it is valid by the other. Checker relies on
// this to skip the schema for the embedded block (see Schema.rulesSuffice).
var equivSeeds = []string{
	`{"jsonrpc":"2.0","method":"m","id":1}`,
	`{"jsonrpc":"2.0","method":"m","params":[1],"id":"x"}`,
	`{"jsonrpc":"2.0","method":"m","params":{},"id":null}`,
	`{"jsonrpc":"2.0","method":"m","params":"bar"}`,
	`{"jsonrpc":"2.0","method":1}`,
	`{"jsonrpc":"2.0","method":"m","id":true}`,
	`{"jsonrpc":"2.0","method":"m","id":1.5}`,
	`{"jsonrpc":"2.0","method":"m","id":{}}`,
	`{"jsonrpc":"1.0","method":"m"}`,
	`{"method":"m"}`,
	`{"jsonrpc":"2.0","result":null,"id":1}`,
	`{"jsonrpc":"2.0","result":1}`,
	`{"jsonrpc":"2.0","result":1,"id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"x"},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":-32601,"message":"x","data":[1]},"id":null}`,
	`{"jsonrpc":"2.0","error":{"code":1.5,"message":"x"},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":1.0,"message":"x"},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":1e3,"message":"x"},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":1e30,"message":"x"},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":"1","message":"x"},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":1},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":1,"message":2},"id":1}`,
	`{"jsonrpc":"2.0","error":"x","id":1}`,
	`{"jsonrpc":"2.0","error":null,"id":1}`,
	`{"jsonrpc":"2.0"}`,
	`{}`,
	`[]`,
	`[1]`,
	`[{"jsonrpc":"2.0","method":"m"},{"jsonrpc":"2.0","result":1,"id":1}]`,
	`[{"jsonrpc":"2.0","method":"m"},[]]`,
	`[[{"jsonrpc":"2.0","method":"m"}]]`,
	`1`, `"x"`, `null`, `true`,
	`{"jsonrpc":"2.0","method":"m","extra":1}`,
	`{"jsonrpc":"2.0","method":"m","params":null}`,
	`{"jsonrpc":"2.0","method":"rpc.x","id":-0}`,
	`{"jsonrpc":"2.0","result":1,"id":9223372036854775808}`,
}

func TestDefaultSchemaEqualsRules(t *testing.T) {
	s := compileDefault(t)
	if !s.rulesSuffice {
		t.Error("the embedded block's schema is not marked as equal to the rules")
	}
	other, err := CompileFile("../bblock/jsonrpc/schema.yaml")
	if err != nil || other.rulesSuffice {
		t.Errorf("a copy of the schema on disk is marked: %v", err)
	}
	for _, seed := range equivSeeds {
		checkEquiv(t, s, []byte(seed))
	}
}

func FuzzDefaultSchemaEqualsRules(f *testing.F) {
	for _, seed := range equivSeeds {
		f.Add([]byte(seed))
	}
	s := compileDefault(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkEquiv(t, s, data)
	})
}

func checkEquiv(t *testing.T, s *Schema, data []byte) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || d.More() {
		return
	}
	rules := jsonrpc.Classify(v).Valid()
	probs := s.Validate(v)
	if rules != (len(probs) == 0) {
		var msgs []string
		for _, p := range probs {
			msgs = append(msgs, p.Pointer+": "+p.Message)
		}
		t.Errorf("%s: rules say valid=%v, schema says %q", data, rules, strings.Join(msgs, "; "))
	}
}
