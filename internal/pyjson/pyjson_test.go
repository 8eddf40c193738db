package pyjson

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// The expected texts are what Python 3's json.dumps(v, indent=2) writes
// for the same values (checked with CPython 3.11), which is how the tool
// chain writes a transform's JSON output.
func TestIndent(t *testing.T) {
	big1, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	cases := []struct {
		v    any
		want string
	}{
		{1e-05, "1e-05"},
		{1e16, "1e+16"},
		{123456789012345.0, "123456789012345.0"},
		{0.1, "0.1"},
		{1.5e300, "1.5e+300"},
		{0.0001, "0.0001"},
		{9999999999999998.0, "9999999999999998.0"},
		{2.5, "2.5"},
		{"é😀\x7f\x01\"\\/", `"\u00e9\ud83d\ude00\u007f\u0001\"\\/"`},
		{map[string]any{"c": []any{1, map[string]any{"d": nil}}, "a": []any{}, "b": map[string]any{}},
			"{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": null\n    }\n  ]\n}"},
		{true, "true"},
		{json.Number("1.0"), "1.0"},
		{json.Number("-0"), "0"},
		{json.Number("1E2"), "100.0"},
		{big1, "123456789012345678901234567890"},
	}
	for _, c := range cases {
		got, err := Indent(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Indent(%#v) = %q, %v; want %q", c.v, got, err, c.want)
		}
	}
	if _, err := Indent(struct{}{}); err == nil {
		t.Error("a struct was written")
	}
}

// TestCompact checks json.dumps(v, separators=(",", ":")) (checked with
// CPython 3.11), with members in the order of an *ojson.Object.
func TestCompact(t *testing.T) {
	o := ojson.NewObject()
	o.Set("z", []any{json.Number("1"), "é", nil})
	o.Set("a", ojson.NewObject())
	o.Set("m", []any{})
	got, err := Compact(o)
	if want := `{"z":[1,"\u00e9",null],"a":{},"m":[]}`; err != nil || string(got) != want {
		t.Errorf("Compact = %s, %v; want %s", got, err, want)
	}
}
