package register

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// defaultImport is the register the tool chain's "default" import names:
// the main OGC building-block register.
const defaultImport = "https://opengeospatial.github.io/bblocks/register.json"

// object is a JSON object that keeps its members in order.
type object []member

type member struct {
	Key   string
	Value any
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.Value); err != nil {
			return nil, fmt.Errorf("member %q: %w", m.Key, err)
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// set replaces the value of key, or appends it.
func (o object) set(key string, v any) object {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, member{key, v})
}

// Output paths of the documentation of block o.
func (o *blockOut) markdownDoc() string {
	return path.Join("generateddocs", "markdown", blockPath(o.b), "index.md")
}

func (o *blockOut) jsonFullDoc() string {
	return path.Join("generateddocs", "json-full", blockPath(o.b), "index.json")
}

// page is the path of the block's HTML page.
func (o *blockOut) page() string {
	return pagePath(o.b.ID)
}

func pagePath(id string) string { return "bblock/" + id + ".html" }

// entry returns the block's member of register.json, with links as seen
// from the output file from: itemIdentifier, the members of bblock.json in
// their order (dependsOn listing the ids of every block it depends on), then
// the links to the built files and the validation result.
func (bd *builder) entry(o *blockOut, from string) object {
	b := o.b
	e := object{{"itemIdentifier", b.ID}}
	built := map[string]bool{"itemIdentifier": true, "schema": true, "sourceSchema": true, "ldContext": true,
		"sourceLdContext": true, "ontology": true, "sourceOntology": true, "sourceFiles": true, "testOutputs": true,
		"validationPassed": true, "documentation": true}
	for _, f := range b.Meta.Fields {
		if built[f.Key] {
			continue
		}
		if f.Key == "dependsOn" {
			e = append(e, member{"dependsOn", nonNil(b.Deps)})
			continue
		}
		e = append(e, member{f.Key, f.Value})
	}
	if len(b.Deps) > 0 {
		e = e.set("dependsOn", b.Deps)
	}
	src := func(file string) string {
		return path.Join("_sources", blockPath(b), file)
	}
	if o.schemaYAML != nil {
		e = append(e, member{"schema", object{
			{"application/yaml", bd.link(from, path.Join(o.annotated, "schema.yaml"))},
			{"application/json", bd.link(from, path.Join(o.annotated, "schema.json"))},
		}})
	}
	if b.Files.Schema != "" {
		e = append(e, member{"sourceSchema", src(b.Files.Schema)})
	}
	if o.context != nil {
		e = append(e, member{"ldContext", bd.link(from, path.Join(o.annotated, "context.jsonld"))})
	}
	if b.Files.Context != "" {
		e = append(e, member{"sourceLdContext", src(b.Files.Context)})
	}
	if o.ontology != nil {
		e = append(e, member{"ontology", bd.link(from, path.Join(o.annotated, "ontology.ttl"))})
	}
	if len(b.Files.Ontology) == 1 {
		e = append(e, member{"sourceOntology", src(b.Files.Ontology[0])})
	}
	e = append(e,
		member{"sourceFiles", src("") + "/"},
		member{"testOutputs", bd.link(from, o.tests+"/")},
		member{"validationPassed", o.res.Passed},
		member{"documentation", object{
			{"markdown", object{{"mediatype", "text/markdown"}, {"url", bd.link(from, o.markdownDoc())}}},
			{"json-full", object{{"mediatype", "application/json"}, {"url", bd.link(from, o.jsonFullDoc())}}},
			{"html", object{{"mediatype", "text/html"}, {"url", bd.link(from, o.page())}}},
		}},
	)
	return e
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// writeRegister writes register.json.
func (bd *builder) writeRegister(res *Result) error {
	cfg := bd.reg.Config
	imports := []string{}
	for _, i := range cfg.Imports {
		if i == "default" {
			i = defaultImport
		}
		imports = append(imports, i)
	}
	base := bd.opts.BaseURL
	if base == "" {
		base = "./"
	}
	reg := object{{"name", cfg.Name}, {"abstract", cfg.Abstract}, {"description", cfg.Description}}
	if bd.date != "" {
		reg = append(reg, member{"modified", bd.date})
	}
	reg = append(reg, member{"baseURL", base}, member{"imports", imports})
	blocks := []object{}
	for _, o := range bd.blocks {
		blocks = append(blocks, bd.entry(o, "register.json"))
	}
	reg = append(reg, member{"bblocks", blocks})
	data, err := marshalIndent(reg)
	if err != nil {
		return fmt.Errorf("register.json: %w", err)
	}
	bd.put("register.json", data)
	return nil
}

// writeDocs writes the generated documentation of every block: Markdown and
// the full JSON description.
func (bd *builder) writeDocs() error {
	for _, o := range bd.blocks {
		full := bd.entry(o, o.jsonFullDoc())
		if o.description != "" {
			full = full.set("description", o.description)
		}
		var examples []object
		for _, ex := range o.examples {
			var snippets []object
			for _, it := range ex.Snippets {
				for _, s := range it.outputs() {
					snippets = append(snippets, object{{"language", s.language},
						{"code", string(s.code)}, {"url", bd.link(o.jsonFullDoc(), path.Join(o.tests, s.file))}})
				}
			}
			examples = append(examples, object{{"title", ex.Title}, {"content", ex.Content}, {"snippets", nonNilObjects(snippets)}})
		}
		full = full.set("examples", nonNilObjects(examples))
		data, err := marshalIndent(full)
		if err != nil {
			return fmt.Errorf("%s: %w", o.jsonFullDoc(), err)
		}
		bd.put(o.jsonFullDoc(), data)
		bd.put(o.markdownDoc(), bd.markdown(o))
	}
	return nil
}

func nonNilObjects(os []object) []object {
	if os == nil {
		return []object{}
	}
	return os
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
