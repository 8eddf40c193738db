package schema

import (
	"strconv"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Checker checks the messages of a log in order: the JSON-RPC 2.0 rules, and
// a schema when it has one. It remembers open requests so that a response is
// checked against the result of the request it answers. A Checker is not
// safe for concurrent use; its Schema is.
type Checker struct {
	schema  *Schema
	def     *jsonschema.Schema // the --definition, or nil
	tracker *jsonrpc.Tracker[Pending]
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

// Check checks v, the next message of the log, sent in direction dir:
// index is its position in the log. It returns the message's
// classification and its diagnostics: the rules' first, then the
// schema's, for the message and its members (diag.HasErrors tells whether
// it is invalid).
func (c *Checker) Check(v any, dir jsonrpc.Direction, index int) (jsonrpc.Message, []diag.Diagnostic) {
	m := jsonrpc.Classify(v)
	ds := m.AllDiagnostics()
	if m.Kind == jsonrpc.KindBatch {
		arr, _ := v.([]any)
		for i, mm := range m.Members {
			if i < len(arr) {
				ds = c.checkOne(ds, mm, arr[i], dir, index, "/"+strconv.Itoa(i))
			}
		}
		return m, ds
	}
	return m, c.checkOne(ds, m, v, dir, index, "")
}

// checkOne checks one message (or batch member) v, classified as m, and
// appends its schema diagnostics to ds.
func (c *Checker) checkOne(ds []diag.Diagnostic, m jsonrpc.Message, v any, dir jsonrpc.Direction, index int, prefix string) []diag.Diagnostic {
	var answers string
	switch m.Kind {
	case jsonrpc.KindRequest:
		c.tracker.Request(dir, m.ID, Pending{Method: m.Method, Dir: dir, ID: m.ID, Index: index})
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		if p, ok := c.tracker.Answer(dir, m.ID); ok {
			answers = p.Method
		}
	}
	if c.schema == nil || !m.Valid() {
		// A message the rules reject would only fail the schema again.
		return ds
	}
	switch {
	case c.def != nil:
		return append(ds, c.schema.validateWith(c.def, v, prefix)...)
	case c.schema.dispatch != nil:
		return append(ds, c.schema.dispatch.check(c.schema, m, v, dir, answers, prefix)...)
	case c.schema.rulesSuffice:
		// The embedded schema says no more than the rules just applied.
		return ds
	}
	return append(ds, c.schema.validateWith(c.schema.root, v, prefix)...)
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
