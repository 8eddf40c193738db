package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"os"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// logEntry is one envelope of a log, read back with rpclog.
type logEntry struct {
	dir jsonrpc.Direction
	ts  string
	msg any
}

func readLog(t *testing.T, data []byte, opts ...rpclog.ReaderOptions) []logEntry {
	t.Helper()
	r, err := rpclog.NewReader(bytes.NewReader(data), "log", append(opts, rpclog.ReaderOptions{})[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []logEntry
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Err != nil {
			t.Fatalf("line %d: %v", rec.Line, rec.Err)
		}
		b, _ := json.Marshal(rec.Value)
		out = append(out, logEntry{rec.Dir, rec.TS, decode(t, string(b))})
	}
}

// decode reads a message as a value to compare, its numbers as their text
// (json.Number): a number past float64's range, such as 1e400, is a valid
// JSON number that a log may hold.
func decode(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// convert runs ReadRecording and WriteLog on a recording and reads the log back (with
// opts, when given).
func convert(t *testing.T, f Recorder, rec string, opts ...rpclog.ReaderOptions) ([]logEntry, string) {
	t.Helper()
	es, warns, err := ReadRecording(strings.NewReader(rec), f)
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.Pointer+": "+w.Message)
	}
	var b bytes.Buffer
	if err := WriteLog(&b, es); err != nil {
		t.Fatal(err)
	}
	return readLog(t, b.Bytes(), opts...), strings.Join(ws, "; ")
}

type want struct {
	dir jsonrpc.Direction
	ts  string
	msg string
}

func check(t *testing.T, got []logEntry, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%d messages, want %d: %+v", len(got), len(wants), got)
	}
	for i, w := range wants {
		if got[i].dir != w.dir || got[i].ts != w.ts || !reflect.DeepEqual(got[i].msg, decode(t, w.msg)) {
			t.Errorf("message %d: %v %q %v, want %v %q %s", i, got[i].dir, got[i].ts, got[i].msg, w.dir, w.ts, w.msg)
		}
	}
}

const (
	c2s = jsonrpc.ClientToServer
	s2c = jsonrpc.ServerToClient
)

// TestInspector: both kinds of Inspector export, and the older history;
// the answer's time is the request's plus the duration; messages are in
// the order of their times; what holds no message is skipped with a
// warning.
func TestInspector(t *testing.T) {
	history := `[
 {"id":"a","timestamp":"2026-06-08T15:19:14.029Z","direction":"request","origin":"client",
  "message":{"method":"tools/list","jsonrpc":"2.0","id":1},"response":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}},"duration":60},
 {"id":"b","timestamp":"2026-06-08T15:19:14.031Z","direction":"request","origin":"server",
  "message":{"method":"roots/list","jsonrpc":"2.0","id":0},"response":{"jsonrpc":"2.0","id":0,"result":{"roots":[]}},"duration":1.5},
 {"id":"c","timestamp":"2026-06-08T15:19:15.000Z","direction":"notification","origin":"server","message":{"method":"notifications/message","jsonrpc":"2.0","params":{"level":"info","data":1.50}}},
 7,
 {"id":"d"}
]`
	got, warns := convert(t, Inspector, history)
	check(t, got, []want{
		{c2s, "2026-06-08T15:19:14.029Z", `{"method":"tools/list","jsonrpc":"2.0","id":1}`},
		{s2c, "2026-06-08T15:19:14.031Z", `{"method":"roots/list","jsonrpc":"2.0","id":0}`},
		{c2s, "2026-06-08T15:19:14.0325Z", `{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`},
		{s2c, "2026-06-08T15:19:14.089Z", `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`},
		{s2c, "2026-06-08T15:19:15.000Z", `{"method":"notifications/message","jsonrpc":"2.0","params":{"level":"info","data":1.50}}`},
	})
	if warns != "/3: an entry that is not an object: skipped; /4: an entry with no message (no \"message\", \"request\" or \"requestBody\"): skipped" {
		t.Errorf("warnings %q", warns)
	}

	older := `[{"request":"{\"method\":\"ping\",\"jsonrpc\":\"2.0\",\"id\":5}","response":"{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}","requestedAt":"2025-01-01T00:00:00.000Z","respondedAt":"2025-01-01T00:00:00.250Z","durationMs":250}]`
	got, _ = convert(t, Inspector, older)
	check(t, got, []want{
		{c2s, "2025-01-01T00:00:00.000Z", `{"method":"ping","jsonrpc":"2.0","id":5}`},
		{s2c, "2025-01-01T00:00:00.250Z", `{"jsonrpc":"2.0","id":5,"result":{}}`},
	})

	network := `[
 {"timestamp":"2026-07-19T15:10:06.161Z","method":"POST","url":"http://127.0.0.1:3211/mcp",
  "requestBody":"{\"method\":\"tools/call\",\"jsonrpc\":\"2.0\",\"id\":1}",
  "responseHeaders":{"Content-Type":"text/event-stream"},"duration":13,
  "responseBody":"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"},
 {"timestamp":"2026-07-19T15:10:07.000Z","method":"POST","url":"http://127.0.0.1:3211/mcp","requestBody":"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}","responseStatus":202},
 {"timestamp":"2026-07-19T15:10:08.000Z","method":"GET","url":"http://127.0.0.1:3211/mcp","responseHeaders":{"content-type":"text/html"},"responseBody":"<p>no</p>"}
]`
	got, warns = convert(t, Inspector, network)
	check(t, got, []want{
		{c2s, "2026-07-19T15:10:06.161Z", `{"method":"tools/call","jsonrpc":"2.0","id":1}`},
		{s2c, "2026-07-19T15:10:06.174Z", `{"jsonrpc":"2.0","method":"notifications/message"}`},
		{s2c, "2026-07-19T15:10:06.174Z", `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{c2s, "2026-07-19T15:10:07.000Z", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	})
	if warns != `/2/responseBody: a response of type "text/html", neither JSON nor server-sent events: skipped` {
		t.Errorf("warnings %q", warns)
	}
}

// TestCassette: an mcp-recorder cassette (no times), lifecycle
// interactions skipped; and its older raw recording.
func TestCassette(t *testing.T) {
	cassette := `{"version":"1.0","metadata":{"recorded_at":"2026-02-17T20:25:23.855390+00:00"},"interactions":[
 {"type":"jsonrpc_request","request":{"method":"tools/call","params":{"a":3.5,"b":2.0},"jsonrpc":"2.0","id":3},"response":{"jsonrpc":"2.0","id":3,"result":{"v":7.0}},"response_is_sse":true,"latency_ms":4},
 {"type":"notification","request":{"method":"notifications/initialized","jsonrpc":"2.0"},"response":null},
 {"type":"lifecycle","request":null,"response":null,"http_method":"DELETE","http_path":"/mcp"}]}`
	got, warns := convert(t, MCPRecorder, cassette)
	check(t, got, []want{
		{c2s, "", `{"method":"tools/call","params":{"a":3.5,"b":2.0},"jsonrpc":"2.0","id":3}`},
		{s2c, "", `{"jsonrpc":"2.0","id":3,"result":{"v":7.0}}`},
		{c2s, "", `{"method":"notifications/initialized","jsonrpc":"2.0"}`},
	})
	if warns != "" {
		t.Errorf("warnings %q", warns)
	}
	raw := `{"captured_at":"x","target":"http://h","interactions":[{"request_method":"POST","request_path":"/mcp","request_headers":{},
 "request_body":{"jsonrpc":"2.0","id":1,"method":"ping"},"response_status":200,"response_headers":{},"response_body":null,
 "response_is_sse":true,"response_sse_events":[{"jsonrpc":"2.0","method":"notifications/progress"},{"jsonrpc":"2.0","id":1,"result":{}}],
 "timestamp":"2026-01-01T10:00:00+00:00","latency_ms":20}]}`
	got, _ = convert(t, MCPRecorder, raw)
	check(t, got, []want{
		{c2s, "2026-01-01T10:00:00+00:00", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{s2c, "2026-01-01T10:00:00.020Z", `{"jsonrpc":"2.0","method":"notifications/progress"}`},
		{s2c, "2026-01-01T10:00:00.020Z", `{"jsonrpc":"2.0","id":1,"result":{}}`},
	})
}

// TestVCR: the handshake first (no time), then each interaction: its
// request in its direction, its notifications and its response the other
// way, latency_ms after the request (times without a zone stay so).
func TestVCR(t *testing.T) {
	vcr := `{"format_version":"1.0.0","metadata":{"recorded_at":"2026-02-08T16:00:00","transport":"stdio"},"session":{
 "initialize_request":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05"}},
 "initialize_response":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05"}},
 "interactions":[
  {"sequence":0,"timestamp":"2026-02-08T16:00:01.000","direction":"client_to_server","request":{"jsonrpc":"2.0","id":1,"method":"tools/call"},
   "response":{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Division by zero"}},"notifications":[{"jsonrpc":"2.0","method":"notifications/progress"}],"latency_ms":28.1},
  {"sequence":1,"timestamp":"2026-02-08T16:00:02.000","direction":"server_to_client","request":{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage"},
   "response":{"jsonrpc":"2.0","id":0,"result":{}},"notifications":[],"latency_ms":5}]}}`
	got, _ := convert(t, VCR, vcr)
	check(t, got, []want{
		{c2s, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}`},
		{s2c, "", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05"}}`},
		{c2s, "2026-02-08T16:00:01.000", `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`},
		{s2c, "2026-02-08T16:00:01.000", `{"jsonrpc":"2.0","method":"notifications/progress"}`},
		{s2c, "2026-02-08T16:00:01.0281", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Division by zero"}}`},
		{s2c, "2026-02-08T16:00:02.000", `{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage"}`},
		{c2s, "2026-02-08T16:00:02.005", `{"jsonrpc":"2.0","id":0,"result":{}}`},
	})
}

// TestReadErrors: a recording that is not JSON, or not of the format
// asked for, is an error that says where and what was wanted.
func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		f         Recorder
		rec, want string
	}{
		{Inspector, "[\n{\"a\":1},\n{oops}]", "line 3, column 2: not JSON: invalid character 'o'"},
		{Inspector, "", "line 1, column 1: not JSON: the recording ends where a value begins"},
		{Inspector, "[{\"message\":{\"jsonrpc\":\"2.0\",\"method\":\"m\"}}", "line 1, column 44: not JSON: the recording ends after an array element"},
		{Inspector, "[{\"message\":{\"jsonrpc\":\"2.0\",\"method\":\"m\"}}] [", "line 1, column 46: not JSON: invalid character '[' after the recording's value"},
		{Inspector, "[{\"message\":\n{\"jsonrpc\":\"2.0\",\"method\":\"m\"}", "line 2, column 31: not JSON: the recording ends in the middle of a value"},
		{Inspector, "[" + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "]", "line 1, column 10002: not JSON: invalid character '[' exceeded max depth"},
		{MCPRecorder, "{\"interactions\":[]\xff}", "line 1, column 19: not JSON: byte 0xff is not UTF-8"},
		{MCPRecorder, "{\"interactions\" [] }", "line 1, column 17: not JSON: invalid character '[' after a member name"},
		{VCR, "{\"metadata\":{oops},\"session\":{}}", "line 1, column 14: not JSON: invalid character 'o'"},
		{Inspector, `{"interactions":[]}`, "not an MCP Inspector export (a JSON array of its history or network log entries): want a JSON array (at /)"},
		{MCPRecorder, `[]`, "not an mcp-recorder cassette"},
		{MCPRecorder, `{"interactions":5}`, "want an array of interactions (at /interactions)"},
		{VCR, `{"session":[]}`, "want an object with the recorded session (at /session)"},
		{VCR, `{"session":{"interactions":{}}}`, "(at /session/interactions)"},
		{Recorder("har"), `{}`, `unknown format "har"`},
		{VCR, `{"session":{}}`, "holds no MCP message"},
		{Inspector, `[]`, "holds no MCP message"},
		{MCPRecorder, `{"interactions":[]}`, "holds no MCP message"},
		{Inspector, "[{\"message\":{\"\xff\":\"\"}}]", "line 1, column 15: not JSON: byte 0xff is not UTF-8"},
		{VCR, "{\"session\":\n {\"a\":\"\xc3\"}}", "line 2, column 8: not JSON: byte 0xc3 is not UTF-8"},
	} {
		_, _, err := ReadRecording(strings.NewReader(c.rec), c.f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.f, c.rec, err, c.want)
		}
		var fe *RecordingError
		if strings.Contains(c.want, "(at ") && !errors.As(err, &fe) {
			t.Errorf("%s %s: %T is no RecordingError", c.f, c.rec, err)
		}
	}
}

// TestPublishedRecordings: the recordings the tools published (in
// ../shared/reference/mcp-logs) give, in each direction, the messages of
// the conversions made there by other scripts (.dir.jsonl), in the same
// order; where those have times, a request's is the same, and an answer's
// comes no earlier.
func TestPublishedRecordings(t *testing.T) {
	dir := shared.Dir(t, "reference", "mcp-logs")
	for _, c := range []struct {
		f         Recorder
		rec, conv string
	}{
		{Inspector, "inspector/history-everything-server-2026-06-08.json", "inspector/history-everything-server-2026-06-08.dir.jsonl"},
		{Inspector, "inspector/network-logging-modern-2026-07-19.json", "inspector/network-logging-modern-2026-07-19.dir.jsonl"},
		{MCPRecorder, "mcp-recorder/mock_session.json", "mcp-recorder/fastmcp-calculator-2025-11-25.dir.jsonl"},
		{VCR, "agent-vcr/calculator-errors.vcr", "agent-vcr/calculator-errors.dir.jsonl"},
		{VCR, "agent-vcr/calculator-v1.vcr", "agent-vcr/calculator-v1.dir.jsonl"},
		{VCR, "agent-vcr/calculator-v2.vcr", "agent-vcr/calculator-v2.dir.jsonl"},
	} {
		t.Run(c.rec, func(t *testing.T) {
			rec, err := os.ReadFile(filepath.Join(dir, c.rec))
			if err != nil {
				t.Fatal(err)
			}
			ref, err := os.ReadFile(filepath.Join(dir, c.conv))
			if err != nil {
				t.Fatal(err)
			}
			got, warns := convert(t, c.f, string(rec))
			if warns != "" {
				t.Errorf("warnings %q", warns)
			}
			wantLog := readLog(t, ref)
			for _, d := range []jsonrpc.Direction{c2s, s2c} {
				var g, w []logEntry
				for _, e := range got {
					if e.dir == d {
						g = append(g, e)
					}
				}
				for _, e := range wantLog {
					if e.dir == d {
						w = append(w, e)
					}
				}
				if len(g) != len(w) {
					t.Fatalf("%v: %d messages, the reference has %d", d, len(g), len(w))
				}
				for i := range g {
					if !reflect.DeepEqual(g[i].msg, w[i].msg) {
						t.Errorf("%v %d: %v\nwant %v", d, i, g[i].msg, w[i].msg)
					}
					if w[i].ts != "" {
						gt, ok1 := parseTime(g[i].ts)
						wt, ok2 := parseTime(w[i].ts)
						if !ok1 || !ok2 || gt.Before(wt) || (d == c2s && !gt.Equal(wt)) {
							t.Errorf("%v %d: time %q, the reference's %q", d, i, g[i].ts, w[i].ts)
						}
					}
				}
			}
			t.Logf("%d messages", len(got))
		})
	}
}

// FuzzReadRecording: any input gives entries, warnings or an error, never a panic;
// the entries make a log rpclog reads whole (with the --max-depth a
// warning names, when one does), the log ConvertRecording writes.
func FuzzReadRecording(f *testing.F) {
	f.Add(`[{"timestamp":"2026-01-01T00:00:00Z","message":{"jsonrpc":"2.0","id":1,"method":"m"},"duration":1e400}]`)
	f.Add(`{"interactions":[{"request":"{\"a\":","response":[1]}]}`)
	f.Add(`{"session":{"initialize_request":"x","interactions":[{"timestamp":"2026-02-08T16:00:01","latency_ms":-1,"request":{}}]}}`)
	f.Add(`[{"requestBody":"{}","responseHeaders":{"content-type":"text/event-stream"},"responseBody":"data: x\r\rdata"}]`)
	f.Fuzz(func(t *testing.T, rec string) {
		for _, fm := range Recorders {
			es, warns, err := ReadRecording(strings.NewReader(rec), fm)
			if err != nil {
				continue
			}
			var b bytes.Buffer
			if err := WriteLog(&b, es); err != nil {
				t.Fatal(err)
			}
			var opts rpclog.ReaderOptions // the readers' defaults, unless a warning names a flag
			for _, w := range warns {
				if strings.Contains(w.Message, "--max-depth") {
					opts.MaxDepth = 10002 // encoding/json's limit on the recording, and the envelope
				}
			}
			var c bytes.Buffer
			if err := ConvertRecording(&c, strings.NewReader(rec), fm, func(diag.Diagnostic) {}); err != nil || !bytes.Equal(c.Bytes(), b.Bytes()) {
				t.Fatalf("Convert: %v\n%s\nwant\n%s", err, c.Bytes(), b.Bytes())
			}
			if got := readLog(t, b.Bytes(), opts); len(got) != len(es) {
				t.Fatalf("%d entries read back as %d", len(es), len(got))
			}
		}
	})
}

// TestRecordedOrder: messages come in the order they were recorded, with
// their times as precise as the recording gives them. An answer's time
// (its request's plus a latency under a millisecond, or of microseconds)
// is never cut so short that it comes before its request; answers that
// arrive while later requests are sent go between them by time; requests
// keep the recording's order even where their times go back; ties keep
// the recording's order. Each expected order and time is worked out by
// hand from the recording.
func TestRecordedOrder(t *testing.T) {
	req := func(id int) string { return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"ping"}` }
	res := func(id int) string { return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"result":{}}` }
	note := `{"jsonrpc":"2.0","method":"notifications/progress"}`
	for _, c := range []struct {
		name  string
		f     Recorder
		rec   string
		wants []want
	}{
		{"mcp-recorder microseconds", MCPRecorder, `{"interactions":[
 {"request_method":"POST","request_body":` + req(1) + `,"response_body":` + res(1) + `,"timestamp":"2026-02-17T20:25:23.855390+00:00","latency_ms":0.05},
 {"request_method":"POST","request_body":` + req(2) + `,"response_body":` + res(2) + `,"timestamp":"2026-02-17T20:25:23.855400+00:00","latency_ms":0.4}]}`,
			[]want{
				{c2s, "2026-02-17T20:25:23.855390+00:00", req(1)},
				{c2s, "2026-02-17T20:25:23.855400+00:00", req(2)},
				{s2c, "2026-02-17T20:25:23.855440Z", res(1)},
				{s2c, "2026-02-17T20:25:23.855800Z", res(2)},
			}},
		{"mcp-recorder ties", MCPRecorder, `{"interactions":[
 {"request_method":"POST","request_body":` + req(1) + `,"response_body":` + res(1) + `,"timestamp":"2026-02-17T20:25:23+00:00","latency_ms":0},
 {"request_method":"POST","request_body":` + req(2) + `,"response_body":null,"response_sse_events":[` + note + `,` + res(2) + `],"timestamp":"2026-02-17T20:25:23+00:00","latency_ms":0}]}`,
			[]want{
				{c2s, "2026-02-17T20:25:23+00:00", req(1)},
				{s2c, "2026-02-17T20:25:23.000Z", res(1)},
				{c2s, "2026-02-17T20:25:23+00:00", req(2)},
				{s2c, "2026-02-17T20:25:23.000Z", note},
				{s2c, "2026-02-17T20:25:23.000Z", res(2)},
			}},
		{"inspector microseconds", Inspector, `[
 {"timestamp":"2026-06-08T15:19:14.029100Z","origin":"client","message":` + req(1) + `,"response":` + res(1) + `,"duration":0.05},
 {"timestamp":"2026-06-08T15:19:14.029100Z","origin":"client","message":` + req(2) + `,"response":` + res(2) + `,"duration":0}]`,
			[]want{
				{c2s, "2026-06-08T15:19:14.029100Z", req(1)},
				{c2s, "2026-06-08T15:19:14.029100Z", req(2)},
				{s2c, "2026-06-08T15:19:14.029100Z", res(2)},
				{s2c, "2026-06-08T15:19:14.029150Z", res(1)},
			}},
		{"inspector clock back", Inspector, `[
 {"timestamp":"2026-06-08T15:19:14.030Z","origin":"client","message":` + req(1) + `},
 {"timestamp":"2026-06-08T15:19:14.020Z","origin":"client","message":` + req(2) + `,"response":` + res(2) + `,"duration":1},
 {"timestamp":"2026-06-08T15:19:14.025Z","origin":"client","message":` + req(3) + `}]`,
			[]want{
				{c2s, "2026-06-08T15:19:14.030Z", req(1)},
				{c2s, "2026-06-08T15:19:14.020Z", req(2)},
				{s2c, "2026-06-08T15:19:14.021Z", res(2)},
				{c2s, "2026-06-08T15:19:14.025Z", req(3)},
			}},
		{"inspector network sub-millisecond", Inspector, `[
 {"timestamp":"2026-07-19T15:10:06.161000500Z","method":"POST","url":"http://h/mcp","requestBody":` + strconv.Quote(req(1)) + `,
  "responseHeaders":{"Content-Type":"application/json"},"duration":0.0004,"responseBody":` + strconv.Quote(res(1)) + `}]`,
			[]want{
				{c2s, "2026-07-19T15:10:06.161000500Z", req(1)},
				{s2c, "2026-07-19T15:10:06.161000900Z", res(1)},
			}},
		{"vcr microseconds", VCR, `{"session":{
 "initialize_request":{"jsonrpc":"2.0","id":0,"method":"initialize"},"initialize_response":{"jsonrpc":"2.0","id":0,"result":{}},
 "interactions":[
  {"timestamp":"2026-02-08T16:00:01.000100","direction":"client_to_server","request":` + req(1) + `,"response":` + res(1) + `,"latency_ms":0.0005},
  {"timestamp":"2026-02-08T16:00:01.000100","direction":"client_to_server","request":` + req(2) + `,"response":` + res(2) + `,"notifications":[` + note + `],"latency_ms":50},
  {"timestamp":"2026-02-08T16:00:01.010000","direction":"client_to_server","request":` + req(3) + `,"response":` + res(3) + `,"latency_ms":1}]}}`,
			[]want{
				{c2s, "", `{"jsonrpc":"2.0","id":0,"method":"initialize"}`},
				{s2c, "", `{"jsonrpc":"2.0","id":0,"result":{}}`},
				{c2s, "2026-02-08T16:00:01.000100", req(1)},
				{c2s, "2026-02-08T16:00:01.000100", req(2)},
				{s2c, "2026-02-08T16:00:01.000100", note},
				{s2c, "2026-02-08T16:00:01.0001005", res(1)},
				{c2s, "2026-02-08T16:00:01.010000", req(3)},
				{s2c, "2026-02-08T16:00:01.011000", res(3)},
				{s2c, "2026-02-08T16:00:01.050100", res(2)},
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, _ := convert(t, c.f, c.rec)
			check(t, got, c.wants)
		})
	}
}

// TestHostileRecordings: recordings with members of the wrong type, named
// twice, missing or holding another framing lose no message in silence:
// each message is imported, and what had to be guessed is a warning with
// its pointer.
func TestHostileRecordings(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	pong := `{"jsonrpc":"2.0","id":1,"result":{}}`
	note := `{"jsonrpc":"2.0","method":"notifications/progress"}`
	sse := "event: message\ndata: " + note + "\n\nevent: message\ndata: " + pong + "\n\n"
	for _, c := range []struct {
		name  string
		f     Recorder
		rec   string
		wants []want
		warns []string // each a substring of the warnings, in order
	}{
		{"network bodies as JSON values", Inspector,
			`[{"timestamp":"2026-07-19T15:10:06.161Z","method":"POST","url":"http://h/mcp","requestBody":` + ping + `,"responseHeaders":{"Content-Type":"application/json"},"responseBody":` + pong + `}]`,
			[]want{{c2s, "2026-07-19T15:10:06.161Z", ping}, {s2c, "2026-07-19T15:10:06.161Z", pong}}, nil},
		{"network SSE body without a content type", Inspector,
			`[{"timestamp":"2026-07-19T15:10:06.161Z","method":"POST","url":"http://h/mcp","requestBody":` + strconv.Quote(ping) + `,"responseBody":` + strconv.Quote(sse) + `}]`,
			[]want{{c2s, "2026-07-19T15:10:06.161Z", ping}, {s2c, "2026-07-19T15:10:06.161Z", note}, {s2c, "2026-07-19T15:10:06.161Z", pong}}, nil},
		{"cassette SSE text as the response body", MCPRecorder,
			`{"interactions":[{"request_method":"POST","request_body":` + ping + `,"response_is_sse":true,"response_body":` + strconv.Quote(sse) + `}]}`,
			[]want{{c2s, "", ping}, {s2c, "", note}, {s2c, "", pong}}, nil},
		{"base64 body kept as text", MCPRecorder,
			`{"interactions":[{"request_method":"POST","request_body":` + ping + `,"response_body":"eyJqc29ucnBjIjoiMi4wIn0="}]}`,
			[]want{{c2s, "", ping}, {s2c, "", `"eyJqc29ucnBjIjoiMi4wIn0="`}}, nil},
		{"a time that is a number", Inspector,
			`[{"timestamp":1781000000000,"origin":"client","message":` + ping + `,"response":` + pong + `,"duration":3}]`,
			[]want{{c2s, "", ping}, {s2c, "", pong}},
			[]string{`/0/timestamp: 1781000000000 is not a time (a string): the message is written without one`}},
		{"a member named twice", Inspector,
			`[{"timestamp":"2026-06-08T15:19:14.029Z","message":` + note + `,"message":` + ping + `,"response":` + pong + `}]`,
			[]want{{c2s, "2026-06-08T15:19:14.029Z", ping}, {s2c, "2026-06-08T15:19:14.029Z", pong}},
			[]string{`/0/message: "message" is named twice in this object: only the last is read`}},
		{"a response with no request", Inspector,
			`[{"timestamp":"2026-06-08T15:19:14.029Z","origin":"client","response":` + pong + `}]`,
			[]want{{s2c, "2026-06-08T15:19:14.029Z", pong}},
			[]string{`/0: an entry with a response and no message`}},
		{"notifications not in an array", VCR,
			`{"session":{"interactions":[{"timestamp":"2026-02-08T16:00:01.000","direction":"client_to_server","request":` + ping + `,"notifications":` + note + `,"response":` + pong + `,"latency_ms":2}]}}`,
			[]want{{c2s, "2026-02-08T16:00:01.000", ping}, {s2c, "2026-02-08T16:00:01.000", note}, {s2c, "2026-02-08T16:00:01.002", pong}},
			[]string{`/session/interactions/0/notifications: not an array: read as one message`}},
		{"SSE events not in an array", MCPRecorder,
			`{"interactions":[{"request_method":"POST","request_body":` + ping + `,"response_sse_events":` + pong + `}]}`,
			[]want{{c2s, "", ping}, {s2c, "", pong}},
			[]string{`/interactions/0/response_sse_events: not an array: read as one message`}},
		{"an unknown direction", VCR,
			`{"session":{"interactions":[{"direction":"sideways","request":` + ping + `}]}}`,
			[]want{{c2s, "", ping}},
			[]string{`/session/interactions/0/direction: "sideways" is neither client_to_server nor server_to_client: taken as client_to_server`}},
		{"a latency that is not a number", VCR,
			`{"session":{"interactions":[{"timestamp":"2026-02-08T16:00:01.000","request":` + ping + `,"response":` + pong + `,"latency_ms":"fast"},
			 {"timestamp":"2026-02-08T16:00:02.000","request":` + ping + `,"response":` + pong + `,"latency_ms":-4}]}}`,
			[]want{{c2s, "2026-02-08T16:00:01.000", ping}, {s2c, "2026-02-08T16:00:01.000", pong}, {c2s, "2026-02-08T16:00:02.000", ping}, {s2c, "2026-02-08T16:00:02.000", pong}},
			[]string{`/session/interactions/0/latency_ms: "fast" is not a latency in milliseconds`, `/session/interactions/1/latency_ms: -4 is not a latency in milliseconds`}},
		{"an answer recorded before its request", Inspector,
			`[{"request":` + ping + `,"response":` + pong + `,"requestedAt":"2025-01-01T00:00:01.000Z","respondedAt":"2025-01-01T00:00:00.500Z"}]`,
			[]want{{c2s, "2025-01-01T00:00:01.000Z", ping}, {s2c, "2025-01-01T00:00:00.500Z", pong}},
			[]string{`/0: a message recorded at 2025-01-01T00:00:00.500Z, before the message it answers or follows (2025-01-01T00:00:01.000Z): kept after it`}},
		{"duplicate ids", MCPRecorder, `{"interactions":[{"request":` + ping + `,"response":` + pong + `},{"request":` + ping + `,"response":` + pong + `}]}`,
			[]want{{c2s, "", ping}, {s2c, "", pong}, {c2s, "", ping}, {s2c, "", pong}}, nil},
		{"an interaction with only a response", VCR, `{"session":{"interactions":[{"timestamp":"2026-02-08T16:00:01.000","response":` + pong + `}]}}`,
			[]want{{s2c, "2026-02-08T16:00:01.000", pong}}, nil},
		// A message and its envelope nest 512 levels deep at most for
		// jrpcld's readers with no --max-depth: one level more is a
		// warning that names the flag.
		{"nesting the readers take", MCPRecorder,
			`{"interactions":[{"request":{"jsonrpc":"2.0","method":"m","params":` + strings.Repeat("[", 510) + strings.Repeat("]", 510) + `}}]}`,
			[]want{{c2s, "", `{"jsonrpc":"2.0","method":"m","params":` + strings.Repeat("[", 510) + strings.Repeat("]", 510) + `}`}}, nil},
		{"nesting past the readers' default", MCPRecorder,
			`{"interactions":[{"request":{"jsonrpc":"2.0","method":"m","params":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}]}`,
			[]want{{c2s, "", `{"jsonrpc":"2.0","method":"m","params":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`}},
			[]string{`/interactions/0: a message nested 5002 levels deep in its log line: read the log with --max-depth 5002 or more`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, warns := convert(t, c.f, c.rec, rpclog.ReaderOptions{MaxDepth: 5002})
			check(t, got, c.wants)
			if strings.Contains(warns, "--max-depth") {
				// The flag named is needed, and enough.
				es, _, _ := ReadRecording(strings.NewReader(c.rec), c.f)
				var b bytes.Buffer
				WriteLog(&b, es)
				r, _ := rpclog.NewReader(bytes.NewReader(b.Bytes()), "log", rpclog.ReaderOptions{MaxDepth: 5001})
				if rec, err := r.Next(); err != nil || rec.Err == nil {
					t.Errorf("read with --max-depth 5001: %v, %v; want a record too deep", err, rec.Err)
				}
			} else {
				convert(t, c.f, c.rec) // read back with no flag
			}
			rest := warns
			for _, w := range c.warns {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("warnings %q lack %q", warns, w)
				}
				rest = rest[i+len(w):]
			}
			if c.warns == nil && warns != "" {
				t.Errorf("warnings %q", warns)
			}
		})
	}
}

// TestInspectorSSECut: an SSE body whose last event has no blank line
// after it gives the events before it, and a warning for that one, which
// a client does not dispatch.
func TestInspectorSSECut(t *testing.T) {
	network := `[{"timestamp":"2026-07-19T15:10:06.161Z","method":"POST","requestBody":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
  "responseHeaders":{"Content-Type":"text/event-stream"},"duration":1,
  "responseBody":"data: {\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"}]`
	got, warns := convert(t, Inspector, network)
	check(t, got, []want{
		{c2s, "2026-07-19T15:10:06.161Z", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{s2c, "2026-07-19T15:10:06.162Z", `{"jsonrpc":"2.0","method":"a"}`},
	})
	if !strings.Contains(warns, "/0/responseBody: the stream ends inside an event (37 bytes of data") {
		t.Errorf("warnings %q", warns)
	}
}

// generated is an Inspector export of n entries made as it is read, each
// a request with a pad of size bytes and its answer; with late, every
// answer's time is after every request's (all requests at one time).
type generated struct {
	n, size, i int
	late       bool
	buf        bytes.Buffer
}

func (g *generated) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && g.i <= g.n {
		switch {
		case g.i == 0:
			g.buf.WriteString("[")
		default:
			if g.i > 1 {
				g.buf.WriteString(",")
			}
			ts := fmt.Sprintf("2026-06-08T15:19:%02d.%03dZ", g.i/1000%60, g.i%1000)
			if g.late {
				ts = "2026-06-08T15:19:14.029Z"
			}
			fmt.Fprintf(&g.buf, `{"timestamp":%q,"message":{"jsonrpc":"2.0","id":%d,"method":"m","params":{"pad":%q}},"response":{"jsonrpc":"2.0","id":%d,"result":{}},"duration":0.5}`,
				ts, g.i, strings.Repeat("x", g.size), g.i)
		}
		g.i++
		if g.i > g.n {
			g.buf.WriteString("]")
		}
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	return g.buf.Read(p)
}

// heapWatch is an io.Writer that drops what it is given, sampling the heap
// in use at each write.
type heapWatch struct {
	writes int
	most   uint64
}

func (h *heapWatch) Write(p []byte) (int, error) {
	h.writes++
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h.most = max(h.most, m.HeapAlloc)
	return len(p), nil
}

// TestConvertStreams: ConvertRecording reads a recording as a stream: converting 8
// MB of entries, answered in order, the heap stays under 12 MiB (read
// whole, the recording took four times its size).
func TestConvertStreams(t *testing.T) {
	g := &generated{n: 1000, size: 8000}
	w := &heapWatch{}
	runtime.GC()
	if err := ConvertRecording(w, g, Inspector, func(d diag.Diagnostic) { t.Errorf("warning %v", d) }); err != nil {
		t.Fatal(err)
	}
	if w.most == 0 {
		t.Fatalf("%d writes, no sample of the heap", w.writes)
	}
	if w.most > 12<<20 {
		t.Errorf("the heap reached %d MiB converting 8 MB", w.most>>20)
	}
}

// TestWaitingBounded: answers that wait for their time (each later than
// every request) are held up to a limit; past it, the earliest go out
// before the next request, with one warning, and nothing is lost.
func TestWaitingBounded(t *testing.T) {
	var got []Entry
	var warns []string
	err := read(&generated{n: 100, size: 10, late: true}, Inspector, func(e Entry) error {
		got = append(got, e)
		return nil
	}, func(d diag.Diagnostic) { warns = append(warns, d.Pointer+": "+d.Message) }, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 200 {
		t.Fatalf("%d messages, want 200", len(got))
	}
	// Each answer is 37 bytes: 28 wait at most, and the first goes out
	// before request 29 (index 28), where the limit is passed.
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "/28: more than 1000 bytes of messages wait") {
		t.Errorf("warnings %q", warns)
	}
	seen := map[string]int{}
	for i, e := range got {
		seen[string(e.Msg)] = i
	}
	for id := 1; id <= 100; id++ {
		req := seen[fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m","params":{"pad":"xxxxxxxxxx"}}`, id)]
		res, ok := seen[fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, id)]
		if !ok || res < req {
			t.Errorf("answer %d at %d, its request at %d", id, res, req)
		}
	}
}
