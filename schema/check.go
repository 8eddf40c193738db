package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// Checker checks the messages of a log in order: the JSON-RPC 2.0 rules, and
// a schema when it has one. It remembers open requests so that a response is
// checked against the result of the request it answers. A Checker is not
// safe for concurrent use; its Schema is.
type Checker struct {
	schema  *Schema
	def     *jsonschema.Schema // the --definition, or nil
	tracker *jsonrpc.Tracker[Pending]
	eval    evaluator

	observer Observer
	others   []*Schema            // the schemas the observer may choose
	subs     map[*Schema]*Checker // checkers of those schemas, made when first needed
}

// An Observer sees each message a Checker checks, in log order, before the
// message is checked: it may say what else is wrong with it (protocol rules
// that span messages) and which schema and result definition to check it
// against (the version a session negotiated, the result of a request whose
// result type depends on its parameters). Calls never overlap, but may be
// made from several goroutines in turn.
type Observer interface {
	Observe(m *Observed) Choice
}

// Observed is a message as an Observer sees it.
type Observed struct {
	Index   int               // its position in the log, from 0
	Line    int               // where it starts, 0 when unknown
	Dir     jsonrpc.Direction // NoDirection when the log does not say
	Session string            // its MCP session, "" when the log does not say
	Message jsonrpc.Message   // its classification by the JSON-RPC rules
	// Value is the message as decoded: nil when it was read typed, and it
	// may hold undecoded members (see rpclog.BatchOptions.Lazy); Raw, its
	// JSON text, nil when unknown, is then to be read instead.
	Value any
	Raw   []byte
}

// Choice is what an Observer says of a message.
type Choice struct {
	// Schema is the schema to check the message against; nil for the
	// Checker's. It must be one of those given to Observe.
	Schema *Schema
	// Results, for a success response, names the definitions of the
	// schema its "result" may match, any one of them, instead of the
	// result of the request it answers; "" in it stands for that one.
	Results []string
	// Diagnostics are added to the message's.
	Diagnostics []diag.Diagnostic
}

// Observe makes o see every message c checks from now on; schemas are those
// o may choose besides c's own. Messages are then checked against them
// whole or by method, never with a definition given to NewChecker.
func (c *Checker) Observe(o Observer, schemas ...*Schema) {
	c.observer, c.others = o, schemas
}

// NewChecker returns a Checker for s, which may be nil to check the JSON-RPC
// rules only. definition, when not empty, names the part of s every message
// is checked against (see Schema.Resolve); otherwise MCP-style schemas
// dispatch by method and others apply whole.
func NewChecker(s *Schema, definition string) (*Checker, error) {
	c := &Checker{schema: s, tracker: jsonrpc.NewTracker[Pending](0)}
	if definition != "" && s != nil {
		sch, err := s.definition(definition)
		if err != nil {
			return nil, err
		}
		c.def = sch
	}
	return c, nil
}

// lazyMembers returns the members of messages that CheckRecord can take
// undecoded (see rpclog.BatchOptions.Lazy): params and result, unless a
// schema the Checker may validate against has no plan, and so needs them
// decoded.
func (c *Checker) lazyMembers() []string {
	lazy := []string{"params", "result"}
	for _, o := range c.others {
		if (&Checker{schema: o}).lazyMembers() == nil {
			return nil
		}
	}
	s := c.schema
	switch {
	case s == nil:
		return lazy
	case c.def != nil:
		if s.plan(c.def) == nil {
			return nil
		}
		return lazy
	case s.dispatch == nil && s.rulesSuffice:
		return lazy
	}
	schemas := []*jsonschema.Schema{s.root}
	if d := s.dispatch; d != nil {
		for _, mds := range d.methods {
			for _, md := range mds {
				schemas = append(schemas, md.sch)
				if md.result != nil {
					schemas = append(schemas, md.result.sch)
				}
			}
		}
		for _, df := range []*def{d.request, d.notification, d.resultResponse, d.errorResponse, d.serverResult, d.clientResult} {
			if df != nil {
				schemas = append(schemas, df.sch)
			}
		}
	}
	for _, sch := range schemas {
		if s.plan(sch) == nil {
			return nil
		}
	}
	return lazy
}

// Check checks v, the next message of the log, sent in direction dir:
// index is its position in the log. It returns the message's
// classification and its diagnostics: the rules' first, then the
// schema's, for the message and its members (diag.HasErrors tells whether
// it is invalid).
func (c *Checker) Check(v any, dir jsonrpc.Direction, index int) (jsonrpc.Message, []diag.Diagnostic) {
	return c.check(v, nil, dir, index)
}

// CheckRecord is Check for a record of a log reader (not one with an
// error): its value, direction and JSON text. With the text, a valid message
// is found valid on the text itself, by plans compiled from the schema,
// which is several times faster than validating the value; jsonschema
// then runs only on the messages a plan does not find valid, to say why.
func (c *Checker) CheckRecord(rec *rpclog.Record, index int) (jsonrpc.Message, []diag.Diagnostic) {
	t := c.track(rpclog.Classify(rec), rec.Value, rec, rec.Dir, index)
	return t.m, c.finishRecord(&t, rec)
}

func (c *Checker) check(v any, raw []byte, dir jsonrpc.Direction, index int) (jsonrpc.Message, []diag.Diagnostic) {
	t := c.track(jsonrpc.Classify(v), v, nil, dir, index)
	return t.m, c.finish(&t, v, raw, dir)
}

// finishRecord is finish for the message of rec, tracked as t, on its
// text: what the log reader noted of it (Lens) spares reading it again.
func (c *Checker) finishRecord(t *tracked, rec *rpclog.Record) []diag.Diagnostic {
	raw, lead := trimSpace(rec.Raw)
	if len(rec.Lens) == len(rec.Raw) && rec.Lens != nil {
		c.eval.idx = index{text: raw, lens: rec.Lens[lead : lead+len(raw)]}
	}
	// The reader warns of every member named twice, in undecoded values
	// too.
	c.eval.unique = len(rec.Warnings) == 0
	ds := c.finish(t, rec.Value, raw, rec.Dir)
	c.eval.idx, c.eval.unique = index{}, false // nothing of the record outlives its check
	return ds
}

// trimSpace returns b without the JSON white space around it, and the
// length of that before it.
func trimSpace(b []byte) (trimmed []byte, lead int) {
	lead = jsonparse.SkipSpace(b, 0)
	b = b[lead:]
	for len(b) > 0 {
		switch b[len(b)-1] {
		case ' ', '\t', '\r', '\n':
			b = b[:len(b)-1]
			continue
		}
		break
	}
	return b, lead
}

// tracked is a message classified by the rules and paired with the request
// it answers: all of its check that depends on the messages before it.
type tracked struct {
	m       jsonrpc.Message
	ds      []diag.Diagnostic // the rules' diagnostics
	answers string            // the method the message answers, or ""
	members []string          // for a batch, the method each member answers
	schema  *Schema           // the schema an Observer chose, or nil
	results []string          // the result definitions an Observer chose
}

// track pairs v, the index-th message of the log, sent in direction dir
// and classified as m, (or its members) with the open requests, and shows
// it to the Observer; rec is its record, nil when unknown. It must see the
// messages in log order; finish then needs nothing else from the log.
func (c *Checker) track(m jsonrpc.Message, v any, rec *rpclog.Record, dir jsonrpc.Direction, index int) tracked {
	var choice Choice
	session := ""
	if rec != nil {
		session = rec.Session
	}
	if c.observer != nil {
		o := Observed{Index: index, Dir: dir, Session: session, Message: m, Value: v}
		if rec != nil {
			o.Line, o.Raw = rec.Line, rec.Raw
		}
		choice = c.observer.Observe(&o)
	}
	s := c.schema
	if choice.Schema != nil {
		s = choice.Schema
	}
	if s != nil && s.dispatch != nil && s.dispatch.errorIDOptional {
		m = allowMissingID(m)
	}
	t := tracked{m: m, ds: m.AllDiagnostics(), schema: choice.Schema, results: choice.Results}
	if len(choice.Diagnostics) > 0 {
		t.ds = append(slices.Clip(t.ds), choice.Diagnostics...)
	}
	if m.Kind == jsonrpc.KindBatch {
		arr, _ := v.([]any)
		t.members = make([]string, min(len(m.Members), len(arr)))
		for i := range t.members {
			t.members[i] = c.pair(m.Members[i], session, dir, index)
		}
		return t
	}
	t.answers = c.pair(m, session, dir, index)
	return t
}

// pair notes a request as open, or finds the method of the request a
// response answers, in its MCP session.
func (c *Checker) pair(m jsonrpc.Message, session string, dir jsonrpc.Direction, index int) string {
	switch m.Kind {
	case jsonrpc.KindRequest:
		c.tracker.RequestIn(session, dir, jsonrpc.IDOf(m.ID), Pending{Method: m.Method, Dir: dir, ID: m.ID, Index: index})
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		if p, ok := c.tracker.AnswerIn(session, dir, jsonrpc.IDOf(m.ID)); ok {
			return p.Method
		}
	}
	return ""
}

// finish checks the message t tracked against the schema, on its JSON
// text raw (nil when unknown), and returns all its diagnostics. It uses no
// state of the log: each goroutine may finish messages with a Checker of
// its own (see worker), in any order.
func (c *Checker) finish(t *tracked, v any, raw []byte, dir jsonrpc.Direction) []diag.Diagnostic {
	if t.schema != nil && t.schema != c.schema {
		return c.sub(t.schema).finish(&tracked{m: t.m, ds: t.ds, answers: t.answers, members: t.members, results: t.results}, v, raw, dir)
	}
	ds := t.ds
	if t.m.Kind != jsonrpc.KindBatch {
		return c.checkOne(ds, t.m, v, raw, dir, t.answers, t.results, "")
	}
	arr, _ := v.([]any)
	var texts [][]byte
	if raw != nil && c.schema != nil {
		if !c.eval.idx.elements(raw, func(_ int, t []byte) bool { texts = append(texts, t); return true }) || len(texts) != len(arr) {
			texts = nil
		}
	}
	for i, answers := range t.members {
		var text []byte
		if texts != nil {
			text = texts[i]
		}
		ds = c.checkOne(ds, t.m.Members[i], arr[i], text, dir, answers, nil, "/"+strconv.Itoa(i))
	}
	return ds
}

// worker returns a Checker that finishes messages with c's schema on
// another goroutine: it shares c's Schema, which is safe for concurrent
// use, and has scratch space of its own.
func (c *Checker) worker() *Checker {
	return &Checker{schema: c.schema, def: c.def}
}

// sub returns c's checker of schema s, one an Observer chose: a worker of
// s, whose scratch space is c's alone.
func (c *Checker) sub(s *Schema) *Checker {
	w := c.subs[s]
	if w == nil {
		if c.subs == nil {
			c.subs = map[*Schema]*Checker{}
		}
		w = &Checker{schema: s}
		c.subs[s] = w
	}
	return w
}

// allowMissingID returns m, or its batch members, with an error response
// that lacks "id" taken as valid when that is all the JSON-RPC rules have
// against it: the schemas of MCP since 2025-11-25 allow it, for an error
// about a request whose id could not be read.
func allowMissingID(m jsonrpc.Message) jsonrpc.Message {
	if m.Kind == jsonrpc.KindBatch {
		var members []jsonrpc.Message
		for i, mm := range m.Members {
			if r := allowMissingID(mm); r.Kind != mm.Kind {
				if members == nil {
					members = slices.Clone(m.Members)
				}
				members[i] = r
			}
		}
		if members != nil {
			m.Members = members
		}
		return m
	}
	if m.Kind != jsonrpc.KindInvalid || m.Shape != jsonrpc.KindErrorResponse || m.HasID {
		return m
	}
	var kept []diag.Diagnostic
	for _, d := range m.Diagnostics {
		if d.Severity == diag.Error && (d.Pointer == "/id" || strings.HasSuffix(d.Pointer, "/id") && strings.Count(d.Pointer, "/") == 2) {
			continue
		}
		kept = append(kept, d)
	}
	if diag.HasErrors(kept) {
		return m
	}
	m.Kind, m.Diagnostics = jsonrpc.KindErrorResponse, kept
	return m
}

// checkOne checks one message (or batch member) v, classified as m and
// answering a request for method answers (or ""), whose JSON text is raw
// (nil when unknown), against the schema, and appends its diagnostics to ds.
// results, when not empty, are the definitions a success response's result
// may match (see Choice).
func (c *Checker) checkOne(ds []diag.Diagnostic, m jsonrpc.Message, v any, raw []byte, dir jsonrpc.Direction, answers string, results []string, prefix string) []diag.Diagnostic {
	if c.schema == nil || !m.Valid() {
		// A message the rules reject would only fail the schema again.
		return ds
	}
	switch {
	case c.def != nil:
		return append(ds, c.validate(c.def, v, raw, prefix)...)
	case c.schema.dispatch != nil:
		return append(ds, c.schema.dispatch.checkResults(c, m, v, raw, dir, answers, results, prefix)...)
	case c.schema.rulesSuffice:
		// The embedded schema says no more than the rules just applied.
		return ds
	}
	return append(ds, c.validate(c.schema.root, v, raw, prefix)...)
}

// validate checks v, whose JSON text is raw (nil when unknown), against
// sch: on the text, by sch's plan, when it has one and that finds v valid;
// else with jsonschema, which says why v is not. With raw, v may hold
// undecoded values (see lazyMembers): jsonschema then gets raw decoded.
func (c *Checker) validate(sch *jsonschema.Schema, v any, raw []byte, prefix string) []diag.Diagnostic {
	if raw != nil {
		if n := c.schema.plan(sch); n != nil {
			if c.eval.run(n, raw) == valid {
				return nil
			}
		}
		if full, ok := c.eval.decode(raw); ok {
			v = full
		}
	}
	return c.schema.validateWith(sch, v, prefix)
}

// Open returns the requests seen so far that no response has answered, in
// log order.
func (c *Checker) Open() []Pending { return c.tracker.Open() }

// Pending is a request waiting for its response, as a Checker remembers it.
type Pending struct {
	Method string
	Dir    jsonrpc.Direction // the request's direction
	ID     any
	Index  int // its position in the log
}
