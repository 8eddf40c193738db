package eval

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

func v(name string) algebra.Node { return algebra.Node{Var: name} }
func c(iri string) algebra.Node  { return algebra.Node{Term: rdf.NewIRI("http://ex/" + iri)} }

// TestPlan checks the join order on data where the counts decide: 100
// typed nodes, 10 of them named, one of them called "x".
func TestPlan(t *testing.T) {
	st := store.New()
	for i := range 100 {
		s := rdf.NewIRI(fmt.Sprint("http://ex/n", i))
		st.Add(rdf.Quad{Triple: rdf.T(s, rdf.RDFType, rdf.NewIRI("http://ex/T"))})
		if i%10 == 0 {
			st.Add(rdf.Quad{Triple: rdf.T(s, "http://ex/name", rdf.NewLiteral(fmt.Sprint("n", i), ""))})
		}
	}
	st.Add(rdf.Quad{Triple: rdf.T(rdf.NewIRI("http://ex/n0"), "http://ex/called", rdf.NewLiteral("x", ""))})
	typ := algebra.Node{Term: rdf.NewIRI(rdf.RDFType)}
	tests := []struct {
		name string
		bgp  []algebra.TriplePattern
		want []int
	}{
		{"fewest matches first, then connected", []algebra.TriplePattern{
			{S: v("s"), P: typ, O: c("T")},
			{S: v("s"), P: c("name"), O: v("n")},
			{S: v("s"), P: c("called"), O: algebra.Node{Term: rdf.NewLiteral("x", "")}},
		}, []int{2, 1, 0}},
		{"a connected pattern before a cheaper unconnected one", []algebra.TriplePattern{
			{S: v("s"), P: c("called"), O: v("o")},
			{S: v("a"), P: c("name"), O: v("b")},
			{S: v("s"), P: typ, O: c("T")},
		}, []int{0, 2, 1}},
		{"a pattern that matches nothing: no order at all", []algebra.TriplePattern{
			{S: v("s"), P: typ, O: c("T")},
			{S: v("s"), P: c("called"), O: c("T")}, // both terms in the store, never together
		}, []int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.Snapshot()
			e := newEvaluator(context.Background(), snap, Options{})
			b := algebra.BGP{Patterns: tc.bgp}
			e.collectVars(b)
			e.buildDataset(nil, nil, "")
			pats := make([]tpat, len(b.Patterns))
			for i, tp := range b.Patterns {
				pats[i], _ = e.resolve(tp)
			}
			got := e.plan(b, pats, e.ds.dflt, e.newRow())
			if !slices.Equal(got, tc.want) {
				t.Errorf("order %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCertain(t *testing.T) {
	bgp := algebra.BGP{Patterns: []algebra.TriplePattern{{S: v("s"), P: c("p"), O: v("o")}}}
	other := algebra.BGP{Patterns: []algebra.TriplePattern{{S: v("s"), P: c("q"), O: v("x")}}}
	tests := []struct {
		name string
		op   algebra.Op
		want []string
	}{
		{"BGP", bgp, []string{"o", "s"}},
		{"OPTIONAL keeps the left's", algebra.LeftJoin{Left: bgp, Right: other}, []string{"o", "s"}},
		{"UNION keeps the shared", algebra.Union{Left: bgp, Right: other}, []string{"s"}},
		{"JOIN adds up", algebra.Join{Left: bgp, Right: other}, []string{"o", "s", "x"}},
		{"projection", algebra.Project{Sub: bgp, Vars: []string{"o", "z"}}, []string{"o"}},
		{"VALUES with UNDEF", algebra.Table{Vars: []string{"a", "b"}, Rows: [][]rdf.Term{{rdf.NewIRI("x"), {}}, {rdf.NewIRI("y"), rdf.NewIRI("z")}}}, []string{"a"}},
		{"BIND may fail", algebra.Extend{Sub: bgp, Var: "z", Expr: algebra.Const{}}, []string{"o", "s"}},
	}
	for _, tc := range tests {
		var got []string
		for k := range certain(tc.op) {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
