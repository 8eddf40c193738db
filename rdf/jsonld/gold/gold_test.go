package gold

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/piprate/json-gold/ld"
)

// TestLoaderRefuses: no context reference reaches the network or a file,
// whatever it names.
func TestLoaderRefuses(t *testing.T) {
	for _, ref := range []string{"http://169.254.169.254/latest", "https://example.com/context.jsonld", "file:///etc/passwd", "/etc/passwd", "../secret.jsonld"} {
		_, err := ld.NewContext(nil, Options("http://example.com/doc")).Parse([]any{ref, map[string]any{"a": "http://example.com/a"}})
		if !errors.Is(err, ErrRemoteContext) || !strings.Contains(err.Error(), "does not fetch") {
			t.Errorf("%s: %v, want ErrRemoteContext", ref, err)
		}
	}
}

func TestFloatNumbers(t *testing.T) {
	in := map[string]any{"@version": json.Number("1.1"), "a": []any{json.Number("2"), "x", json.Number("1e999")}}
	got := FloatNumbers(in).(map[string]any)
	if got["@version"] != 1.1 || got["a"].([]any)[0] != 2.0 || got["a"].([]any)[2] != json.Number("1e999") {
		t.Errorf("FloatNumbers = %#v", got)
	}
	if in["@version"] != json.Number("1.1") {
		t.Error("FloatNumbers changed its input")
	}
}

// TestCanonicalJSON: @json values of every JSON type become canonical
// rdf:JSON literals, which json-gold alone fails on for scalars.
func TestCanonicalJSON(t *testing.T) {
	doc := map[string]any{
		"@context": map[string]any{"p": map[string]any{"@id": "http://example.com/p", "@type": "@json"}},
		"@id":      "http://example.com/s",
		"p":        []any{map[string]any{"b": json.Number("1.0"), "a": "é"}},
	}
	opts := Options("")
	expanded, err := ld.NewJsonLdProcessor().Expand(FloatNumbers(doc), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CanonicalJSONValues(expanded); err != nil {
		t.Fatal(err)
	}
	ds, err := ld.NewJsonLdApi().ToRDF(expanded, opts)
	if err != nil {
		t.Fatal(err)
	}
	qs := ds.GetQuads("@default")
	if len(qs) != 1 {
		t.Fatalf("%d statements", len(qs))
	}
	tr, err := Triple(qs[0], "x")
	want := rdf.T(rdf.NewIRI("http://example.com/s"), "http://example.com/p", rdf.NewLiteral(`[{"a":"é","b":1}]`, rdf.RDFJSON))
	if err != nil || tr != want {
		t.Errorf("got %v (%v), want %v", tr, err, want)
	}
}

func TestTerm(t *testing.T) {
	for _, c := range []struct {
		n    ld.Node
		want rdf.Term
		err  string
	}{
		{ld.NewIRI("http://e/a"), rdf.NewIRI("http://e/a"), ""},
		{ld.NewIRI("http://e/a b"), rdf.Term{}, "disallowed character"},
		{ld.NewIRI(""), rdf.Term{}, "empty IRI"},
		{ld.NewBlankNode("_:b0"), rdf.NewBlank("pb0"), ""},
		{ld.NewLiteral("x", "", "en"), rdf.NewLangLiteral("x", "en"), ""},
		{ld.NewLiteral("x", "", ""), rdf.NewLiteral("x", rdf.XSDString), ""},
		{ld.NewLiteral("[1]", JSONMarker, ""), rdf.NewLiteral("[1]", rdf.RDFJSON), ""},
		{ld.NewLiteral("JSON Canonicalization error: x", rdf.RDFJSON, ""), rdf.Term{}, "rdf:JSON literal"},
		{ld.NewLiteral("1", "http://e/t y", ""), rdf.Term{}, "datatype"},
	} {
		got, err := Term(c.n, "p")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: %v, want an error about %q", c.n, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v: %v (%v), want %v", c.n, got, err, c.want)
		}
	}
	if !ValidIRI("http://e/a") || ValidIRI("http://e/<a>") || ValidIRI("") {
		t.Error("ValidIRI")
	}
}

// TestValidIRI: ValidIRI, which looks at bytes, gives checkIRI's verdict,
// which looks at runes, for every byte, in and out of UTF-8 sequences.
func TestValidIRI(t *testing.T) {
	cases := []string{"", "http://example.com/a#b1", "file:///tmp/x.jsonl#c2s-1", "é", "http://é.example/\u2028",
		"\xff", "a\xc3", "\xe2\x80", "a b", "a\x7fb", "\U0001F600"}
	for c := 0; c < 256; c++ {
		cases = append(cases, string([]byte{byte(c)}), "http://a/"+string([]byte{byte(c)})+"z", "é"+string([]byte{byte(c)}))
	}
	refused := 0
	for _, s := range cases {
		want := checkIRI(s) == nil
		if !want {
			refused++
		}
		if got := ValidIRI(s); got != want {
			t.Errorf("ValidIRI(%q) = %v, checkIRI says %v", s, got, want)
		}
	}
	if refused < 3*(33+9) {
		t.Errorf("only %d of the cases refused: the table is not covered", refused)
	}
}

func FuzzValidIRI(f *testing.F) {
	for _, s := range []string{"http://example.com/a#b", "a<b", "é\x00", "\xff "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidIRI(s), checkIRI(s) == nil; got != want {
			t.Errorf("ValidIRI(%q) = %v, checkIRI says %v", s, got, want)
		}
	})
}
