package expr

import (
	"errors"
	"math/rand"
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

// FuzzCall calls every function and operator on literals of any lexical
// form and of the datatypes the package reads: none may panic, and every
// error must be a type error.
func FuzzCall(f *testing.F) {
	f.Add("2011-01-10T14:45:13.815-05:00", uint8(3), "-1.5e3", uint8(1), "en")
	f.Add("24:00:00", uint8(7), "abc", uint8(0), "")
	f.Add("(a)|b", uint8(0), "$1\\$", uint8(0), "i")
	datatypes := []string{rdf.XSDString, rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDateTime, rdf.XSDDouble,
		xsdFloat, rdf.XSDBoolean, xsdDate, xsdTime, rdf.XSDNS + "byte", rdf.RDFLangString, "http://example/t"}
	var names []string
	for name := range builtins {
		names = append(names, name)
	}
	for name := range castTargets {
		names = append(names, name)
	}
	slices.Sort(names)
	env := &Env{Rand: rand.New(rand.NewSource(1)), NewBNode: func() rdf.Term { return rdf.NewBlank("b") }}
	f.Fuzz(func(t *testing.T, lex1 string, dt1 uint8, lex2 string, dt2 uint8, lang string) {
		lit := func(lex string, dt uint8) rdf.Term {
			d := datatypes[int(dt)%len(datatypes)]
			if d == rdf.RDFLangString {
				return rdf.NewLangLiteral(lex, lang)
			}
			return rdf.NewLiteral(lex, d)
		}
		a, b := lit(lex1, dt1), lit(lex2, dt2)
		checkErr := func(what string, err error) {
			if err != nil && !errors.Is(err, ErrType) {
				t.Fatalf("%s: %v is not a type error", what, err)
			}
		}
		for _, name := range names {
			for _, args := range [][]rdf.Term{{a}, {a, b}, {a, b, b}, {b, a, a, a}} {
				_, err := Call(name, args, env)
				checkErr(name, err)
			}
		}
		for _, op := range []string{"=", "!=", "<", ">", "<=", ">="} {
			_, err := Compare(op, a, b)
			checkErr(op, err)
		}
		for _, op := range []string{"+", "-", "*", "/"} {
			_, err := Arith(op, a, b)
			checkErr(op, err)
		}
		for _, op := range []string{"UMINUS", "UPLUS", "!"} {
			_, err := Unary(op, a)
			checkErr(op, err)
		}
		if Order(a, b) != -Order(b, a) {
			t.Fatalf("Order(%v, %v) is not antisymmetric", a, b)
		}
	})
}
