package docs

import (
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
)

// TestMarkdown checks the Markdown page of a block against the layout of
// the tool chain's template (whose output TestOGCDifferential compares on
// real registers), and jrpcld's one departure: each schema link under its
// own label.
func TestMarkdown(t *testing.T) {
	full := &bblock.Block{ID: "x.geo.point", Path: "geo/point",
		Meta: &bblock.Metadata{Name: "Point", ItemClass: "schema", Version: "1.0", Abstract: "A point.",
			Status: "under-development", Sources: []bblock.Source{{Title: "Spec", Link: "https://example.org/spec"}, {Title: "Notes"}}},
		Examples: &bblock.Examples{Examples: []bblock.Example{
			{Title: "One", Content: "See ![map](@@assets@@/map.png).", Snippets: []bblock.Snippet{{Language: "json"}}},
			{}}}}
	bare := &bblock.Block{ID: "x.bare", Path: "bare", Meta: &bblock.Metadata{ItemClass: "datatype", Status: "stable"}}
	r := &Register{Layout: Layout{BaseURL: "https://example.org/reg/", BuildPath: "build"}, GitRepository: "https://github.com/o/r"}
	tests := []struct {
		name string
		b    *Block
		want string
	}{
		{"full", &Block{Source: full, Annotated: "annotated/geo/point", Tests: "tests/geo/point",
			Schema: []byte("type: object\n"), Context: []byte("{\n  \"@context\": {}\n}"), Description: "Some text.",
			Snippets: [][]Snippet{{{Language: "json", Code: []byte("{}\n")}, {Language: "ttl", Code: []byte("[] a <x:y> .\n\n")}}, {}}},
			`
# Point (Schema)

` + "`x.geo.point`" + ` *v1.0*

A point.

[*Status*](http://www.opengis.net/def/status): Under development

## Description

Some text.
## Examples

### One
See ![map](https://example.org/reg/_sources/geo/point/assets/map.png).
#### json
` + "```json\n{}\n\n```" + `

#### ttl
` + "```ttl\n[] a <x:y> .\n\n\n```" + `


### Example 2
## Schema

` + "```yaml\ntype: object\n\n```" + `

Links to the schema:

* YAML version: [schema.yaml](https://example.org/reg/build/annotated/geo/point/schema.yaml)
* JSON version: [schema.json](https://example.org/reg/build/annotated/geo/point/schema.json)


# JSON-LD Context

` + "```jsonld\n{\n  \"@context\": {}\n}\n```" + `

You can find the full JSON-LD context here:
[context.jsonld](https://example.org/reg/build/annotated/geo/point/context.jsonld)

## Sources

* [Spec](https://example.org/spec)
* Notes

# For developers

The source code for this Building Block can be found in the following repository:

* URL: [https://github.com/o/r](https://github.com/o/r)
* Path: ` + "`_sources/geo/point`" + `

`},
		{"bare", &Block{Source: bare, Annotated: "annotated/bare"}, `
# None (Datatype)

` + "`x.bare`" + ` *vNone*

None

[*Status*](http://www.opengis.net/def/status): Stable


# For developers

The source code for this Building Block can be found in the following repository:

* URL: [https://github.com/o/r](https://github.com/o/r)
* Path: ` + "`_sources/bare`" + `

`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(r.markdown(tt.b))
			if got != tt.want {
				gl, wl := strings.Split(got, "\n"), strings.Split(tt.want, "\n")
				for i := range max(len(gl), len(wl)) {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("line %d: got %q, want %q\n%s", i+1, g, w, got)
					}
				}
			}
		})
	}
}
