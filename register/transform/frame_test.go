package transform

import (
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// The library example of the JSON-LD 1.1 Framing recommendation
// (https://www.w3.org/TR/json-ld11-framing/, examples 1 to 3): the input,
// the frame and the framed document the recommendation gives.
const (
	libraryInput = `{
  "@context": {"@vocab": "http://example.org/", "contains": {"@type": "@id"}},
  "@graph": [{
    "@id": "http://example.org/library", "@type": "Library",
    "location": "Athens", "contains": "http://example.org/library/the-republic"
  }, {
    "@id": "http://example.org/library/the-republic", "@type": "Book",
    "creator": "Plato", "title": "The Republic",
    "contains": "http://example.org/library/the-republic#introduction"
  }, {
    "@id": "http://example.org/library/the-republic#introduction", "@type": "Chapter",
    "description": "An introductory chapter on The Republic.", "title": "The Introduction"
  }]
}`
	libraryTurtle = `@prefix ex: <http://example.org/> .
ex:library a ex:Library ; ex:location "Athens" ; ex:contains <http://example.org/library/the-republic> .
<http://example.org/library/the-republic> a ex:Book ; ex:creator "Plato" ; ex:title "The Republic" ;
  ex:contains <http://example.org/library/the-republic#introduction> .
<http://example.org/library/the-republic#introduction> a ex:Chapter ;
  ex:description "An introductory chapter on The Republic." ; ex:title "The Introduction" .
`
	libraryFrame = `{
  "@context": {"@version": 1.1, "@vocab": "http://example.org/"},
  "@type": "Library",
  "contains": {"@type": "Book", "contains": {"@type": "Chapter"}}
}`
	libraryFramed = `{
  "@context": {"@version": 1.1, "@vocab": "http://example.org/"},
  "@id": "http://example.org/library", "@type": "Library", "location": "Athens",
  "contains": {
    "@id": "http://example.org/library/the-republic", "@type": "Book",
    "creator": "Plato", "title": "The Republic",
    "contains": {
      "@id": "http://example.org/library/the-republic#introduction", "@type": "Chapter",
      "description": "An introductory chapter on The Republic.", "title": "The Introduction"
    }
  }
}`
)

func TestFrame(t *testing.T) {
	want, err := ojson.DecodeJSON([]byte(libraryFramed))
	if err != nil {
		t.Fatal(err)
	}
	noContext := ojson.Clone(want).(*ojson.Object)
	noContext.Delete("@context")
	cases := []struct {
		name, mediaType, data, target string
		want                          any
	}{
		{"JSON-LD", "application/ld+json", libraryInput, "application/ld+json", want},
		{"Turtle", "text/turtle", libraryTurtle, "application/ld+json", want},
		{"to JSON", "application/ld+json", libraryInput, "application/json", noContext},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := &Transform{ID: "library", Type: TypeJSONLDFrame, Code: libraryFrame}
			tr.Outputs = []MediaType{{MIME: c.target}}
			out, err := tr.Run(t.Context(), Input{Data: []byte(c.data), MediaType: c.mediaType})
			if err != nil {
				t.Fatal(err)
			}
			got, err := ojson.DecodeJSON(out)
			if err != nil || !ojson.Equal(got, c.want) {
				t.Errorf("framed:\n%s", out)
			}
		})
	}
}

// A snippet that names its context by a reference the caller holds (the
// block's built context) is framed with it; any other reference fails.
func TestFrameWithKnownContext(t *testing.T) {
	want, err := ojson.DecodeJSON([]byte(libraryFramed))
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := decodeJSON([]byte(`{"@vocab": "http://example.org/", "contains": {"@type": "@id"}}`), "the context")
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Replace(libraryInput, `{"@vocab": "http://example.org/", "contains": {"@type": "@id"}}`, `"https://example.org/built/context.jsonld"`, 1)
	tr := &Transform{ID: "library", Type: TypeJSONLDFrame, Code: libraryFrame}
	tr.Outputs = tr.mediaTypes("outputs")
	out, err := tr.Run(t.Context(), Input{Data: []byte(input), MediaType: "application/ld+json",
		Contexts: map[string]any{"https://example.org/built/context.jsonld": ctx}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ojson.DecodeJSON(out); err != nil || !ojson.Equal(got, want) {
		t.Errorf("framed:\n%s", out)
	}
	_, err = tr.Run(t.Context(), Input{Data: []byte(input), MediaType: "application/ld+json"})
	if err == nil || !strings.Contains(err.Error(), "does not fetch") {
		t.Errorf("an unknown context reference: %v", err)
	}
}

func TestFrameFailures(t *testing.T) {
	cases := []struct{ name, frame, data, want string }{
		{"frame not JSON", `{`, libraryInput, "frame is not JSON"},
		{"input not JSON", libraryFrame, `{`, "not JSON"},
		{"remote context", `{"@context": "https://example.org/context.jsonld"}`, libraryInput, "does not fetch"},
	}
	for _, c := range cases {
		tr := &Transform{ID: "f", Type: TypeJSONLDFrame, Code: c.frame}
		tr.Outputs = tr.mediaTypes("outputs")
		_, err := tr.Run(t.Context(), Input{Data: []byte(c.data), MediaType: "application/ld+json"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
