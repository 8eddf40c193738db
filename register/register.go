package register

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"

	"github.com/jrpcld/jrpcld/bblock"
)

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
	return path.Join("generateddocs", "markdown", o.b.OutputPath(), "index.md")
}

func (o *blockOut) jsonFullDoc() string {
	return path.Join("generateddocs", "json-full", o.b.OutputPath(), "index.json")
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
		return path.Join(bblock.SourcesDir, b.Path, file)
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
	if tr := bd.transformsJSON(o); tr != nil {
		e = e.set("transforms", tr) // in place of a "transforms" of bblock.json
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
			i = bblock.DefaultImport
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

func nonNilObjects(os []object) []object {
	if os == nil {
		return []object{}
	}
	return os
}
