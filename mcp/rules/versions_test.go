package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp"
	"github.com/jrpcld/jrpcld/mcp/rules"
	"github.com/jrpcld/jrpcld/schema"
)

func scan(t *testing.T, log []string) *rules.Versions {
	t.Helper()
	r, err := rpclog.NewReader(strings.NewReader(strings.Join(log, "\n")+"\n"), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := rules.Scan(r)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// span is what TestScan compares of a rules.Span.
type span struct {
	start, session int
	version        string
	source         rules.Source
	from, messages int
	handshake      bool
}

// TestScan: a session opened by initialize takes the version of the
// answer, else of the request; a stateless log the _meta version of its
// requests, a new span where it changes; what has neither is unknown; an
// answer of the wrong id, or sent the same way, is no answer.
func TestScan(t *testing.T) {
	const v1, v2 = "2025-06-18", "2025-11-25"
	init := func(id any, v string) string {
		return c(req("", id, "initialize", `{"protocolVersion":"`+v+`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`))
	}
	answer := func(id any, v string) string {
		return s(res(id, `{"protocolVersion":"`+v+`","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`))
	}
	meta := func(id any, v string) string {
		return c(req("", id, "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+v+`"}}`))
	}
	for _, x := range []struct {
		name string
		log  []string
		want []span
	}{
		{"answered", lines(init(0, v2), answer(0, v1), c(note("notifications/initialized", ""))),
			[]span{{0, 1, v1, rules.FromAnswer, 2, 3, true}}},
		{"unanswered", lines(init(0, v2), c(req("", 1, "ping", ""))),
			[]span{{0, 1, v2, rules.FromRequest, 1, 2, true}}},
		{"an answer of another id, one sent the same way", lines(init(0, v2), s(res(1, `{"protocolVersion":"`+v1+`"}`)), c(res(0, `{"protocolVersion":"`+v1+`"}`))),
			[]span{{0, 1, v2, rules.FromRequest, 1, 3, true}}},
		{"before a handshake, two sessions", lines(c(req("", 1, "ping", "")), init(0, v1), answer(0, v1), init("a", v2), answer("a", v2)),
			[]span{{0, 0, "", rules.Unknown, 0, 1, false}, {1, 1, v1, rules.FromAnswer, 3, 2, true}, {3, 2, v2, rules.FromAnswer, 5, 2, true}}},
		{"stateless", lines(s(note("notifications/message", "{}")), meta(1, "2026-07-28"), s(res(1, "{}")), meta(2, "2026-07-28"), meta(3, "2099-01-01")),
			[]span{{0, 0, "2026-07-28", rules.FromMeta, 2, 4, false}, {4, 0, "2099-01-01", rules.FromMeta, 5, 1, false}}},
		{"nothing", lines(c(req("", 1, "ping", "")), "nonsense"),
			[]span{{0, 0, "", rules.Unknown, 0, 2, false}}},
		{"a handshake's _meta is not a version", lines(init(0, v1), answer(0, v1), meta(1, "2026-07-28")),
			[]span{{0, 1, v1, rules.FromAnswer, 2, 3, true}}},
	} {
		t.Run(x.name, func(t *testing.T) {
			vs := scan(t, x.log)
			var got []span
			for _, sp := range vs.Spans {
				got = append(got, span{sp.Start, sp.Session, sp.Version, sp.Source, sp.From, sp.Messages, sp.Handshake})
			}
			if len(got) != len(x.want) {
				t.Fatalf("spans %+v, want %+v", got, x.want)
			}
			for i := range got {
				if got[i] != x.want[i] {
					t.Errorf("span %d: %+v, want %+v", i, got[i], x.want[i])
				}
			}
			if vs.Messages != len(x.log) {
				t.Errorf("%d messages, want %d", vs.Messages, len(x.log))
			}
			for i := range x.log {
				sp := vs.At(i)
				if sp == nil || sp.Start > i || sp.Start+sp.Messages <= i {
					t.Errorf("message %d: span %+v", i, sp)
				}
			}
			if vs.At(len(x.log)) != nil {
				t.Errorf("a span past the log")
			}
		})
	}
}

// schemaSet is a rules.Schemas of schemas written here.
type schemaSet map[string]*schema.Schema

func (m schemaSet) Versions() ([]string, error) {
	var vs []string
	for v := range m {
		vs = append(vs, v)
	}
	return sortedCopy(vs), nil
}

func (m schemaSet) Schema(v string) (*schema.Schema, error) { return m[v], nil }

func sortedCopy(vs []string) []string {
	out := append([]string(nil), vs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestInfer: a log without a version takes the newest of those whose
// schemas find the most of its messages valid, and says why; only the
// first limit messages are read.
func TestInfer(t *testing.T) {
	dir := t.TempDir()
	compile := func(name, text string) *schema.Schema {
		p := filepath.Join(dir, name+".json")
		os.WriteFile(p, []byte(text), 0o644)
		sc, err := schema.CompileFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	// a takes anything; b wants "params" objects with x; c refuses every
	// request.
	set := schemaSet{
		"2001-01-01": compile("a", `{}`),
		"2002-02-02": compile("b", `{"properties":{"params":{"required":["x"]}}}`),
		"2003-03-03": compile("c", `{"not":{"required":["method"]}}`),
	}
	withX := c(req("", 1, "ping", `{"x":1}`))
	withoutX := c(req("", 2, "ping", `{"y":1}`))
	for _, x := range []struct {
		name  string
		log   []string
		limit int
		want  string
		why   string
	}{
		{"all accept", lines(withX), 10, "2002-02-02", "the schemas of 2001-01-01 and 2002-02-02 accept its one message; the newest, 2002-02-02, taken"},
		{"one accepts all", lines(withX, withoutX), 10, "2001-01-01", "the schema of 2001-01-01 accepts all 2 messages"},
		{"limited", lines(withX, withoutX), 1, "2002-02-02", "accept all of its first 1 messages"},
		{"none accepts all", lines(withX, withoutX, "[]"), 10, "2001-01-01", "no schema accepts all 3 messages; that of 2001-01-01 accepts the most, 2"},
	} {
		t.Run(x.name, func(t *testing.T) {
			vs := scan(t, x.log)
			text := strings.Join(x.log, "\n") + "\n"
			r, _ := rpclog.NewReader(strings.NewReader(text), "log", rpclog.ReaderOptions{})
			if err := vs.Infer(r, set, x.limit); err != nil {
				t.Fatal(err)
			}
			sp := vs.At(0)
			if sp.Version != x.want || sp.Source != rules.FromTraffic || !strings.Contains(sp.Reason(), x.why) {
				t.Errorf("%s (%s): %s; want %s, %q", sp.Version, sp.Source, sp.Reason(), x.want, x.why)
			}
		})
	}
}

// TestTaskResults: in 2025-11-25, the response to a task-augmented call is
// checked against CreateTaskResult where the server declared that it takes
// them, against the call's result where it declared it does not, and
// against either where the log does not say; tasks/result's result is the
// call's.
func TestTaskResults(t *testing.T) {
	set := &mcp.Set{Dir: shared.Dir(t, "reference", "mcp-schema")}
	sc, err := set.Schema("2025-11-25")
	if err != nil {
		t.Fatal(err)
	}
	const v = "2025-11-25"
	taskList := lines(c(req(v, 1, "tools/list", "")), s(res(1, `{"tools":[{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}]}`)))
	callResult := `{"content":[{"type":"text","text":"done"}]}`
	for _, x := range []struct {
		name    string
		log     []string
		invalid []int // lines
	}{
		{"declared: a CreateTaskResult, and tasks/result gives the call's", lines(hs(v, "{}", taskCaps), taskList,
			c(req(v, 2, "tools/call", taskCall)), s(res(2, created)),
			c(req(v, 3, "tasks/result", `{"taskId":"k"}`)), s(res(3, callResult))), nil},
		{"declared: a CallToolResult is not one", lines(hs(v, "{}", taskCaps), taskList,
			c(req(v, 2, "tools/call", taskCall)), s(res(2, callResult))), []int{7}},
		{"tasks/result's result must be the call's", lines(hs(v, "{}", taskCaps), taskList,
			c(req(v, 2, "tools/call", taskCall)), s(res(2, created)),
			c(req(v, 3, "tasks/result", `{"taskId":"k"}`)), s(res(3, `{"content":"not a list"}`))), []int{9}},
		{"not declared: the call's result", lines(hs(v, "{}", `{"tools":{}}`), taskList,
			c(req(v, 2, "tools/call", taskCall)), s(res(2, created))), []int{7}},
		{"no handshake: either", lines(taskList, c(req(v, 2, "tools/call", taskCall)), s(res(2, created)),
			c(req(v, 3, "tools/call", taskCall)), s(res(3, callResult))), nil},
	} {
		t.Run(x.name, func(t *testing.T) {
			text := strings.Join(x.log, "\n") + "\n"
			vs := scan(t, x.log)
			vs.Settle(v, rules.Given, "the test's")
			rc := rules.NewChecker(rules.Options{Versions: vs, Schemas: map[string]*schema.Schema{v: sc}})
			ch, _ := schema.NewChecker(nil, "")
			ch.Observe(rc, sc)
			r, _ := rpclog.NewReader(strings.NewReader(text), "log", rpclog.ReaderOptions{})
			var got []int
			schema.ValidateLog(r, ch, "log", func(f schema.Finding) {
				if f.Severity == diag.Error && f.Rule == "" && f.Kind == jsonrpc.KindResponse {
					if len(got) == 0 || got[len(got)-1] != f.Line {
						got = append(got, f.Line)
					}
				}
			})
			if len(got) != len(x.invalid) || len(got) > 0 && got[0] != x.invalid[0] {
				t.Errorf("invalid responses at lines %v, want %v", got, x.invalid)
			}
		})
	}
}
