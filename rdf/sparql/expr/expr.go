// Package expr computes the values of SPARQL 1.1 expressions on RDF
// terms: the operators, the built-in functions of section 17.4, the XML
// Schema casts of section 17.5, the effective boolean value, the order
// ORDER BY gives and the aggregates of section 18.5. It knows nothing of
// the algebra or of solutions, so that syntax and evaluation can change
// without it: the evaluator hands it evaluated arguments and gets back a
// term or an error matching ErrType. The forms that need unevaluated
// arguments (BOUND, IF, COALESCE, IN, NOT IN, &&, ||, EXISTS) stay with
// the evaluator.
//
// What XML Schema knows of lexical spaces and of the order of values comes
// from shacl/xsd, which SHACL shares. Literals keep their lexical form
// where a value passes through ("01"^^xsd:integer stays "01"); results of
// arithmetic and casts are written in canonical form. Language tags are
// compared without regard to case, as RDF 1.1 allows.
package expr

import (
	"math"
	"math/rand"
	"regexp"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// Env is what the functions that are not pure need, fixed for the whole
// of one query (section 17.4: NOW gives the same time throughout a query).
// An Env is not safe for concurrent use: Call keeps compiled regular
// expressions in it.
type Env struct {
	// Now is the time NOW returns.
	Now time.Time
	// Base is the base IRI IRI and URI resolve relative IRIs against; ""
	// leaves them as they are.
	Base string
	// Rand is the source RAND draws from.
	Rand *rand.Rand
	// NewBNode makes the fresh blank node BNODE() returns.
	NewBNode func() rdf.Term
	// LabelledBNode gives BNODE(label) its blank node: the same one for
	// the same label within one solution, a different one in each
	// solution (section 17.4.2.9), which only the evaluator can tell; nil
	// makes BNODE with an argument an error.
	LabelledBNode func(label string) rdf.Term

	regexps map[[2]string]*regexp.Regexp
}

// maxCachedRegexps bounds the regular expressions an Env keeps compiled.
const maxCachedRegexps = 256

// regexp compiles pattern with XPath's flags, reusing an earlier
// compilation in env.
func (env *Env) regexp(fn, pattern, flags string) (*regexp.Regexp, error) {
	key := [2]string{pattern, flags}
	if env != nil {
		if re, ok := env.regexps[key]; ok {
			return re, nil
		}
	}
	re, err := xsd.Regexp(pattern, flags)
	if err != nil {
		return nil, &TypeError{Op: fn, Msg: "bad regular expression: " + err.Error()}
	}
	if env != nil {
		if env.regexps == nil || len(env.regexps) >= maxCachedRegexps {
			env.regexps = make(map[[2]string]*regexp.Regexp)
		}
		env.regexps[key] = re
	}
	return re, nil
}

// norm fills in the datatype of a literal made without one.
func norm(t rdf.Term) rdf.Term {
	if t.Kind == rdf.Literal && t.Datatype == "" {
		t.Datatype = rdf.XSDString
		if t.Lang != "" {
			t.Datatype = rdf.RDFLangString
		}
	}
	return t
}

// unbound reports whether t is the zero Term, which stands for an unbound
// variable or an error where a term is expected (Order, Aggregator.Add).
func unbound(t rdf.Term) bool { return t == rdf.Term{} }

var (
	trueTerm  = rdf.NewLiteral("true", rdf.XSDBoolean)
	falseTerm = rdf.NewLiteral("false", rdf.XSDBoolean)
)

// Bool returns the xsd:boolean literal of b.
func Bool(b bool) rdf.Term {
	if b {
		return trueTerm
	}
	return falseTerm
}

// EBV returns the effective boolean value of t (section 17.2.2): a
// well-formed xsd:boolean's value; false for an ill-formed boolean or
// number; for a number, whether it is neither zero nor NaN; for a string
// (with or without a language tag), whether it is not empty. Any other
// term is a type error.
func EBV(t rdf.Term) (bool, error) {
	t = norm(t)
	if t.Kind != rdf.Literal {
		return false, typeErr("EBV", "no effective boolean value for "+describe(t))
	}
	switch t.Datatype {
	case rdf.XSDBoolean:
		return xsd.WellFormed(t) && (t.Value == "true" || t.Value == "1"), nil
	case rdf.XSDString, rdf.RDFLangString:
		return t.Value != "", nil
	}
	if _, ok := kindOf(t.Datatype); ok {
		n, ok := numberOf(t)
		if !ok {
			return false, nil
		}
		if n.kind >= kFloat {
			return n.f != 0 && !math.IsNaN(n.f), nil
		}
		return n.r.Sign() != 0, nil
	}
	return false, typeErr("EBV", "no effective boolean value for a literal of datatype <"+t.Datatype+">")
}

// SameTerm reports whether a and b are the same RDF term (sameTerm):
// same kind, same IRI, label or lexical form and datatype, and language
// tags equal but for case.
func SameTerm(a, b rdf.Term) bool {
	a, b = norm(a), norm(b)
	return a.Kind == b.Kind && a.Value == b.Value && a.Datatype == b.Datatype &&
		(a.Lang == b.Lang || strings.EqualFold(a.Lang, b.Lang))
}

// describe names a term's kind for error messages.
func describe(t rdf.Term) string {
	switch t.Kind {
	case rdf.IRI:
		if t.Value == "" {
			return "an unbound value"
		}
		return "an IRI"
	case rdf.Blank:
		return "a blank node"
	}
	switch {
	case t.Lang != "":
		return "a literal with a language tag"
	case t.Datatype == rdf.XSDString:
		return "a string"
	}
	return "a literal of datatype <" + t.Datatype + ">"
}
