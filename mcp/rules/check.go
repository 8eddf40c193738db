package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/schema"
)

// Options configure a Checker.
type Options struct {
	// Versions are the log's, as Scan found them, settled (see Infer and
	// Settle); a message past them, or of a version no rule knows, is
	// checked by no rule.
	Versions *Versions
	// Schemas are the compiled schema of each version; a version with
	// none is checked against the JSON-RPC 2.0 rules only.
	Schemas map[string]*schema.Schema
}

// Checker follows a log in order and checks the MCP rules that span its
// messages. It is a schema.Observer: give it to the schema.Checker that
// validates the log (schema.Checker.Observe), which then checks each
// message against the schema of its version and reports the rules'
// findings with its own; End gives those about sessions as a whole.
type Checker struct {
	opts       Options
	handshakes map[string]bool // the envelope sessions of the log one session of which opens with initialize
	sess       *session        // the current message's
	// sessions are the current session of each envelope session of the
	// log (one for a log without them); begun counts them all.
	sessions map[string]*session
	begun    int
	answers  []handshake // each session's handshake, for mcp-version-server-answer
	ended    []schema.Finding
	counts   map[string]int
}

// NewChecker returns a Checker of the log whose versions opts gives.
func NewChecker(opts Options) *Checker {
	if opts.Versions == nil {
		opts.Versions = &Versions{}
	}
	hs := map[string]bool{}
	for _, sp := range opts.Versions.Spans {
		if sp.Handshake {
			hs[sp.ID] = true
		}
	}
	return &Checker{opts: opts, handshakes: hs, sessions: map[string]*session{}, counts: map[string]int{}}
}

// MaySpeakOf reports whether End may report a finding about the index-th
// message of the log: an answer to initialize. It may be called while
// another goroutine calls Observe.
func (c *Checker) MaySpeakOf(index int) bool {
	sp := c.opts.Versions.At(index)
	return sp != nil && sp.answer == index+1
}

// Counts returns how many findings each rule (by id) made so far.
func (c *Checker) Counts() map[string]int { return c.counts }

// side is a peer of a session.
type side uint8

const (
	noSide side = iota // unknown: a log without directions, a method either peer sends
	client
	server
)

func (s side) other() side {
	switch s {
	case client:
		return server
	case server:
		return client
	}
	return noSide
}

func (s side) String() string {
	switch s {
	case client:
		return "client"
	case server:
		return "server"
	}
	return "peer"
}

// sideOf returns the peer that sent a message in direction dir.
func sideOf(dir jsonrpc.Direction) side {
	switch dir {
	case jsonrpc.ClientToServer:
		return client
	case jsonrpc.ServerToClient:
		return server
	}
	return noSide
}

// methodSides are the peers that send each method (the others either
// may), for logs without directions.
var methodSides = map[string]side{
	"initialize": client, "notifications/initialized": client,
	"tools/list": client, "tools/call": client,
	"resources/list": client, "resources/read": client, "resources/templates/list": client,
	"resources/subscribe": client, "resources/unsubscribe": client,
	"prompts/list": client, "prompts/get": client,
	"logging/setLevel": client, "completion/complete": client,
	"notifications/roots/list_changed": client,
	"sampling/createMessage":           server, "roots/list": server, "elicitation/create": server,
	"notifications/message":                server,
	"notifications/tools/list_changed":     server,
	"notifications/prompts/list_changed":   server,
	"notifications/resources/list_changed": server,
	"notifications/resources/updated":      server,
	"notifications/elicitation/complete":   server,
}

// pending is a request waiting for its response.
type pending struct {
	index, line int
	method      string
	side        side // its sender
	token       *tokenKey
	task        bool   // task-augmented: params has "task"
	taskOf      string // for tasks/result: the task it asks for
	logLevel    bool   // its _meta sets io.modelcontextprotocol/logLevel
	cursor      bool   // a tools/list for a page after the first: params has "cursor"
}

// tokenKey is a progress token of a request of one peer.
type tokenKey struct {
	side side // the requestor
	key  string
}

// progress is what is known of an active progress token.
type progress struct {
	last float64
	seen bool // a notification gave last
}

// handshake is a session's initialize and its answer.
type handshake struct {
	session         int
	asked, answered string
	index, line     int
}

// session is the state of one session of the log.
type session struct {
	id        string // its envelope session
	number    int
	seq       int  // its place among the sessions of the log, in the order they begin
	handshake bool // opened by an initialize request: the log shows it from its start
	stateless bool // its version has no handshake: the log is its own whole
	twoSided  bool // the log holds what both peers sent

	initKey          string // the key of the initialize request's id
	asked            string
	answered, ok     bool // the server answered initialize; with a result
	answerIndex      int
	answerLine       int
	answeredVersion  string
	clientCaps       map[string]any // nil while unknown
	serverCaps       map[string]any
	initialized      bool // the client sent notifications/initialized
	flaggedInit      bool // mcp-lifecycle-initialized was reported
	flaggedGoingOn   bool // mcp-version-client-disconnects was reported
	open             *jsonrpc.Tracker[*pending]
	used             [3]idSet // request ids, by requestor side
	tokens           map[tokenKey]*progress
	taskTokens       map[string]tokenKey // a task's id: the progress token of the request that made it
	taskMethods      map[string]string   // a task's id: the method of the request that made it
	tools            map[string]string   // listed tools, on any page: their execution.taskSupport
	toolsPage        map[string]bool     // the tools of the listing under way (pages so far), nil for none
	toolsFull        map[string]bool     // the tools of the last listing answered in full
	toolsComplete    bool                // toolsFull holds the tools: no list_changed since
	toolsListLine    int                 // the line of toolsFull's last page
	openWithLogLevel int
}

// complete reports whether the log holds the session from its start and
// from both peers, so that what it does not show did not happen.
func (s *session) complete() bool { return (s.handshake || s.stateless) && s.twoSided }

// msg is one message (or batch member) under check.
type msg struct {
	o       *schema.Observed
	m       jsonrpc.Message
	ptr     string // "" for a message, "/N" for a batch member
	version string
	side    side
	load    func() map[string]any
	obj     map[string]any
	loaded  bool
}

// object returns the message decoded; nil when it cannot be.
func (x *msg) object() map[string]any {
	if !x.loaded {
		x.loaded = true
		x.obj = x.load()
	}
	return x.obj
}

// mayHold reports whether the message's text may hold text: false only
// when it is known not to.
func (x *msg) mayHold(text string) bool {
	return x.o.Raw == nil || bytes.Contains(x.o.Raw, []byte(text))
}

func (x *msg) params() map[string]any {
	p, _ := x.object()["params"].(map[string]any)
	return p
}

func (x *msg) result() map[string]any {
	r, _ := x.object()["result"].(map[string]any)
	return r
}

// Observe checks the next message of the log: the rules it breaks are in
// the choice's diagnostics, with the schema of its version and, for the
// response to a task-augmented request, the result it is to match.
func (c *Checker) Observe(o *schema.Observed) schema.Choice {
	var ch schema.Choice
	sp := c.opts.Versions.At(o.Index)
	if sp == nil {
		return ch
	}
	ch.Schema = c.opts.Schemas[sp.Version]
	c.sess = c.sessions[sp.ID]
	if c.sess == nil || c.sess.number != sp.Session {
		c.endSession(c.sess)
		c.sess = &session{id: sp.ID, number: sp.Session, seq: c.begun, handshake: sp.Handshake, stateless: slices.Contains(statelessVersions, sp.Version),
			twoSided: sp.TwoSided, open: jsonrpc.NewTracker[*pending](0)}
		c.begun++
		c.sessions[sp.ID] = c.sess
	}
	if o.Message.Kind == jsonrpc.KindBatch {
		c.report(&ch, &msg{o: o, m: o.Message, version: sp.Version}, ruleBatch, "",
			"a batch of %d message%s: MCP %s has no batches, each message travels alone", len(o.Message.Members), plural(len(o.Message.Members)), sp.Version)
		var arr []any
		decoded := false
		for i, mm := range o.Message.Members {
			x := &msg{o: o, m: mm, ptr: "/" + strconv.Itoa(i), version: sp.Version}
			x.load = func() map[string]any {
				if !decoded {
					decoded = true
					arr = decodeArray(o)
				}
				if i < len(arr) {
					obj, _ := arr[i].(map[string]any)
					return obj
				}
				return nil
			}
			c.message(&ch, x)
		}
		return ch
	}
	x := &msg{o: o, m: o.Message, version: sp.Version}
	x.load = func() map[string]any {
		if o.Raw != nil {
			return decodeObject(o.Raw)
		}
		obj, _ := o.Value.(map[string]any)
		return obj
	}
	c.message(&ch, x)
	return ch
}

// decodeArray returns the batch o decoded.
func decodeArray(o *schema.Observed) []any {
	if o.Raw == nil {
		arr, _ := o.Value.([]any)
		return arr
	}
	var arr []any
	d := json.NewDecoder(bytesReader(o.Raw))
	d.UseNumber()
	if d.Decode(&arr) != nil {
		return nil
	}
	return arr
}

// report adds to ch the finding that x breaks rule r, when x's version
// states r; ptr points into x.
func (c *Checker) report(ch *schema.Choice, x *msg, r *Rule, ptr, format string, args ...any) {
	st, ok := r.In(x.version)
	if !ok {
		return
	}
	c.counts[r.ID]++
	ch.Diagnostics = append(ch.Diagnostics, diag.Diagnostic{Pointer: x.ptr + ptr, Severity: st.Severity,
		Message: fmt.Sprintf(format, args...), Rule: r.ID, Help: st.URL()})
}

// reportEnded notes a finding about a session as a whole, at the
// index-th message, of line line and kind kind, in version v.
func (c *Checker) reportEnded(r *Rule, v string, index, line int, kind jsonrpc.Kind, format string, args ...any) {
	st, ok := r.In(v)
	if !ok {
		return
	}
	c.counts[r.ID]++
	c.ended = append(c.ended, schema.Finding{Index: index, Kind: kind, Diagnostic: diag.Diagnostic{Line: line, Severity: st.Severity,
		Message: fmt.Sprintf(format, args...), Rule: r.ID, Help: st.URL()}})
}

// End returns the findings about the log's sessions as wholes (a session
// that never sent notifications/initialized, a version answered that the
// server showed it need not), once the log has been read; their File is
// to be set.
func (c *Checker) End() []schema.Finding {
	left := make([]*session, 0, len(c.sessions))
	for _, s := range c.sessions {
		left = append(left, s)
	}
	slices.SortFunc(left, func(a, b *session) int { return a.seq - b.seq })
	for _, s := range left {
		c.endSession(s)
	}
	clear(c.sessions)
	c.sess = nil
	supported := map[string]handshake{}
	for _, h := range c.answers {
		if h.asked == h.answered {
			if _, ok := supported[h.answered]; !ok {
				supported[h.answered] = h
			}
		}
	}
	for _, h := range c.answers {
		if s, ok := supported[h.asked]; ok && h.answered != h.asked {
			c.reportEnded(ruleVersionAnswer, h.answered, h.index, h.line, jsonrpc.KindResponse,
				"the server answered %s to a client asking for %s, which it supports: it answered %s to the same request at line %d",
				h.answered, h.asked, h.asked, s.line)
		}
	}
	c.answers = nil
	out := c.ended
	c.ended = nil
	return out
}

// endSession notes what the session s, which ends, broke as a whole.
func (c *Checker) endSession(s *session) {
	if s == nil || !s.handshake {
		return
	}
	if s.ok && !s.initialized && !s.flaggedInit {
		c.reportEnded(ruleInitialized, s.answeredVersion, s.answerIndex, s.answerLine, jsonrpc.KindResponse,
			"the client never sent notifications/initialized after this answer to initialize")
	}
}

// message checks one message or batch member.
func (c *Checker) message(ch *schema.Choice, x *msg) {
	s := c.sess
	x.side = sideOf(x.o.Dir)
	if x.side == noSide && x.m.Kind != jsonrpc.KindResponse && x.m.Kind != jsonrpc.KindErrorResponse {
		x.side = methodSides[x.m.Method]
	}
	if s.number == 0 && c.handshakes[s.id] && (x.m.Kind != jsonrpc.KindInvalid) {
		what := "the log's first initialize request"
		if s.id != "" {
			what = "the first initialize request of its session, " + strconv.Quote(s.id)
		}
		c.report(ch, x, ruleInitializeFirst, "",
			"%s before %s: a session opens with initialize", describe(x.m), what)
	}
	switch x.m.Kind {
	case jsonrpc.KindInvalid:
		if x.m.Shape == jsonrpc.KindRequest && x.m.HasID && x.m.ID != nil {
			// An invalid request is still answered, and its id used.
			c.checkID(ch, x)
			s.open.Request(x.o.Dir, x.m.ID, &pending{index: x.o.Index, line: x.o.Line, method: x.m.Method, side: x.side})
		}
	case jsonrpc.KindRequest:
		c.request(ch, x)
	case jsonrpc.KindNotification:
		c.notification(ch, x)
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		c.response(ch, x)
	}
	if x.side == client && s.handshake && s.ok && newer(s.answeredVersion, s.asked) && !s.flaggedGoingOn && x.o.Index > s.answerIndex {
		s.flaggedGoingOn = true
		c.report(ch, x, ruleVersionClient, "",
			"the client goes on after the server answered %s (line %d) to its initialize asking for %s, the newest it supports", s.answeredVersion, s.answerLine, s.asked)
	}
}

// describe names a message in a finding: "tools/call request", "response".
func describe(m jsonrpc.Message) string {
	switch m.Kind {
	case jsonrpc.KindRequest, jsonrpc.KindNotification:
		return strconv.Quote(m.Method) + " " + m.Kind.String()
	}
	return m.Kind.String()
}

// newer reports whether version a is newer than b, both dates.
func newer(a, b string) bool { return isDate(a) && isDate(b) && a > b }

func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, r := range s {
		if i != 4 && i != 7 && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
