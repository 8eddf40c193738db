package expr

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// castTargets are the datatypes Call casts to (section 17.5, with the
// types derived from xsd:integer, which XPath casts to as to xsd:integer
// with a range check).
var castTargets = func() map[string]bool {
	m := map[string]bool{
		rdf.XSDString: true, rdf.XSDBoolean: true, rdf.XSDDecimal: true,
		xsdFloat: true, rdf.XSDDouble: true, rdf.XSDDateTime: true,
	}
	for dt := range integerTypes {
		m[dt] = true
	}
	return m
}()

// cast converts a to the datatype target following XPath's casting rules
// as section 17.5's table restricts them: an IRI casts to xsd:string only,
// a blank node or a language-tagged literal to nothing; a simple literal's
// lexical form (spaces trimmed) must be in the target's lexical space;
// numbers, booleans and date-times convert by value; other literals cast
// to xsd:string only. Results are in canonical form, but for xsd:string
// and xsd:dateTime, which keep the lexical form.
func cast(target string, a rdf.Term) (rdf.Term, error) {
	op := "<" + target + ">"
	fail := func(why string) (rdf.Term, error) {
		return rdf.Term{}, typeErr(op, "cannot cast "+a.String()+": "+why)
	}
	switch {
	case a.Kind == rdf.Blank:
		return fail("a blank node casts to nothing")
	case a.Kind == rdf.IRI:
		if target == rdf.XSDString {
			return simple(a.Value), nil
		}
		return fail("an IRI casts to xsd:string only")
	case a.Datatype == rdf.RDFLangString:
		return fail("a literal with a language tag casts to nothing")
	case a.Datatype == rdf.XSDString:
		return castString(target, a.Value, fail)
	}
	c := classOf(a.Datatype)
	if c != classNone && !xsd.WellFormed(a) {
		return fail("ill-formed")
	}
	switch c {
	case classNumber:
		n, _ := numberOf(a)
		return castNumber(target, n, fail)
	case classBoolean:
		b := a.Value == "true" || a.Value == "1"
		if target == rdf.XSDString || target == rdf.XSDBoolean {
			return rdf.NewLiteral(strconv.FormatBool(b), target), nil
		}
		if target == rdf.XSDDateTime {
			return fail("a boolean is no date-time")
		}
		return castNumber(target, intNumber(int64(btoi(b))), fail)
	case classDateTime:
		if target == rdf.XSDString || target == rdf.XSDDateTime {
			return rdf.NewLiteral(a.Value, target), nil
		}
		return fail("a date-time casts to xsd:string and xsd:dateTime only")
	}
	if target == rdf.XSDString {
		return simple(a.Value), nil
	}
	return fail("a literal of datatype <" + a.Datatype + "> casts to xsd:string only")
}

type castFail func(why string) (rdf.Term, error)

// castString casts a simple literal's lexical form s.
func castString(target, s string, fail castFail) (rdf.Term, error) {
	if target == rdf.XSDString {
		return simple(s), nil
	}
	s = strings.Trim(s, " \t\r\n")
	lit := rdf.NewLiteral(s, target)
	if !xsd.WellFormed(lit) {
		return fail("not in the lexical space of <" + target + ">")
	}
	switch target {
	case rdf.XSDDateTime:
		return lit, nil
	case rdf.XSDBoolean:
		return Bool(s == "true" || s == "1"), nil
	}
	n, _ := numberOf(lit)
	if integerTypes[target] {
		return rdf.NewLiteral(n.r.Num().String(), target), nil
	}
	return n.term(), nil
}

// castNumber casts the number n.
func castNumber(target string, n number, fail castFail) (rdf.Term, error) {
	finite := n.kind < kFloat || !math.IsInf(n.f, 0) && !math.IsNaN(n.f)
	switch {
	case target == rdf.XSDString:
		return simple(numberString(n)), nil
	case target == rdf.XSDBoolean:
		if n.kind >= kFloat {
			return Bool(n.f != 0 && !math.IsNaN(n.f)), nil
		}
		return Bool(n.r.Sign() != 0), nil
	case target == rdf.XSDDateTime:
		return fail("a number is no date-time")
	case target == rdf.XSDDouble:
		return number{kind: kDouble, f: n.float()}.term(), nil
	case target == xsdFloat:
		return number{kind: kFloat, f: float64(float32(n.float()))}.term(), nil
	case !finite:
		return fail("not a finite number")
	}
	r := n.r
	if n.kind >= kFloat {
		// the decimal the float's shortest form writes, as XPath casts
		bits := 64
		if n.kind == kFloat {
			bits = 32
		}
		r, _ = new(big.Rat).SetString(strconv.FormatFloat(n.f, 'f', -1, bits))
	}
	if target == rdf.XSDDecimal {
		return number{kind: kDecimal, r: r}.term(), nil
	}
	i := new(big.Int).Quo(r.Num(), r.Denom()) // toward zero
	lit := rdf.NewLiteral(i.String(), target)
	if !xsd.WellFormed(lit) {
		return fail("out of the range of <" + target + ">")
	}
	return lit, nil
}
