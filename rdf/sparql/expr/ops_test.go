package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

// tm reads a term written as Turtle writes an object (1, 1.5, 1e0, true,
// "a"@en, "x"^^xsd:date, <http://example/a>, ex:a, _:b), so that the
// tables below read like the specification's examples; "" is the zero
// Term (unbound).
func tm(t testing.TB, s string) rdf.Term {
	t.Helper()
	if s == "" {
		return rdf.Term{}
	}
	doc := "@prefix xsd: <" + rdf.XSDNS + "> . @prefix rdf: <" + rdf.RDFNS + "> . @prefix ex: <http://example/> .\n<http://example/s> <http://example/p> " + s + " ."
	quads, _, err := rdf.Parse([]byte(doc), rdf.Turtle, "")
	if err != nil || len(quads) != 1 {
		t.Fatalf("bad test term %s: %v", s, err)
	}
	return quads[0].O
}

func tms(t testing.TB, ss []string) []rdf.Term {
	out := make([]rdf.Term, len(ss))
	for i, s := range ss {
		out[i] = tm(t, s)
	}
	return out
}

// errWant marks an expected type error in the tables.
const errWant = "error"

// check compares a result with want (a term as tm reads it, or errWant),
// term for term: lexical forms count.
func check(t *testing.T, what string, got rdf.Term, err error, want string) {
	t.Helper()
	if want == errWant {
		if err == nil {
			t.Errorf("%s = %v, want a type error", what, got)
		} else if !errors.Is(err, ErrType) {
			t.Errorf("%s: error %v does not match ErrType", what, err)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: %v, want %s", what, err, want)
		return
	}
	if w := tm(t, want); got != w {
		t.Errorf("%s = %v, want %v", what, got, w)
	}
}

func TestEBV(t *testing.T) {
	// Section 17.2.2's rules, case by case.
	for _, c := range []struct {
		term string
		want string // "true", "false" or errWant
	}{
		{`true`, "true"},
		{`false`, "false"},
		{`"1"^^xsd:boolean`, "true"},
		{`"0"^^xsd:boolean`, "false"},
		{`"yes"^^xsd:boolean`, "false"}, // ill-formed boolean
		{`1`, "true"},
		{`0`, "false"},
		{`-0.0`, "false"},
		{`0.01e0`, "true"},
		{`0.0e0`, "false"},
		{`"NaN"^^xsd:double`, "false"},
		{`"INF"^^xsd:float`, "true"},
		{`"abc"^^xsd:integer`, "false"}, // ill-formed number
		{`"300"^^xsd:byte`, "false"},    // out of xsd:byte's range
		{`"7"^^xsd:unsignedShort`, "true"},
		{`"foo"`, "true"},
		{`""`, "false"},
		{`"chat"@en`, "true"},
		{`""^^xsd:string`, "false"},
		{`"2011-01-10T14:45:13Z"^^xsd:dateTime`, errWant},
		{`"x"^^ex:unknown`, errWant},
		{`ex:a`, errWant},
		{`_:b`, errWant},
		{``, errWant},
	} {
		got, err := EBV(tm(t, c.term))
		switch {
		case c.want == errWant:
			if !errors.Is(err, ErrType) {
				t.Errorf("EBV(%s) = %v, %v; want a type error", c.term, got, err)
			}
		case err != nil || (c.want == "true") != got:
			t.Errorf("EBV(%s) = %v, %v; want %s", c.term, got, err, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		a, op, b string
		want     string
	}{
		// Numbers by value across types (XPath op:numeric-equal and
		// op:numeric-less-than after promotion).
		{`1`, "=", `1.0`, `true`},
		{`1`, "=", `1e0`, `true`},
		{`"01"^^xsd:integer`, "=", `1`, `true`},
		{`"1"^^xsd:byte`, "=", `1`, `true`},
		{`1`, "!=", `2`, `true`},
		{`1`, "<", `1.5`, `true`},
		{`2`, ">=", `2.0e0`, `true`},
		{`-1`, ">", `1`, `false`},
		{`"NaN"^^xsd:double`, "=", `"NaN"^^xsd:double`, `false`},
		{`"NaN"^^xsd:double`, "!=", `"NaN"^^xsd:double`, `true`},
		{`"NaN"^^xsd:double`, "<", `1`, `false`},
		{`"INF"^^xsd:double`, ">", `1e300`, `true`},
		// Strings (xsd:string only) by code point.
		{`"a"`, "<", `"b"`, `true`},
		{`"a"`, "=", `"a"^^xsd:string`, `true`},
		{`"B"`, "<", `"a"`, `true`},
		{`"a"`, "<=", `"a"`, `true`},
		{`"a"@en`, "<", `"b"@en`, errWant},
		// Booleans: false < true.
		{`false`, "<", `true`, `true`},
		{`"1"^^xsd:boolean`, "=", `true`, `true`},
		// Date-times (XPath op:dateTime-equal's example) and XML
		// Schema's partial order.
		{`"2002-04-02T12:00:00-01:00"^^xsd:dateTime`, "=", `"2002-04-02T17:00:00+04:00"^^xsd:dateTime`, `true`},
		{`"2002-04-02T12:00:00Z"^^xsd:dateTime`, "<", `"2002-04-02T12:00:01Z"^^xsd:dateTime`, `true`},
		{`"2002-04-02T12:00:00"^^xsd:dateTime`, "<", `"2002-04-02T12:00:00Z"^^xsd:dateTime`, errWant},
		{`"2002-04-01T00:00:00"^^xsd:dateTime`, "<", `"2002-04-02T12:00:00Z"^^xsd:dateTime`, `true`},
		{`"2004-12-25"^^xsd:date`, "<", `"2004-12-26"^^xsd:date`, `true`},
		{`"2004-12-25"^^xsd:date`, "=", `"2004-12-25T00:00:00"^^xsd:dateTime`, `false`},
		{`"2006-08-23T09:00:00+01:00"^^xsd:dateTime`, "!=", `"2006-08-23"^^xsd:date`, `true`}, // open-world/date-2
		{`"2006-08-23Z"^^xsd:date`, "!=", `"2006-08-23"^^xsd:date`, errWant},                  // open-world/date-2
		// RDF term equality: the same term is equal, IRIs and blank nodes
		// differ from everything else, language tags differ but for case.
		{`ex:a`, "=", `ex:a`, `true`},
		{`ex:a`, "!=", `ex:b`, `true`},
		{`ex:a`, "=", `"http://example/a"`, `false`},
		{`_:x`, "=", `_:x`, `true`},
		{`_:x`, "=", `ex:a`, `false`},
		{`"xyz"@en`, "=", `"xyz"@EN`, `true`},
		{`"xyz"@en`, "=", `"xyz"`, `false`},
		{`"xyz"@en`, "!=", `"xyz"@fr`, `true`},
		{`"xyz"@en`, "=", `"xyz"^^ex:unknown`, `false`},
		// Literals whose values cannot be told apart are type errors
		// (the open-world tests of the SPARQL 1.0 suite).
		{`"xyz"^^xsd:integer`, "=", `"xyz"^^xsd:integer`, `true`},
		{`"xyz"^^xsd:integer`, "=", `"xyz"`, errWant},
		{`"xyz"^^xsd:integer`, "!=", `"xyz"^^ex:unknown`, errWant},
		{`"xyz"^^ex:unknown`, "=", `"xyz"^^ex:unknown`, `true`},
		{`"xyz"^^ex:unknown`, "=", `"abc"^^ex:unknown`, errWant},
		{`"xyz"`, "!=", `"xyz"^^ex:unknown`, errWant},
		{`"2006-08-23"^^xsd:date`, "=", `"2006-08-23"^^ex:unknown`, errWant},
		{`"2006-08-32"^^xsd:date`, "=", `"2006-08-23"^^xsd:date`, errWant},
		// Well-formed values of different known types differ.
		{`"1"`, "=", `1`, `false`},
		{`true`, "!=", `1`, `true`},
		// The ordering operators need comparable values.
		{`ex:a`, "<", `ex:b`, errWant},
		{`1`, "<", `"2"`, errWant},
		{`"x"^^ex:unknown`, "<=", `"x"^^ex:unknown`, errWant},
		{``, "=", `1`, errWant},
		{`1`, "<>", `1`, errWant},
	} {
		got, err := Compare(c.op, tm(t, c.a), tm(t, c.b))
		check(t, c.a+" "+c.op+" "+c.b, got, err, c.want)
	}
}

func TestSameTerm(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`1`, `1`, true},
		{`1`, `1.0`, false},
		{`1`, `"01"^^xsd:integer`, false},
		{`"a"`, `"a"^^xsd:string`, true},
		{`"a"@en`, `"a"@EN`, true},
		{`"a"@en`, `"a"`, false},
		{`ex:a`, `ex:a`, true},
		{`_:a`, `_:b`, false},
	} {
		if got := SameTerm(tm(t, c.a), tm(t, c.b)); got != c.want {
			t.Errorf("SameTerm(%s, %s) = %v", c.a, c.b, got)
		}
	}
	if !SameTerm(rdf.Term{Kind: rdf.Literal, Value: "a"}, rdf.NewLiteral("a", "")) {
		t.Error("a literal without datatype is not an xsd:string")
	}
}

func TestArith(t *testing.T) {
	for _, c := range []struct {
		a, op, b string
		want     string
	}{
		{`1`, "+", `2`, `3`},
		{`"01"^^xsd:integer`, "+", `"1"^^xsd:int`, `2`}, // derived types give xsd:integer
		{`5`, "-", `7`, `-2`},
		{`6`, "*", `7`, `42`},
		{`1`, "/", `2`, `0.5`}, // integer division gives a decimal
		{`6`, "/", `3`, `2.0`},
		{`1`, "/", `3`, `0.333333333333333333333333`},
		{`1.5`, "*", `2`, `3.0`},
		{`0.1`, "+", `0.2`, `0.3`}, // decimals are exact
		{`1`, "+", `1e0`, `"2.0E0"^^xsd:double`},
		{`1.5`, "+", `"1"^^xsd:float`, `"2.5E0"^^xsd:float`},
		{`"1"^^xsd:float`, "+", `1e0`, `"2.0E0"^^xsd:double`},
		{`1e0`, "/", `0`, `"INF"^^xsd:double`},
		{`-1e0`, "/", `0.0e0`, `"-INF"^^xsd:double`},
		{`0e0`, "/", `0e0`, `"NaN"^^xsd:double`},
		{`15e0`, "*", `1`, `"1.5E1"^^xsd:double`},
		{`1`, "/", `0`, errWant},
		{`1.0`, "/", `0.0`, errWant},
		{`1`, "+", `"1"`, errWant},
		{`1`, "+", `"x"^^xsd:integer`, errWant},
		{`1`, "+", `ex:a`, errWant},
		{`1`, "%", `1`, errWant},
	} {
		got, err := Arith(c.op, tm(t, c.a), tm(t, c.b))
		check(t, c.a+" "+c.op+" "+c.b, got, err, c.want)
	}
}

func TestUnary(t *testing.T) {
	for _, c := range []struct {
		op, a string
		want  string
	}{
		{"UMINUS", `1`, `-1`},
		{"UMINUS", `"01"^^xsd:short`, `-1`},
		{"UMINUS", `-2.50`, `2.5`},
		{"UPLUS", `"+1.50"^^xsd:decimal`, `1.5`},
		{"UMINUS", `1e0`, `"-1.0E0"^^xsd:double`},
		{"UMINUS", `"1"`, errWant},
		{"!", `true`, `false`},
		{"!", `""`, `true`},
		{"!", `0`, `true`},
		{"!", `ex:a`, errWant},
		{"NEG", `1`, errWant},
	} {
		got, err := Unary(c.op, tm(t, c.a))
		check(t, c.op+" "+c.a, got, err, c.want)
	}
}

func TestOrder(t *testing.T) {
	// Each list is in ascending order: every earlier term must sort
	// before every later one, and each term equal to itself.
	sorted := []string{
		``, // unbound
		`_:a`, `_:b`,
		`<http://example/a>`, `<http://example/b>`,
		`"NaN"^^xsd:double`, `"-INF"^^xsd:double`, `-2`, `1`, `1.0`, `1e0`, `"1.5"^^xsd:float`, `2`, `"10"^^xsd:byte`, `"INF"^^xsd:float`,
		`""`, `"B"`, `"a"`, `"a"@en`, `"a"@fr`, `"b"@en`,
		`false`, `"1"^^xsd:boolean`, `true`,
		`"2002-04-02T12:00:00Z"^^xsd:dateTime`, `"2002-04-02T12:00:00.5"^^xsd:dateTime`, `"2002-04-02T12:00:01-01:00"^^xsd:dateTime`,
		`"2004-12-25"^^xsd:date`,
		`"12:00:00"^^xsd:time`,
		`"abc"^^xsd:integer`, `"b"^^ex:t`, `"c"^^ex:s`,
	}
	terms := tms(t, sorted)
	for i := range terms {
		for j := range terms {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := Order(terms[i], terms[j]); got != want {
				t.Errorf("Order(%s, %s) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
	if Order(tm(t, `"a"@en`), tm(t, `"a"@EN`)) != 0 {
		t.Error("Order tells language tags apart by case")
	}
}

func TestTypeErrorMessage(t *testing.T) {
	_, err := Arith("+", tm(t, `1`), tm(t, `ex:a`))
	var te *TypeError
	if !errors.As(err, &te) || te.Op != "+" || !strings.Contains(err.Error(), "not a number: an IRI") {
		t.Errorf("error %v does not say what was wrong", err)
	}
}
