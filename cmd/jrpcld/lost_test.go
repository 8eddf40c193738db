package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// validateSummary runs validate --format json on the files and returns
// its exit status and its summary object.
func validateSummary(t *testing.T, files ...string) (int, map[string]any, string) {
	t.Helper()
	code, out, errOut := jrpcld(t, "", append([]string{"validate", "--format", "json"}, files...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Summary == nil {
		t.Fatalf("validate: exit %d, no summary: %v\n%s\n%s", code, err, out, errOut)
	}
	return code, last.Summary, out
}

// TestBadFirstLine: a first line that begins a document and never ends
// (a truncated object, a lone "["), or garbage that starts with a NUL
// byte, costs that line only: the 1,000 messages after it are valid for
// validate and stats, and all of them go through turtle and come back
// from json (issue 23, item 6).
func TestBadFirstLine(t *testing.T) {
	var good strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&good, `{"jsonrpc":"2.0","id":%d,"method":"m"}`+"\n", i)
	}
	dir := t.TempDir()
	for _, first := range []string{
		`{"jsonrpc":"2.0","method":"a","params":{"x":`,
		`[`,
		"\x00garbage",
	} {
		t.Run(fmt.Sprintf("%q", first), func(t *testing.T) {
			log := filepath.Join(dir, "log.jsonl")
			if err := os.WriteFile(log, []byte(first+"\n"+good.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			code, sum, out := validateSummary(t, log)
			if code != cli.ExitInvalid || sum["valid"] != 1000.0 || sum["invalid"] != 1.0 || !strings.Contains(out, `"line":1,`) {
				t.Errorf("validate: exit %d, summary %v, want 1,000 valid and line 1 invalid:\n%.600s", code, sum, out)
			}
			code, out, errOut := jrpcld(t, "", "stats", "--format", "json", log)
			var st struct {
				Total struct {
					Validation struct{ Valid, Invalid int } `json:"validation"`
				} `json:"total"`
			}
			if err := json.Unmarshal([]byte(out), &st); err != nil || st.Total.Validation.Valid != 1000 || st.Total.Validation.Invalid != 1 {
				t.Errorf("stats: exit %d, %+v (%v), want 1,000 valid and 1 invalid: %s", code, st.Total.Validation, err, errOut)
			}
			ttl := filepath.Join(dir, "log.ttl")
			if code, _, errOut := jrpcld(t, "", "turtle", "-o", ttl, log); code != cli.ExitInvalid || !strings.Contains(errOut, "log.jsonl:1:") {
				t.Errorf("turtle: exit %d, want 1 and line 1 skipped:\n%.600s", code, errOut)
			}
			code, back, errOut := jrpcld(t, "", "json", ttl)
			if code != cli.ExitOK || !jsonLinesEqual(t, back, good.String()) {
				t.Errorf("json: exit %d, %d lines back, want the 1,000 messages: %s", code, strings.Count(back, "\n"), errOut)
			}
		})
	}
}

// jsonLinesEqual reports whether two texts of JSON lines hold equal JSON
// values, line by line.
func jsonLinesEqual(t *testing.T, got, want string) bool {
	t.Helper()
	return strings.TrimSpace(got) != "" && reflect.DeepEqual(jsonLines(t, got), jsonLines(t, want))
}

// TestCommentFirstLine: every command follows one rule to tell a graph
// from a log (rpclog.GraphFormat): a log whose first line starts with "#"
// is a log with a bad first line for validate, turtle and stats alike,
// whatever its name; XML is refused as XML, not read as N-Quads (issue
// 23, item 10).
func TestCommentFirstLine(t *testing.T) {
	dir := t.TempDir()
	const body = `{"jsonrpc":"2.0","id":1,"method":"m"}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":2}` + "\n"
	for _, name := range []string{"log.jsonl", "log"} {
		log := filepath.Join(dir, name)
		if err := os.WriteFile(log, []byte("# recorded on 2026-01-01\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, sum, out := validateSummary(t, log); code != cli.ExitInvalid || sum["valid"] != 2.0 || sum["invalid"] != 1.0 {
			t.Errorf("validate %s: exit %d, %v, want 2 valid and the comment line invalid:\n%s", name, code, sum, out)
		}
		code, _, errOut := jrpcld(t, "", "turtle", "-o", filepath.Join(dir, "out.ttl"), log)
		if code != cli.ExitInvalid || !strings.Contains(errOut, name+":1:") || strings.Contains(errOut, "RDF") {
			t.Errorf("turtle %s: exit %d, want 1 with line 1 skipped:\n%s", name, code, errOut)
		}
		code, out, errOut := jrpcld(t, "", "stats", "--format", "json", log)
		if code != cli.ExitInvalid || !strings.Contains(out, `"valid": 2,`) || !strings.Contains(out, `"invalid": 1,`) {
			t.Errorf("stats %s: exit %d, want 2 valid and 1 invalid:\n%.800s\n%s", name, code, out, errOut)
		}
	}
	xml := filepath.Join(dir, "graph")
	if err := os.WriteFile(xml, []byte(`<?xml version="1.0"?>`+"\n<rdf:RDF/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"validate", "turtle", "stats"} {
		code, _, errOut := jrpcld(t, "", cmd, xml)
		if code != cli.ExitUsage || !strings.Contains(errOut, "is XML") || strings.Contains(errOut, "N-Quads") || strings.Contains(errOut, "nquads") {
			t.Errorf("%s on XML: exit %d, want 2 and one line saying it is XML:\n%s", cmd, code, errOut)
		}
	}
}

// TestBaseDistinctLogs: with --base, two inputs of the same name would be
// one log (their messages merged node by node); that is a usage error
// naming both, for rdf and turtle alike. A graph where two logs were
// merged all the same (converted one at a time with one --base) is read
// by stats and json with problems said in words, never a Go type name
// (issue 23, item 9).
func TestBaseDistinctLogs(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../examples/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	for _, sub := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(dir, sub, "session.jsonl")
		if err := os.WriteFile(log, src, 0o644); err != nil {
			t.Fatal(err)
		}
		logs = append(logs, log)
	}
	for _, args := range [][]string{{"turtle"}, {"rdf", "--format", "nquads"}} {
		out := filepath.Join(dir, "out")
		code, _, errOut := jrpcld(t, "", append(args, append([]string{"-o", out, "--base", "http://ex.org/logs/"}, logs...)...)...)
		if code != cli.ExitUsage || !strings.Contains(errOut, logs[0]) || !strings.Contains(errOut, logs[1]) || !strings.Contains(errOut, "<http://ex.org/logs/session.jsonl>") {
			t.Errorf("%v: exit %d, want 2 and an error naming both files and the IRI:\n%s", args, code, errOut)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s written", args, out)
		}
	}
	// Merged by hand: the same --base for each, one file after the other.
	var merged strings.Builder
	for i, log := range logs {
		code, out, errOut := jrpcld(t, "", "rdf", "--format", "ntriples", "--base", "http://ex.org/logs/session.jsonl", log)
		if code != cli.ExitOK {
			t.Fatalf("rdf %d: exit %d: %s", i, code, errOut)
		}
		merged.WriteString(out)
	}
	nt := filepath.Join(dir, "merged.nt")
	if err := os.WriteFile(nt, []byte(merged.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"stats", "json"} {
		_, out, errOut := jrpcld(t, "", cmd, nt)
		if strings.Contains(out+errOut, "Go value") || strings.Contains(out+errOut, "wire.") || strings.Contains(out+errOut, "goroutine") {
			t.Errorf("%s on merged logs names a Go type:\n%s", cmd, errOut)
		}
	}
}

// TestGzipErrorNamesFileOnce: a gzip log cut short is one line that names
// the file once, and says gzip, for every command that reads logs (issue
// 23, item 19: the name came twice).
func TestGzipErrorNamesFileOnce(t *testing.T) {
	dir := t.TempDir()
	data := gzipped(t, []byte(strings.Repeat(`{"jsonrpc":"2.0","method":"a"}`+"\n", 500)))
	log := filepath.Join(dir, "cut.jsonl.gz")
	if err := os.WriteFile(log, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate"}, {"turtle", "-o", filepath.Join(dir, "out.ttl")}, {"stats"}} {
		_, _, errOut := jrpcld(t, "", append(args, log)...)
		if strings.Count(errOut, log) != 1 || !strings.Contains(errOut, "gzip: unexpected EOF") {
			t.Errorf("%s: want the file named once and gzip's error:\n%s", args[0], errOut)
		}
	}
}

// TestLoneSurrogate: a message with a lone UTF-16 surrogate escape, which
// RFC 8259's grammar allows, is kept, not dropped as not JSON, wherever
// the escape is (a batch member, the method, params, a member name, the
// id, a batch member's method): invalid, with an error that names the
// string, for validate and stats alike, on the log and on its graph; the
// escape in an envelope's "ts" costs nothing but a warning. turtle and
// rdf keep each such message, and json gives back its exact text, and
// the "ts" as written (issue 23, item 8).
func TestLoneSurrogate(t *testing.T) {
	lones := []string{
		`["\ud800"]`,
		`{"jsonrpc":"2.0","method":"m\udc00","id":1}`,
		`{"jsonrpc":"2.0","method":"p","params":{"a":"x\ud800y","b":[2]},"id":2}`,
		`{"jsonrpc":"2.0","method":"p","params":{"\udc00k":1},"id":3}`,
		`{"jsonrpc":"2.0","result":"r","id":"\udbff"}`,
		`[{"jsonrpc":"2.0","method":"b","id":4},{"jsonrpc":"2.0","method":"b\ud800","id":5}]`,
	}
	const good = `{"jsonrpc":"2.0","method":"ok","id":0}`
	const ts = `{"dir":"c2s","ts":"\ud800","msg":{"jsonrpc":"2.0","method":"t","id":6}}`
	dir := t.TempDir()
	log := filepath.Join(dir, "lone.jsonl")
	if err := os.WriteFile(log, []byte(good+"\n"+strings.Join(lones, "\n")+"\n"+ts+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, sum, out := validateSummary(t, log)
	if code != cli.ExitInvalid || sum["valid"] != 2.0 || sum["invalid"] != float64(len(lones)) || sum["warnings"] != 1.0 {
		t.Errorf("validate: exit %d, summary %v, want 2 valid, %d invalid, 1 warning:\n%s", code, sum, len(lones), out)
	}
	for i := range lones {
		if !strings.Contains(out, fmt.Sprintf(`"line":%d,"message":"lone UTF-16 surrogate \\`, i+2)) {
			t.Errorf("validate: no error about the lone surrogate of line %d:\n%s", i+2, out)
		}
	}
	// stats agrees with validate, on the log and on its graph.
	type counts struct {
		Total struct {
			Validation struct{ Valid, Invalid int } `json:"validation"`
		} `json:"total"`
	}
	statsOf := func(file string) counts {
		t.Helper()
		var st counts
		code, out, errOut := jrpcld(t, "", "stats", "--format", "json", file)
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("stats %s: exit %d, %v: %s", file, code, err, errOut)
		}
		return st
	}
	if st := statsOf(log); st.Total.Validation.Valid != 2 || st.Total.Validation.Invalid != len(lones) {
		t.Errorf("stats: %+v, want 2 valid and %d invalid", st.Total.Validation, len(lones))
	}
	for _, cmd := range [][]string{{"turtle", "-o", filepath.Join(dir, "lone.ttl")}, {"rdf", "-o", filepath.Join(dir, "lone.nq")}} {
		graph := cmd[2]
		if code, _, errOut := jrpcld(t, "", append(cmd, log)...); code != cli.ExitOK {
			t.Fatalf("%s: exit %d: %s", cmd[0], code, errOut)
		}
		if st := statsOf(graph); st.Total.Validation.Valid != 2 || st.Total.Validation.Invalid != len(lones) {
			t.Errorf("stats of %s's graph: %+v, want 2 valid and %d invalid", cmd[0], st.Total.Validation, len(lones))
		}
		code, back, errOut := jrpcld(t, "", "json", "--envelope", graph)
		lines := strings.Split(strings.TrimSuffix(back, "\n"), "\n")
		if code != cli.ExitOK || len(lines) != len(lones)+2 {
			t.Fatalf("json of %s's graph: exit %d, %d lines, want %d: %s\n%s", cmd[0], code, len(lines), len(lones)+2, errOut, back)
		}
		for i, want := range lones {
			// Each comes back exactly as written, in its envelope; of the
			// last batch, the member with the escape does, the other one
			// as an equal JSON value.
			got := lines[i+1]
			exact := got == `{"msg":`+want+`}`
			if i == len(lones)-1 {
				exact = strings.Contains(got, `,{"jsonrpc":"2.0","method":"b\ud800","id":5}]}`) && jsonLinesEqual(t, got, `{"msg":`+want+`}`)
			}
			if !exact {
				t.Errorf("json of %s's graph, line %d: %s, want the message %s", cmd[0], i+2, got, want)
			}
		}
		if got := lines[len(lines)-1]; !strings.Contains(got, `"ts":"\ud800"`) || !jsonLinesEqual(t, got, ts) {
			t.Errorf("json of %s's graph, last line: %s, want %s", cmd[0], got, ts)
		}
	}
}

// TestNotUTF8Lines: lines of a log with no envelope that are not UTF-8 (a
// message with a Latin-1 "é", a line of Latin-1 text) are lines that are
// not JSON: validate and turtle report each at its line and column, and
// the messages around them are valid, in the graph, and back from json. A
// JSON-LD graph that is not UTF-8 is refused at its line and column,
// rather than read with U+FFFD in place of the byte (issue 37, item 1).
func TestNotUTF8Lines(t *testing.T) {
	good := []string{`{"jsonrpc":"2.0","id":1,"method":"a"}`, `{"jsonrpc":"2.0","id":1,"result":"ok"}`}
	latin1 := `{"jsonrpc":"2.0","id":2,"result":"caf` + "\xe9" + `"}`
	dir := t.TempDir()
	log := filepath.Join(dir, "latin1.jsonl")
	if err := os.WriteFile(log, []byte(good[0]+"\n"+latin1+"\ncaf\xe9 au lait\n"+good[1]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	col := strings.IndexByte(latin1, 0xe9) + 1
	code, sum, out := validateSummary(t, log)
	if code != cli.ExitInvalid || sum["valid"] != 2.0 || sum["invalid"] != 2.0 ||
		!strings.Contains(out, fmt.Sprintf(`"line":2,"message":"not JSON: column %d: invalid UTF-8 byte 0xe9"`, col)) ||
		!strings.Contains(out, `"line":3,"message":"not JSON: column 1: `) {
		t.Errorf("validate: exit %d, summary %v, want 2 valid, lines 2 and 3 not JSON:\n%s", code, sum, out)
	}
	ttl := filepath.Join(dir, "latin1.ttl")
	code, _, errOut := jrpcld(t, "", "turtle", "-o", ttl, log)
	if code != cli.ExitInvalid || !strings.Contains(errOut, fmt.Sprintf("latin1.jsonl:2:%d: skipped: invalid UTF-8 byte 0xe9", col)) || !strings.Contains(errOut, "latin1.jsonl:3:1: skipped: ") {
		t.Errorf("turtle: exit %d, want 1 and lines 2 and 3 skipped:\n%s", code, errOut)
	}
	if code, back, errOut := jrpcld(t, "", "json", ttl); code != cli.ExitOK || !jsonLinesEqual(t, back, strings.Join(good, "\n")) {
		t.Errorf("json: exit %d, %s, want the two messages: %s", code, back, errOut)
	}

	// A JSON-LD graph with a Latin-1 "é" in a literal.
	jsonld := filepath.Join(dir, "latin1.jsonld")
	if code, _, errOut := jrpcld(t, "", "rdf", "--format", "jsonld", "-o", jsonld, log); code != cli.ExitInvalid {
		t.Fatalf("rdf: exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(jsonld)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte(`"a"`)) + 1 // the method's name
	if at < 1 {
		t.Fatalf("no method in the JSON-LD:\n%s", data)
	}
	data[at] = 0xe9
	if err := os.WriteFile(jsonld, data, 0o644); err != nil {
		t.Fatal(err)
	}
	line := 1 + bytes.Count(data[:at], []byte("\n"))
	lineStart := bytes.LastIndexByte(data[:at], '\n') + 1
	want := fmt.Sprintf("latin1.jsonld:%d:%d: JSON-LD: invalid UTF-8 byte 0xe9", line, 1+utf8.RuneCount(data[lineStart:at]))
	if code, back, errOut := jrpcld(t, "", "json", jsonld); code != cli.ExitInvalid || back != "" || !strings.Contains(errOut, want) {
		t.Errorf("json of a JSON-LD graph that is not UTF-8: exit %d, %q, %s; want exit 1 and %q", code, back, errOut, want)
	}
}
