package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/everything"
	"github.com/jrpcld/jrpcld/internal/testkit/mcptoy"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// logLines reads a log jrpcld record wrote: its envelopes' directions and
// messages, by encoding/json.
func logLines(t *testing.T, path string) (dirs []string, msgs []map[string]any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var e struct {
			Dir string         `json:"dir"`
			TS  string         `json:"ts"`
			Msg map[string]any `json:"msg"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.TS == "" {
			t.Fatalf("log line %q: %v", l, err)
		}
		dirs = append(dirs, e.Dir)
		msgs = append(msgs, e.Msg)
	}
	return dirs, msgs
}

// TestRecordStdio: jrpcld record runs the server in its place: what the
// client writes reaches it, what it answers comes out, the log holds both,
// and its exit status is jrpcld's.
func TestRecordStdio(t *testing.T) {
	t.Setenv(mcptoy.Env, "1") // the server is this test binary, as the toy
	log := filepath.Join(t.TempDir(), "s.jsonl")
	in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"toy/exit","params":{"code":5}}` + "\n"
	code, out, errOut := jrpcld(t, in, "record", "-o", log, "--", os.Args[0], "-test.run=^$")
	if code != 5 {
		t.Fatalf("exit %d, want the server's 5; stderr %q", code, errOut)
	}
	if !strings.Contains(errOut, "toy: ready") {
		t.Errorf("the server's standard error did not pass: %q", errOut)
	}
	if n := strings.Count(out, "\n"); n != 2 || !strings.Contains(out, `"protocolVersion":"2025-11-25"`) {
		t.Errorf("the client got %q", out)
	}
	// The client's lines in their order, the server's in theirs: the two
	// streams pass at once.
	dirs, msgs := logLines(t, log)
	var c2s, s2c []any
	for i, m := range msgs {
		if dirs[i] == "c2s" {
			c2s = append(c2s, m["method"])
		} else {
			s2c = append(s2c, m["id"])
		}
	}
	if fmt.Sprint(c2s) != "[initialize ping toy/exit]" || fmt.Sprint(s2c) != "[0 1]" {
		t.Errorf("log: %v %v", dirs, msgs)
	}
	// The log is one validate reads as a session.
	if code, out, _ := jrpcld(t, "", "validate", "-q", log); code != cli.ExitOK || !strings.Contains(out, "5 messages: 5 valid") {
		t.Errorf("validate: exit %d %s", code, out)
	}
}

// TestRecordUsage: a server that is not there is exit status 127; the
// flags that do not go together are usage errors.
func TestRecordUsage(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := jrpcld(t, "", "record", "-o", filepath.Join(dir, "l.jsonl"), "--", filepath.Join(dir, "no-such-server"))
	if code != 127 || !strings.Contains(errOut, "no-such-server") {
		t.Errorf("a missing server: exit %d, %q", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "give the server to run"},
		{[]string{"-o", "-", "--", "cat"}, "standard output carries the server's messages"},
		{[]string{"--listen", "127.0.0.1:0"}, "give --listen and --upstream together"},
		{[]string{"--listen", "127.0.0.1:0", "--upstream", "http://h/mcp", "cat"}, "not both"},
		{[]string{"--listen", "127.0.0.1:0", "--upstream", "ftp://h/"}, "want an http:// or https:// URL"},
		{[]string{"-o", filepath.Join(dir, "none", "l.jsonl"), "cat"}, "no such file or directory"},
	} {
		code, _, errOut := jrpcld(t, "", append([]string{"record"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, errOut, c.want)
		}
	}
	// A server's own flags after its name are not jrpcld's.
	t.Setenv(mcptoy.Env, "1")
	log := filepath.Join(dir, "flags.jsonl")
	if code, _, errOut := jrpcld(t, "", "record", "-o", log, os.Args[0], "-test.run=^$", "--listen", "x"); code != 0 {
		t.Errorf("flags after CMD: exit %d, %q", code, errOut)
	}
}

// TestRecordServerEverything: a session of the reference MCP server
// (@modelcontextprotocol/server-everything) over stdio, recorded, is a log
// every message of which is valid against the schema of the version it
// negotiated.
func TestRecordServerEverything(t *testing.T) {
	bin := everything.Bin(t)
	schemas := shared.Dir(t, "reference", "mcp-schema")
	log := filepath.Join(t.TempDir(), "everything.jsonl")
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"jrpcld-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}, "\n") + "\n"
	code, out, errOut := jrpcld(t, in, "record", "-o", log, "--", bin, "stdio")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dirs, msgs := logLines(t, log)
	answered := map[float64]bool{}
	for i, m := range msgs {
		if id, ok := m["id"].(float64); ok && dirs[i] == "s2c" {
			answered[id] = true
		}
	}
	if len(answered) != 4 || !strings.Contains(out, "Echo: hi") {
		t.Fatalf("answers to %v; the client got %s", answered, out)
	}
	// The client sends every line at once, without waiting for the
	// answer to initialize, which the MCP rules report: the recorded
	// messages are what is checked here.
	code, vout, verr := jrpcld(t, "", "validate", "--mcp", "--mcp-rules=false", "--mcp-schemas", schemas, log)
	if code != cli.ExitOK || verr != "" {
		t.Errorf("validate --mcp: exit %d\n%s%s", code, vout, verr)
	}
	t.Logf("%d messages recorded: %s", len(msgs), strings.TrimSpace(vout))
}

// startRecorder runs "jrpcld record --listen 127.0.0.1:0 --upstream
// upstream -o log" as a process and returns the URL it listens on and a
// function that interrupts it and returns its exit status and standard
// error.
func startRecorder(t *testing.T, upstream, log string) (string, func() (int, string)) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "record", "--listen", "127.0.0.1:0", "--upstream", upstream, "-o", log)
	cmd.Env = append(os.Environ(), "JRPCLD_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(stderr)
	first, err := br.ReadString('\n')
	m := regexp.MustCompile(`recording (http://127\.0\.0\.1:[0-9]+)/ -> `).FindStringSubmatch(first)
	if err != nil || m == nil {
		cmd.Process.Kill()
		t.Fatalf("the recorder said %q (%v)", first, err)
	}
	var rest bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&rest, br); close(done) }()
	return m[1], func() (int, string) {
		cmd.Process.Signal(syscall.SIGINT)
		<-done
		cmd.Wait()
		return cmd.ProcessState.ExitCode(), first + rest.String()
	}
}

// post sends a message to an MCP endpoint and returns the response's
// session id and body; an answer other than 2xx ends the test.
func post(t *testing.T, url, sid, msg string) (string, string) {
	t.Helper()
	code, session, body := mcptoy.Send(t, mcptoy.Exchange{Method: "POST", URL: url, Body: msg, Session: sid, Version: "2025-06-18"})
	if code >= 300 {
		t.Fatalf("POST %s: %d %s %s", msg, code, http.StatusText(code), body)
	}
	return session, body
}

// TestRecordHTTP: jrpcld record --listen records a Streamable HTTP session
// of the toy server through the proxy, and stops on an interrupt.
func TestRecordHTTP(t *testing.T) {
	upstream := httptest.NewServer(mcptoy.Handler())
	defer upstream.Close()
	log := filepath.Join(t.TempDir(), "http.jsonl")
	base, stop := startRecorder(t, upstream.URL+"/mcp", log)
	sid, _ := post(t, base+"/mcp", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	post(t, base+"/mcp", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := post(t, base+"/mcp", sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"over http"}}}`)
	if !strings.Contains(body, "event: message") || !strings.Contains(body, "Echo: over http") {
		t.Errorf("the SSE answer: %q", body)
	}
	code, errOut := stop()
	if code != 0 {
		t.Errorf("exit %d after an interrupt: %s", code, errOut)
	}
	dirs, msgs := logLines(t, log)
	if strings.Join(dirs, " ") != "c2s s2c c2s c2s s2c s2c" || msgs[5]["result"] == nil {
		t.Errorf("log %v %v", dirs, msgs)
	}
}

// TestRecordHTTPServerEverything: the same through the reference server's
// own Streamable HTTP transport, which answers in SSE streams: the log is
// valid against the negotiated version's schema.
func TestRecordHTTPServerEverything(t *testing.T) {
	schemas := shared.Dir(t, "reference", "mcp-schema")
	upstream := everything.StartHTTP(t).String()
	log := filepath.Join(t.TempDir(), "everything-http.jsonl")
	base, stop := startRecorder(t, upstream, log)
	sid, _ := post(t, base+"/mcp", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"jrpcld-test","version":"1"}}}`)
	if sid == "" {
		t.Fatal("no session id")
	}
	post(t, base+"/mcp", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	post(t, base+"/mcp", sid, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	_, body := post(t, base+"/mcp", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)
	if !strings.Contains(body, "Echo: hi") {
		t.Errorf("tools/call answered %q", body)
	}
	if code, errOut := stop(); code != 0 {
		t.Errorf("exit %d: %s", code, errOut)
	}
	dirs, _ := logLines(t, log)
	if s2c := strings.Count(strings.Join(dirs, " "), "s2c"); s2c < 3 {
		t.Errorf("%d messages of the server in the log: %v", s2c, dirs)
	}
	code, vout, verr := jrpcld(t, "", "validate", "--mcp", "--mcp-schemas", schemas, log)
	if code != cli.ExitOK || verr != "" {
		t.Errorf("validate --mcp: exit %d\n%s%s", code, vout, verr)
	}
	t.Logf("%s", strings.TrimSpace(vout))
}

// TestImport: jrpcld import converts a published agent-vcr recording into
// a log validate --mcp reads; a wrong --from says which format it wanted.
func TestImport(t *testing.T) {
	vcr := shared.Dir(t, "reference", "mcp-logs", "agent-vcr", "calculator-errors.vcr")
	schemas := shared.Dir(t, "reference", "mcp-schema")
	log := filepath.Join(t.TempDir(), "vcr.jsonl")
	if code, _, errOut := jrpcld(t, "", "import", "--from", "vcr", "-o", log, vcr); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The cassette has no notifications/initialized, which the MCP rules
	// report: the imported messages are what is checked here.
	code, out, errOut := jrpcld(t, "", "validate", "--mcp", "--mcp-rules=false", "--mcp-schemas", schemas, log)
	if code != cli.ExitOK || !strings.Contains(out, "10 messages: 10 valid") || errOut != "" {
		t.Errorf("validate --mcp: exit %d\n%s%s", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{vcr}, "give the recording's format: --from inspector, mcp-recorder or vcr"},
		{[]string{"--from", "har", vcr}, `unknown format "har"`},
		{[]string{"--from", "inspector", vcr}, "not an MCP Inspector export (a JSON array of its history or network log entries): want a JSON array (at /); is --from inspector right?"},
		{[]string{"--from", "vcr"}, "give one FILE"},
	} {
		code, _, errOut := jrpcld(t, "", append([]string{"import"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, errOut, c.want)
		}
	}
}

// toyCmd is the command line that runs this test binary as the toy MCP
// server, through env(1), so that jrpcld itself, run as a process, is not
// the toy.
func toyCmd() []string {
	return []string{"env", mcptoy.Env + "=1", os.Args[0], "-test.run=^$"}
}

// TestRecordKeepsEarlierLog: an existing LOG is left as it was, byte for
// byte, by a server that cannot start and by a session in which nothing
// passes (and no LOG is created then); the first message replaces it
// whole.
func TestRecordKeepsEarlierLog(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "s.jsonl")
	var earlier strings.Builder
	for i := range 29 {
		fmt.Fprintf(&earlier, `{"dir":"c2s","ts":"2026-11-20T09:00:00.000Z","msg":{"jsonrpc":"2.0","id":%d,"method":"ping"}}`+"\n", i)
	}
	if err := os.WriteFile(log, []byte(earlier.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	unchanged := func(what string) {
		t.Helper()
		if data, err := os.ReadFile(log); err != nil || string(data) != earlier.String() {
			t.Errorf("%s: the earlier LOG is now %d bytes (%v), not its %d", what, len(data), err, earlier.Len())
		}
	}
	if code, _, errOut := jrpcld(t, "", "record", "-o", log, "--", filepath.Join(dir, "no-such-server")); code != 127 {
		t.Errorf("a missing server: exit %d, %q", code, errOut)
	}
	unchanged("a missing server")
	if code, _, errOut := jrpcld(t, "", append([]string{"record", "-o", log, "--"}, toyCmd()...)...); code != 0 {
		t.Errorf("a silent session: exit %d, %q", code, errOut)
	}
	unchanged("a session with no message")
	fresh := filepath.Join(dir, "new.jsonl")
	jrpcld(t, "", "record", "-o", fresh, "--", filepath.Join(dir, "no-such-server"))
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing server created %s (%v)", fresh, err)
	}
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	if code, _, errOut := jrpcld(t, in, append([]string{"record", "-o", log, "--"}, toyCmd()...)...); code != 0 {
		t.Fatalf("a session: exit %d, %q", code, errOut)
	}
	if dirs, msgs := logLines(t, log); strings.Join(dirs, " ") != "c2s s2c" || msgs[1]["id"] != 1.0 {
		t.Errorf("the new LOG: %v %v", dirs, msgs)
	}
}

// TestRecordKilled: jrpcld record killed with SIGKILL leaves in LOG every
// message that passed; killed before any, it leaves an earlier LOG as it
// was.
func TestRecordKilled(t *testing.T) {
	for _, messages := range []int{0, 3} {
		t.Run(fmt.Sprint(messages, " messages"), func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "s.jsonl")
			const earlier = `{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"earlier"}}` + "\n"
			if err := os.WriteFile(log, []byte(earlier), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], append([]string{"record", "-o", log, "--"}, toyCmd()...)...)
			cmd.Env = append(os.Environ(), "JRPCLD_TEST_MAIN=1")
			in, _ := cmd.StdinPipe()
			outPipe, _ := cmd.StdoutPipe()
			stderr, _ := cmd.StderrPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The server's standard error passes through jrpcld: it is
			// running once the toy says so.
			if line, err := bufio.NewReader(stderr).ReadString('\n'); err != nil || !strings.Contains(line, "toy: ready") {
				t.Fatalf("stderr %q, %v", line, err)
			}
			out := bufio.NewReader(outPipe)
			for i := range messages {
				fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
				if _, err := out.ReadString('\n'); err != nil {
					t.Fatal(err)
				}
			}
			cmd.Process.Kill()
			cmd.Wait()
			in.Close()
			if messages == 0 {
				if data, _ := os.ReadFile(log); string(data) != earlier {
					t.Errorf("the earlier LOG is now %q", data)
				}
				return
			}
			if dirs, _ := logLines(t, log); len(dirs) != 2*messages {
				t.Errorf("after SIGKILL, LOG holds %d messages, want %d", len(dirs), 2*messages)
			}
		})
	}
}

// TestRecordMaxMessage: a server line longer than --max-message reaches
// the client unchanged and is logged cut, with a warning; validate reports
// it as a message the log does not hold, and exits 1.
func TestRecordMaxMessage(t *testing.T) {
	log := filepath.Join(t.TempDir(), "s.jsonl")
	in := `{"jsonrpc":"2.0","id":1,"method":"toy/big","params":{"size":100000}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"
	code, out, errOut := jrpcld(t, in, append([]string{"record", "--max-message", "4096", "-o", log, "--"}, toyCmd()...)...)
	if code != 0 || !strings.Contains(errOut, "a message of 100046 bytes from the server is longer than the log's limit of 4096 bytes: it passed unchanged; the log keeps its length and first 512 bytes (--max-message)") {
		t.Errorf("exit %d, %q", code, errOut)
	}
	want := `{"id":1,"jsonrpc":"2.0","result":{"text":"` + strings.Repeat("x", 100000) + `"}}` + "\n" + `{"id":2,"jsonrpc":"2.0","result":{}}` + "\n"
	if out != want {
		t.Errorf("the client got %d bytes, want %d", len(out), len(want))
	}
	code, vout, _ := jrpcld(t, "", "validate", log)
	if code != cli.ExitInvalid || !strings.Contains(vout, "s.jsonl:3: -32700 invalid: a message of 100046 bytes was too long to log (jrpcld record --max-message): the log keeps only its first 512 bytes, as a string") {
		t.Errorf("validate: exit %d\n%s", code, vout)
	}
	if code, _, errOut := jrpcld(t, "", "record", "--max-message", "100", "--", "cat"); code != cli.ExitUsage || !strings.Contains(errOut, "--max-message must be at least 1024 bytes, not 100") {
		t.Errorf("--max-message 100: exit %d, %q", code, errOut)
	}
}

// TestRecordNotUTF8: a client and a server that write Latin-1 ("é" as byte
// 0xe9, which is not UTF-8): a message with it in a string, and a line of
// text. Each line reaches the other side unchanged and is in the log, in
// its order, with its exact bytes; every reader takes the log: validate
// reports each such line as not JSON at the offset of its byte 0xe9 and
// the messages around it as valid, stats counts them, and the graph of
// turtle gives every line back from json byte for byte, and the log's
// envelopes from json --envelope (issue 37, item 1).
func TestRecordNotUTF8(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "latin1.jsonl")
	client := []string{
		`{"jsonrpc":"2.0","method":"notifications/caf` + "\xe9" + `"}`,
		`{"jsonrpc":"2.0","id":1,"method":"toy/latin1"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
	}
	code, out, errOut := jrpcld(t, strings.Join(client, "\n")+"\n", append([]string{"record", "-o", log, "--"}, toyCmd()...)...)
	server := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(server) != 3 || server[0] != "toy: caf\xe9 au lait" || server[1] != `{"jsonrpc":"2.0","id":1,"result":{"text":"caf`+"\xe9"+`"}}` {
		t.Fatalf("exit %d, the client got %q; stderr %q", code, out, errOut)
	}

	// The log, read with encoding/json: each side's lines in order, the
	// bytes of those that are not UTF-8 exact.
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	logLines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	sent := map[string][]string{}
	var texts []string // each line's message: its bytes, or its JSON text
	var notUTF8 []int  // the lines (from 1) that hold bytes
	for i, l := range logLines {
		var e struct {
			Dir, TS string
			Msg     json.RawMessage
			Bytes   []byte // standard base64, as encoding/json reads []byte
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.TS == "" || (e.Bytes == nil) == (e.Msg == nil) {
			t.Fatalf("log line %d %q: %v", i+1, l, err)
		}
		text := string(e.Msg)
		if e.Bytes != nil {
			text = string(e.Bytes)
			notUTF8 = append(notUTF8, i+1)
		}
		sent[e.Dir] = append(sent[e.Dir], text)
		texts = append(texts, text)
	}
	for dir, want := range map[string][]string{"c2s": client, "s2c": server} {
		got := sent[dir]
		if len(got) != len(want) || got[0] != want[0] || !jsonLinesEqual(t, strings.Join(got[1:], "\n"), strings.Join(want[1:], "\n")) {
			t.Errorf("%s in the log: %q, want %q", dir, got, want)
		}
	}
	if dir := sent["s2c"]; len(dir) == 3 && dir[1] != server[1] {
		t.Errorf("the server's Latin-1 message is logged as %q, want %q", dir[1], server[1])
	}
	if len(notUTF8) != 3 {
		t.Fatalf("%d lines of the log hold bytes, want 3:\n%s", len(notUTF8), data)
	}

	// validate: each at its offset; the others valid.
	code, sum, vout := validateSummary(t, log)
	if code != cli.ExitInvalid || sum["valid"] != 3.0 || sum["invalid"] != 3.0 {
		t.Errorf("validate: exit %d, summary %v, want 3 valid and 3 invalid:\n%s", code, sum, vout)
	}
	for _, n := range notUTF8 {
		want := fmt.Sprintf(`"code":-32700,"file":%q,"index":%d,"kind":"invalid","line":%d,"message":"not JSON: byte 0xe9 at offset %d of the message is not UTF-8`,
			log, n-1, n, strings.IndexByte(texts[n-1], 0xe9))
		if !strings.Contains(vout, want) {
			t.Errorf("validate: no finding %s in\n%s", want, vout)
		}
	}

	// stats, of the log and of its graph; json, from the graph.
	type counts struct {
		Total struct {
			Validation struct{ Valid, Invalid int } `json:"validation"`
			Kinds      map[string]map[string]int    `json:"kinds"`
		} `json:"total"`
	}
	graph := filepath.Join(dir, "latin1.ttl")
	if code, _, errOut := jrpcld(t, "", "turtle", "-o", graph, log); code != cli.ExitOK || strings.Count(errOut, "kept as jlog:InvalidMessage with its exact bytes") != 3 {
		t.Fatalf("turtle: exit %d: %s", code, errOut)
	}
	for _, file := range []string{log, graph} {
		var st counts
		code, out, errOut := jrpcld(t, "", "stats", "--format", "json", file)
		if err := json.Unmarshal([]byte(out), &st); err != nil || st.Total.Validation.Valid != 3 || st.Total.Validation.Invalid != 3 ||
			st.Total.Kinds["invalid"]["c2s"] != 1 || st.Total.Kinds["invalid"]["s2c"] != 2 {
			t.Errorf("stats %s: exit %d, %+v (%v), want 3 valid, 3 invalid (1 c2s, 2 s2c): %s", file, code, st.Total, err, errOut)
		}
	}
	code, back, errOut := jrpcld(t, "", "json", graph)
	lines := strings.Split(strings.TrimSuffix(back, "\n"), "\n")
	if code != cli.ExitOK || len(lines) != len(texts) {
		t.Fatalf("json: exit %d, %d lines, want %d: %s", code, len(lines), len(texts), errOut)
	}
	code, backEnv, errOut := jrpcld(t, "", "json", "--envelope", graph)
	envs := strings.Split(strings.TrimSuffix(backEnv, "\n"), "\n")
	if code != cli.ExitOK || len(envs) != len(logLines) {
		t.Fatalf("json --envelope: exit %d, %d lines, want %d: %s", code, len(envs), len(logLines), errOut)
	}
	for i, text := range texts {
		if slices.Contains(notUTF8, i+1) {
			if lines[i] != text || envs[i] != logLines[i] {
				t.Errorf("line %d back from the graph: %q and %q, want %q and %q", i+1, lines[i], envs[i], text, logLines[i])
			}
		} else if !jsonLinesEqual(t, lines[i], text) || !jsonLinesEqual(t, envs[i], logLines[i]) {
			t.Errorf("line %d back from the graph: %s and %s, want %s and %s", i+1, lines[i], envs[i], text, logLines[i])
		}
	}
}
