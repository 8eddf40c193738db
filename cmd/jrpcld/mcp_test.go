package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/mcp"
)

// logVersion reads the log at path line by line with encoding/json (bare
// messages or envelopes), as --mcp is documented to: the protocolVersion
// of the first response to an initialize request, or else of the first
// initialize request, or else of the io.modelcontextprotocol/protocolVersion
// in the _meta of the first request that has one; "" for none. inits
// counts the initialize requests: an independent reading of what --mcp
// looks for.
func logVersion(t *testing.T, path string) (version string, inits int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	initIDs := map[string]bool{}
	asked, meta, answered := "", "", ""
	for sc.Scan() {
		var line struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		raw := line.Msg
		if raw == nil {
			raw = sc.Bytes()
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion *string `json:"protocolVersion"`
				Meta            struct {
					Version *string `json:"io.modelcontextprotocol/protocolVersion"`
				} `json:"_meta"`
			} `json:"params"`
			Result struct {
				ProtocolVersion *string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(raw, &m) != nil || m.ID == nil {
			continue
		}
		switch {
		case m.Method == "initialize" && line.Dir != "s2c":
			inits++
			initIDs[string(m.ID)] = true
			if asked == "" && m.Params.ProtocolVersion != nil {
				asked = *m.Params.ProtocolVersion
			}
		case m.Method != "" && meta == "" && m.Params.Meta.Version != nil:
			meta = *m.Params.Meta.Version
		case m.Method == "" && initIDs[string(m.ID)] && m.Result.ProtocolVersion != nil && line.Dir != "c2s" && answered == "":
			answered = *m.Result.ProtocolVersion
		}
	}
	for _, v := range []string{answered, asked} {
		if v != "" {
			return v, inits
		}
	}
	if inits > 0 {
		return "", inits
	}
	return meta, inits
}

// withoutVersions drops validate's {"mcpVersion": ...} lines.
func withoutVersions(out string) string {
	var kept []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(l, `{"mcpVersion":`) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "")
}

// uncheckedOut is out, validate --format json's output with a schema that
// takes any message, as --mcp gives it for a log whose version has no
// schema, once the finding that says so is taken out: the same findings,
// and a summary with the messages valid by the JSON-RPC rules counted
// unchecked, none valid. It fails t where out has no summary last.
func uncheckedOut(t *testing.T, out string) string {
	t.Helper()
	lines := strings.SplitAfter(strings.TrimSuffix(out, "\n"), "\n")
	var sum map[string]map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum["summary"] == nil {
		t.Fatalf("no summary last in %s", out)
	}
	s := sum["summary"]
	if valid := s["valid"].(float64); valid > 0 {
		s["unchecked"], s["valid"] = valid, 0.0
	}
	last, _ := json.Marshal(sum)
	return strings.Join(lines[:len(lines)-1], "") + string(last) + "\n"
}

// withoutFinding is out without its one line that starts with start and
// holds words; it fails t unless there is exactly one.
func withoutFinding(t *testing.T, out, start, words string) string {
	t.Helper()
	var kept []string
	n := 0
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(l, start) && strings.Contains(l, words) {
			n++
			continue
		}
		kept = append(kept, l)
	}
	if n != 1 {
		t.Errorf("%d lines starting %q with %q in\n%s", n, start, words, out)
	}
	return strings.Join(kept, "")
}

// mcpLogFiles returns the MCP logs of ../shared: the corpus and
// reference/mcp-logs.
func mcpLogFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{shared.Dir(t, "corpus", "mcp-sessions"), shared.Dir(t, "reference", "mcp-logs")} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return err
		})
	}
	return files
}

// TestValidateMCPMatchesSchema: on every MCP log of ../shared of one
// session, validate --mcp (without the rules) gives exactly the findings and
// summary validate --schema gives with the schema of the version the log's
// handshake negotiated, or its requests' _meta names (by an independent
// reading); and for a log with neither, the version it says it inferred is
// one whose schema finds the fewest messages invalid, the newest of them.
func TestValidateMCPMatchesSchema(t *testing.T) {
	schemas := shared.Dir(t, "reference", "mcp-schema")
	files := mcpLogFiles(t)
	byVersion := map[string]int{}
	anything := filepath.Join(t.TempDir(), "anything.json")
	os.WriteFile(anything, []byte("{}"), 0o644)
	counted := map[[2]string]int{} // invalid's answers: each pair is validated once
	invalid := func(schemaFile, f string) int {
		if n, ok := counted[[2]string{schemaFile, f}]; ok {
			return n
		}
		_, out, _ := jrpcld(t, "", "validate", "-q", "--format", "json", "--schema", schemaFile, f)
		var sum struct {
			Summary struct{ Invalid int } `json:"summary"`
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if json.Unmarshal([]byte(lines[len(lines)-1]), &sum) != nil {
			t.Fatalf("%s: no summary: %s", f, out)
		}
		counted[[2]string{schemaFile, f}] = sum.Summary.Invalid
		return sum.Summary.Invalid
	}
	for _, f := range files {
		v, inits := logVersion(t, f)
		code2, out2, errOut := jrpcld(t, "", "validate", "-q", "--format", "json", "--mcp", "--mcp-rules=false", "--mcp-schemas", schemas, f)
		var reported []struct {
			V struct{ Version, Source string } `json:"mcpVersion"`
		}
		for _, l := range strings.Split(out2, "\n") {
			if strings.HasPrefix(l, `{"mcpVersion":`) {
				var r struct {
					V struct{ Version, Source string } `json:"mcpVersion"`
				}
				json.Unmarshal([]byte(l), &r)
				reported = append(reported, r)
			}
		}
		if inits > 1 || len(reported) != 1 {
			byVersion["several"]++
			continue // the versions of several sessions: TestValidateMCPVersions
		}
		got := reported[0].V
		if v == "" {
			// Inferred: no version's schema finds fewer invalid, and no
			// newer one as few.
			if got.Source != "inferred" {
				t.Errorf("%s: version %+v, want an inferred one", f, got)
			}
			best := invalid(filepath.Join(schemas, got.Version, "schema.json"), f)
			for _, other := range mcp.Released {
				n := invalid(filepath.Join(schemas, other.Name, "schema.json"), f)
				if n < best || n == best && other.Name > got.Version {
					t.Errorf("%s: inferred %s (%d invalid), but %s's schema finds %d", f, got.Version, best, other.Name, n)
				}
			}
			byVersion["inferred"]++
			continue
		}
		if got.Version != v {
			t.Errorf("%s: --mcp took %+v, the log says %s", f, got, v)
		}
		want := v
		schemaFile := filepath.Join(schemas, want, "schema.json")
		if _, err := os.Stat(schemaFile); err != nil {
			// No schema for the version: the JSON-RPC rules alone, as a
			// schema that takes anything leaves them.
			want = "none"
			schemaFile = anything
		}
		byVersion[want]++
		code1, out1, _ := jrpcld(t, "", "validate", "-q", "--format", "json", "--schema", schemaFile, f)
		if want == "none" {
			// The same findings, an error that the version has no schema
			// (first), and the messages valid by the JSON-RPC rules
			// counted unchecked: exit status 1.
			code1, out1 = cli.ExitInvalid, uncheckedOut(t, out1)
			out2 = withoutFinding(t, out2, `{"code":-32600,"file":`+strconv.Quote(f)+`,"index":`, `has no schema in `+schemas+`: `)
		}
		if code1 != code2 || out1 != withoutVersions(out2) {
			t.Errorf("%s (MCP %q): --mcp gives exit %d\n%s\n--schema %s gives exit %d (as expected of --mcp)\n%s", f, v, code2, out2, want, code1, out1)
		}
		if errOut != "" {
			t.Errorf("%s: standard error %q", f, errOut)
		}
	}
	var vs []string
	for v, n := range byVersion {
		vs = append(vs, fmt.Sprintf("%s %d", v, n))
	}
	sort.Strings(vs)
	t.Logf("%d logs by the schema they are checked with: %s", len(files), strings.Join(vs, ", "))
	if len(byVersion) < 5 || byVersion["inferred"] == 0 || byVersion["2026-07-28"] == 0 {
		t.Errorf("the logs use %d schemas (%v); want several, inferred and 2026-07-28's among them", len(byVersion), vs)
	}
}

// writeSchemas lays out a folder of MCP schemas: a copy of two versions of
// ../shared's.
func writeSchemas(t *testing.T, versions ...string) string {
	t.Helper()
	src := shared.Dir(t, "reference", "mcp-schema")
	dir := t.TempDir()
	for _, v := range versions {
		data, err := os.ReadFile(filepath.Join(src, v, "schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, v), 0o755)
		if err := os.WriteFile(filepath.Join(dir, v, "schema.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestValidateMCPVersions: each message takes the version of its session's
// handshake (the server's answer, else the client's request), else of its
// requests' _meta, else --mcp-version's, else the one inferred from the
// log's messages; the report says which and why; a version without a
// schema is one error at the line it comes from, the JSON-RPC rules alone
// apply to its messages, those they find valid are counted unchecked, and
// the exit status is 1, unless --mcp-version names the schema to check
// them against. Standard input is read as a file is.
func TestValidateMCPVersions(t *testing.T) {
	dir := writeSchemas(t, "2024-11-05", "2025-06-18")
	const (
		init2024   = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
		answer2024 = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`
		// Valid JSON-RPC; in 2025-06-18 a tool's title is allowed, in
		// 2024-11-05 a Tool has no "title" but allows other members, so
		// the difference shows with a CallToolResult's structuredContent
		// type instead: an array, which 2025-06-18 forbids.
		call   = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`
		result = `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":[1]}}`
		badRPC = `{"jsonrpc":"1.0","id":2,"method":"ping"}`
		meta   = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}`
	)
	v2025 := func(s string) string { return strings.Replace(s, "2024-11-05", "2025-06-18", 1) }
	logs := map[string]string{
		"answered.jsonl":     init2024 + "\n" + answer2024 + "\n" + call + "\n" + result + "\n",
		"asked.jsonl":        v2025(init2024) + "\n" + call + "\n" + result + "\n",
		"none.jsonl":         call + "\n" + result + "\n",
		"meta.jsonl":         meta + "\n" + result + "\n",
		"sessions.jsonl":     init2024 + "\n" + answer2024 + "\n" + call + "\n" + result + "\n" + v2025(init2024) + "\n" + v2025(answer2024) + "\n" + call + "\n" + result + "\n",
		"unknown.jsonl":      strings.Replace(init2024, "2024-11-05", "2099-01-01", 1) + "\n" + call + "\n" + result + "\n" + badRPC + "\n",
		"version-path.jsonl": strings.Replace(init2024, "2024-11-05", "../2024-11-05", 1) + "\n" + call + "\n" + result + "\n",
	}
	paths := map[string]string{}
	tmp := t.TempDir()
	for name, text := range logs {
		paths[name] = filepath.Join(tmp, name)
		os.WriteFile(paths[name], []byte(text), 0o644)
	}
	for _, c := range []struct {
		name   string
		extra  []string
		code   int
		out    []string // in the report
		notOut string
		errOut string
	}{
		{"answered.jsonl", nil, 0, []string{"answered.jsonl:1: MCP 2024-11-05 for 4 messages: the server's answer to initialize, line 2\n", "4 messages: 4 valid"}, "", ""},
		{"asked.jsonl", nil, 1, []string{"asked.jsonl:1: MCP 2025-06-18 for 3 messages: the client's initialize request, line 1: the log has no answer to it\n", "asked.jsonl:3: -32600 response"}, "", ""},
		{"none.jsonl", nil, 0, []string{"none.jsonl:1: MCP 2024-11-05 for 2 messages: inferred: no initialize handshake and no _meta version; the schema of 2024-11-05 accepts all 2 messages\n", "2 messages: 2 valid"}, "", ""},
		{"none.jsonl", []string{"--mcp-version", "2025-06-18"}, 1, []string{"none.jsonl:1: MCP 2025-06-18 for 2 messages: given with --mcp-version", "none.jsonl:2: -32600 response"}, "", ""},
		{"meta.jsonl", nil, 1, []string{"meta.jsonl:1: MCP 2025-06-18 for 2 messages: the io.modelcontextprotocol/protocolVersion of the requests' _meta, from line 1\n", "meta.jsonl:2: -32600 response"}, "", ""},
		{"sessions.jsonl", nil, 1, []string{"sessions.jsonl:1: MCP 2024-11-05 for 4 messages, session 1: the server's answer to initialize, line 2\n",
			"sessions.jsonl:5: MCP 2025-06-18 for 4 messages, session 2: the server's answer to initialize, line 6\n", "sessions.jsonl:8: -32600 response", "8 messages: 7 valid, 1 invalid"}, "sessions.jsonl:4:", ""},
		{"unknown.jsonl", nil, 1, []string{`unknown.jsonl:1: -32600 request: MCP "2099-01-01" (the client's initialize request, line 1: the log has no answer to it) has no schema in ` + dir + `: the 4 messages of its session were checked against the JSON-RPC 2.0 rules only`,
			"give --mcp-version VERSION to check them against that version's schema (there are 2024-11-05, 2025-06-18) (at /params/protocolVersion)\n",
			`unknown.jsonl:4: -32600 invalid: "jsonrpc" must be the string "2.0"`, "4 messages: 0 valid, 1 invalid (invalid 1), 3 unchecked (no schema for their MCP version)\n"}, "structuredContent", ""},
		// --mcp-version chooses the schema: 2025-06-18's finds the result's
		// structuredContent wrong.
		{"unknown.jsonl", []string{"--mcp-version", "2025-06-18"}, 1, []string{`unknown.jsonl:1: MCP 2099-01-01 for 4 messages: the client's initialize request, line 1: the log has no answer to it; no schema for it: checked against MCP 2025-06-18's, given with --mcp-version`,
			"unknown.jsonl:3: -32600 response", "4 messages: 2 valid, 2 invalid (response 1, invalid 1)\n"}, "unchecked", ""},
		{"version-path.jsonl", nil, 1, []string{"has no schema in", "3 messages: 0 valid, 0 invalid, 3 unchecked"}, "", ""},
		{"version-path.jsonl", []string{"--mcp-version", "2024-11-05"}, 0, []string{"3 messages: 3 valid, 0 invalid\n"}, "no schema in", ""},
	} {
		args := append([]string{"validate", "-q", "--mcp", "--mcp-rules=false", "--mcp-schemas", dir}, c.extra...)
		code, out, errOut := jrpcld(t, "", append(args, paths[c.name])...)
		for _, w := range c.out {
			if !strings.Contains(out, w) {
				t.Errorf("%s %v: %q not in\n%s", c.name, c.extra, w, out)
			}
		}
		if code != c.code || (c.notOut != "" && strings.Contains(out, c.notOut)) {
			t.Errorf("%s %v: exit %d (want %d)\n%s", c.name, c.extra, code, c.code, out)
		}
		if c.errOut == "" && errOut != "" || !strings.Contains(errOut, c.errOut) {
			t.Errorf("%s %v: stderr %q, want %q", c.name, c.extra, errOut, c.errOut)
		}
		// The same log on standard input.
		code2, out2, errOut2 := jrpcld(t, logs[c.name], args...)
		if code2 != code || strings.ReplaceAll(out2, "stdin", paths[c.name]) != out || strings.ReplaceAll(errOut2, "stdin", paths[c.name]) != errOut {
			t.Errorf("%s on stdin: exit %d\n%s%s", c.name, code2, out2, errOut2)
		}
	}
}

// TestValidateMCPUsage: --mcp goes with no other schema; its flags need it;
// without schemas in the cache, the error says how to fetch them.
func TestValidateMCPUsage(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--mcp", "--schema", "x.json"}, "give --mcp or --schema, --bblock or --definition, not both"},
		{[]string{"--mcp-version", "2025-06-18"}, "--mcp-schemas and --mcp-version go with --mcp"},
		{[]string{"--mcp", "--mcp-version", "latest", "--mcp-schemas", "."}, `--mcp-version "latest": want a version such as`},
		{[]string{"--mcp"}, `fetch them with "jrpcld fetch mcp-schemas", or give --mcp-schemas DIR`},
		{[]string{"--mcp", "--mcp-schemas", "."}, "holds no MCP schema (VERSION/schema.json)"},
	} {
		code, _, errOut := jrpcld(t, "", append([]string{"validate"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, errOut, c.want)
		}
	}
	code, _, errOut := jrpcld(t, "", "stats", "--mcp", "--bblock", ".")
	if code != cli.ExitUsage || !strings.Contains(errOut, "give --mcp or --schema or --bblock, not both") {
		t.Errorf("stats: exit %d, %q", code, errOut)
	}
}

// TestStatsMCP: stats --mcp counts the problems validate --mcp finds, with
// the schema of the version each log negotiated, and says which on
// standard error; with the rules, it counts theirs too.
func TestStatsMCP(t *testing.T) {
	schemas := shared.Dir(t, "reference", "mcp-schema")
	log := shared.Dir(t, "reference", "mcp-logs", "agent-vcr", "calculator-errors.dir.jsonl")
	v, _ := logVersion(t, log)
	code1, out1, _ := jrpcld(t, "", "stats", "-q", "--format", "json", "--schema", filepath.Join(schemas, v, "schema.json"), log)
	code2, out2, errOut := jrpcld(t, "", "stats", "-q", "--format", "json", "--mcp", "--mcp-rules=false", "--mcp-schemas", schemas, log)
	if v != "2024-11-05" || code1 != code2 || out1 != out2 || !strings.Contains(errOut, "MCP 2024-11-05 for 10 messages: the server's answer to initialize, line 2") {
		t.Errorf("version %s; --schema: %d %s\n--mcp: %d %s %s", v, code1, out1, code2, out2, errOut)
	}
	// The log's client sends tools/list before notifications/initialized.
	code3, out3, _ := jrpcld(t, "", "stats", "-q", "--format", "json", "--mcp", "--mcp-schemas", schemas, log)
	if code3 != cli.ExitInvalid || !strings.Contains(out3, "mcp-lifecycle-initialized") {
		t.Errorf("with the rules: exit %d %s", code3, out3)
	}
}
