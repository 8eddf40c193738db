package jsonrpc

import (
	"encoding/json"
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
	if tr.Len() != 100 || len(tr.order) > 2*100+16 || len(tr.open) != 100 {
		t.Errorf("open %d, order %d, keys %d", tr.Len(), len(tr.order), len(tr.open))
	}
	if open := tr.Open(); open[0] != 99801 || open[99] != 99999 {
		t.Errorf("open from %d to %d, want the last 100 odd ones", open[0], open[99])
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
