package schema

import (
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
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

// evaluator runs plans; it keeps scratch space between values. It is not
// safe for concurrent use.
type evaluator struct {
	buf  []byte // unescaped strings
	same int    // schemas applied to the current value in a chain
}

// run runs the plan n on the value text b (no white space around it).
func (e *evaluator) run(n *node, b []byte) verdict {
	e.same = 0
	return e.check(n, b)
}

// check runs n on the value text b (no white space around it).
func (e *evaluator) check(n *node, b []byte) verdict {
	if n.always {
		if n.valid {
			return valid
		}
		return invalid
	}
	e.same++
	defer func() { e.same-- }()
	if e.same > maxSameValue {
		return unsure
	}
	if len(b) == 0 {
		return unsure
	}
	t := kindOf(b)
	if t == 0 {
		return unsure
	}
	if n.types != 0 && n.types&t == 0 {
		if !(n.types&tInteger != 0 && t == tNumber) {
			return invalid
		}
		if v := e.isInteger(b); v != valid {
			return v
		}
	}
	if n.konst != nil {
		if v := e.equal(b, t, n.konst); v != valid {
			return v
		}
	}
	if n.enum != nil {
		matched := false
		for i := range n.enum {
			switch e.equal(b, t, &n.enum[i]) {
			case valid:
				matched = true
			case unsure:
				return unsure
			}
			if matched {
				break
			}
		}
		if !matched {
			return invalid
		}
	}
	if n.format != nil {
		var v any
		if t == tString {
			s, ok := unquote(b[1:len(b)-1], e.buf)
			if !ok {
				return unsure
			}
			v = string(s)
		} else {
			var ok bool
			if v, ok = e.decode(b); !ok {
				return unsure
			}
		}
		if n.format.Validate(v) != nil {
			return invalid
		}
	}
	if n.ref != nil {
		v := e.sub(n.ref, b)
		if n.refOnly || v != valid {
			return v
		}
	}
	var v verdict
	switch t {
	case tObject:
		v = e.object(n, b)
	case tArray:
		v = e.array(n, b)
	case tString:
		v = e.str(n, b)
	case tNumber:
		v = e.number(n, b)
	}
	if v != valid {
		return v
	}
	return e.conditions(n, b)
}

// sub runs n on the same value b, in a chain.
func (e *evaluator) sub(n *node, b []byte) verdict { return e.check(n, b) }

// inner runs n on a value inside b: a new chain starts.
func (e *evaluator) inner(n *node, b []byte) verdict {
	if n.always {
		if n.valid {
			return valid
		}
		return invalid
	}
	same := e.same
	e.same = 0
	v := e.check(n, b)
	e.same = same
	return v
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

func (e *evaluator) object(n *node, b []byte) verdict {
	// Presence of the names required, and of those dependencies name, as
	// bits; past 64, as jsonschema does it, name by name.
	var seen uint64
	needs := len(n.required) <= 64 && len(n.depRequired) == 0 && len(n.depSchemas) == 0 && n.minProps < 0 && n.maxProps < 0
	result := valid
	ok := members(b, func(rawName, val []byte) bool {
		name, ok := unquote(rawName, e.buf)
		if !ok {
			result = unsure
			return false
		}
		if needs {
			for i, r := range n.required {
				if r == string(name) {
					seen |= 1 << i
				}
			}
		}
		evaluated := false
		if pn, ok := n.props[string(name)]; ok {
			evaluated = true
			if v := e.inner(pn, val); v != valid {
				result = v
				return false
			}
		}
		if len(n.patterns) > 0 {
			s := string(name)
			for _, pp := range n.patterns {
				if pp.re.MatchString(s) {
					evaluated = true
					if v := e.inner(pp.n, val); v != valid {
						result = v
						return false
					}
				}
			}
		}
		if !evaluated && n.addl != nil {
			if v := e.inner(n.addl, val); v != valid {
				result = v
				return false
			}
		}
		return true
	})
	if !ok {
		return unsure
	}
	if result != valid {
		return result
	}
	if needs {
		if len(n.required) > 0 && seen != 1<<len(n.required)-1 {
			return invalid
		}
		return valid
	}
	// The rare keywords: the object's names, decoded.
	names := map[string]bool{}
	if !members(b, func(rawName, _ []byte) bool {
		name, ok := unquote(rawName, e.buf)
		if ok {
			names[string(name)] = true
		}
		return ok
	}) {
		return unsure
	}
	if n.minProps >= 0 && len(names) < n.minProps || n.maxProps >= 0 && len(names) > n.maxProps {
		return invalid
	}
	for _, r := range n.required {
		if !names[r] {
			return invalid
		}
	}
	for k, reqs := range n.depRequired {
		if names[k] {
			for _, r := range reqs {
				if !names[r] {
					return invalid
				}
			}
		}
	}
	for k, dn := range n.depSchemas {
		if names[k] {
			if v := e.sub(dn, b); v != valid {
				return v
			}
		}
	}
	return valid
}

func (e *evaluator) array(n *node, b []byte) verdict {
	result := valid
	count, matched := 0, 0
	ok := elements(b, func(i int, val []byte) bool {
		count++
		// prefixItems (or a draft-07 items array), then items, else (before
		// 2020-12) additionalItems, as jsonschema applies them.
		var it *node
		switch {
		case i < len(n.prefix):
			it = n.prefix[i]
		case n.items != nil:
			it = n.items
		default:
			it = n.addlItems
		}
		if it != nil {
			if v := e.inner(it, val); v != valid {
				result = v
				return false
			}
		}
		if n.contains != nil {
			switch e.inner(n.contains, val) {
			case valid:
				matched++
			case unsure:
				result = unsure
				return false
			}
		}
		return true
	})
	if !ok {
		return unsure
	}
	if result != valid {
		return result
	}
	if n.minItems >= 0 && count < n.minItems || n.maxItems >= 0 && count > n.maxItems {
		return invalid
	}
	if n.contains != nil {
		if n.minContains >= 0 {
			if matched < n.minContains {
				return invalid
			}
		} else if matched == 0 {
			return invalid
		}
		if n.maxContains >= 0 && matched > n.maxContains {
			return invalid
		}
	}
	return valid
}

func (e *evaluator) str(n *node, b []byte) verdict {
	if n.minLen < 0 && n.maxLen < 0 && n.pattern == nil {
		return valid
	}
	s, ok := unquote(b[1:len(b)-1], e.buf)
	if !ok {
		return unsure
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCount(s)
		if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return invalid
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(string(s)) {
		return invalid
	}
	return valid
}

func (e *evaluator) number(n *node, b []byte) verdict {
	if n.min == nil && n.max == nil && n.exMin == nil && n.exMax == nil && n.multipleOf == nil {
		return valid
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

// isInteger tells whether the number text b has an integer value.
func (e *evaluator) isInteger(b []byte) verdict {
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
		s, ok := unquote(b[1:len(b)-1], e.buf)
		if !ok {
			return unsure
		}
		if string(s) == c.s {
			return valid
		}
		return invalid
	case tNumber:
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
	p := jsonparse.Parser{MaxDepth: 10000}
	v, err := p.Parse(b)
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

// ratOf returns the exact value of a number as jsonschema decodes one.
func ratOf(v any) (*big.Rat, bool) {
	switch v.(type) {
	case string, bool, nil, map[string]any, []any:
		return nil, false
	}
	return new(big.Rat).SetString(fmt.Sprint(v))
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
	rb, ok := ratOf(b)
	if !ok {
		return false, true
	}
	return ra.Cmp(rb) == 0, true
}
