package stats

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteHTML writes the report as one self-contained page: inline CSS and
// SVG, no script, nothing fetched. It holds a summary, the problems of
// each log (those kept as Problems), a chart of latency per method, a
// chart of error responses per method and code, and for each log a
// timeline of its first messages (those kept as Events) drawn as a
// sequence diagram between client and server. The page fits the width of
// its window: the charts scale down, wide tables and the timelines scroll
// in boxes of their own.
func (r *Report) WriteHTML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>jrpcld stats</title>
<style>
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222; margin: 24px auto; max-width: 1120px; padding: 0 16px; line-height: 1.4; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; overflow-wrap: anywhere; }
p.note { color: #666; font-size: 13px; margin: 4px 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 6px; border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; font-weight: 600; white-space: normal; vertical-align: bottom; }
td.name { white-space: normal; word-break: break-all; text-align: left; min-width: 140px; }
.wide { overflow-x: auto; max-width: 100%%; }
svg.chart { max-width: 100%%; height: auto; }
table.problems td { vertical-align: top; }
table.problems td.text { white-space: normal; overflow-wrap: anywhere; text-align: left; min-width: 220px; }
table.problems td.at { white-space: normal; overflow-wrap: anywhere; text-align: left; }
tr.error td.sev { color: #b00; }
tr.warning td.sev { color: #a60; }
th:first-child, td:first-child { text-align: left; }
tr.total td { font-weight: 600; border-top: 1px solid #999; }
svg { display: block; }
svg text { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; font-size: 12px; fill: #222; }
svg text.small { font-size: 11px; fill: #555; }
.timeline { overflow: auto; max-height: 640px; border: 1px solid #ccc; background: #fff; }
.legend span { display: inline-block; margin-right: 14px; font-size: 12px; }
.legend i { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
</style>
</head>
<body>
<h1>jrpcld stats</h1>
`)
	names := make([]string, len(r.Logs))
	for i, l := range r.Logs {
		names[i] = logName(l)
	}
	p("<p class=\"note\">%s: %s</p>\n", plural(len(r.Logs), "log"), esc(strings.Join(names, ", ")))

	r.htmlSummary(p)
	problemsSection(p, r.Logs)
	p("<h2>Latency per method</h2>\n")
	latencyChart(p, r.Total)
	p("<h2>Errors per method and code</h2>\n")
	errorChart(p, r.Total)
	if len(r.Total.Tools) > 0 {
		p("<h3>MCP tools</h3>\n<div class=\"wide\"><table>\n<tr><th>tool</th><th>calls</th><th>isError results</th></tr>\n")
		for _, name := range slices.Sorted(maps.Keys(r.Total.Tools)) {
			t := r.Total.Tools[name]
			p("<tr><td class=\"name\">%s</td><td>%d</td><td>%d</td></tr>\n", esc(name), t.Calls, t.IsError)
		}
		p("</table></div>\n")
	}
	p("<h2>Timeline</h2>\n")
	p(`<p class="legend"><span><i style="background:%s"></i>request</span><span><i style="background:%s"></i>notification</span>`+
		`<span><i style="background:%s"></i>response</span><span><i style="background:%s"></i>error response</span>`+
		`<span><i style="background:%s"></i>batch or invalid</span></p>`+"\n",
		colour("request"), colour("notification"), colour("response"), colour("error-response"), colour("batch"))
	for _, l := range r.Logs {
		timeline(p, l)
	}
	p("</body>\n</html>\n")
	return bw.Flush()
}

func logName(l *LogStats) string {
	if l.Log != "" {
		return l.File + " (" + l.Log + ")"
	}
	return l.File
}

func esc(s string) string { return html.EscapeString(s) }

type printer func(format string, args ...any)

func (r *Report) htmlSummary(p printer) {
	p("<h2>Summary</h2>\n<div class=\"wide\"><table>\n<tr><th>log</th><th>messages</th><th>requests</th><th>notifications</th>" +
		"<th>responses</th><th>error responses</th><th>batches</th><th>invalid</th><th>answered</th>" +
		"<th>unanswered</th><th>reused open ids</th><th>orphan responses</th><th>warnings</th></tr>\n")
	row := func(class, name string, s *Stats) {
		sum := func(m map[string]int) int {
			n := 0
			for _, v := range m {
				n += v
			}
			return n
		}
		var pr Pairing
		for _, x := range s.Pairing {
			pr.Answered += x.Answered
			pr.Unanswered += x.Unanswered
			pr.ReusedIDs += x.ReusedIDs
			pr.OrphanResponses += x.OrphanResponses
		}
		p("<tr%s><td class=\"name\">%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
			class, esc(name), s.Messages, sum(s.Kinds["request"]), sum(s.Kinds["notification"]), sum(s.Kinds["response"]),
			sum(s.Kinds["error-response"]), sum(s.Kinds["batch"]), s.Validation.Invalid, pr.Answered, pr.Unanswered,
			pr.ReusedIDs, pr.OrphanResponses, s.Validation.Warnings)
	}
	for _, l := range r.Logs {
		row("", logName(l), l.Stats)
	}
	if len(r.Logs) > 1 {
		row(` class="total"`, "total", r.Total)
	}
	p("</table></div>\n")
	by := "the JSON-RPC 2.0 rules"
	if r.Total.Validation.Schema != "" {
		by += " and schema " + r.Total.Validation.Schema
	}
	p("<p class=\"note\">Messages are the records of each log (a batch is one); requests and notifications in batches count under their method below. Checked with %s.</p>\n", esc(by))
}

// latencyChart draws, for each timed method, a bar to p50, p90 and p99 on
// a logarithmic axis with a tick at max, and the figures as text.
func latencyChart(p printer, s *Stats) {
	var methods []string
	lo, hi := math.Inf(1), 0.0
	for _, m := range slices.Sorted(maps.Keys(s.Latency)) {
		d := s.Latency[m]
		if d.Count() == 0 {
			continue
		}
		methods = append(methods, m)
		l := d.Summary()
		for _, v := range []float64{l.P50, l.P90, l.P99, l.Max} {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if len(methods) == 0 {
		p("<p class=\"note\">No latency: the logs have no timestamps (envelopes with \"ts\"), or no answered request.</p>\n")
		return
	}
	if hi == 0 {
		lo, hi = 1, 10
	}
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if b <= a {
		b = a + 1
	}
	figures := make([]string, len(methods))
	labels := make([]string, len(methods))
	longest, widest := 0, 0
	for i, m := range methods {
		l := s.Latency[m].Summary()
		approx := ""
		if !l.Exact {
			approx = "≈"
		}
		figures[i] = fmt.Sprintf("count %d, p50 %s%s ms, p90 %s%s ms, p99 %s%s ms, max %s ms",
			l.Count, approx, formatMS(l.P50), approx, formatMS(l.P90), approx, formatMS(l.P99), formatMS(l.Max))
		labels[i] = truncate(m, labelChars)
		longest, widest = max(longest, textWidth(labels[i])), max(widest, textWidth(figures[i]))
	}
	const plot, rowH, top = 460, 26, 28
	left, right := max(120, longest+16), widest+20
	x := func(v float64) float64 {
		if v <= 0 {
			return float64(left)
		}
		f := (math.Log10(v) - a) / (b - a)
		return float64(left) + math.Max(0, math.Min(1, f))*plot
	}
	height := top + rowH*len(methods) + 8
	p(`<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="latency per method">`+"\n",
		left+plot+right, height, left+plot+right, height)
	for e := a; e <= b; e++ {
		xv := x(math.Pow(10, e))
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e0e0e0"/>`, xv, top-6, xv, height-4)
		p(`<text class="small" x="%.1f" y="%d" text-anchor="middle">%s ms</text>`+"\n", xv, top-10, formatMS(math.Pow(10, e)))
	}
	for i, m := range methods {
		l := s.Latency[m].Summary()
		y := top + i*rowH
		p(`<g class="latency" data-method="%s">`, esc(m))
		p(`<text x="%d" y="%d" text-anchor="end">%s</text>`, left-8, y+15, esc(labels[i]))
		p(`<rect x="%d" y="%d" width="%.1f" height="14" fill="#c6d9f0"/>`, left, y+4, x(l.P99)-float64(left))
		p(`<rect x="%d" y="%d" width="%.1f" height="14" fill="#8fb3de"/>`, left, y+4, x(l.P90)-float64(left))
		p(`<rect x="%d" y="%d" width="%.1f" height="14" fill="#2f6db5"/>`, left, y+4, x(l.P50)-float64(left))
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#b00" stroke-width="2"/>`, x(l.Max), y+2, x(l.Max), y+20)
		p(`<text class="figures" x="%d" y="%d">%s</text></g>`+"\n", left+plot+10, y+15, figures[i])
	}
	p("</svg>\n")
	p("<p class=\"note\">Logarithmic scale. Dark bar: p50; lighter: p90, p99 (nearest rank); red tick: max. Latency is the time from a request's timestamp to that of the response that answers it.</p>\n")
}

// errorChart draws one bar per method and error code, and one per tool
// with isError results.
func errorChart(p printer, s *Stats) {
	type bar struct {
		label, detail string
		n             int
		fill          string
	}
	var bars []bar
	for _, e := range s.Errors {
		m := e.Method
		if m == "" {
			m = "(no request)"
		}
		bars = append(bars, bar{m, "code " + strconv.FormatInt(e.Code, 10), e.Count, "#c62828"})
	}
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		if t := s.Tools[name]; t.IsError > 0 {
			bars = append(bars, bar{"tools/call " + name, "isError", t.IsError, "#e08a00"})
		}
	}
	if len(bars) == 0 {
		p("<p class=\"note\">No error responses and no tool results with isError.</p>\n")
		return
	}
	most, longest, widest := 0, 0, 0
	for i, b := range bars {
		most = max(most, b.n)
		bars[i].label = truncate(b.label, labelChars)
		longest = max(longest, textWidth(bars[i].label))
		widest = max(widest, textWidth(b.detail+": "+strconv.Itoa(b.n)))
	}
	const plot, rowH = 380, 24
	left := max(120, longest+16)
	width, height := left+plot+widest+20, rowH*len(bars)+8
	p(`<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="errors per method and code">`+"\n",
		width, height, width, height)
	for i, b := range bars {
		y := i * rowH
		wd := float64(plot) * float64(b.n) / float64(most)
		p(`<g class="error" data-method="%s">`, esc(b.label))
		p(`<text x="%d" y="%d" text-anchor="end">%s</text>`, left-8, y+16, esc(b.label))
		p(`<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>`, left, y+5, wd, b.fill)
		p(`<text class="figures" x="%.1f" y="%d">%s: %d</text></g>`+"\n", float64(left)+wd+6, y+16, esc(b.detail), b.n)
	}
	p("</svg>\n")
	p("<p class=\"note\">Red: error responses by the method of the request they answer and their code. Orange: tools/call results with \"isError\": true.</p>\n")
}

// labelChars is the most characters of a chart's label (a method, a tool);
// a longer one is cut, with an ellipsis.
const labelChars = 48

// textWidth is an upper bound of the width of s in the charts' 12px
// sans-serif, in pixels, for laying them out.
func textWidth(s string) int { return 7 * utf8.RuneCountInString(s) }

// problemsSection lists the problems kept of each log: where (line, or
// position in a graph, and JSON pointer), what, and what found it.
func problemsSection(p printer, logs []*LogStats) {
	p("<h2>Problems</h2>\n")
	found := 0
	for _, l := range logs {
		found += l.ProblemsFound
	}
	if found == 0 {
		p("<p class=\"note\">None: the checks found no problem.</p>\n")
		return
	}
	for _, l := range logs {
		if l.ProblemsFound == 0 {
			continue
		}
		p("<h3>%s: %s</h3>\n", esc(logName(l)), plural(l.ProblemsFound, "problem"))
		if l.ProblemsFound > len(l.Problems) {
			p("<p class=\"note\">The first %d of %d; jrpcld validate lists them all.</p>\n", len(l.Problems), l.ProblemsFound)
		}
		p("<div class=\"wide\"><table class=\"problems\">\n<tr><th>line</th><th>severity</th><th>code</th><th>kind</th><th>at</th><th>message</th><th>found by</th></tr>\n")
		for _, x := range l.Problems {
			where := strconv.Itoa(x.Line)
			if x.Line == 0 {
				where = "#" + strconv.Itoa(x.Pos)
			}
			code := ""
			if x.Code != 0 {
				code = strconv.Itoa(x.Code)
			}
			by := x.Source
			if x.Schema != "" {
				by = "schema " + x.Schema
			}
			p("<tr class=\"%s\"><td>%s</td><td class=\"sev\">%s</td><td>%s</td><td>%s</td><td class=\"at\">%s</td><td class=\"text\">%s</td><td class=\"at\">%s</td></tr>\n",
				esc(x.Severity), where, esc(x.Severity), code, esc(x.Kind), esc(x.Pointer), esc(x.Message), esc(by))
		}
		p("</table></div>\n")
	}
}

func colour(kind string) string {
	switch kind {
	case "request":
		return "#1f5fa8"
	case "notification":
		return "#7a7a7a"
	case "response":
		return "#2e7d32"
	case "error-response":
		return "#c62828"
	}
	return "#8e44ad"
}

// timeline draws a log's Events as a sequence diagram: the client's and the
// server's lifelines, and one arrow per message, top to bottom in log order.
func timeline(p printer, l *LogStats) {
	p("<h3>%s</h3>\n", esc(logName(l)))
	if len(l.Events) == 0 {
		p("<p class=\"note\">No messages.</p>\n")
		return
	}
	unknown := false
	for _, e := range l.Events {
		if e.Dir == DirUnknown {
			unknown = true
		}
	}
	if l.Messages > len(l.Events) {
		p("<p class=\"note\">The first %d of %d messages.</p>\n", len(l.Events), l.Messages)
	}
	if unknown {
		p("<p class=\"note\">The log does not record directions: calls are drawn from client to server and responses back.</p>\n")
	}
	const left, client, server, width, rowH, top = 16, 330, 790, 1060, 24, 40
	height := top + rowH*len(l.Events) + 16
	p(`<div class="timeline"><svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="timeline of %s">`+"\n",
		width, height, esc(logName(l)))
	p("<defs>")
	for _, k := range []string{"request", "notification", "response", "error-response", "batch"} {
		p(`<marker id="arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`, k, colour(k))
	}
	p("</defs>\n")
	p(`<text class="small" x="%d" y="18">position, time (UTC)</text>`, left)
	p(`<text x="%d" y="18" text-anchor="middle" font-weight="600">client</text><text x="%d" y="18" text-anchor="middle" font-weight="600">server</text>`+"\n", client, server)
	p(`<line x1="%d" y1="26" x2="%d" y2="%d" stroke="#bbb" stroke-width="2"/><line x1="%d" y1="26" x2="%d" y2="%d" stroke="#bbb" stroke-width="2"/>`+"\n",
		client, client, height-8, server, server, height-8)
	for i, e := range l.Events {
		y := top + i*rowH + 12
		kind := e.Kind
		if kind == "invalid" {
			kind = "batch"
		}
		toServer := e.Dir == DirC2S || e.Dir == DirUnknown && (e.Kind == "request" || e.Kind == "notification" || e.Kind == "batch" || e.Kind == "invalid")
		x1, x2 := server, client
		if toServer {
			x1, x2 = client, server
		}
		stamp := "#" + strconv.Itoa(e.Pos)
		if t := clock(e.TS); t != "" {
			stamp += "  " + t
		}
		p(`<g class="message">`)
		p(`<text class="small" x="%d" y="%d">%s</text>`, left, y+4, esc(stamp))
		dash := ""
		switch e.Kind {
		case "notification":
			dash = ` stroke-dasharray="6 4"`
		case "invalid":
			dash = ` stroke-dasharray="2 3"`
		}
		p(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.6"%s marker-end="url(#arrow-%s)"/>`, x1, y, x2, y, colour(kind), dash, kind)
		label := e.Label
		if e.ID != "" {
			label += "  id " + e.ID
		}
		if e.Answers > 0 {
			label += "  (answers #" + strconv.Itoa(e.Answers) + ")"
		}
		p(`<text x="%d" y="%d" text-anchor="middle">%s</text></g>`+"\n", (client+server)/2, y-4, esc(truncate(label, 80)))
	}
	p("</svg></div>\n")
}

// clock returns the time of day (UTC) of an RFC 3339 timestamp, or "".
func clock(ts string) string {
	t, ok := parseTime(ts)
	if !ok {
		return ""
	}
	return t.UTC().Format("15:04:05.000")
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
