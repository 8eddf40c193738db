package jsonparse

import (
	"math/big"
	"strconv"
	"strings"
)

// SameNumber reports whether two JSON numbers, as written, have the same
// exact value: 1, 1.0 and 1e0 do; 0.1 and 0.10000000000000001 do not,
// although a double cannot tell them apart.
func SameNumber(a, b string) bool {
	if a == b {
		return true
	}
	na, ok1 := NormalNumber(a)
	nb, ok2 := NormalNumber(b)
	return ok1 && ok2 && na == nb
}

// NormalNumber returns a JSON number in a normal form, "0" or
// "[-]DIGITSeEXP" with no leading or trailing zeros in DIGITS, such that two
// numbers have the same value exactly when their normal forms are equal.
// It works on the text, so an exponent of any size costs nothing; ok is
// false when s is not a number as JSON writes one.
func NormalNumber(s string) (normal string, ok bool) {
	if !IsNumber(s) {
		return "", false
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(s, "E")
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	all := intPart + frac
	digits := strings.TrimLeft(all, "0")
	if digits == "" {
		return "0", true
	}
	// The value is 0.DIGITS × 10^point, point counted from the first
	// significant digit.
	lead := len(all) - len(digits) // zeros before the first digit
	shift := int64(len(intPart) - lead)
	digits = strings.TrimRight(digits, "0")
	sign := ""
	if neg {
		sign = "-"
	}
	var point string
	e, err := int64(0), error(nil)
	if hasExp {
		e, err = strconv.ParseInt(strings.TrimPrefix(exp, "+"), 10, 64)
	}
	if err == nil && -1<<62 < e && e < 1<<62 {
		point = strconv.FormatInt(e+shift, 10)
	} else {
		b, _ := new(big.Int).SetString(strings.TrimPrefix(exp, "+"), 10) // IsNumber checked the digits
		point = b.Add(b, big.NewInt(shift)).String()
	}
	return sign + digits + "e" + point, true
}

// IsNumber reports whether s is a number as JSON writes one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func IsNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigitsIn(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigitsIn(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigitsIn(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// skipDigitsIn returns the index of the first byte at or after i in s that is
// not an ASCII digit.
func skipDigitsIn(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
