package transform

import (
	"fmt"
	"strings"
	"testing"
)

// nestedJSON returns n arrays nested, each opening a line of its own: the
// kth opens line k.
func nestedJSON(n int) string {
	return strings.Repeat("[\n", n) + "1" + strings.Repeat("]", n)
}

// TestDepth: JSON nested past 512, as a jq transform's input, a frame or a
// framed snippet, is an error naming the line and the limit; a jq result
// or a framed document nested past it is an error too. A jq program
// nesting 100,000 arrays made 20 GB of indented output, a frame of a chain
// of 4,000 nodes 48 MB, both growing with the square of the nesting.
func TestDepth(t *testing.T) {
	run := func(typ, code, data, mediaType string) error {
		tr := &Transform{ID: "t", Type: typ, Code: code}
		tr.Outputs = tr.mediaTypes("outputs")
		_, err := tr.Run(t.Context(), Input{Data: []byte(data), MediaType: mediaType})
		return err
	}
	const frame = `{"@context": {"@vocab": "http://e/"}, "@id": "http://e/n0"}`
	// A chain of n nodes, each embedded in the one before when framed.
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("@prefix e: <http://e/> .\n")
		for i := range n {
			fmt.Fprintf(&b, "e:n%d e:next e:n%d .\n", i, i+1)
		}
		return b.String()
	}
	for _, c := range []struct {
		name                       string
		typ, code, data, mediaType string
		want                       string // "" for none
	}{
		{"jq input of 512", TypeJQ, ".", nestedJSON(512), "application/json", ""},
		{"jq input of 513", TypeJQ, ".", nestedJSON(513), "application/json", "input: line 513: nested more than 512 deep"},
		{"jq input of 9,000", TypeJQ, ".", nestedJSON(9000), "application/json", "input: line 513: nested more than 512 deep"},
		{"jq result of 512", TypeJQ, "reduce range(512) as $i (null; [.])", "null", "application/json", ""},
		{"jq result of 513", TypeJQ, "reduce range(513) as $i (null; [.])", "null", "application/json", "the jq program's result is nested more than 512 deep"},
		{"jq result of 100,000", TypeJQ, "reduce range(100000) as $i (null; {a: .})", "null", "application/json", "the jq program's result is nested more than 512 deep"},
		{"frame of 513", TypeJSONLDFrame, `{"@context": {"@vocab": "http://e/"}, "a":` + "\n" + nestedJSON(512) + "}", `{}`, "application/ld+json",
			"the frame: line 513: nested more than 512 deep"},
		{"snippet of 513", TypeJSONLDFrame, frame, `{"@context": {"@vocab": "http://e/"}, "a":` + "\n" + nestedJSON(512) + "}", "application/ld+json",
			"input: line 513: nested more than 512 deep"},
		// The node and 511 embedded below it; then one more.
		{"framed chain of 512", TypeJSONLDFrame, frame, chain(511), "text/turtle", ""},
		{"framed chain of 513", TypeJSONLDFrame, frame, chain(512), "text/turtle", "the framed document is nested more than 512 deep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := run(c.typ, c.code, c.data, c.mediaType)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%v, want %q", err, c.want)
			}
		})
	}
}
