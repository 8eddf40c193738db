package expr

import (
	"cmp"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// valueClass groups the literals whose values the operators compare with
// each other (the rows of the operator mapping, section 17.3).
type valueClass uint8

const (
	classNone valueClass = iota
	classNumber
	classString
	classBoolean
	classDateTime
	classDate
	classTime
)

// classOf returns the class of a literal of datatype dt; a literal of the
// class may still be ill-formed.
func classOf(dt string) valueClass {
	if _, ok := kindOf(dt); ok {
		return classNumber
	}
	switch dt {
	case rdf.XSDString:
		return classString
	case rdf.XSDBoolean:
		return classBoolean
	case rdf.XSDDateTime, xsdDateTimeStamp:
		return classDateTime
	case xsdDate:
		return classDate
	case xsdTime:
		return classTime
	}
	return classNone
}

// comparable returns the class a and b share when the operators compare
// them by value: both well-formed literals of one class.
func comparable(a, b Value) valueClass {
	if a.class == classNone || a.class != b.class || !a.wf || !b.wf {
		return classNone
	}
	return a.class
}

// Compare applies the comparison operator op ("=", "!=", "<", ">", "<=",
// ">=") to a and b and returns an xsd:boolean (section 17.3). Numbers,
// strings, booleans, xsd:dateTime, xsd:date and xsd:time values compare
// by value within their class (date-times with and without a time zone
// less than 14 hours apart are a type error, as XML Schema leaves them
// unordered; NaN equals nothing). For "=" and "!=" any other pair is
// compared as RDF terms: equal when they are the same term; unequal when
// either is not a literal or has a language tag, or when both are
// well-formed values of different classes among those above (an
// xsd:date is no xsd:dateTime, as the W3C test open-world/date-2 has it);
// otherwise (an ill-formed literal, a datatype the package does not know)
// a type error, since their values may or may not be equal. The ordering
// operators on any other pair are a type error.
func Compare(op string, a, b rdf.Term) (rdf.Term, error) {
	if unbound(a) || unbound(b) {
		return rdf.Term{}, typeErr(op, "an operand is unbound")
	}
	return compare(op, NewValue(a), NewValue(b))
}

func compare(op string, a, b Value) (rdf.Term, error) {
	if unbound(a.term) || unbound(b.term) {
		return rdf.Term{}, typeErr(op, "an operand is unbound")
	}
	switch op {
	case "=", "!=":
		eq, err := equal(op, a, b)
		if err != nil {
			return rdf.Term{}, err
		}
		return Bool(eq == (op == "=")), nil
	case "<", ">", "<=", ">=":
		c, ok, err := ordered(op, a, b)
		if err != nil {
			return rdf.Term{}, err
		}
		if !ok { // NaN
			return falseTerm, nil
		}
		switch op {
		case "<":
			return Bool(c < 0), nil
		case ">":
			return Bool(c > 0), nil
		case "<=":
			return Bool(c <= 0), nil
		}
		return Bool(c >= 0), nil
	}
	return rdf.Term{}, typeErr(op, "not a comparison operator")
}

// equal is "=" (op names the operator in errors).
func equal(op string, va, vb Value) (bool, error) {
	if va.isNum && vb.isNum {
		n, ok := compareNumbers(va.num, vb.num)
		return ok && n == 0, nil
	}
	if c := comparable(va, vb); c != classNone {
		n, ok, err := compareValues(op, c, va, vb)
		return ok && n == 0, err
	}
	a, b := va.term, vb.term
	if SameTerm(a, b) {
		return true, nil
	}
	if a.Kind != rdf.Literal || b.Kind != rdf.Literal || a.Lang != "" || b.Lang != "" {
		return false, nil
	}
	if va.wf && vb.wf {
		return false, nil // values of different known types
	}
	return false, typeErr(op, "cannot compare "+describe(a)+" with "+describe(b)+" (an ill-formed literal, or one of an unknown type)")
}

// ordered compares a and b for the ordering operators; ok is false when
// either is NaN.
func ordered(op string, a, b Value) (int, bool, error) {
	if a.isNum && b.isNum {
		n, ok := compareNumbers(a.num, b.num)
		return n, ok, nil
	}
	c := comparable(a, b)
	if c == classNone {
		return 0, false, typeErr(op, "cannot order "+describe(a.term)+" and "+describe(b.term))
	}
	return compareValues(op, c, a, b)
}

// compareValues compares two well-formed literals of class c; ok is false
// when either is NaN.
func compareValues(op string, c valueClass, a, b Value) (int, bool, error) {
	if c == classNumber {
		n, ok := compareNumbers(a.num, b.num)
		return n, ok, nil
	}
	n, ok := xsd.Compare(xsd.ValueOf(a.term), xsd.ValueOf(b.term))
	if !ok {
		return 0, false, typeErr(op, "the order of "+a.term.String()+" and "+b.term.String()+" is indeterminate (one has a time zone, the other none)")
	}
	return n, true, nil
}

// compareNumbers compares x and y after promoting both to the greater of
// their types; ok is false when either is NaN.
func compareNumbers(x, y number) (int, bool) {
	k := max(x.kind, y.kind)
	x, y = x.to(k), y.to(k)
	if k >= kFloat {
		if math.IsNaN(x.f) || math.IsNaN(y.f) {
			return 0, false
		}
		return cmp.Compare(x.f, y.f), true
	}
	if x.r.IsInt() && y.r.IsInt() {
		return x.r.Num().Cmp(y.r.Num()), true // Rat.Cmp would multiply
	}
	return x.r.Cmp(y.r), true
}

// Arith applies the arithmetic operator op ("+", "-", "*", "/") to two
// numbers (section 17.3: XPath's op:numeric-add and the others). Both are
// promoted to the greater of their types (integer < decimal < float <
// double, types derived from xsd:integer counting as xsd:integer), except
// that dividing two integers gives an xsd:decimal. Dividing an integer or
// decimal by zero is a type error; doubles and floats follow IEEE 754.
// Anything but two well-formed numbers is a type error.
func Arith(op string, a, b rdf.Term) (rdf.Term, error) {
	return arithValues(op, NewValue(a), NewValue(b))
}

func arithValues(op string, a, b Value) (rdf.Term, error) {
	switch {
	case op != "+" && op != "-" && op != "*" && op != "/":
		return rdf.Term{}, typeErr(op, "not an arithmetic operator")
	case !a.isNum:
		return rdf.Term{}, typeErr(op, "not a number: "+describe(a.term))
	case !b.isNum:
		return rdf.Term{}, typeErr(op, "not a number: "+describe(b.term))
	}
	n, err := arith(op, a.num, b.num)
	if err != nil {
		return rdf.Term{}, err
	}
	return n.term(), nil
}

func arith(op string, x, y number) (number, error) {
	k := max(x.kind, y.kind)
	if op == "/" && k == kInteger {
		k = kDecimal
	}
	x, y = x.to(k), y.to(k)
	if k >= kFloat {
		var f float64
		switch op {
		case "+":
			f = x.f + y.f
		case "-":
			f = x.f - y.f
		case "*":
			f = x.f * y.f
		default:
			f = x.f / y.f
		}
		if k == kFloat {
			f = float64(float32(f))
		}
		return number{kind: k, f: f}, nil
	}
	r := new(big.Rat)
	switch op {
	case "+":
		r.Add(x.r, y.r)
	case "-":
		r.Sub(x.r, y.r)
	case "*":
		r.Mul(x.r, y.r)
	default:
		if y.r.Sign() == 0 {
			return number{}, typeErr(op, "division by zero")
		}
		r.Quo(x.r, y.r)
	}
	return number{kind: k, r: r}, nil
}

// Unary applies "UMINUS" or "UPLUS" to a number, keeping its type
// (a type derived from xsd:integer gives xsd:integer), or "!" to any term
// with an effective boolean value.
func Unary(op string, a rdf.Term) (rdf.Term, error) {
	a = norm(a)
	switch op {
	case "!":
		v, err := EBV(a)
		if err != nil {
			return rdf.Term{}, typeErr("!", "no effective boolean value for "+describe(a))
		}
		return Bool(!v), nil
	case "UMINUS", "UPLUS":
		n, ok := numberOf(a)
		if !ok {
			return rdf.Term{}, typeErr(op, "not a number: "+describe(a))
		}
		if op == "UMINUS" {
			n = negate(n)
		}
		return n.term(), nil
	}
	return rdf.Term{}, typeErr(op, "not a unary operator")
}

func negate(n number) number {
	if n.kind >= kFloat {
		return number{kind: n.kind, f: -n.f}
	}
	return number{kind: n.kind, r: new(big.Rat).Neg(n.r)}
}

// Order returns -1, 0 or 1 as a sorts before, with or after b under ORDER
// BY (section 15.1), a total order: the zero Term (unbound) first, then
// blank nodes, IRIs and literals. Literals group into numbers, strings
// (plain and language-tagged), booleans, xsd:dateTime, xsd:date, xsd:time
// and the rest, in that order; within a group they sort by value as "<"
// does (numbers compared exactly, NaN first; date-times without a time
// zone as if in UTC where "<" leaves them unordered), and ties by lexical
// form, language tag and datatype. Order returns 0 only for the same term.
func Order(a, b rdf.Term) int { return order(NewValue(a), NewValue(b)) }

func order(va, vb Value) int {
	a, b := va.term, vb.term
	ra, rb := kindRank(a), kindRank(b)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	if a.Kind != rdf.Literal {
		return strings.Compare(a.Value, b.Value)
	}
	ga, gb := literalGroup(va), literalGroup(vb)
	if ga != gb {
		return cmp.Compare(ga, gb)
	}
	if c := groupCompare(ga, va, vb); c != 0 {
		return c
	}
	if c := strings.Compare(a.Value, b.Value); c != 0 {
		return c
	}
	if c := strings.Compare(strings.ToLower(a.Lang), strings.ToLower(b.Lang)); c != 0 {
		return c
	}
	return strings.Compare(a.Datatype, b.Datatype)
}

func kindRank(t rdf.Term) int {
	switch {
	case unbound(t):
		return 0
	case t.Kind == rdf.Blank:
		return 1
	case t.Kind == rdf.IRI:
		return 2
	}
	return 3
}

// literalGroup returns the group Order sorts literal t in: its class when
// it is well-formed (language-tagged strings going with strings), else
// after all classes.
func literalGroup(v Value) valueClass {
	if v.term.Datatype == rdf.RDFLangString {
		return classString
	}
	if v.class == classNone || !v.wf {
		return classTime + 1
	}
	return v.class
}

// groupCompare compares two literals of group g by value; 0 leaves the
// order to the tie-breaks.
func groupCompare(g valueClass, va, vb Value) int {
	a, b := va.term, vb.term
	switch g {
	case classNumber:
		return exactCompare(va.num, vb.num)
	case classString:
		return strings.Compare(a.Value, b.Value)
	case classBoolean, classDateTime, classDate, classTime:
		xa, xb := xsd.ValueOf(a), xsd.ValueOf(b)
		if c, ok := xsd.Compare(xa, xb); ok {
			return c
		}
		sa, fa, _, _ := xa.Instant()
		sb, fb, _, _ := xb.Instant()
		if c := cmp.Compare(sa, sb); c != 0 {
			return c
		}
		return compareFraction(fa, fb)
	}
	return 0
}

// compareFraction compares the digits of two fractions of a second.
func compareFraction(a, b string) int {
	n := max(len(a), len(b))
	return strings.Compare(a+strings.Repeat("0", n-len(a)), b+strings.Repeat("0", n-len(b)))
}

// exactCompare compares two numbers by their exact values, NaN below
// everything, so that the order is total (promotion, which rounds, is
// not transitive across float, double and decimal).
func exactCompare(x, y number) int {
	if x.kind >= kFloat && y.kind >= kFloat || x.kind < kFloat && y.kind < kFloat {
		if c, ok := compareNumbers(x, y); ok {
			return c
		}
	}
	xn, yn := x.kind >= kFloat && math.IsNaN(x.f), y.kind >= kFloat && math.IsNaN(y.f)
	switch {
	case xn || yn:
		return cmp.Compare(btoi(!xn), btoi(!yn))
	case x.kind >= kFloat && math.IsInf(x.f, 0):
		return int(math.Copysign(1, x.f))
	case y.kind >= kFloat && math.IsInf(y.f, 0):
		return -int(math.Copysign(1, y.f))
	}
	return exactRat(x).Cmp(exactRat(y))
}

func exactRat(n number) *big.Rat {
	if n.kind >= kFloat {
		return new(big.Rat).SetFloat64(n.f)
	}
	return n.r
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// EqualKey returns a key of t such that two terms "=" finds equal (see
// Compare) have the same key: terms whose keys differ are never equal.
// Terms with one key may still be unequal (the booleans share a key, and
// the dates of one class; numbers are keyed by their value as an
// xsd:float), so whoever groups terms by key compares them still. An
// evaluator hashes a join on it when a filter asks two variables to be
// equal.
func EqualKey(t rdf.Term) string {
	t = norm(t)
	if t.Kind == rdf.Literal && t.Lang == "" {
		if n, ok := numberOf(t); ok {
			// Compared as floats, any two numbers are compared at most at
			// float32's precision: equal numbers have one float32 value.
			f := float32(n.float())
			if f == 0 {
				f = 0 // -0 = 0
			}
			return "n" + strconv.FormatUint(uint64(math.Float32bits(f)), 36)
		}
		if c := classOf(t.Datatype); c != classNone && xsd.WellFormed(t) {
			if c == classString {
				return "s" + t.Value
			}
			return "c" + strconv.Itoa(int(c))
		}
	}
	return "t" + strconv.Itoa(int(t.Kind)) + t.Value + "\x00" + t.Datatype + "\x00" + strings.ToLower(t.Lang) // tags are case-insensitive
}
