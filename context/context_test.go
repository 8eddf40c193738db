package context

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

const (
	ns  = "http://example.org/ns#"
	xsd = "http://www.w3.org/2001/XMLSchema#"
)

// want is the expected definition of one term.
type want struct {
	id, typ   string
	container []string
	prefix    bool
}

func TestParse(t *testing.T) {
	tests := []struct {
		name      string
		doc       string // a context document
		files     map[string]string
		terms     map[string]want
		absent    []string
		scoped    map[string]map[string]want // term -> its scoped terms
		base      string
		vocab     string
		warn      string // a substring of some warning
		noWarning bool
		noGold    bool // json-gold cannot check it (a mapped reference)
	}{
		{
			name: "prefix and compact IRIs",
			doc: `{"@context": {"ex": "http://example.org/ns#", "name": "ex:name",
				"typed": {"@id": "ex:typed", "@type": "ex:T"}}}`,
			terms: map[string]want{
				"ex":    {id: ns, prefix: true},
				"name":  {id: ns + "name"},
				"typed": {id: ns + "typed", typ: ns + "T"},
			},
			noWarning: true,
		},
		{
			name:      "prefix defined later in the same object",
			doc:       `{"@context": {"a": {"@id": "z:a", "@type": "z:Type"}, "z": "http://z.example/"}}`,
			terms:     map[string]want{"a": {id: "http://z.example/a", typ: "http://z.example/Type"}, "z": {id: "http://z.example/", prefix: true}},
			noWarning: true,
		},
		{
			name: "later context wins per term; prefix from an earlier context",
			doc: `{"@context": [
				{"ex": "http://example.org/ns#", "a": "ex:a", "b": "ex:b"},
				{"b": {"@id": "http://other.example/b", "@type": "@id"}, "c": "ex:c"}]}`,
			terms: map[string]want{
				"a": {id: ns + "a"},
				"b": {id: "http://other.example/b", typ: "@id"},
				"c": {id: ns + "c"},
			},
			noWarning: true, // one document: its own earlier entry declares ex
		},
		{
			name: "@vocab and @base",
			doc: `{"@context": {"@vocab": "http://v.example/", "@base": "http://b.example/dir/",
				"t": {"@type": "@id"}, "u": {"@id": "rel", "@type": "@vocab"}}}`,
			terms: map[string]want{
				"t": {id: "http://v.example/t", typ: "@id"},
				"u": {id: "http://v.example/rel", typ: "@vocab"},
			},
			base:  "http://b.example/dir/",
			vocab: "http://v.example/",
		},
		{
			name: "@vocab as a compact IRI, relative @base",
			doc: `{"@context": [{"@base": "http://b.example/a/", "ex": "http://example.org/ns#"},
				{"@base": "../c/", "@vocab": "ex:"}, {"t": {}}]}`,
			terms: map[string]want{"t": {id: ns + "t"}},
			base:  "http://b.example/c/",
			vocab: ns,
		},
		{
			name: "type coercions, containers, reverse",
			doc: `{"@context": {"ex": "http://example.org/ns#",
				"j": {"@id": "ex:j", "@type": "@json"},
				"l": {"@id": "ex:l", "@container": "@list"},
				"s": {"@id": "ex:s", "@container": ["@index", "@set"]},
				"v": {"@id": "ex:v", "@type": "@vocab"},
				"r": {"@reverse": "ex:parent"}}}`,
			terms: map[string]want{
				"j": {id: ns + "j", typ: "@json"},
				"l": {id: ns + "l", container: []string{"@list"}},
				"s": {id: ns + "s", container: []string{"@index", "@set"}},
				"v": {id: ns + "v", typ: "@vocab"},
				"r": {id: ns + "parent"},
			},
		},
		{
			name: "property-scoped context",
			doc: `{"@context": {"ex": "http://example.org/ns#", "xsd": "http://www.w3.org/2001/XMLSchema#",
				"error": {"@id": "ex:error", "@type": "@id", "@context": {
					"code": {"@id": "ex:code", "@type": "xsd:integer"},
					"inner": {"@id": "ex:inner", "@context": {"deep": "ex:deep"}}}}}}`,
			terms: map[string]want{"error": {id: ns + "error", typ: "@id"}},
			scoped: map[string]map[string]want{
				"error": {"code": {id: ns + "code", typ: xsd + "integer"}, "inner": {id: ns + "inner"}},
			},
		},
		{
			name:   "null resets the context",
			doc:    `{"@context": [{"ex": "http://example.org/ns#", "a": "ex:a"}, null, {"c": "http://c.example/c"}]}`,
			terms:  map[string]want{"c": {id: "http://c.example/c"}},
			absent: []string{"a", "ex"},
		},
		{
			name:  "a term mapped to null",
			doc:   `{"@context": {"gone": null, "ex": "http://example.org/ns#"}}`,
			terms: map[string]want{"gone": {id: ""}},
		},
		{
			name:  "undeclared prefix: kept as an absolute IRI, warned",
			doc:   `{"@context": {"p": {"@id": "jrpc:hasParameters", "@type": "@json"}}}`,
			terms: map[string]want{"p": {id: "jrpc:hasParameters", typ: "@json"}},
			warn:  "prefix jrpc: which no context declares",
		},
		{
			name:  "an expanded definition is no prefix without @prefix",
			doc:   `{"@context": {"ex": {"@id": "http://example.org/ns#"}, "a": "ex:a"}}`,
			terms: map[string]want{"a": {id: "ex:a"}},
			warn:  "not a prefix",
		},
		{
			name:  "@prefix true",
			doc:   `{"@context": {"ex": {"@id": "http://example.org/ns#", "@prefix": true}, "a": "ex:a"}}`,
			terms: map[string]want{"a": {id: ns + "a"}, "ex": {id: ns, prefix: true}},
		},
		{
			name:  "a stray x@vocab term is warned about",
			doc:   `{"@context": {"ex": "http://example.org/ns#", "x@vocab": "http://example.org/v#"}}`,
			terms: map[string]want{"x@vocab": {id: "http://example.org/v#", prefix: true}},
			warn:  `"x@vocab"`,
		},
		{
			name:   "@import of a mapped context",
			doc:    `{"@context": {"@import": "imp-ref", "j": "imp:jj"}}`,
			files:  map[string]string{"imp-ref": "testdata/import.jsonld"},
			terms:  map[string]want{"i": {id: "http://example.org/imp#i"}, "j": {id: "http://example.org/imp#jj"}},
			noGold: true,
		},
		{
			name:   "a mapped remote context",
			doc:    `{"@context": ["https://example.org/shared/context.jsonld", {"local": "shared:local"}]}`,
			files:  map[string]string{"https://example.org/shared/context.jsonld": "testdata/shared-context.jsonld"},
			terms:  map[string]want{"remoteTerm": {id: "http://example.org/shared#remote", typ: "@id"}, "local": {id: "http://example.org/shared#local"}},
			noGold: true, noWarning: true,
		},
		{
			name:  "a protected term redefined identically",
			doc:   `{"@context": [{"@protected": true, "a": "http://x.example/a"}, {"a": "http://x.example/a"}]}`,
			terms: map[string]want{"a": {id: "http://x.example/a"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := ojson.DecodePlain("test.jsonld", []byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			c, warns, err := Parse("test.jsonld", doc, &Options{Files: tt.files})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			for name, w := range tt.terms {
				checkTerm(t, name, c.Terms[name], w)
			}
			for _, name := range tt.absent {
				if _, ok := c.Terms[name]; ok {
					t.Errorf("term %q is defined; want it absent", name)
				}
			}
			for name, scoped := range tt.scoped {
				st := c.Terms[name]
				if st == nil || st.Scoped == nil {
					t.Fatalf("term %q has no scoped context", name)
				}
				if len(st.Scoped.Terms) != len(scoped) {
					t.Errorf("scoped context of %q has %d terms, want %d (only its own)", name, len(st.Scoped.Terms), len(scoped))
				}
				for sn, w := range scoped {
					checkTerm(t, name+"/"+sn, st.Scoped.Terms[sn], w)
				}
			}
			if c.Base != tt.base || c.Vocab != tt.vocab {
				t.Errorf("base, vocab = %q, %q; want %q, %q", c.Base, c.Vocab, tt.base, tt.vocab)
			}
			if tt.warn != "" && !hasWarning(warns, tt.warn) {
				t.Errorf("no warning with %q in %v", tt.warn, warns)
			}
			if tt.noWarning && len(warns) > 0 {
				t.Errorf("unexpected warnings %v", warns)
			}
			if !tt.noGold {
				// json-gold, an independent processor, must mean the same.
				gold := goldMeaning(t, plainJSON(t, tt.doc).(map[string]any)["@context"])
				if d := diffMeaning(ourMeaning(c), gold, ""); len(d) > 0 {
					t.Errorf("differs from json-gold:\n%s", strings.Join(d, "\n"))
				}
			}
		})
	}
}

func checkTerm(t *testing.T, name string, got *Term, w want) {
	t.Helper()
	if got == nil {
		t.Errorf("term %q missing", name)
		return
	}
	if got.ID != w.id || got.Type != w.typ || !reflect.DeepEqual(got.Container, w.container) || got.Prefix != w.prefix {
		t.Errorf("term %q = {ID %q Type %q Container %v Prefix %v}, want {%q %q %v %v}",
			name, got.ID, got.Type, got.Container, got.Prefix, w.id, w.typ, w.container, w.prefix)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, doc string
		files     map[string]string
		want      []string // substrings of the error
	}{
		{"not an object", `[]`, nil, []string{"JSON object"}},
		{"no @context", `{"a": 1}`, nil, []string{`no "@context"`}},
		{"invalid @context value", `{"@context": 5}`, nil, []string{"invalid local context"}},
		{"@version 1.0", `{"@context": {"@version": 1.0}}`, nil, []string{"@version"}},
		{"term definition not an object", `{"@context": {"a": 5}}`, nil, []string{`term "a"`, "invalid term definition"}},
		{"unknown keyword in a definition", `{"@context": {"a": {"@id": "http://x.example/a", "@foo": 1}}}`, nil, []string{`"@foo"`}},
		{"cyclic IRI mapping", `{"@context": {"a": {"@id": "b:x"}, "b": {"@id": "a:y"}}}`, nil, []string{"cyclic"}},
		{"no @id and no @vocab", `{"@context": {"t": {"@type": "@id"}}}`, nil, []string{`term "t"`, "no @vocab"}},
		{"invalid @type", `{"@context": {"t": {"@id": "http://x.example/t", "@type": "plain"}}}`, nil, []string{"@type"}},
		{"keyword redefinition", `{"@context": {"@id": "http://x.example/id"}}`, nil, []string{"@id", "redefined"}},
		{"protected term redefined", `{"@context": [{"@protected": true, "a": "http://x.example/a"}, {"a": "http://x.example/b"}]}`, nil, []string{"protected"}},
		{"bad container", `{"@context": {"a": {"@id": "http://x.example/a", "@container": "@bag"}}}`, nil, []string{"@container"}},
		{"remote context", `{"@context": ["https://example.org/ctx.jsonld", {"a": "http://x.example/a"}]}`, nil,
			[]string{"https://example.org/ctx.jsonld", "is remote", "does not fetch", "--context-map https://example.org/ctx.jsonld=FILE"}},
		{"relative context", `{"@context": "../other/context.jsonld"}`, nil, []string{`"../other/context.jsonld"`, "--context-map"}},
		{"unmapped @import", `{"@context": {"@import": "https://example.org/imp.jsonld"}}`, nil, []string{"https://example.org/imp.jsonld", "is remote"}},
		{"context reference cycle", `{"@context": "cycle-a"}`, map[string]string{"cycle-a": "testdata/cycle-a.jsonld", "cycle-b": "testdata/cycle-b.jsonld"},
			[]string{"cycle", "cycle-a -> cycle-b -> cycle-a"}},
		{"mapped file missing", `{"@context": "x"}`, map[string]string{"x": "testdata/no-such-file.jsonld"}, []string{"no-such-file.jsonld"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := ojson.DecodePlain("test.jsonld", []byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = Parse("test.jsonld", doc, &Options{Files: tt.files})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestUnmappedErrorType(t *testing.T) {
	doc := map[string]any{"@context": "https://example.org/ctx.jsonld"}
	_, _, err := Parse("doc.jsonld", doc, nil)
	var ue *UnmappedError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v is not an *UnmappedError", err)
	}
	if ue.Ref != "https://example.org/ctx.jsonld" || ue.In != "doc.jsonld" {
		t.Errorf("UnmappedError = %+v", ue)
	}
}

func TestMappedLoadedContext(t *testing.T) {
	shared, _, err := Parse("shared", map[string]any{"@context": map[string]any{
		"ex": "http://example.org/ns#", "a": "ex:a"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{"@context": []any{"https://example.org/shared.jsonld", map[string]any{"b": "ex:b"}}}
	c, _, err := Parse("doc", doc, &Options{Contexts: map[string]*Context{"https://example.org/shared.jsonld": shared}})
	if err != nil {
		t.Fatal(err)
	}
	checkTerm(t, "a", c.Terms["a"], want{id: ns + "a"})
	checkTerm(t, "b", c.Terms["b"], want{id: ns + "b"})
}

func TestExpandAndIRIs(t *testing.T) {
	doc := plainJSON(t, `{"@context": {
		"@vocab": "http://v.example/",
		"ex": "http://example.org/ns#",
		"xsd": "http://www.w3.org/2001/XMLSchema#",
		"Thing": "ex:Thing",
		"name": {"@id": "ex:name", "@type": "xsd:string"},
		"link": {"@id": "ex:link", "@type": "@id"},
		"kid": {"@reverse": "ex:parent"},
		"gone": null,
		"type": "@type",
		"blank": "_:b0",
		"error": {"@id": "ex:error", "@context": {"code": {"@id": "ex:code", "@type": "xsd:integer"}}}
	}}`)
	c, _, err := Parse("t", doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for in, out := range map[string]string{
		"name":         ns + "name",
		"ex:other":     ns + "other",
		"unknown":      "http://v.example/unknown",
		"gone":         "",
		"http://a/b":   "http://a/b",
		"type":         "@type",
		"_:x":          "_:x",
		"undeclared:x": "undeclared:x",
	} {
		if got := c.Expand(in); got != out {
			t.Errorf("Expand(%q) = %q, want %q", in, got, out)
		}
	}
	wantIRIs := []string{
		ns + "Thing", ns + "code", ns + "error", ns + "link", ns + "name", ns + "parent",
		xsd + "integer", xsd + "string",
	}
	if got := c.IRIs(); !reflect.DeepEqual(got, wantIRIs) {
		t.Errorf("IRIs() = %v\nwant %v", got, wantIRIs)
	}
}

// FuzzParse checks that no context document makes Parse panic, and that
// what it accepts gives sorted, keyword-free IRIs.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"@context": {"ex": "http://example.org/ns#", "a": {"@id": "ex:a", "@type": "@id", "@context": {"b": "ex:b"}}}}`,
		`{"@context": [{"@vocab": "http://v/"}, null, {"t": {"@reverse": "http://x/p"}}]}`,
		`{"@context": {"a": {"@id": "b:x"}, "b": {"@id": "a:y"}}}`,
		`{"@context": {"@base": "../x", "x@vocab": "y:", "c:d": {"@container": ["@set"]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ojson.DecodePlain("fuzz.jsonld", data)
		if err != nil {
			return
		}
		c, _, err := Parse("fuzz.jsonld", doc, nil)
		if err != nil {
			return
		}
		iris := c.IRIs()
		for i, iri := range iris {
			if IsKeyword(iri) || (i > 0 && iris[i-1] >= iri) {
				t.Fatalf("IRIs() = %v", iris)
			}
		}
	})
}
