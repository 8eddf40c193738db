package expr_test

import (
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
)

// TestEqualKey: any two terms of a pool that "=" finds equal have the same
// key, whatever their datatypes and lexical forms; and terms that differ
// in value get different keys where the key is meant to tell them apart
// (numbers, strings, IRIs, blank nodes, tagged strings).
func TestEqualKey(t *testing.T) {
	xsd := func(lex, dt string) rdf.Term { return rdf.NewLiteral(lex, rdf.XSDNS+dt) }
	pool := []rdf.Term{
		xsd("1", "integer"), xsd("01", "integer"), xsd("+1", "integer"), xsd("1", "int"), xsd("1", "unsignedByte"),
		xsd("1.0", "decimal"), xsd("1", "decimal"), xsd("1e0", "double"), xsd("1.0E0", "float"), xsd("2", "integer"),
		xsd("0", "integer"), xsd("-0", "integer"), xsd("-0.0e0", "double"), xsd("0.0", "decimal"), xsd("0", "float"),
		xsd("0.1", "decimal"), xsd("0.1", "double"), xsd("0.1", "float"), xsd("0.100000001490116119384765625", "decimal"),
		xsd("16777217", "integer"), xsd("16777216", "float"), xsd("9007199254740993", "integer"), xsd("9007199254740992", "double"),
		xsd("NaN", "double"), xsd("INF", "double"), xsd("INF", "float"), xsd("-INF", "double"),
		rdf.NewLiteral("a", ""), xsd("a", "string"), rdf.NewLiteral("b", rdf.XSDString), rdf.NewLangLiteral("a", "en"), rdf.NewLangLiteral("a", "EN"),
		xsd("true", "boolean"), xsd("1", "boolean"), xsd("false", "boolean"), xsd("0", "boolean"), xsd("yes", "boolean"),
		xsd("2024-01-01T00:00:00Z", "dateTime"), xsd("2024-01-01T01:00:00+01:00", "dateTime"), xsd("2024-01-01", "date"),
		xsd("x", "integer"), rdf.NewLiteral("1", "http://example.org/type"), rdf.NewLiteral("01", "http://example.org/type"),
		rdf.NewIRI("http://example.org/a"), rdf.NewIRI("http://example.org/b"), rdf.NewBlank("a"), rdf.NewBlank("b"),
	}
	equalPairs := 0
	for _, a := range pool {
		for _, b := range pool {
			eq, err := expr.Compare("=", a, b)
			if err != nil || eq.Value != "true" {
				continue
			}
			equalPairs++
			if ka, kb := expr.EqualKey(a), expr.EqualKey(b); ka != kb {
				t.Errorf("%v = %v, but their keys differ: %q, %q", a, b, ka, kb)
			}
		}
	}
	if equalPairs < 2*len(pool) {
		t.Errorf("only %d equal pairs in the pool: the check is too weak", equalPairs)
	}
	for _, pair := range [][2]rdf.Term{
		{xsd("1", "integer"), xsd("2", "integer")},
		{xsd("1", "double"), xsd("1.5", "decimal")},
		{rdf.NewLiteral("a", ""), rdf.NewLiteral("b", "")},
		{rdf.NewLiteral("a", ""), rdf.NewLangLiteral("a", "en")},
		{rdf.NewIRI("http://example.org/a"), rdf.NewIRI("http://example.org/b")},
		{rdf.NewIRI("http://example.org/a"), rdf.NewLiteral("http://example.org/a", "")},
		{rdf.NewBlank("a"), rdf.NewIRI("a")},
	} {
		if expr.EqualKey(pair[0]) == expr.EqualKey(pair[1]) {
			t.Errorf("%v and %v share a key", pair[0], pair[1])
		}
	}
}
