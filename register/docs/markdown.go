package docs

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/bblock"
)

// markdown returns the block's Markdown documentation
// (generateddocs/markdown/PATH/index.md) as the tool chain's Markdown
// template lays it out: a title with the item class, the id and version,
// the abstract and status, then the description, the examples with every
// snippet (those declared and the uplifted ones the build adds, as the full
// JSON documentation lists them), the annotated schema, the context, the
// sources and, when the register has a git repository, where the block's
// sources are in it.
//
// One departure (docs/ogc.md): the tool chain labels its link to
// schema.json "YAML version" and its link to schema.yaml "JSON version";
// jrpcld gives each label its own file.
func (r *Register) markdown(bo *Block) []byte {
	b := bo.Source
	m := b.Meta
	from := MarkdownPath(b)
	assets := r.Layout.SourceLink(from, path.Join(bblock.SourcesDir, b.Path, "assets"))
	var w strings.Builder
	line := func(parts ...string) {
		for _, p := range parts {
			w.WriteString(p)
		}
		w.WriteByte('\n')
	}
	line()
	line("# ", orNone(m.Name), " (", capitalize(m.ItemClass), ")")
	line()
	line("`", b.ID, "` *v", orNone(m.Version), "*")
	line()
	line(orNone(m.Abstract))
	line()
	if m.Status != "" {
		line("[*Status*](http://www.opengis.net/def/status): ", capitalize(strings.ReplaceAll(m.Status, "-", " ")))
	}
	line()
	if bo.Description != "" {
		line("## Description")
		line()
		line(strings.ReplaceAll(bo.Description, "@@assets@@", assets))
	}
	if exs := b.Examples; exs != nil && len(exs.Examples) > 0 {
		line("## Examples")
		for i, ex := range exs.Examples {
			line()
			title := ex.Title
			if title == "" {
				title = "Example " + strconv.Itoa(i+1)
			}
			line("### ", title)
			if ex.Content != "" {
				line(strings.ReplaceAll(ex.Content, "@@assets@@", assets))
			}
			if i >= len(bo.Snippets) {
				continue
			}
			for _, s := range bo.Snippets[i] {
				if s.Code == nil {
					continue
				}
				line("#### ", s.Language)
				line("```", s.Language)
				line(string(s.Code))
				line("```")
				line()
			}
		}
	}
	link := func(file string) string { return r.Layout.Link(from, path.Join(bo.Annotated, file)) }
	if bo.Schema != nil {
		line("## Schema")
		line()
		line("```yaml")
		line(string(bo.Schema))
		line("```")
		line()
		line("Links to the schema:")
		line()
		line("* YAML version: [schema.yaml](", link("schema.yaml"), ")")
		line("* JSON version: [schema.json](", link("schema.json"), ")")
		line()
	}
	if bo.Context != nil {
		line()
		line("# JSON-LD Context")
		line()
		line("```jsonld")
		line(string(bo.Context))
		line("```")
		line()
		line("You can find the full JSON-LD context here:")
		line("[context.jsonld](", link("context.jsonld"), ")")
		line()
	}
	if len(m.Sources) > 0 {
		line("## Sources")
		line()
		for _, s := range m.Sources {
			if s.Link != "" {
				line("* [", s.Title, "](", s.Link, ")")
			} else {
				line("* ", s.Title)
			}
		}
	}
	if r.GitRepository != "" {
		line()
		line("# For developers")
		line()
		line("The source code for this Building Block can be found in the following repository:")
		line()
		line("* URL: [", r.GitRepository, "](", r.GitRepository, ")")
		line("* Path: `", path.Join(bblock.SourcesDir, b.Path), "`")
		line()
	}
	return []byte(w.String())
}

// orNone returns s, or "None" (what the tool chain's template prints for a
// member bblock.json lacks) when it is empty.
func orNone(s string) string {
	if s == "" {
		return "None"
	}
	return s
}

// capitalize returns s with its first letter upper case and the others
// lower case, as Python's str.capitalize.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + strings.ToLower(s[n:])
}
