package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// findingsSession is a session of MCP 2025-06-18 that sends a batch (line
// 4) whose second member reuses the id of initialize, and answers an id
// no request has (line 5).
var findingsSession = strings.Join([]string{
	`{"dir":"c2s","session":"A","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}`,
	`{"dir":"s2c","session":"A","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}`,
	`{"dir":"c2s","session":"A","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}`,
	`{"dir":"c2s","session":"A","msg":[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":0,"method":"ping"}]}`,
	`{"dir":"s2c","session":"A","msg":{"jsonrpc":"2.0","id":9,"result":{}}}`,
}, "\n") + "\n"

// TestRDFMCPFindings: with --mcp, turtle and rdf write each MCP rule
// finding into the graph, linked from its message (a batch member's from
// the member), from a file and from standard input; the rest of the graph
// is the one without --mcp, which has no finding.
func TestRDFMCPFindings(t *testing.T) {
	schemas := shared.Dir(t, "reference", "mcp-schema")
	dir := t.TempDir()
	log := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(log, []byte(findingsSession), 0o644); err != nil {
		t.Fatal(err)
	}
	const base = "http://example.com/s"
	code, plain, errOut := jrpcld(t, "", "rdf", "-q", "-f", "ntriples", "--base", base, log)
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("without --mcp: exit %d: %s", code, errOut)
	}
	without, err := rdftest.ParseNTriples([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range without {
		if tr.P == rdf.JLogFinding {
			t.Fatalf("a finding without --mcp: %v", tr)
		}
	}
	for _, x := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"turtle, a file", "", []string{"turtle", "--mcp", "--mcp-schemas", schemas, "--base", base, log}},
		{"rdf, standard input", findingsSession, []string{"rdf", "-f", "ntriples", "--mcp", "--mcp-schemas", schemas, "--base", base, "-"}},
	} {
		t.Run(x.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, x.stdin, x.args...)
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(errOut, "MCP 2025-06-18 for 5 messages") {
				t.Errorf("no version notice: %q", errOut)
			}
			ts := rdftest.Rapper(t, []byte(out), "")
			finding := map[rdf.Term]bool{}
			for _, tr := range ts {
				if tr.P == rdf.RDFType && tr.O.Value == rdf.JLogFindingClass {
					finding[tr.S] = true
				}
			}
			var got, rest []rdf.Triple
			var found []string
			for _, tr := range ts {
				switch {
				case tr.P == rdf.JLogFinding:
					got = append(got, tr)
					for _, r := range ts {
						if r.S == tr.O && r.P == rdf.JLogRule {
							found = append(found, strings.TrimPrefix(tr.S.Value, base+"#")+" "+r.O.Value)
						}
					}
				case finding[tr.S]:
				default:
					rest = append(rest, tr)
				}
			}
			slices.Sort(found)
			want := []string{"c2s-4 mcp-batch-removed", "c2s-4.1 mcp-request-id-reused", "s2c-5 mcp-response-unmatched"}
			if !slices.Equal(found, want) {
				t.Errorf("findings %v, want %v", found, want)
			}
			if len(got) != len(want) {
				t.Errorf("%d jlog:finding links, want one per finding (%d)", len(got), len(want))
			}
			if ok, why := rdftest.Isomorphic(rest, without); !ok {
				t.Errorf("besides its findings, the graph differs from the one without --mcp: %s", why)
			}
		})
	}
}

// TestRDFMCPUsage: the MCP flags' mistakes are exit 2 with one clear line.
func TestRDFMCPUsage(t *testing.T) {
	schemas := shared.Dir(t, "reference", "mcp-schema")
	for _, x := range []struct {
		args []string
		want string
	}{
		{[]string{"turtle", "--mcp-version", "2025-06-18"}, "--mcp-schemas and --mcp-version go with --mcp"},
		{[]string{"rdf", "--mcp", "--mcp-schemas", schemas, "--push", "http://127.0.0.1:1/store"}, "--mcp and --push exclude one another"},
		{[]string{"turtle", "--mcp", "--mcp-schemas", "."}, "holds no MCP schema (VERSION/schema.json)"},
	} {
		code, _, errOut := jrpcld(t, "", append(x.args, "-")...)
		if code != cli.ExitUsage || !strings.Contains(errOut, x.want) {
			t.Errorf("%v: exit %d, %q; want %q", x.args, code, errOut, x.want)
		}
	}
}

// TestValidateMCPSessions: in a log of two interleaved envelope sessions
// of different versions, validate --mcp says each session's version with
// its id (text and JSON), and finds the batch of the version without
// batches only.
func TestValidateMCPSessions(t *testing.T) {
	schemas := shared.Dir(t, "reference", "mcp-schema")
	line := func(session, dir, msg string) string {
		return `{"dir":"` + dir + `","session":"` + session + `","msg":` + msg + `}`
	}
	init := func(v string) string {
		return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	}
	answer := func(v string) string {
		return `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"` + v + `","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`
	}
	const initialized, ping, pong = `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `{"jsonrpc":"2.0","id":1,"result":{}}`
	log := filepath.Join(t.TempDir(), "two.jsonl")
	text := strings.Join([]string{
		line("A", "c2s", init("2025-06-18")), line("B", "c2s", init("2025-03-26")),
		line("A", "s2c", answer("2025-06-18")), line("B", "s2c", answer("2025-03-26")),
		line("A", "c2s", initialized), line("B", "c2s", initialized),
		line("B", "c2s", ping), line("A", "c2s", ping),
		line("A", "s2c", pong), line("B", "s2c", pong),
	}, "\n") + "\n"
	if err := os.WriteFile(log, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := jrpcld(t, "", "validate", "--mcp", "--mcp-schemas", schemas, log)
	want := []string{
		log + `:1: MCP 2025-06-18 for 5 messages, session 1 ("A"): the server's answer to initialize, line 3`,
		log + `:2: MCP 2025-03-26 for 5 messages, session 2 ("B"): the server's answer to initialize, line 4`,
		log + `:8: batch: a batch of 1 message: MCP 2025-06-18 has no batches, each message travels alone (rule mcp-batch-removed, https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#sending-messages-to-the-server)`,
		`1 file, 10 messages: 9 valid, 1 invalid (batch 1)`,
	}
	if got := strings.Split(out, "\n"); code != cli.ExitInvalid || errOut != "" || len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("exit %d, stderr %q:\n%s\nwant first lines:\n%s", code, errOut, out, strings.Join(want, "\n"))
	}
	_, out, _ = jrpcld(t, "", "validate", "--format", "json", "--mcp", "--mcp-schemas", schemas, log)
	var got []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct {
			MCPVersion map[string]any `json:"mcpVersion"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if v.MCPVersion != nil {
			got = append(got, map[string]any{"session": v.MCPVersion["session"], "sessionId": v.MCPVersion["sessionId"], "version": v.MCPVersion["version"]})
		}
	}
	wantJSON := []map[string]any{
		{"session": 1.0, "sessionId": "A", "version": "2025-06-18"},
		{"session": 2.0, "sessionId": "B", "version": "2025-03-26"},
	}
	if !reflect.DeepEqual(got, wantJSON) {
		t.Errorf("mcpVersion lines %v, want %v", got, wantJSON)
	}
}
