package shgraph

import (
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

const ex = "http://example.org/"

// ttl parses Turtle whose prefix ex: is ex.
func ttl(t testing.TB, s string) []rdf.Triple {
	t.Helper()
	qs, _, err := rdf.Parse([]byte("@prefix ex: <"+ex+"> .\n"+s), rdf.Turtle, "")
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	return ts
}

func TestGraph(t *testing.T) {
	ts := ttl(t, `ex:a ex:p ex:b, ex:c ; ex:q "x" . ex:a ex:p ex:b . ex:d ex:p ex:b .`)
	g := New(ts)
	if g.Len() != 4 {
		t.Errorf("Len = %d, want 4 (a duplicate counted once)", g.Len())
	}
	if ok, diff := rdftest.Isomorphic(g.Triples(), ts); !ok {
		t.Errorf("Triples is not the graph given: %s", diff)
	}
	id := func(s string) ID { return g.ID(rdf.NewIRI(ex + s)) }
	var objs, subs []string
	for _, e := range g.Objects(id("a"), id("p")) {
		objs = append(objs, g.Term(e.B).Value)
	}
	for _, e := range g.Subjects(id("p"), id("b")) {
		subs = append(subs, g.Term(e.B).Value)
	}
	slices.Sort(objs)
	slices.Sort(subs)
	if !slices.Equal(objs, []string{ex + "b", ex + "c"}) || !slices.Equal(subs, []string{ex + "a", ex + "d"}) {
		t.Errorf("Objects(a, p) = %v, Subjects(p, b) = %v", objs, subs)
	}
	if n := len(g.WithPredicate(id("p"))); n != 3 {
		t.Errorf("WithPredicate(p) has %d triples, want 3", n)
	}
	if !g.Has(rdf.T(rdf.NewIRI(ex+"a"), ex+"q", rdf.NewLiteral("x", ""))) || g.Has(rdf.T(rdf.NewIRI(ex+"a"), ex+"q", rdf.NewLiteral("y", ""))) {
		t.Error("Has is wrong")
	}
	if len(g.Objects(id("nothing"), id("p"))) != 0 || len(g.Objects(id("a"), 12345)) != 0 {
		t.Error("lookups of unknown terms must find nothing")
	}
}

// TestGrow checks that a size hint, given to NewBuilder or to grow before
// or after triples are added, leaves the graph as it is without one.
func TestGrow(t *testing.T) {
	first := ttl(t, `ex:a ex:p ex:b, "x", _:n . _:n ex:q "y"@en .`)
	second := ttl(t, `ex:c ex:p ex:a, "x", 1 . ex:a ex:p ex:b .`)
	want := slices.Concat(first, second)
	tests := []struct {
		name          string
		initial       int
		before, after int // grow's n before the first triples and between the two sets
	}{
		{"none", 0, 0, 0},
		{"NewBuilder", 1000, 0, 0},
		{"grow while empty", 0, 1000, 0},
		{"grow after triples", 0, 0, 1000},
		{"negative", 0, -5, -5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder(tt.initial)
			b.grow(tt.before)
			b.Add(first...)
			b.grow(tt.after)
			b.Add(second...)
			g := b.Graph()
			if g.Len() != 7 {
				t.Errorf("Len = %d, want 7 (a duplicate counted once)", g.Len())
			}
			if ok, diff := rdftest.Isomorphic(g.Triples(), want); !ok {
				t.Errorf("the graph is not the triples added: %s", diff)
			}
			if id := g.ID(rdf.NewIRI(ex + "a")); id == 0 || g.Term(id) != rdf.NewIRI(ex+"a") {
				t.Errorf("ID(ex:a) = %d, which names %v", id, g.Term(id))
			}
		})
	}
}

// TestLiteralKeys checks that literals apart by any part of the term keep
// numbers of their own, however their parts would run together, and that
// ID finds each.
func TestLiteralKeys(t *testing.T) {
	escaped := rdf.NewLiteral("a", "")
	escaped.Escaped = true
	lits := []rdf.Term{
		rdf.NewLiteral("a", ""),
		escaped,
		rdf.NewLiteral("a", ex+"t"),
		rdf.NewLiteral("a"+ex, "t"),
		rdf.NewLangLiteral("a", "bc"),
		rdf.NewLangLiteral("ab", "c"),
		rdf.NewLiteral("", ""),
		rdf.NewLiteral("\x00", ""),
		rdf.NewLiteral("\x01a", ""),
		rdf.NewLiteral(strings.Repeat("long ", 60), ""), // past ID's room on the stack
		rdf.NewIRI(ex + "a"),
	}
	var ts []rdf.Triple
	for _, l := range lits {
		ts = append(ts, rdf.T(rdf.NewIRI(ex+"s"), ex+"p", l))
	}
	g := New(ts)
	if g.Len() != len(lits) {
		t.Errorf("Len = %d, want %d: literals were merged", g.Len(), len(lits))
	}
	seen := map[ID]rdf.Term{}
	for _, l := range lits {
		id := g.ID(l)
		if id == 0 || g.Term(id) != l {
			t.Errorf("ID(%v) = %d, which names %v", l, id, g.Term(id))
		}
		if prev, ok := seen[id]; ok {
			t.Errorf("%v and %v have the same ID %d", prev, l, id)
		}
		seen[id] = l
		if !g.Has(rdf.T(rdf.NewIRI(ex+"s"), ex+"p", l)) {
			t.Errorf("Has misses the triple of %v", l)
		}
	}
	if g.ID(rdf.NewLiteral("b", "")) != 0 {
		t.Error("ID finds a literal the graph lacks")
	}
}
