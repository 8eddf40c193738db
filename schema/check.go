package schema

import (
	"encoding/json"
	"math/big"
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
	tracker *Tracker[Pending]
}

// NewChecker returns a Checker for s, which may be nil to check the JSON-RPC
// rules only. definition, when not empty, names the part of s every message
// is checked against (see Schema.Resolve); otherwise MCP-style schemas
// dispatch by method and others apply whole.
func NewChecker(s *Schema, definition string) (*Checker, error) {
	c := &Checker{schema: s, tracker: NewTracker[Pending](0)}
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
		c.tracker.Request(dir, m.ID, Pending{Method: m.Method, Dir: dir, ID: m.ID, Index: index})
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
	case c.schema.rulesSuffice:
		// The embedded schema says no more than the rules just applied.
	default:
		r.Problems = append(r.Problems, c.schema.validateWith(c.schema.root, v, prefix)...)
	}
}

// Open returns the requests seen so far that no response has answered, in
// log order.
func (c *Checker) Open() []Pending { return c.tracker.Open() }

// Pending is a request waiting for its response, as a Checker remembers it.
type Pending struct {
	Method string
	Dir    string // the request's direction
	ID     any
	Index  int // its position in the log
}

// Tracker pairs responses with the requests they answer, following a log in
// order, and remembers a value of type T for each open request. A response
// answers the latest open request with the same id sent the opposite way
// (or, in a log without directions, sent at all). Ids are compared by type
// and value, so "1" and 1 differ. Memory is bounded: beyond a limit, the
// oldest open requests are forgotten.
type Tracker[T any] struct {
	open  map[pairKey][]tracked[T]
	order []orderEntry // requests in the order they were made, for eviction
	n     int
	limit int
	seq   int
}

type tracked[T any] struct {
	seq int
	v   T
}

type pairKey struct {
	dir string
	id  string
}

type orderEntry struct {
	key pairKey
	seq int
}

// DefaultOpenLimit bounds how many open requests a Tracker remembers.
const DefaultOpenLimit = 1 << 16

// NewTracker returns a Tracker remembering at most limit open requests
// (DefaultOpenLimit when limit <= 0).
func NewTracker[T any](limit int) *Tracker[T] {
	if limit <= 0 {
		limit = DefaultOpenLimit
	}
	return &Tracker[T]{open: map[pairKey][]tracked[T]{}, limit: limit}
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
		if r, ok := new(big.Rat).SetString(string(x)); ok {
			return "n" + r.RatString()
		}
		return "n" + string(x)
	case float64:
		if r := new(big.Rat).SetFloat64(x); r != nil {
			return "n" + r.RatString()
		}
		return "n" + strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return "n" + strconv.Itoa(x)
	case int64:
		return "n" + strconv.FormatInt(x, 10)
	}
	return "?"
}

// Request records a request with the given id sent in direction dir.
func (t *Tracker[T]) Request(dir string, id any, v T) {
	k := pairKey{dir, IDKey(id)}
	t.seq++
	t.open[k] = append(t.open[k], tracked[T]{seq: t.seq, v: v})
	t.order = append(t.order, orderEntry{k, t.seq})
	t.n++
	for t.n > t.limit {
		t.dropOldest()
	}
	if len(t.order) > 2*t.limit+16 {
		t.compact()
	}
}

// Answer finds and forgets the request that a response with the given id,
// sent in direction dir, answers.
func (t *Tracker[T]) Answer(dir string, id any) (T, bool) {
	k := pairKey{opposite(dir), IDKey(id)}
	list := t.open[k]
	if len(list) == 0 {
		var zero T
		return zero, false
	}
	p := list[len(list)-1]
	if len(list) == 1 {
		delete(t.open, k)
	} else {
		t.open[k] = list[:len(list)-1]
	}
	t.n--
	return p.v, true
}

// IsOpen reports whether a request with the given id, sent in direction
// dir, is waiting for its response.
func (t *Tracker[T]) IsOpen(dir string, id any) bool {
	return len(t.open[pairKey{dir, IDKey(id)}]) > 0
}

// Len returns the number of open requests.
func (t *Tracker[T]) Len() int { return t.n }

// Open returns the values of the open requests in the order they were made.
func (t *Tracker[T]) Open() []T {
	var all []tracked[T]
	for _, l := range t.open {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	out := make([]T, len(all))
	for i, x := range all {
		out[i] = x.v
	}
	return out
}

// dropOldest forgets the oldest open request. Requests leave a key's list
// only from its end (answered) or its front (forgotten), and the order queue
// is in request order, so an entry names the front of its list or a request
// already answered.
func (t *Tracker[T]) dropOldest() {
	for len(t.order) > 0 {
		e := t.order[0]
		t.order = t.order[1:]
		list := t.open[e.key]
		if len(list) == 0 || list[0].seq != e.seq {
			continue // answered since
		}
		if len(list) == 1 {
			delete(t.open, e.key)
		} else {
			t.open[e.key] = list[1:]
		}
		t.n--
		return
	}
}

// compact drops from the order queue the entries of requests already
// answered, so that it does not grow with the log.
func (t *Tracker[T]) compact() {
	live := map[orderEntry]bool{}
	for k, l := range t.open {
		for _, x := range l {
			live[orderEntry{k, x.seq}] = true
		}
	}
	kept := t.order[:0]
	for _, e := range t.order {
		if live[e] {
			kept = append(kept, e)
		}
	}
	t.order = kept
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
