package jsonparse

import (
	"bytes"
	"reflect"
	"testing"
)

// checkText holds SkipValue, AppendMembers and AppendString to Parse: for
// text Parse accepts, SkipValue ends where the value does, AppendMembers
// gives the members of an object without repeated names (unless a name
// holds an escape), and AppendString gives the string Parse gives; for a
// string Parse refuses, AppendString refuses it.
func checkText(t *testing.T, data []byte) {
	t.Helper()
	p := Parser{MaxDepth: 10000}
	v, perr := p.Parse(data)
	i := SkipSpace(data, 0)
	if perr == nil {
		if _, end := p.Span(); SkipValue(data, i) != end {
			t.Fatalf("SkipValue(%q) = %d, the value ends at %d", data, SkipValue(data, i), end)
		}
		if obj, ok := v.(map[string]any); ok && len(p.Duplicates()) == 0 {
			ms, ok := AppendMembers(nil, data[i:SkipValue(data, i)])
			if !ok && !bytes.Contains(data, []byte(`\`)) || ok && len(ms) != len(obj) {
				t.Fatalf("AppendMembers(%q): %d members, %v; Parse gives %d", data, len(ms), ok, len(obj))
			}
			for _, m := range ms {
				if got, want := Decode(m.Value), obj[string(m.Name)]; ok && !reflect.DeepEqual(got, want) {
					t.Fatalf("AppendMembers(%q): %q is %v, Parse gives %v", data, m.Name, got, want)
				}
			}
		}
	}
	text := bytes.TrimRight(data[i:], " \t\r\n")
	if len(text) == 0 || text[0] != '"' {
		return
	}
	got, ok := AppendString([]byte("x"), text)
	s, isString := v.(string)
	switch {
	case perr == nil && isString && (!ok || string(got) != "x"+s):
		t.Fatalf("AppendString(%q) = %q %v, Parse gives %q", text, got, ok, s)
	case perr != nil && ok:
		t.Fatalf("AppendString(%q) = %q, Parse refuses it (%s)", text, got, perr.Msg)
	}
}

// TestText: see checkText.
func TestText(t *testing.T) {
	for _, s := range []string{
		`""`, `"a"`, `"a\"b\\c\/\b\f\n\r\t\u0000\u00e9\ud83c\udf89"`, `"é🎉 plain and long enough for eight bytes at a time"`,
		`"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, "\"\xff\"", "\"a\x01\"", `"\x"`, `"\u12"`, `"abc`, `"a"b"`, `"a\"`,
		`  "x"  `, `{"a":"b\"}","c":[1,{"d":"\\"}]} `, ` { "é" : { "x" : [ ] } , "" : 1, "z":"\u0041" } `, `{"a\u0062":1}`, `{"a":1,"a":2}`, `[1,-2.5e3,true,null,"]"]`, `12`, `{}`,
	} {
		checkText(t, []byte(s))
	}
}

// FuzzText: see checkText.
func FuzzText(f *testing.F) {
	for _, s := range []string{`"a\"b\\c\u00e9\ud83c\udf89"`, `{"a":["b\"]",{"c":1}]}`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkText(t, data) })
}

// TestInvalidUTF8: the offset of the first byte that is no part of a
// UTF-8 encoded character: a stray byte, a sequence cut short, an encoded
// surrogate, after characters of every length.
func TestInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", -1}, {"abc", -1}, {"é€😀", -1}, {"\xff", 0}, {"caf\xe9", 3}, {"é\xe9", 2},
		{"a\xc3", 1}, {"😀\xf0\x9f", 4}, {"\xed\xa0\x80", 0}, {"ab\xc0\xaf", 2},
	} {
		if got := InvalidUTF8([]byte(c.in)); got != c.want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
