// Package bignum keeps numbers too big to compute with from the JSON Schema
// engine. JSON Schema compares numbers by their exact value (jsonschema and
// the plans read them with math/big), and the cost of that grows with the
// number's digits and exponent: 1E999999 takes math/big a third of a second
// and 3 MB. So jrpcld computes only with numbers of at most MaxDigits digits
// and an exponent within ±MaxExponent. A bigger one is checked wherever no
// keyword needs its value (its type "number" needs none); where one does
// (minimum, maximum, multipleOf, const, enum, uniqueItems, "integer"), it is
// a problem "could not be checked" at its pointer (see Needed), and
// jsonschema does not see the value; a schema document that holds one where
// jsonschema would compute with it is refused (see Loader).
package bignum

import (
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"slices"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/jrpcld/jrpcld/internal/jsonptr"
)

// The bounds of the numbers jrpcld computes with: digits before the
// exponent, and the exponent as written.
const (
	MaxDigits   = 1000
	MaxExponent = 1000
)

// TooBig reports whether the JSON number text s has more than MaxDigits
// digits before its exponent or an exponent beyond ±MaxExponent. It reads
// the text only, whatever its length.
func TooBig[T string | []byte](s T) bool {
	digits, i := 0, 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == 'e' || c == 'E' {
			break
		}
		if c >= '0' && c <= '9' {
			digits++
		}
	}
	if digits > MaxDigits {
		return true
	}
	if i == len(s) {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && s[i] == '0' {
		i++
	}
	exp := 0
	for ; i < len(s); i++ {
		exp = 10*exp + int(s[i]-'0')
		if exp > MaxExponent {
			return true
		}
	}
	return false
}

// RatTooBig reports whether a number jsonschema compiled from a schema
// (minimum, multipleOf, ...) is beyond what the plans compute with.
func RatTooBig(r *big.Rat) bool {
	return r != nil && r.Num().BitLen()+r.Denom().BitLen() > 4*(MaxDigits+MaxExponent)
}

// Number is a number of a value too big to compute with, whose value a
// keyword of the schema may need.
type Number struct {
	Ptr  string // its JSON pointer in the value
	Text string
	Need string // what may need it: a keyword, " at ", and its schema's location
}

// Needed returns the numbers of v too big to compute with (see TooBig)
// whose value a keyword of sch may need, in the order of v (members by
// name). It errs on the side of need: the schemas of then and else, and of
// every branch of anyOf and oneOf, count whatever the value is. match
// matches a member name against a patternProperties pattern that sch
// compiled; a pattern whose match cannot be completed counts as matched.
func Needed(sch *jsonschema.Schema, v any, match func(re jsonschema.Regexp, s string) (bool, error)) []Number {
	if !holdsBig(v) {
		// Most values: not worth their paths, in order.
		return nil
	}
	var found [][]string
	collectBig(v, nil, &found)
	if len(found) == 0 {
		return nil
	}
	w := needWalk{closures: map[string][]*jsonschema.Schema{}, match: match}
	var out []Number
	for _, path := range found {
		if need := w.need(sch, v, path); need != "" {
			ptr := ""
			for _, tok := range path {
				ptr += "/" + jsonptr.Escape(tok)
			}
			out = append(out, Number{Ptr: ptr, Text: string(valueAt(v, path).(json.Number)), Need: need})
		}
	}
	return out
}

// collectBig appends to found the paths of the numbers of v too big to
// compute with.
func collectBig(v any, path []string, found *[][]string) {
	switch x := v.(type) {
	case json.Number:
		if TooBig(string(x)) {
			*found = append(*found, slices.Clone(path))
		}
	case []any:
		for i, e := range x {
			collectBig(e, append(path, strconv.Itoa(i)), found)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			collectBig(x[k], append(path, k), found)
		}
	}
}

// holdsBig reports whether v holds a number too big to compute with.
func holdsBig(v any) bool {
	return anyLeaf(v, func(l any) bool {
		n, ok := l.(json.Number)
		return ok && TooBig(string(n))
	})
}

// anyLeaf reports whether leaf holds for v, when it is no array or object,
// or for a value inside it.
func anyLeaf(v any, leaf func(any) bool) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if anyLeaf(e, leaf) {
				return true
			}
		}
		return false
	case map[string]any:
		for _, e := range x {
			if anyLeaf(e, leaf) {
				return true
			}
		}
		return false
	}
	return leaf(v)
}

func valueAt(v any, path []string) any {
	for _, tok := range path {
		switch x := v.(type) {
		case []any:
			i, _ := strconv.Atoi(tok)
			v = x[i]
		case map[string]any:
			v = x[tok]
		}
	}
	return v
}

// needWalk finds what needs a number, remembering the schemas that apply
// to each value on the way (by the value's path).
type needWalk struct {
	closures map[string][]*jsonschema.Schema
	match    func(re jsonschema.Regexp, s string) (bool, error)
}

// need returns what may need the value of the number at path in v, which
// sch applies to, or "".
func (w *needWalk) need(sch *jsonschema.Schema, v any, path []string) string {
	schemas := w.closure("", []*jsonschema.Schema{sch}, v)
	key := ""
	for depth := 0; ; depth++ {
		last := depth == len(path)
		for _, s := range schemas {
			if need := needs(s, v, last); need != "" {
				return need
			}
		}
		if last {
			return ""
		}
		tok := path[depth]
		var next []*jsonschema.Schema
		for _, s := range schemas {
			next = append(next, w.childSchemas(s, v, tok)...)
		}
		key += "/" + jsonptr.Escape(tok)
		v = valueAt(v, path[depth:depth+1])
		if len(next) == 0 {
			return ""
		}
		schemas = w.closure(key, next, v)
	}
}

// needs returns what in s (not its subschemas) may need the value of a
// number too big inside v, or v itself when leaf, or "".
func needs(s *jsonschema.Schema, v any, leaf bool) string {
	at := func(kw string) string { return kw + " at " + s.Location }
	switch {
	case s.Const != nil && holdsNumber(*s.Const):
		return at("const")
	case s.Enum != nil && slices.ContainsFunc(s.Enum.Values, holdsNumber):
		return at("enum")
	case s.RecursiveRef != nil && s.RecursiveRef.RecursiveAnchor:
		return at("$recursiveRef")
	case s.DynamicRef != nil && s.DynamicRef.Anchor != "" && s.DynamicRef.Ref.DynamicAnchor == s.DynamicRef.Anchor:
		return at("$dynamicRef")
	case len(s.Extensions) > 0:
		return at("a keyword of a vocabulary of its own")
	}
	if arr, ok := v.([]any); ok && s.UniqueItems && len(arr) > 1 {
		return at("uniqueItems")
	}
	if !leaf {
		return ""
	}
	switch {
	case s.Minimum != nil:
		return at("minimum")
	case s.Maximum != nil:
		return at("maximum")
	case s.ExclusiveMinimum != nil:
		return at("exclusiveMinimum")
	case s.ExclusiveMaximum != nil:
		return at("exclusiveMaximum")
	case s.MultipleOf != nil:
		return at("multipleOf")
	case s.Types != nil && slices.Contains(s.Types.ToStrings(), "integer") && !slices.Contains(s.Types.ToStrings(), "number"):
		return at(`type "integer"`)
	}
	return ""
}

// holdsNumber reports whether v is or holds a number.
func holdsNumber(v any) bool {
	return anyLeaf(v, func(l any) bool {
		switch l.(type) {
		case nil, bool, string:
			return false
		}
		return true
	})
}

// closure returns the schemas that apply to v, the value at key, given
// that list does: list and the schemas they apply to the same value, as
// far as may be ($ref, allOf, anyOf, oneOf, not, if, then, else, and the
// dependent schemas of the members v has).
func (w *needWalk) closure(key string, list []*jsonschema.Schema, v any) []*jsonschema.Schema {
	if c, ok := w.closures[key]; ok {
		return c
	}
	seen := map[*jsonschema.Schema]bool{}
	var out []*jsonschema.Schema
	for len(list) > 0 {
		s := list[len(list)-1]
		list = list[:len(list)-1]
		if s == nil || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
		list = append(list, s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else)
		if s.DynamicRef != nil {
			list = append(list, s.DynamicRef.Ref)
		}
		list = append(list, s.AllOf...)
		list = append(list, s.AnyOf...)
		list = append(list, s.OneOf...)
		if obj, ok := v.(map[string]any); ok {
			for k, d := range s.DependentSchemas {
				if _, ok := obj[k]; ok {
					list = append(list, d)
				}
			}
			for k, d := range s.Dependencies {
				if d, isSchema := d.(*jsonschema.Schema); isSchema {
					if _, ok := obj[k]; ok {
						list = append(list, d)
					}
				}
			}
		}
	}
	w.closures[key] = out
	return out
}

// childSchemas returns the schemas s applies to the member or element tok
// of v.
func (w *needWalk) childSchemas(s *jsonschema.Schema, v any, tok string) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	switch v.(type) {
	case map[string]any:
		p, named := s.Properties[tok]
		if named {
			out = append(out, p)
		}
		for re, p := range s.PatternProperties {
			// A pattern that cannot be matched in time counts as matched.
			if m, err := w.match(re, tok); m || err != nil {
				named = true
				out = append(out, p)
			}
		}
		if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok && !named {
			out = append(out, a)
		}
		out = append(out, s.UnevaluatedProperties)
	case []any:
		i, _ := strconv.Atoi(tok)
		var prefix []*jsonschema.Schema
		if s.DraftVersion < 2020 {
			switch it := s.Items.(type) {
			case *jsonschema.Schema:
				out = append(out, it)
			case []*jsonschema.Schema:
				prefix = it
				if a, ok := s.AdditionalItems.(*jsonschema.Schema); ok && i >= len(it) {
					out = append(out, a)
				}
			}
		} else {
			prefix = s.PrefixItems
			if i >= len(prefix) {
				out = append(out, s.Items2020)
			}
		}
		if i < len(prefix) {
			out = append(out, prefix[i])
		}
		out = append(out, s.Contains, s.UnevaluatedItems)
	}
	return slices.DeleteFunc(out, func(s *jsonschema.Schema) bool { return s == nil })
}

// Abbreviate shortens a number's text, or a pattern or string, for a
// message.
func Abbreviate(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:20] + "…" + s[len(s)-12:]
}

// valueKeywords are the keywords whose number jsonschema computes with,
// compiling or validating.
var valueKeywords = map[string]bool{
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"const": true, "enum": true, "minLength": true, "maxLength": true, "minItems": true, "maxItems": true,
	"minProperties": true, "maxProperties": true, "minContains": true, "maxContains": true,
}

// Loader loads schema documents as its URLLoader does, and refuses one
// that holds a number too big to compute with (see TooBig) as the value of
// a keyword jsonschema computes with, or inside a const or enum.
type Loader struct {
	jsonschema.URLLoader
}

// printer writes the bounds in messages as schema's printer does (1,000).
var printer = message.NewPrinter(language.English)

// Load loads the document at u and refuses it when it holds a number too
// big where jsonschema would compute with it.
func (l Loader) Load(u string) (any, error) {
	doc, err := l.URLLoader.Load(u)
	if err != nil {
		return nil, err
	}
	if ptr, num, found := bigInSchema(doc, "", false); found {
		return nil, errors.New(printer.Sprintf("%s: the number %s has more than %d digits or an exponent beyond ±%d, too big for jrpcld to compute with; write a smaller one",
			ptr, Abbreviate(num), MaxDigits, MaxExponent))
	}
	return doc, nil
}

// bigInSchema finds, in the part v of a schema document at ptr, a number
// too big to compute with where jsonschema would: any number when value is
// set (v is inside a keyword's value), else in the value of a member of
// valueKeywords. Members are searched by name.
func bigInSchema(v any, ptr string, value bool) (string, string, bool) {
	switch x := v.(type) {
	case json.Number:
		if value && TooBig(string(x)) {
			return ptr, string(x), true
		}
	case []any:
		for i, e := range x {
			if p, n, ok := bigInSchema(e, ptr+"/"+strconv.Itoa(i), value); ok {
				return p, n, true
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if p, n, ok := bigInSchema(x[k], ptr+"/"+jsonptr.Escape(k), value || valueKeywords[k]); ok {
				return p, n, true
			}
		}
	}
	return "", "", false
}
