package ctxmerge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// decode reads a JSON value with its objects ordered.
func decode(t *testing.T, s string) any {
	t.Helper()
	v, _, err := ojson.DecodeAny([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// text writes v as JSON, member order kept, so that order is compared too.
func text(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	if err := ojson.Encode(&buf, v); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestMerge(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{`{}`, `{"x": "http://e/x"}`, `{"x":"http://e/x"}`},
		{`{"x": "http://e/x"}`, `{}`, `{"x":"http://e/x"}`},
		{`{"x": "http://e/x"}`, `{"x": {"@type": "@id"}}`, `{"x":{"@id":"http://e/x","@type":"@id"}}`},
		{`{"x": "http://e/x", "y": "http://e/y"}`, `{"z": "http://e/z"}`, `{"x":{"@id":"http://e/x"},"y":{"@id":"http://e/y"},"z":"http://e/z"}`},
		{`{"@vocab": "http://a/", "x": {"@id": "http://e/x", "@context": {"p": "http://e/p"}}}`, `{"@vocab": "http://b/", "x": {"@context": {"q": "http://e/q"}}}`,
			`{"@vocab":"http://b/","x":{"@id":"http://e/x","@context":{"p":{"@id":"http://e/p"},"q":"http://e/q"}}}`},
		{`{"x": {"@id": "http://e/x", "@context": ["http://c/1"]}}`, `{"x": {"@context": {"q": "http://e/q"}}}`,
			`{"x":{"@id":"http://e/x","@context":["http://c/1",{"q":"http://e/q"}]}}`},
	}
	for _, tt := range tests {
		got, err := Merge(decode(t, tt.a), decode(t, tt.b))
		if err != nil {
			t.Errorf("Merge(%s, %s): %v", tt.a, tt.b, err)
			continue
		}
		if g := text(t, got); g != tt.want {
			t.Errorf("Merge(%s, %s) = %s, want %s", tt.a, tt.b, g, tt.want)
		}
	}
	if _, err := Merge(decode(t, `{"x": ["a"]}`), decode(t, `{"x": {"@id": "http://e/x"}}`)); err == nil {
		t.Error("Merge of a list definition and an object: no error")
	}
}

func TestUndefined(t *testing.T) {
	a := decode(t, `{"x": {"@id": "http://e/x"}}`).(*ojson.Object)
	b := ojson.NewObject()
	def := ojson.NewObject()
	def.Set("@id", Undefined{})
	b.Set("x", def)
	other := ojson.NewObject()
	other.Set("@id", Undefined{})
	b.Set("y", other)
	if err := MergeInto(a, b); err != nil {
		t.Fatal(err)
	}
	PruneUndefined(a)
	if g, want := text(t, a), `{"x":{"@id":"http://e/x"},"y":{}}`; g != want {
		t.Errorf("merged and pruned: %s, want %s", g, want)
	}
	if ojson.Truthy(Undefined{}) {
		t.Error("Undefined is truthy")
	}
}

func TestFixNest(t *testing.T) {
	ctx := decode(t, `{"a": {"@id": "@nest", "@context": {"b": "http://e/b", "c": {"@id": "@nest", "@context": {"d": "http://e/d"}}}}}`).(*ojson.Object)
	if err := FixNest(ctx); err != nil {
		t.Fatal(err)
	}
	// Lifting c's context into a's made a's string definition of b an
	// object, as every merge does (see Merge).
	want := `{"a":{"@id":"@nest"},"b":{"@id":"http://e/b"},"c":{"@id":"@nest"},"d":"http://e/d"}`
	if g := text(t, ctx); g != want {
		t.Errorf("FixNest: %s, want %s", g, want)
	}
}

func TestDictContains(t *testing.T) {
	tests := []struct {
		greater, smaller string
		want             bool
	}{
		{`{"@id": "x", "@type": "@id"}`, `{"@id": "x"}`, true},
		{`{"@id": "x"}`, `{"@id": "x", "@type": "@id"}`, false},
		{`{"@context": {"a": "b", "c": "d"}}`, `{"@context": {"a": "b"}}`, true},
		{`{"@context": "a"}`, `{"@context": {"a": "b"}}`, false},
		{`{"n": 1}`, `{"n": 1.0}`, true},
	}
	for _, tt := range tests {
		g, s := decode(t, tt.greater).(*ojson.Object), decode(t, tt.smaller).(*ojson.Object)
		if got := DictContains(g, s); got != tt.want {
			t.Errorf("DictContains(%s, %s) = %v, want %v", tt.greater, tt.smaller, got, tt.want)
		}
	}
}

func TestExpandCURIE(t *testing.T) {
	outer := decode(t, `{"ex": "http://outer/", "q": {"@id": "http://q/"}, "bad": {"@type": "@id"}, "num": 3}`).(*ojson.Object)
	inner := decode(t, `{"ex": "http://inner/"}`).(*ojson.Object)
	stack := []*ojson.Object{outer, inner}
	tests := []struct {
		in, want string
		fails    bool
	}{
		{"ex:a", "http://inner/a", false},
		{"q:b", "http://q/b", false},
		{"none:c", "none:c", false},
		{"ex:", "ex:", false},
		{"@type", "@type", false},
		{"plain", "plain", false},
		{"bad:x", "", true},
		{"num:x", "", true},
	}
	for _, tt := range tests {
		prefixes := ojson.NewObject()
		got, err := ExpandCURIE(tt.in, stack, prefixes)
		if (err != nil) != tt.fails || got != tt.want {
			t.Errorf("ExpandCURIE(%q) = %q, %v; want %q, failing %v", tt.in, got, err, tt.want, tt.fails)
		}
	}
	prefixes := ojson.NewObject()
	if _, err := ExpandCURIE("q:b", stack, prefixes); err != nil || prefixes.Value("q") != "http://q/" {
		t.Errorf("the prefix used is not recorded: %v %v", prefixes.Keys(), err)
	}
}

func TestMergeDicts(t *testing.T) {
	src := decode(t, `{"a": "x", "b": {"c": "y"}}`).(*ojson.Object)
	dst := decode(t, `{"a": "old", "b": {"d": "z"}, "e": 1}`).(*ojson.Object)
	if err := MergeDicts(src, dst); err != nil {
		t.Fatal(err)
	}
	if g, want := text(t, dst), `{"a":"x","b":{"d":"z","c":"y"},"e":1}`; g != want {
		t.Errorf("MergeDicts: %s, want %s", g, want)
	}
	src = decode(t, `{"b": {"c": {"deep": "y"}}}`).(*ojson.Object)
	dst = decode(t, `{"b": "a string"}`).(*ojson.Object)
	if err := MergeDicts(src, dst); err == nil {
		t.Error("MergeDicts of an object with an object inside into a string: no error")
	}
}
