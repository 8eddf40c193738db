package expr

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// A stringFunc is a function on string literals (section 17.4.3), given
// its name for errors and the Env for compiled regular expressions.
type stringFunc func(name string, args []rdf.Term, env *Env) (rdf.Term, error)

var stringFuncs = map[string]stringFunc{
	"STRLEN": func(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
		if err := stringArg(name, args[0]); err != nil {
			return rdf.Term{}, err
		}
		return intTerm(utf8.RuneCountInString(args[0].Value)), nil
	},
	"UCASE": func(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
		if err := stringArg(name, args[0]); err != nil {
			return rdf.Term{}, err
		}
		return like(args[0], strings.ToUpper(args[0].Value)), nil
	},
	"LCASE": func(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
		if err := stringArg(name, args[0]); err != nil {
			return rdf.Term{}, err
		}
		return like(args[0], strings.ToLower(args[0].Value)), nil
	},
	"SUBSTR":         substr,
	"CONCAT":         concat,
	"ENCODE_FOR_URI": encodeForURI,
	"CONTAINS":       twoStrings,
	"STRSTARTS":      twoStrings,
	"STRENDS":        twoStrings,
	"STRBEFORE":      twoStrings,
	"STRAFTER":       twoStrings,
	"LANGMATCHES":    langMatches,
	"STRLANG":        strLang,
	"STRDT":          strDT,
	"REGEX":          regex,
	"REPLACE":        replace,
}

// stringArg checks that t is a string literal: a simple literal
// (xsd:string) or one with a language tag.
func stringArg(name string, t rdf.Term) error {
	if t.Kind != rdf.Literal || t.Datatype != rdf.XSDString && t.Datatype != rdf.RDFLangString {
		return typeErr(name, "not a string: "+describe(t))
	}
	return nil
}

// simpleArg checks that t is a simple literal (xsd:string, no language
// tag).
func simpleArg(name string, t rdf.Term) error {
	if t.Kind != rdf.Literal || t.Datatype != rdf.XSDString {
		return typeErr(name, "not a string without language tag: "+describe(t))
	}
	return nil
}

// like returns s as a literal with the language tag of t, if it has one,
// else as an xsd:string.
func like(t rdf.Term, s string) rdf.Term {
	if t.Lang != "" {
		return rdf.NewLangLiteral(s, t.Lang)
	}
	return rdf.NewLiteral(s, rdf.XSDString)
}

func simple(s string) rdf.Term { return rdf.NewLiteral(s, rdf.XSDString) }

// twoStrings computes the functions of two argument-compatible strings
// (section 17.4.3.1.1: both simple, both with one language tag, or the
// first with a tag and the second simple).
func twoStrings(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
	a, b := args[0], args[1]
	if err := stringArg(name, a); err != nil {
		return rdf.Term{}, err
	}
	if err := stringArg(name, b); err != nil {
		return rdf.Term{}, err
	}
	if b.Lang != "" && !strings.EqualFold(a.Lang, b.Lang) {
		return rdf.Term{}, typeErr(name, "the arguments are not compatible: "+a.String()+" and "+b.String())
	}
	s, t := a.Value, b.Value
	switch name {
	case "CONTAINS":
		return Bool(strings.Contains(s, t)), nil
	case "STRSTARTS":
		return Bool(strings.HasPrefix(s, t)), nil
	case "STRENDS":
		return Bool(strings.HasSuffix(s, t)), nil
	}
	i := strings.Index(s, t)
	switch {
	case i < 0:
		return simple(""), nil
	case name == "STRBEFORE":
		return like(a, s[:i]), nil
	}
	return like(a, s[i+len(t):]), nil
}

// substr is XPath's fn:substring: the characters at positions p (from 1)
// with round(start) <= p < round(start) + round(length).
func substr(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
	a := args[0]
	if err := stringArg(name, a); err != nil {
		return rdf.Term{}, err
	}
	start, ok := numberOf(args[1])
	if !ok {
		return rdf.Term{}, typeErr(name, "the start is not a number: "+describe(args[1]))
	}
	from, to := xpathRound(start.float()), math.Inf(1)
	if len(args) == 3 {
		n, ok := numberOf(args[2])
		if !ok {
			return rdf.Term{}, typeErr(name, "the length is not a number: "+describe(args[2]))
		}
		to = from + xpathRound(n.float())
	}
	var b strings.Builder
	p := 0.0
	for _, r := range a.Value {
		p++
		if p >= from && p < to {
			b.WriteRune(r)
		}
	}
	return like(a, b.String()), nil
}

// xpathRound is XPath's fn:round on a double: to the nearest integer,
// halves up.
func xpathRound(f float64) float64 {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	return math.Floor(f + 0.5)
}

// concat joins strings; the result keeps a language tag all the
// arguments share, and is a simple literal otherwise.
func concat(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
	var b strings.Builder
	lang := ""
	for i, a := range args {
		if err := stringArg(name, a); err != nil {
			return rdf.Term{}, err
		}
		switch {
		case i == 0:
			lang = a.Lang
		case !strings.EqualFold(lang, a.Lang):
			lang = ""
		}
		b.WriteString(a.Value)
	}
	if lang != "" {
		return rdf.NewLangLiteral(b.String(), lang), nil
	}
	return simple(b.String()), nil
}

// encodeForURI percent-encodes every byte of the UTF-8 string but the
// unreserved characters of RFC 3986.
func encodeForURI(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
	if err := stringArg(name, args[0]); err != nil {
		return rdf.Term{}, err
	}
	const digits = "0123456789ABCDEF"
	s := args[0].Value
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(digits[c>>4])
		b.WriteByte(digits[c&15])
	}
	return simple(b.String()), nil
}

// langMatches is RFC 4647's basic filtering: the range "*" matches any
// tag but none, other ranges match the tag equal to them or starting with
// them and a hyphen, case aside.
func langMatches(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
	for _, a := range args {
		if err := simpleArg(name, a); err != nil {
			return rdf.Term{}, err
		}
	}
	tag, rng := args[0].Value, args[1].Value
	if rng == "*" {
		return Bool(tag != ""), nil
	}
	n := len(rng)
	return Bool(strings.EqualFold(tag, rng) || len(tag) > n && tag[n] == '-' && strings.EqualFold(tag[:n], rng)), nil
}

// strLang makes a literal with a language tag, written in lower case (the
// form RDF 1.1 gives language tags' values).
func strLang(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
	for _, a := range args {
		if err := simpleArg(name, a); err != nil {
			return rdf.Term{}, err
		}
	}
	tag := args[1].Value
	if !xsd.WellFormed(rdf.NewLiteral(tag, rdf.XSDNS+"language")) {
		return rdf.Term{}, typeErr(name, "not a language tag: "+args[1].String())
	}
	return rdf.NewLangLiteral(args[0].Value, strings.ToLower(tag)), nil
}

// strDT makes a literal of a datatype; its lexical form is not checked
// (an ill-formed literal is a literal all the same).
func strDT(name string, args []rdf.Term, _ *Env) (rdf.Term, error) {
	if err := simpleArg(name, args[0]); err != nil {
		return rdf.Term{}, err
	}
	dt := args[1]
	if dt.Kind != rdf.IRI || dt.Value == rdf.RDFLangString {
		return rdf.Term{}, typeErr(name, "not a datatype IRI: "+dt.String())
	}
	return rdf.NewLiteral(args[0].Value, dt.Value), nil
}

// patternArgs checks the pattern and flags of REGEX and REPLACE and
// compiles the pattern.
func patternArgs(name string, pattern rdf.Term, flags []rdf.Term, env *Env) (*regexp.Regexp, error) {
	if err := simpleArg(name, pattern); err != nil {
		return nil, err
	}
	f := ""
	if len(flags) > 0 {
		if err := simpleArg(name, flags[0]); err != nil {
			return nil, err
		}
		f = flags[0].Value
	}
	return env.regexp(name, pattern.Value, f)
}

func regex(name string, args []rdf.Term, env *Env) (rdf.Term, error) {
	if err := stringArg(name, args[0]); err != nil {
		return rdf.Term{}, err
	}
	re, err := patternArgs(name, args[1], args[2:], env)
	if err != nil {
		return rdf.Term{}, err
	}
	return Bool(re.MatchString(args[0].Value)), nil
}

// replace is XPath's fn:replace: a pattern that matches the empty string
// is an error, and in the replacement $N is the Nth group's match (as many
// digits as name a group; empty for a group that did not take part), \$
// and \\ are '$' and '\', and any other '$' or '\' is an error.
func replace(name string, args []rdf.Term, env *Env) (rdf.Term, error) {
	a := args[0]
	if err := stringArg(name, a); err != nil {
		return rdf.Term{}, err
	}
	re, err := patternArgs(name, args[1], args[3:], env)
	if err != nil {
		return rdf.Term{}, err
	}
	if err := simpleArg(name, args[2]); err != nil {
		return rdf.Term{}, err
	}
	if re.MatchString("") {
		return rdf.Term{}, typeErr(name, "the pattern "+args[1].String()+" matches the empty string")
	}
	pieces, err := replacement(name, args[2].Value, re.NumSubexp())
	if err != nil {
		return rdf.Term{}, err
	}
	s := a.Value
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		for _, p := range pieces {
			switch {
			case p.group < 0:
				b.WriteString(p.text)
			case m[2*p.group] >= 0:
				b.WriteString(s[m[2*p.group]:m[2*p.group+1]])
			}
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return like(a, b.String()), nil
}

// A replacementPiece is text, or (group >= 0) a group's match.
type replacementPiece struct {
	text  string
	group int
}

func replacement(name, r string, groups int) ([]replacementPiece, error) {
	var pieces []replacementPiece
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			pieces = append(pieces, replacementPiece{text: text.String(), group: -1})
			text.Reset()
		}
	}
	for i := 0; i < len(r); i++ {
		switch c := r[i]; c {
		case '\\':
			if i+1 == len(r) || r[i+1] != '\\' && r[i+1] != '$' {
				return nil, typeErr(name, `in the replacement, '\' must come before '\' or '$'`)
			}
			i++
			text.WriteByte(r[i])
		case '$':
			if i+1 == len(r) || r[i+1] < '0' || r[i+1] > '9' {
				return nil, typeErr(name, "in the replacement, '$' must come before a group's number")
			}
			i++
			n := int(r[i] - '0')
			for i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9' && n*10+int(r[i+1]-'0') <= groups {
				i++
				n = n*10 + int(r[i]-'0')
			}
			flush()
			if n <= groups {
				pieces = append(pieces, replacementPiece{group: n})
			}
		default:
			text.WriteByte(c)
		}
	}
	flush()
	return pieces, nil
}
