package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// TestDiffJSON checks diffJSON by what its patch does: applied to the
// value read back, it gives the original (an independent check of every
// operation and pointer), and equal values need no operation.
func TestDiffJSON(t *testing.T) {
	tests := []struct {
		orig, back string
		ops        int // operations expected
	}{
		{`{"a":1}`, `{"a":1}`, 0},
		{`{"a":1,"b":{"c":[1,2,3]}}`, `{"b":{"c":[1,2,3]},"a":1}`, 0},
		{`{"a":1,"b":2}`, `{"a":1}`, 1},
		{`{"a":1}`, `{"a":1,"z":true}`, 1},
		{`{"a":{"x":1,"y":[1,2]}}`, `{"a":{"x":2,"y":[2,1]}}`, 3},
		{`{"a":[1,2,3]}`, `{"a":[1,2]}`, 1},
		{`{"a/b":{"~x":1,"m~/n":[0,{"p":null}]}}`, `{"a/b":{"~x":2,"m~/n":[0,{"p":false}]},"q/r":1}`, 3},
		{`{"l":[0,1,2,3,4,5,6,7,8,9,10,11,{"k":"v"}]}`, `{"l":[0,1,2,3,4,5,6,7,8,9,10,11,{"k":"w"}]}`, 1},
		{`{"a":{"b":{"c":{"d":1}}}}`, `{"a":{"b":{"c":{"e":1}}}}`, 2},
		{`{"a":"x"}`, `["x"]`, 1},
	}
	for _, tt := range tests {
		orig, err := decodeJSON(tt.orig)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range []bool{false, true} {
			var back any = rawJSON(tt.back)
			if !raw {
				if back, err = decodeJSON(tt.back); err != nil {
					t.Fatal(err)
				}
			}
			ops := diffJSON(nil, "", orig, back)
			if len(ops) != tt.ops {
				t.Errorf("%s from %s: %d operations %v, want %d", tt.orig, tt.back, len(ops), ops, tt.ops)
			}
			for _, op := range ops {
				if op.Path != "" && !strings.HasPrefix(op.Path, "/") {
					t.Errorf("%s from %s: path %q is not a JSON pointer", tt.orig, tt.back, op.Path)
				}
			}
			fresh, _ := decodeJSON(tt.back)
			got, err := applyPatch(fresh, ops)
			if err != nil || !ojson.Equal(got, orig) {
				t.Errorf("%s from %s: the patch %v gives %v (%v)", tt.orig, tt.back, ops, got, err)
			}
		}
	}
}

// TestWireValuesEqual: the way back's own kinds of value compare through
// ojson.Equal as the patch needs them to: rdf:JSON text by the value it
// decodes to (at any depth), text that does not decode and a property of
// several values equal to nothing, not even themselves.
func TestWireValuesEqual(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"raw and decoded", rawJSON(`{"x":[1.0,"s"]}`), map[string]any{"x": []any{n("1"), "s"}}, true},
		{"decoded and raw", map[string]any{"x": n("10")}, rawJSON(`{"x":1e1}`), true},
		{"raw inside", map[string]any{"k": rawJSON(`[true]`)}, map[string]any{"k": []any{true}}, true},
		{"raw differs", rawJSON(`{"x":1}`), map[string]any{"x": n("2")}, false},
		{"raw not JSON", rawJSON(`{`), rawJSON(`{`), false},
		{"set", setValue{"a", "b"}, setValue{"a", "b"}, false},
		{"set inside", map[string]any{"k": setValue{n("1")}}, map[string]any{"k": setValue{n("1")}}, false},
		{"set and list", setValue{"a"}, []any{"a"}, false},
	}
	for _, tt := range tests {
		if got := ojson.Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: ojson.Equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}
