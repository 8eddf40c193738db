package rules

import (
	"encoding/json"
	"testing"
)

// TestIDSet: integer ids kept as ranges merge as a counter fills them, in
// any order; other ids by their value and type; an id is new once.
func TestIDSet(t *testing.T) {
	var s idSet
	n := func(x string) any { return json.Number(x) }
	for _, x := range []struct {
		id  any
		new bool
	}{
		{n("1"), true}, {n("3"), true}, {n("2"), true}, {n("2"), false}, {n("0"), true}, {n("5"), true},
		{n("4"), true}, {n("-1"), true}, {n("6"), true}, {n("3"), false},
		{"1", true}, {"1", false}, {n("1.5"), true}, {n("1.5"), false}, {n("99999999999999999999"), true},
	} {
		if got := s.add(x.id); got != x.new {
			t.Errorf("add(%v) = %v, want %v", x.id, got, x.new)
		}
	}
	if len(s.ranges) != 1 || s.ranges[0] != [2]int64{-1, 6} {
		t.Errorf("ranges %v, want one, -1 to 6", s.ranges)
	}
	for _, id := range []any{n("-1"), n("6"), "1", n("1.5")} {
		if !s.has(id) {
			t.Errorf("has(%v) = false", id)
		}
	}
	for _, id := range []any{n("7"), n("-2"), "2", n("2.5")} {
		if s.has(id) {
			t.Errorf("has(%v) = true", id)
		}
	}
}
