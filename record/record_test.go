package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/mcptoy"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/rpclog"
)

func TestMain(m *testing.M) {
	if os.Getenv(mcptoy.Env) == "1" {
		mcptoy.Main()
	}
	os.Exit(m.Run())
}

// toy returns the command that runs this test binary as the toy server.
func toy(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), mcptoy.Env+"=1"), env...)
	return cmd
}

// entry is one envelope line of a log, read back by rpclog.
type entry struct {
	dir jsonrpc.Direction
	ts  string
	msg any
}

// readLog reads a log back with rpclog, an independent reader of envelopes.
func readLog(t *testing.T, data []byte) []entry {
	t.Helper()
	r, err := rpclog.NewReader(bytes.NewReader(data), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []entry
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Err != nil {
			t.Fatalf("log line %d: %v\n%s", rec.Line, rec.Err, data)
		}
		out = append(out, entry{rec.Dir, rec.TS, plain(t, rec.Value)})
	}
	return out
}

// plain returns v as encoding/json decodes it.
func plain(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, string(b))
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %q", err, s)
	}
	return v
}

// TestLogForms: each text becomes one envelope line whose "msg" is the
// JSON value the text holds, written as sent (on one line), or the text
// as a string when it is not JSON; "ts" is the time in UTC, with
// milliseconds.
func TestLogForms(t *testing.T) {
	at := time.Date(2026, 11, 20, 9, 0, 1, 234567000, time.FixedZone("x", 3600))
	for _, c := range []struct {
		name, text string
		wantLine   string // the msg member exactly
	}{
		{"message", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"spelling kept", `{"b":2.0, "a":1E2}` + "\r\n", `{"b":2.0, "a":1E2}`},
		{"several lines", "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"m\"\n}", `{"jsonrpc":"2.0","method":"m"}`},
		{"batch", `[{"jsonrpc":"2.0","method":"a"}]`, `[{"jsonrpc":"2.0","method":"a"}]`},
		{"not JSON", "Server listening on stdio\n", `"Server listening on stdio\n"`},
		{"cut short", `{"jsonrpc":"2.0","id":1`, `"{\"jsonrpc\":\"2.0\",\"id\":1"`},
		{"not UTF-8", "ab\xffc", `"ab\ufffdc"`},
		{"html", "<b>&</b>", `"<b>&</b>"`},
		{"empty line", "\n", `"\n"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := NewLog(&buf)
			l.Now = func() time.Time { return at }
			if err := l.Record(jsonrpc.ServerToClient, []byte(c.text)); err != nil {
				t.Fatal(err)
			}
			want := `{"dir":"s2c","ts":"2026-11-20T08:00:01.234Z","msg":` + c.wantLine + "}\n"
			if buf.String() != want {
				t.Errorf("got  %s\nwant %s", buf.String(), want)
			}
			got := readLog(t, buf.Bytes())
			if len(got) != 1 || got[0].dir != jsonrpc.ServerToClient || got[0].ts != "2026-11-20T08:00:01.234Z" ||
				!reflect.DeepEqual(got[0].msg, decode(t, c.wantLine)) {
				t.Errorf("read back as %+v", got)
			}
		})
	}
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestLogError(t *testing.T) {
	l := NewLog(errWriter{})
	if err := l.Record(jsonrpc.ClientToServer, []byte("{}")); err == nil || l.Err() == nil {
		t.Fatal("no error")
	}
	if err := l.Record(jsonrpc.ClientToServer, []byte("{}")); err == nil {
		t.Error("the second call forgot the error")
	}
}

// session runs the toy with the client lines in, returning what the client
// got, the log, the server's standard error and the exit status.
func session(t *testing.T, in string, env ...string) (out, log, stderr string, code int, err error) {
	t.Helper()
	var o, l, e bytes.Buffer
	s := &Stdio{Cmd: toy(t, env...), In: strings.NewReader(in), Out: &o, Stderr: &e, Log: NewLog(&l)}
	code, err = s.Run()
	return o.String(), l.String(), e.String(), code, err
}

// lines splits text into lines, each with its line break.
func lines(s string) []string {
	return strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
}

// TestStdio: the client's lines reach the server and the server's reach
// the client unchanged; the log holds every line of both, in the order they
// passed, each read back with its direction (a line that is not JSON as a
// string); the server's standard error passes through; its exit status is
// returned.
func TestStdio(t *testing.T) {
	client := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hé"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"toy/banner"}`,
		`{"jsonrpc":"2.0", "id":3, "method":"ping"}`,
	}
	out, log, stderr, code, err := session(t, strings.Join(client, "\n")+"\n")
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v; stderr %s", code, err, stderr)
	}
	if !strings.Contains(stderr, "toy: ready") || !strings.Contains(stderr, "toy: input closed") {
		t.Errorf("the server's standard error did not pass: %q", stderr)
	}
	// What the server sent, by hand.
	wantOut := []string{
		`{"id":0,"jsonrpc":"2.0","result":{"capabilities":{"tools":{}},"protocolVersion":"2025-06-18","serverInfo":{"name":"jrpcld-toy","version":"1.0.0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":1,"total":1}}`,
		`{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"Echo: hé","type":"text"}]}}`,
		`toy server: this line is not JSON`,
		`{"id":2,"jsonrpc":"2.0","result":{}}`,
		`{"id":3,"jsonrpc":"2.0","result":{}}`,
	}
	if out != strings.Join(wantOut, "\n")+"\n" {
		t.Errorf("the client got\n%s\nwant\n%s", out, strings.Join(wantOut, "\n"))
	}
	got := readLog(t, []byte(log))
	var c2s, s2c []any
	for _, e := range got {
		switch e.dir {
		case jsonrpc.ClientToServer:
			c2s = append(c2s, e.msg)
		case jsonrpc.ServerToClient:
			s2c = append(s2c, e.msg)
		default:
			t.Errorf("an entry without direction: %+v", e)
		}
		if _, err := time.Parse(TimeLayout, e.ts); err != nil {
			t.Errorf("ts %q: %v", e.ts, err)
		}
	}
	if len(c2s) != len(client) || len(s2c) != len(wantOut) {
		t.Fatalf("log has %d c2s and %d s2c lines, want %d and %d:\n%s", len(c2s), len(s2c), len(client), len(wantOut), log)
	}
	for i, c := range client {
		if !reflect.DeepEqual(c2s[i], decode(t, c)) {
			t.Errorf("c2s %d: %v, want %s", i, c2s[i], c)
		}
	}
	for i, s := range wantOut {
		want := any(s + "\n")
		if json.Valid([]byte(s)) {
			want = decode(t, s)
		}
		if !reflect.DeepEqual(s2c[i], want) {
			t.Errorf("s2c %d: %#v, want %#v", i, s2c[i], want)
		}
	}
	// A response is logged after the request it answers.
	if first := got[0]; first.dir != jsonrpc.ClientToServer {
		t.Errorf("the log starts with %+v", first)
	}
	// The client's lines are logged as they were written, spaces and all.
	if !strings.Contains(log, `"msg":{"jsonrpc":"2.0", "id":3, "method":"ping"}`) {
		t.Errorf("the client's text was changed in the log:\n%s", log)
	}
}

// TestStdioExit: the server's exit status is the session's: its code, 128
// plus the signal that killed it, and a last line without a line break
// passes and is logged as it is.
func TestStdioExit(t *testing.T) {
	_, _, _, code, err := session(t, `{"jsonrpc":"2.0","id":1,"method":"toy/exit","params":{"code":7}}`+"\n")
	if err != nil || code != 7 {
		t.Errorf("toy/exit 7: exit %d, %v", code, err)
	}
	_, log, _, code, err := session(t, `{"jsonrpc":"2.0","id":1,"method":"toy/die"}`+"\n")
	if err != nil || code != 128+int(syscall.SIGKILL) {
		t.Errorf("toy/die: exit %d, %v; want %d", code, err, 128+int(syscall.SIGKILL))
	}
	if n := len(readLog(t, []byte(log))); n != 1 {
		t.Errorf("toy/die: %d log lines, want the request's", n)
	}
	out, log, _, code, err := session(t, `{"jsonrpc":"2.0","id":1,"method":"toy/partial"}`+"\n")
	want := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"last words"}}`
	if err != nil || code != 0 || out != want {
		t.Errorf("toy/partial: exit %d, %v, out %q", code, err, out)
	}
	if got := readLog(t, []byte(log)); len(got) != 2 || !reflect.DeepEqual(got[1].msg, decode(t, want)) {
		t.Errorf("toy/partial: log %s", log)
	}
}

func TestStdioNotFound(t *testing.T) {
	s := &Stdio{Cmd: exec.Command(filepath.Join(t.TempDir(), "no-such-server")), In: strings.NewReader(""), Out: io.Discard, Log: NewLog(io.Discard)}
	_, err := s.Run()
	var se *StartError
	if !errors.As(err, &se) || !se.NotFound {
		t.Errorf("err %v, want a StartError that says not found", err)
	}
}

// TestStdioBigLine: a line of a megabyte passes whole.
func TestStdioBigLine(t *testing.T) {
	out, log, _, code, err := session(t, `{"jsonrpc":"2.0","id":1,"method":"toy/big","params":{"size":1048576}}`+"\n")
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	got := readLog(t, []byte(log))
	if len(out) < 1<<20 || len(got) != 2 {
		t.Fatalf("out %d bytes, %d log lines", len(out), len(got))
	}
	if !reflect.DeepEqual(got[1].msg, decode(t, out)) {
		t.Error("the big line was logged otherwise than it passed")
	}
}

// TestStdioLiveLog: each line is in the log file as soon as it has passed
// (nothing is held in a buffer), and a forwarded signal reaches the server,
// whose exit status (3 for the toy's SIGTERM) is returned.
func TestStdioLiveLog(t *testing.T) {
	logFile, err := os.Create(filepath.Join(t.TempDir(), "live.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	sigs := make(chan os.Signal, 1)
	s := &Stdio{Cmd: toy(t), In: inR, Out: outW, Stderr: io.Discard, Log: NewLog(logFile), Signals: sigs}
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := s.Run()
		outW.Close()
		done <- result{code, err}
	}()
	replies := bufio.NewReader(outR)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	if _, err := replies.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(logFile.Name())
	if err != nil {
		t.Fatal(err)
	}
	if got := readLog(t, data); len(got) != 2 {
		t.Fatalf("while the session runs, the log holds %d lines, want 2:\n%s", len(got), data)
	}
	sigs <- syscall.SIGTERM
	go io.Copy(io.Discard, replies)
	r := <-done
	inW.Close()
	if r.err != nil || r.code != 3 {
		t.Errorf("after SIGTERM: exit %d, %v; want 3", r.code, r.err)
	}
	data, _ = os.ReadFile(logFile.Name())
	if got := readLog(t, data); len(got) != 3 || !strings.Contains(string(data), `"data":"terminated"`) {
		t.Errorf("log after SIGTERM:\n%s", data)
	}
}
