package jsonrpc

import (
	"cmp"
	"slices"
	"sort"
)

// Tracker pairs responses with the requests they answer, following a log in
// order, and remembers a value of type T for each open request. A response
// answers the latest open request with the same id sent the opposite way
// (or, in a log without directions, sent at all), in the same session: the
// ids of two sessions (MCP sessions recorded in one log, each numbering its
// requests from 0) never meet. Ids are compared by type and value, so "1"
// and 1 differ. Memory is bounded: beyond a limit, the
// oldest open requests are forgotten.
type Tracker[T any] struct {
	open  map[pairKey]openList[T]
	order []orderEntry // requests in the order they were made, for eviction
	n     int
	limit int
	seq   int
}

type tracked[T any] struct {
	seq int
	v   T
}

// openList holds the open requests of one key, in the order they were
// made: the first in place, so that the usual single one costs no slice.
type openList[T any] struct {
	first tracked[T]
	more  []tracked[T]
}

type pairKey struct {
	session string
	dir     Direction
	id      ID
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
	return &Tracker[T]{open: map[pairKey]openList[T]{}, limit: limit}
}

// Request records a request with the given id sent in direction dir.
func (t *Tracker[T]) Request(dir Direction, id any, v T) { t.RequestIn("", dir, IDOf(id), v) }

// RequestID is Request for an id given as its ID.
func (t *Tracker[T]) RequestID(dir Direction, id ID, v T) { t.RequestIn("", dir, id, v) }

// RequestIn is RequestID for a request of the named session ("" for a log
// without sessions, as Request): only a response of that session answers
// it.
func (t *Tracker[T]) RequestIn(session string, dir Direction, id ID, v T) {
	k := pairKey{session, dir, id}
	t.seq++
	x := tracked[T]{seq: t.seq, v: v}
	if l, ok := t.open[k]; ok {
		l.more = append(l.more, x)
		t.open[k] = l
	} else {
		t.open[k] = openList[T]{first: x}
	}
	t.order = append(t.order, orderEntry{k, t.seq})
	t.n++
	for t.n > t.limit {
		t.dropOldest()
	}
	if len(t.order) > 2*t.n+64 {
		// Most of the queue names requests answered since: drop them, in
		// place, so that it stays as long as the open requests and is not
		// grown again and again.
		t.compact()
	}
}

// Answer finds and forgets the request that a response with the given id,
// sent in direction dir, answers.
func (t *Tracker[T]) Answer(dir Direction, id any) (T, bool) { return t.AnswerID(dir, IDOf(id)) }

// AnswerID is Answer for an id given as its ID.
func (t *Tracker[T]) AnswerID(dir Direction, id ID) (T, bool) { return t.AnswerIn("", dir, id) }

// AnswerIn is AnswerID for a response of the named session: it answers a
// request of that session only.
func (t *Tracker[T]) AnswerIn(session string, dir Direction, id ID) (T, bool) {
	k := pairKey{session, dir.Opposite(), id}
	l, ok := t.open[k]
	if !ok {
		var zero T
		return zero, false
	}
	t.n--
	if n := len(l.more); n > 0 {
		p := l.more[n-1]
		l.more[n-1] = tracked[T]{}
		l.more = l.more[:n-1]
		t.open[k] = l
		t.unqueue(p.seq)
		return p.v, true
	}
	delete(t.open, k)
	t.unqueue(l.first.seq)
	return l.first.v, true
}

// unqueue drops the answered request seq from the order queue when it is
// the last one made, as it usually is: the queue then need not be
// compacted.
func (t *Tracker[T]) unqueue(seq int) {
	if n := len(t.order); n > 0 && t.order[n-1].seq == seq {
		t.order[n-1] = orderEntry{}
		t.order = t.order[:n-1]
	}
}

// IsOpen reports whether a request with the given id, sent in direction
// dir with no session, is waiting for its response.
func (t *Tracker[T]) IsOpen(dir Direction, id any) bool {
	_, ok := t.open[pairKey{"", dir, IDOf(id)}]
	return ok
}

// Len returns the number of open requests.
func (t *Tracker[T]) Len() int { return t.n }

// Open returns the values of the open requests in the order they were made.
func (t *Tracker[T]) Open() []T {
	var all []tracked[T]
	for _, l := range t.open {
		all = append(all, l.first)
		all = append(all, l.more...)
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
		l, ok := t.open[e.key]
		if !ok || l.first.seq != e.seq {
			continue // answered since
		}
		if len(l.more) == 0 {
			delete(t.open, e.key)
		} else {
			l.first = l.more[0]
			l.more = l.more[1:]
			t.open[e.key] = l
		}
		t.n--
		return
	}
}

// compact drops from the order queue the entries of requests already
// answered, so that it does not grow with the log.
func (t *Tracker[T]) compact() {
	kept := t.order[:0]
	for _, e := range t.order {
		if t.isOpen(e) {
			kept = append(kept, e)
		}
	}
	clear(t.order[len(kept):])
	t.order = kept
}

// isOpen reports whether the request an entry of the order queue names is
// still open.
func (t *Tracker[T]) isOpen(e orderEntry) bool {
	l, ok := t.open[e.key]
	if !ok {
		return false
	}
	if l.first.seq == e.seq {
		return true
	}
	// A key's requests are in the order they were made.
	_, found := slices.BinarySearchFunc(l.more, e.seq, func(x tracked[T], seq int) int { return cmp.Compare(x.seq, seq) })
	return found
}
