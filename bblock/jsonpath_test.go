package bblock

import (
	"errors"
	"testing"
)

// TestSelectJSONPath: the first value a JSONPath selects, members in their
// order; nothing selected is ErrNoMatch.
func TestSelectJSONPath(t *testing.T) {
	const doc = `{"type": "FeatureCollection", "features": [
	  {"id": "a", "properties": {"z": 1, "a": [true, null]}},
	  {"id": "b", "properties": {"z": 2}}]}`
	tests := []struct {
		expr, want string
		noMatch    bool
		bad        bool
	}{
		{expr: "$.features[0].properties", want: "{\n  \"z\": 1,\n  \"a\": [\n    true,\n    null\n  ]\n}\n"},
		{expr: "$.features[1].id", want: "\"b\"\n"},
		{expr: "$.features[-1].properties.z", want: "2\n"},
		{expr: "$.features[*].id", want: "\"a\"\n"},
		{expr: "$..z", want: "1\n"},
		{expr: "$.features[?(@.properties.z == 2)].id", want: "\"b\"\n"},
		{expr: "$.features[?(@.id == 'b')].properties", want: "{\n  \"z\": 2\n}\n"},
		{expr: "$", want: ""}, // the whole document: checked below
		{expr: "$.nowhere", noMatch: true},
		{expr: "$.features[5]", noMatch: true},
		{expr: "$.features[", bad: true},
	}
	for _, tt := range tests {
		got, err := SelectJSONPath([]byte(doc), tt.expr)
		switch {
		case tt.noMatch:
			if !errors.Is(err, ErrNoMatch) {
				t.Errorf("%s: %q, %v; want ErrNoMatch", tt.expr, got, err)
			}
		case tt.bad:
			if err == nil || errors.Is(err, ErrNoMatch) {
				t.Errorf("%s: %q, %v; want a syntax error", tt.expr, got, err)
			}
		case tt.want == "":
			if err != nil || len(got) < len(doc)/2 {
				t.Errorf("%s: %q, %v", tt.expr, got, err)
			}
		default:
			if err != nil || string(got) != tt.want {
				t.Errorf("%s: %q, %v; want %q", tt.expr, got, err, tt.want)
			}
		}
	}
	if _, err := SelectJSONPath([]byte("{not json"), "$.a"); err == nil {
		t.Error("a file that is not JSON gave no error")
	}
}
