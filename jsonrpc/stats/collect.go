package stats

import (
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// Directions as stats names them: the envelope's "c2s" and "s2c", and
// "unknown" for a log without envelopes.
const (
	DirC2S     = "c2s"
	DirS2C     = "s2c"
	DirUnknown = "unknown"
)

// ToolsCall is the MCP method whose calls are counted per tool.
const ToolsCall = "tools/call"

// Stats are the figures of one log, or of several added together. Maps are
// never nil, so that the JSON form always has every member.
type Stats struct {
	// Messages counts the records of the log: messages, batches and
	// unreadable parts.
	Messages int `json:"messages"`
	// Kinds counts the records by kind ("request", "notification",
	// "response", "error-response", "batch", "invalid") and then by
	// direction. Batch members are not records: they are counted by method,
	// pairing, errors, tools and latency, not here.
	Kinds map[string]map[string]int `json:"kinds"`
	// Requests and Notifications count calls (batch members included) by method.
	Requests      map[string]int `json:"requests"`
	Notifications map[string]int `json:"notifications"`
	// Pairing counts, by direction, how requests were answered.
	Pairing map[string]*Pairing `json:"pairing"`
	// Errors counts error responses by code and by the method of the request
	// they answer ("" for an orphan), sorted by code then method.
	Errors []ErrorCount `json:"errors"`
	// Tools counts MCP tools/call requests by tool name (params.name).
	Tools map[string]*Tool `json:"tools"`
	// Latency holds, by method, the times from a request to the response
	// that answers it, in milliseconds, when both carry a timestamp.
	Latency map[string]*Dist `json:"latency"`
	// Validation is what the JSON-RPC rules (always) and a schema (when
	// given) found.
	Validation Validation `json:"validation"`
}

// Pairing counts how the requests sent in one direction were answered.
// Requests, Answered, Unanswered and ReusedIDs count requests sent in that
// direction; OrphanResponses counts responses sent in that direction that
// answer no request.
type Pairing struct {
	Requests   int `json:"requests"`
	Answered   int `json:"answered"`
	Unanswered int `json:"unanswered"`
	// ReusedIDs counts requests whose id equals that of an earlier request
	// sent the same way and still open (not yet answered).
	ReusedIDs       int `json:"reusedIds"`
	OrphanResponses int `json:"orphanResponses"`
}

// ErrorCount is the number of error responses with one code that answer one method.
type ErrorCount struct {
	Code   int64  `json:"code"`
	Method string `json:"method"` // "" when the response answers no request of the log
	Count  int    `json:"count"`
}

// Tool counts the tools/call requests for one tool, and the responses
// among their answers whose result has "isError": true.
type Tool struct {
	Calls   int `json:"calls"`
	IsError int `json:"isError"`
}

// Validation is what checking found. The JSON-RPC 2.0 rules always run;
// Schema names the schema that ran too, or is empty.
type Validation struct {
	Schema   string         `json:"schema"`
	Valid    int            `json:"valid"`   // records with no error (warnings allowed)
	Invalid  int            `json:"invalid"` // records with an error, unreadable ones included
	Warnings int            `json:"warnings"`
	Problems []ProblemCount `json:"problems"`
}

// ProblemCount is the number of problems of one sort: in one kind of
// message, with one code and severity, found by the rules or by the schema.
type ProblemCount struct {
	Kind     string `json:"kind"`
	Code     int    `json:"code"`
	Severity string `json:"severity"`
	Source   string `json:"source"` // "rules" (JSON-RPC 2.0), "schema", or the id of a protocol rule
	Count    int    `json:"count"`
}

// NewStats returns empty Stats.
func NewStats() *Stats {
	return &Stats{
		Kinds:         map[string]map[string]int{},
		Requests:      map[string]int{},
		Notifications: map[string]int{},
		Pairing:       map[string]*Pairing{},
		Errors:        []ErrorCount{},
		Tools:         map[string]*Tool{},
		Latency:       map[string]*Dist{},
		Validation:    Validation{Problems: []ProblemCount{}},
	}
}

// Add adds the figures of o to s.
func (s *Stats) Add(o *Stats) {
	s.Messages += o.Messages
	for k, dirs := range o.Kinds {
		for d, n := range dirs {
			s.kind(k, d, n)
		}
	}
	for m, n := range o.Requests {
		s.Requests[m] += n
	}
	for m, n := range o.Notifications {
		s.Notifications[m] += n
	}
	for d, p := range o.Pairing {
		q := s.pairing(d)
		q.Requests += p.Requests
		q.Answered += p.Answered
		q.Unanswered += p.Unanswered
		q.ReusedIDs += p.ReusedIDs
		q.OrphanResponses += p.OrphanResponses
	}
	for _, e := range o.Errors {
		s.addError(e.Code, e.Method, e.Count)
	}
	for name, t := range o.Tools {
		u := s.tool(name)
		u.Calls += t.Calls
		u.IsError += t.IsError
	}
	for m, d := range o.Latency {
		s.dist(m).Merge(d)
	}
	v := &s.Validation
	if v.Schema == "" {
		v.Schema = o.Validation.Schema
	}
	v.Valid += o.Validation.Valid
	v.Invalid += o.Validation.Invalid
	v.Warnings += o.Validation.Warnings
	for _, p := range o.Validation.Problems {
		s.addProblem(p.Kind, p.Code, p.Severity, p.Source, p.Count)
	}
}

// InvalidMessages returns the number of records that are not valid.
func (s *Stats) InvalidMessages() int { return s.Validation.Invalid }

func (s *Stats) kind(kind, dir string, n int) {
	m := s.Kinds[kind]
	if m == nil {
		m = map[string]int{}
		s.Kinds[kind] = m
	}
	m[dir] += n
}

func (s *Stats) pairing(dir string) *Pairing {
	p := s.Pairing[dir]
	if p == nil {
		p = &Pairing{}
		s.Pairing[dir] = p
	}
	return p
}

func (s *Stats) tool(name string) *Tool {
	t := s.Tools[name]
	if t == nil {
		t = &Tool{}
		s.Tools[name] = t
	}
	return t
}

func (s *Stats) dist(method string) *Dist {
	d := s.Latency[method]
	if d == nil {
		d = &Dist{}
		s.Latency[method] = d
	}
	return d
}

func (s *Stats) addError(code int64, method string, n int) {
	i := sort.Search(len(s.Errors), func(i int) bool {
		e := s.Errors[i]
		return e.Code > code || e.Code == code && e.Method >= method
	})
	if i < len(s.Errors) && s.Errors[i].Code == code && s.Errors[i].Method == method {
		s.Errors[i].Count += n
		return
	}
	s.Errors = append(s.Errors, ErrorCount{})
	copy(s.Errors[i+1:], s.Errors[i:])
	s.Errors[i] = ErrorCount{Code: code, Method: method, Count: n}
}

func (s *Stats) addProblem(kind string, code int, severity, source string, n int) {
	ps := s.Validation.Problems
	less := func(a ProblemCount) bool {
		if a.Kind != kind {
			return kindOrder(a.Kind) > kindOrder(kind)
		}
		if a.Code != code {
			return a.Code > code
		}
		if a.Severity != severity {
			return a.Severity >= severity
		}
		return a.Source >= source
	}
	i := sort.Search(len(ps), func(i int) bool { return less(ps[i]) })
	if i < len(ps) && ps[i].Kind == kind && ps[i].Code == code && ps[i].Severity == severity && ps[i].Source == source {
		ps[i].Count += n
		return
	}
	ps = append(ps, ProblemCount{})
	copy(ps[i+1:], ps[i:])
	ps[i] = ProblemCount{Kind: kind, Code: code, Severity: severity, Source: source, Count: n}
	s.Validation.Problems = ps
}

// kindNames lists the kinds of record in the order stats prints them.
var kindNames = []string{"request", "notification", "response", "error-response", "batch", "invalid"}

func kindOrder(k string) int {
	for i, x := range kindNames {
		if x == k {
			return i
		}
	}
	return len(kindNames)
}

// Event is one message of a log as the HTML timeline draws it.
type Event struct {
	Pos     int    // position in the log, from 1
	Dir     string // DirC2S, DirS2C or DirUnknown
	Kind    string // the record's kind
	Label   string // the method, "result", "error CODE", or what makes it invalid
	ID      string // the id as written, "" when there is none
	Answers int    // the position of the request a response answers, 0 when none
	TS      string // the timestamp as written
}

// A Checker checks the messages of a log, in log order: it returns a
// message's classification and its diagnostics. *schema.Checker is one.
type Checker interface {
	CheckRecord(rec *rpclog.Record, index int) (jsonrpc.Message, []diag.Diagnostic)
}

// rulesOnly is the Checker of a Collector without one: the JSON-RPC 2.0
// rules.
type rulesOnly struct{}

func (rulesOnly) CheckRecord(rec *rpclog.Record, _ int) (jsonrpc.Message, []diag.Diagnostic) {
	m := rpclog.Classify(rec)
	return m, m.AllDiagnostics()
}

// Options tunes a Collector.
type Options struct {
	// Checker checks each message; nil checks the JSON-RPC 2.0 rules only.
	Checker Checker
	// Schema names the schema the Checker uses, for the report ("" for none).
	Schema string
	// Timeline is how many of the first messages to keep as Events (0: none).
	Timeline int
	// Problems is how many of the log's first problems to keep, each with
	// its place and words, for the HTML report (0: none).
	Problems int
}

// Problem is one problem checking found in a log, as validate reports it.
type Problem struct {
	Pos      int    // the message's position in the log, from 1
	Line     int    // the line where it starts, 0 when unknown (a graph)
	Kind     string // the kind of the message (or batch member)
	Code     int    // its JSON-RPC error code; 0 for a remark on the JSON text
	Severity string // "error" or "warning"
	Pointer  string // the JSON pointer to what is wrong, "" for the whole message
	Message  string
	// Source is "rules" (JSON-RPC 2.0), "schema", or the id of a protocol
	// rule; Schema the schema location when a schema found it.
	Source, Schema string
}

// Collector computes the Stats of one log, message by message. Its memory
// grows with the number of open requests (bounded by jsonrpc.DefaultOpenLimit,
// as in the graph jrpcld writes), of distinct methods, tools and error codes,
// and with the latency values (bounded per method, see Dist); not with the
// length of the log.
type Collector struct {
	s       *Stats
	checker Checker
	tracker *jsonrpc.Tracker[*openRequest]
	// open counts the open requests by session, direction and id, to tell when a
	// request reuses the id of one still open. The tracker forgets the
	// oldest requests beyond its limit without saying which: open is then
	// rebuilt from the tracker every forgetLimit forgotten requests.
	open      map[pairKey]int
	forgotten int
	index     int
	timeline  int
	events    []Event
	keep      int       // Options.Problems
	problems  []Problem // the first keep problems
	found     int       // problems found, kept or not
}

type pairKey struct {
	session string
	dir     jsonrpc.Direction
	id      string
}

// openRequest is what the Collector remembers of a request until its response.
type openRequest struct {
	key    pairKey
	method string
	dir    string
	pos    int
	ts     time.Time
	hasTS  bool
	tool   bool // a tools/call with a tool name
	name   string
}

const forgetLimit = jsonrpc.DefaultOpenLimit / 2

// NewCollector returns a Collector for one log.
func NewCollector(opts Options) *Collector {
	c := &Collector{s: NewStats(), checker: opts.Checker, tracker: jsonrpc.NewTracker[*openRequest](0),
		open: map[pairKey]int{}, timeline: opts.Timeline, keep: opts.Problems}
	if c.checker == nil {
		c.checker = rulesOnly{}
	}
	c.s.Validation.Schema = opts.Schema
	return c
}

// Add counts the next record of the log.
func (c *Collector) Add(rec *rpclog.Record) { c.addAt(rec, c.index+1) }

// addAt counts the record at position pos of the log (from 1; positions
// grow, and may skip the messages a graph does not hold).
func (c *Collector) addAt(rec *rpclog.Record, pos int) {
	c.index = pos
	s := c.s
	s.Messages++
	dir := dirName(rec.Dir)
	if rec.Err != nil {
		s.kind("invalid", dir, 1)
		s.Validation.Invalid++
		code := jsonrpc.CodeParseError
		label := "unreadable"
		var re *diag.Diagnostic
		if errors.As(rec.Err, &re) {
			code = re.Code
			if code == jsonrpc.CodeParseError {
				label = "not JSON"
			}
		}
		s.addProblem("invalid", code, diag.Error.String(), "rules", 1)
		c.problem(Problem{Pos: c.index, Line: rec.Line, Kind: "invalid", Code: code, Severity: diag.Error.String(), Message: rec.Err.Error(), Source: "rules"})
		c.event(Event{Pos: c.index, Dir: dir, Kind: "invalid", Label: label, TS: rec.TS})
		return
	}
	m, ds := c.checker.CheckRecord(rec, c.index-1)
	if len(rec.Problems)+len(rec.Warnings) > 0 {
		// As validate counts them: a member named twice is a warning, what
		// is wrong with the envelope an error of the record.
		ds = append(append(slices.Clone(rec.Warnings), rec.Problems...), ds...)
	}
	kind := m.Kind.String()
	s.kind(kind, dir, 1)
	if !diag.HasErrors(ds) {
		s.Validation.Valid++
	} else {
		s.Validation.Invalid++
	}
	for _, p := range ds {
		source := "rules"
		switch {
		case p.Rule != "":
			source = p.Rule // a protocol rule across messages, such as an MCP rule
		case p.Schema != "":
			source = "schema"
		}
		if p.Severity == diag.Warning {
			s.Validation.Warnings++
		}
		s.addProblem(memberKind(m, p.Pointer), p.Code, p.Severity.String(), source, 1)
		c.problem(Problem{Pos: c.index, Line: rec.Line, Kind: memberKind(m, p.Pointer), Code: p.Code, Severity: p.Severity.String(),
			Pointer: p.Pointer, Message: p.Message, Source: source, Schema: p.Schema})
	}
	var ts time.Time
	hasTS := false
	if rec.TS != "" {
		ts, hasTS = parseTime(rec.TS)
	}
	switch m.Kind {
	case jsonrpc.KindInvalid:
		c.event(Event{Pos: c.index, Dir: dir, Kind: kind, Label: "invalid", TS: rec.TS})
	case jsonrpc.KindBatch:
		arr, _ := rec.Value.([]any)
		c.event(Event{Pos: c.index, Dir: dir, Kind: kind, Label: "batch of " + strconv.Itoa(len(arr)), TS: rec.TS})
		for i, mm := range m.Members {
			if mm.Kind != jsonrpc.KindInvalid && i < len(arr) {
				c.message(mm, arr[i], rec, dir, ts, hasTS, false)
			}
		}
	default:
		c.message(m, rec.Value, rec, dir, ts, hasTS, true)
	}
}

// message counts one message, on its own or in a batch.
func (c *Collector) message(m jsonrpc.Message, v any, rec *rpclog.Record, dir string, ts time.Time, hasTS, top bool) {
	s := c.s
	obj, _ := v.(map[string]any)
	ev := Event{Pos: c.index, Dir: dir, Kind: m.Kind.String(), Label: m.Method, TS: rec.TS}
	if m.HasID {
		ev.ID = idText(m.ID)
	}
	switch m.Kind {
	case jsonrpc.KindNotification:
		s.Notifications[m.Method]++
	case jsonrpc.KindRequest:
		s.Requests[m.Method]++
		p := s.pairing(dir)
		p.Requests++
		key := pairKey{rec.Session, rec.Dir, jsonrpc.IDKey(m.ID)}
		if c.open[key] > 0 {
			p.ReusedIDs++
		}
		o := &openRequest{key: key, method: m.Method, dir: dir, pos: c.index, ts: ts, hasTS: hasTS}
		if m.Method == ToolsCall {
			if params, ok := obj["params"].(map[string]any); ok {
				if name, ok := params["name"].(string); ok {
					o.tool, o.name = true, name
					s.tool(name).Calls++
				}
			}
		}
		before := c.tracker.Len()
		c.tracker.RequestIn(rec.Session, rec.Dir, jsonrpc.IDOf(m.ID), o)
		c.open[key]++
		if c.tracker.Len() <= before {
			c.forgot()
		}
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		o, ok := c.tracker.AnswerIn(rec.Session, rec.Dir, jsonrpc.IDOf(m.ID))
		method := ""
		if ok {
			if c.open[o.key]--; c.open[o.key] <= 0 {
				delete(c.open, o.key)
			}
			method = o.method
			ev.Answers = o.pos
			s.pairing(o.dir).Answered++
			if o.hasTS && hasTS {
				s.dist(o.method).Add(float64(ts.Sub(o.ts)) / float64(time.Millisecond))
			}
		} else {
			s.pairing(dir).OrphanResponses++
		}
		if m.Kind == jsonrpc.KindErrorResponse {
			code := errorCode(obj)
			s.addError(code, method, 1)
			ev.Label = "error " + strconv.FormatInt(code, 10)
		} else {
			ev.Label = "result"
			if ok && o.tool {
				if res, _ := obj["result"].(map[string]any); res["isError"] == true {
					s.tool(o.name).IsError++
					ev.Label = "result (isError)"
				}
			}
		}
		if method != "" {
			ev.Label += " to " + method
		}
	}
	if top {
		c.event(ev)
	}
}

// forgot notes that the tracker forgot its oldest open request, and
// rebuilds the open counts from the tracker when enough have been forgotten.
func (c *Collector) forgot() {
	c.forgotten++
	if c.forgotten < forgetLimit {
		return
	}
	c.forgotten = 0
	clear(c.open)
	for _, o := range c.tracker.Open() {
		c.open[o.key]++
	}
}

func (c *Collector) event(e Event) {
	if len(c.events) < c.timeline {
		c.events = append(c.events, e)
	}
}

// problem counts a problem, and keeps it while fewer than Options.Problems
// are.
func (c *Collector) problem(p Problem) {
	c.found++
	if len(c.problems) < c.keep {
		c.problems = append(c.problems, p)
	}
}

// Problems returns the problems kept, at most Options.Problems, and how
// many were found in all.
func (c *Collector) Problems() (kept []Problem, found int) { return c.problems, c.found }

// Stats returns the figures of the log so far. Requests not answered so far
// count as unanswered.
func (c *Collector) Stats() *Stats {
	for _, p := range c.s.Pairing {
		p.Unanswered = p.Requests - p.Answered
	}
	return c.s
}

// Timeline returns the Events kept, at most Options.Timeline.
func (c *Collector) Timeline() []Event { return c.events }

// ReadLog counts every record r reads. The error is an I/O error that ended
// the log; what was read before is counted. The records are decoded on
// every core (rpclog.Reader.Batches) and counted in log order.
func ReadLog(r *rpclog.Reader, c *Collector) error {
	stop := make(chan struct{})
	defer close(stop)
	for b := range r.Batches(rpclog.BatchOptions{}, stop) {
		for _, br := range b.Records {
			c.Add(br.Record)
		}
		err := b.Err
		b.Done()
		if err != nil {
			return err
		}
	}
	return nil
}

func dirName(d jsonrpc.Direction) string {
	if d == jsonrpc.NoDirection {
		return DirUnknown
	}
	return d.String()
}

// memberKind returns the kind of the batch member a problem's pointer
// points into, or the message's own kind.
func memberKind(m jsonrpc.Message, ptr string) string {
	if m.Kind != jsonrpc.KindBatch || !strings.HasPrefix(ptr, "/") {
		return m.Kind.String()
	}
	tok, _, _ := strings.Cut(ptr[1:], "/")
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || i >= len(m.Members) {
		return m.Kind.String()
	}
	return m.Members[i].Kind.String()
}

// errorCode returns the integer code of an error response that the JSON-RPC
// rules accepted (so an integer within int64, possibly spelt 1.0 or 1e2).
func errorCode(obj map[string]any) int64 {
	e, _ := obj["error"].(map[string]any)
	switch c := e["code"].(type) {
	case json.Number:
		if i, err := c.Int64(); err == nil {
			return i
		}
		if r, ok := new(big.Rat).SetString(string(c)); ok && r.IsInt() && r.Num().IsInt64() {
			return r.Num().Int64()
		}
	case float64:
		return int64(c)
	}
	return 0
}

// idText writes an id as JSON.
func idText(id any) string {
	b, err := json.Marshal(id)
	if err != nil {
		return "?"
	}
	return string(b)
}

// timeRE is the form of timestamp latencies are computed from: RFC 3339 with
// a time offset (the graph types it xsd:dateTime, and SPARQL can subtract
// two such values).
var timeRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`)

func parseTime(s string) (time.Time, bool) {
	if !timeRE.MatchString(s) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}
