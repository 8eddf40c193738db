package schema

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Checker checks the messages of a log in order: the JSON-RPC 2.0 rules, and
// a schema when it has one. It remembers open requests so that a response is
// checked against the result of the request it answers. A Checker is not
// safe for concurrent use; its Schema is.
type Checker struct {
	schema  *Schema
	def     *jsonschema.Schema // the --definition, or nil
	tracker *Tracker
}

// NewChecker returns a Checker for s, which may be nil to check the JSON-RPC
// rules only. definition, when not empty, names the part of s every message
// is checked against (see Schema.Resolve); otherwise MCP-style schemas
// dispatch by method and others apply whole.
func NewChecker(s *Schema, definition string) (*Checker, error) {
	c := &Checker{schema: s, tracker: NewTracker(0)}
	if definition != "" && s != nil {
		sch, err := s.definition(definition)
		if err != nil {
			return nil, err
		}
		c.def = sch
	}
	return c, nil
}

// Result is the outcome of checking one message.
type Result struct {
	Message  Message   // the classification
	Problems []Problem // rule problems, then schema problems, for the message and its members
	Answers  *Pending  // for a response: the request it answers, when the log shows it
}

// Valid reports whether the message has no error-severity problem.
func (r Result) Valid() bool {
	for _, p := range r.Problems {
		if p.Severity == SeverityError {
			return false
		}
	}
	return true
}

// Check checks v, the next message of the log, sent in direction dir ("c2s",
// "s2c" or "" when unknown). index is its position in the log.
func (c *Checker) Check(v any, dir string, index int) Result {
	m := Classify(v)
	r := Result{Message: m, Problems: m.AllProblems()}
	if m.Kind == KindBatch {
		arr, _ := v.([]any)
		for i, mm := range m.Members {
			if i < len(arr) {
				c.checkOne(&r, mm, arr[i], dir, index, "/"+strconv.Itoa(i))
			}
		}
		return r
	}
	c.checkOne(&r, m, v, dir, index, "")
	return r
}

func (c *Checker) checkOne(r *Result, m Message, v any, dir string, index int, prefix string) {
	var answers string
	switch m.Kind {
	case KindRequest:
		c.tracker.Request(dir, m.ID, m.Method, index)
	case KindResponse, KindErrorResponse:
		if p, ok := c.tracker.Answer(dir, m.ID); ok {
			answers = p.Method
			if prefix == "" {
				r.Answers = &p
			}
		}
	}
	if c.schema == nil || !m.Valid() {
		// A message the rules reject would only fail the schema again.
		return
	}
	switch {
	case c.def != nil:
		r.Problems = append(r.Problems, c.schema.validateWith(c.def, v, prefix)...)
	case c.schema.dispatch != nil:
		r.Problems = append(r.Problems, c.schema.dispatch.check(c.schema, m, v, dir, answers, prefix)...)
	default:
		r.Problems = append(r.Problems, c.schema.validateWith(c.schema.root, v, prefix)...)
	}
}

// Open returns the requests seen so far that no response has answered, in
// log order.
func (c *Checker) Open() []Pending { return c.tracker.Open() }

// Pending is a request waiting for its response.
type Pending struct {
	Method string
	Dir    string // the request's direction
	ID     any
	Index  int // its position in the log
}

// Tracker pairs responses with the requests they answer, following a log in
// order: a response answers the latest open request with the same id sent
// the opposite way (or, in a log without directions, sent at all). Ids are
// compared by type and value, so "1" and 1 differ.
type Tracker struct {
	open  map[pairKey][]Pending
	n     int
	limit int
	seq   int
}

type pairKey struct {
	dir string
	id  string
}

// DefaultOpenLimit bounds how many open requests a Tracker remembers.
const DefaultOpenLimit = 1 << 16

// NewTracker returns a Tracker remembering at most limit open requests
// (DefaultOpenLimit when limit <= 0); beyond it the oldest is forgotten.
func NewTracker(limit int) *Tracker {
	if limit <= 0 {
		limit = DefaultOpenLimit
	}
	return &Tracker{open: map[pairKey][]Pending{}, limit: limit}
}

// IDKey returns a string that identifies a JSON-RPC id by type and value:
// a string id "1" and a number id 1 have different keys, and numbers equal in
// value (1, 1.0, 1e0) have the same key.
func IDKey(id any) string {
	switch x := id.(type) {
	case nil:
		return "z"
	case string:
		return "s" + x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return "n" + strconv.FormatInt(i, 10)
		}
		if f, err := x.Float64(); err == nil {
			return "n" + strconv.FormatFloat(f, 'g', -1, 64)
		}
		return "n" + string(x)
	case float64:
		return "n" + strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return "n" + strconv.Itoa(x)
	case int64:
		return "n" + strconv.FormatInt(x, 10)
	}
	return "?"
}

// Request records a request sent in direction dir.
func (t *Tracker) Request(dir string, id any, method string, index int) {
	k := pairKey{dir, IDKey(id)}
	t.open[k] = append(t.open[k], Pending{Method: method, Dir: dir, ID: id, Index: index})
	t.n++
	if t.n > t.limit {
		t.dropOldest()
	}
}

// Answer finds and forgets the request that a response sent in direction dir
// with the given id answers.
func (t *Tracker) Answer(dir string, id any) (Pending, bool) {
	k := pairKey{opposite(dir), IDKey(id)}
	list := t.open[k]
	if len(list) == 0 {
		return Pending{}, false
	}
	p := list[len(list)-1]
	if len(list) == 1 {
		delete(t.open, k)
	} else {
		t.open[k] = list[:len(list)-1]
	}
	t.n--
	return p, true
}

// Open returns the open requests in log order.
func (t *Tracker) Open() []Pending {
	var out []Pending
	for _, l := range t.open {
		out = append(out, l...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

func (t *Tracker) dropOldest() {
	var oldest pairKey
	best := -1
	for k, l := range t.open {
		if best < 0 || l[0].Index < best {
			oldest, best = k, l[0].Index
		}
	}
	if best < 0 {
		return
	}
	l := t.open[oldest]
	if len(l) == 1 {
		delete(t.open, oldest)
	} else {
		t.open[oldest] = l[1:]
	}
	t.n--
}

func opposite(dir string) string {
	switch dir {
	case "c2s":
		return "s2c"
	case "s2c":
		return "c2s"
	}
	return dir
}
