package schema

import (
	"bytes"
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/schema/internal/bignum"
)

// verdict is what a plan says of a value.
type verdict uint8

const (
	valid   verdict = iota
	invalid         // jsonschema will say why
	unsure          // the plan cannot tell: jsonschema decides
)

// maxSameValue bounds how many schemas apply to one value in a chain
// ($ref, allOf, ...) before the plan gives up: jsonschema reports a cycle
// of references on the same value as an error, the plan leaves it to it.
const maxSameValue = 64

// evaluator runs plans. It is not safe for concurrent use.
type evaluator struct {
	same int // schemas applied to the current value in a chain

	// idx holds where the values of the message being checked end, as
	// far as the log reader noted it (inside its undecoded params and
	// result): a plan that does not look inside a value jumps over it
	// instead of scanning it, once per schema that reads it.
	idx index

	parser jsonparse.Parser // for decode

	// unique is set while the message being checked is known to name no
	// member twice (its record has no warning): objects need not note
	// the names they read.
	unique bool
}

// run runs the plan n on the value text b (no white space around it).
func (e *evaluator) run(n *node, b []byte) verdict {
	e.same = 0
	return e.check(n, b)
}

// check runs n on the value text b (no white space around it).
func (e *evaluator) check(n *node, b []byte) verdict {
	v, end := e.read(n, b)
	if v == valid && end != len(b) {
		return unsure
	}
	return v
}

// read runs n on the value that starts b, which may go on past it, and
// returns, when it is valid, the length of its text. Objects and arrays are
// read once: their members' values are checked as they are reached, so a
// value nested deep is not scanned once per level.
func (e *evaluator) read(n *node, b []byte) (verdict, int) {
	if len(b) == 0 {
		return unsure, 0
	}
	if n.always {
		if !n.valid {
			return invalid, 0
		}
		end, ok := e.idx.valueEnd(b, 0)
		if !ok {
			return unsure, 0
		}
		return valid, end
	}
	if e.same >= maxSameValue {
		return unsure, 0
	}
	// Counted without a defer, which costs more than the rest of reading
	// a short value: no path out of readValue panics.
	e.same++
	v, end := e.readValue(n, b)
	e.same--
	return v, end
}

// readValue is read past the plans that decide alone and the count of
// plans reading the same value.
func (e *evaluator) readValue(n *node, b []byte) (verdict, int) {
	t := kindOf(b)
	if t == 0 {
		return unsure, 0
	}
	if n.types != 0 && n.types&t == 0 && !(n.types&tInteger != 0 && t == tNumber) {
		return invalid, 0
	}
	if n.typeOnly && n.types&t != 0 {
		// Of the type asked for, and nothing else asked: valid.
		end, ok := e.idx.valueEnd(b, 0)
		if !ok {
			return unsure, 0
		}
		return valid, end
	}
	// The keywords of objects and arrays first: reading the value, they
	// find where it ends. Before 2019-09, $ref hides them.
	end := -1
	if !n.refOnly {
		var v verdict
		switch {
		case t == tObject && !n.noObject:
			v, end = e.object(n, b)
		case t == tArray && !n.noArray:
			v, end = e.array(n, b)
		}
		if v != valid {
			return v, 0
		}
	}
	if end < 0 {
		var ok bool
		if end, ok = e.idx.valueEnd(b, 0); !ok {
			return unsure, 0
		}
	}
	b = b[:end]
	if n.types != 0 && n.types&t == 0 {
		// Only "integer" can still match a number.
		if v := e.isInteger(b); v != valid {
			return v, 0
		}
	}
	if n.konst != nil {
		if v := e.equal(b, t, n.konst); v != valid {
			return v, 0
		}
	}
	if n.enum != nil {
		matched := false
		for i := range n.enum {
			switch e.equal(b, t, &n.enum[i]) {
			case valid:
				matched = true
			case unsure:
				return unsure, 0
			}
			if matched {
				break
			}
		}
		if !matched {
			return invalid, 0
		}
	}
	if n.format != nil {
		var v any
		if t == tString {
			s, ok := unquote(b[1:len(b)-1], nil)
			if !ok {
				return unsure, 0
			}
			v = string(s)
		} else {
			var ok bool
			if v, ok = e.decode(b); !ok {
				return unsure, 0
			}
		}
		if n.format.Validate(v) != nil {
			return invalid, 0
		}
	}
	if n.ref != nil {
		v := e.check(n.ref, b)
		if n.refOnly || v != valid {
			return v, end
		}
	}
	var v verdict
	switch t {
	case tString:
		v = e.str(n, b)
	case tNumber:
		v = e.number(n, b)
	}
	if v != valid {
		return v, 0
	}
	return e.conditions(n, b), end
}

// sub runs n on the same value b, in a chain.
func (e *evaluator) sub(n *node, b []byte) verdict { return e.check(n, b) }

// inner reads a value inside another (a member, an element) with n: a new
// chain starts.
func (e *evaluator) inner(n *node, b []byte) (verdict, int) {
	same := e.same
	e.same = 0
	v, end := e.read(n, b)
	e.same = same
	return v, end
}

// conditions runs not, allOf, anyOf, oneOf and if/then/else.
func (e *evaluator) conditions(n *node, b []byte) verdict {
	if n.not != nil {
		switch e.sub(n.not, b) {
		case valid:
			return invalid
		case unsure:
			return unsure
		}
	}
	for _, a := range n.allOf {
		if v := e.sub(a, b); v != valid {
			return v
		}
	}
	if len(n.anyOf) > 0 {
		result := invalid
		for _, a := range n.anyOf {
			v := e.sub(a, b)
			if v == valid {
				result = valid
				break
			}
			if v == unsure {
				result = unsure
			}
		}
		if result != valid {
			return result
		}
	}
	if len(n.oneOf) > 0 {
		matched := 0
		for _, a := range n.oneOf {
			switch e.sub(a, b) {
			case valid:
				matched++
			case unsure:
				return unsure
			}
		}
		if matched != 1 {
			return invalid
		}
	}
	if n.ifN != nil {
		switch e.sub(n.ifN, b) {
		case valid:
			if n.thenN != nil {
				return e.sub(n.thenN, b)
			}
		case invalid:
			if n.elseN != nil {
				return e.sub(n.elseN, b)
			}
		default:
			return unsure
		}
	}
	return valid
}

// object checks the object keywords of n on the object that starts b and
// returns its length when it is valid.
func (e *evaluator) object(n *node, b []byte) (verdict, int) {
	// Presence of the names required, as bits; the rare keywords that need
	// the names themselves read them once the object's end is known.
	var seen uint64
	needs := len(n.required) <= 64 && len(n.depRequired) == 0 && len(n.depSchemas) == 0 && n.minProps < 0 && n.maxProps < 0
	// The names read so far: a member named twice makes the plan unsure,
	// since the decoder keeps the last one only and the schemas applied to
	// the first would judge a value that is not there.
	var named nameSet
	i := jsonparse.SkipSpace(b, 1)
	if i >= len(b) {
		return unsure, 0
	}
	if b[i] == '}' {
		i++
	} else {
		for {
			if i >= len(b) || b[i] != '"' {
				return unsure, 0
			}
			nend, ok := e.idx.stringEnd(b, i)
			if !ok {
				return unsure, 0
			}
			// The member's property, looked up first by its name as
			// written, which is its name unless it holds an escape.
			raw := b[i+1 : nend-1]
			var prop *propName
			if n.names.raw {
				prop = n.names.find(raw)
			}
			name := raw
			if prop == nil {
				if name, ok = unquote(raw, nil); !ok {
					return unsure, 0
				}
				// An escape makes the name shorter than its text.
				if !n.names.raw || len(name) != len(raw) {
					prop = n.names.find(name)
				}
			}
			if !e.unique && !named.add(name) {
				return unsure, 0
			}
			i = jsonparse.SkipSpace(b, nend)
			if i >= len(b) || b[i] != ':' {
				return unsure, 0
			}
			i = jsonparse.SkipSpace(b, i+1)
			if needs {
				if prop != nil {
					seen |= prop.req
				}
				if n.names.other {
					for k, r := range n.required {
						if r == string(name) {
							seen |= 1 << k
						}
					}
				}
			}
			// The member's value: read by the first schema that applies,
			// checked by the others on its text.
			vlen := -1
			apply := func(sub *node) verdict {
				if vlen < 0 {
					v, l := e.inner(sub, b[i:])
					vlen = l
					return v
				}
				same := e.same
				e.same = 0
				v := e.check(sub, b[i:i+vlen])
				e.same = same
				return v
			}
			v, evaluated := valid, false
			if prop != nil {
				evaluated = true
				v = apply(prop.n)
			}
			if v == valid && len(n.patterns) > 0 {
				s := string(name)
				for _, pp := range n.patterns {
					m, err := matchPattern(pp.re, s)
					if err != nil {
						return unsure, 0
					}
					if m {
						evaluated = true
						if v = apply(pp.n); v != valid {
							break
						}
					}
				}
			}
			if v == valid && !evaluated && n.addl != nil {
				v = apply(n.addl)
			}
			if v == invalid && !e.unique && e.namedAgain(b, i, &named) {
				// The member that fails may not be the one the decoder
				// keeps.
				v = unsure
			}
			if v != valid {
				return v, 0
			}
			if vlen < 0 {
				end, ok := e.idx.valueEnd(b, i)
				if !ok {
					return unsure, 0
				}
				vlen = end - i
			}
			i = jsonparse.SkipSpace(b, i+vlen)
			if i >= len(b) {
				return unsure, 0
			}
			if b[i] == '}' {
				i++
				break
			}
			if b[i] != ',' {
				return unsure, 0
			}
			i = jsonparse.SkipSpace(b, i+1)
		}
	}
	if needs {
		if len(n.required) > 0 && seen != 1<<len(n.required)-1 {
			return invalid, 0
		}
		return valid, i
	}
	// The rare keywords: the object's names, decoded.
	obj := b[:i]
	names := map[string]bool{}
	if !e.idx.members(obj, func(rawName, _ []byte) bool {
		name, ok := unquote(rawName, nil)
		if ok {
			names[string(name)] = true
		}
		return ok
	}) {
		return unsure, 0
	}
	if n.minProps >= 0 && len(names) < n.minProps || n.maxProps >= 0 && len(names) > n.maxProps {
		return invalid, 0
	}
	for _, r := range n.required {
		if !names[r] {
			return invalid, 0
		}
	}
	for k, reqs := range n.depRequired {
		if names[k] {
			for _, r := range reqs {
				if !names[r] {
					return invalid, 0
				}
			}
		}
	}
	for k, dn := range n.depSchemas {
		if names[k] {
			if v := e.sub(dn, obj); v != valid {
				return v, 0
			}
		}
	}
	return valid, i
}

// namedAgain reports whether a member of the object text b after the one
// whose value starts at b[i] has a name named already, as far as named
// holds them (or whether the rest cannot be read).
func (e *evaluator) namedAgain(b []byte, i int, named *nameSet) bool {
	for {
		end, ok := e.idx.valueEnd(b, i)
		if !ok {
			return true
		}
		i = jsonparse.SkipSpace(b, end)
		if i < len(b) && b[i] == '}' {
			return false
		}
		if i >= len(b) || b[i] != ',' {
			return true
		}
		i = jsonparse.SkipSpace(b, i+1)
		if i >= len(b) || b[i] != '"' {
			return true
		}
		nend, ok := e.idx.stringEnd(b, i)
		if !ok {
			return true
		}
		name, ok := unquote(b[i+1:nend-1], nil)
		if !ok || !named.add(name) {
			return true
		}
		i = jsonparse.SkipSpace(b, nend)
		if i >= len(b) || b[i] != ':' {
			return true
		}
		i = jsonparse.SkipSpace(b, i+1)
	}
}

// nameSet holds the member names of one object, to find one named twice:
// a few in place, more in a map.
type nameSet struct {
	few  [8][]byte
	n    int
	many map[string]struct{}
}

// add adds name and reports whether it was not there yet.
func (s *nameSet) add(name []byte) bool {
	if s.many == nil {
		for _, m := range s.few[:s.n] {
			if bytes.Equal(m, name) {
				return false
			}
		}
		if s.n < len(s.few) {
			s.few[s.n] = name
			s.n++
			return true
		}
		s.many = make(map[string]struct{}, 2*len(s.few))
		for _, m := range s.few {
			s.many[string(m)] = struct{}{}
		}
	}
	if _, ok := s.many[string(name)]; ok {
		return false
	}
	s.many[string(name)] = struct{}{}
	return true
}

// array checks the array keywords of n on the array that starts b and
// returns its length when it is valid.
func (e *evaluator) array(n *node, b []byte) (verdict, int) {
	count, matched := 0, 0
	i := jsonparse.SkipSpace(b, 1)
	if i >= len(b) {
		return unsure, 0
	}
	if b[i] == ']' {
		i++
	} else {
		for {
			// prefixItems (or a draft-07 items array), then items, else
			// (before 2020-12) additionalItems, as jsonschema applies them.
			var it *node
			switch {
			case count < len(n.prefix):
				it = n.prefix[count]
			case n.items != nil:
				it = n.items
			default:
				it = n.addlItems
			}
			count++
			vlen := -1
			if it != nil {
				v, l := e.inner(it, b[i:])
				if v != valid {
					return v, 0
				}
				vlen = l
			}
			if vlen < 0 {
				end, ok := e.idx.valueEnd(b, i)
				if !ok {
					return unsure, 0
				}
				vlen = end - i
			}
			if n.contains != nil {
				same := e.same
				e.same = 0
				v := e.check(n.contains, b[i:i+vlen])
				e.same = same
				switch v {
				case valid:
					matched++
				case unsure:
					return unsure, 0
				}
			}
			i = jsonparse.SkipSpace(b, i+vlen)
			if i >= len(b) {
				return unsure, 0
			}
			if b[i] == ']' {
				i++
				break
			}
			if b[i] != ',' {
				return unsure, 0
			}
			i = jsonparse.SkipSpace(b, i+1)
		}
	}
	if n.minItems >= 0 && count < n.minItems || n.maxItems >= 0 && count > n.maxItems {
		return invalid, 0
	}
	if n.contains != nil {
		if n.minContains >= 0 {
			if matched < n.minContains {
				return invalid, 0
			}
		} else if matched == 0 {
			return invalid, 0
		}
		if n.maxContains >= 0 && matched > n.maxContains {
			return invalid, 0
		}
	}
	return valid, i
}

func (e *evaluator) str(n *node, b []byte) verdict {
	if n.minLen < 0 && n.maxLen < 0 && n.pattern == nil {
		return valid
	}
	s, ok := unquote(b[1:len(b)-1], nil)
	if !ok {
		return unsure
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCount(s)
		if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return invalid
		}
	}
	if n.pattern != nil {
		m, err := matchPattern(n.pattern, string(s))
		if err != nil {
			return unsure
		}
		if !m {
			return invalid
		}
	}
	return valid
}

func (e *evaluator) number(n *node, b []byte) verdict {
	if n.min == nil && n.max == nil && n.exMin == nil && n.exMax == nil && n.multipleOf == nil {
		return valid
	}
	if bignum.TooBig(b) {
		return unsure
	}
	r, ok := new(big.Rat).SetString(string(b))
	if !ok {
		return unsure
	}
	switch {
	case n.min != nil && r.Cmp(n.min) < 0,
		n.max != nil && r.Cmp(n.max) > 0,
		n.exMin != nil && r.Cmp(n.exMin) <= 0,
		n.exMax != nil && r.Cmp(n.exMax) >= 0:
		return invalid
	}
	if n.multipleOf != nil {
		if n.multipleOf.Sign() == 0 {
			return unsure
		}
		if !new(big.Rat).Quo(r, n.multipleOf).IsInt() {
			return invalid
		}
	}
	return valid
}

// isInteger tells whether the number text b has an integer value. One
// too big to compute with is unsure even when written in digits alone:
// type "integer" needs its value (see bignum.TooBig), as it does without a plan.
func (e *evaluator) isInteger(b []byte) verdict {
	if bignum.TooBig(b) {
		return unsure
	}
	plain := true
	for _, c := range b {
		if c == '.' || c == 'e' || c == 'E' {
			plain = false
			break
		}
	}
	if plain {
		return valid
	}
	r, ok := new(big.Rat).SetString(string(b))
	if !ok {
		return unsure
	}
	if r.IsInt() {
		return valid
	}
	return invalid
}

// equal tells whether the value text b, of type t, equals c as
// jsonschema compares values (numbers by their exact value).
func (e *evaluator) equal(b []byte, t uint8, c *constant) verdict {
	if t != c.kind {
		return invalid
	}
	switch t {
	case tNull:
		return valid
	case tBoolean:
		if (b[0] == 't') == c.b {
			return valid
		}
		return invalid
	case tString:
		s, ok := unquote(b[1:len(b)-1], nil)
		if !ok {
			return unsure
		}
		if string(s) == c.s {
			return valid
		}
		return invalid
	case tNumber:
		if bignum.TooBig(b) {
			return unsure
		}
		r, ok := new(big.Rat).SetString(string(b))
		if !ok {
			return unsure
		}
		if r.Cmp(c.num) == 0 {
			return valid
		}
		return invalid
	}
	v, ok := e.decode(b)
	if !ok {
		return unsure
	}
	eq, ok := jsonEqual(v, c.v)
	switch {
	case !ok:
		return unsure
	case eq:
		return valid
	}
	return invalid
}

// decode decodes the value text b as the log reader does.
func (e *evaluator) decode(b []byte) (any, bool) {
	e.parser.MaxDepth = 10000
	v, err := e.parser.Parse(b)
	return v, err == nil
}

// kindOf returns the JSON type of the value text b by its first byte, or 0.
func kindOf(b []byte) uint8 {
	switch b[0] {
	case '{':
		return tObject
	case '[':
		return tArray
	case '"':
		if len(b) < 2 {
			return 0
		}
		return tString
	case 't', 'f':
		return tBoolean
	case 'n':
		return tNull
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return tNumber
	}
	return 0
}

// ratOf returns the exact value of a number as jsonschema decodes one; ok
// is false for a number too big to compute with (see bignum.TooBig).
func ratOf(v any) (*big.Rat, bool) {
	switch v.(type) {
	case string, bool, nil, map[string]any, []any:
		return nil, false
	}
	s := fmt.Sprint(v)
	if bignum.TooBig(s) {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// jsonEqual compares two decoded JSON values as jsonschema does: objects
// and arrays member by member, numbers by exact value. ok is false for a
// value that is not JSON.
func jsonEqual(a, b any) (eq, ok bool) {
	switch x := a.(type) {
	case map[string]any:
		y, isObj := b.(map[string]any)
		if !isObj || len(x) != len(y) {
			return false, true
		}
		for k, xv := range x {
			yv, found := y[k]
			if !found {
				return false, true
			}
			if eq, ok := jsonEqual(xv, yv); !eq || !ok {
				return eq, ok
			}
		}
		return true, true
	case []any:
		y, isArr := b.([]any)
		if !isArr || len(x) != len(y) {
			return false, true
		}
		for i := range x {
			if eq, ok := jsonEqual(x[i], y[i]); !eq || !ok {
				return eq, ok
			}
		}
		return true, true
	case nil:
		return b == nil, true
	case bool:
		y, isBool := b.(bool)
		return isBool && x == y, true
	case string:
		y, isStr := b.(string)
		return isStr && x == y, true
	}
	ra, ok := ratOf(a)
	if !ok {
		return false, false
	}
	switch b.(type) {
	case string, bool, nil, map[string]any, []any:
		return false, true
	}
	rb, ok := ratOf(b)
	if !ok {
		return false, false
	}
	return ra.Cmp(rb) == 0, true
}
