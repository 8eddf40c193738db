// Package format checks the values of JSON Schema's "format" keyword as
// ajv-formats checks them (version 3, in its default "full" mode): the
// formats most JSON Schema validators in JavaScript assert, and the MCP
// SDKs with them. Each check reads the value's text once, by hand rather
// than with ajv-formats' regular expressions, so that no value makes it
// backtrack.
//
// Where ajv-formats is wrong, this package departs from it on purpose:
// "byte" is base64 on every line, not on any one line (ajv-formats 3.0.1
// accepts "!!!\nQUJD" and every string that ends in a line break), and
// numbers are read exactly, not as JavaScript's doubles (int32 rejects
// 2147483647.0000000001, int64 accepts 1E400 as the integer it is).
package format

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Func checks one value, decoded as JSON (a string, a json.Number or
// another number type, ...). It returns nil when the value is valid, or
// of another type than the format checks (strings, or numbers for int32
// and int64).
type Func func(v any) error

// checks holds the formats, by name: a check of strings, or of numbers.
var checks = map[string]struct {
	str func(string) error
	num func(string) error
}{
	"date":                      {str: boolCheck(isDate)},
	"time":                      {str: boolCheck(func(s string) bool { return isTime(s, true) })},
	"date-time":                 {str: boolCheck(func(s string) bool { return isDateTime(s, true) })},
	"iso-time":                  {str: boolCheck(func(s string) bool { return isTime(s, false) })},
	"iso-date-time":             {str: boolCheck(func(s string) bool { return isDateTime(s, false) })},
	"duration":                  {str: boolCheck(isDuration)},
	"uri":                       {str: boolCheck(isURI)},
	"uri-reference":             {str: boolCheck(isURIReference)},
	"uri-template":              {str: boolCheck(isURITemplate)},
	"url":                       {str: boolCheck(isURL)},
	"email":                     {str: boolCheck(isEmail)},
	"hostname":                  {str: boolCheck(isHostname)},
	"ipv4":                      {str: boolCheck(func(s string) bool { return isIPv4(s, strictOctet) })},
	"ipv6":                      {str: boolCheck(func(s string) bool { return isIPv6(s, strictOctet) })},
	"regex":                     {str: checkRegex},
	"uuid":                      {str: boolCheck(isUUID)},
	"json-pointer":              {str: boolCheck(isJSONPointer)},
	"json-pointer-uri-fragment": {str: boolCheck(isJSONPointerFragment)},
	"relative-json-pointer":     {str: boolCheck(isRelativeJSONPointer)},
	"byte":                      {str: checkBase64},
	"int32":                     {num: checkInt32},
	"int64":                     {num: checkInt64},
	"float":                     {num: func(string) error { return nil }},
	"double":                    {num: func(string) error { return nil }},
	"password":                  {str: func(string) error { return nil }},
	"binary":                    {str: func(string) error { return nil }},
}

// Names returns the names of the formats, sorted.
func Names() []string {
	var out []string
	for n := range checks {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Lookup returns the check of the format name; ok is false for a format
// ajv-formats does not define, which ajv (with strict mode off) does not
// assert.
func Lookup(name string) (f Func, ok bool) {
	c, ok := checks[name]
	if !ok {
		return nil, false
	}
	if c.num != nil {
		return func(v any) error {
			switch x := v.(type) {
			case string, bool, nil, map[string]any, []any:
				return nil
			case json.Number:
				return c.num(string(x))
			default:
				return c.num(fmt.Sprint(x))
			}
		}, true
	}
	return func(v any) error {
		if s, ok := v.(string); ok {
			return c.str(s)
		}
		return nil
	}, true
}

func boolCheck(f func(string) bool) func(string) error {
	return func(s string) error {
		if f(s) {
			return nil
		}
		return errInvalid
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isAlnum(c byte) bool { return isDigit(c) || isAlpha(c) }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// isSpace reports whether r is white space or a line terminator as
// ECMA-262's \s means it.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}

// Dates and times (RFC 3339, section 5.6, as ajv-formats reads it).

var daysIn = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// isDate: YYYY-MM-DD, a day the month has.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !allDigits(s[:4]) || !allDigits(s[5:7]) || !allDigits(s[8:]) {
		return false
	}
	y, _ := strconv.Atoi(s[:4])
	m, _ := strconv.Atoi(s[5:7])
	d, _ := strconv.Atoi(s[8:])
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	max := daysIn[m]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		max = 29
	}
	return d <= max
}

// isTime: HH:MM:SS[.fraction] and a time zone (Z, +HH, +HHMM or +HH:MM;
// optional unless strict). Hours past 23, minutes past 59 and a second 60
// are accepted only as a leap second, at 23:59 UTC.
func isTime(s string, strict bool) bool {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' || !allDigits(s[:2]) || !allDigits(s[3:5]) || !allDigits(s[6:8]) {
		return false
	}
	i := 8
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	// The seconds as JavaScript reads them, a double: 59.99999999999999999
	// is 60.
	sec, _ := strconv.ParseFloat(s[6:i], 64)
	tzSign, tzH, tzM := 1, 0, 0
	switch tz := s[i:]; {
	case tz == "":
		if strict {
			return false
		}
	case tz == "z" || tz == "Z":
	case tz[0] == '+' || tz[0] == '-':
		if tz[0] == '-' {
			tzSign = -1
		}
		rest := tz[1:]
		switch {
		case len(rest) == 2 && allDigits(rest):
		case len(rest) == 4 && allDigits(rest):
			tzM, _ = strconv.Atoi(rest[2:])
		case len(rest) == 5 && rest[2] == ':' && allDigits(rest[:2]) && allDigits(rest[3:]):
			tzM, _ = strconv.Atoi(rest[3:])
		default:
			return false
		}
		tzH, _ = strconv.Atoi(rest[:2])
	default:
		return false
	}
	if tzH > 23 || tzM > 59 {
		return false
	}
	hr, _ := strconv.Atoi(s[:2])
	min, _ := strconv.Atoi(s[3:5])
	if hr <= 23 && min <= 59 && sec < 60 {
		return true
	}
	utcMin := min - tzM*tzSign
	utcHr := hr - tzH*tzSign
	if utcMin < 0 {
		utcHr--
	}
	return (utcHr == 23 || utcHr == -1) && (utcMin == 59 || utcMin == -1) && sec < 61
}

// isDateTime: a date and a time, separated by T, t or one white space
// character, and by nothing else of those.
func isDateTime(s string, strict bool) bool {
	sep, n := -1, 0
	for i, r := range s {
		if r == 't' || r == 'T' || isSpace(r) {
			if sep < 0 {
				sep, n = i, utf8.RuneLen(r)
			} else {
				return false
			}
		}
	}
	return sep >= 0 && isDate(s[:sep]) && isTime(s[sep+n:], strict)
}

// isDuration: P, then Y, M, D (each digits and its letter, in that order,
// each optional) and T with H, M, S (at least one), or weeks alone (W).
func isDuration(s string) bool {
	if len(s) < 2 || s[0] != 'P' {
		return false
	}
	rest := s[1:]
	if i := strings.IndexByte(rest, 'W'); i >= 0 {
		return i == len(rest)-1 && i > 0 && allDigits(rest[:i])
	}
	date, clock, hasT := strings.Cut(rest, "T")
	if !units(date, "YMD") {
		return false
	}
	if hasT {
		return clock != "" && isDigit(clock[0]) && units(clock, "HMS")
	}
	return true
}

// units reports whether s is a sequence of digits each followed by one of
// letters, the letters in their order, each at most once.
func units(s, letters string) bool {
	for s != "" {
		i := 0
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == 0 || i == len(s) {
			return false
		}
		k := strings.IndexByte(letters, s[i])
		if k < 0 {
			return false
		}
		letters, s = letters[k+1:], s[i+1:]
	}
	return true
}
