package format

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// CompileRegexp compiles an ECMA-262 regular expression, with the "u" flag
// when unicode is set (as ajv compiles "pattern") or without flags (as
// ajv-formats checks "regex"), with regexp2 in its ECMAScript mode.
// regexp2 reads some of .NET's groups in that mode too ((?>...), (?x),
// (?(...)...), (?<a-b>...), (?'a'...)), which ECMA-262 refuses: so does
// CompileRegexp. maxBacktrack bounds regexp2's backtracking stack, in
// slots.
func CompileRegexp(expr string, unicodeMode bool, maxBacktrack int) (*regexp2.Regexp, error) {
	if err := onlyECMAGroups(expr); err != nil {
		return nil, err
	}
	opts := regexp2.ECMAScript
	if unicodeMode {
		opts |= regexp2.Unicode
	}
	return regexp2.Compile(expr, opts, regexp2.OptionMaxBacktrackingStackSize(maxBacktrack))
}

// onlyECMAGroups returns an error for a group of expr that ECMA-262 does
// not have: "(?" must be followed by ":", "=", "!", "<=", "<!" or "<" and a
// group name and ">".
func onlyECMAGroups(expr string) error {
	inClass := false
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(' && i+2 < len(expr) && expr[i+1] == '?':
			switch rest := expr[i+2:]; {
			case rest[0] == ':', rest[0] == '=', rest[0] == '!':
			case len(rest) > 1 && rest[0] == '<' && (rest[1] == '=' || rest[1] == '!'):
			case rest[0] == '<':
				if !groupName(rest[1:]) {
					return fmt.Errorf("invalid group name at offset %d", i)
				}
			default:
				return fmt.Errorf("invalid group at offset %d: (?%c is not ECMA-262", i, rest[0])
			}
		case c == '(' && i+1 < len(expr) && expr[i+1] == '?':
			return errors.New("invalid group at the end")
		}
	}
	return nil
}

// groupName reports whether s starts with an identifier and ">".
func groupName(s string) bool {
	for i, r := range s {
		switch {
		case r == '>':
			return i > 0
		case r == '$', r == '_', unicode.IsLetter(r), r == '\\':
		case i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || r == 0x200c || r == 0x200d):
		default:
			return false
		}
		if r == utf8.RuneError {
			return false
		}
	}
	return false
}
