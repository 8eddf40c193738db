// Package site renders jrpcld's own static pages of a built register:
// index.html and a page per building block, plain HTML with one inline
// style sheet and nothing loaded from elsewhere, so that the pages work
// from a folder, offline. The dependency graphs are SVG drawn here; the
// index's filter box is the one script, a few lines inline, and the page
// reads the same without it. The register package fills the pages' data
// and says what the build published (Built); this package orders the
// blocks as the OGC viewer lists them, leads the links of the register's
// Markdown where their authors mean them to, and writes the pages.
package site

import (
	"bytes"
	"html/template"
	"io"
	"slices"
	"strings"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/report"
)

// The site is plain HTML with one inline style sheet and one inline
// script: no font, nothing loaded from anywhere else.
const style = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #fff; }
main { max-width: 1280px; margin: 0 auto; padding: 1.5rem 2rem 4rem; }
header.top { background: #24425e; color: #fff; padding: 0.6rem 2rem; }
header.top a { color: #fff; }
h1 { font-size: 1.9rem; margin: 0.6rem 0 0.2rem; }
h2 { font-size: 1.35rem; margin: 2.2rem 0 0.6rem; padding-bottom: 0.2rem; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 1.1rem; margin: 1.6rem 0 0.4rem; }
h4, h5, h6 { font-size: 1rem; margin: 1rem 0 0.3rem; }
a { color: #0b5cad; }
code, pre { font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; }
:not(pre) > code { background: #eff1f3; padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: #f6f8fa; border: 1px solid #d8dee4; border-radius: 6px; padding: 0.6rem 0.8rem; overflow: auto; max-height: 36em; margin: 0.3rem 0 0.8rem; white-space: pre; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 0.35rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f3f5f7; }
.id { color: #57606a; font-family: ui-monospace, Menlo, Consolas, monospace; }
.lead { font-size: 1.05rem; color: #333; max-width: 60em; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1.2rem; margin: 1rem 0; }
.meta dt { font-weight: 600; color: #444; }
.meta dd { margin: 0; }
.pass, .fail, .warn { font-weight: 700; border-radius: 4px; padding: 0.05em 0.45em; white-space: nowrap; }
.pass { color: #116329; background: #dafbe1; }
.fail { color: #a40e26; background: #ffebe9; }
.warn { color: #7d4e00; background: #fff8c5; }
ul.problems { padding-left: 1.2rem; }
ul.problems li { margin: 0.2rem 0; }
.example { border: 1px solid #d0d7de; border-radius: 8px; padding: 0.2rem 1rem 0.6rem; margin: 1rem 0; }
.snippet-head { margin: 0.8rem 0 0.3rem; }
.snippets { display: flex; flex-wrap: wrap; gap: 0.8rem; }
.snippets figure { margin: 0; min-width: 0; flex: 1 1 22rem; }
.snippets figcaption { font-weight: 600; font-size: 0.9rem; color: #444; }
.snippets pre { max-height: 28em; white-space: pre-wrap; overflow-wrap: anywhere; }
details > summary { cursor: pointer; color: #0b5cad; margin: 0.3rem 0; }
.entries { margin: 0; padding-left: 1.1rem; }
.entries li.error { color: #a40e26; }
.md table { width: auto; min-width: 20em; }
footer { color: #57606a; font-size: 0.85rem; margin-top: 3rem; }
.snippets figure.wide { flex-basis: 100%; }
.snippets figure.wide pre { white-space: pre; overflow-wrap: normal; }
.filter { display: flex; gap: 0.8rem; align-items: baseline; margin: 0.6rem 0; }
.filter input { font: inherit; padding: 0.3rem 0.5rem; width: min(28rem, 100%); border: 1px solid #8c959f; border-radius: 6px; }
.filter output { color: #57606a; }
tr.group th { background: #24425e; color: #fff; text-transform: uppercase; letter-spacing: 0.03em; font-size: 0.85rem; }
tr.highlighted td:first-child { border-left: 4px solid #d4a72c; }
.graph-box { overflow: auto; max-height: 44em; border: 1px solid #d0d7de; border-radius: 6px; padding: 0.4rem; margin: 0.5rem 0 1rem; }
svg.graph text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: #1f2328; }
svg.graph .node rect { fill: #f6f8fa; stroke: #8c959f; }
svg.graph a .node rect { fill: #eef5ff; stroke: #0b5cad; }
svg.graph a:hover .node rect, svg.graph a:focus .node rect { fill: #d6e7ff; }
svg.graph .node.current rect { fill: #24425e; stroke: #24425e; }
svg.graph .node.current text { fill: #fff; font-weight: 600; }
svg.graph .node.outside rect { fill: #fff; stroke-dasharray: 4 3; }
`

// filterScript hides the rows of the index that do not hold what the
// filter box holds (in a block's name, identifier or tags, in any case),
// and the heading of a group left empty; "#q=TEXT" in the address fills
// the box. Without script the box does nothing and every row shows.
const filterScript = `(function () {
  var box = document.getElementById("filter");
  if (!box) { return; }
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-search]"));
  var heads = Array.prototype.slice.call(document.querySelectorAll("tr.group"));
  var shown = document.getElementById("shown");
  function apply() {
    var f = box.value.trim().toLowerCase(), n = 0;
    rows.forEach(function (r) {
      var ok = f === "" || r.getAttribute("data-search").indexOf(f) >= 0;
      r.hidden = !ok;
      if (ok) { n++; }
    });
    heads.forEach(function (h) {
      var any = false;
      for (var r = h.nextElementSibling; r && !r.classList.contains("group"); r = r.nextElementSibling) {
        if (!r.hidden) { any = true; break; }
      }
      h.hidden = !any;
    });
    shown.textContent = f === "" ? "" : n + " of " + rows.length + " shown";
  }
  box.addEventListener("input", apply);
  if (location.hash.indexOf("#q=") === 0) { box.value = decodeURIComponent(location.hash.slice(3)); }
  box.hidden = false;
  apply();
})();`

var funcs = template.FuncMap{
	"lines": func(b []byte) int { return bytes.Count(b, []byte("\n")) },
	"text":  func(b []byte) string { return string(b) },
	"graph": graphSVG,
	"connected": func(nodes []GraphNode) struct {
		Nodes []GraphNode
		Left  int
	} {
		c, left := Connected(nodes)
		return struct {
			Nodes []GraphNode
			Left  int
		}{c, left}
	},
	"script": func() template.JS {
		return template.JS(filterScript) // a constant of this package
	},
}

var templates = template.Must(template.New("page").Funcs(funcs).Parse(`
{{- define "head" -}}
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}}</title>
<style>` + style + `</style>
</head>
{{- end -}}

{{- define "verdict" -}}
{{if .}}<span class="pass">passed</span>{{else}}<span class="fail">FAILED</span>{{end}}
{{- end -}}

{{- define "index" -}}
{{template "head" .Name}}
<body>
<header class="top">Building-block register</header>
<main>
<h1>{{.Name}}</h1>
{{if .Abstract}}<div class="lead">{{.Markdown .Abstract 1}}</div>{{end}}
{{if .Description}}{{.Markdown .Description 1}}{{end}}
<p>{{len .Rows}} building block{{if ne (len .Rows) 1}}s{{end}}:
<span class="pass">{{.Passed}} passed</span>{{if .Failed}} <span class="fail">{{.Failed}} failed</span>{{end}}.
{{if .Date}}Dated {{.Date}}.{{end}}
Files: <a href="{{.RegisterLink}}">register.json</a>.</p>
{{if .Errors}}<h2>Register errors</h2><ul class="problems">{{range .Errors}}<li><span class="fail">error</span> {{.}}</li>{{end}}</ul>{{end}}
{{if .Warnings}}<h2>Register warnings</h2><ul class="problems">{{range .Warnings}}<li><span class="warn">warning</span> {{.}}</li>{{end}}</ul>{{end}}
<h2 id="blocks">Building blocks</h2>
<div class="filter"><input type="search" id="filter" hidden placeholder="Filter by name, identifier or tag" aria-label="Filter the building blocks by name, identifier or tag"><output id="shown" for="filter"></output></div>
<table>
<thead><tr><th>Name</th><th>Identifier</th><th>Status</th><th>Version</th><th>Depends on</th><th>Validation</th></tr></thead>
<tbody>
{{$grouped := gt (len .Groups) 1}}{{range .Groups}}{{if $grouped}}<tr class="group"><th colspan="6">{{.Label}}</th></tr>
{{end}}{{range .Rows}}<tr data-search="{{.Search}}"{{if .Highlighted}} class="highlighted"{{end}}>
<td><a href="{{.Page}}">{{.Name}}</a></td>
<td class="id">{{.ID}}</td>
<td>{{.Status}}</td>
<td>{{.Version}}</td>
<td>{{range $i, $d := .Deps}}{{if $i}}, {{end}}{{if $d.Page}}<a href="{{$d.Page}}">{{$d.ID}}</a>{{else}}<span class="id">{{$d.ID}}</span>{{end}}{{else}}—{{end}}</td>
<td>{{template "verdict" .Passed}} {{.Summary}}</td>
</tr>
{{end}}{{end}}</tbody>
</table>
{{$g := connected .Graph}}{{with graph $g.Nodes "Dependency graph of the register's building blocks"}}<h2 id="graph">Dependency graph</h2>
<p>Each block points at the blocks it depends on; a dashed box is a block the register did not build (an import).{{if $g.Left}}
{{$g.Left}} block{{if ne $g.Left 1}}s{{end}} that neither depend{{if eq $g.Left 1}}s{{end}} on another nor {{if eq $g.Left 1}}is{{else}}are{{end}} depended on {{if eq $g.Left 1}}is{{else}}are{{end}} left out.{{end}}</p>
<div class="graph-box">{{.}}</div>{{end}}
<footer>Built by jrpcld, offline.</footer>
</main>
<script>{{script}}</script>
</body>
</html>
{{end -}}

{{- define "file" -}}
{{if .Link}}<a href="{{.Link}}">{{.File}}</a>{{else}}{{.File}}{{end}}
{{- end -}}

{{- define "snippet" -}}
<figure{{if eq .Caption "Turtle"}} class="wide"{{end}}><figcaption>{{.Caption}} — {{template "file" .}}</figcaption><pre><code>{{.Code}}</code></pre></figure>
{{- end -}}

{{- define "entries" -}}
<ul class="entries">{{range .}}<li{{if .IsError}} class="error"{{end}}>{{if .IsError}}<strong>error:</strong> {{end}}{{.Message}}</li>{{end}}</ul>
{{- end -}}

{{- define "block" -}}
{{template "head" (print .Name " — " .ID)}}
<body>
<header class="top"><a href="../index.html">{{.Register}}</a> › {{.Name}}</header>
<main>
<h1>{{.Name}}</h1>
<div class="id">{{.ID}}</div>
{{if .Abstract}}<div class="lead">{{.Markdown .Abstract 1}}</div>{{end}}
<dl class="meta">
<dt>Validation</dt><dd>{{template "verdict" .Passed}} {{.Summary}}{{if .ReportLink}} (<a href="{{.ReportLink}}">_report.json</a>){{end}}</dd>
<dt>Status</dt><dd>{{.Status}}</dd>
<dt>Version</dt><dd>{{.Version}}</dd>
<dt>Item class</dt><dd>{{.ItemClass}}</dd>
{{if .Added}}<dt>Added</dt><dd>{{.Added}}</dd>{{end}}
{{if .Changed}}<dt>Last change</dt><dd>{{.Changed}}</dd>{{end}}
<dt>Depends on</dt><dd>{{range $i, $d := .Deps}}{{if $i}}, {{end}}{{if $d.Page}}<a href="{{$d.Page}}">{{$d.ID}}</a>{{else}}<span class="id">{{$d.ID}}</span>{{end}}{{else}}—{{end}}</dd>
{{if .Tags}}<dt>Tags</dt><dd>{{range $i, $t := .Tags}}{{if $i}}, {{end}}{{$t}}{{end}}</dd>{{end}}
{{if .Sources}}<dt>Sources</dt><dd>{{range $i, $s := .Sources}}{{if $i}}<br>{{end}}{{if $s.Link}}<a href="{{$s.Link}}">{{$s.Name}}</a>{{else}}{{$s.Name}}{{end}}{{end}}</dd>{{end}}
<dt>Files</dt><dd>{{range $i, $f := .Files}}{{if $i}} · {{end}}<a href="{{$f.Link}}">{{$f.Name}}</a>{{end}}</dd>
</dl>
{{with graph .Graph (print "Dependencies of " .ID)}}<h2 id="dependencies">Dependencies</h2>
<p>What {{$.Name}} depends on, and the blocks that depend on it; each block points at the blocks it depends on.</p>
<div class="graph-box">{{.}}</div>{{end}}
{{if .Errors}}<h2 id="errors">Errors</h2><ul class="problems">{{range .Errors}}<li><span class="fail">error</span> {{.}}</li>{{end}}</ul>{{end}}
{{if .Warnings}}<h2 id="warnings">Warnings</h2><ul class="problems">{{range .Warnings}}<li><span class="warn">warning</span> {{.}}</li>{{end}}</ul>{{end}}
{{if .Description}}<h2 id="description">Description</h2>
<div class="md">{{.Markdown .Description 2}}</div>{{end}}
{{if .Examples}}<h2 id="examples">Examples</h2>
{{range .Examples}}<section class="example" id="example-{{.Index}}">
<h3>{{.Index}}. {{.Title}}</h3>
{{if .Content}}{{$.Markdown .Content 3}}{{end}}
{{range .Snippets}}<div class="snippet-head">Snippet {{.Index}}{{if .SchemaRef}}, checked against <code>{{.SchemaRef}}</code>{{end}}: {{if .Dropped}}not checked{{else}}{{template "verdict" .Passed}}{{end}}</div>
<div class="snippets">{{range .Files}}{{template "snippet" .}}{{end}}</div>
{{if .Problems}}{{template "entries" .Problems}}{{end}}
{{end}}</section>
{{end}}{{end}}
{{if .Tests}}<h2 id="tests">Tests</h2>
<table>
<thead><tr><th>Resource</th><th>Must</th><th>Result</th><th>Findings</th></tr></thead>
<tbody>
{{range .Tests}}<tr>
<td>{{template "file" .}}</td>
<td>{{if .RequireFail}}fail validation{{else}}pass validation{{end}}</td>
<td>{{template "verdict" .Passed}}</td>
<td>{{template "entries" .Entries}}</td>
</tr>
{{end}}</tbody>
</table>
{{range .Tests}}{{if .Files}}<details><summary>{{.File}}: content and outputs</summary>
<div class="snippets">{{range .Files}}{{template "snippet" .}}{{end}}</div></details>{{end}}{{end}}
{{end}}
{{if .Schema}}<h2 id="schema">Schema</h2>
<p>The annotated schema: <a href="{{.SchemaYAMLLink}}">schema.yaml</a> · <a href="{{.SchemaJSONLink}}">schema.json</a></p>
<details><summary>schema.yaml ({{lines .Schema}} lines)</summary><pre><code>{{text .Schema}}</code></pre></details>{{end}}
{{if .Context}}<h2 id="context">JSON-LD context</h2>
<p>The context built from the annotated schema: <a href="{{.ContextLink}}">context.jsonld</a></p>
<details><summary>context.jsonld ({{lines .Context}} lines)</summary><pre><code>{{text .Context}}</code></pre></details>{{end}}
{{if or .Ontology .OntologyNote}}<h2 id="ontology">Ontology</h2>
{{if .Ontology}}<p><a href="{{.OntologyLink}}">ontology.ttl</a></p>
<details><summary>ontology.ttl ({{lines .Ontology}} lines)</summary><pre><code>{{text .Ontology}}</code></pre></details>{{else}}<p>{{.OntologyNote}}</p>{{end}}{{end}}
<h2 id="report">Validation report</h2>
<p>{{template "verdict" .Passed}} {{.Summary}}.{{if .ReportLink}} Full report: <a href="{{.ReportLink}}">_report.json</a>.{{end}}</p>
{{if .GlobalErrors}}{{template "entries" .GlobalErrors}}{{end}}
<table>
<thead><tr><th>Resource</th><th>Result</th><th>Entries</th></tr></thead>
<tbody>
{{range .Report}}<tr>
<td>{{.Label}}<br>{{template "file" .}}</td>
<td>{{template "verdict" .Passed}}</td>
<td>{{range .Sections}}<strong>{{.Title}}</strong>{{template "entries" .Entries}}{{end}}</td>
</tr>
{{end}}</tbody>
</table>
<footer>Built by jrpcld, offline{{if .Date}}, for {{.Date}}{{end}}.</footer>
</main>
</body>
</html>
{{end -}}
`))

// Index is the data of index.html: the register and a row per block.
type Index struct {
	// Links decides where the links of the register's abstract and
	// description lead; nil keeps them as written.
	Links                             docs.LinkFunc
	Name, Abstract, Description, Date string
	// RegisterLink is the relative link to register.json.
	RegisterLink     string
	Passed, Failed   int
	Errors, Warnings []string
	Rows             []IndexRow
	// Graph is the register's dependency graph: its blocks, with links
	// from index.html.
	Graph []GraphNode
}

// IndexRow is a block's row of the index.
type IndexRow struct {
	Name, ID, Status, Version, Page, Summary string
	Passed                                   bool
	Deps                                     []Dep
	// Group is bblock.json's group, Highlighted its highlighted; Tags its
	// tags, which the filter box finds.
	Group       string
	Highlighted bool
	Tags        []string
}

// Search is what the filter box looks in: the row's name, identifier and
// tags, in lower case.
func (r IndexRow) Search() string {
	return strings.ToLower(strings.Join(append([]string{r.Name, r.ID}, r.Tags...), " "))
}

// RowGroup is the rows of one group of blocks, as the index lists them.
type RowGroup struct {
	Label string
	Rows  []IndexRow
}

// OtherGroup labels the blocks that name no group, as the OGC viewer does.
const OtherGroup = "Other"

// Groups returns the rows as the OGC viewer (bblocks-viewer) lists the
// blocks in its navigation: by name as a browser's localeCompare orders
// them (the Unicode collation, "10 - RDF" after "01 - Schema (completed)"),
// then the identifier; in groups by bblock.json's group, named groups in
// the same order and the blocks that name none last, under "Other"; in
// each group the highlighted blocks first.
func (p *Index) Groups() []RowGroup {
	col := collate.New(language.Und)
	rows := slices.Clone(p.Rows)
	slices.SortStableFunc(rows, func(a, b IndexRow) int {
		if c := col.CompareString(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(strings.ToLower(a.ID), strings.ToLower(b.ID))
	})
	var groups []RowGroup
	at := map[string]int{}
	for _, r := range rows {
		label := r.Group
		if label == "" {
			label = OtherGroup
		}
		i, ok := at[label]
		if !ok {
			i = len(groups)
			at[label] = i
			groups = append(groups, RowGroup{Label: label})
		}
		groups[i].Rows = append(groups[i].Rows, r)
	}
	slices.SortStableFunc(groups, func(a, b RowGroup) int {
		switch {
		case a.Label == b.Label:
			return 0
		case a.Label == OtherGroup:
			return 1
		case b.Label == OtherGroup:
			return -1
		}
		return col.CompareString(a.Label, b.Label)
	})
	for i := range groups {
		slices.SortStableFunc(groups[i].Rows, func(a, b IndexRow) int {
			switch {
			case a.Highlighted == b.Highlighted:
				return 0
			case a.Highlighted:
				return -1
			}
			return 1
		})
	}
	return groups
}

// Dep is a block another depends on, with the link to its page when the
// register built it.
type Dep struct{ ID, Page string }

// Link is a named link.
type Link struct{ Name, Link string }

// markdown renders Markdown with links, as docs.HTMLLinks does: every
// character it is given is escaped.
func markdown(s string, shift int, links docs.LinkFunc) template.HTML {
	return template.HTML(docs.HTMLLinks(s, shift, links))
}

// Markdown renders the Markdown s of the index (its headings shift levels
// down), its links led by Links.
func (p *Index) Markdown(s string, shift int) template.HTML { return markdown(s, shift, p.Links) }

// Markdown renders the Markdown s of a block's page (its headings shift
// levels down), its links led by Links.
func (p *Block) Markdown(s string, shift int) template.HTML { return markdown(s, shift, p.Links) }

// Block is the data of a block's page.
type Block struct {
	// Links decides where the links of the block's abstract, description
	// and examples lead; nil keeps them as written.
	Links                                                                    docs.LinkFunc
	Register, Name, ID, Abstract, Status, Version, ItemClass, Added, Changed string
	Passed                                                                   bool
	Summary, ReportLink, Date                                                string
	Deps                                                                     []Dep
	Tags                                                                     []string
	Sources                                                                  []Link
	Files                                                                    []Link
	Errors, Warnings                                                         []string
	Description                                                              string
	Examples                                                                 []Example
	Tests                                                                    []TestRow
	Schema, Context, Ontology                                                []byte
	SchemaYAMLLink, SchemaJSONLink, ContextLink, OntologyLink, OntologyNote  string
	GlobalErrors                                                             []report.Entry
	Report                                                                   []ReportRow
	// Graph is the block's neighbourhood: the block (Current), what it
	// depends on, near and far, and the blocks that depend on it, with
	// links from the block's page.
	Graph []GraphNode
}

// Example is one example of a block's page, with its snippets.
type Example struct {
	Index          int
	Title, Content string
	Snippets       []Snippet
}

// Snippet is a checked example snippet: its verdict, files and problems.
type Snippet struct {
	Index     int
	SchemaRef string
	Passed    bool
	Dropped   bool // no step of the tool chain checks it
	Files     []File
	Problems  []report.Entry
}

// File is one file a snippet or test resource gave: its content shown
// under a caption, with a link to it ("" when it is not published).
type File struct{ Caption, File, Link, Code string }

// TestRow is a test resource's row of a block's page.
type TestRow struct {
	File, Link          string
	RequireFail, Passed bool
	Entries             []report.Entry
	Files               []File
}

// ReportRow is a checked resource's row of the validation report.
type ReportRow struct {
	Label, File, Link string
	Passed            bool
	Sections          []Section
}

// Section is a section of a resource's report with its entries.
type Section struct {
	Name, Title string
	Entries     []report.Entry
}

// WriteIndex writes index.html.
func WriteIndex(w io.Writer, p *Index) error {
	return templates.ExecuteTemplate(w, "index", p)
}

// WriteBlock writes a block's page.
func WriteBlock(w io.Writer, p *Block) error {
	return templates.ExecuteTemplate(w, "block", p)
}
