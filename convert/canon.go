package convert

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/jcs"
)

// canonical appends the RFC 8785 canonical form of v, a decoded JSON
// value, to dst, as jcs.Append does, with the changes jcs reports. The
// common case (ASCII member names, numbers already in canonical form,
// valid UTF-8) is written here without the bookkeeping jcs does for
// changes; anything else goes to jcs.Append for the whole value.
func canonical(dst []byte, v any, keys *[][]string) ([]byte, []jcs.Change, error) {
	start := len(dst)
	if out, ok := appendCanonical(dst, v, keys, 0); ok {
		return out, nil, nil
	}
	return jcs.Append(dst[:start], v)
}

// appendCanonical appends v in canonical form; it reports false for what it
// leaves to jcs. keys holds a scratch slice of member names per depth.
func appendCanonical(dst []byte, v any, keys *[][]string, depth int) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case string:
		return appendCanonicalString(dst, x)
	case json.Number:
		return appendCanonicalNumber(dst, string(x))
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendCanonical(dst, e, keys, depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	case map[string]any:
		for depth >= len(*keys) {
			*keys = append(*keys, nil)
		}
		ks := (*keys)[depth][:0]
		for k := range x {
			for i := 0; i < len(k); i++ {
				if k[i] >= utf8.RuneSelf {
					return dst, false // UTF-16 order may differ from byte order
				}
			}
			ks = append(ks, k)
		}
		slices.Sort(ks)
		(*keys)[depth] = ks
		dst = append(dst, '{')
		for i, k := range ks {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendCanonicalString(dst, k); !ok {
				return dst, false
			}
			dst = append(dst, ':')
			if dst, ok = appendCanonical(dst, x[k], keys, depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	}
	return dst, false
}

// appendCanonicalString appends s as jcs.AppendString does.
func appendCanonicalString(dst []byte, s string) ([]byte, bool) {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start, ascii := 0, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			if c >= utf8.RuneSelf {
				ascii = false
			}
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	if !ascii && !utf8.ValidString(s) {
		return dst, false
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), true
}

// appendCanonicalNumber appends a number written as s when its canonical
// form is s itself: then its value does not change.
func appendCanonicalNumber(dst []byte, s string) ([]byte, bool) {
	// Integers of up to 15 digits are their own canonical form.
	d := s
	if d != "" && d[0] == '-' {
		d = d[1:]
	}
	if n := len(d); n > 0 && n <= 15 && digits(d) == n && (d[0] != '0' || n == 1) && s != "-0" {
		return append(dst, s...), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return dst, false
	}
	start := len(dst)
	dst, err = jcs.AppendNumber(dst, f)
	if err != nil || string(dst[start:]) != s {
		return dst[:start], false
	}
	return dst, true
}
