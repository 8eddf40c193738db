package jsonrpc

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestTrackerFlood: a stream of unique unanswered ids keeps memory bounded,
// and answered ones are still paired.
func TestTrackerFlood(t *testing.T) {
	tr := NewTracker[int](100)
	for i := 0; i < 100000; i++ {
		tr.Request(ClientToServer, json.Number(strconv.Itoa(i)), i)
		if i%2 == 0 {
			if v, ok := tr.Answer(ServerToClient, json.Number(strconv.Itoa(i))); !ok || v != i {
				t.Fatalf("request %d not answered: %v %v", i, v, ok)
			}
		}
	}
	if tr.Len() != 100 || len(tr.order) > 2*100+64 || len(tr.open) != 100 {
		t.Errorf("open %d, order %d, keys %d", tr.Len(), len(tr.order), len(tr.open))
	}
	if open := tr.Open(); open[0] != 99801 || open[99] != 99999 {
		t.Errorf("open from %d to %d, want the last 100 odd ones", open[0], open[99])
	}
}

// TestTrackerQueue: when every request is answered before the next, the
// order queue stays as short as a few requests: it is neither grown nor
// copied as the log goes on.
func TestTrackerQueue(t *testing.T) {
	tr := NewTracker[int](0)
	for i := range 100000 {
		id := json.Number(strconv.Itoa(i))
		tr.Request(ClientToServer, id, i)
		if i%1000 == 999 {
			// One left open now and then.
			continue
		}
		if v, ok := tr.Answer(ServerToClient, id); !ok || v != i {
			t.Fatalf("request %d: %v %v", i, v, ok)
		}
	}
	if tr.Len() != 100 || len(tr.order) > 2*100+64 || cap(tr.order) > 1024 {
		t.Errorf("open %d, order %d (capacity %d)", tr.Len(), len(tr.order), cap(tr.order))
	}
	if open := tr.Open(); len(open) != 100 || open[0] != 999 || open[99] != 99999 {
		t.Errorf("open %v", open)
	}
}

// TestTrackerEvictsOldest: with the same id reused while open, eviction still
// forgets the oldest request overall, and answers pair with the latest.
func TestTrackerEvictsOldest(t *testing.T) {
	tr := NewTracker[int](3)
	tr.Request(ClientToServer, "a", 1)
	tr.Request(ClientToServer, "b", 2)
	tr.Request(ClientToServer, "a", 3)
	if v, ok := tr.Answer(ServerToClient, "a"); !ok || v != 3 {
		t.Fatalf("answer a = %v %v, want the latest (3)", v, ok)
	}
	tr.Request(ClientToServer, "a", 4)
	tr.Request(ClientToServer, "c", 5) // over the limit: 1 is the oldest open request
	if got := tr.Open(); len(got) != 3 || got[0] != 2 || got[1] != 4 || got[2] != 5 {
		t.Errorf("open %v, want [2 4 5]", got)
	}
	if !tr.IsOpen(ClientToServer, "a") || tr.IsOpen(ServerToClient, "a") || tr.IsOpen(ClientToServer, "z") {
		t.Error("IsOpen")
	}
}

func TestTrackerLimit(t *testing.T) {
	tr := NewTracker[int](3)
	for i := 0; i < 5; i++ {
		tr.Request(ClientToServer, json.Number(string(rune('0'+i))), i)
	}
	open := tr.Open()
	if len(open) != 3 || open[0] != 2 || tr.Len() != 3 {
		t.Errorf("open %+v, want the last three", open)
	}
	if _, ok := tr.Answer(ServerToClient, json.Number("0")); ok {
		t.Error("a forgotten request was answered")
	}
	if p, ok := tr.Answer(ServerToClient, json.Number("4")); !ok || p != 4 {
		t.Errorf("Answer = %+v, %v", p, ok)
	}
	if _, ok := tr.Answer(ClientToServer, json.Number("3")); ok {
		t.Error("a response in the request's own direction answered it")
	}
}

// TestTrackerModel holds the Tracker to a plain model of it (the open
// requests as one list in request order: an answer takes the latest of
// its id and the opposite direction, the limit drops the oldest) over
// random requests and answers of a few ids, ids reused while open.
func TestTrackerModel(t *testing.T) {
	type req struct {
		dir Direction
		id  string
		v   int
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ limit, ids, requests int }{
		{1, 6, 1}, {3, 6, 1}, {8, 6, 1}, {100, 6, 1},
		// More requests than answers: ids open many times over.
		{50, 3, 2}, {1000, 40, 2},
	} {
		limit := c.limit
		tr := NewTracker[int](limit)
		var model []req
		for i := range 5000 {
			dir := Direction(1 + rng.IntN(2))
			id := strconv.Itoa(rng.IntN(c.ids))
			if rng.IntN(2+c.requests-1) < c.requests {
				tr.Request(dir, id, i)
				model = append(model, req{dir, id, i})
				if len(model) > limit {
					model = model[1:]
				}
			} else {
				want, found := -1, -1
				for j := len(model) - 1; j >= 0; j-- {
					if model[j].id == id && model[j].dir == dir.Opposite() {
						want, found = model[j].v, j
						break
					}
				}
				if found >= 0 {
					model = append(model[:found], model[found+1:]...)
				}
				if v, ok := tr.Answer(dir, id); ok != (found >= 0) || ok && v != want {
					t.Fatalf("limit %d, step %d: Answer(%v, %s) = %d %v, want %d %v", limit, i, dir, id, v, ok, want, found >= 0)
				}
			}
			if tr.Len() != len(model) {
				t.Fatalf("limit %d, step %d: %d open, want %d", limit, i, tr.Len(), len(model))
			}
		}
		open := tr.Open()
		for j, m := range model {
			if open[j] != m.v {
				t.Fatalf("limit %d: open %v, want %v", limit, open, model)
			}
		}
	}
}

// TestTrackerSessions: two sessions that both number their requests from
// 0, interleaved, pair each response with its own session's request; a
// response of a session that made no such request answers nothing, and a
// log without sessions ("") is a session of its own.
func TestTrackerSessions(t *testing.T) {
	id := func(n int) ID { return IDOf(json.Number(strconv.Itoa(n))) }
	tr := NewTracker[string](0)
	steps := []struct {
		req     bool
		session string
		dir     Direction
		n       int
		want    string // the request answered; "" for none
	}{
		{true, "A", ClientToServer, 0, ""},
		{true, "B", ClientToServer, 0, ""},
		{true, "B", ClientToServer, 1, ""},
		{false, "A", ServerToClient, 0, "A0"},
		{false, "B", ServerToClient, 1, "B1"},
		{false, "A", ServerToClient, 1, ""}, // A made no request 1
		{true, "", ClientToServer, 0, ""},
		{false, "B", ServerToClient, 0, "B0"},
		{false, "B", ServerToClient, 0, ""}, // answered already
		{false, "", ServerToClient, 0, "0"},
		{true, "A", ServerToClient, 0, ""}, // the server's own id 0 in A
		{false, "A", ClientToServer, 0, "A0"},
	}
	for i, s := range steps {
		name := s.session + strconv.Itoa(s.n)
		if s.req {
			tr.RequestIn(s.session, s.dir, id(s.n), name)
			continue
		}
		got, ok := tr.AnswerIn(s.session, s.dir, id(s.n))
		if got != s.want || ok != (s.want != "") {
			t.Errorf("step %d: response %s in session %q answers %q %v, want %q", i, s.dir, s.session, got, ok, s.want)
		}
	}
	if tr.Len() != 0 {
		t.Errorf("%d requests left open: %v", tr.Len(), tr.Open())
	}
}
