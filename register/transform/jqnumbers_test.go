package transform

import (
	"encoding/json"
	"testing"

	"github.com/jrpcld/jrpcld/internal/pyjson"
)

// jq (as the tool chain runs it) holds numbers as doubles and writes whole
// ones without a fraction: "0.0" comes back as 0, and the tool chain then
// reads it as an integer.
func TestJQNumbers(t *testing.T) {
	cases := []struct {
		in   json.Number
		want string
	}{
		{"0.0", "0"},
		{"1e2", "100"},
		{"0.5", "0.5"},
		{"-0.0", "0"},
		{"12", "12"},
		{"123456789012345678901", "123456789012345678901"},
		{"1e300", "1e+300"},
	}
	for _, c := range cases {
		got, err := pyjson.Indent(jqNumbers(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("jq number %s: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
