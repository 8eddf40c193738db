// Package jcs writes JSON values in the canonical form of RFC 8785 (the JSON
// Canonicalization Scheme), the lexical form of rdf:JSON literals in JSON-LD:
// object members sorted by their UTF-16 code units, no white space, strings
// escaped minimally, numbers as ECMAScript writes an IEEE double. Append
// writes a decoded value; a Writer writes the common cases faster, from a
// decoded value or straight from JSON text, and can write the form
// N-Triples and Turtle give the text between quotes in the same pass.
package jcs

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/jsonptr"
)

// Change records a number whose canonical form has another value than the
// number as written: the double nearest to it is not it.
type Change struct {
	Pointer string // JSON pointer to the number
	Written string // the number as written
	Becomes string // its canonical form
}

// Append appends the canonical form of v, a decoded JSON value (as
// encoding/json decodes into any, with or without UseNumber), to dst. It
// returns the numbers whose value the canonical form changes.
func Append(dst []byte, v any) ([]byte, []Change, error) {
	var changes []Change
	dst, err := appendValue(dst, v, "", &changes)
	return dst, changes, err
}

// String returns the canonical form of v; see Append.
func String(v any) (string, []Change, error) {
	b, ch, err := Append(nil, v)
	return string(b), ch, err
}

func appendValue(dst []byte, v any, ptr string, changes *[]Change) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if x {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case string:
		return AppendString(dst, x)
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return dst, fmt.Errorf("at %q: %s: %w", ptr, x, ErrNumber)
		}
		start := len(dst)
		dst, err = AppendNumber(dst, f)
		if err != nil {
			return dst, fmt.Errorf("at %q: %w", ptr, err)
		}
		if !sameValue(string(x), string(dst[start:])) {
			*changes = append(*changes, Change{Pointer: ptr, Written: string(x), Becomes: string(dst[start:])})
		}
		return dst, nil
	case float64:
		d, err := AppendNumber(dst, x)
		if err != nil {
			return dst, fmt.Errorf("at %q: %w", ptr, err)
		}
		return d, nil
	case int:
		return appendValue(dst, json.Number(strconv.Itoa(x)), ptr, changes)
	case int64:
		return appendValue(dst, json.Number(strconv.FormatInt(x, 10)), ptr, changes)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, e, ptr+"/"+strconv.Itoa(i), changes); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return lessUTF16(keys[i], keys[j]) })
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = AppendString(dst, k); err != nil {
				return dst, err
			}
			dst = append(dst, ':')
			if dst, err = appendValue(dst, x[k], ptr+"/"+jsonptr.Escape(k), changes); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return dst, fmt.Errorf("at %q: %T is not a JSON value", ptr, v)
}

// lessUTF16 orders strings by their UTF-16 code units, as RFC 8785 sorts
// member names.
func lessUTF16(a, b string) bool {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			return utf16Key(ra) < utf16Key(rb)
		}
		a, b = a[na:], b[nb:]
	}
	return a == "" && b != ""
}

// utf16Key returns the first UTF-16 code unit of r: what decides the order
// of two different runes (a surrogate pair sorts by its high surrogate).
func utf16Key(r rune) uint16 {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return uint16(hi)
	}
	return uint16(r)
}

// AppendString appends s as a canonical JSON string. s must be valid UTF-8.
func AppendString(dst []byte, s string) ([]byte, error) {
	start := len(dst)
	dst = append(dst, '"')
	from, ascii := 0, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			if c >= utf8.RuneSelf {
				ascii = false
			}
			continue
		}
		dst = AppendEscape(append(dst, s[from:i]...), c)
		from = i + 1
	}
	if !ascii && !utf8.ValidString(s) {
		return dst[:start], fmt.Errorf("string %q is not valid UTF-8", s)
	}
	dst = append(dst, s[from:]...)
	return append(dst, '"'), nil
}

// AppendEscape appends the escape canonical JSON writes for c, which is
// '"', '\\' or a control character (below U+0020): \b \f \n \r \t for
// those that have one, else \u00xx.
func AppendEscape(dst []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}

// AppendNumber appends f as ECMAScript's Number.prototype.toString writes it,
// which RFC 8785 adopts: the shortest digits that read back as f, in plain
// notation from 1e-6 up to 1e21 and in exponent notation outside.
func AppendNumber(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, ErrNumber
	}
	if f == 0 {
		return append(dst, '0'), nil // also for -0
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	if f >= 1e-6 && f < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64), nil
	}
	// Shortest digits in exponent form; ECMAScript writes the exponent
	// without leading zeros and always with a sign.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	i := 0
	for e[i] != 'e' {
		i++
	}
	dst = append(dst, e[:i+2]...) // mantissa, 'e' and the sign
	exp := e[i+2:]
	for len(exp) > 1 && exp[0] == '0' {
		exp = exp[1:]
	}
	return append(dst, exp...), nil
}

// sameValue reports whether two decimal numbers, as written, have the same
// value: whether canonical writing lost nothing but spelling.
func sameValue(written, canonical string) bool {
	if written == canonical {
		return true
	}
	a, ok1 := new(big.Rat).SetString(written)
	b, ok2 := new(big.Rat).SetString(canonical)
	return ok1 && ok2 && a.Cmp(b) == 0
}
