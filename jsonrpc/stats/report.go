package stats

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// LogStats are the Stats of one log, with where it came from.
type LogStats struct {
	// File is the file the log was read from, as named on the command line.
	File string `json:"file"`
	// Log is the log's IRI when it was read from a graph, "" otherwise.
	Log string `json:"log,omitempty"`
	*Stats
	// Events are the first messages, for the timeline of the HTML report.
	Events []Event `json:"-"`
	// Problems are the first problems checking found, for the HTML report;
	// ProblemsFound counts them all, kept or not.
	Problems      []Problem `json:"-"`
	ProblemsFound int       `json:"-"`
}

// NewLogStats returns the LogStats of the log a Collector has read, file
// as named on the command line, log its IRI when it was read from a graph.
func NewLogStats(file, log string, c *Collector) *LogStats {
	l := &LogStats{File: file, Log: log, Stats: c.Stats(), Events: c.Timeline()}
	l.Problems, l.ProblemsFound = c.Problems()
	return l
}

// Report is the result of a stats run: each log, and their total.
type Report struct {
	Logs  []*LogStats `json:"logs"`
	Total *Stats      `json:"total"`
}

// NewReport returns an empty Report.
func NewReport() *Report { return &Report{Logs: []*LogStats{}, Total: NewStats()} }

// Add adds one log to the report and to its total.
func (r *Report) Add(l *LogStats) {
	r.Logs = append(r.Logs, l)
	r.Total.Add(l.Stats)
}

// WriteJSON writes the report as one JSON object (see docs/stats.md).
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report as aligned tables: one section per log, and
// a total when there are several logs. Text taken from the logs (file
// names, IRIs, methods, tool names, schema names) is written with its
// control and bidirectional characters escaped (see termsafe.Escape), so
// that it can neither act on a terminal nor forge a row.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for i, l := range r.Logs {
		if i > 0 {
			bw.WriteString("\n")
		}
		name := l.File
		if l.Log != "" {
			name += " (log " + l.Log + ")"
		}
		writeStats(bw, name, l.Stats)
	}
	if len(r.Logs) != 1 {
		if len(r.Logs) > 0 {
			bw.WriteString("\n")
		}
		writeStats(bw, fmt.Sprintf("total of %d logs", len(r.Logs)), r.Total)
	}
	return bw.Flush()
}

// dirOrder lists the directions in the order stats prints them.
var dirOrder = []string{DirC2S, DirS2C, DirUnknown}

// directions returns the directions s has figures for.
func (s *Stats) directions() []string {
	var out []string
	for _, d := range dirOrder {
		found := s.Pairing[d] != nil
		for _, dirs := range s.Kinds {
			if dirs[d] > 0 {
				found = true
			}
		}
		if found {
			out = append(out, d)
		}
	}
	return out
}

// methods returns every method s has figures for, sorted.
func (s *Stats) methods() []string {
	set := map[string]bool{}
	for m := range s.Requests {
		set[m] = true
	}
	for m := range s.Notifications {
		set[m] = true
	}
	for _, e := range s.Errors {
		if e.Method != "" {
			set[e.Method] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// errorsByMethod returns the number of error responses to each method.
func (s *Stats) errorsByMethod() map[string]int {
	out := map[string]int{}
	for _, e := range s.Errors {
		out[e.Method] += e.Count
	}
	return out
}

func writeStats(w io.Writer, name string, s *Stats) {
	fmt.Fprintf(w, "%s: %s, %d invalid\n", termsafe.Escape(name), plural(s.Messages, "message"), s.Validation.Invalid)
	dirs := s.directions()
	// table prints rows under head: the first left columns are text,
	// aligned left, the others numbers, aligned right. Every cell is
	// escaped for the terminal.
	table := func(left int, head []string, rows [][]string) {
		if len(rows) == 0 {
			return
		}
		all := append([][]string{head}, rows...)
		for _, r := range all {
			for i, c := range r {
				r[i] = termsafe.Escape(c)
			}
		}
		width := make([]int, len(head))
		for _, r := range all {
			for i, c := range r {
				width[i] = max(width[i], utf8.RuneCountInString(c))
			}
		}
		fmt.Fprintln(w)
		for _, r := range all {
			line := " "
			for i, c := range r {
				pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
				if i < left {
					line += " " + c + pad
				} else {
					line += " " + pad + c
				}
				line += " "
			}
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	}

	// Messages by kind and direction.
	head := append(append([]string{"messages"}, dirs...), "total")
	var rows [][]string
	for _, k := range kindNames {
		if len(s.Kinds[k]) == 0 {
			continue
		}
		row, total := []string{k}, 0
		for _, d := range dirs {
			row = append(row, strconv.Itoa(s.Kinds[k][d]))
			total += s.Kinds[k][d]
		}
		rows = append(rows, append(row, strconv.Itoa(total)))
	}
	table(1, head, rows)

	// Methods: calls, errors and latency.
	errs := s.errorsByMethod()
	rows = nil
	for _, m := range s.methods() {
		row := []string{m, strconv.Itoa(s.Requests[m]), strconv.Itoa(s.Notifications[m]), strconv.Itoa(errs[m])}
		if d := s.Latency[m]; d != nil && d.Count() > 0 {
			l := d.Summary()
			row = append(row, strconv.Itoa(l.Count), formatMS(l.P50), formatMS(l.P90), formatMS(l.P99), formatMS(l.Max))
			if !l.Exact {
				row[len(row)-4] = "~" + row[len(row)-4]
			}
		} else {
			row = append(row, "0", "-", "-", "-", "-")
		}
		rows = append(rows, row)
	}
	table(1, []string{"method", "requests", "notifications", "errors", "timed", "p50 ms", "p90 ms", "p99 ms", "max ms"}, rows)

	// Pairing by direction.
	rows = nil
	for _, d := range dirs {
		p := s.Pairing[d]
		if p == nil {
			continue
		}
		rows = append(rows, []string{d, strconv.Itoa(p.Requests), strconv.Itoa(p.Answered), strconv.Itoa(p.Unanswered),
			strconv.Itoa(p.ReusedIDs), strconv.Itoa(p.OrphanResponses)})
	}
	table(1, []string{"pairing", "requests", "answered", "unanswered", "reused open ids", "orphan responses"}, rows)

	// Error responses by code and method.
	rows = nil
	for _, e := range s.Errors {
		m := e.Method
		if m == "" {
			m = "(orphan)"
		}
		rows = append(rows, []string{strconv.FormatInt(e.Code, 10), m, strconv.Itoa(e.Count)})
	}
	table(2, []string{"error code", "method", "count"}, rows)

	// MCP tools.
	rows = nil
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		t := s.Tools[name]
		rows = append(rows, []string{name, strconv.Itoa(t.Calls), strconv.Itoa(t.IsError)})
	}
	table(1, []string{"tool", "calls", "isError"}, rows)

	// Validation.
	v := s.Validation
	by := "JSON-RPC 2.0 rules"
	if v.Schema != "" {
		by += " and schema " + termsafe.Escape(v.Schema)
	}
	fmt.Fprintf(w, "\n  validation (%s): %d valid, %d invalid, %s\n", by, v.Valid, v.Invalid, plural(v.Warnings, "warning"))
	rows = nil
	for _, p := range v.Problems {
		rows = append(rows, []string{p.Kind, strconv.Itoa(p.Code), p.Severity, p.Source, strconv.Itoa(p.Count)})
	}
	table(4, []string{"problems in", "code", "severity", "found by", "count"}, rows)
}

// formatMS writes milliseconds with at most three decimals.
func formatMS(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
