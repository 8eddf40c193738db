package rules_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/mcp/rules"
)

// in writes the log line line (an envelope) as one of the MCP session id.
func in(id string, line string) string {
	return `{"session":` + strconv.Quote(id) + `,` + line[1:]
}

// weave returns the lines of sessions, each of the envelope session named
// by its place ("A", "B", ...), one line of each in turn as a proxy
// records sessions that run at once; at gives the line of the log (from
// 1) of session k's line j (from 0).
func weave(sessions ...[]string) (log []string, at func(k, j int) int) {
	where := map[[2]int]int{}
	for j := 0; ; j++ {
		more := false
		for k, lines := range sessions {
			if j < len(lines) {
				more = true
				log = append(log, in(string(rune('A'+k)), lines[j]))
				where[[2]int{k, j}] = len(log)
			}
		}
		if !more {
			break
		}
	}
	return log, func(k, j int) int {
		n, ok := where[[2]int{k, j}]
		if !ok {
			panic("no such line")
		}
		return n
	}
}

// sessionless returns log without its envelopes' sessions.
func sessionless(log []string) []string {
	re := regexp.MustCompile(`^\{"session":"[^"]*",`)
	out := make([]string, len(log))
	for i, l := range log {
		out[i] = re.ReplaceAllString(l, "{")
	}
	return out
}

// toolsSession is a session whose server offers tools and lists the one
// tool named tool, which the client calls with progress token "t" and the
// server reports progress of; ids start at 0 as in every session.
func toolsSession(v, tool string) []string {
	return lines(hs(v, "{}", `{"tools":{}}`),
		c(req(v, 1, "tools/list", "")),
		s(res(1, `{"tools":[{"name":"`+tool+`","inputSchema":{"type":"object"}}]}`)),
		c(req(v, 2, "tools/call", `{"name":"`+tool+`","_meta":{"progressToken":"t"}}`)),
		s(progress("t", "1")),
		s(res(2, `{"content":[]}`)))
}

// promptsSession is a session whose server offers prompts only.
func promptsSession(v string) []string {
	return lines(hs(v, "{}", `{"prompts":{}}`),
		c(req(v, 1, "prompts/list", "")),
		s(res(1, `{"prompts":[]}`)),
		c(req(v, 2, "ping", "")),
		s(res(2, "{}")),
		c(req(v, 3, "ping", "")),
		s(res(3, "{}")))
}

// TestInterleavedSessionsKeepTheRules: sessions recorded at once, each
// with ids from 0, its own capabilities, tools and progress tokens, break
// no rule; read without their envelope sessions, the same lines are one
// session that breaks several, which shows what the sessions decide.
func TestInterleavedSessionsKeepTheRules(t *testing.T) {
	for _, v := range legacy {
		t.Run(v, func(t *testing.T) {
			log, _ := weave(toolsSession(v, "a"), promptsSession(v), toolsSession(v, "b"))
			if found, _ := check(t, v, log); len(found) != 0 {
				t.Errorf("findings %v, want none", found)
			}
			found, _ := check(t, v, sessionless(log))
			for _, rule := range []string{"mcp-request-id-reused", "mcp-progress-token-unique"} {
				if !slices.ContainsFunc(found, func(f string) bool { return strings.HasSuffix(f, " "+rule) }) {
					t.Errorf("without sessions: no %s among %v", rule, found)
				}
			}
		})
	}
}

// finding is a finding a test wants: of rule, at line j (from 0) of
// session k.
type finding struct {
	k, j int
	rule string
}

// TestRuleBrokenInOneSession: a rule broken in one session of several
// that interleave is found there alone, and what another session
// negotiated, listed or asked for does not make it kept.
func TestRuleBrokenInOneSession(t *testing.T) {
	const v = "2025-06-18"
	tools, prompts := toolsSession(v, "a"), promptsSession(v)
	for _, x := range []struct {
		name     string
		sessions [][]string
		want     []finding
	}{
		{"a capability only another session's server declared",
			[][]string{tools, lines(hs(v, "{}", `{"prompts":{}}`), c(req(v, 1, "tools/list", "")), s(res(1, `{"tools":[]}`)))},
			[]finding{{1, 3, "mcp-capability-tools"}}},
		{"an id used twice in one session, once in the other",
			[][]string{lines(promptsSession(v)[:5], c(req(v, 1, "ping", "")), s(res(1, "{}"))), prompts},
			[]finding{{0, 5, "mcp-request-id-reused"}}},
		{"a tool only another session listed",
			[][]string{tools, lines(toolsSession(v, "b")[:5], c(req(v, 2, "tools/call", `{"name":"a"}`)), s(res(2, `{"content":[]}`)))},
			[]finding{{1, 5, "mcp-tool-not-listed"}}},
		// Session A's call with token "t" is open (its line 6) when
		// session B's server reports progress of "t" (its line 7).
		{"progress of another session's token",
			[][]string{lines(tools[:6], c(req(v, 9, "ping", "")), s(res(9, "{}")), tools[6:]),
				lines(prompts[:7], s(progress("t", "1")))},
			[]finding{{1, 7, "mcp-progress-unknown-token"}}},
		{"an answer to another session's request",
			[][]string{lines(prompts[:3], c(req(v, 7, "ping", ""))), lines(prompts[:4], s(res(7, "{}")))},
			[]finding{{1, 4, "mcp-response-unmatched"}}},
		{"cancelling another session's request",
			[][]string{lines(prompts[:3], c(req(v, 7, "ping", ""))), lines(prompts[:4], c(note("notifications/cancelled", `{"requestId":7}`)))},
			[]finding{{1, 4, "mcp-cancel-unknown-request"}}},
		{"no notifications/initialized in one session",
			[][]string{prompts, lines(prompts[:2], c(req(v, 1, "ping", "")), s(res(1, "{}")))},
			[]finding{{1, 1, "mcp-lifecycle-initialized"}}},
		// Session C opens with initialize after a ping; session B never
		// shows one: the log may have begun after it.
		{"initialize first, per session",
			[][]string{prompts, lines(c(req(v, 5, "ping", "")), s(res(5, "{}"))), lines(c(req(v, 5, "ping", "")), s(res(5, "{}")), prompts)},
			[]finding{{2, 0, "mcp-lifecycle-initialize-first"}, {2, 1, "mcp-lifecycle-initialize-first"}}},
		// Session A negotiated 2025-03-26, which has batches; session B
		// 2025-06-18, which has not.
		{"a batch in the one session whose version has none",
			[][]string{lines(session("2025-03-26", "2025-03-26"), c(`[`+req("", 1, "ping", "")+`,`+req("", 2, "ping", "")+`]`), s(res(1, "{}")), s(res(2, "{}"))),
				lines(session(v, v), c(`[`+req("", 1, "ping", "")+`,`+req("", 2, "ping", "")+`]`), s(res(1, "{}")), s(res(2, "{}")))},
			[]finding{{1, 3, "mcp-batch-removed"}}},
	} {
		t.Run(x.name, func(t *testing.T) {
			log, at := weave(x.sessions...)
			found, _ := check(t, v, log)
			var want []string
			for _, f := range x.want {
				want = append(want, strconv.Itoa(at(f.k, f.j))+" "+f.rule)
			}
			slices.Sort(want)
			if !slices.Equal(found, want) {
				t.Errorf("findings %v, want %v", found, want)
			}
		})
	}
}

// TestScanSessions: each envelope session takes the version of its own
// handshake, its messages counted in its span though others come between
// them; a session without a handshake stays unknown.
func TestScanSessions(t *testing.T) {
	const v1, v2 = "2025-06-18", "2025-11-25"
	sessions := [][]string{
		session(v1, v1),
		lines(c(req("", 1, "ping", "")), s(res(1, "{}"))),
		lines(session(v2, v2), c(req("", 1, "ping", "")), s(res(1, "{}"))),
	}
	log, at := weave(sessions...)
	vs := scan(t, log)
	type got struct {
		id, version     string
		session, start  int
		messages        int
		handshake, both bool
	}
	want := []got{
		{"A", v1, 1, 0, 3, true, true},
		{"B", "", 0, 1, 2, false, true},
		{"C", v2, 2, 2, 5, true, true},
	}
	var spans []got
	for _, sp := range vs.Spans {
		spans = append(spans, got{sp.ID, sp.Version, sp.Session, sp.Start, sp.Messages, sp.Handshake, sp.TwoSided})
	}
	if !slices.Equal(spans, want) {
		t.Errorf("spans %+v, want %+v", spans, want)
	}
	for k, lines := range sessions {
		id := string(rune('A' + k))
		for j := range lines {
			i := at(k, j) - 1
			if sp := vs.At(i); sp == nil || sp.ID != id {
				t.Errorf("message %d, of session %s: span %+v", i, id, sp)
			}
		}
	}
	if vs.At(len(log)) != nil {
		t.Errorf("a span past the log")
	}
	vs.Settle("2024-11-05", rules.Given, "the test's")
	if sp := vs.At(at(1, 1) - 1); sp.Version != "2024-11-05" || sp.Source != rules.Given {
		t.Errorf("session B settled as %s (%s)", sp.Version, sp.Source)
	}
}
