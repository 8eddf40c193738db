package rules_test

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/mcp/rules"
)

// The versions the tests run each log in, and those with an initialize
// handshake, written here apart from the code's lists.
var (
	testVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}
	legacy       = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
)

// c and s write a message as the client or the server sent it.
func c(msg string) string { return `{"dir":"c2s","msg":` + msg + `}` }
func s(msg string) string { return `{"dir":"s2c","msg":` + msg + `}` }

// req, note, res and fail write a request, a notification, a success and
// an error response. A request of a stateless version carries it in its
// _meta, as that version asks.
func req(v string, id any, method, params string) string {
	if v == "2026-07-28" {
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		if params == "" {
			params = "{" + meta + "}"
		} else if !strings.Contains(params, `"_meta"`) {
			params = "{" + meta + "," + params[1:]
		} else {
			params = strings.Replace(params, `"_meta":{`, `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`, 1)
		}
	}
	p := ""
	if params != "" {
		p = `,"params":` + params
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q%s}`, idText(id), method, p)
}

func idText(id any) string {
	if s, ok := id.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(id)
}

func note(method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params)
}

func res(id any, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, idText(id), result)
}

func fail(id any) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`, idText(id))
}

// hs returns the handshake of a session of version v (three lines: the
// initialize request of id 0, its answer and notifications/initialized),
// with the client's and the server's capabilities; none for a stateless
// version.
func hs(v, client, server string) []string {
	if v == "2026-07-28" {
		return nil
	}
	return []string{
		c(req(v, 0, "initialize", `{"protocolVersion":"`+v+`","capabilities":`+client+`,"clientInfo":{"name":"c","version":"1"}}`)),
		s(res(0, `{"protocolVersion":"`+v+`","capabilities":`+server+`,"serverInfo":{"name":"s","version":"1"}}`)),
		c(note("notifications/initialized", "")),
	}
}

// lines joins parts (strings and slices of them) as the lines of a log.
func lines(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			out = append(out, p)
		case []string:
			out = append(out, p...)
		}
	}
	return out
}

// check runs the rules on a log of version v: the version of messages
// without a handshake or _meta is v. It returns the findings as "LINE
// RULE" and the severity of each, with those about sessions as wholes.
func check(t *testing.T, v string, log []string) (found []string, sev map[string]diag.Severity) {
	t.Helper()
	sev = map[string]diag.Severity{}
	for _, f := range ruleFindings(t, strings.Join(log, "\n")+"\n", v) {
		k := fmt.Sprintf("%d %s", f.Line, f.Rule)
		found = append(found, k)
		sev[k] = f.Severity
		if !strings.HasPrefix(f.Help, rules.SpecURL+v+"/") && !strings.HasPrefix(f.Help, rules.SpecURL) {
			t.Errorf("%s: help %q", k, f.Help)
		}
	}
	sort.Strings(found)
	return found, sev
}

// ruleCase is a log that breaks a rule, or keeps it in a way that could be
// taken for breaking it.
type ruleCase struct {
	name string
	log  func(v string) []string
	want []string // "LINE" of each finding of the rule, where a version states it
}

// testRule runs each case in every version: where stated names the
// version (and gives its severity), the case's findings of rule id are
// those it wants; elsewhere there are none.
func testRule(t *testing.T, id string, stated map[string]diag.Severity, cases []ruleCase) {
	t.Helper()
	r, ok := rules.Lookup(id)
	if !ok {
		t.Fatalf("no rule %s", id)
	}
	var names []string
	for _, st := range r.Stated {
		names = append(names, st.Version)
		if st.Severity != stated[st.Version] {
			t.Errorf("%s in %s: severity %s, want %s", id, st.Version, st.Severity, stated[st.Version])
		}
	}
	if len(names) != len(stated) {
		t.Errorf("%s stated in %v, want %d versions", id, names, len(stated))
	}
	for _, cs := range cases {
		for _, v := range testVersions {
			log := cs.log(v)
			if log == nil {
				continue // the case has no log in this version
			}
			t.Run(cs.name+"/"+v, func(t *testing.T) {
				found, sev := check(t, v, log)
				var got []string
				for _, f := range found {
					if line, rule, _ := strings.Cut(f, " "); rule == id {
						got = append(got, line)
						if want, ok := stated[v]; ok && sev[f] != want {
							t.Errorf("%s: severity %s, want %s", f, sev[f], want)
						}
					}
				}
				var want []string
				if _, ok := stated[v]; ok {
					want = cs.want
				}
				if !slices.Equal(got, want) {
					t.Errorf("findings of %s at lines %v, want %v; all: %v", id, got, want, found)
				}
			})
		}
	}
}

// all returns the severities of a rule stated with sev in versions vs.
func all(sev diag.Severity, vs ...string) map[string]diag.Severity {
	m := map[string]diag.Severity{}
	for _, v := range vs {
		m[v] = sev
	}
	return m
}

// capability is how the versions state a capability rule: a SHOULD NOT
// until 2025-03-26, a MUST NOT since 2025-06-18.
func capability(vs ...string) map[string]diag.Severity {
	m := map[string]diag.Severity{}
	for _, v := range vs {
		m[v] = diag.Error
		if v == "2024-11-05" || v == "2025-03-26" {
			m[v] = diag.Warning
		}
	}
	return m
}

func TestInitializeFirst(t *testing.T) {
	testRule(t, "mcp-lifecycle-initialize-first", all(diag.Error, legacy...), []ruleCase{
		{"a request before initialize", func(v string) []string {
			return lines(c(req(v, 1, "ping", "")), s(res(1, "{}")), hs(v, "{}", "{}"))
		}, []string{"1", "2"}},
		// No initialize at all: the log may start after it.
		{"no handshake in the log", func(v string) []string {
			return lines(c(req(v, 1, "ping", "")), s(res(1, "{}")))
		}, nil},
		// The messages before a later session's initialize are the first
		// session's.
		{"a second session", func(v string) []string {
			return lines(hs(v, "{}", "{}"), c(req(v, 1, "ping", "")), s(res(1, "{}")), hs(v, "{}", "{}"))
		}, nil},
	})
}

func TestClientWaitsForInitialize(t *testing.T) {
	testRule(t, "mcp-lifecycle-client-waits-for-initialize", all(diag.Warning, legacy...), []ruleCase{
		{"tools/list before the answer", func(v string) []string {
			h := hs(v, "{}", `{"tools":{}}`)
			if h == nil {
				return nil
			}
			return lines(h[0], c(req(v, 1, "tools/list", "")), h[1], h[2], s(res(1, `{"tools":[]}`)))
		}, []string{"2"}},
		// ping may go before the answer, and the initialize request
		// itself is the client's first.
		{"ping before the answer", func(v string) []string {
			h := hs(v, "{}", "{}")
			if h == nil {
				return nil
			}
			return lines(h[0], c(req(v, 1, "ping", "")), s(res(1, "{}")), h[1], h[2])
		}, nil},
	})
}

func TestServerWaitsForInitialized(t *testing.T) {
	testRule(t, "mcp-lifecycle-server-waits-for-initialized", all(diag.Warning, legacy...), []ruleCase{
		{"roots/list before initialized", func(v string) []string {
			h := hs(v, `{"roots":{}}`, "{}")
			if h == nil {
				return nil
			}
			return lines(h[0], h[1], s(req(v, 7, "roots/list", "")), c(res(7, `{"roots":[]}`)), h[2])
		}, []string{"3"}},
		// ping and log messages may go before it.
		{"ping and a log message before initialized", func(v string) []string {
			h := hs(v, "{}", `{"logging":{}}`)
			if h == nil {
				return nil
			}
			return lines(h[0], h[1], s(req(v, 7, "ping", "")), s(note("notifications/message", `{"level":"info","data":"x"}`)), c(res(7, "{}")), h[2])
		}, nil},
	})
}

func TestInitialized(t *testing.T) {
	testRule(t, "mcp-lifecycle-initialized", all(diag.Error, legacy...), []ruleCase{
		{"tools/list before initialized", func(v string) []string {
			h := hs(v, "{}", `{"tools":{}}`)
			if h == nil {
				return nil
			}
			return lines(h[0], h[1], c(req(v, 1, "tools/list", "")), s(res(1, `{"tools":[]}`)), h[2])
		}, []string{"3"}},
		{"never sent", func(v string) []string {
			h := hs(v, "{}", "{}")
			if h == nil {
				return nil
			}
			return lines(h[0], h[1])
		}, []string{"2"}},
		{"sent before the answer", func(v string) []string {
			h := hs(v, "{}", "{}")
			if h == nil {
				return nil
			}
			return lines(h[0], h[2], h[1])
		}, []string{"2"}},
		// ping may go first; an initialize that failed needs none.
		{"ping first, and a failed initialize", func(v string) []string {
			h := hs(v, "{}", "{}")
			if h == nil {
				return nil
			}
			return lines(h[0], h[1], c(req(v, 1, "ping", "")), s(res(1, "{}")), h[2],
				c(req(v, 0, "initialize", `{"protocolVersion":"1900-01-01","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)), s(fail(0)))
		}, nil},
	})
}

// other returns a released version other than v.
func other(v string) string {
	if v == "2025-06-18" {
		return "2025-03-26"
	}
	return "2025-06-18"
}

// session returns a session whose client asks for asked and whose server
// answers answered.
func session(asked, answered string) []string {
	return []string{
		c(req("", 0, "initialize", `{"protocolVersion":"`+asked+`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)),
		s(res(0, `{"protocolVersion":"`+answered+`","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)),
		c(note("notifications/initialized", "")),
	}
}

func TestVersionServerAnswer(t *testing.T) {
	testRule(t, "mcp-version-server-answer", all(diag.Error, legacy...), []ruleCase{
		// The server answers the version asked in one session, and
		// another to the same request in the next.
		{"answered both ways", func(v string) []string {
			return lines(session(other(v), other(v)), session(other(v), v))
		}, []string{"5"}},
		// A server that never answered the version asked may not support
		// it.
		{"the same answer twice", func(v string) []string {
			return lines(session(other(v), v), session(other(v), v))
		}, nil},
	})
}

func TestVersionClientDisconnects(t *testing.T) {
	testRule(t, "mcp-version-client-disconnects", all(diag.Warning, legacy...), []ruleCase{
		{"goes on after a newer version", func(v string) []string {
			return session("2024-10-07", v)
		}, []string{"3"}},
		// An older version than asked for may well be supported.
		{"goes on after an older version", func(v string) []string {
			return session("2099-01-01", v)
		}, nil},
	})
}

// capCase returns the cases of a capability: use breaks it where the
// capability is declared as without, and keeps it where it is declared as
// with; sender is "c" or "s", the peer that uses it, and which peer's
// capabilities are given follows from it.
func capCase(use func(v string) []string, sender, without, with string) []ruleCase {
	log := func(v, caps string) []string {
		h := hs(v, "{}", caps)
		if sender == "s" {
			h = hs(v, caps, "{}")
		}
		return lines(h, use(v))
	}
	return []ruleCase{
		{"undeclared", func(v string) []string { return log(v, without) }, []string{"4"}},
		{"declared", func(v string) []string { return log(v, with) }, nil},
	}
}

func TestCapabilities(t *testing.T) {
	for _, x := range []struct {
		id            string
		stated        map[string]diag.Severity
		sender        string
		use           func(v string) []string
		without, with string
	}{
		{"mcp-capability-tools", capability(legacy...), "c", func(v string) []string {
			return lines(c(req(v, 1, "tools/list", "")), s(res(1, `{"tools":[]}`)))
		}, `{"prompts":{}}`, `{"tools":{}}`},
		{"mcp-capability-resources", capability(legacy...), "c", func(v string) []string {
			return lines(c(req(v, 1, "resources/templates/list", "")), s(res(1, `{"resourceTemplates":[]}`)))
		}, `{"tools":{"listChanged":true}}`, `{"resources":{}}`},
		{"mcp-capability-resources-subscribe", capability(legacy...), "c", func(v string) []string {
			return lines(c(req(v, 1, "resources/subscribe", `{"uri":"file:///a"}`)), s(res(1, "{}")))
		}, `{"resources":{"listChanged":true,"subscribe":false}}`, `{"resources":{"subscribe":true}}`},
		{"mcp-capability-resources-subscribe", capability(legacy...), "s", func(v string) []string {
			return lines(s(note("notifications/resources/updated", `{"uri":"file:///a"}`)))
		}, `{}`, `{}`}, // the server's capabilities are given below
		{"mcp-capability-prompts", capability(legacy...), "c", func(v string) []string {
			return lines(c(req(v, 1, "prompts/get", `{"name":"p"}`)), s(res(1, `{"messages":[]}`)))
		}, `{"tools":{}}`, `{"prompts":{}}`},
		{"mcp-capability-logging", capability(legacy...), "c", func(v string) []string {
			return lines(c(req(v, 1, "logging/setLevel", `{"level":"info"}`)), s(res(1, "{}")))
		}, `{}`, `{"logging":{}}`},
		{"mcp-capability-completions", capability("2025-03-26", "2025-06-18", "2025-11-25"), "c", func(v string) []string {
			return lines(c(req(v, 1, "completion/complete", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}`)), s(res(1, `{"completion":{"values":[]}}`)))
		}, `{"prompts":{}}`, `{"completions":{}}`},
		{"mcp-capability-sampling", capability(legacy...), "s", func(v string) []string {
			return lines(s(req(v, 1, "sampling/createMessage", `{"messages":[],"maxTokens":1}`)), c(res(1, `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`)))
		}, `{"roots":{}}`, `{"sampling":{}}`},
		{"mcp-capability-roots", capability(legacy...), "s", func(v string) []string {
			return lines(s(req(v, 1, "roots/list", "")), c(res(1, `{"roots":[]}`)))
		}, `{"sampling":{}}`, `{"roots":{}}`},
		{"mcp-capability-elicitation", capability("2025-06-18", "2025-11-25"), "s", func(v string) []string {
			return lines(s(req(v, 1, "elicitation/create", `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`)), c(res(1, `{"action":"decline"}`)))
		}, `{"sampling":{}}`, `{"elicitation":{}}`},
		{"mcp-capability-list-changed", capability(legacy...), "s", func(v string) []string {
			return lines(s(note("notifications/tools/list_changed", "")))
		}, `{}`, `{}`}, // the server's capabilities are given below
		{"mcp-capability-list-changed", capability(legacy...), "c", func(v string) []string {
			return lines(c(note("notifications/roots/list_changed", "")))
		}, `{}`, `{}`}, // the client's capabilities are given below
	} {
		cases := capCase(x.use, x.sender, x.without, x.with)
		switch x.use("")[0] {
		case s(note("notifications/resources/updated", `{"uri":"file:///a"}`)):
			// The server uses its own capability here.
			cases = []ruleCase{
				{"undeclared", func(v string) []string { return lines(hs(v, "{}", `{"resources":{}}`), x.use(v)) }, []string{"4"}},
				{"declared", func(v string) []string { return lines(hs(v, "{}", `{"resources":{"subscribe":true}}`), x.use(v)) }, nil},
			}
		case s(note("notifications/tools/list_changed", "")):
			cases = []ruleCase{
				{"undeclared", func(v string) []string { return lines(hs(v, "{}", `{"tools":{"listChanged":false}}`), x.use(v)) }, []string{"4"}},
				{"declared", func(v string) []string { return lines(hs(v, "{}", `{"tools":{"listChanged":true}}`), x.use(v)) }, nil},
			}
		case c(note("notifications/roots/list_changed", "")):
			cases = []ruleCase{
				{"undeclared", func(v string) []string { return lines(hs(v, `{"roots":{}}`, "{}"), x.use(v)) }, []string{"4"}},
				{"declared", func(v string) []string { return lines(hs(v, `{"roots":{"listChanged":true}}`, "{}"), x.use(v)) }, nil},
			}
		}
		t.Run(x.id, func(t *testing.T) { testRule(t, x.id, x.stated, cases) })
	}
}

// TestElicitationModes: in 2025-11-25, {} declares form mode only; url
// mode needs elicitation.url.
func TestElicitationModes(t *testing.T) {
	url := `{"mode":"url","message":"m","url":"https://example.com/","elicitationId":"e"}`
	form := `{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{}}}`
	use := func(v, caps, params string) []string {
		return lines(hs(v, caps, "{}"), s(req(v, 1, "elicitation/create", params)), c(res(1, `{"action":"decline"}`)))
	}
	testRule(t, "mcp-capability-elicitation", capability("2025-06-18", "2025-11-25"), []ruleCase{
		{"url mode, {} declared", func(v string) []string {
			if v != "2025-11-25" {
				return nil
			}
			return use(v, `{"elicitation":{}}`, url)
		}, []string{"4"}},
		{"form mode, url declared", func(v string) []string {
			if v != "2025-11-25" {
				return nil
			}
			return use(v, `{"elicitation":{"url":{}}}`, form)
		}, []string{"4"}},
		{"url mode, url declared; form mode, {} declared", func(v string) []string {
			return lines(use(v, `{"elicitation":{"url":{}}}`, url), use(v, `{"elicitation":{}}`, form))
		}, nil},
	})
}

// tasks returns a 2025-11-25 session whose server declares caps and
// lists a tool t of taskSupport support ("" for none).
func tasks(v, caps, support string) []string {
	exec := ""
	if support != "" {
		exec = `,"execution":{"taskSupport":"` + support + `"}`
	}
	return lines(hs(v, "{}", caps), c(req(v, 1, "tools/list", "")),
		s(res(1, `{"tools":[{"name":"t","inputSchema":{"type":"object"}`+exec+`}]}`)))
}

const (
	taskCall = `{"name":"t","task":{"ttl":1000}}`
	created  = `{"task":{"taskId":"k","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":1000}}`
	taskCaps = `{"tools":{},"tasks":{"list":{},"requests":{"tools":{"call":{}}}}}`
)

func TestCapabilityTasks(t *testing.T) {
	testRule(t, "mcp-capability-tasks", all(diag.Error, "2025-11-25"), []ruleCase{
		{"a task-augmented call without the capability", func(v string) []string {
			return lines(tasks(v, `{"tools":{},"tasks":{"list":{}}}`, "optional"), c(req(v, 2, "tools/call", taskCall)), s(res(2, `{"content":[]}`)))
		}, []string{"6"}},
		{"tasks/cancel without the capability", func(v string) []string {
			return lines(tasks(v, taskCaps, "optional"), c(req(v, 2, "tasks/cancel", `{"taskId":"k"}`)), s(fail(2)))
		}, []string{"6"}},
		{"a task-augmented call and tasks/list with them", func(v string) []string {
			return lines(tasks(v, taskCaps, "optional"), c(req(v, 2, "tools/call", taskCall)), s(res(2, created)),
				c(req(v, 3, "tasks/list", "")), s(res(3, `{"tasks":[]}`)))
		}, nil},
	})
}

func TestTaskToolSupport(t *testing.T) {
	testRule(t, "mcp-tasks-tool-support", all(diag.Error, "2025-11-25"), []ruleCase{
		{"a tool without taskSupport called as a task", func(v string) []string {
			return lines(tasks(v, taskCaps, ""), c(req(v, 2, "tools/call", taskCall)), s(res(2, created)))
		}, []string{"6"}},
		{"a tool that requires a task called without one", func(v string) []string {
			return lines(tasks(v, taskCaps, "required"), c(req(v, 2, "tools/call", `{"name":"t"}`)), s(fail(2)))
		}, []string{"6"}},
		// "optional" allows either; a tool no list offered is not known.
		{"optional both ways, and an unknown tool", func(v string) []string {
			return lines(tasks(v, taskCaps, "optional"), c(req(v, 2, "tools/call", taskCall)), s(res(2, created)),
				c(req(v, 3, "tools/call", `{"name":"t"}`)), s(res(3, `{"content":[]}`)),
				c(req(v, 4, "tools/call", `{"name":"u","task":{}}`)), s(fail(4)))
		}, nil},
	})
}

func TestBatchRemoved(t *testing.T) {
	testRule(t, "mcp-batch-removed", all(diag.Error, "2025-06-18", "2025-11-25", "2026-07-28"), []ruleCase{
		{"a batch", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c("["+req(v, 1, "ping", "")+"]"), s("["+res(1, "{}")+"]"))
		}, []string{"4", "5"}},
		// An array inside a message is no batch.
		{"an array in params", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), pad(v), c(req(v, 1, "tools/call", `{"name":"t","arguments":{"a":[1,2]}}`)), s(res(1, `{"content":[]}`)))
		}, nil},
	})
}

func TestResponseUnmatched(t *testing.T) {
	testRule(t, "mcp-response-unmatched", all(diag.Error, testVersions...), []ruleCase{
		{"an answer to nothing, and a second answer", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 1, "ping", "")), s(res(1, "{}")), s(res(1, "{}")), s(res(9, "{}")))
		}, []string{"6", "7"}},
		// Both peers' requests of id 1 are open; each answer goes the
		// other way; an error about an unreadable id has none.
		{"crossed ids and an error without id", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 1, "ping", "")), s(req(v, 1, "ping", "")),
				c(res(1, "{}")), s(res(1, "{}")), s(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`))
		}, nil},
	})
}

// pad returns, for a stateless version, three lines in the place of the
// handshake another version has, so that a case's lines are the same.
func pad(v string) []string {
	if v != "2026-07-28" {
		return nil
	}
	return []string{c(req(v, "p1", "tools/list", "")), s(res("p1", `{"tools":[]}`)), c(note("notifications/cancelled", `{"requestId":"none"}`))}
}

func TestRequestIDReused(t *testing.T) {
	testRule(t, "mcp-request-id-reused", all(diag.Error, legacy...), []ruleCase{
		{"an id used twice", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 1, "ping", "")), s(res(1, "{}")), c(req(v, 1, "ping", "")), s(res(1, "{}")))
		}, []string{"6"}},
		// The initialize request's id counts: the handshake used 0.
		{"the id of initialize", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 0, "ping", "")), s(res(0, "{}")))
		}, []string{"4"}},
		// Each requestor has its ids; "1" is not 1.
		{"the other peer's id, and a string", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 1, "ping", "")), s(res(1, "{}")), s(req(v, 1, "ping", "")), c(res(1, "{}")),
				c(req(v, "1", "ping", "")), s(res("1", "{}")))
		}, nil},
	})
}

func TestRequestIDInFlight(t *testing.T) {
	testRule(t, "mcp-request-id-in-flight", all(diag.Error, "2026-07-28"), []ruleCase{
		{"an id still open", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 1, "ping", "")), c(req(v, 1, "ping", "")), s(res(1, "{}")), s(res(1, "{}")))
		}, []string{"5"}},
		// Once answered, an id may be used again.
		{"an id answered", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 1, "ping", "")), s(res(1, "{}")), c(req(v, 1, "ping", "")), s(res(1, "{}")))
		}, nil},
	})
}

func TestCancelUnknown(t *testing.T) {
	testRule(t, "mcp-cancel-unknown-request", all(diag.Error, legacy...), []ruleCase{
		{"a request never issued", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(note("notifications/cancelled", `{"requestId":9}`)))
		}, []string{"4"}},
		// The server's request of id 1 is not the client's.
		{"the other peer's request", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), s(req(v, 1, "ping", "")), c(note("notifications/cancelled", `{"requestId":1}`)), c(res(1, "{}")))
		}, []string{"5"}},
		// Answered already: the race the specification allows.
		{"a request answered", func(v string) []string {
			return lines(hs(v, "{}", "{}"), pad(v), c(req(v, 1, "ping", "")), s(res(1, "{}")), c(note("notifications/cancelled", `{"requestId":1}`)))
		}, nil},
	})
}

func TestCancelInitialize(t *testing.T) {
	testRule(t, "mcp-cancel-initialize", all(diag.Error, legacy...), []ruleCase{
		{"initialize cancelled", func(v string) []string {
			h := hs(v, "{}", "{}")
			if h == nil {
				return nil
			}
			return lines(h[0], c(note("notifications/cancelled", `{"requestId":0}`)), h[1], h[2])
		}, []string{"2"}},
		// The server's request of id 0 is not initialize.
		{"the server's request 0", func(v string) []string {
			return lines(hs(v, "{}", "{}"), s(req(v, 0, "ping", "")), s(note("notifications/cancelled", `{"requestId":0}`)))
		}, nil},
	})
}

// call returns a tools/call of id with progress token tok.
func call(v string, id, tok any) string {
	return req(v, id, "tools/call", `{"name":"t","_meta":{"progressToken":`+idText(tok)+`}}`)
}

func progress(tok any, p string) string {
	return note("notifications/progress", `{"progressToken":`+idText(tok)+`,"progress":`+p+`}`)
}

func TestProgressToken(t *testing.T) {
	caps := `{"tools":{}}`
	testRule(t, "mcp-progress-unknown-token", all(diag.Error, legacy...), []ruleCase{
		{"no request gave it", func(v string) []string {
			return lines(hs(v, "{}", caps), s(progress("x", "1")))
		}, []string{"4"}},
		{"after the answer", func(v string) []string {
			return lines(hs(v, "{}", caps), c(call(v, 1, "x")), s(res(1, `{"content":[]}`)), s(progress("x", "1")))
		}, []string{"6"}},
		// The token of the client's request, sent by the server; a
		// task's token lives on after its CreateTaskResult, until the
		// task ends.
		{"during the request, and a task's", func(v string) []string {
			task := lines()
			if v == "2025-11-25" {
				task = lines(c(req(v, 2, "tools/call", `{"name":"t","task":{},"_meta":{"progressToken":"k"}}`)), s(res(2, created)),
					s(progress("k", "1")), s(note("notifications/tasks/status", `{"taskId":"k","status":"completed","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":1000}`)))
			}
			return lines(hs(v, "{}", `{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}}`), c(call(v, 1, 5)), s(progress(5, "1")), s(res(1, `{"content":[]}`)), task)
		}, nil},
	})
}

func TestProgressTokenUnique(t *testing.T) {
	testRule(t, "mcp-progress-token-unique", all(diag.Error, legacy...), []ruleCase{
		{"two open requests", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), c(call(v, 1, "x")), c(call(v, 2, "x")), s(res(1, `{"content":[]}`)), s(res(2, `{"content":[]}`)))
		}, []string{"5"}},
		// Once the first is answered its token is free.
		{"one after the other", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), c(call(v, 1, "x")), s(res(1, `{"content":[]}`)), c(call(v, 2, "x")), s(res(2, `{"content":[]}`)))
		}, nil},
	})
}

func TestProgressIncreases(t *testing.T) {
	testRule(t, "mcp-progress-increases", all(diag.Error, legacy...), []ruleCase{
		{"going back", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), c(call(v, 1, "x")), s(progress("x", "50")), s(progress("x", "50")), s(res(1, `{"content":[]}`)))
		}, []string{"6"}},
		// Fractions, and two tokens each with its own count.
		{"fractions, two tokens", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), c(call(v, 1, "x")), c(call(v, 2, "y")),
				s(progress("x", "0.5")), s(progress("y", "0.1")), s(progress("x", "0.75")), s(res(1, `{"content":[]}`)), s(res(2, `{"content":[]}`)))
		}, nil},
	})
}

// TestToolNotListed: the specification does not ask for a tools/list
// before a tools/call, so a call is a finding only where the session
// listed the tools in full (every page, from the first to one without
// nextCursor) and the tool is not among them, with no list_changed since.
func TestToolNotListed(t *testing.T) {
	list := func(v string, id int, params, result string) []string {
		return lines(c(req(v, id, "tools/list", params)), s(res(id, result)))
	}
	tool := func(name string) string { return `{"name":"` + name + `","inputSchema":{"type":"object"}}` }
	call := func(v string, id int, name string) []string {
		return lines(c(req(v, id, "tools/call", `{"name":"`+name+`"}`)), s(res(id, `{"content":[]}`)))
	}
	testRule(t, "mcp-tool-not-listed", all(diag.Warning, legacy...), []ruleCase{
		{"a tool not offered", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), list(v, 1, "", `{"tools":[`+tool("a")+`]}`),
				c(req(v, 2, "tools/call", `{"name":"b"}`)), s(fail(2)))
		}, []string{"6"}},
		{"on none of all the pages", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), list(v, 1, "", `{"tools":[`+tool("a")+`],"nextCursor":"2"}`),
				list(v, 2, `{"cursor":"2"}`, `{"tools":[`+tool("c")+`]}`), call(v, 3, "c"), call(v, 4, "b"))
		}, []string{"10"}},
		// Calls by name without listing, as 13 scenarios of the official
		// conformance suite make.
		{"no list at all", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), call(v, 2, "b"))
		}, nil},
		{"not every page fetched", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), list(v, 1, "", `{"tools":[`+tool("a")+`],"nextCursor":"2"}`), call(v, 2, "b"))
		}, nil},
		{"a last page without the first", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), list(v, 1, `{"cursor":"2"}`, `{"tools":[`+tool("a")+`]}`), call(v, 2, "b"))
		}, nil},
		{"a page that failed", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{}}`), list(v, 1, "", `{"tools":[`+tool("a")+`],"nextCursor":"2"}`),
				c(req(v, 2, "tools/list", `{"cursor":"2"}`)), s(fail(2)), call(v, 3, "b"))
		}, nil},
		// After list_changed the list in full is no longer known; a new
		// list in full that offers the tool is.
		{"list changed, then listed again with it", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{"listChanged":true}}`), list(v, 1, "", `{"tools":[`+tool("a")+`]}`),
				s(note("notifications/tools/list_changed", "")), call(v, 2, "b"),
				list(v, 3, "", `{"tools":[`+tool("a")+","+tool("b")+`]}`), call(v, 4, "b"))
		}, nil},
	})
}

func TestLoggingWithoutLevel(t *testing.T) {
	level := func(v string) string {
		return req(v, 1, "tools/call", `{"name":"t","_meta":{"io.modelcontextprotocol/logLevel":"debug"}}`)
	}
	msg := s(note("notifications/message", `{"level":"info","data":"x"}`))
	testRule(t, "mcp-logging-without-level", all(diag.Error, "2026-07-28"), []ruleCase{
		{"no request asked", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{},"logging":{}}`), pad(v), c(req(v, 1, "tools/call", `{"name":"t"}`)), msg, s(res(1, `{"content":[]}`)))
		}, []string{"5"}},
		{"after the request that asked", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{},"logging":{}}`), pad(v), c(level(v)), s(res(1, `{"content":[]}`)), msg)
		}, []string{"6"}},
		{"while it is open", func(v string) []string {
			return lines(hs(v, "{}", `{"tools":{},"logging":{}}`), pad(v), c(level(v)), msg, s(res(1, `{"content":[]}`)))
		}, nil},
	})
}

// TestAllRulesTested: every rule has a test in this file (which names its
// id), and the rules' ids are unique and of one form.
func TestAllRulesTested(t *testing.T) {
	text, err := os.ReadFile("rules_test.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rules.All() {
		if !strings.Contains(string(text), `"`+r.ID+`"`) {
			t.Errorf("%s: no test", r.ID)
		}
		if seen[r.ID] || !strings.HasPrefix(r.ID, "mcp-") || strings.ToLower(r.ID) != r.ID {
			t.Errorf("rule id %q", r.ID)
		}
		seen[r.ID] = true
		if len(r.Stated) == 0 || r.Summary == "" {
			t.Errorf("%s: stated in no version, or no summary", r.ID)
		}
	}
	if len(seen) < 25 {
		t.Errorf("%d rules", len(seen))
	}
}

// TestDocsTable: docs/mcp-rules.md has a row for each rule, and the row's
// versions, severities (E, W) and sections are the rule's.
func TestDocsTable(t *testing.T) {
	text, err := os.ReadFile("../../docs/mcp-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(string(text), "\n") {
		if !strings.HasPrefix(l, "| `mcp-") {
			continue
		}
		cells := strings.Split(l, " | ")
		if len(cells) != 4 {
			t.Errorf("row %q", l)
			continue
		}
		rows[strings.Trim(cells[0], "| `")] = cells
	}
	for _, r := range rules.All() {
		cells, ok := rows[r.ID]
		if !ok {
			t.Errorf("docs/mcp-rules.md has no row for %s", r.ID)
			continue
		}
		delete(rows, r.ID)
		got := map[string]string{}
		for _, part := range strings.Split(cells[1], "; ") {
			vs, sev, _ := strings.Cut(part, ": ")
			for _, v := range strings.Split(vs, ", ") {
				got[v] = sev
			}
		}
		want := map[string]string{}
		for _, st := range r.Stated {
			want[st.Version] = map[diag.Severity]string{diag.Error: "E", diag.Warning: "W"}[st.Severity]
			if !strings.Contains(cells[3], "`"+st.Section+"`") {
				t.Errorf("%s: the row's section %q lacks %s", r.ID, cells[3], st.Section)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the row says %v, the rule is stated %v", r.ID, got, want)
		}
	}
	for id := range rows {
		t.Errorf("docs/mcp-rules.md has a row for %s, which is no rule", id)
	}
}
