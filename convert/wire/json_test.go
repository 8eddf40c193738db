package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// validJSONCases probe every branch of validJSON; each verdict is checked
// against encoding/json.Valid, the check validJSON stands in for.
var validJSONCases = []string{
	``, ` `, `0`, `-0`, `-`, `01`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1e+5`, `1E-05`, `-1.25e3`, `1x`,
	`true`, `tru`, `truex`, `false`, `null`, `nul`, ` null `, "\tnull\r\n", `null null`,
	`""`, `"`, `"abc`, `"a\"b"`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\x"`, `"\u00e9"`, `"\u00G9"`, `"\u12"`,
	`"\ud800"`, `"\udc00\ud800"`, "\"\x01\"", "\"\x7f\"", "\"\xff\xfe\"", `"é"`, `"\`,
	`[]`, `[ ]`, `[1,2]`, `[1,]`, `[,1]`, `[1 2]`, `[`, `]`, `[[[]]]`, `[[[]]`,
	`{}`, `{ }`, `{"a":1}`, `{"a" : [1, {"b":null}] }`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{a:1}`, `{"a":1 "b":2}`,
	`{"a":1}}`, `{1:2}`, `{"\u0041":"x"}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

func TestValidJSON(t *testing.T) {
	for _, s := range validJSONCases {
		if got, want := validJSON(s), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.60q) = %v, encoding/json.Valid says %v", s, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range validJSONCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validJSON(s), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%q) = %v, encoding/json.Valid says %v", s, got, want)
		}
	})
}
