package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// checkSARIF checks doc against what the SARIF 2.1.0 schema requires of a
// log (written here from the standard: version, runs, each run's tool and
// driver name, each result's message, level, rule and locations, each
// invocation's executionSuccessful) and returns its one run's results.
func checkSARIF(t *testing.T, doc []byte) (results []map[string]any, ruleIDs []string) {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal(doc, &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	if log["version"] != "2.1.0" {
		t.Errorf("version %v", log["version"])
	}
	if s, ok := log["$schema"].(string); ok {
		if u, err := url.Parse(s); err != nil || !u.IsAbs() {
			t.Errorf("$schema %q", s)
		}
	}
	runs, ok := log["runs"].([]any)
	if !ok || len(runs) != 1 {
		t.Fatalf("runs %v", log["runs"])
	}
	run, _ := runs[0].(map[string]any)
	tool, _ := run["tool"].(map[string]any)
	driver, _ := tool["driver"].(map[string]any)
	if name, _ := driver["name"].(string); name == "" {
		t.Errorf("driver %v", driver)
	}
	descs, _ := driver["rules"].([]any)
	seen := map[string]bool{}
	for _, d := range descs {
		d, _ := d.(map[string]any)
		id, _ := d["id"].(string)
		if id == "" || seen[id] {
			t.Errorf("rule id %q", id)
		}
		seen[id] = true
		ruleIDs = append(ruleIDs, id)
		if h, ok := d["helpUri"]; ok {
			if s, _ := h.(string); s == "" {
				t.Errorf("%s: helpUri %v", id, h)
			} else if u, err := url.Parse(s); err != nil || !u.IsAbs() {
				t.Errorf("%s: helpUri %q", id, s)
			}
		}
		if sd, ok := d["shortDescription"]; ok {
			if text, _ := sd.(map[string]any)["text"].(string); text == "" {
				t.Errorf("%s: shortDescription %v", id, sd)
			}
		}
	}
	for _, inv := range run["invocations"].([]any) {
		if _, ok := inv.(map[string]any)["executionSuccessful"].(bool); !ok {
			t.Errorf("invocation %v", inv)
		}
	}
	rs, ok := run["results"].([]any)
	if !ok {
		t.Fatalf("results %v", run["results"])
	}
	for _, r := range rs {
		r, _ := r.(map[string]any)
		results = append(results, r)
		if text, _ := r["message"].(map[string]any)["text"].(string); text == "" {
			t.Errorf("result without a message: %v", r)
		}
		switch r["level"] {
		case "none", "note", "warning", "error":
		default:
			t.Errorf("level %v", r["level"])
		}
		i, ok := r["ruleIndex"].(float64)
		if !ok || int(i) != int(i+0.5) || int(i) < 0 || int(i) >= len(ruleIDs) || ruleIDs[int(i)] != r["ruleId"] {
			t.Errorf("ruleId %v, ruleIndex %v of %v", r["ruleId"], r["ruleIndex"], ruleIDs)
		}
		for _, l := range r["locations"].([]any) {
			pl, _ := l.(map[string]any)["physicalLocation"].(map[string]any)
			uri, _ := pl["artifactLocation"].(map[string]any)["uri"].(string)
			if _, err := url.Parse(uri); err != nil || uri == "" || strings.Contains(uri, " ") {
				t.Errorf("uri %q", uri)
			}
			if reg, ok := pl["region"].(map[string]any); ok {
				if line, _ := reg["startLine"].(float64); line < 1 {
					t.Errorf("region %v", reg)
				}
			}
		}
	}
	return results, ruleIDs
}

// TestValidateSARIF: validate --format sarif gives a SARIF 2.1.0 log with
// one result for each finding --format json gives, with the same rule and
// line, the MCP rules' with their ids and the address of their section.
func TestValidateSARIF(t *testing.T) {
	schemas := shared.Dir(t, "reference", "mcp-schema")
	dir := t.TempDir()
	log := filepath.Join(dir, "a log.jsonl") // a space, which the URI escapes
	os.WriteFile(log, []byte(strings.Join([]string{
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}`,
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}`,
		`{"dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}`,
		`{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":"none"}}}`,
		`{"dir":"c2s","msg":[{"jsonrpc":"2.0","id":2,"method":"ping"}]}`,
		`{not json`,
	}, "\n")+"\n"), 0o644)
	args := []string{"validate", "-q", "--mcp", "--mcp-schemas", schemas}
	code, doc, errOut := jrpcld(t, "", append(args, "--format", "sarif", log)...)
	if code != cli.ExitInvalid || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	results, ids := checkSARIF(t, []byte(doc))
	_, lines, _ := jrpcld(t, "", append(args, "--format", "json", log)...)
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		var f struct {
			Line  int
			Rule  string
			Help  string
			Index *int
		}
		if json.Unmarshal([]byte(l), &f) != nil || f.Index == nil {
			continue // the summary, the version
		}
		want = append(want, f.Rule+"@"+f.Help)
	}
	var got []string
	for _, r := range results {
		id := r["ruleId"].(string)
		help, _ := r["properties"].(map[string]any)["help"].(string)
		if !strings.HasPrefix(id, "mcp-") {
			id = ""
		}
		got = append(got, id+"@"+help)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("SARIF results\n%s\nwant, as --format json\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, id := range []string{"mcp-lifecycle-client-waits-for-initialize", "mcp-lifecycle-initialized", "mcp-batch-removed", "schema", "json-parse-error"} {
		found := false
		for _, x := range ids {
			found = found || x == id
		}
		if !found {
			t.Errorf("no rule %s among %v", id, ids)
		}
	}
	if !strings.Contains(doc, `"uri": "file:///`) || !strings.Contains(doc, "a%20log.jsonl") ||
		!strings.Contains(doc, `"helpUri": "https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#initialization"`) {
		t.Errorf("locations or help:\n%s", doc)
	}
	// Nothing found: still a log, with no results.
	empty := filepath.Join(dir, "ping.jsonl")
	os.WriteFile(empty, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), 0o644)
	code, doc, _ = jrpcld(t, "", "validate", "--format", "sarif", empty)
	if results, _ := checkSARIF(t, []byte(doc)); code != cli.ExitOK || len(results) != 0 {
		t.Errorf("exit %d, %d results", code, len(results))
	}
}
