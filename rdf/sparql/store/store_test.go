package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

func iri(s string) rdf.Term { return rdf.NewIRI("http://example/" + s) }

func quad(s, p, o string, g string) rdf.Quad {
	q := rdf.Quad{Triple: rdf.T(iri(s), "http://example/"+p, iri(o))}
	if g != "" {
		q.G = iri(g)
	}
	return q
}

// TestMatchEveryPattern checks Match and Count, for each of the eight
// combinations of bound positions, against a scan of the triples added.
func TestMatchEveryPattern(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	st := New()
	var added []rdf.Triple
	for range 400 {
		q := quad(fmt.Sprint("s", r.IntN(12)), fmt.Sprint("p", r.IntN(4)), fmt.Sprint("o", r.IntN(12)), "")
		added = append(added, q.Triple)
		if err := st.Add(q); err != nil {
			t.Fatal(err)
		}
	}
	snap := st.Snapshot()
	g := snap.Graph(DefaultGraph)
	want := map[rdf.Triple]bool{}
	for _, tr := range added {
		want[tr] = true
	}
	if g.Len() != len(want) {
		t.Fatalf("Len = %d, want %d distinct triples", g.Len(), len(want))
	}
	id := func(t rdf.Term) ID { v, _ := snap.Lookup(t); return v }
	for _, tr := range added[:60] {
		for mask := range 8 {
			var s, p, o ID
			if mask&1 != 0 {
				s = id(tr.S)
			}
			if mask&2 != 0 {
				p = id(rdf.NewIRI(tr.P))
			}
			if mask&4 != 0 {
				o = id(tr.O)
			}
			var got []string
			rg := g.Match(s, p, o)
			for i := range rg.Len() {
				a, b, c := rg.At(i)
				got = append(got, rdf.T(snap.Term(a), snap.Term(b).Value, snap.Term(c)).String())
			}
			var exp []string
			for w := range want {
				if (s == 0 || id(w.S) == s) && (p == 0 || id(rdf.NewIRI(w.P)) == p) && (o == 0 || id(w.O) == o) {
					exp = append(exp, w.String())
				}
			}
			slices.Sort(got)
			slices.Sort(exp)
			if !slices.Equal(got, exp) {
				t.Fatalf("Match(%v mask %b): got %d triples, want %d", tr, mask, len(got), len(exp))
			}
			if g.Count(s, p, o) != len(exp) {
				t.Fatalf("Count(%v mask %b) = %d, want %d", tr, mask, g.Count(s, p, o), len(exp))
			}
		}
	}
}

func TestChanges(t *testing.T) {
	tests := []struct {
		name  string
		steps func(*Store)
		want  []rdf.Quad
	}{
		{"add twice is once", func(s *Store) { s.Add(quad("a", "p", "b", ""), quad("a", "p", "b", "")) },
			[]rdf.Quad{quad("a", "p", "b", "")}},
		{"delete after add", func(s *Store) { s.Add(quad("a", "p", "b", "")); s.Delete(quad("a", "p", "b", "")) }, nil},
		{"add after delete", func(s *Store) {
			s.Add(quad("a", "p", "b", ""))
			s.Delete(quad("a", "p", "b", ""))
			s.Add(quad("a", "p", "b", ""))
		}, []rdf.Quad{quad("a", "p", "b", "")}},
		{"delete of unknown terms", func(s *Store) {
			s.Add(quad("a", "p", "b", ""))
			s.Delete(quad("x", "p", "b", ""), quad("a", "p", "b", "g"))
		},
			[]rdf.Quad{quad("a", "p", "b", "")}},
		{"graphs are apart", func(s *Store) {
			s.Add(quad("a", "p", "b", ""), quad("a", "p", "b", "g1"), quad("a", "p", "c", "g2"))
			s.Delete(quad("a", "p", "b", "g1"))
		}, []rdf.Quad{quad("a", "p", "b", ""), quad("a", "p", "c", "g2")}},
		{"clear default", func(s *Store) { s.Add(quad("a", "p", "b", ""), quad("a", "p", "b", "g")); s.ClearGraph(rdf.Term{}) },
			[]rdf.Quad{quad("a", "p", "b", "g")}},
		{"drop named", func(s *Store) { s.Add(quad("a", "p", "b", ""), quad("a", "p", "b", "g")); s.DropGraph(iri("g")) },
			[]rdf.Quad{quad("a", "p", "b", "")}},
		{"pending add then clear", func(s *Store) {
			s.Add(quad("a", "p", "b", "g"))
			s.ClearGraph(iri("g"))
			s.Add(quad("c", "p", "d", "g"))
		},
			[]rdf.Quad{quad("c", "p", "d", "g")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := New()
			tc.steps(st)
			var got []string
			for q := range st.Snapshot().Quads {
				got = append(got, q.Triple.String()+" "+q.G.String())
			}
			var want []string
			for _, q := range tc.want {
				want = append(want, q.Triple.String()+" "+q.G.String())
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestSnapshotIsImmutable(t *testing.T) {
	st := New()
	st.Add(quad("a", "p", "b", ""))
	before := st.Snapshot()
	st.Add(quad("a", "p", "c", ""), quad("x", "p", "y", "g"))
	st.Delete(quad("a", "p", "b", ""))
	if n := before.Graph(DefaultGraph).Len(); n != 1 {
		t.Errorf("old snapshot's default graph has %d triples, want 1", n)
	}
	if len(before.NamedGraphs()) != 0 {
		t.Errorf("old snapshot sees named graphs %v", before.NamedGraphs())
	}
	if _, ok := before.Lookup(iri("x")); ok {
		t.Error("old snapshot knows a term added after it")
	}
	after := st.Snapshot()
	if n := after.Graph(DefaultGraph).Len(); n != 1 || len(after.NamedGraphs()) != 1 {
		t.Errorf("new snapshot: %d default triples, %d named graphs; want 1 and 1", n, len(after.NamedGraphs()))
	}
}

func TestGraphs(t *testing.T) {
	st := New()
	if created, err := st.CreateGraph(iri("g")); !created || err != nil {
		t.Fatalf("CreateGraph = %v, %v; want true, nil", created, err)
	}
	if created, _ := st.CreateGraph(iri("g")); created {
		t.Error("CreateGraph of an existing graph reported it new")
	}
	snap := st.Snapshot()
	g, _ := snap.Lookup(iri("g"))
	if len(snap.NamedGraphs()) != 1 || snap.NamedGraphs()[0] != g || snap.Graph(g) == nil {
		t.Errorf("named graphs %v, want the empty graph %d", snap.NamedGraphs(), g)
	}
	if !st.ClearGraph(iri("g")) || len(st.Snapshot().NamedGraphs()) != 1 {
		t.Error("ClearGraph removed the graph or did not find it")
	}
	if !st.DropGraph(iri("g")) || len(st.Snapshot().NamedGraphs()) != 0 {
		t.Error("DropGraph left the graph or did not find it")
	}
	if st.DropGraph(iri("g")) || st.ClearGraph(iri("nothing")) {
		t.Error("DropGraph or ClearGraph found a graph that is not there")
	}
	if _, err := st.CreateGraph(rdf.NewLiteral("g", "")); err == nil {
		t.Error("CreateGraph took a literal name")
	}
}

func TestNodes(t *testing.T) {
	st := New()
	st.Add(quad("a", "p", "b", ""), quad("b", "p", "c", ""), quad("a", "q", "c", ""), quad("d", "p", "d", ""))
	snap := st.Snapshot()
	var got []string
	for n := range snap.Graph(DefaultGraph).Nodes {
		got = append(got, snap.Term(n).Value)
	}
	slices.Sort(got)
	want := []string{"http://example/a", "http://example/b", "http://example/c", "http://example/d"}
	if !slices.Equal(got, want) {
		t.Errorf("Nodes = %q, want %q", got, want)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want rdf.Term
	}{
		{rdf.Term{Kind: rdf.Literal, Value: `a\"b\\c\n\u00e9\U0001F600`, Escaped: true}, rdf.NewLiteral("a\"b\\c\né\U0001F600", rdf.XSDString)},
		{rdf.Term{Kind: rdf.Literal, Value: `bad \q \u12`, Escaped: true}, rdf.NewLiteral(`bad \q \u12`, rdf.XSDString)},
		{rdf.Term{Kind: rdf.Literal, Value: "x"}, rdf.NewLiteral("x", rdf.XSDString)},
		{rdf.Term{Kind: rdf.Literal, Value: "x", Lang: "en-GB"}, rdf.NewLangLiteral("x", "en-gb")},
		{iri("a"), iri("a")},
	}
	for _, tc := range tests {
		if got := Normalize(tc.in); got != tc.want {
			t.Errorf("Normalize(%#v) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
	st := New()
	st.Add(rdf.Quad{Triple: rdf.T(iri("a"), "http://example/p", rdf.Term{Kind: rdf.Literal, Value: "x"})})
	if _, ok := st.Snapshot().Lookup(rdf.NewLiteral("x", rdf.XSDString)); !ok {
		t.Error("a literal added without datatype is not found as xsd:string")
	}
}

func TestRefusedQuads(t *testing.T) {
	lit := rdf.NewLiteral("x", "")
	tests := []rdf.Quad{
		{Triple: rdf.T(lit, "http://example/p", iri("o"))},
		{Triple: rdf.T(rdf.Term{}, "http://example/p", iri("o"))},
		{Triple: rdf.T(iri("s"), "", iri("o"))},
		{Triple: rdf.T(iri("s"), "http://example/p", rdf.Term{})},
		{Triple: rdf.T(iri("s"), "http://example/p", iri("o")), G: lit},
	}
	for _, q := range tests {
		st := New()
		var qe *QuadError
		if err := st.Add(q); !errors.As(err, &qe) {
			t.Errorf("Add(%v) = %v, want a *QuadError", q, err)
		}
		if st.Snapshot().Graph(DefaultGraph).Len() != 0 {
			t.Errorf("Add(%v) added something", q)
		}
	}
}

// TestSorted: the index sort (a radix sort from radixMin entries) gives
// the order and the set of a comparison sort, whatever the IDs' sizes
// and the duplicates.
func TestSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	tests := []struct {
		name string
		n    int
		max  uint32 // IDs are below it
	}{
		{"few", 10, 100},
		{"small IDs", 5000, 300},     // the high halves all zero: passes skipped
		{"large IDs", 5000, 1 << 31}, // every pass
		{"many duplicates", 3000, 4}, // each triple many times
		{"one digit past 65536", 2000, 70000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := make([]Triple, tt.n)
			for i := range ts {
				ts[i] = Triple{ID(rng.Uint32N(tt.max)), ID(rng.Uint32N(tt.max)), ID(rng.Uint32N(tt.max))}
			}
			for _, perm := range []func(Triple) Triple{func(t Triple) Triple { return t }, toPOS, toOSP} {
				want := make([]Triple, len(ts))
				for i, x := range ts {
					want[i] = perm(x)
				}
				slices.SortFunc(want, func(a, b Triple) int {
					for i := range 3 {
						if a[i] != b[i] {
							if a[i] < b[i] {
								return -1
							}
							return 1
						}
					}
					return 0
				})
				want = slices.Compact(want)
				if got := sorted(ts, perm); !slices.Equal(got, want) {
					t.Errorf("%d triples sorted into %d, want %d, or in another order", len(ts), len(got), len(want))
				}
			}
		})
	}
}
