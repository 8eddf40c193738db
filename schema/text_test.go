package schema

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestValueEnd: the extent of values, strings with escaped quotes and
// backslashes among them; text that is not JSON fails without a panic.
func TestValueEnd(t *testing.T) {
	tests := []struct {
		text string
		end  int // -1: fails
	}{
		{`"abc" x`, 5},
		{`"a\"b" x`, 6},
		{`"a\\" x`, 5},
		{`"a\\\"b" x`, 8},
		{`"\\\\" x`, 6},
		{`{"a":"}"} x`, 9},
		{`[1,[2,{"]":3}]] x`, 15},
		{`-1.5e3,`, 6},
		{`true]`, 4},
		{`"abc`, -1},
		{`"a\"`, -1},
		{`{"a":1`, -1},
		{``, -1},
		{`,`, -1},
	}
	for _, tt := range tests {
		end, ok := (&index{}).valueEnd([]byte(tt.text), 0)
		if tt.end < 0 && ok || tt.end >= 0 && (!ok || end != tt.end) {
			t.Errorf("valueEnd(%q) = %d, %v; want %d", tt.text, end, ok, tt.end)
		}
	}
}

// TestMembersElements: members and elements give what encoding/json
// reads, in order; member returns the last of a name, as decoding keeps.
func TestMembersElements(t *testing.T) {
	obj := []byte(`{ "a" : 1 , "b\"c":{"x":[1,2]},"d":"e\\","a":[ ] }`)
	var names []string
	var values []string
	if !(&index{}).members(obj, func(n, v []byte) bool {
		names, values = append(names, string(n)), append(values, string(v))
		return true
	}) {
		t.Fatal("members failed")
	}
	if want := []string{`a`, `b\"c`, `d`, `a`}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if want := []string{`1`, `{"x":[1,2]}`, `"e\\"`, `[ ]`}; !reflect.DeepEqual(values, want) {
		t.Errorf("values %q, want %q", values, want)
	}
	if got := string((&index{}).member(obj, "a")); got != "[ ]" {
		t.Errorf("member a = %q", got)
	}
	arr := []byte(`[ 1 ,"x",{"a":[]} , null]`)
	var elems []string
	if !(&index{}).elements(arr, func(_ int, v []byte) bool { elems = append(elems, string(v)); return true }) {
		t.Fatal("elements failed")
	}
	for i, e := range elems {
		var v any
		if err := json.Unmarshal([]byte(e), &v); err != nil {
			t.Errorf("element %d %q: %v", i, e, err)
		}
	}
	if len(elems) != 4 || string((&index{}).element(arr, 2)) != `{"a":[]}` || (&index{}).element(arr, 4) != nil {
		t.Errorf("elements %q", elems)
	}
	for _, bad := range []string{`{"a" 1}`, `{"a":1,}`, `{a:1}`, `{"a":1 "b":2}`, `{`, `[1 2]`, `[1,`, `[`, `[1,]`} {
		read := (&index{}).members([]byte(bad), func(_, _ []byte) bool { return true })
		if bad[0] == '[' {
			read = (&index{}).elements([]byte(bad), func(int, []byte) bool { return true })
		}
		if read {
			t.Errorf("%q read as JSON", bad)
		}
	}
}

// TestUnquote: escapes decode as encoding/json decodes them; escapes that
// are not JSON's fail.
func TestUnquote(t *testing.T) {
	for _, s := range []string{`plain`, `a\"b`, `\\`, `\/\b\f\n\r\t`, `\u00e9\u0041`, `\ud83c\udf89`, `é🎉`} {
		got, ok := unquote([]byte(s), nil)
		var want string
		if err := json.Unmarshal([]byte(`"`+s+`"`), &want); err != nil || !ok || string(got) != want {
			t.Errorf("unquote(%q) = %q, %v; want %q (%v)", s, got, ok, want, err)
		}
	}
	for _, s := range []string{`\x`, `\u12`, `\ud83c`, `\udf89`, `\ud83c\u0041`, `a\`} {
		if _, ok := unquote([]byte(s), nil); ok {
			t.Errorf("unquote(%q) succeeded", s)
		}
	}
}
