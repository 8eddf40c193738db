package site

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/register/report"
)

func TestPages(t *testing.T) {
	tests := []struct {
		name       string
		write      func(*bytes.Buffer) error
		want, gone []string
	}{
		{"index escapes and counts", func(b *bytes.Buffer) error {
			return WriteIndex(b, &Index{Name: "Reg <script>", Passed: 1, Failed: 1, Rows: []IndexRow{
				{Name: "A", ID: "x.a", Page: "bblock/x.a.html", Passed: true, Deps: []Dep{{ID: "x.b", Page: "bblock/x.b.html"}, {ID: "y.c"}}},
				{Name: "B", ID: "x.b", Page: "bblock/x.b.html"},
			}})
		}, []string{"Reg &lt;script&gt;", `<span class="fail">1 failed</span>`, `<a href="bblock/x.b.html">x.b</a>`, `<span class="id">y.c</span>`, `<span class="fail">FAILED</span>`,
			`<input type="search" id="filter" hidden`, `<tr data-search="a x.a">`, `getElementById("filter")`},
			[]string{"Reg <script>", `<tr class="group">`, `id="graph"`}},
		{"index with groups, tags and a graph", func(b *bytes.Buffer) error {
			return WriteIndex(b, &Index{Name: "Reg", Rows: []IndexRow{
				{Name: "B", ID: "x.b", Group: "Paths", Tags: []string{"Geo"}, Highlighted: true}, {Name: "A", ID: "x.a"}},
				Graph: []GraphNode{{ID: "x.a", Name: "A", Page: "bblock/x.a.html"}, {ID: "x.b", Name: "B", Page: "bblock/x.b.html", Deps: []string{"x.a"}}, {ID: "x.c", Name: "C"}}})
		}, []string{`<tr class="group"><th colspan="6">Paths</th></tr>`, `<tr data-search="b x.b geo" class="highlighted">`, `<tr class="group"><th colspan="6">Other</th></tr>`,
			`<h2 id="graph">`, `<a href="bblock/x.a.html"><g class="node">`, "1 block that neither depends on another nor is depended on is left out."},
			nil},
		{"block page", func(b *bytes.Buffer) error {
			return WriteBlock(b, &Block{Register: "Reg", Name: "A", ID: "x.a", Passed: true, Description: "Some *text*",
				Examples: []Example{{Index: 1, Title: "One", Snippets: []Snippet{{Index: 1, Dropped: true,
					Files: []File{{Caption: "JSON", File: "example_1_1.json", Link: "../tests/x/example_1_1.json", Code: `{"a":"<b>"}`}}}}}},
				Report: []ReportRow{{Label: "Example 1", File: "example_1_1.json", Sections: []Section{{Title: "JSON Schema", Entries: []report.Entry{{IsError: true, Message: "bad & wrong"}}}}}},
			})
		}, []string{"<em>text</em>", "not checked", `{&#34;a&#34;:&#34;&lt;b&gt;&#34;}`, "<strong>error:</strong> bad &amp; wrong", `<span class="pass">passed</span>`},
			[]string{"<b>", "<script", `id="dependencies"`}},
		{"block page with Turtle and a graph", func(b *bytes.Buffer) error {
			return WriteBlock(b, &Block{Register: "Reg", Name: "A", ID: "x.a", Examples: []Example{{Index: 1, Title: "One", Snippets: []Snippet{{Index: 1,
				Files: []File{{Caption: "JSON", File: "e.json", Link: "e.json"}, {Caption: "Turtle", File: "e.ttl", Link: "e.ttl", Code: "<a> <b> <c> ."}}}}}},
				Graph: []GraphNode{{ID: "x.a", Name: "A", Current: true, Deps: []string{"x.b"}}, {ID: "x.b", Name: "B", Page: "x.b.html"}}})
		}, []string{`<figure class="wide"><figcaption>Turtle`, `<figure><figcaption>JSON`, `<h2 id="dependencies">`, `<a href="x.b.html">`, `class="node current"`},
			[]string{"<script"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			if !strings.HasPrefix(page, "<!DOCTYPE html>") {
				t.Errorf("page does not start with the doctype: %.40q", page)
			}
			for _, s := range tc.want {
				if !strings.Contains(page, s) {
					t.Errorf("page lacks %q", s)
				}
			}
			for _, s := range tc.gone {
				if strings.Contains(page, s) {
					t.Errorf("page has %q", s)
				}
			}
		})
	}
}
