package expr

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"math/big"
	"strconv"

	"github.com/jrpcld/jrpcld/rdf"
)

// builtins are the functions Call knows by name, with their least and
// greatest numbers of arguments (-1: any).
var builtins = map[string][2]int{
	"STR": {1, 1}, "LANG": {1, 1}, "LANGMATCHES": {2, 2}, "DATATYPE": {1, 1},
	"IRI": {1, 1}, "URI": {1, 1}, "BNODE": {0, 1}, "RAND": {0, 0},
	"ABS": {1, 1}, "CEIL": {1, 1}, "FLOOR": {1, 1}, "ROUND": {1, 1},
	"CONCAT": {0, -1}, "STRLEN": {1, 1}, "UCASE": {1, 1}, "LCASE": {1, 1},
	"ENCODE_FOR_URI": {1, 1}, "CONTAINS": {2, 2}, "STRSTARTS": {2, 2},
	"STRENDS": {2, 2}, "STRBEFORE": {2, 2}, "STRAFTER": {2, 2},
	"YEAR": {1, 1}, "MONTH": {1, 1}, "DAY": {1, 1}, "HOURS": {1, 1},
	"MINUTES": {1, 1}, "SECONDS": {1, 1}, "TIMEZONE": {1, 1}, "TZ": {1, 1},
	"NOW": {0, 0}, "UUID": {0, 0}, "STRUUID": {0, 0},
	"MD5": {1, 1}, "SHA1": {1, 1}, "SHA256": {1, 1}, "SHA384": {1, 1}, "SHA512": {1, 1},
	"ISIRI": {1, 1}, "ISURI": {1, 1}, "ISBLANK": {1, 1}, "ISLITERAL": {1, 1},
	"ISNUMERIC": {1, 1}, "STRLANG": {2, 2}, "STRDT": {2, 2}, "SAMETERM": {2, 2},
	"SUBSTR": {2, 3}, "REPLACE": {3, 4}, "REGEX": {2, 3},
}

// Known reports whether Call evaluates the function name: a built-in's
// upper-case name or the IRI of an XML Schema cast.
func Known(name string) bool {
	if _, ok := builtins[name]; ok {
		return true
	}
	return castTargets[name]
}

// Call calls the built-in function name (upper case, as the grammar
// spells it: "STRLEN", "REGEX"...) or the XML Schema cast named by its
// datatype's IRI (xsd:string, xsd:boolean, xsd:integer and the types
// derived from it, xsd:decimal, xsd:float, xsd:double, xsd:dateTime) on
// evaluated arguments, as sections 17.4 and 17.5 say. A wrong number of
// arguments, arguments of the wrong kind and unknown functions are type
// errors. env serves NOW, RAND, BNODE, UUID and the base of IRI; it may be
// nil for the others.
func Call(name string, args []rdf.Term, env *Env) (rdf.Term, error) {
	args = normAll(args)
	for i := range args {
		if unbound(args[i]) {
			return rdf.Term{}, typeErr(name, "argument "+strconv.Itoa(i+1)+" is unbound")
		}
	}
	if castTargets[name] {
		if len(args) != 1 {
			return rdf.Term{}, typeErr("<"+name+">", "a cast takes one argument")
		}
		return cast(name, args[0])
	}
	ar, ok := builtins[name]
	if !ok {
		return rdf.Term{}, &TypeError{Op: name, Msg: "unknown function"}
	}
	if len(args) < ar[0] || ar[1] >= 0 && len(args) > ar[1] {
		want := strconv.Itoa(ar[0])
		if ar[1] != ar[0] {
			want = fmt.Sprintf("%d to %d", ar[0], ar[1])
			if ar[1] < 0 {
				want = fmt.Sprintf("at least %d", ar[0])
			}
		}
		return rdf.Term{}, typeErr(name, fmt.Sprintf("takes %s arguments, not %d", want, len(args)))
	}
	if f, ok := stringFuncs[name]; ok {
		return f(name, args, env)
	}
	if f, ok := timeFuncs[name]; ok {
		return f(name, args[0])
	}
	return termFunc(name, args, env)
}

// normAll returns args with norm applied, copied only when that changes
// one.
func normAll(args []rdf.Term) []rdf.Term {
	for i, a := range args {
		if n := norm(a); n != a {
			out := append([]rdf.Term(nil), args...)
			for j := i; j < len(out); j++ {
				out[j] = norm(out[j])
			}
			return out
		}
	}
	return args
}

// termFunc calls the functions on terms and numbers and those that make
// new terms.
func termFunc(name string, args []rdf.Term, env *Env) (rdf.Term, error) {
	a := rdf.Term{}
	if len(args) > 0 {
		a = args[0]
	}
	switch name {
	case "STR":
		if a.Kind == rdf.Blank {
			return rdf.Term{}, typeErr(name, "a blank node has no string form")
		}
		return rdf.NewLiteral(a.Value, rdf.XSDString), nil
	case "LANG":
		if a.Kind != rdf.Literal {
			return rdf.Term{}, typeErr(name, "not a literal: "+describe(a))
		}
		return rdf.NewLiteral(a.Lang, rdf.XSDString), nil
	case "DATATYPE":
		if a.Kind != rdf.Literal {
			return rdf.Term{}, typeErr(name, "not a literal: "+describe(a))
		}
		return rdf.NewIRI(a.Datatype), nil
	case "IRI", "URI":
		return toIRI(name, a, env)
	case "BNODE":
		return bnode(name, args, env)
	case "RAND":
		if env == nil || env.Rand == nil {
			return rdf.Term{}, typeErr(name, "no source of random numbers")
		}
		return number{kind: kDouble, f: env.Rand.Float64()}.term(), nil
	case "ABS", "CEIL", "FLOOR", "ROUND":
		n, ok := numberOf(a)
		if !ok {
			return rdf.Term{}, typeErr(name, "not a number: "+describe(a))
		}
		return rounding(name, n).term(), nil
	case "UUID":
		return rdf.NewIRI("urn:uuid:" + uuid4()), nil
	case "STRUUID":
		return rdf.NewLiteral(uuid4(), rdf.XSDString), nil
	case "MD5", "SHA1", "SHA256", "SHA384", "SHA512":
		if a.Kind != rdf.Literal || a.Datatype != rdf.XSDString {
			return rdf.Term{}, typeErr(name, "not a string without language tag: "+describe(a))
		}
		h := hashes(name)
		h.Write([]byte(a.Value))
		return rdf.NewLiteral(hex.EncodeToString(h.Sum(nil)), rdf.XSDString), nil
	case "ISIRI", "ISURI":
		return Bool(a.Kind == rdf.IRI), nil
	case "ISBLANK":
		return Bool(a.Kind == rdf.Blank), nil
	case "ISLITERAL":
		return Bool(a.Kind == rdf.Literal), nil
	case "ISNUMERIC":
		return Bool(isNumeric(a)), nil
	case "SAMETERM":
		return Bool(SameTerm(a, args[1])), nil
	case "NOW":
		if env == nil {
			return rdf.Term{}, typeErr(name, "no time given")
		}
		return rdf.NewLiteral(env.Now.Format("2006-01-02T15:04:05.999999999Z07:00"), rdf.XSDDateTime), nil
	}
	return rdf.Term{}, &TypeError{Op: name, Msg: "unknown function"}
}

func toIRI(name string, a rdf.Term, env *Env) (rdf.Term, error) {
	switch {
	case a.Kind == rdf.IRI:
		return a, nil
	case a.Kind != rdf.Literal || a.Datatype != rdf.XSDString:
		return rdf.Term{}, typeErr(name, "takes an IRI or a string without language tag, not "+describe(a))
	}
	if env == nil || env.Base == "" {
		return rdf.NewIRI(a.Value), nil
	}
	return rdf.NewIRI(rdf.ResolveIRI(env.Base, a.Value)), nil
}

func bnode(name string, args []rdf.Term, env *Env) (rdf.Term, error) {
	if len(args) == 0 {
		if env == nil || env.NewBNode == nil {
			return rdf.Term{}, typeErr(name, "no maker of blank nodes")
		}
		return env.NewBNode(), nil
	}
	a := args[0]
	if a.Kind != rdf.Literal || a.Datatype != rdf.XSDString {
		return rdf.Term{}, typeErr(name, "takes a string without language tag, not "+describe(a))
	}
	if env == nil || env.LabelledBNode == nil {
		return rdf.Term{}, typeErr(name, "no maker of labelled blank nodes")
	}
	return env.LabelledBNode(a.Value), nil
}

// rounding computes ABS, CEIL, FLOOR and ROUND (XPath's fn:abs and the
// others: the type is kept, ROUND takes halves up).
func rounding(name string, n number) number {
	if n.kind >= kFloat {
		f := n.f
		switch name {
		case "ABS":
			f = math.Abs(f)
		case "CEIL":
			f = math.Ceil(f)
		case "FLOOR":
			f = math.Floor(f)
		default:
			if !math.IsInf(f, 0) && !math.IsNaN(f) {
				fl := math.Floor(f)
				if f-fl >= 0.5 {
					fl++
				}
				f = math.Copysign(fl, f)
			}
		}
		return number{kind: n.kind, f: f}
	}
	r := n.r
	switch name {
	case "ABS":
		r = new(big.Rat).Abs(r)
	case "CEIL":
		r = new(big.Rat).SetInt(ratCeil(r))
	case "FLOOR":
		r = new(big.Rat).SetInt(ratFloor(r))
	default:
		r = new(big.Rat).SetInt(ratFloor(new(big.Rat).Add(r, big.NewRat(1, 2))))
	}
	return number{kind: n.kind, r: r}
}

// ratFloor returns the greatest integer not above r (Div is Euclidean
// division, which with r's positive denominator is the floor).
func ratFloor(r *big.Rat) *big.Int { return new(big.Int).Div(r.Num(), r.Denom()) }

// ratCeil returns the least integer not below r.
func ratCeil(r *big.Rat) *big.Int {
	q := ratFloor(r)
	if !r.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func hashes(name string) hash.Hash {
	switch name {
	case "MD5":
		return md5.New()
	case "SHA1":
		return sha1.New()
	case "SHA256":
		return sha256.New()
	case "SHA384":
		return sha512.New384()
	}
	return sha512.New()
}

// uuid4 returns a random (version 4) UUID in its string form.
func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
