package register

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"runtime/debug"
	"slices"
	"strings"

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

// has reports whether the object has a member key.
func (o object) has(key string) bool {
	for _, m := range o {
		if m.Key == key {
			return true
		}
	}
	return false
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

// entry returns the block's member of register.json, or the start of its
// full JSON documentation (doc), with links as seen from the output file
// from, as the tool chain writes them: itemIdentifier, the members of
// bblock.json in their order, shaclShapes, dependsOn (the ids of every block
// it depends on, as bblocks:// URIs in register.json), then the links to
// the built and source files, the validation result and, in register.json,
// the documentation.
func (bd *builder) entry(o *blockOut, from string, doc bool) object {
	b := o.b
	e := object{{"itemIdentifier", b.ID}}
	built := map[string]bool{"itemIdentifier": true, "schema": true, "sourceSchema": true, "ldContext": true,
		"sourceLdContext": true, "sourceFiles": true, "testOutputs": true,
		"validationPassed": true, "documentation": true, "shaclShapes": true, "dependsOn": true,
		"resolvedSchemaProperties": true}
	hasDeps := false
	changed := false
	for _, f := range b.Meta.Fields {
		switch f.Key {
		case "dependsOn":
			hasDeps = true
		case "dateOfLastChange":
			changed = true
			if d := bd.lastChange(b); d != "" {
				e = append(e, member{f.Key, d})
			}
			continue
		case "ontology":
			// The tool chain keeps bblock.json's ontology when it builds
			// none; it writes the built one's link otherwise.
			if o.ontology != nil {
				continue
			}
		case "profileOf", "isProfileOf":
			// The tool chain writes isProfileOf, with bblocks:// URIs in
			// register.json and ids in the documentation.
			var ids []string
			if json.Unmarshal(f.Value, &ids) == nil {
				for i, id := range ids {
					id = strings.TrimPrefix(id, bblock.BlockRefPrefix)
					if !doc {
						id = bblock.BlockRefPrefix + id
					}
					ids[i] = id
				}
				e = append(e, member{"isProfileOf", ids})
				continue
			}
		}
		if !built[f.Key] {
			e = append(e, member{f.Key, f.Value})
		}
	}
	if d := bd.lastChange(b); !changed && d != "" {
		e = append(e, member{"dateOfLastChange", d})
	}
	e = append(e, member{"shaclShapes", bd.shaclShapes(o, from)})
	if len(b.Deps) > 0 || hasDeps {
		deps := make([]string, 0, len(b.Deps))
		for _, d := range b.Deps {
			if !doc {
				d = bblock.BlockRefPrefix + d
			}
			deps = append(deps, d)
		}
		e = append(e, member{"dependsOn", deps})
	}
	src := func(file string) string {
		return bd.sourceLink(from, path.Join(bblock.SourcesDir, b.Path, file))
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
	if tr := bd.transformsJSON(o); tr != nil {
		e = e.set("transforms", tr) // in place of a "transforms" of bblock.json
	}
	e = append(e, member{"sourceFiles", src("") + "/"}, member{"validationPassed", o.res.Passed})
	if bd.opts.GitHubBaseURL != "" && len(o.report.Items) > 0 {
		e = append(e, member{"testOutputs", bd.opts.GitHubBaseURL + escapePath(bd.repoPath(o.tests)) + "/"})
	}
	if doc {
		return e
	}
	e = append(e, member{"documentation", object{
		{"markdown", object{{"mediatype", "text/markdown"}, {"url", bd.link(from, o.markdownDoc())}}},
		{"json-full", object{{"mediatype", "application/json"}, {"url", bd.link(from, o.jsonFullDoc())}}},
		{"bblocks-viewer", object{{"mediatype", "text/html"}, {"url", bd.viewerURL() + "bblock/" + b.ID}}},
	}})
	return e
}

// lastChange returns the block's dateOfLastChange as the tool chain writes
// it: the metadata's (dateOfLastChange, else the date of dateTimeAddition),
// or the date of the last commit when that is later; "" when there is none.
func (bd *builder) lastChange(b *bblock.Block) string {
	d := b.Meta.DateOfLastChange
	if !dateOptRE.MatchString(d) {
		d = ""
		if len(b.Meta.DateTimeAddition) >= 10 && dateOptRE.MatchString(b.Meta.DateTimeAddition[:10]) {
			d = b.Meta.DateTimeAddition[:10]
		}
	}
	if c := bd.opts.CommitDate; c > d {
		d = c
	}
	return d
}

// shaclShapes returns the SHACL shapes files that apply to the block's
// resources, by the block that declares them: its own, then those of the
// blocks it depends on, as links from the output file from.
func (bd *builder) shaclShapes(o *blockOut, from string) object {
	out := object{}
	seen := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		b := bd.reg.Block(id)
		if b == nil {
			// A block of an imported register: the shapes its register
			// lists for it, its own and those it inherits.
			if ib, ok := bd.reg.Imports.Block(id); ok {
				for _, k := range slices.Sorted(maps.Keys(ib.ShaclShapes)) {
					if !out.has(k) {
						out = append(out, member{k, ib.ShaclShapes[k]})
					}
				}
			}
			return
		}
		if files := shapesFiles(b); len(files) > 0 {
			links := make([]string, len(files))
			for i, f := range files {
				if strings.Contains(f, "://") {
					links[i] = f
				} else {
					links[i] = bd.sourceLink(from, path.Join(bblock.SourcesDir, b.Path, f))
				}
			}
			if !out.has(id) {
				out = append(out, member{id, links})
			}
		}
		for _, d := range b.Deps {
			visit(d)
		}
	}
	visit(o.b.ID)
	return out
}

// shapesFiles returns the SHACL files a block declares: the shaclShapes
// (or the older shaclRules) of bblock.json, else its shapes.shacl or
// rules.shacl.
func shapesFiles(b *bblock.Block) []string {
	for _, key := range []string{"shaclShapes", "shaclRules"} {
		for _, f := range b.Meta.Fields {
			var list []string
			if f.Key == key && json.Unmarshal(f.Value, &list) == nil && len(list) > 0 {
				return list
			}
		}
	}
	if b.Files.Shapes != "" {
		return []string{b.Files.Shapes}
	}
	return nil
}

// sourceLink returns the link to the file p of the sources tree (a path
// from the root of the repository, "_sources/..."), as written in the output
// file from: below the base URL when there is one.
func (bd *builder) sourceLink(from, p string) string {
	switch {
	case bd.opts.BaseURL != "":
		return bd.opts.BaseURL + escapePath(p)
	case bd.opts.BuildPath != "":
		return relLink(bd.repoPath(from), p)
	}
	return p
}

// viewerURL returns the URL of the register's viewer, ending in "/".
func (bd *builder) viewerURL() string {
	u := bd.opts.ViewerURL
	if u == "" {
		u = bd.opts.BaseURL
	}
	if u != "" && !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// writeRegister writes register.json, the copies of the imported
// registers the viewer reads (annotated/_cache), and register-summary.md.
func (bd *builder) writeRegister(res *Result) error {
	cfg := bd.reg.Config
	reg := object{{"name", cfg.Name}}
	if cfg.Abstract != "" {
		reg = append(reg, member{"abstract", cfg.Abstract})
	}
	if cfg.Description != "" {
		reg = append(reg, member{"description", cfg.Description})
	}
	if cfg.Sparql.Query != "" {
		reg = append(reg, member{"sparqlEndpoint", cfg.Sparql.Query})
	}
	if bd.date != "" {
		reg = append(reg, member{"modified", bd.date + "T00:00:00"})
	}
	reg = append(reg, member{"tooling", tooling()})
	if bd.opts.GitRepository != "" {
		reg = append(reg, member{"gitRepository", bd.opts.GitRepository})
	}
	if bd.opts.GitHubBaseURL != "" {
		reg = append(reg, member{"gitHubRepository", bd.opts.GitHubBaseURL})
	}
	base := bd.opts.BaseURL
	if base == "" {
		base = "./"
	}
	reg = append(reg, member{"baseURL", base})
	if v := bd.viewerURL(); v != "" {
		reg = append(reg, member{"viewerURL", v})
	}
	reg = append(reg,
		member{"validationReport", bd.link("register.json", "tests/report.html")},
		member{"validationReportJson", bd.link("register.json", "tests/report.json")})
	var imports []string
	for _, i := range cfg.Imports {
		u := bd.reg.Imports.RegisterURL(i)
		imports = append(imports, u)
		if data, ok := bd.reg.Imports.RegisterFile(i); ok {
			sum := sha256.Sum256([]byte(u))
			bd.put(path.Join(cacheDir, hex.EncodeToString(sum[:])), data)
		}
	}
	if len(imports) > 0 {
		reg = append(reg, member{"imports", imports})
	}
	blocks := []object{}
	for _, o := range bd.blocks {
		blocks = append(blocks, bd.entry(o, "register.json", false))
	}
	reg = append(reg, member{"bblocks", blocks},
		member{"remoteCacheDir", strings.TrimSuffix(bd.link("register.json", cacheDir+"/"), "/")},
		member{"links", []object{
			{{"rel", "self"}, {"href", bd.link("register.json", "register.json")}, {"type", "application/json"}, {"title", "This Building Blocks Register in JSON format"}},
			{{"rel", "self"}, {"href", bd.link("register.json", "bblocks.ttl")}, {"type", "text/turtle"}, {"title", "This Building Blocks Register in RDF Turtle format"}},
			{{"rel", "self"}, {"href", bd.link("register.json", "bblocks.jsonld")}, {"type", "application/ld+json"}, {"title", "This Building Blocks Register in JSON-LD format"}},
		}})
	data, err := marshalIndent(reg)
	if err != nil {
		return fmt.Errorf("register.json: %w", err)
	}
	bd.put("register.json", data)
	bd.put("register-summary.md", bd.registerSummary())
	return nil
}

// cacheDir is the folder of the copies of imported registers, each named
// by the SHA-256 of its URL, as the tool chain caches what it fetches; the
// viewer reads imports from it (register.json's remoteCacheDir).
const cacheDir = "annotated/_cache"

// registerSummary returns register-summary.md: the register's name,
// abstract and description, then each block's id, name, item class and
// abstract.
func (bd *builder) registerSummary() []byte {
	cfg := bd.reg.Config
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n", cfg.Name)
	for _, s := range []string{cfg.Abstract, cfg.Description} {
		if s != "" {
			fmt.Fprintf(&w, "%s\n\n", s)
		}
	}
	w.WriteString("## Building Blocks\n\n")
	for _, o := range bd.blocks {
		m := o.b.Meta
		fmt.Fprintf(&w, "### `%s` \u2014 %s\n\n**Type:** %s\n\n", o.b.ID, m.Name, m.ItemClass)
		if m.Abstract != "" {
			fmt.Fprintf(&w, "%s\n\n", m.Abstract)
		}
	}
	return []byte(w.String())
}

// tooling is register.json's tooling member: jrpcld's own version, where
// the tool chain names its own.
func tooling() object {
	version := "(devel)"
	j := object{}
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				j = append(j, member{"commitId", s.Value})
			}
		}
	}
	return object{{"jrpcld", append(object{{"version", version}}, j...)}}
}

func nonNilObjects(os []object) []object {
	if os == nil {
		return []object{}
	}
	return os
}
