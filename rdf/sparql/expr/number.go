package expr

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// The XML Schema datatypes the package names.
const (
	xsdFloat              = rdf.XSDNS + "float"
	xsdDate               = rdf.XSDNS + "date"
	xsdTime               = rdf.XSDNS + "time"
	xsdDateTimeStamp      = rdf.XSDNS + "dateTimeStamp"
	xsdDayTimeDuration    = rdf.XSDNS + "dayTimeDuration"
	decimalDivisionDigits = 24 // fraction digits kept by xsd:decimal division
)

// numKind orders the numeric types by XPath's type promotion: an
// operation on two numbers is done in the greater of their kinds.
type numKind uint8

const (
	kInteger numKind = iota
	kDecimal
	kFloat
	kDouble
)

// integerTypes are xsd:integer and the types derived from it.
var integerTypes = map[string]bool{
	rdf.XSDInteger: true, rdf.XSDNS + "long": true, rdf.XSDNS + "int": true,
	rdf.XSDNS + "short": true, rdf.XSDNS + "byte": true,
	rdf.XSDNS + "nonNegativeInteger": true, rdf.XSDNS + "positiveInteger": true,
	rdf.XSDNS + "nonPositiveInteger": true, rdf.XSDNS + "negativeInteger": true,
	rdf.XSDNS + "unsignedLong": true, rdf.XSDNS + "unsignedInt": true,
	rdf.XSDNS + "unsignedShort": true, rdf.XSDNS + "unsignedByte": true,
}

// number is a numeric literal's value: r for the kinds integer and
// decimal, f for float and double (a float's f is a float32's value).
type number struct {
	kind numKind
	r    *big.Rat
	f    float64
}

// kindOf returns the numeric kind of datatype dt, and false when dt is
// not numeric.
func kindOf(dt string) (numKind, bool) {
	switch {
	case integerTypes[dt]:
		return kInteger, true
	case dt == rdf.XSDDecimal:
		return kDecimal, true
	case dt == xsdFloat:
		return kFloat, true
	case dt == rdf.XSDDouble:
		return kDouble, true
	}
	return 0, false
}

// numberOf returns the value of t, and false when t is not a well-formed
// numeric literal.
func numberOf(t rdf.Term) (number, bool) {
	if t.Kind != rdf.Literal {
		return number{}, false
	}
	k, ok := kindOf(t.Datatype)
	if !ok {
		return number{}, false
	}
	v := xsd.ValueOf(t)
	if k >= kFloat {
		f, ok := v.Float()
		if !ok {
			return number{}, false
		}
		if k == kFloat {
			f = float64(float32(f))
		}
		return number{kind: k, f: f}, true
	}
	r, ok := v.Rat()
	if !ok {
		return number{}, false
	}
	return number{kind: k, r: r}, true
}

// isNumeric reports whether t is a well-formed numeric literal.
func isNumeric(t rdf.Term) bool {
	_, ok := numberOf(t)
	return ok
}

// float returns n as a float64.
func (n number) float() float64 {
	if n.kind >= kFloat {
		return n.f
	}
	f, _ := n.r.Float64()
	return f
}

// to returns n converted to kind k, which is not below n's kind.
func (n number) to(k numKind) number {
	switch {
	case k == n.kind:
		return n
	case k >= kFloat:
		f := n.float()
		if k == kFloat {
			f = float64(float32(f))
		}
		return number{kind: k, f: f}
	}
	return number{kind: k, r: n.r} // integer to decimal
}

// term returns n as a literal in its kind's canonical form.
func (n number) term() rdf.Term {
	switch n.kind {
	case kInteger:
		return rdf.NewLiteral(n.r.Num().String(), rdf.XSDInteger)
	case kDecimal:
		return rdf.NewLiteral(decimalLex(n.r), rdf.XSDDecimal)
	case kFloat:
		return rdf.NewLiteral(floatLex(n.f, 32), xsdFloat)
	}
	return rdf.NewLiteral(floatLex(n.f, 64), rdf.XSDDouble)
}

func intNumber(i int64) number { return number{kind: kInteger, r: new(big.Rat).SetInt64(i)} }

func intTerm(i int) rdf.Term { return rdf.NewLiteral(strconv.Itoa(i), rdf.XSDInteger) }

// decimalLex writes r as the canonical form XML Schema 1.0 gives
// xsd:decimal: no exponent, no leading or trailing zero beyond the one
// digit each side of the point ("1.0", "-0.5"). Values with more fraction
// digits than decimalDivisionDigits (from division) are rounded, half away
// from zero.
func decimalLex(r *big.Rat) string {
	s := r.FloatString(decimalDivisionDigits)
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	if s == "-0.0" {
		s = "0.0"
	}
	return s
}

// floatLex writes f as the canonical form XML Schema 1.0 gives xsd:double
// (bits 64) and xsd:float (bits 32): a mantissa with one digit before the
// point and at least one after, and an exponent ("1.5E1", "0.0E0"), or
// INF, -INF, NaN.
func floatLex(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "INF"
	case math.IsInf(f, -1):
		return "-INF"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0E0"
		}
		return "0.0E0"
	}
	s := strconv.FormatFloat(f, 'E', -1, bits) // -1.5E+01
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// numberString writes n as XPath casts a number to xs:string: integers
// and integral decimals without a point, other decimals without trailing
// zeros, doubles and floats from 1e-6 up to 1e6 (in magnitude) as
// decimals are written, others in the canonical form with an exponent.
func numberString(n number) string {
	switch n.kind {
	case kInteger:
		return n.r.Num().String()
	case kDecimal:
		if n.r.IsInt() {
			return n.r.Num().String()
		}
		return decimalLex(n.r)
	}
	bits := 64
	if n.kind == kFloat {
		bits = 32
	}
	a := math.Abs(n.f)
	switch {
	case n.f == 0:
		if math.Signbit(n.f) {
			return "-0"
		}
		return "0"
	case a >= 1e-6 && a < 1e6:
		return strconv.FormatFloat(n.f, 'f', -1, bits)
	}
	return floatLex(n.f, bits)
}
