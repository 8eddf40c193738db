package eval

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

// TestEquiJoin: a filter that asks two variables bound on the two sides
// of a join to be equal gives the pairs "=" finds equal (ids of one value
// in other lexical forms and types among them), and the work grows with
// the solutions, not with the product of the sides: the query of
// reused-ids.rq's shape, which matched every pair of requests.
func TestEquiJoin(t *testing.T) {
	const n = 2000
	st := store.New()
	integer := func(s string) rdf.Term { return rdf.NewLiteral(s, rdf.XSDInteger) }
	for i := range n {
		var id rdf.Term
		switch {
		case i == 1:
			id = integer("014") // = 14
		case i == 2:
			id = rdf.NewLiteral("14.0", rdf.XSDDecimal) // = 14
		case i == 3:
			id = rdf.NewLiteral("7", "") // a string: = request 15's, not 14
		case i%2 == 0:
			id = integer(fmt.Sprint(i))
		default:
			id = rdf.NewLiteral(fmt.Sprint(i/2), "") // "k" for odd 2k+1
		}
		st.Add(rdf.Quad{Triple: rdf.T(rdf.NewIRI(fmt.Sprint("http://ex/r", i)), "http://ex/id", id)})
	}
	q, err := syntax.ParseQuery(`PREFIX : <http://ex/>
SELECT ?a ?b WHERE {
  ?a :id ?x .
  ?b :id ?y .
  FILTER(?a != ?b && ?x = ?y)
}`, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Query(context.Background(), st.Snapshot(), q, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	if err := res.Each(func(r []rdf.Term) bool {
		got[r[0].Value+" "+r[1].Value] = true
		return true
	}); err != nil {
		t.Fatal(err)
	}
	// Request 14's id is 14, as are those of 1 and 2 in other forms; odd
	// requests hold distinct strings ("k" for 2k+1), but request 3's "7"
	// is request 15's too.
	want := map[string]bool{}
	for _, p := range [][2]int{{14, 1}, {14, 2}, {1, 2}, {3, 15}} {
		a, b := fmt.Sprint("http://ex/r", p[0]), fmt.Sprint("http://ex/r", p[1])
		want[a+" "+b], want[b+" "+a] = true, true
	}
	if !maps.Equal(got, want) {
		t.Errorf("pairs %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	if ticks := res.e.ticks; ticks > 10*n {
		t.Errorf("%d steps for %d requests: the pairs were matched one by one", ticks, n)
	}
}
