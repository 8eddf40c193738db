package ojson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// obj builds an object from alternating keys and values, in that order.
func obj(kv ...any) *Object {
	o := NewObject()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// keysOf returns the member names of v, which must be an object.
func keysOf(t *testing.T, v any) []string {
	t.Helper()
	o, ok := v.(*Object)
	if !ok {
		t.Fatalf("%#v is a %T, want *Object", v, v)
	}
	return o.Keys()
}

// TestDecodeJSONKeepsOrder proves DecodeJSON keeps member order at every level and numbers as json.Number.
func TestDecodeJSONKeepsOrder(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		keys  []string
		inner []string // keys of member "c", when it is an object
	}{
		{name: "flat", doc: `{"b": 1, "a": 2, "c": 3}`, keys: []string{"b", "a", "c"}},
		{name: "nested", doc: `{"z": true, "c": {"y": 1, "x": 2, "w": 3}}`, keys: []string{"z", "c"}, inner: []string{"y", "x", "w"}},
		{name: "in a list", doc: `{"c": {"q": [{"b": 1, "a": 2}], "p": null}}`, keys: []string{"c"}, inner: []string{"q", "p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := DecodeJSON([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := keysOf(t, v); !reflect.DeepEqual(got, tt.keys) {
				t.Errorf("keys %v, want %v", got, tt.keys)
			}
			if tt.inner != nil {
				if got := keysOf(t, v.(*Object).Value("c")); !reflect.DeepEqual(got, tt.inner) {
					t.Errorf("keys of c %v, want %v", got, tt.inner)
				}
			}
		})
	}
	v, err := DecodeJSON([]byte(`{"c": {"q": [{"b": 1, "a": 2}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	elem := v.(*Object).Object("c").Value("q").([]any)[0]
	if got := keysOf(t, elem); !reflect.DeepEqual(got, []string{"b", "a"}) {
		t.Errorf("keys of an object in a list %v, want [b a]", got)
	}
	if n := elem.(*Object).Value("b"); n != json.Number("1") {
		t.Errorf("number decoded as %#v, want json.Number(\"1\")", n)
	}
}

// TestDecodeJSONDuplicateKey proves a member named twice keeps its first place and its last value.
func TestDecodeJSONDuplicateKey(t *testing.T) {
	tests := []struct {
		doc  string
		keys []string
		key  string
		want any
	}{
		{doc: `{"a": 1, "b": 2, "a": 3}`, keys: []string{"a", "b"}, key: "a", want: json.Number("3")},
		{doc: `{"x": "s", "y": 0, "z": 0, "x": {"k": true}}`, keys: []string{"x", "y", "z"}, key: "x", want: obj("k", true)},
	}
	for _, tt := range tests {
		v, err := DecodeJSON([]byte(tt.doc))
		if err != nil {
			t.Fatalf("%s: %v", tt.doc, err)
		}
		if got := keysOf(t, v); !reflect.DeepEqual(got, tt.keys) {
			t.Errorf("%s: keys %v, want %v", tt.doc, got, tt.keys)
		}
		if got := v.(*Object).Value(tt.key); !Equal(got, tt.want) {
			t.Errorf("%s: %s = %#v, want %#v", tt.doc, tt.key, got, tt.want)
		}
	}
}

// TestDecodeJSONErrors proves DecodeJSON refuses what is not exactly one JSON document.
func TestDecodeJSONErrors(t *testing.T) {
	for _, doc := range []string{``, `   `, `{"a": 1,}`, `[1,]`, `{"a": 1} {}`, `{"a": 1} x`, `{"a" 1}`, `{"a": 1`, `a: 1`} {
		if v, err := DecodeJSON([]byte(doc)); err == nil {
			t.Errorf("DecodeJSON(%q) = %#v, want an error", doc, v)
		}
	}
}

// TestDecodeYAMLScalars proves YAML scalars become the documented JSON values.
func TestDecodeYAMLScalars(t *testing.T) {
	tests := []struct {
		yaml string
		want any
	}{
		{"42", json.Number("42")},
		{"-7", json.Number("-7")},
		{"0x1F", json.Number("31")},
		{"0xff", json.Number("255")},
		{"0o17", json.Number("15")},
		{"0b101", json.Number("5")},
		{"1_000", json.Number("1000")},
		{"-1_000_000", json.Number("-1000000")},
		{"1.5", json.Number("1.5")},
		{"-0.25", json.Number("-0.25")},
		{"1e3", json.Number("1e3")},
		{"null", nil},
		{"~", nil},
		{"true", true},
		{"false", false},
		{".inf", ".inf"},
		{"-.inf", "-.inf"},
		{".nan", ".nan"},
		{"2025-06-12", "2025-06-12"},
		{"'42'", "42"},
		{`"true"`, "true"},
		{"hello", "hello"},
	}
	for _, tt := range tests {
		v, err := DecodeYAML([]byte("v: " + tt.yaml + "\n"))
		if err != nil {
			t.Errorf("%s: %v", tt.yaml, err)
			continue
		}
		got := v.(*Object).Value("v")
		if reflect.TypeOf(got) != reflect.TypeOf(tt.want) {
			t.Errorf("%s: decoded as %T %#v, want %T %#v", tt.yaml, got, got, tt.want, tt.want)
			continue
		}
		if !Equal(got, tt.want) {
			t.Errorf("%s: decoded as %#v, want %#v", tt.yaml, got, tt.want)
		}
		// Integers are written in decimal, whatever base the YAML used.
		if n, ok := tt.want.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") && got != tt.want {
			t.Errorf("%s: decoded as %q, want the decimal %q", tt.yaml, got, n)
		}
	}
}

// TestDecodeYAMLBigInteger proves an integer too large for 64 bits decodes to its exact decimal json.Number.
func TestDecodeYAMLBigInteger(t *testing.T) {
	for _, n := range []string{"123456789012345678901234567890", "-98765432109876543210"} {
		v, err := DecodeYAML([]byte("v: " + n + "\n"))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if got := v.(*Object).Value("v"); got != json.Number(n) {
			t.Errorf("%s decoded as %#v, want json.Number(%q)", n, got, n)
		}
	}
}

// TestDecodeYAMLKeepsOrder proves DecodeYAML keeps mapping key order, nested too, and writes non-string keys as strings.
func TestDecodeYAMLKeepsOrder(t *testing.T) {
	v, err := DecodeYAML([]byte("zeta: 1\nalpha:\n  m: 1\n  b: 2\n  k: 3\nmid: [{y: 1, x: 2}]\n1: one\n"))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if got, want := o.Keys(), []string{"zeta", "alpha", "mid", "1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	if got, want := o.Object("alpha").Keys(), []string{"m", "b", "k"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nested keys %v, want %v", got, want)
	}
	if got, want := keysOf(t, o.Value("mid").([]any)[0]), []string{"y", "x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("keys of a flow mapping in a list %v, want %v", got, want)
	}
	if s, _ := o.String("1"); s != "one" {
		t.Errorf("integer key 1: value %#v, want \"one\"", o.Value("1"))
	}
}

// TestDecodeYAMLAliasesAndMerge proves anchors and aliases are followed and merge keys applied, explicit keys winning.
func TestDecodeYAMLAliasesAndMerge(t *testing.T) {
	const base = "base: &b\n  x: 1\n  y: 2\n"
	tests := []struct {
		name string
		doc  string
		want *Object // member "d"
		keys []string
	}{
		{name: "alias of a mapping", doc: base + "d: *b\n",
			want: obj("x", json.Number("1"), "y", json.Number("2")), keys: []string{"x", "y"}},
		{name: "merge then override", doc: base + "d:\n  <<: *b\n  y: 3\n  z: 4\n",
			want: obj("x", json.Number("1"), "y", json.Number("3"), "z", json.Number("4")), keys: []string{"x", "y", "z"}},
		{name: "explicit key before merge wins", doc: base + "d:\n  y: 3\n  <<: *b\n",
			want: obj("y", json.Number("3"), "x", json.Number("1")), keys: []string{"y", "x"}},
		{name: "merge of a list: first wins", doc: base + "o: &o\n  x: 9\n  w: 5\nd:\n  <<: [*b, *o]\n",
			want: obj("x", json.Number("1"), "y", json.Number("2"), "w", json.Number("5")), keys: []string{"x", "y", "w"}},
		{name: "merge of an inline mapping", doc: "d:\n  <<: {p: a}\n  q: b\n",
			want: obj("p", "a", "q", "b"), keys: []string{"p", "q"}},
		{name: "quoted << is a plain key", doc: "d:\n  \"<<\": 1\n",
			want: obj("<<", json.Number("1")), keys: []string{"<<"}},
		{name: "alias of a scalar", doc: "s: &s hello\nd: {v: *s}\n",
			want: obj("v", "hello"), keys: []string{"v"}},
		{name: "alias of a list", doc: "l: &l [1, two]\nd: {v: *l}\n",
			want: obj("v", []any{json.Number("1"), "two"}), keys: []string{"v"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := DecodeYAML([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			d := v.(*Object).Value("d")
			if !Equal(d, tt.want) {
				t.Errorf("d = %s, want %s", mustMarshal(t, d), mustMarshal(t, tt.want))
			}
			if got := keysOf(t, d); !reflect.DeepEqual(got, tt.keys) {
				t.Errorf("keys of d %v, want %v", got, tt.keys)
			}
		})
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	data, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// aliasBomb returns a YAML document of a few hundred bytes whose aliases
// expand to 10^levels strings.
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestDecodeYAMLAliasBomb proves a small document whose aliases expand a millionfold is refused, as yaml.v3's own decoder refuses it.
func TestDecodeYAMLAliasBomb(t *testing.T) {
	for _, levels := range []int{6, 7} {
		if _, err := DecodeYAML([]byte(aliasBomb(levels))); err == nil {
			t.Errorf("%d levels of aliases (10^%d values) decoded without an error", levels, levels)
		}
	}
}

// TestDecodeYAMLEmpty proves an empty YAML document decodes to nil without an error.
func TestDecodeYAMLEmpty(t *testing.T) {
	for _, doc := range []string{"", "\n", "# only a comment\n", "---\n"} {
		v, err := DecodeYAML([]byte(doc))
		if err != nil || v != nil {
			t.Errorf("DecodeYAML(%q) = %#v, %v; want nil, nil", doc, v, err)
		}
	}
}

// TestDecodeTooDeep proves nesting beyond the limit is an error (not a panic) for every decoder, while moderate nesting decodes.
func TestDecodeTooDeep(t *testing.T) {
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	unclosed := strings.Repeat("[", 2000)
	deepObj := strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000)
	decoders := []struct {
		name string
		fn   func([]byte) (any, error)
	}{
		{"DecodeJSON", DecodeJSON},
		{"DecodeYAML", DecodeYAML},
		{"DecodeAny", func(b []byte) (any, error) { v, _, err := DecodeAny(b); return v, err }},
		{"Decode .json", func(b []byte) (any, error) { return Decode("x.json", b) }},
		{"Decode .yaml", func(b []byte) (any, error) { return Decode("x.yaml", b) }},
	}
	for _, d := range decoders {
		for _, doc := range []string{deep, unclosed, deepObj} {
			if _, err := d.fn([]byte(doc)); err == nil {
				t.Errorf("%s of %.10s... (2000 levels): no error", d.name, doc)
			}
		}
		ok := strings.Repeat("[", 100) + strings.Repeat("]", 100)
		if _, err := d.fn([]byte(ok)); err != nil {
			t.Errorf("%s of 100 levels: %v", d.name, err)
		}
		// 512 levels decode, a scalar at the bottom; the 513th, on line
		// 513 when each opens a line, is an error naming the line and the
		// limit, however deep the document goes on.
		for _, c := range []struct {
			open, close string
		}{{"[\n", "]"}, {"{\"a\":\n", "}"}} {
			if _, err := d.fn([]byte(strings.Repeat(c.open, 512) + "1" + strings.Repeat(c.close, 512))); err != nil {
				t.Errorf("%s of 512 levels: %v", d.name, err)
			}
			for _, depth := range []int{513, 9000} {
				_, err := d.fn([]byte(strings.Repeat(c.open, depth) + "1" + strings.Repeat(c.close, depth)))
				if err == nil || !strings.Contains(err.Error(), "line 513: nested more than 512 deep") {
					t.Errorf("%s of %d levels %q: %v", d.name, depth, c.open, err)
				}
			}
		}
	}
	// Block style, and what an alias stands for.
	var block strings.Builder
	for i := range 513 {
		block.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	if _, err := DecodeYAML([]byte(block.String())); err == nil || !strings.Contains(err.Error(), "line 513: nested more than 512 deep") {
		t.Errorf("block style, 513 levels: %v", err)
	}
	alias := "x: &deep " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\ny: " + strings.Repeat("[", 300) + "*deep" + strings.Repeat("]", 300) + "\n"
	if _, err := DecodeYAML([]byte(alias)); err == nil || !strings.Contains(err.Error(), "line 1: nested more than 512 deep") {
		t.Errorf("an alias 300 deep under 300: %v", err)
	}
}

// TestDecodeAny proves DecodeAny reads JSON as JSON and anything else (a trailing comma too) as YAML, saying so.
func TestDecodeAny(t *testing.T) {
	tests := []struct {
		doc    string
		want   any
		asYAML bool
	}{
		{doc: `{"b": 1, "a": [true, null]}`, want: obj("b", json.Number("1"), "a", []any{true, nil})},
		{doc: `{"a": 1,}`, want: obj("a", json.Number("1")), asYAML: true},
		{doc: "{\"@context\": {\"x\": \"http://x/\",}}", want: obj("@context", obj("x", "http://x/")), asYAML: true},
		{doc: "a: 1\nb: [x]\n", want: obj("a", json.Number("1"), "b", []any{"x"}), asYAML: true},
		{doc: `"s"`, want: "s"},
	}
	for _, tt := range tests {
		v, asYAML, err := DecodeAny([]byte(tt.doc))
		if err != nil {
			t.Errorf("%q: %v", tt.doc, err)
			continue
		}
		if asYAML != tt.asYAML {
			t.Errorf("%q: asYAML %v, want %v", tt.doc, asYAML, tt.asYAML)
		}
		if !Equal(v, tt.want) {
			t.Errorf("%q: %#v, want %#v", tt.doc, v, tt.want)
		}
	}
	// Order is kept on the YAML path too.
	v, _, err := DecodeAny([]byte(`{"z": 1, "y": 2, "x": 3,}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(t, v); !reflect.DeepEqual(got, []string{"z", "y", "x"}) {
		t.Errorf("keys %v, want [z y x]", got)
	}
	if _, _, err := DecodeAny([]byte("{\"a\": [1, 2}\n")); err == nil {
		t.Error("text that is neither JSON nor YAML decoded")
	}
}

// TestDecodeByExtension proves Decode reads .json and .jsonld as strict JSON and other names as YAML, naming the file on error.
func TestDecodeByExtension(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		want    any
		wantErr string
	}{
		{name: "a.json", doc: `{"b": 1, "a": 2}`, want: obj("b", json.Number("1"), "a", json.Number("2"))},
		{name: "a.jsonld", doc: `{"@context": {}}`, want: obj("@context", NewObject())},
		{name: "a.json", doc: "a: 1\n", wantErr: "a.json: not JSON"},
		{name: "c.jsonld", doc: `{"a": 1,}`, wantErr: "c.jsonld: not JSON"},
		{name: "a.yaml", doc: "a: 1\n", want: obj("a", json.Number("1"))},
		{name: "a.yml", doc: `{"a": 1}`, want: obj("a", json.Number("1"))},
		{name: "schema", doc: "- x\n", want: []any{"x"}},
		{name: "b.yaml", doc: "a: [\n", wantErr: "b.yaml: not YAML"},
	}
	for _, tt := range tests {
		v, err := Decode(tt.name, []byte(tt.doc))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Decode(%s, %q): error %v, want %q", tt.name, tt.doc, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !Equal(v, tt.want) {
			t.Errorf("Decode(%s, %q) = %#v, %v; want %#v", tt.name, tt.doc, v, err, tt.want)
		}
	}
}

// TestEncode proves Encode indents by two spaces, keeps member order and numbers as written, sorts map keys and does not escape HTML.
func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{name: "ordered object",
			v:    obj("b", json.Number("1"), "a", []any{true, nil, "x<&>"}, "c", NewObject(), "d", []any{}),
			want: "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null,\n    \"x<&>\"\n  ],\n  \"c\": {},\n  \"d\": []\n}\n"},
		{name: "html characters", v: "<a href=\"x\">&amp;</a>", want: "\"<a href=\\\"x\\\">&amp;</a>\"\n"},
		{name: "html in a key", v: obj("<&>", "<&>"), want: "{\n  \"<&>\": \"<&>\"\n}\n"},
		{name: "numbers as written", v: obj("f", json.Number("1.0"), "e", json.Number("1e2")), want: "{\n  \"f\": 1.0,\n  \"e\": 1e2\n}\n"},
		{name: "map sorted", v: map[string]any{"z": 1, "a": "s", "m": map[string]any{"y": true, "b": false}},
			want: "{\n  \"a\": \"s\",\n  \"m\": {\n    \"b\": false,\n    \"y\": true\n  },\n  \"z\": 1\n}\n"},
		{name: "map in an object", v: obj("k", map[string]any{"b": 1, "a": 2}), want: "{\n  \"k\": {\n    \"a\": 2,\n    \"b\": 1\n  }\n}\n"},
		{name: "nested empty", v: []any{NewObject(), []any{}}, want: "[\n  {},\n  []\n]\n"},
		{name: "scalars", v: nil, want: "null\n"},
		{name: "control characters escaped", v: "a\nb\"c\\", want: "\"a\\nb\\\"c\\\\\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Encode(&buf, tt.v); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("Encode:\n%s\nwant:\n%s", buf.String(), tt.want)
			}
			data, err := Marshal(tt.v)
			if err != nil || string(data) != tt.want {
				t.Errorf("Marshal = %q, %v; want what Encode writes", data, err)
			}
		})
	}
}

// TestEncodeErrors proves Encode and Marshal report values that are not JSON.
func TestEncodeErrors(t *testing.T) {
	for _, v := range []any{
		make(chan int),
		obj("a", obj("b", func() {})),
		[]any{json.Number("not a number")},
		map[string]any{"c": complex(1, 2)},
	} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("Marshal(%#v) succeeded", v)
		}
		if err := Encode(&bytes.Buffer{}, v); err == nil {
			t.Errorf("Encode(%#v) succeeded", v)
		}
	}
}

// TestRoundTrip proves Decode, Encode and Decode again give an equal value with the same member order.
func TestRoundTrip(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"doc.json", `{"z": {"b": [1, 2.5, -3e2, "s<&>"], "a": null}, "y": true, "x": {}, "w": []}`},
		{"doc.yaml", "z:\n  b: [1, 2.5, 0x10, 's<&>']\n  a: ~\ny: true\nanchor: &a {k: v}\nx: *a\n"},
		{"ctx.jsonld", `{"@context": {"@vocab": "http://x/", "n": {"@id": "http://x/n", "@type": "@id"}}}`},
	}
	for _, tt := range tests {
		v1, err := Decode(tt.name, []byte(tt.doc))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		data, err := Marshal(v1)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		v2, err := Decode("again.json", data)
		if err != nil {
			t.Fatalf("%s: encoded text does not decode: %v\n%s", tt.name, err, data)
		}
		if !Equal(v1, v2) {
			t.Errorf("%s: round trip changed the value:\n%s", tt.name, data)
		}
		if !reflect.DeepEqual(keysOf(t, v1), keysOf(t, v2)) {
			t.Errorf("%s: round trip changed member order: %v -> %v", tt.name, keysOf(t, v1), keysOf(t, v2))
		}
		if again, _ := Marshal(v2); !bytes.Equal(again, data) {
			t.Errorf("%s: second encoding differs:\n%s\nvs\n%s", tt.name, data, again)
		}
	}
}

// TestEncodeYAML proves EncodeYAML keeps key order, sorts map keys, writes numbers as written and reads back equal.
func TestEncodeYAML(t *testing.T) {
	v := obj("zeta", json.Number("1.50"), "alpha", obj("y", "true", "x", []any{json.Number("7"), nil, false, "12"}),
		"m", map[string]any{"b": "2", "a": 1}, "empty", NewObject(), "none", []any{})
	var buf bytes.Buffer
	if err := EncodeYAML(&buf, v); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.Contains(text, "zeta: 1.50\n") {
		t.Errorf("number not written as written:\n%s", text)
	}
	if i, j := strings.Index(text, "zeta:"), strings.Index(text, "alpha:"); i < 0 || j < 0 || i > j {
		t.Errorf("zeta not before alpha:\n%s", text)
	}
	back, err := DecodeYAML(buf.Bytes())
	if err != nil {
		t.Fatalf("EncodeYAML output is not YAML: %v\n%s", err, text)
	}
	want := obj("zeta", json.Number("1.50"), "alpha", obj("y", "true", "x", []any{json.Number("7"), nil, false, "12"}),
		"m", obj("a", json.Number("1"), "b", "2"), "empty", NewObject(), "none", []any{})
	if !Equal(back, want) {
		t.Errorf("read back:\n%s\nwant:\n%s\nYAML:\n%s", mustMarshal(t, back), mustMarshal(t, want), text)
	}
	checks := []struct {
		path []string
		keys []string
	}{
		{nil, []string{"zeta", "alpha", "m", "empty", "none"}},
		{[]string{"alpha"}, []string{"y", "x"}},
		{[]string{"m"}, []string{"a", "b"}},
	}
	for _, c := range checks {
		o := back.(*Object)
		for _, k := range c.path {
			o = o.Object(k)
		}
		if got := o.Keys(); !reflect.DeepEqual(got, c.keys) {
			t.Errorf("keys at %v: %v, want %v", c.path, got, c.keys)
		}
	}
	// Strings that look like other scalars stay strings.
	if s, ok := back.(*Object).Object("alpha").Value("y").(string); !ok || s != "true" {
		t.Errorf("string \"true\" read back as %#v", back.(*Object).Object("alpha").Value("y"))
	}
	if err := EncodeYAML(&bytes.Buffer{}, obj("bad", struct{}{})); err == nil {
		t.Error("EncodeYAML of a struct succeeded")
	}
}

// TestClone proves Clone copies objects and lists deeply, keeping order.
func TestClone(t *testing.T) {
	orig := obj("b", obj("x", json.Number("1")), "a", []any{obj("y", "s"), []any{"z"}})
	c := Clone(orig).(*Object)
	if !Equal(c, orig) || !reflect.DeepEqual(c.Keys(), []string{"b", "a"}) {
		t.Fatalf("clone %s differs from the original", mustMarshal(t, c))
	}
	mutations := []struct {
		name string
		fn   func()
	}{
		{"set a member of a nested object", func() { c.Object("b").Set("x", json.Number("2")) }},
		{"add a member", func() { c.Set("new", true) }},
		{"delete a member", func() { c.Delete("b") }},
		{"change a list element", func() { c.Value("a").([]any)[1].([]any)[0] = "changed" }},
		{"change an object in a list", func() { c.Value("a").([]any)[0].(*Object).Set("y", "t") }},
	}
	want := mustMarshal(t, orig)
	for _, m := range mutations {
		c = Clone(orig).(*Object)
		m.fn()
		if got := mustMarshal(t, orig); got != want {
			t.Errorf("%s on the clone changed the original:\n%s", m.name, got)
		}
	}
	if got := Clone((*Object)(nil)); got != (*Object)(nil) {
		t.Errorf("Clone(nil *Object) = %#v", got)
	}
	for _, s := range []any{nil, "s", json.Number("1"), true} {
		if got := Clone(s); got != s {
			t.Errorf("Clone(%#v) = %#v", s, got)
		}
	}
}

// TestTruthy proves Truthy follows Python's truth of the corresponding values.
func TestTruthy(t *testing.T) {
	tests := []struct {
		v    any
		want bool
	}{
		{nil, false},
		{false, false},
		{true, true},
		{"", false},
		{"0", true},
		{"false", true},
		{json.Number("0"), false},
		{json.Number("0.0"), false},
		{json.Number("-0"), false},
		{json.Number("0e10"), false},
		{json.Number("1"), true},
		{json.Number("-0.001"), true},
		{json.Number("1e-400"), true},
		{NewObject(), false},
		{(*Object)(nil), false},
		{obj("a", nil), true},
		{[]any{}, false},
		{[]any{nil}, true},
	}
	for _, tt := range tests {
		if got := Truthy(tt.v); got != tt.want {
			t.Errorf("Truthy(%#v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

// TestEqual proves Equal compares numbers by value, objects whatever their order, and lists element by element.
func TestEqual(t *testing.T) {
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"1.0 and 1", json.Number("1.0"), json.Number("1"), true},
		{"1e2 and 100", json.Number("1e2"), json.Number("100"), true},
		{"0.1 and 1e-1", json.Number("0.1"), json.Number("1e-1"), true},
		{"-0 and 0", json.Number("-0"), json.Number("0"), true},
		{"1 and 2", json.Number("1"), json.Number("2"), false},
		{"huge", json.Number("123456789012345678901"), json.Number("123456789012345678902"), false},
		{"number and string", json.Number("1"), "1", false},
		{"string and number", "1", json.Number("1"), false},
		{"strings", "a", "a", true},
		{"different strings", "a", "b", false},
		{"nils", nil, nil, true},
		{"nil and false", nil, false, false},
		{"bools", true, true, true},
		{"different bools", true, false, false},
		{"objects in another order", obj("a", json.Number("1"), "b", "x"), obj("b", "x", "a", json.Number("1.00")), true},
		{"object with another value", obj("a", json.Number("1")), obj("a", json.Number("2")), false},
		{"object with fewer members", obj("a", nil), obj("a", nil, "b", nil), false},
		{"object with more members", obj("a", nil, "b", nil), obj("a", nil), false},
		{"object with another key", obj("a", nil), obj("b", nil), false},
		{"empty objects", NewObject(), NewObject(), true},
		{"object and list", NewObject(), []any{}, false},
		{"lists", []any{json.Number("1"), "a"}, []any{json.Number("1.0"), "a"}, true},
		{"lists in another order", []any{json.Number("1"), json.Number("2")}, []any{json.Number("2"), json.Number("1")}, false},
		{"lists of other lengths", []any{nil}, []any{nil, nil}, false},
		{"nested", obj("l", []any{obj("y", true, "x", false)}), obj("l", []any{obj("x", false, "y", true)}), true},
		{"nested differs", obj("l", []any{obj("x", true)}), obj("l", []any{obj("x", false)}), false},
		{"maps", map[string]any{"a": json.Number("1"), "b": []any{"x"}}, map[string]any{"b": []any{"x"}, "a": json.Number("1.0")}, true},
		{"maps with another value", map[string]any{"a": json.Number("1")}, map[string]any{"a": json.Number("2")}, false},
		{"maps with another key", map[string]any{"a": nil}, map[string]any{"b": nil}, false},
		{"maps of other sizes", map[string]any{"a": nil}, map[string]any{"a": nil, "b": nil}, false},
		{"map and object", map[string]any{"a": "x", "b": nil}, obj("b", nil, "a", "x"), true},
		{"object and map", obj("b", nil, "a", "x"), map[string]any{"a": "x", "b": nil}, true},
		{"map and object differ", map[string]any{"a": "x"}, obj("a", "y"), false},
		{"map and list", map[string]any{}, []any{}, false},
		{"valuer", text(`{"a":[1.0]}`), map[string]any{"a": []any{json.Number("1")}}, true},
		{"valuer on the right", obj("a", json.Number("2")), text(`{"a":2e0}`), true},
		{"valuer nested", []any{text(`"s"`)}, []any{"s"}, true},
		{"valuer differs", text(`[1]`), []any{json.Number("2")}, false},
		{"valuer of no value", noValue{}, noValue{}, false},
		{"valuer of no value and nil", noValue{}, nil, false},
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// text is JSON text that stands for the value it decodes to.
type text string

func (t text) JSONValue() (any, bool) {
	v, err := DecodeJSON([]byte(t))
	return Plain(v), err == nil
}

// noValue stands for no one value.
type noValue struct{}

func (noValue) JSONValue() (any, bool) { return nil, false }

// TestPlainAndFromPlain proves Plain turns objects into maps deeply and FromPlain turns maps back into sorted objects.
func TestPlainAndFromPlain(t *testing.T) {
	v := obj("b", obj("y", json.Number("1"), "x", []any{obj("q", "s")}), "a", true)
	want := map[string]any{"b": map[string]any{"y": json.Number("1"), "x": []any{map[string]any{"q": "s"}}}, "a": true}
	if got := Plain(v); !reflect.DeepEqual(got, want) {
		t.Errorf("Plain = %#v, want %#v", got, want)
	}
	if got := Plain((*Object)(nil)); !reflect.DeepEqual(got, map[string]any(nil)) {
		t.Errorf("Plain(nil *Object) = %#v, want a nil map", got)
	}
	for _, s := range []any{nil, "s", json.Number("2"), false} {
		if got := Plain(s); got != s {
			t.Errorf("Plain(%#v) = %#v", s, got)
		}
	}
	back := FromPlain(want)
	if !Equal(back, v) {
		t.Errorf("FromPlain(Plain(v)) = %s, want %s", mustMarshal(t, back), mustMarshal(t, v))
	}
	keys := []struct {
		path []string
		want []string
	}{
		{nil, []string{"a", "b"}},
		{[]string{"b"}, []string{"x", "y"}},
	}
	for _, k := range keys {
		o := back.(*Object)
		for _, p := range k.path {
			o = o.Object(p)
		}
		if got := o.Keys(); !reflect.DeepEqual(got, k.want) {
			t.Errorf("FromPlain keys at %v: %v, want sorted %v", k.path, got, k.want)
		}
	}
	inList := FromPlain([]any{map[string]any{"k": "v"}}).([]any)
	if _, ok := inList[0].(*Object); !ok {
		t.Errorf("FromPlain left a map in a list: %#v", inList[0])
	}
}

// TestObjectMethods proves Set, Delete, Pop, SetDefault and Update keep the documented member order and values.
func TestObjectMethods(t *testing.T) {
	tests := []struct {
		name     string
		op       func(o *Object) any
		keys     []string
		values   []any
		returned any
	}{
		{name: "set new goes last", op: func(o *Object) any { o.Set("d", "D"); return nil },
			keys: []string{"a", "b", "c", "d"}, values: []any{"A", "B", "C", "D"}},
		{name: "set existing keeps place", op: func(o *Object) any { o.Set("a", "X"); return nil },
			keys: []string{"a", "b", "c"}, values: []any{"X", "B", "C"}},
		{name: "delete middle", op: func(o *Object) any { o.Delete("b"); return nil },
			keys: []string{"a", "c"}, values: []any{"A", "C"}},
		{name: "delete missing", op: func(o *Object) any { o.Delete("zz"); return nil },
			keys: []string{"a", "b", "c"}, values: []any{"A", "B", "C"}},
		{name: "delete then set goes last", op: func(o *Object) any { o.Delete("a"); o.Set("a", "N"); return nil },
			keys: []string{"b", "c", "a"}, values: []any{"B", "C", "N"}},
		{name: "pop present", op: func(o *Object) any { return o.Pop("a", "def") },
			keys: []string{"b", "c"}, values: []any{"B", "C"}, returned: "A"},
		{name: "pop missing", op: func(o *Object) any { return o.Pop("zz", "def") },
			keys: []string{"a", "b", "c"}, values: []any{"A", "B", "C"}, returned: "def"},
		{name: "setdefault present", op: func(o *Object) any { return o.SetDefault("b", "new") },
			keys: []string{"a", "b", "c"}, values: []any{"A", "B", "C"}, returned: "B"},
		{name: "setdefault missing", op: func(o *Object) any { return o.SetDefault("d", "new") },
			keys: []string{"a", "b", "c", "d"}, values: []any{"A", "B", "C", "new"}, returned: "new"},
		{name: "update", op: func(o *Object) any { o.Update(obj("e", "E", "b", "U", "d", "D")); return nil },
			keys: []string{"a", "b", "c", "e", "d"}, values: []any{"A", "U", "C", "E", "D"}},
		{name: "update with nil", op: func(o *Object) any { o.Update(nil); return nil },
			keys: []string{"a", "b", "c"}, values: []any{"A", "B", "C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := obj("a", "A", "b", "B", "c", "C")
			if got := tt.op(o); got != tt.returned {
				t.Errorf("returned %#v, want %#v", got, tt.returned)
			}
			if got := o.Keys(); !reflect.DeepEqual(got, tt.keys) {
				t.Errorf("keys %v, want %v", got, tt.keys)
			}
			if o.Len() != len(tt.keys) {
				t.Errorf("Len %d, want %d", o.Len(), len(tt.keys))
			}
			for i, k := range tt.keys {
				if v, ok := o.Get(k); !ok || v != tt.values[i] {
					t.Errorf("Get(%s) = %#v, %v; want %#v", k, v, ok, tt.values[i])
				}
			}
		})
	}
}

// TestObjectAccessors proves Keys returns a copy, the typed getters check types, and a nil object reads as empty.
func TestObjectAccessors(t *testing.T) {
	o := obj("s", "str", "o", obj("k", "v"), "n", json.Number("1"))
	keys := o.Keys()
	keys[0] = "changed"
	if o.Keys()[0] != "s" {
		t.Error("changing the slice Keys returned changed the object")
	}
	if s, ok := o.String("s"); !ok || s != "str" {
		t.Errorf("String(s) = %q, %v", s, ok)
	}
	if _, ok := o.String("n"); ok {
		t.Error("String of a number member reports a string")
	}
	if _, ok := o.String("missing"); ok {
		t.Error("String of a missing member reports a string")
	}
	if o.Object("o") == nil || o.Object("s") != nil || o.Object("missing") != nil {
		t.Error("Object returns a non-object member, or misses the object one")
	}
	if !o.Has("n") || o.Has("missing") {
		t.Error("Has is wrong")
	}
	if o.Value("missing") != nil {
		t.Error("Value of a missing member is not nil")
	}
	var nilObj *Object
	if nilObj.Len() != 0 || nilObj.Keys() != nil || nilObj.Has("a") || nilObj.Value("a") != nil || nilObj.Object("a") != nil {
		t.Error("a nil object does not read as empty")
	}
	if _, ok := nilObj.Get("a"); ok {
		t.Error("Get on a nil object found a member")
	}
}

// TestDecodeYAMLOctal proves an integer with a leading 0 reads as octal, as
// YAML 1.1 (PyYAML, which the OGC tool chain uses) reads it, and that a
// leading 0 before a digit octal cannot hold leaves the text a string.
func TestDecodeYAMLOctal(t *testing.T) {
	for text, want := range map[string]any{"0777": json.Number("511"), "-010": json.Number("-8"), "0": json.Number("0"), "08": "08"} {
		v, err := DecodeYAML([]byte("v: " + text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := v.(*Object).Value("v"); got != want {
			t.Errorf("%s: %#v, want %#v", text, got, want)
		}
	}
}

// TestNumbersByValue: Equal and Truthy read numbers by exact value, as
// jsonparse.SameNumber does, exponents of any size included.
func TestNumbersByValue(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		equal bool
	}{
		{"1", "1.0", true},
		{"1e2", "100", true},
		{"0.1", "0.10000000000000001", false},
		{"1E1000001", "10e1000000", true},
		{"1E1000001", "1E1000002", false},
	} {
		if got := Equal(json.Number(tt.a), json.Number(tt.b)); got != tt.equal {
			t.Errorf("Equal(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
	for n, want := range map[string]bool{"0": false, "-0.0": false, "0E1000001": false, "1E-1000001": true} {
		if got := Truthy(json.Number(n)); got != want {
			t.Errorf("Truthy(%s) = %v", n, got)
		}
	}
}

// TestCopier: a Copier's copies are deep and share what the originals
// share, objects and lists, across the values it copies.
func TestCopier(t *testing.T) {
	inner := NewObject()
	inner.Set("k", "v")
	list := make([]any, 1, 4)
	list[0] = inner
	a := NewObject()
	a.Set("x", inner)
	a.Set("y", inner)
	a.Set("l", list)
	b := NewObject()
	b.Set("z", inner)
	b.Set("l", list)

	var c Copier
	ca := c.Copy(a).(*Object)
	cb := c.Copy(b).(*Object)
	if !Equal(ca, a) || !Equal(cb, b) {
		t.Fatal("copies differ from the originals")
	}
	ci := ca.Value("x").(*Object)
	if ci == inner {
		t.Fatal("not a deep copy")
	}
	if ca.Value("y").(*Object) != ci || cb.Value("z").(*Object) != ci {
		t.Error("the copies do not share the copy of the object the originals share")
	}
	cl := ca.Value("l").([]any)
	if cap(cl) != cap(list) || &cl[:1][0] != &cb.Value("l").([]any)[:1][0] {
		t.Error("the copies do not share the copy of the list the originals share")
	}
	ci.Set("k2", "w") // a change to the shared copy shows in both copies only
	if !cb.Value("z").(*Object).Has("k2") || inner.Has("k2") {
		t.Error("the shared copy is not one object, or not apart from the original")
	}
	var empty Copier
	if empty.Copy([]any(nil)).([]any) != nil || empty.Copy([]any{}).([]any) == nil {
		t.Error("nil and empty lists are not kept apart")
	}
}
