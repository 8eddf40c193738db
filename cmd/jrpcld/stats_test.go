package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/examples/queries"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

const statsPairing = "../../jsonrpc/stats/testdata/pairing.jsonl"

func TestStatsUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ttl")
	os.WriteFile(bad, []byte("<http://s> <http://p> .\n"), 0o644)
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"stats", "--format", "xml"}, cli.ExitUsage, "--format must be text or json"},
		{[]string{"stats", "--schema", "a.json", "--bblock", "b"}, cli.ExitUsage, "not both"},
		{[]string{"stats", "--id", "x"}, cli.ExitUsage, "--id needs --bblock"},
		{[]string{"stats", "no-such-file.jsonl"}, cli.ExitUsage, "no-such-file.jsonl"},
		{[]string{"stats", "--schema", "no-such-schema.json"}, cli.ExitUsage, "no-such-schema.json"},
		{[]string{"stats", bad}, cli.ExitUsage, "bad.ttl:1:23: expected an object"},
		{[]string{"stats", "--html", filepath.Join(dir, "no", "such", "dir", "r.html"), statsPairing}, cli.ExitUsage, "r.html"},
	}
	if code, out, _ := jrpcld(t, "", "stats", "-h"); code != cli.ExitOK || !strings.Contains(out, "Usage: jrpcld stats") {
		t.Errorf("stats -h: exit %d, stdout %q", code, out)
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errOut := jrpcld(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.err) || strings.Contains(errOut, "panic") {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, errOut, tt.code, tt.err)
			}
		})
	}
}

// statsJSON runs stats --format json and decodes its one JSON object.
func statsJSON(t *testing.T, stdin string, args ...string) (int, map[string]any) {
	t.Helper()
	code, out, errOut := jrpcld(t, stdin, append([]string{"stats", "--format", "json"}, args...)...)
	dec := json.NewDecoder(strings.NewReader(out))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s\nstderr: %s", err, out, errOut)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value on stdout:\n%s", out)
	}
	return code, v
}

func get(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

func TestStatsText(t *testing.T) {
	code, out, errOut := jrpcld(t, "", "stats", statsPairing)
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		statsPairing + ": 27 messages, 0 invalid",
		"  request          10    2     12",
		"  tools/call         3              0       1      3      30      40      40      40",
		"  c2s            12        10           2                3                 0",
		"  -32601      b               1",
		"  t1        2        1",
		"validation (JSON-RPC 2.0 rules): 27 valid, 0 invalid, 0 warnings",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks the line %q:\n%s", want, out)
		}
	}
}

// TestStatsBadInput: lines that cannot be read are counted as invalid,
// the rest is counted, and the exit status says so.
func TestStatsBadInput(t *testing.T) {
	log := `{"jsonrpc":"2.0","id":1,"method":"m"}
this is not JSON
{"jsonrpc":"2.0","id":1,"result":true}
{"jsonrpc":"2.0","method":"n"
{"jsonrpc":"2.0","method":"n"}
`
	code, v := statsJSON(t, log)
	if code != cli.ExitInvalid {
		t.Errorf("exit %d, want %d", code, cli.ExitInvalid)
	}
	total := get(v, "total")
	for path, want := range map[string]float64{"messages": 5, "kinds/invalid/unknown": 2, "requests/m": 1, "notifications/n": 1,
		"pairing/unknown/answered": 1, "validation/valid": 3, "validation/invalid": 2} {
		if got := get(total, strings.Split(path, "/")...); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	if get(v, "logs") == nil || len(get(v, "logs").([]any)) != 1 || get(v, "logs").([]any)[0].(map[string]any)["file"] != "stdin" {
		t.Errorf("logs %v", get(v, "logs"))
	}
}

// TestStatsGraphInput: the figures of a graph jrpcld wrote are those of
// its log, whatever the RDF format, from a file or standard input.
func TestStatsGraphInput(t *testing.T) {
	dir := t.TempDir()
	_, want := statsJSON(t, "", statsPairing)
	wantLog := get(want, "logs").([]any)[0].(map[string]any)
	delete(wantLog, "file")
	for _, f := range []string{"turtle", "ntriples", "nquads", "jsonld"} {
		g := filepath.Join(dir, "g."+map[string]string{"turtle": "ttl", "ntriples": "nt", "nquads": "nq", "jsonld": "jsonld"}[f])
		if code, _, errOut := jrpcld(t, "", "rdf", "--format", f, "--base", "http://example.org/log", "-o", g, statsPairing); code != cli.ExitOK {
			t.Fatalf("rdf: exit %d %s", code, errOut)
		}
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		inputs := [][]string{{g}, {"-"}}
		if f == "jsonld" {
			inputs = inputs[:1] // JSON on standard input is a message log
		}
		for _, args := range inputs {
			stdin := ""
			if args[0] == "-" {
				stdin = string(data)
			}
			code, got := statsJSON(t, stdin, args...)
			logs, _ := get(got, "logs").([]any)
			if code != cli.ExitOK || len(logs) != 1 {
				t.Fatalf("%s %v: exit %d, %d logs", f, args, code, len(logs))
			}
			l := logs[0].(map[string]any)
			if l["log"] != "http://example.org/log" {
				t.Errorf("%s %v: log %v", f, args, l["log"])
			}
			delete(l, "file")
			delete(l, "log")
			if !reflect.DeepEqual(l, wantLog) {
				t.Errorf("%s %v: figures of the graph differ from those of the log", f, args)
			}
		}
	}
}

// TestStatsGraphUngrouped: a graph jrpcld did not lay out (its statements
// reversed) has the same figures, from a file and from standard input, and
// stats says in one line that it reads it whole.
func TestStatsGraphUngrouped(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "g.nt")
	if code, _, errOut := jrpcld(t, "", "rdf", "--format", "ntriples", "--base", "http://example.org/log", "-o", g, statsPairing); code != cli.ExitOK {
		t.Fatalf("rdf: exit %d %s", code, errOut)
	}
	code, want := statsJSON(t, "", g)
	if code != cli.ExitOK {
		t.Fatalf("stats of the stream: exit %d", code)
	}
	figures := func(v map[string]any) any {
		l := get(v, "logs").([]any)[0].(map[string]any)
		delete(l, "file")
		return l
	}
	data, err := os.ReadFile(g)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	slices.Reverse(lines)
	rev := filepath.Join(dir, "r.nt")
	if err := os.WriteFile(rev, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{rev, "-"} {
		stdin, shown := "", name
		if name == "-" {
			stdin, shown = strings.Join(lines, ""), "stdin"
		}
		code, out, errOut := jrpcld(t, stdin, "stats", "--format", "json", name)
		if code != cli.ExitOK || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "jrpcld stats: "+shown+": read whole, so memory grows with its size: ") {
			t.Errorf("%s: exit %d: %q", shown, code, errOut)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v", shown, err)
		}
		if !reflect.DeepEqual(figures(got), figures(want)) {
			t.Errorf("%s: figures differ from those of the stream:\n%s", shown, out)
		}
	}
}

// TestStatsGraphMCP: a graph made with the MCP block has the figures of its
// log when stats is given that block, schema validation included; the
// default block cannot rebuild its messages and says where.
func TestStatsGraphMCP(t *testing.T) {
	mcp := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	log := filepath.Join(shared.Dir(t, "corpus", "mcp-sessions"), "everything-stdio.dir.jsonl")
	block := []string{"--bblock", mcp, "--id", "mcp.mcp"}
	wantCode, want := statsJSON(t, "", append(block, log)...)
	wantLog := get(want, "logs").([]any)[0].(map[string]any)
	delete(wantLog, "file")
	if get(wantLog, "validation", "schema") != "mcp.mcp" || get(wantLog, "requests", "tools/call") == nil {
		t.Fatalf("figures of the log: %v", wantLog)
	}
	dir := t.TempDir()
	for f, g := range map[string]string{"turtle": filepath.Join(dir, "g.ttl"), "nquads": filepath.Join(dir, "g.nq")} {
		args := append(append([]string{"rdf", "--format", f}, block...), "--base", "http://example.org/log", "-o", g, log)
		if code, _, errOut := jrpcld(t, "", args...); code != cli.ExitOK {
			t.Fatalf("rdf: exit %d %s", code, errOut)
		}
		code, got := statsJSON(t, "", append(block, g)...)
		logs, _ := get(got, "logs").([]any)
		if code != wantCode || len(logs) != 1 {
			t.Fatalf("%s: exit %d (want %d), %d logs", g, code, wantCode, len(logs))
		}
		l := logs[0].(map[string]any)
		delete(l, "file")
		delete(l, "log")
		if !reflect.DeepEqual(l, wantLog) {
			a, _ := json.MarshalIndent(l, "", " ")
			b, _ := json.MarshalIndent(wantLog, "", " ")
			t.Errorf("%s: figures of the graph\n%s\nfigures of the log\n%s", g, a, b)
		}
		code, _, errOut := jrpcld(t, "", "stats", g)
		if code != cli.ExitUsage || !strings.Contains(errOut, "jrpcld stats: "+g+": <http://example.org/log#c2s-1>: jlog:patch: ") {
			t.Errorf("%s with the default block: exit %d, stderr %q", g, code, errOut)
		}
	}
}

func TestStatsHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "report.html")
	code, out, errOut := jrpcld(t, "", "stats", "--html", page, statsPairing)
	if code != cli.ExitOK || errOut != "" || !strings.Contains(out, "27 messages") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", "<svg", "count 3, p50 30 ms, p90 40 ms, p99 40 ms, max 40 ms", `<div class="timeline">`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestStatsCorpus runs stats over the recorded sessions, bare and with
// envelopes, and with the MCP schema.
func TestStatsCorpus(t *testing.T) {
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	files, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	code, v := statsJSON(t, "", files...)
	if code != cli.ExitOK {
		t.Errorf("exit %d", code)
	}
	// SOURCE.txt: 25 tools/call per form of the three sessions; the sessions
	// validate (TestValidateCorpus) as 224 messages.
	if get(v, "total", "messages") != 224.0 || get(v, "total", "requests", "tools/call") != 50.0 || get(v, "total", "validation", "invalid") != 0.0 {
		t.Errorf("total %v", get(v, "total"))
	}
	if logs := get(v, "logs").([]any); len(logs) != 6 || logs[0].(map[string]any)["file"] != files[0] {
		t.Errorf("%d logs", len(logs))
	}

	// With the MCP schema, one response of everything-stdio is invalid.
	mcp := shared.Dir(t, "reference", "mcp-schema", "2025-11-25", "schema.json")
	code, v = statsJSON(t, "", "--schema", mcp, filepath.Join(corpus, "everything-stdio.dir.jsonl"))
	val := get(v, "total", "validation")
	if code != cli.ExitInvalid || get(val, "invalid") != 1.0 || get(val, "schema") == "" {
		t.Fatalf("exit %d, validation %v", code, val)
	}
	found := false
	for _, p := range get(val, "problems").([]any) {
		p := p.(map[string]any)
		if p["kind"] == "response" && p["source"] == "schema" && p["severity"] == "error" {
			found = true
		}
	}
	if !found {
		t.Errorf("no schema error in a response: %v", get(val, "problems"))
	}
}

// sparqlRows runs stats --sparql --format json and returns the names of its
// queries in order and, for each, its rows: each variable's value as its
// term's text.
func sparqlRows(t *testing.T, args ...string) ([]string, map[string][]map[string]string) {
	t.Helper()
	code, out, errOut := jrpcld(t, "", append([]string{"stats", "--sparql", "--format", "json"}, args...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	var decoded struct {
		Queries []struct {
			Name    string
			Results struct {
				Bindings []map[string]struct{ Value string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &decoded); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var names []string
	rows := map[string][]map[string]string{}
	for _, q := range decoded.Queries {
		names = append(names, q.Name)
		rows[q.Name] = []map[string]string{}
		for _, b := range q.Results.Bindings {
			row := map[string]string{}
			for v, term := range b {
				row[v] = term.Value
			}
			rows[q.Name] = append(rows[q.Name], row)
		}
	}
	return names, rows
}

// TestStatsSPARQL runs the pack through the command on the exercise log
// and the example session, in the pack's order, and holds the rows of
// requests.rq and pairing.rq to stats' own JSON for the same log (every
// query, on the corpus too, is held to it by jsonrpc/stats's
// TestSPARQLEngines, through the same package queries). A graph jrpcld
// wrote gives the same rows as its log.
func TestStatsSPARQL(t *testing.T) {
	var pack []string
	for _, q := range queries.Pack() {
		pack = append(pack, q.Name)
	}
	for _, log := range []string{statsPairing, "../../examples/session.jsonl"} {
		t.Run(filepath.Base(log), func(t *testing.T) {
			names, rows := sparqlRows(t, log)
			if !slices.Equal(names, pack) {
				t.Fatalf("queries %v, want the pack's %v", names, pack)
			}
			_, st := statsJSON(t, "", log)
			logJSON := get(st, "logs").([]any)[0]
			wantReq := map[string]string{}
			for m, n := range get(logJSON, "requests").(map[string]any) {
				wantReq[m] = strconv.FormatFloat(n.(float64), 'f', -1, 64)
			}
			gotReq := map[string]string{}
			for _, r := range rows["requests.rq"] {
				gotReq[r["method"]] = r["count"]
			}
			if !reflect.DeepEqual(gotReq, wantReq) || len(wantReq) == 0 {
				t.Errorf("requests.rq %v, stats %v", gotReq, wantReq)
			}
			wantPair := map[string][3]string{}
			for dir, p := range get(logJSON, "pairing").(map[string]any) {
				f := func(k string) string { return strconv.FormatFloat(get(p, k).(float64), 'f', -1, 64) }
				if f("requests") != "0" {
					wantPair[dir] = [3]string{f("requests"), f("answered"), f("unanswered")}
				}
			}
			gotPair := map[string][3]string{}
			for _, r := range rows["pairing.rq"] {
				gotPair[r["dir"]] = [3]string{r["requests"], r["answered"], r["unanswered"]}
			}
			if !reflect.DeepEqual(gotPair, wantPair) || len(wantPair) == 0 {
				t.Errorf("pairing.rq %v, stats %v", gotPair, wantPair)
			}

			ttl := filepath.Join(t.TempDir(), "log.ttl")
			if code, _, errOut := jrpcld(t, "", "turtle", "-o", ttl, log); code != cli.ExitOK {
				t.Fatalf("turtle: exit %d, %s", code, errOut)
			}
			if _, fromGraph := sparqlRows(t, ttl); !reflect.DeepEqual(fromGraph, rows) {
				t.Errorf("the graph's rows differ from the log's:\n%v\n%v", fromGraph, rows)
			}
		})
	}
}

// TestStatsSPARQLText checks the text tables' titles, in the pack's order,
// and the flags --sparql refuses.
func TestStatsSPARQLText(t *testing.T) {
	code, out, errOut := jrpcld(t, "", "stats", "--sparql", statsPairing)
	if code != cli.ExitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	at := 0
	for _, q := range queries.Pack() {
		i := strings.Index(out[at:], "\n"+q.Name+": "+q.Title+"\nlog ")
		if at == 0 {
			i = strings.Index(out, q.Name+": "+q.Title+"\nlog ")
		}
		if i < 0 {
			t.Fatalf("no table %s after byte %d:\n%s", q.Name, at, out)
		}
		at += i + 1
	}
	if code, _, errOut := jrpcld(t, "", "stats", "--sparql", "--id", "x", statsPairing); code != cli.ExitUsage || !strings.Contains(errOut, "--id needs --bblock") {
		t.Errorf("--sparql --id: exit %d, stderr %q", code, errOut)
	}
	for _, flag := range [][]string{{"--html", "r.html"}, {"--schema", "s.json"}, {"--mcp"}} {
		args := append([]string{"stats", "--sparql"}, append(flag, statsPairing)...)
		code, _, errOut := jrpcld(t, "", args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, "drop "+flag[0]) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
