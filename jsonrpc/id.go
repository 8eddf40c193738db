package jsonrpc

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// IDKey returns a string that identifies a JSON-RPC id by type and value:
// a string id "1" and a number id 1 have different keys, and numbers equal
// in value (1, 1.0, 1e0, 10e-1) have the same key, whatever their size.
func IDKey(id any) string {
	switch x := id.(type) {
	case nil:
		return "z"
	case string:
		return "s" + x
	}
	if s, ok := numberText(id); ok {
		return numberKey(s)
	}
	return "?"
}

// numberText returns the JSON text of a number id as decoded (a
// json.Number, or a float64, int or int64); ok is false for any other
// value.
func numberText(id any) (string, bool) {
	switch x := id.(type) {
	case json.Number:
		return string(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}

func numberKey(s string) string {
	if k, ok := integerKey(s); ok {
		return k
	}
	if n, ok := jsonparse.NormalNumber(s); ok {
		return "n" + n
	}
	return "n" + s
}

// integerKey is numberKey for an integer as JSON writes one (most ids),
// in one allocation: "n" and jsonparse.NormalNumber's form, the digits without
// trailing zeros, "e" and the number of digits.
func integerKey(s string) (string, bool) {
	abs := strings.TrimPrefix(s, "-")
	if abs == "" || len(abs) > 1 && abs[0] == '0' || len(abs) > 18 {
		return "", false
	}
	for i := 0; i < len(abs); i++ {
		if abs[i] < '0' || abs[i] > '9' {
			return "", false
		}
	}
	if abs == "0" {
		return "n0", true
	}
	var buf [48]byte
	b := append(buf[:0], 'n')
	if len(abs) < len(s) {
		b = append(b, '-')
	}
	b = append(b, strings.TrimRight(abs, "0")...)
	b = append(b, 'e')
	b = strconv.AppendInt(b, int64(len(abs)), 10)
	return string(b), true
}

func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// ID is a JSON-RPC id as a comparable key: two ids are equal exactly when
// their IDKeys are (by type and value: "1" and 1 differ, 1 and 1.0 do
// not), but an ID is built without allocating for the ids logs hold, a
// string or a number written as an integer.
type ID struct {
	kind byte   // 'z' null, 's' string, 'i' integer, 'n' other number, '?' not an id
	text string // the string; the integer in decimal digits; the number's normal form
}

// IDOf returns the ID of an id as decoded (see IDKey).
func IDOf(id any) ID {
	switch x := id.(type) {
	case nil:
		return ID{kind: 'z'}
	case string:
		return ID{kind: 's', text: x}
	}
	if s, ok := numberText(id); ok {
		return NumberID(s)
	}
	return ID{kind: '?'}
}

// maxIntegerID is the most digits of an integer ID kept as its digits.
const maxIntegerID = 19

// NumberID returns the ID of a number id written s. Every number whose
// value is an integer of at most 19 digits is kept as its decimal digits
// (taken from s itself when s is written so), any other as its normal
// form (jsonparse.NormalNumber), or as s when s is no JSON number.
func NumberID(s string) ID {
	abs := strings.TrimPrefix(s, "-")
	if n := len(abs); n > 0 && n <= maxIntegerID && (abs[0] != '0' || n == 1) && skipDigits(abs, 0) == n {
		if abs == "0" {
			return ID{kind: 'i', text: "0"}
		}
		return ID{kind: 'i', text: s}
	}
	normal, ok := jsonparse.NormalNumber(s)
	if !ok {
		return ID{kind: 'n', text: s}
	}
	if normal == "0" {
		return ID{kind: 'i', text: "0"}
	}
	// "[-]DIGITSeEXP" is 0.DIGITS × 10^EXP: an integer when EXP is at
	// least the number of digits.
	mant, e, _ := strings.Cut(normal, "e")
	digits := strings.TrimPrefix(mant, "-")
	if exp, err := strconv.Atoi(e); err == nil && exp >= len(digits) && exp <= maxIntegerID {
		return ID{kind: 'i', text: mant + strings.Repeat("0", exp-len(digits))}
	}
	return ID{kind: 'n', text: normal}
}
