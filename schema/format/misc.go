package format

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// isUUID: 8-4-4-4-12 hexadecimal digits, optionally after "urn:uuid:".
func isUUID(s string) bool {
	if len(s) > 9 && strings.EqualFold(s[:9], "urn:uuid:") {
		s = s[9:]
	}
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return false
			}
		} else if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// isJSONPointer: empty, or "/" and tokens in which "~" is followed by 0 or
// 1 (RFC 6901).
func isJSONPointer(s string) bool {
	if s != "" && s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || s[i+1] != '0' && s[i+1] != '1') {
			return false
		}
	}
	return true
}

// isJSONPointerFragment: "#" and a JSON pointer written as a URI fragment:
// letters, digits, -._!$&'()*+,;:=@ and percent-encoded octets.
func isJSONPointerFragment(s string) bool {
	p, ok := strings.CutPrefix(s, "#")
	return ok && isJSONPointer(p) &&
		run(p, func(c byte) bool { return isAlnum(c) || strings.IndexByte("/~_-.!$&'()*+,;:=@", c) >= 0 })
}

// isRelativeJSONPointer: a number without leading zeros, then "#" or a
// JSON pointer.
func isRelativeJSONPointer(s string) bool {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i > 1 && s[0] == '0' {
		return false
	}
	return s[i:] == "#" || isJSONPointer(s[i:])
}

// checkRegex: a pattern ECMA-262 compiles without flags, and without
// "\Z" after a character other than a backslash (ajv-formats refuses that
// anchor, which ECMA-262 reads as the letter Z).
func checkRegex(s string) error {
	for i := 1; i+1 < len(s); i++ {
		if s[i] == '\\' && s[i+1] == 'Z' && s[i-1] != '\\' {
			return errors.New(`\Z is not an anchor in ECMA-262`)
		}
	}
	if _, err := CompileRegexp(s, false, 0); err != nil {
		return err
	}
	return nil
}

// checkBase64: groups of four characters of A-Z a-z 0-9 + /, the last of
// which may end in "=" or "==" (RFC 4648, section 4). ajv-formats 3.0.1
// accepts a string when any one of its lines is such; this package
// requires the whole string to be.
func checkBase64(s string) error {
	if len(s)%4 != 0 {
		return errors.New("base64: length is not a multiple of 4")
	}
	pad := 0
	switch {
	case strings.HasSuffix(s, "=="):
		pad = 2
	case strings.HasSuffix(s, "="):
		pad = 1
	}
	for i := 0; i < len(s)-pad; i++ {
		if c := s[i]; !isAlnum(c) && c != '+' && c != '/' {
			return fmt.Errorf("base64: character %q at %d", c, i)
		}
	}
	return nil
}

// decimal is a JSON number's value as digits and a power of ten:
// digits × 10^exp, digits without leading or trailing zeros ("" for zero).
type decimal struct {
	neg    bool
	digits string
	exp    int // saturated at ±(1<<30)
}

// parseDecimal reads a JSON number's text, whatever its length.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" || !allDigits(intPart) || !allDigits(frac) {
		return d, false
	}
	e := 0
	if hasExp {
		sign := 1
		switch {
		case strings.HasPrefix(exp, "-"):
			sign, exp = -1, exp[1:]
		case strings.HasPrefix(exp, "+"):
			exp = exp[1:]
		}
		if exp == "" || !allDigits(exp) {
			return d, false
		}
		for i := 0; i < len(exp); i++ {
			if e < 1<<30 {
				e = 10*e + int(exp[i]-'0')
			}
		}
		e = min(e, 1<<30) * sign
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	e += len(digits) - len(trimmed) - len(frac)
	d.digits, d.exp = trimmed, e
	if d.digits == "" {
		d.neg, d.exp = false, 0
	}
	return d, true
}

// integer reports whether d has no fractional part.
func (d decimal) integer() bool { return d.exp >= 0 }

// int64 returns d when it is an integer of at most 18 digits.
func (d decimal) int64() (int64, bool) {
	if !d.integer() || len(d.digits)+d.exp > 18 {
		return 0, false
	}
	n, _ := strconv.ParseInt(d.digits+strings.Repeat("0", d.exp), 10, 64)
	if d.neg {
		n = -n
	}
	return n, true
}

// checkInt32: an integer from -2^31 to 2^31-1.
func checkInt32(s string) error {
	d, ok := parseDecimal(s)
	if !ok || !d.integer() {
		return errNotInteger
	}
	if n, ok := d.int64(); !ok || n < -1<<31 || n > 1<<31-1 {
		return errors.New("out of the range of int32")
	}
	return nil
}

// checkInt64: an integer, of any size (ajv-formats: "any int that passes
// isInteger is valid for Int64").
func checkInt64(s string) error {
	d, ok := parseDecimal(s)
	if !ok || !d.integer() {
		return errNotInteger
	}
	return nil
}
