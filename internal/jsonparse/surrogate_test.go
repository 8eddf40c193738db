package jsonparse

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestLoneSurrogates: with LoneSurrogates, a lone surrogate escape is read
// as encoding/json reads it (U+FFFD), and each string that holds one is
// noted once, with its JSON pointer (of the member, for a name), its first
// lone escape and its extent; paired escapes are no lone ones; inside
// undecoded values only that there is one is noted. Without the option the
// same texts are syntax errors.
func TestLoneSurrogates(t *testing.T) {
	for _, c := range []struct {
		name, text string
		lazy       []string
		want       []Surrogate // Start and End are checked against the text
		lazyLone   bool
	}{
		{name: "top-level string", text: `"\ud800"`,
			want: []Surrogate{{Pointer: "", Escape: `\ud800`}}},
		{name: "batch of one string", text: `["\ud800"]`,
			want: []Surrogate{{Pointer: "/0", Escape: `\ud800`}}},
		{name: "low alone, then text", text: `{"jsonrpc":"2.0","method":"m","params":["\udc00x"],"id":1}`,
			want: []Surrogate{{Pointer: "/params/0", Escape: `\udc00`}}},
		{name: "high before a plain escape", text: `{"s":"ab\uD800\u0041"}`,
			want: []Surrogate{{Pointer: "/s", Escape: `\uD800`}}},
		{name: "two in one string, noted once", text: `{"s":"\ud800\ud800"}`,
			want: []Surrogate{{Pointer: "/s", Escape: `\ud800`}}},
		{name: "high then low reversed", text: `["\udc00\ud800"]`,
			want: []Surrogate{{Pointer: "/0", Escape: `\udc00`}}},
		{name: "a pair after a lone one", text: `["\udbff\ud83d\ude00"]`,
			want: []Surrogate{{Pointer: "/0", Escape: `\udbff`}}},
		{name: "pairs only", text: `{"s":"\ud83d\ude00 \u00e9\uD834\uDD1E"}`},
		{name: "member name", text: `{"a":{"x\udfff":1,"b":2}}`,
			want: []Surrogate{{Pointer: "/a/x\ufffd", Name: true, Escape: `\udfff`}}},
		{name: "name and value, in text order", text: `{"\ud800":"\udc00","c/~":["\ud801"]}`,
			want: []Surrogate{{Pointer: "/\ufffd", Name: true, Escape: `\ud800`}, {Pointer: "/\ufffd", Escape: `\udc00`},
				{Pointer: "/c~1~0/0", Escape: `\ud801`}}},
		{name: "envelope", text: `{"dir":"c2s","ts":"\ud800","msg":{"id":"\udc00"}}`,
			want: []Surrogate{{Pointer: "/ts", Escape: `\ud800`}, {Pointer: "/msg/id", Escape: `\udc00`}}},
		{name: "deep in arrays and objects", text: `[1,[{"a":[0,{"b":"\ud800"}]}]]`,
			want: []Surrogate{{Pointer: "/1/0/a/1/b", Escape: `\ud800`}}},
		{name: "inside an undecoded value", text: `{"params":{"\ud800":"\udc00"},"id":"\ud801"}`, lazy: []string{"params"},
			want: []Surrogate{{Pointer: "/id", Escape: `\ud801`}}, lazyLone: true},
		{name: "name inside an undecoded value", text: `{"params":[{"\ud800":1}]}`, lazy: []string{"params"},
			lazyLone: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := []byte(c.text)
			p := &Parser{MaxDepth: 100, Lazy: c.lazy, LoneSurrogates: true}
			v, perr := p.Parse(text)
			if perr != nil {
				t.Fatal(perr)
			}
			got := p.Surrogates()
			if len(got) != len(c.want) {
				t.Fatalf("surrogates %+v, want %+v", got, c.want)
			}
			for i, s := range got {
				w := c.want[i]
				w.Start, w.End = s.Start, s.End
				if s != w {
					t.Errorf("surrogate %d: %+v, want %+v", i, s, w)
				}
				// The extent is a string literal holding the escape.
				lit := c.text[s.Start:s.End]
				var str string
				if err := json.Unmarshal([]byte(lit), &str); err != nil || lit[0] != '"' || !strings.Contains(lit, s.Escape) {
					t.Errorf("surrogate %d: extent %q is not the string (%v)", i, lit, err)
				}
			}
			if p.LazySurrogates() != c.lazyLone {
				t.Errorf("LazySurrogates %v, want %v", p.LazySurrogates(), c.lazyLone)
			}
			if c.lazy == nil {
				if want := decodeStd(t, text); !reflect.DeepEqual(v, want) {
					t.Errorf("value %#v, encoding/json gives %#v", v, want)
				}
			}
			strict := &Parser{MaxDepth: 100, Lazy: c.lazy}
			if _, perr := strict.Parse(text); (perr == nil) != (len(c.want) == 0 && !c.lazyLone) {
				t.Errorf("without LoneSurrogates: %v", perr)
			}
			// The next parse starts afresh.
			if _, perr := p.Parse([]byte(`{"a":"\u00e9"}`)); perr != nil || len(p.Surrogates()) != 0 || p.LazySurrogates() {
				t.Errorf("after a text without lone surrogates: %v %+v", perr, p.Surrogates())
			}
		})
	}
}

// TestElements: the texts of an array's elements, as written, white space
// around them left out.
func TestElements(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{` [ {"a":[1,"]"]} , "\"x\\" ,-1.5e3,true,null, [ [] ],{}] `, []string{`{"a":[1,"]"]}`, `"\"x\\"`, `-1.5e3`, `true`, `null`, `[ [] ]`, `{}`}},
		{`["\ud800" ,"\u005d"]`, []string{`"\ud800"`, `"\u005d"`}},
		{`[]`, nil},
		{`{"a":[1]}`, nil},
		{`"[1]"`, nil},
	} {
		got := Elements([]byte(c.text))
		var gs []string
		for _, e := range got {
			gs = append(gs, string(e))
		}
		if !reflect.DeepEqual(gs, c.want) {
			t.Errorf("%s: %q, want %q", c.text, gs, c.want)
		}
	}
}
