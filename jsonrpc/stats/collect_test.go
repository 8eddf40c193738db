package stats

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/schema"
)

// collect reads a log given as text and returns its Stats as decoded JSON.
func collect(t *testing.T, log string, opts Options) (*Collector, any) {
	t.Helper()
	r, err := rpclog.NewReader(strings.NewReader(log), "test", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := NewCollector(opts)
	if err := ReadLog(r, c); err != nil {
		t.Fatal(err)
	}
	return c, toJSON(t, c.Stats())
}

func toJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// at returns the value at a JSON pointer, or nil.
func at(v any, ptr string) any {
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// check compares the values at JSON pointers with what is wanted: numbers as
// float64, anything else as decoded JSON.
func check(t *testing.T, got any, want map[string]any) {
	t.Helper()
	for ptr, w := range want {
		if n, ok := w.(int); ok {
			w = float64(n)
		}
		if g := at(got, ptr); !reflect.DeepEqual(g, w) {
			t.Errorf("%s = %v, want %v", ptr, g, w)
		}
	}
}

// TestPairingLog checks the figures of testdata/pairing.jsonl, each one
// counted by hand from the log (see the comments).
func TestPairingLog(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "pairing.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, got := collect(t, string(data), Options{})
	check(t, got, map[string]any{
		"/messages": 27,
		// Requests: lines 1 5 6 11 13 15 17 21 22 24 (c2s), 2 26 (s2c).
		"/kinds/request/c2s": 10, "/kinds/request/s2c": 2,
		"/kinds/notification/c2s": 1,
		"/kinds/response/c2s":     2, "/kinds/response/s2c": 7,
		"/kinds/error-response/s2c": 3,
		"/kinds/batch/c2s":          1, "/kinds/batch/s2c": 1,
		"/requests/a": 3, "/requests/c": 2, "/requests/d": 2, "/requests/tools~1call": 3, "/requests/ping": 1,
		"/notifications/n": 2,
		// c2s: 10 top-level + 2 in the batch; open at the end: 21 and 24;
		// reusing an open id: 6 (7), the batch's third member (30), 22 (40.0 = 40).
		"/pairing/c2s/requests": 12, "/pairing/c2s/answered": 10, "/pairing/c2s/unanswered": 2,
		"/pairing/c2s/reusedIds": 3, "/pairing/c2s/orphanResponses": 0,
		// Line 2's id 1 is also open in c2s, but the other way: no reuse.
		// Orphans: line 9 (a third answer for id 7) and line 10 (id null).
		"/pairing/s2c/requests": 2, "/pairing/s2c/answered": 2, "/pairing/s2c/reusedIds": 0,
		"/pairing/s2c/orphanResponses": 2,
		"/errors": []any{
			map[string]any{"code": -32700.0, "method": "", "count": 1.0},
			map[string]any{"code": -32602.0, "method": "tools/call", "count": 1.0},
			map[string]any{"code": -32601.0, "method": "b", "count": 1.0},
		},
		// "arguments" holds a "name" too: the tool is params.name.
		"/tools/t1/calls": 2, "/tools/t1/isError": 1,
		"/tools/t2/calls": 1, "/tools/t2/isError": 0,
		// a: 20 ms (line 6 to 7, LIFO) and 50 ms (5 to 8).
		"/latency/a": map[string]any{"count": 2.0, "p50": 20.0, "p90": 50.0, "p99": 50.0, "max": 50.0, "exact": true},
		// b: 12:00:02+02:00 to 10:00:02.003Z.
		"/latency/b/p50": 3,
		// tools/call: 40, 10, 30 ms; ranks ceil(1.5)=2, ceil(2.7)=3, ceil(2.97)=3.
		"/latency/tools~1call": map[string]any{"count": 3.0, "p50": 30.0, "p90": 40.0, "p99": 40.0, "max": 40.0, "exact": true},
		// Both batch members answered 8 ms later.
		"/latency/c/count": 2, "/latency/c/p50": 8,
		"/latency/initialize/max": 100, "/latency/roots~1list/max": 5, "/latency/d/count": 1,
		// ping's response has no timestamp.
		"/latency/ping":        nil,
		"/validation/valid":    27,
		"/validation/invalid":  0,
		"/validation/problems": []any{},
	})
}

func TestCollectorCases(t *testing.T) {
	env := func(dir, msg string) string {
		return `{"dir":"` + dir + `","ts":"2026-01-01T00:00:00Z","msg":` + msg + "}\n"
	}
	tests := []struct {
		name string
		log  string
		want map[string]any
	}{
		{
			name: "bare log: ids compared by type and value",
			log: `{"jsonrpc":"2.0","id":1,"method":"m"}
{"jsonrpc":"2.0","id":"1","method":"m"}
{"jsonrpc":"2.0","id":1e0,"method":"m"}
{"jsonrpc":"2.0","id":1,"result":0}
{"jsonrpc":"2.0","id":1,"result":0}
{"jsonrpc":"2.0","id":1,"result":0}
`,
			want: map[string]any{
				"/kinds/request/unknown": 3, "/kinds/response/unknown": 3,
				"/pairing/unknown/requests": 3, "/pairing/unknown/reusedIds": 1,
				"/pairing/unknown/answered": 2, "/pairing/unknown/unanswered": 1, "/pairing/unknown/orphanResponses": 1,
				"/latency": map[string]any{},
			},
		},
		{
			name: "the same id both ways is not reuse",
			log: env("c2s", `{"jsonrpc":"2.0","id":0,"method":"initialize"}`) +
				env("s2c", `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`) +
				env("s2c", `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`) +
				env("c2s", `{"jsonrpc":"2.0","id":0,"result":{}}`),
			want: map[string]any{
				"/pairing/c2s/reusedIds": 0, "/pairing/s2c/reusedIds": 1,
				"/pairing/s2c/answered": 1, "/pairing/s2c/unanswered": 1, "/pairing/c2s/unanswered": 1,
				"/latency/roots~1list/count": 1, "/latency/roots~1list/max": 0,
			},
		},
		{
			name: "isError only at the top of the result; tools/call without a name",
			log: env("c2s", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`) +
				env("s2c", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"isError":true}}}`) +
				env("c2s", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}`) +
				env("s2c", `{"jsonrpc":"2.0","id":2,"result":{"isError":true}}`) +
				env("c2s", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}`) +
				env("s2c", `{"jsonrpc":"2.0","id":3,"result":{"isError":"true"}}`),
			want: map[string]any{
				"/requests/tools~1call": 3,
				"/tools":                map[string]any{"t": map[string]any{"calls": 2.0, "isError": 0.0}},
			},
		},
		{
			name: "a line that is not JSON is counted as invalid, the rest still counted",
			log: `{"jsonrpc":"2.0","id":1,"method":"m"}
{"jsonrpc":"2.0", oops
{"jsonrpc":"1.0","id":2,"method":"m"}
{"jsonrpc":"2.0","id":1,"result":null}
`,
			want: map[string]any{
				"/messages": 4, "/kinds/invalid/unknown": 2, "/kinds/request/unknown": 1, "/kinds/response/unknown": 1,
				"/requests/m": 1, "/pairing/unknown/answered": 1,
				"/validation/valid": 2, "/validation/invalid": 2,
				"/validation/problems": []any{
					map[string]any{"kind": "invalid", "code": -32700.0, "severity": "error", "source": "rules", "count": 1.0},
					map[string]any{"kind": "invalid", "code": -32600.0, "severity": "error", "source": "rules", "count": 1.0},
				},
			},
		},
		{
			name: "warnings and an invalid batch member",
			log: `[{"jsonrpc":"2.0","id":1,"method":"rpc.x"},{"jsonrpc":"2.0"}]
{"jsonrpc":"2.0","id":null,"result":1}
`,
			want: map[string]any{
				"/kinds/batch/unknown": 1, "/requests/rpc.x": 1, "/validation/invalid": 1, "/validation/valid": 1,
				"/validation/warnings":             2,
				"/pairing/unknown/orphanResponses": 1,
				"/validation/problems/0/kind":      "request",
				"/validation/problems/0/severity":  "warning",
				"/validation/problems/1/kind":      "response",
				"/validation/problems/2/kind":      "invalid",
			},
		},
		{
			name: "timestamps that are not RFC 3339 with an offset give no latency",
			log: `{"dir":"c2s","ts":"2026-01-01T00:00:00","msg":{"jsonrpc":"2.0","id":1,"method":"m"}}
{"dir":"s2c","ts":"2026-01-01T00:00:01","msg":{"jsonrpc":"2.0","id":1,"result":1}}
{"dir":"c2s","ts":"yesterday","msg":{"jsonrpc":"2.0","id":2,"method":"m"}}
{"dir":"s2c","ts":"2026-01-01T00:00:01Z","msg":{"jsonrpc":"2.0","id":2,"result":1}}
`,
			want: map[string]any{"/pairing/c2s/answered": 2, "/latency": map[string]any{}},
		},
		{
			// An empty log is a problem, as a JSON-RPC server answers an
			// empty body: one invalid record, -32700.
			name: "empty log",
			log:  "",
			want: map[string]any{"/messages": 1, "/kinds/invalid/unknown": 1, "/validation/invalid": 1,
				"/validation/problems/0/code": -32700, "/errors": []any{}, "/pairing": map[string]any{}},
		},
		{
			// As validate counts them: a member named twice is a warning of a
			// valid message, a "dir" that is neither c2s nor s2c an error.
			name: "a member named twice and a wrong direction",
			log: `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}
{"dir":"in","msg":{"jsonrpc":"2.0","method":"n"}}
`,
			want: map[string]any{"/validation/valid": 1, "/validation/invalid": 1, "/validation/warnings": 1,
				"/validation/problems/0/kind": "request", "/validation/problems/0/severity": "warning", "/validation/problems/0/code": 0,
				"/validation/problems/1/kind": "notification", "/validation/problems/1/severity": "error", "/validation/problems/1/code": -32600,
				"/kinds/notification/unknown": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := collect(t, tt.log, Options{})
			check(t, got, tt.want)
		})
	}
}

// TestSchemaProblems: with a schema, its problems are counted apart from
// the rules'.
func TestSchemaProblems(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(file, []byte(`{"type":"object","properties":{"params":{"type":"object","required":["x"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := schema.CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	checker, err := schema.NewChecker(s, "")
	if err != nil {
		t.Fatal(err)
	}
	_, got := collect(t, `{"jsonrpc":"2.0","id":1,"method":"m","params":{}}
{"jsonrpc":"2.0","id":2,"method":"m","params":{"x":1}}
`, Options{Checker: checker, Schema: s.Name()})
	check(t, got, map[string]any{
		"/validation/schema": s.Name(), "/validation/valid": 1, "/validation/invalid": 1,
		"/validation/problems/0/source": "schema", "/validation/problems/0/kind": "request",
		"/validation/problems/0/count": 1, "/validation/problems/1": nil,
	})
}

func TestTimeline(t *testing.T) {
	log := `{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":1,"method":"m"}}
{"dir":"s2c","ts":"2026-01-01T00:00:01Z","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}}
{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"n"}}
`
	c, _ := collect(t, log, Options{Timeline: 2})
	want := []Event{
		{Pos: 1, Dir: "c2s", Kind: "request", Label: "m", ID: "1", TS: "2026-01-01T00:00:00Z"},
		{Pos: 2, Dir: "s2c", Kind: "error-response", Label: "error -1 to m", ID: "1", Answers: 1, TS: "2026-01-01T00:00:01Z"},
	}
	if got := c.Timeline(); !reflect.DeepEqual(got, want) {
		t.Errorf("timeline\n%+v\nwant\n%+v", got, want)
	}
}

// TestAddTotals: the total of two logs is the sum of their figures, and
// latencies merge before percentiles are taken.
func TestAddTotals(t *testing.T) {
	a, _ := collect(t, `{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":1,"method":"m"}}
{"dir":"s2c","ts":"2026-01-01T00:00:00.010Z","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-5,"message":"x"}}}
`, Options{})
	b, _ := collect(t, `{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":1,"method":"m"}}
{"dir":"s2c","ts":"2026-01-01T00:00:00.030Z","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-5,"message":"x"}}}
{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":2,"method":"m"}}
{"dir":"s2c","ts":"2026-01-01T00:00:00.020Z","msg":{"jsonrpc":"2.0","id":2,"result":1}}
`, Options{})
	r := NewReport()
	r.Add(&LogStats{File: "a", Stats: a.Stats()})
	r.Add(&LogStats{File: "b", Stats: b.Stats()})
	check(t, toJSON(t, r), map[string]any{
		"/logs/0/file": "a", "/logs/1/messages": 4,
		"/total/messages": 6, "/total/requests/m": 3, "/total/pairing/c2s/answered": 3,
		"/total/errors": []any{map[string]any{"code": -5.0, "method": "m", "count": 2.0}},
		// 10, 30, 20 ms: p50 is the second smallest.
		"/total/latency/m": map[string]any{"count": 3.0, "p50": 20.0, "p90": 30.0, "p99": 30.0, "max": 30.0, "exact": true},
	})
}

// TestMemoryBounded: open requests beyond the tracker's limit are forgotten
// and the reuse index is rebuilt, so neither grows with the log.
func TestMemoryBounded(t *testing.T) {
	c := NewCollector(Options{})
	n := jsonrpc.DefaultOpenLimit + 2*forgetLimit + 10
	for i := 0; i < n; i++ {
		c.Add(&rpclog.Record{Value: map[string]any{"jsonrpc": "2.0", "id": json.Number(strconv.Itoa(i)), "method": "m"}, Dir: jsonrpc.ClientToServer})
	}
	if len(c.open) > jsonrpc.DefaultOpenLimit+forgetLimit || c.tracker.Len() != jsonrpc.DefaultOpenLimit {
		t.Errorf("%d open ids indexed, %d tracked", len(c.open), c.tracker.Len())
	}
	p := c.Stats().Pairing[DirC2S]
	if p.Requests != n || p.Unanswered != n || p.ReusedIDs != 0 {
		t.Errorf("%+v", p)
	}
	// The latest request is still open: reusing its id is seen.
	c.Add(&rpclog.Record{Value: map[string]any{"jsonrpc": "2.0", "id": json.Number(strconv.Itoa(n - 1)), "method": "m"}, Dir: jsonrpc.ClientToServer})
	if p.ReusedIDs != 1 {
		t.Errorf("reuse of the latest id not seen: %+v", p)
	}
}

// TestSessions: two MCP sessions recorded in one log, interleaved, each
// numbering its ids from 0: each response answers its own session's
// request, so no id is reused and the latencies are each session's. The
// same log without its "session" members pairs as before, the latest open
// request of the id (figures by hand for both).
func TestSessions(t *testing.T) {
	lines := []struct{ session, dir, ts, msg string }{
		{"A", "c2s", "00.000", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`},
		{"B", "c2s", "00.010", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`},
		{"A", "s2c", "00.100", `{"jsonrpc":"2.0","id":0,"result":{}}`},
		{"B", "s2c", "00.030", `{"jsonrpc":"2.0","id":0,"result":{}}`},
		{"A", "c2s", "00.200", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`},
		{"B", "c2s", "00.210", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"A", "s2c", "00.250", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
		{"B", "s2c", "00.290", `{"jsonrpc":"2.0","id":1,"result":{}}`},
	}
	for _, c := range []struct {
		name     string
		sessions bool
		want     map[string]any
	}{
		{"sessions", true, map[string]any{
			"/pairing/c2s/requests": 4, "/pairing/c2s/answered": 4, "/pairing/c2s/reusedIds": 0,
			"/pairing/c2s/orphanResponses": 0,
			"/latency/initialize/p50":      20, "/latency/initialize/max": 100,
			"/latency/tools~1call/max": 50, "/latency/ping/max": 80}},
		{"no sessions", false, map[string]any{
			"/pairing/c2s/requests": 4, "/pairing/c2s/answered": 4, "/pairing/c2s/reusedIds": 2,
			"/pairing/c2s/orphanResponses": 0,
			"/latency/initialize/p50":      30, "/latency/initialize/max": 90,
			"/latency/tools~1call/max": 90, "/latency/ping/max": 40}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log strings.Builder
			for _, l := range lines {
				session := ""
				if c.sessions {
					session = `,"session":"` + l.session + `"`
				}
				log.WriteString(`{"dir":"` + l.dir + `","ts":"2026-01-01T00:00:` + l.ts + `Z"` + session + `,"msg":` + l.msg + "}\n")
			}
			_, got := collect(t, log.String(), Options{})
			check(t, got, c.want)
		})
	}
}
