package algebra_test

import (
	"reflect"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

func v(name string) algebra.Node { return algebra.Node{Var: name} }

func iri(s string) algebra.Node { return algebra.Node{Term: rdf.NewIRI(s)} }

func bgp(tps ...algebra.TriplePattern) algebra.BGP { return algebra.BGP{Patterns: tps} }

func tp(s, p, o algebra.Node) algebra.TriplePattern { return algebra.TriplePattern{S: s, P: p, O: o} }

// TestInScope checks the in-scope variables of each operator against the
// table of section 18.2.1.
func TestInScope(t *testing.T) {
	abc := bgp(tp(v("a"), v("b"), v("c")))
	tests := []struct {
		name string
		op   algebra.Op
		want []string
	}{
		{"BGP, in order, once, hidden left out", bgp(tp(v("b"), v(".b1"), v("a")), tp(v("a"), iri("http://p"), v("._x"))), []string{"b", "a"}},
		{"path: subject and object", algebra.PathPattern{S: v("s"), Path: algebra.PathIRI{IRI: "http://p"}, O: v("o")}, []string{"s", "o"}},
		{"join, union, optional: both sides", algebra.Union{Left: algebra.Join{Left: abc, Right: bgp(tp(v("d"), v("a"), v("e")))}, Right: algebra.LeftJoin{Left: bgp(tp(v("f"), v("a"), v("a"))), Right: bgp(tp(v("g"), v("a"), v("a")))}},
			[]string{"a", "b", "c", "d", "e", "f", "g"}},
		{"MINUS: the left side only", algebra.Minus{Left: abc, Right: bgp(tp(v("d"), v("a"), v("a")))}, []string{"a", "b", "c"}},
		{"FILTER adds nothing", algebra.Filter{Exprs: []algebra.Expr{algebra.VarExpr{Name: "z"}}, Sub: abc}, []string{"a", "b", "c"}},
		{"GRAPH ?g", algebra.Graph{Name: v("g"), Sub: abc}, []string{"g", "a", "b", "c"}},
		{"GRAPH <g>", algebra.Graph{Name: iri("http://g"), Sub: abc}, []string{"a", "b", "c"}},
		{"BIND", algebra.Extend{Sub: abc, Var: "x", Expr: algebra.Const{Term: rdf.NewLiteral("1", rdf.XSDInteger)}}, []string{"a", "b", "c", "x"}},
		{"VALUES", algebra.Table{Vars: []string{"x", "y"}}, []string{"x", "y"}},
		{"unit table", algebra.Table{Rows: [][]rdf.Term{{}}}, nil},
		{"subquery: its projection", algebra.Slice{Sub: algebra.Project{Sub: abc, Vars: []string{"c", "z"}}, Limit: -1}, []string{"c", "z"}},
		{"group: the keys named", algebra.Group{Sub: abc, By: []algebra.GroupKey{{Expr: algebra.VarExpr{Name: "a"}, Var: "a"}, {Expr: algebra.VarExpr{Name: "b"}}}, Aggs: []algebra.Aggregate{{Var: ".agg1", Name: "COUNT"}}}, []string{"a"}},
		{"distinct, reduced, order", algebra.Distinct{Sub: algebra.Reduced{Sub: algebra.OrderBy{Sub: abc}}}, []string{"a", "b", "c"}},
		{"SERVICE: its pattern", algebra.Service{Endpoint: v("e"), Sub: abc}, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		if got := algebra.InScope(tt.op); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: InScope = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestHidden(t *testing.T) {
	for name, want := range map[string]bool{".b1": true, "._x": true, ".agg2": true, "x": false, "_x": false, "": false} {
		if got := algebra.Hidden(name); got != want {
			t.Errorf("Hidden(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestFormatTerm(t *testing.T) {
	xsd := "http://www.w3.org/2001/XMLSchema#"
	tests := []struct {
		term rdf.Term
		want string
	}{
		{rdf.Term{}, "UNDEF"},
		{rdf.NewIRI("http://x"), "<http://x>"},
		{rdf.NewBlank("b"), "_:b"},
		{rdf.NewLiteral("a\"b", ""), `"a\"b"`},
		{rdf.NewLangLiteral("chat", "fr"), `"chat"@fr`},
		{rdf.NewLiteral("-01", xsd+"integer"), "-01"},
		{rdf.NewLiteral("1.5", xsd+"integer"), `"1.5"^^<` + xsd + `integer>`},
		{rdf.NewLiteral("+.5", xsd+"decimal"), "+.5"},
		{rdf.NewLiteral("5", xsd+"decimal"), `"5"^^<` + xsd + `decimal>`},
		{rdf.NewLiteral("1.+5", xsd+"decimal"), `"1.+5"^^<` + xsd + `decimal>`},
		{rdf.NewLiteral("1e3", xsd+"double"), "1e3"},
		{rdf.NewLiteral("1.0", xsd+"double"), `"1.0"^^<` + xsd + `double>`},
		{rdf.NewLiteral("true", xsd+"boolean"), "true"},
		{rdf.NewLiteral("1", xsd+"boolean"), `"1"^^<` + xsd + `boolean>`},
	}
	for _, tt := range tests {
		if got := algebra.FormatTerm(tt.term); got != tt.want {
			t.Errorf("FormatTerm(%#v) = %s, want %s", tt.term, got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	one := algebra.Const{Term: rdf.NewLiteral("1", rdf.XSDInteger)}
	abc := bgp(tp(v("a"), iri("http://p"), v("c")))
	tests := []struct {
		op   algebra.Op
		want string
	}{
		{algebra.LeftJoin{Left: abc, Right: abc}, "(leftjoin (bgp (triple ?a <http://p> ?c)) (bgp (triple ?a <http://p> ?c)))"},
		{algebra.LeftJoin{Left: abc, Right: abc, Expr: algebra.Call{Name: "=", Args: []algebra.Expr{algebra.VarExpr{Name: "a"}, one}}},
			"(leftjoin (bgp (triple ?a <http://p> ?c)) (bgp (triple ?a <http://p> ?c)) (= ?a 1))"},
		{algebra.PathPattern{S: v("s"), Path: algebra.PathSeq{Left: algebra.PathInverse{P: algebra.PathIRI{IRI: "http://p"}}, Right: algebra.PathAlt{Left: algebra.PathZeroOrOne{P: algebra.PathIRI{IRI: "http://q"}}, Right: algebra.PathNegated{Forward: []string{"http://r"}, Inverse: []string{"http://s"}}}}, O: v("o")},
			"(path ?s (seq (inv <http://p>) (alt (path? <http://q>) (notoneof <http://r> ^<http://s>))) ?o)"},
		{algebra.Group{Sub: abc, By: []algebra.GroupKey{{Expr: algebra.VarExpr{Name: "a"}, Var: "a"}, {Expr: algebra.Call{Name: "STR", Args: []algebra.Expr{algebra.VarExpr{Name: "c"}}}, Var: "k"}, {Expr: one}},
			Aggs: []algebra.Aggregate{{Var: ".agg1", Name: "COUNT"}, {Var: ".agg2", Name: "GROUP_CONCAT", Distinct: true, Args: []algebra.Expr{algebra.VarExpr{Name: "c"}}, Separator: ";"}}},
			`(group (?a (?k (STR ?c)) 1) ((?.agg1 (count *)) (?.agg2 (group_concat distinct ?c (separator ";")))) (bgp (triple ?a <http://p> ?c)))`},
		{algebra.Filter{Exprs: []algebra.Expr{algebra.Exists{Not: true, Op: abc}, algebra.Call{Name: "http://f", Args: []algebra.Expr{one}}}, Sub: algebra.Table{Vars: []string{"x"}, Rows: [][]rdf.Term{{{}}}}},
			"(filter ((notexists (bgp (triple ?a <http://p> ?c))) (<http://f> 1)) (table (vars ?x) (row UNDEF)))"},
	}
	for _, tt := range tests {
		if got := algebra.Format(tt.op); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
