package register

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/internal/lang"
	"github.com/jrpcld/jrpcld/register/report"
	"github.com/jrpcld/jrpcld/register/site"
)

// summary describes a block's results in a few words.
func summary(r BlockResult) string {
	var parts []string
	if n := r.Examples.Passed + r.Examples.Failed; n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d example snippet%s", r.Examples.Passed, n, plural(n)))
	}
	if n := r.Tests.Passed + r.Tests.Failed; n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d test%s", r.Tests.Passed, n, plural(n)))
	}
	if len(parts) == 0 {
		return "nothing to check"
	}
	return strings.Join(parts, ", ") + " as expected"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

var captions = map[string]string{lang.JSON: "JSON", lang.JSONLD: "JSON-LD", lang.Turtle: "Turtle", lang.YAML: "YAML"}

// snippetFiles lists the files of a checked snippet or test resource.
func (bd *builder) snippetFiles(o *blockOut, it *item, from string) []site.File {
	var out []site.File
	for _, s := range it.outputs() {
		c := captions[lang.Kind(s.language)]
		if c == "" {
			c = s.language
		}
		out = append(out, site.File{Caption: c, File: s.file, Link: bd.testFileLink(o, from, s.file), Code: string(s.code)})
	}
	return out
}

// testFileLink returns the link from the page from to the file of block
// o's tests folder: the file the build wrote there, else the test
// resource's copy in the published sources, else "" (nothing to link to:
// a resource the build neither checks nor copies).
func (bd *builder) testFileLink(o *blockOut, from, file string) string {
	if p := bd.repoPath(path.Join(o.tests, file)); bd.written[p] {
		return docs.RelLink(from, p)
	}
	if p := path.Join(bblock.SourcesDir, o.b.Path, "tests", file); bd.sourcePublished(p) {
		return docs.RelLink(from, p)
	}
	return ""
}

// pageLink returns the relative link from the page from (a path below the
// output folder: the pages are at the root of the repository with a
// BuildPath) to the output file to of the build.
func (bd *builder) pageLink(from, to string) string { return docs.RelLink(from, bd.repoPath(to)) }

// page is the path of the block's HTML page.
func (o *blockOut) page() string {
	return pagePath(o.b.ID)
}

func pagePath(id string) string { return "bblock/" + id + ".html" }

// linkWarnings follows the links of the Markdown texts the pages show,
// each named by the file it comes from, and returns a warning for each
// link that leads to nothing the build published (the page shows its text
// alone).
func linkWarnings(bt *site.Built, from, dir string, texts ...string) []string {
	var warns []string
	for i := 0; i+1 < len(texts); i += 2 {
		file, text := texts[i], texts[i+1]
		if text == "" {
			continue
		}
		docs.HTMLLinks(text, 0, bt.Links(from, dir, func(dest, why string) {
			warns = append(warns, fmt.Sprintf("%s: the link %q leads nowhere (%s): the page shows its text alone", file, dest, why))
		}))
	}
	return warns
}

// siteBuilt returns what the links of the pages' Markdown texts can lead
// to: the blocks built, their pages and the sections each shows, and the
// files of the sources tree published with the build.
func (bd *builder) siteBuilt() *site.Built {
	bt := &site.Built{Published: bd.sourcePublished, Exists: bd.sourceExists, NameOf: bd.nameOf}
	for _, o := range bd.blocks {
		bt.Blocks = append(bt.Blocks, site.BuiltBlock{ID: o.b.ID, Name: o.b.Meta.Name, Deps: o.b.Deps,
			Dir: path.Join(bblock.SourcesDir, o.b.Path), Page: o.page(),
			Sections: map[string]bool{"description": o.description != "", "examples": len(o.examples) > 0,
				"schema": o.schemaYAML != nil, "context": o.context != nil,
				"ontology": o.ontology != nil || o.ontologyNote != "", "report": true}})
	}
	return bt
}

// nameOf returns the name of a block the build did not build: an
// imported block, or a block of the register a filter left out.
func (bd *builder) nameOf(id string) string {
	if ib, ok := bd.reg.Imports.Block(id); ok {
		return ib.Name
	}
	if b := bd.reg.Block(id); b != nil {
		return b.Meta.Name
	}
	return ""
}

// blockTexts lists the Markdown texts of block o's page, each after the
// file it comes from.
func blockTexts(o *blockOut) []string {
	texts := []string{o.b.Files.Metadata, o.b.Meta.Abstract, o.b.Files.Description, o.description}
	if o.b.Meta.Abstract == "" {
		texts[1] = o.b.Meta.Description
	}
	for _, ex := range o.examples {
		texts = append(texts, o.b.Files.Examples, ex.Content)
	}
	return texts
}

// writePages writes index.html and a page per block.
func (bd *builder) writePages(res *Result) error {
	cfg := bd.reg.Config
	bt := bd.siteBuilt()
	res.Warnings = append(res.Warnings, linkWarnings(bt, "index.html", "", bblock.ConfigFile, cfg.Abstract, bblock.ConfigFile, cfg.Description)...)
	for i, o := range bd.blocks {
		for _, w := range linkWarnings(bt, o.page(), path.Join(bblock.SourcesDir, o.b.Path), blockTexts(o)...) {
			o.warnf("%s", w)
		}
		res.Blocks[i] = o.res
	}
	idx := site.Index{Name: cfg.Name, Abstract: cfg.Abstract, Description: cfg.Description, Date: bd.date,
		Errors: res.Errors, Warnings: res.Warnings, Links: bt.Links("index.html", "", func(string, string) {}),
		RegisterLink: bd.pageLink("index.html", "register.json")}
	if idx.Name == "" {
		idx.Name = "Building-block register"
	}
	for _, o := range bd.blocks {
		if o.res.Passed {
			idx.Passed++
		} else {
			idx.Failed++
		}
		idx.Rows = append(idx.Rows, site.IndexRow{Name: o.b.Meta.Name, ID: o.b.ID, Status: o.b.Meta.Status, Version: o.b.Meta.Version,
			Page: o.page(), Summary: summary(o.res), Passed: o.res.Passed, Deps: bt.Deps("index.html", o.b.Deps),
			Group: metaString(o.b.Meta, "group"), Highlighted: o.b.Meta.Highlighted, Tags: o.b.Meta.Tags})
	}
	idx.Graph = bt.Graph("index.html", "")
	var buf bytes.Buffer
	if err := site.WriteIndex(&buf, &idx); err != nil {
		return fmt.Errorf("index.html: %w", err)
	}
	bd.putRoot("index.html", append([]byte(nil), buf.Bytes()...))

	for _, o := range bd.blocks {
		from := o.page()
		m := o.b.Meta
		p := site.Block{Register: idx.Name, Name: m.Name, ID: o.b.ID, Abstract: m.Abstract, Status: m.Status,
			Version: m.Version, ItemClass: m.ItemClass, Added: m.DateTimeAddition, Changed: m.DateOfLastChange,
			Passed: o.res.Passed, Summary: summary(o.res),
			Date: bd.date, Deps: bt.Deps(from, o.b.Deps), Tags: m.Tags, Errors: o.res.Errors, Warnings: o.pageWarnings(),
			Description: o.description, Schema: o.schemaYAML, Context: o.context, Ontology: o.ontology,
			OntologyNote: o.ontologyNote, Graph: bt.Graph(from, o.b.ID),
			Links: bt.Links(from, path.Join(bblock.SourcesDir, o.b.Path), func(string, string) {})}
		if p.Abstract == "" {
			p.Abstract = m.Description
		}
		p.ReportLink = bd.pageLink(from, path.Join(o.tests, "_report.json"))
		for _, s := range m.Sources {
			p.Sources = append(p.Sources, site.Link{Name: s.Title, Link: docs.SafeURL(s.Link)})
		}
		if o.schemaYAML != nil {
			p.SchemaYAMLLink = bd.pageLink(from, path.Join(o.annotated, "schema.yaml"))
			p.SchemaJSONLink = bd.pageLink(from, path.Join(o.annotated, "schema.json"))
			p.Files = append(p.Files, site.Link{Name: "schema.yaml", Link: p.SchemaYAMLLink}, site.Link{Name: "schema.json", Link: p.SchemaJSONLink})
		}
		if o.context != nil {
			p.ContextLink = bd.pageLink(from, path.Join(o.annotated, "context.jsonld"))
			p.Files = append(p.Files, site.Link{Name: "context.jsonld", Link: p.ContextLink})
		}
		if o.ontology != nil {
			p.OntologyLink = bd.pageLink(from, path.Join(o.annotated, "ontology.ttl"))
			p.Files = append(p.Files, site.Link{Name: "ontology.ttl", Link: p.OntologyLink})
		}
		if p.ReportLink != "" {
			p.Files = append(p.Files, site.Link{Name: "_report.json", Link: p.ReportLink})
		}
		p.Files = append(p.Files,
			site.Link{Name: "index.md", Link: bd.pageLink(from, docs.MarkdownPath(o.b))},
			site.Link{Name: "index.json", Link: bd.pageLink(from, docs.JSONFullPath(o.b))},
			site.Link{Name: "register.json", Link: bd.pageLink(from, "register.json")})
		for i, ex := range o.examples {
			ep := site.Example{Index: i + 1, Title: ex.Title, Content: ex.Content}
			for _, it := range ex.Snippets {
				sp := site.Snippet{Index: it.SnippetIndex(), SchemaRef: it.SchemaRef, Passed: it.Passed(), Dropped: it.Dropped, Files: bd.snippetFiles(o, it, from)}
				for _, s := range it.sections() {
					for _, e := range s.Entries {
						if e.IsError || !it.Passed() {
							sp.Problems = append(sp.Problems, e)
						}
					}
				}
				ep.Snippets = append(ep.Snippets, sp)
			}
			p.Examples = append(p.Examples, ep)
		}
		for _, it := range o.testItems {
			if it.Dropped {
				continue
			}
			row := site.TestRow{File: it.File, Link: bd.testFileLink(o, from, it.File), RequireFail: it.RequireFail(),
				Passed: it.Passed(), Files: bd.snippetFiles(o, it, from)}
			for _, s := range it.sections() {
				if s.Name != report.Files.Name() {
					row.Entries = append(row.Entries, s.Entries...)
				}
			}
			p.Tests = append(p.Tests, row)
		}
		p.GlobalErrors = o.blockErrors
		for _, it := range o.items() {
			if it.Dropped {
				continue
			}
			p.Report = append(p.Report, site.ReportRow{Label: it.label(), File: it.File, Link: bd.testFileLink(o, from, it.File),
				Passed: it.Passed(), Sections: it.sections()})
		}
		buf.Reset()
		if err := site.WriteBlock(&buf, &p); err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
		bd.putRoot(from, append([]byte(nil), buf.Bytes()...))
	}
	return nil
}

// metaString returns the string member key of a block's bblock.json, or ""
// when it is absent or not a string.
func metaString(m *bblock.Metadata, key string) string {
	for _, f := range m.Fields {
		if f.Key == key {
			var s string
			if json.Unmarshal(f.Value, &s) == nil {
				return s
			}
		}
	}
	return ""
}
