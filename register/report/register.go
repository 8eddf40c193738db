package report

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Register is the register-wide validation report: the reports of its
// blocks, in build order, as tests/report.json and tests/report.html hold
// them.
type Register struct {
	// Generated is the time of the build, as in the blocks' reports.
	Generated string
	// Dir is the folder of report.html from the root of the published
	// repository ("build/tests"): its links to the resources are relative
	// to it.
	Dir    string
	Blocks []*Block
}

// Counts returns the number of blocks, of those whose every item passes,
// and of the others.
func (r *Register) Counts() (total, passed, failed int) {
	for _, b := range r.Blocks {
		if !b.Result() {
			failed++
		}
	}
	return len(r.Blocks), len(r.Blocks) - failed, failed
}

// JSON returns tests/report.json: a summary of the blocks' results and each
// block's report by its id.
func (r *Register) JSON() ([]byte, error) {
	total, passed, failed := r.Counts()
	blocks := make(ojson.Members, 0, len(r.Blocks))
	for _, b := range r.Blocks {
		blocks = append(blocks, ojson.M(b.ID, b))
	}
	return indent(ojson.Members{
		ojson.M("summary", ojson.Members{ojson.M("total", total), ojson.M("passed", passed), ojson.M("failed", failed), ojson.M("result", failed == 0)}),
		ojson.M("bblocks", blocks),
	})
}

// htmlData is what the page template reads.
type htmlData struct {
	Generated              string
	Total, Passed, Percent string
	AllPassed              bool
	Blocks                 []htmlBlock
}

type htmlBlock struct {
	ID, Name      string
	Result        bool
	Total, Passed int
	Percent       string
	Global        []htmlEntry
	Items         []htmlItem
}

type htmlItem struct {
	Anchor, Href, File, Type string
	RequireFail, Result      bool
	Sections                 []htmlSection
}

type htmlSection struct {
	Name, Title string
	Entries     []htmlEntry
}

type htmlEntry struct {
	Section, Message string
	IsError          bool
}

// percent formats a share as the tool chain does: two decimals at most,
// trailing zeros dropped ("94.44", "100").
func percent(n, total int) string {
	if total == 0 {
		return "100"
	}
	s := strconv.FormatFloat(float64(n)*100/float64(total), 'f', 2, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// WriteHTML writes tests/report.html: for each block its result and, for
// each checked resource, a link to it, its result and its entries. The page
// is self-contained: no script, nothing loaded from elsewhere.
func (r *Register) WriteHTML(w io.Writer) error {
	total, passed, _ := r.Counts()
	d := htmlData{Generated: r.Generated, Total: strconv.Itoa(total), Passed: strconv.Itoa(passed),
		Percent: percent(passed, total), AllPassed: passed == total}
	for _, b := range r.Blocks {
		t, p, _ := b.Counts()
		hb := htmlBlock{ID: b.ID, Name: b.Name, Result: b.Result(), Total: t, Passed: p, Percent: percent(p, t)}
		seen := map[Section]bool{}
		for i, it := range b.Items {
			hi := htmlItem{Anchor: fmt.Sprintf("item-%s-%d", b.ID, i+1), Href: r.rel(it.Source.Filename),
				File: path.Base(it.Source.Filename), Type: it.Source.Type.String(),
				RequireFail: it.Source.RequireFail, Result: !it.Failed()}
			hi.Type = strings.ReplaceAll(strings.ToLower(hi.Type), "_", " ")
			hi.Type = strings.ToUpper(hi.Type[:1]) + hi.Type[1:]
			for s := range numSections {
				var hs htmlSection
				for _, e := range it.Entries(s) {
					if e.Global {
						if e.IsError && !seen[s] {
							seen[s] = true
							hb.Global = append(hb.Global, htmlEntry{strings.ToLower(s.Name()), e.Message, true})
						}
						continue
					}
					hs.Entries = append(hs.Entries, htmlEntry{strings.ToLower(s.Name()), e.Message, e.IsError})
				}
				if hs.Entries != nil {
					hs.Name, hs.Title = strings.ToLower(s.Name()), s.Title()
					hi.Sections = append(hi.Sections, hs)
				}
			}
			hb.Items = append(hb.Items, hi)
		}
		d.Blocks = append(d.Blocks, hb)
	}
	return reportPage.Execute(w, d)
}

// rel returns the link to the file p (from the root of the published
// repository) from the folder of report.html.
func (r *Register) rel(p string) string {
	from := strings.Split(strings.Trim(r.Dir, "/"), "/")
	if r.Dir == "" || r.Dir == "." {
		from = nil
	}
	to := strings.Split(p, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	return escapePath(strings.Repeat("../", len(from)-i) + strings.Join(to[i:], "/"))
}

var reportPage = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Building Blocks validation report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
.bblock-report { border: 1px solid #ccc; border-radius: 4px; margin: .5em 0; }
.bblock-report > summary { padding: .6em; cursor: pointer; }
.bblock-body { padding: 0 1em 1em; }
.validation-item { border: 1px solid #ddd; border-radius: 4px; margin: .5em 0; padding: .5em; }
.badge { display: inline-block; padding: .1em .5em; border-radius: 3px; font-size: 80%; color: #fff; background: #6c757d; }
.passed { background: #198754; } .failed { background: #dc3545; } .require-fail-badge { background: #0dcaf0; color: #000; }
.entry-message { white-space: pre-wrap; font-family: monospace; font-size: 80%; line-height: 1.2; margin: .2em 0; }
.subsection-title { font-family: monospace; margin-top: .5em; font-weight: 600; }
.text-danger { color: #b02a37; } .text-success { color: #146c43; }
.bblock-id { color: #666; margin-left: .5em; }
</style>
</head>
<body>
<h1 class="title">Building blocks validation report</h1>
<small class="datetime">Generated at {{.Generated}}</small>
{{if .Blocks}}<p class="summary {{if .AllPassed}}text-success{{else}}text-danger{{end}}">Number of passing building blocks: {{.Passed}} / {{.Total}} ({{.Percent}}%)</p>
<div id="bblock-reports">
{{range .Blocks}}<details class="bblock-report" data-bblock-id="{{.ID}}" id="bblock-{{.ID}}"{{if not .Result}} open{{end}}>
<summary class="bblock-title">{{.Name}} <small class="bblock-id">{{.ID}}</small>
<span class="badge {{if .Result}}passed{{else}}failed{{end}}">{{if .Result}}Passed{{else}}Tests Failed{{end}} ({{.Percent}}%{{if .Total}} passed{{end}})</span></summary>
<div class="bblock-body">
{{if .Total}}<p class="summary {{if eq .Passed .Total}}text-success{{else}}text-danger{{end}}">Test passed: {{.Passed}} / {{.Total}}</p>
{{end}}{{if .Global}}<div class="global-validation-item"><p>Building block global validation errors <span class="badge failed">Failed</span></p>
{{range .Global}}<div class="entry-message text-danger section-{{.Section}}">{{.Message}}</div>
{{end}}</div>
{{end}}{{range .Items}}<div class="validation-item{{if .RequireFail}} require-fail{{end}}" id="{{.Anchor}}">
<a href="{{.Href}}">{{.File}}</a> <span class="badge">{{.Type}}</span>{{if .RequireFail}} <span class="badge require-fail-badge">Requires fail</span>{{end}}
<span class="badge {{if .Result}}passed">Passed{{else}}failed">Failed{{end}}</span>
<details><summary>Details</summary>
{{range .Sections}}<div class="subsection-title">{{.Title}}</div>
{{range .Entries}}<div class="entry-message section-{{.Section}}{{if .IsError}} text-danger{{end}}">{{.Message}}</div>
{{end}}{{end}}</details>
</div>
{{end}}{{if and (not .Items) (not .Global)}}<p class="no-tests">No tests were found for this building block.</p>
{{end}}</div>
</details>
{{end}}</div>
{{else}}<p>No building blocks tests were found.</p>
{{end}}</body>
</html>
`))

var (
	pageBlockRE = regexp.MustCompile(`data-bblock-id="([^"]*)"`)
	pageItemRE  = regexp.MustCompile(`class="([^"]*\bvalidation-item\b[^"]*)"`)
	pageHrefRE  = regexp.MustCompile(`<a href="([^"]*)"`)
	pageVerdict = regexp.MustCompile(`>(Passed|Failed)</span>`)
)

// HTMLResults reads back what a register's report.html shows, the tool
// chain's or one WriteHTML wrote: for each block by id, each checked
// resource in order as its link (relative to the page), " passed" or
// " failed".
func HTMLResults(page []byte) map[string][]string {
	out := map[string][]string{}
	blocks := pageBlockRE.FindAllSubmatchIndex(page, -1)
	for i, m := range blocks {
		end := len(page)
		if i+1 < len(blocks) {
			end = blocks[i+1][0]
		}
		id := html.UnescapeString(string(page[m[2]:m[3]]))
		body := page[m[1]:end]
		res := []string{}
		items := pageItemRE.FindAllSubmatchIndex(body, -1)
		for j, it := range items {
			if strings.Contains(string(body[it[2]:it[3]]), "global-validation-item") {
				continue
			}
			iend := len(body)
			if j+1 < len(items) {
				iend = items[j+1][0]
			}
			chunk := body[it[1]:iend]
			href, verdict := "", ""
			if h := pageHrefRE.FindSubmatch(chunk); h != nil {
				href = html.UnescapeString(string(h[1]))
			}
			if v := pageVerdict.FindSubmatch(chunk); v != nil {
				verdict = strings.ToLower(string(v[1]))
			}
			res = append(res, href+" "+verdict)
		}
		out[id] = res
	}
	return out
}
