package jcs

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The expected forms below follow RFC 8785 and ECMAScript's Number
// formatting rules (section 3.2.2.3 of the RFC and its appendix B examples).
func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{`null`, `null`},
		{`true`, `true`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`""`, `""`},
		{`{"b": 1, "a": [1, "x", null]}`, `{"a":[1,"x",null],"b":1}`},
		{`"\u0000\u001f\b\f\n\r\t\"\\/ é €"`, `"\u0000\u001f\b\f\n\r\t\"\\/ é €"`},
		{`1.0`, `1`},
		{`-0`, `0`},
		{`1e21`, `1e+21`},
		{`1e20`, `100000000000000000000`},
		{`1e-6`, `0.000001`},
		{`1e-7`, `1e-7`},
		{`123.456e-10`, `1.23456e-8`},
		{`-1.5E+300`, `-1.5e+300`},
		{`0.1`, `0.1`},
		{`333333333.33333329`, `333333333.3333333`},
		{`4.50`, `4.5`},
		{`2e-3`, `0.002`},
		{`0.000001`, `0.000001`},
		{`9007199254740992`, `9007199254740992`},
		{`295147905179352830000`, `295147905179352830000`},
		// Members sort by UTF-16 code units: U+E000 (one unit 0xE000) after
		// U+1F600 (high surrogate 0xD83D), though UTF-8 byte order says the opposite.
		{`{"\ue000": 1, "😀": 2, "a": 3}`, `{"a":3,"😀":2,"` + "\ue000" + `":1}`},
	}
	for _, tt := range tests {
		got, changes, err := String(decode(t, tt.in))
		if err != nil || got != tt.want {
			t.Errorf("String(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
		if len(changes) != 0 && tt.in != `333333333.33333329` {
			t.Errorf("String(%s): unexpected changes %v", tt.in, changes)
		}
	}
}

func TestChanges(t *testing.T) {
	tests := []struct {
		in      string
		changed []string // pointers
	}{
		{`12345678901234567890`, []string{""}},
		{`{"a": [1, 9007199254740993]}`, []string{"/a/1"}},
		{`{"a/b~": 0.1000000000000000055511151231257827}`, []string{"/a~1b~0"}},
		{`[9007199254740992, 1.10, 1e2, -0.0]`, nil},
	}
	for _, tt := range tests {
		_, changes, err := String(decode(t, tt.in))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range changes {
			got = append(got, c.Pointer)
			if c.Written == c.Becomes {
				t.Errorf("change %+v does not change", c)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.changed, " ") {
			t.Errorf("%s: changes at %q, want %q", tt.in, got, tt.changed)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, v := range []any{json.Number("1e400"), math.Inf(1), math.NaN(), string([]byte{0xff}), map[string]any{"x": struct{}{}}} {
		if _, _, err := String(v); err == nil {
			t.Errorf("String(%#v) succeeded", v)
		}
	}
}

// TestRoundTrip: the canonical form reads back to an equal value.
func TestRoundTrip(t *testing.T) {
	for _, in := range []string{`{"z":[1,2.5,-3e-9,{"k":"v\n"}],"a":null}`, `"😀\u0001"`, `[1e300, 5e-324]`} {
		s, _, err := String(decode(t, in))
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		json.Unmarshal([]byte(in), &a)
		if err := json.Unmarshal([]byte(s), &b); err != nil {
			t.Fatalf("%s: canonical %s is not JSON: %v", in, s, err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s -> %s changes the value", in, s)
		}
	}
}
