package ogcdiff

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// mdSegment is a line of Markdown text, or a fenced code block with its
// language, as compareMarkdown sees a page.
type mdSegment struct {
	line int    // the line it starts at, from 1
	lang string // the fence's info string; "" for a line of text
	code bool
	text string
}

// mdSegments splits a Markdown page into its lines of text and its fenced
// code blocks (a fence opens with ``` at the start of a line and closes at
// the next line that is only the fence).
func mdSegments(data []byte) []mdSegment {
	lines := strings.Split(strings.TrimRight(string(data), "\n \t"), "\n")
	var out []mdSegment
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\r")
		if !strings.HasPrefix(l, "```") {
			out = append(out, mdSegment{line: i + 1, text: l})
			continue
		}
		fence := l[:len(l)-len(strings.TrimLeft(l, "`"))]
		seg := mdSegment{line: i + 1, lang: strings.TrimSpace(l[len(fence):]), code: true}
		var body []string
		for i++; i < len(lines) && strings.TrimRight(lines[i], " \t\r") != fence; i++ {
			body = append(body, lines[i])
		}
		seg.text = strings.Join(body, "\n")
		out = append(out, seg)
	}
	return out
}

// codeKey returns what a code block means, by its language: JSON and
// JSON-LD as the value, Turtle as its canonical triples, YAML as the value;
// other code as its lines, trailing blanks aside.
func codeKey(lang, code string) string {
	switch strings.ToLower(lang) {
	case "json", "jsonld", "json-ld":
		if v, err := decode([]byte(code)); err == nil {
			data, _ := json.Marshal(v)
			return string(data)
		}
	case "ttl", "turtle":
		if ts, err := parseTurtle([]byte(code)); err == nil {
			return graphKey(ts)
		}
	case "yaml", "yml":
		var v any
		if yaml.Unmarshal([]byte(code), &v) == nil {
			data, err := json.Marshal(normYAML(v))
			if err == nil {
				return string(data)
			}
		}
	}
	lines := strings.Split(strings.TrimRight(code, "\n \t"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.Join(lines, "\n")
}

// compareMarkdown compares two Markdown pages line by line outside code
// blocks and code block by code block by what the code means (codeKey).
// In the blocks' pages (generateddocs/), when both have as many lines and
// blocks, every one that differs is a difference (Where "line N", N the
// tool chain's line); otherwise, and in other pages (register-summary.md,
// where one block out of order moves every line), only the first.
func compareMarkdown(p string, got, want []byte) []Diff {
	every := strings.HasPrefix(p, "generateddocs/")
	g, w := mdSegments(got), mdSegments(want)
	show := func(s mdSegment) string {
		if s.code {
			return "```" + s.lang + " block: " + clip(strings.ReplaceAll(s.text, "\n", `\n`))
		}
		if len(s.text) > 300 {
			return s.text[:297] + "..."
		}
		return s.text
	}
	var out []Diff
	for i := 0; i < len(g) || i < len(w); i++ {
		var gs, ws mdSegment
		if i < len(g) {
			gs = g[i]
		}
		if i < len(w) {
			ws = w[i]
		}
		same := gs.code == ws.code && gs.lang == ws.lang
		if same && gs.code {
			same = codeKey(gs.lang, gs.text) == codeKey(ws.lang, ws.text)
		} else if same {
			same = gs.text == ws.text
		}
		if same {
			continue
		}
		line := ws.line
		if i >= len(w) {
			line = w[len(w)-1].line + 1
		}
		out = append(out, Diff{Path: p, Kind: Differs, Where: "line " + strconv.Itoa(line),
			Detail: fmt.Sprintf("jrpcld %q, the tool chain %q", show(gs), show(ws))})
		if len(g) != len(w) || !every {
			out[len(out)-1].Detail += fmt.Sprintf(" (%d lines and blocks, the tool chain's %d)", len(g), len(w))
			break
		}
	}
	return out
}
