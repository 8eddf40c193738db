package bblock

import (
	"strings"
	"testing"
)

// TestDocUpliftFormatsParse: a snippet's doc-uplift-formats as the tool
// chain's examples schema allows it (jsonld, ttl, a list of them, null),
// nil when absent (both forms), empty for none, and an error for anything
// else, which leaves the default.
func TestDocUpliftFormatsParse(t *testing.T) {
	for _, c := range []struct {
		name, value string // value "" leaves the member out
		want        []string
		none        bool   // want is empty, not nil
		problem     string // part of the one problem expected
	}{
		{"absent", "", nil, false, ""},
		{"one", "ttl", []string{"ttl"}, false, ""},
		{"list", "[jsonld, ttl]", []string{"jsonld", "ttl"}, false, ""},
		{"null", "null", nil, true, ""},
		{"tilde", "~", nil, true, ""},
		{"empty list", "[]", nil, true, ""},
		{"empty string", `""`, nil, true, ""},
		{"unknown format", "xml", nil, false, `names "xml"`},
		{"object", "{a: b}", nil, false, "must be jsonld, ttl or a list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := "- snippets:\n    - language: json\n      code: '{}'\n"
			if c.value != "" {
				doc += "      doc-uplift-formats: " + c.value + "\n"
			}
			ex, probs, err := ParseExamples("examples.yaml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if c.problem == "" && len(probs) > 0 || c.problem != "" && (len(probs) != 1 || !strings.Contains(probs[0].Message, c.problem) || !strings.Contains(probs[0].Message, "line 4")) {
				t.Errorf("problems %v, want one at line 4 with %q", probs, c.problem)
			}
			got := ex.Examples[0].Snippets[0].DocUpliftFormats
			if strings.Join(got, ",") != strings.Join(c.want, ",") || (got != nil && len(got) == 0) != c.none {
				t.Errorf("DocUpliftFormats %#v, want %#v (none: %v)", got, c.want, c.none)
			}
		})
	}
}
