package record

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/testkit/mcptoy"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
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

// TestLogBytes: text that is not UTF-8 (a server that writes Latin-1, a
// JSON message with such a byte in a string) is logged with its exact
// bytes in "bytes", standard base64, less the line feed that ends a line;
// the log's reader keeps them, as a parse error at the first byte that is
// not UTF-8, with the direction and time.
func TestLogBytes(t *testing.T) {
	for _, text := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"text":"caf` + "\xe9" + `"}}` + "\n",
		"caf\xe9 au lait\r\n",
		"\xff",
		"a\n\xfe\n",
	} {
		var buf bytes.Buffer
		l := NewLog(&buf)
		l.Now = func() time.Time { return time.Date(2026, 11, 20, 9, 0, 1, 0, time.UTC) }
		if err := l.Record(jsonrpc.ServerToClient, []byte(text)); err != nil {
			t.Fatal(err)
		}
		// Read as any JSON reader reads it.
		var env map[string]any
		if err := json.Unmarshal(buf.Bytes(), &env); err != nil || !strings.HasSuffix(buf.String(), "}\n") || strings.Count(buf.String(), "\n") != 1 {
			t.Fatalf("%q: log line %q: %v", text, buf.String(), err)
		}
		enc, _ := env["bytes"].(string)
		got, err := base64.StdEncoding.DecodeString(enc)
		want := strings.TrimSuffix(text, "\n")
		if err != nil || string(got) != want || len(env) != 3 || env["dir"] != "s2c" || env["ts"] != "2026-11-20T09:00:01.000Z" {
			t.Errorf("%q: logged as %s (bytes %q, %v), want the bytes %q", text, buf.String(), got, err, want)
		}
		r, err := rpclog.NewReader(&buf, "log", rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Next()
		if err != nil || !rec.Bytes || string(rec.Raw) != want || rec.Err == nil || rec.Dir != jsonrpc.ServerToClient || rec.TS != "2026-11-20T09:00:01.000Z" {
			t.Errorf("%q: read back as %+v, %v", text, rec, err)
		}
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
	// Every line names the run's session; another run is another session.
	sessions := sessionsOf(t, []byte(log))
	first := sessions[0]
	if !strings.HasPrefix(first, "stdio-") {
		t.Errorf("session %q, want stdio-PID-TIME", first)
	}
	for i, s := range sessions {
		if s != first {
			t.Errorf("log line %d: session %q, want %q", i+1, s, first)
		}
	}
	_, log2, _, _, _ := session(t, client[0]+"\n")
	if again := sessionsOf(t, []byte(log2)); len(again) == 0 || again[0] == first {
		t.Errorf("a second run's sessions %q, the first's %q", again, first)
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

// TestStdioLongLines: with a small limit (Log.Max), a line longer than it,
// of the client or of the server, passes unchanged, byte for byte, and is
// logged cut: its length and its first bytes (Max/8 of them, no character
// cut in two), which rpclog reads with an error that says so; the session
// goes on; a last line with no line break too. No log line is longer than
// the limit.
func TestStdioLongLines(t *testing.T) {
	const max = 4096
	long := strings.Repeat("é", 30000)
	client := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + long + `"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"toy/big","params":{"size":100000}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"method":"toy/partial","params":{"size":50000}}`,
	}
	// What the toy answers, by hand.
	server := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":1,"total":1}}` + "\n",
		`{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"Echo: ` + long + `","type":"text"}]}}` + "\n",
		`{"id":2,"jsonrpc":"2.0","result":{"text":"` + strings.Repeat("x", 100000) + `"}}` + "\n",
		`{"id":3,"jsonrpc":"2.0","result":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("x", 50000) + `"}}`,
	}
	var out, logBuf bytes.Buffer
	var mu sync.Mutex
	var warns []string
	log := NewLog(&logBuf)
	log.Max = max
	log.Warn = func(m string) { mu.Lock(); warns = append(warns, m); mu.Unlock() }
	s := &Stdio{Cmd: toy(t), In: strings.NewReader(strings.Join(client, "\n") + "\n"), Out: &out, Stderr: io.Discard, Log: log}
	if code, err := s.Run(); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	if out.String() != strings.Join(server, "") {
		t.Fatalf("the client got %d bytes, not what the server sent (%d bytes)", out.Len(), len(strings.Join(server, "")))
	}
	for i, l := range lines(logBuf.String()) {
		if len(l) > max {
			t.Errorf("log line %d has %d bytes, over the limit of %d", i+1, len(l), max)
		}
	}
	// Each direction's lines in order: whole, or cut with their length.
	want := map[jsonrpc.Direction][]string{jsonrpc.ClientToServer: nil, jsonrpc.ServerToClient: server}
	for _, c := range client {
		want[jsonrpc.ClientToServer] = append(want[jsonrpc.ClientToServer], c+"\n")
	}
	got := map[jsonrpc.Direction][]*rpclog.Record{}
	r, _ := rpclog.NewReader(bytes.NewReader(logBuf.Bytes()), "log", rpclog.ReaderOptions{})
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil || rec.Err != nil {
			t.Fatalf("%v %v", err, rec.Err)
		}
		rec.Raw = bytes.Clone(rec.Raw)
		got[rec.Dir] = append(got[rec.Dir], rec)
	}
	cut := 0
	for dir, texts := range want {
		if len(got[dir]) != len(texts) {
			t.Fatalf("%v: %d log lines, want %d", dir, len(got[dir]), len(texts))
		}
		for i, text := range texts {
			rec := got[dir][i]
			if len(text) <= max-100 {
				if len(rec.Problems) > 0 || !reflect.DeepEqual(plain(t, rec.Value), decode(t, text)) {
					t.Errorf("%v %d: logged %s, problems %v", dir, i, rec.Raw, rec.Problems)
				}
				continue
			}
			cut++
			head, _ := rec.Value.(string)
			wantMsg := "a message of " + strconv.Itoa(len(text)) + " bytes was too long to log"
			if len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0].Message, wantMsg) ||
				!strings.HasPrefix(text, head) || len(head) > max/8 || len(head) < max/8-3 || !utf8.ValidString(head) {
				t.Errorf("%v %d: logged %s, problems %v; want the first %d bytes and %q", dir, i, rec.Raw, rec.Problems, max/8, wantMsg)
			}
		}
	}
	if cut != 4 || len(warns) != 4 {
		t.Errorf("%d lines cut, %d warnings, want 4: %q", cut, len(warns), warns)
	}
}

// countWriter counts what is written to it, and keeps its last bytes.
type countWriter struct {
	n    int64
	tail []byte
}

func (w *countWriter) Write(b []byte) (int, error) {
	w.n += int64(len(b))
	w.tail = append(w.tail, b[max(0, len(b)-64):]...)
	w.tail = w.tail[max(0, len(w.tail)-64):]
	return len(b), nil
}

// endless gives n bytes 'x', then a line break, then rest.
type endless struct {
	n    int64
	rest string
}

func (r *endless) Read(b []byte) (int, error) {
	if r.n > 0 {
		k := int(min(int64(len(b)), r.n))
		for i := range b[:k] {
			b[i] = 'x'
		}
		r.n -= int64(k)
		return k, nil
	}
	if r.rest == "" {
		return 0, io.EOF
	}
	k := copy(b, r.rest)
	r.rest = r.rest[k:]
	return k, nil
}

// TestPassLinesMemory: a line of 32 MiB passes with a limit of 64 KiB in
// a few MiB of allocations, whole, and the next line is logged as usual.
func TestPassLinesMemory(t *testing.T) {
	const size = 32 << 20
	var logBuf bytes.Buffer
	log := NewLog(&logBuf)
	log.Max = 64 << 10
	var w countWriter
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := passLines(&endless{n: size, rest: "\n{\"a\":1}\n"}, &w, log, "", jsonrpc.ServerToClient)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("%d MiB allocated to pass a line of %d MiB", alloc>>20, size>>20)
	}
	if w.n != size+9 || !strings.HasSuffix(string(w.tail), "xx\n{\"a\":1}\n") {
		t.Errorf("passed %d bytes ending %q", w.n, w.tail)
	}
	got := lines(logBuf.String())
	if len(got) != 2 || !strings.Contains(got[0], `"truncated":33554433,"msg":"xxx`) || !strings.HasSuffix(got[1], `"msg":{"a":1}}`) {
		t.Errorf("log:\n%s", logBuf.String())
	}
}

// TestLogCut: a message whose envelope line would be longer than Max is
// logged cut: "truncated" holds its length, "msg" its first Max/8 bytes
// (at most 1,024) as a string, never a character cut in two; the line fits
// Max, and Warn is told.
func TestLogCut(t *testing.T) {
	at := time.Date(2026, 11, 20, 9, 0, 1, 0, time.UTC)
	for _, c := range []struct {
		name string
		max  int
		text string
		want string // the line, by hand
	}{
		{"fits", 200, `{"a":1}`, `{"dir":"s2c","ts":"2026-11-20T09:00:01.000Z","msg":{"a":1}}`},
		{"JSON too long", 200, `{"a":"` + strings.Repeat("b", 200) + `"}`,
			`{"dir":"s2c","ts":"2026-11-20T09:00:01.000Z","truncated":208,"msg":"{\"a\":\"bbbbbbbbbbbbbbbbbbb"}`},
		{"escapes make it too long", 200, strings.Repeat("\x01", 100),
			`{"dir":"s2c","ts":"2026-11-20T09:00:01.000Z","truncated":100,"msg":"` + strings.Repeat(`\u0001`, 12) + `"}`},
		{"not inside a character", 200, strings.Repeat("é", 200),
			`{"dir":"s2c","ts":"2026-11-20T09:00:01.000Z","truncated":400,"msg":"` + strings.Repeat("é", 12) + `"}`},
		{"a kilobyte at most", 1 << 20, strings.Repeat("x", 1<<20),
			`{"dir":"s2c","ts":"2026-11-20T09:00:01.000Z","truncated":1048576,"msg":"` + strings.Repeat("x", 1024) + `"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			var warns []string
			l := NewLog(&buf)
			l.Now, l.Max = func() time.Time { return at }, c.max
			l.Warn = func(m string) { warns = append(warns, m) }
			if err := l.Record(jsonrpc.ServerToClient, []byte(c.text)); err != nil {
				t.Fatal(err)
			}
			if buf.String() != c.want+"\n" {
				t.Errorf("got  %s\nwant %s", buf.String(), c.want)
			}
			if buf.Len() > c.max {
				t.Errorf("a line of %d bytes, over %d", buf.Len(), c.max)
			}
			if cut := strings.Contains(c.want, "truncated"); cut != (len(warns) == 1) {
				t.Errorf("warnings %q", warns)
			}
		})
	}
}

// TestLogCutMemory: a text whose escapes would make its line several
// times longer than Max is logged cut without that line being built: a
// MiB of control characters under a limit of a MiB took 45 MiB.
func TestLogCutMemory(t *testing.T) {
	text := bytes.Repeat([]byte{1}, 1<<20)
	l := NewLog(io.Discard)
	l.Max = 1 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l.Record(jsonrpc.ServerToClient, text)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("%d KiB allocated to log a cut line", alloc>>10)
	}
}

// TestEscapedLen: escapedLen gives the length of the JSON string
// encoding/json writes for a text that is UTF-8 (HTML characters as they
// are).
func TestEscapedLen(t *testing.T) {
	var all []byte
	for c := range 128 {
		all = append(all, byte(c))
	}
	for _, s := range []string{"", "a", string(all), "é€😀\u2028\u2029\u00a0\ufeff\uffff", `"\<>&` + "\x7f"} {
		var b bytes.Buffer
		writeString(&b, s)
		if got := escapedLen([]byte(s)); got != b.Len() {
			t.Errorf("%q: %d, encoding/json writes %d bytes", s, got, b.Len())
		}
	}
}
