package register

import (
	"fmt"
	"maps"

	"github.com/jrpcld/jrpcld/bblock"
	"path"
	"regexp"
	"strings"
)

// writeDocs writes the generated documentation of every block: Markdown and
// the full JSON description (generateddocs/json-full/PATH/index.json), which
// the OGC viewer reads: the block's member of register.json without its
// documentation links, then its description, its examples with each snippet
// as written and what the build made of it (the uplifted JSON-LD and
// Turtle, where the example has no snippet in that language), the
// examples' prefixes, and the annotated schema as YAML text.
func (bd *builder) writeDocs() error {
	for _, o := range bd.blocks {
		from := o.jsonFullDoc()
		full := bd.entry(o, from, true)
		if o.description != "" {
			full = full.set("description", o.description)
		}
		if o.b.Examples != nil {
			var examples []object
			for i, ex := range o.b.Examples.Examples {
				e := object{{"title", ex.Title}}
				if ex.Content != "" {
					e = append(e, member{"content", ex.Content})
				}
				if ex.BaseURI != "" {
					e = append(e, member{"base-uri", ex.BaseURI})
				}
				if snippets := bd.docSnippets(o, i, from); len(snippets) > 0 {
					e = append(e, member{"snippets", snippets})
				}
				if p := examplePrefixes(o.b.Examples, ex); len(p) > 0 {
					e = append(e, member{"prefixes", p})
				}
				examples = append(examples, e)
			}
			full = full.set("examples", nonNilObjects(examples))
			if len(o.b.Examples.Prefixes) > 0 {
				full = full.set("examplePrefixes", o.b.Examples.Prefixes)
			}
		}
		var annotated any
		if o.schemaYAML != nil {
			annotated = string(o.schemaYAML)
		}
		full = full.set("annotatedSchema", annotated)
		if bd.opts.GitRepository != "" {
			full = full.set("gitRepository", bd.opts.GitRepository)
			full = full.set("gitPath", path.Join(bblock.SourcesDir, o.b.Path))
		}
		data, err := marshalIndent(full)
		if err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
		bd.put(from, data)
		bd.put(o.markdownDoc(), bd.markdown(o))
	}
	return nil
}

// examplePrefixes returns the prefixes of example ex: those of
// examples.yaml, with the example's own over them.
func examplePrefixes(all *bblock.Examples, ex bblock.Example) map[string]string {
	if len(ex.Prefixes) == 0 {
		return all.Prefixes
	}
	out := maps.Clone(all.Prefixes)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, ex.Prefixes)
	return out
}

// docSnippets returns the snippets of example i (0-based) of block o as the
// full JSON documentation lists them: those of examples.yaml as written,
// then the uplifted JSON-LD and Turtle files the tool chain adds (see
// exampleSnippets), each with its language, schema-ref, the URL of its
// source file (ref), its URL in the build, the results of the transforms
// that ran on it, its size and its code.
func (bd *builder) docSnippets(o *blockOut, i int, from string) []object {
	if i >= len(o.examples) {
		return nil
	}
	declared := o.b.Examples.Examples[i].Snippets
	var out []object
	for j, s := range o.exampleSnippets(i) {
		sn := object{{"language", s.language}}
		if j < len(declared) && !s.added {
			d := declared[j]
			if d.SchemaRef != "" {
				sn = append(sn, member{"schema-ref", d.SchemaRef})
			}
			if d.Ref != "" {
				ref := path.Join(bblock.SourcesDir, o.b.Path, path.Dir(o.b.Files.Examples), d.Ref)
				sn = append(sn, member{"ref", bd.sourceLink(from, ref)})
			}
		}
		if s.code == nil {
			out = append(out, sn)
			continue
		}
		sn = append(sn, member{"url", bd.link(from, path.Join(o.tests, s.file))})
		if tr := bd.transformResults(o, i, j, from); tr != nil {
			sn = append(sn, member{"transformResults", tr})
		}
		sn = append(sn, member{"sizeBytes", len(s.code)}, member{"code", string(s.code)})
		out = append(out, sn)
	}
	return out
}

// output is one file made from a snippet, for documentation.
type output struct {
	language string
	file     string
	code     []byte
}

// outputs returns the snippet as written and what the build made of it.
func (it *item) outputs() []output {
	var out []output
	if it.Source != nil {
		lang := it.Language
		if lang == "" {
			lang = strings.TrimPrefix(path.Ext(it.File), ".")
		}
		out = append(out, output{lang, it.File, it.Source})
	}
	if it.JSON != nil {
		out = append(out, output{"json", it.Base + ".json", it.JSON})
	}
	if it.JSONLD != nil && languageKind(it.Language) != langJSONLD {
		out = append(out, output{"jsonld", it.Base + ".jsonld", it.JSONLD})
	}
	if it.Turtle != nil && languageKind(it.Language) != langTurtle {
		out = append(out, output{"turtle", it.Base + ".ttl", it.Turtle})
	}
	return out
}

// fence returns a Markdown code fence longer than any run of backticks in
// code.
func fence(code string) string {
	n, run := 3, 0
	for _, c := range code {
		if c == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}

// markdown returns the block's generated Markdown documentation.
func (bd *builder) markdown(o *blockOut) []byte {
	b := o.b
	from := o.markdownDoc()
	var w strings.Builder
	fmt.Fprintf(&w, "# %s (%s)\n\n", b.Meta.Name, b.ID)
	if b.Meta.Abstract != "" {
		fmt.Fprintf(&w, "%s\n\n", strings.TrimSpace(b.Meta.Abstract))
	} else if b.Meta.Description != "" {
		fmt.Fprintf(&w, "%s\n\n", strings.TrimSpace(b.Meta.Description))
	}
	fmt.Fprintf(&w, "- Status: %s\n- Version: %s\n- Item class: %s\n", b.Meta.Status, b.Meta.Version, b.Meta.ItemClass)
	if len(b.Deps) > 0 {
		fmt.Fprintf(&w, "- Depends on: %s\n", strings.Join(b.Deps, ", "))
	}
	verdict := "passed"
	if !o.res.Passed {
		verdict = "failed"
	}
	fmt.Fprintf(&w, "- Validation: %s (%d of %d examples, %d of %d tests)\n\n", verdict,
		o.res.Examples.Passed, o.res.Examples.Passed+o.res.Examples.Failed, o.res.Tests.Passed, o.res.Tests.Passed+o.res.Tests.Failed)
	if o.description != "" {
		fmt.Fprintf(&w, "## Description\n\n%s\n\n", strings.TrimSpace(shiftHeadings(o.description, 2)))
	}
	if len(o.examples) > 0 {
		w.WriteString("## Examples\n\n")
		for _, ex := range o.examples {
			fmt.Fprintf(&w, "### %s\n\n", ex.Title)
			if c := strings.TrimSpace(ex.Content); c != "" {
				fmt.Fprintf(&w, "%s\n\n", shiftHeadings(c, 4))
			}
			for _, it := range ex.Snippets {
				for _, s := range it.outputs() {
					code := strings.TrimRight(string(s.code), "\n")
					f := fence(code)
					fmt.Fprintf(&w, "#### %s\n\n%s%s\n%s\n%s\n\n", s.language, f, s.language, code, f)
				}
			}
		}
	}
	if o.schemaYAML != nil {
		fmt.Fprintf(&w, "## Schema\n\n")
		code := strings.TrimRight(string(o.schemaYAML), "\n")
		f := fence(code)
		fmt.Fprintf(&w, "%syaml\n%s\n%s\n\n", f, code, f)
		fmt.Fprintf(&w, "Links to the schema:\n\n- YAML version: [schema.yaml](%s)\n- JSON version: [schema.json](%s)\n\n",
			bd.link(from, path.Join(o.annotated, "schema.yaml")), bd.link(from, path.Join(o.annotated, "schema.json")))
	}
	if o.context != nil {
		fmt.Fprintf(&w, "## JSON-LD Context\n\n")
		code := strings.TrimRight(string(o.context), "\n")
		f := fence(code)
		fmt.Fprintf(&w, "%sjsonld\n%s\n%s\n\n", f, code, f)
		fmt.Fprintf(&w, "You can find the full JSON-LD context here: [context.jsonld](%s)\n\n", bd.link(from, path.Join(o.annotated, "context.jsonld")))
	}
	if len(b.Meta.Sources) > 0 {
		w.WriteString("## Sources\n\n")
		for _, s := range b.Meta.Sources {
			if s.Link != "" {
				fmt.Fprintf(&w, "- [%s](%s)\n", s.Title, s.Link)
			} else {
				fmt.Fprintf(&w, "- %s\n", s.Title)
			}
		}
		w.WriteString("\n")
	}
	return []byte(strings.TrimRight(w.String(), "\n") + "\n")
}

// ATX headings and code fence openings, as shiftHeadings sees them.
var (
	headingRE = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ ]+(.*?))?(?:[ ]+#+)?[ ]*$`)
	fenceRE   = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})[ ]*([^`]*)$")
)

// shiftHeadings moves the ATX headings of Markdown text (outside code
// fences) down so that the top level becomes level top.
func shiftHeadings(md string, top int) string {
	lines := strings.Split(md, "\n")
	inFence := ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			if inFence == "" {
				inFence = m[2][:1]
			} else if strings.HasPrefix(t, inFence) {
				inFence = ""
			}
			continue
		}
		if inFence != "" || !headingRE.MatchString(l) {
			continue
		}
		n := len(t) - len(strings.TrimLeft(t, "#"))
		level := min(n+top-1, 6)
		lines[i] = strings.Repeat("#", level) + t[n:]
	}
	return strings.Join(lines, "\n")
}
