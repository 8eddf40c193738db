package schema

// Patterns. JSON Schema's "pattern" and "patternProperties" are ECMA-262
// regular expressions, which ajv compiles with the "u" flag: lookarounds
// and back references, \s matching U+00A0 and the other Unicode spaces,
// \d and \w ASCII only. Go's regexp reads another dialect, so patterns are
// compiled with regexp2 in its ECMAScript and Unicode modes (see
// format.CompileRegexp; as regexp2 does, it also takes patterns the "u"
// flag refuses, such as \# or a lone ], as ECMA-262 reads them without
// it: schemas written for Python's re hold them). regexp2
// backtracks, which a pattern can make exponential: every match has a time
// limit, and a match that runs out of time, or of backtracking stack, is a
// problem "could not be checked" naming the pattern and the value.

import (
	"maps"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/schema/format"
)

// MatchTimeout is how long one match of a pattern against one string may
// take (regexp2 checks its clock about every 100 ms, so a match that times
// out may run that much longer).
const MatchTimeout = time.Second

// maxBacktrack bounds regexp2's backtracking stack, in slots of 8 bytes.
const maxBacktrack = 1 << 20

// pattern is a pattern compiled as ECMA-262 says. It is safe for
// concurrent use.
type pattern struct {
	re *regexp2.Regexp
	// timedOut is the last string a match timed out on: trying it again
	// (jsonschema after a plan gave up on it) fails at once.
	timedOut atomic.Pointer[string]
}

// compilePattern compiles an ECMA-262 pattern; it is the RegexpEngine of
// every jsonschema compiler jrpcld makes.
func compilePattern(expr string) (jsonschema.Regexp, error) {
	re, err := format.CompileRegexp(expr, true, maxBacktrack)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = MatchTimeout
	return &pattern{re: re}, nil
}

func (p *pattern) String() string { return p.re.String() }

// match reports whether s holds a match of p; the error is a
// *PatternError when the match could not be completed.
func (p *pattern) match(s string) (bool, error) {
	if last := p.timedOut.Load(); last != nil && *last == s {
		return false, &PatternError{Pattern: p.String(), Subject: s, Err: errGaveUp}
	}
	ok, err := p.re.MatchString(s)
	if err != nil {
		p.timedOut.Store(&s)
		return false, &PatternError{Pattern: p.String(), Subject: s, Err: err}
	}
	return ok, nil
}

// MatchString is the method jsonschema calls, which has no error to
// return: a match that cannot be completed panics with its *PatternError,
// which validateWith recovers and reports.
func (p *pattern) MatchString(s string) bool {
	ok, err := p.match(s)
	if err != nil {
		panic(err)
	}
	return ok
}

// matchPattern matches s against re, a pattern jsonschema compiled with
// compilePattern (or, in tests, Go's regexp).
func matchPattern(re jsonschema.Regexp, s string) (bool, error) {
	if p, ok := re.(*pattern); ok {
		return p.match(s)
	}
	return re.MatchString(s), nil
}

// stringAt returns the JSON pointer (after prefix) of the first string of
// v, a value or a member name, in the order of v (members by name), equal
// to str.
func stringAt(v any, str, prefix string) (string, bool) {
	switch x := v.(type) {
	case string:
		return prefix, x == str
	case []any:
		for i, e := range x {
			if p, ok := stringAt(e, str, prefix+"/"+strconv.Itoa(i)); ok {
				return p, true
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p := prefix + "/" + jsonptr.Escape(k)
			if k == str {
				return p, true
			}
			if p, ok := stringAt(x[k], str, p); ok {
				return p, true
			}
		}
	}
	return "", false
}
