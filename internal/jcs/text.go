package jcs

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// A Writer writes canonical JSON as Append does, faster, keeping scratch
// space from call to call: of a decoded value (AppendValue), or straight
// from JSON text without decoding it (AppendText, AppendTextAt). The zero
// Writer is ready to use; one must not be used by two goroutines at once.
type Writer struct {
	// Escaped makes AppendText and AppendTextAt write the canonical text
	// as N-Triples and Turtle write it between double quotes (Escape's
	// form), in the same pass.
	Escaped bool

	keys    [][]string     // member names per depth, for AppendValue
	limit   int            // the depth from which value refuses an object or array
	members [][]textMember // scratch per depth, for the text
	buf     []byte
}

// AppendValue appends the canonical form of v, a decoded JSON value, to
// dst, as Append does, with the changes Append reports. The common case
// (ASCII member names, numbers already in canonical form, valid UTF-8) is
// written without the bookkeeping Append does for changes; anything else
// goes to Append for the whole value.
func (w *Writer) AppendValue(dst []byte, v any) ([]byte, []Change, error) {
	start := len(dst)
	if out, ok := appendCanonical(dst, v, &w.keys, 0); ok {
		return out, nil, nil
	}
	return Append(dst[:start], v)
}

// appendCanonical appends v in canonical form; it reports false for what it
// leaves to Append. keys holds a scratch slice of member names per depth.
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

// appendCanonicalString appends s as AppendString does; it reports
// false for a string that is not valid UTF-8.
func appendCanonicalString(dst []byte, s string) ([]byte, bool) {
	dst, err := AppendString(dst, s)
	return dst, err == nil
}

// appendCanonicalNumber appends a number written as s when its canonical
// form is s itself: then its value does not change.
func appendCanonicalNumber(dst []byte, s string) ([]byte, bool) {
	if ShortInt(s) {
		return append(dst, s...), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return dst, false
	}
	start := len(dst)
	dst, err = AppendNumber(dst, f)
	if err != nil || string(dst[start:]) != s {
		return dst[:start], false
	}
	return dst, true
}

// textMember is a member of an object being written: where its name is
// in the text, and the span of "name":value in the output. It holds no
// pointer, which the garbage collector would have to be told of.
type textMember struct {
	name       span
	start, end int
}

// span is the extent text[start:end].
type span struct{ start, end int }

// of returns text[s.start:s.end] as a string sharing its bytes, for
// comparing.
func (s span) of(text []byte) string {
	return unsafe.String(unsafe.SliceData(text[s.start:]), s.end-s.start)
}

// AppendText appends the canonical form of text, one JSON value (white
// space around it allowed), to dst, written straight from the text
// without decoding it: member names sorted at the byte level, strings
// re-escaped as canonical JSON escapes them, white space dropped. It
// writes only what is certain to be byte for byte what AppendValue gives
// for the decoded value, and reports false, with dst as it was, for the
// rest (non-ASCII or escaped member names, repeated names, numbers not
// already in canonical form), which then has to be decoded.
func (c *Writer) AppendText(dst, text []byte) ([]byte, bool) {
	c.limit = 10001
	start := len(dst)
	dst, i, ok := c.value(dst, text, jsonparse.SkipSpace(text, 0), 0)
	if !ok || jsonparse.SkipSpace(text, i) != len(text) {
		return dst[:start], false
	}
	return dst, true
}

// AppendTextAt appends, as AppendText does, the canonical form of the JSON
// value that starts at text[i], and returns the offset past it. It
// refuses an object or array inside maxDepth others of the value, and
// takes only what jsonparse's Parser.Check takes as clean: JSON text
// without repeated member names or lone surrogates.
func (c *Writer) AppendTextAt(dst, text []byte, i, maxDepth int) (out []byte, end int, ok bool) {
	c.limit = min(maxDepth, 10001)
	start := len(dst)
	if dst, end, ok = c.value(dst, text, i, 0); !ok {
		return dst[:start], i, false
	}
	return dst, end, true
}

// value appends the value at text[i:] and returns the offset past it.
func (c *Writer) value(dst, text []byte, i, depth int) ([]byte, int, bool) {
	if i >= len(text) {
		return dst, i, false
	}
	switch text[i] {
	case '{', '[':
		if depth >= c.limit {
			return dst, i, false
		}
	}
	switch text[i] {
	case '{':
		return c.object(dst, text, i, depth)
	case '[':
		dst = append(dst, '[')
		i = jsonparse.SkipSpace(text, i+1)
		if i < len(text) && text[i] == ']' {
			return append(dst, ']'), i + 1, true
		}
		for n := 0; ; n++ {
			if n > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, i, ok = c.value(dst, text, i, depth+1); !ok {
				return dst, i, false
			}
			if i = jsonparse.SkipSpace(text, i); i >= len(text) {
				return dst, i, false
			}
			switch text[i] {
			case ',':
				i = jsonparse.SkipSpace(text, i+1)
			case ']':
				return append(dst, ']'), i + 1, true
			default:
				return dst, i, false
			}
		}
	case '"':
		return appendTextString(dst, text, i, c.Escaped)
	case 't':
		return literalText(dst, text, i, "true")
	case 'f':
		return literalText(dst, text, i, "false")
	case 'n':
		return literalText(dst, text, i, "null")
	}
	end, perr := jsonparse.ScanNumber(text, i)
	if perr != nil {
		return dst, i, false
	}
	// Any number but a short integer is written only when its canonical
	// form is its text.
	if num := text[i:end]; ShortInt(num) {
		return append(dst, num...), end, true
	}
	var ok bool
	dst, ok = appendCanonicalNumber(dst, string(text[i:end]))
	return dst, end, ok
}

// ShortInt reports whether the number s is an integer of up to 15 digits,
// without leading zeros and other than -0: its own canonical form, and a
// value a double and an int64 hold exactly.
func ShortInt[T string | []byte](s T) bool {
	if len(s) > 0 && s[0] == '-' {
		if len(s) == 2 && s[1] == '0' {
			return false
		}
		s = s[1:]
	}
	n := len(s)
	return n > 0 && n <= 15 && digits(s) == n && (s[0] != '0' || n == 1)
}

func literalText(dst, text []byte, i int, word string) ([]byte, int, bool) {
	if len(text)-i < len(word) || string(text[i:i+len(word)]) != word {
		return dst, i, false
	}
	return append(dst, word...), i + len(word), true
}

// object appends the object at text[i:] with its members sorted by name.
func (c *Writer) object(dst, text []byte, i, depth int) ([]byte, int, bool) {
	for depth >= len(c.members) {
		c.members = append(c.members, nil)
	}
	// ms is handed back to c.members at the end: a failure, which ends
	// the whole value, may drop what it grew to.
	ms := c.members[depth][:0]
	open := len(dst)
	dst = append(dst, '{')
	i = jsonparse.SkipSpace(text, i+1)
	if i < len(text) && text[i] == '}' {
		return append(dst, '}'), i + 1, true
	}
	sorted := true
	for {
		// The name: ASCII without escapes, so that byte order is the
		// order of UTF-16 code units and the text is its canonical form.
		if i >= len(text) || text[i] != '"' {
			return dst, i, false
		}
		j := nameEnd(text, i+1)
		if j >= len(text) || text[j] != '"' {
			return dst, j, false
		}
		name := span{i + 1, j}
		if len(ms) > 0 {
			switch cmp := ms[len(ms)-1].name.of(text); {
			case cmp == name.of(text):
				return dst, i, false // repeated: the decoded object keeps the last
			case cmp > name.of(text):
				sorted = false
			}
			dst = append(dst, ',')
		}
		start := len(dst)
		if c.Escaped {
			dst = append(dst, '\\', '"')
			dst = append(dst, text[name.start:name.end]...)
			dst = append(dst, '\\', '"')
		} else {
			dst = append(dst, text[i:j+1]...)
		}
		if i = jsonparse.SkipSpace(text, j+1); i >= len(text) || text[i] != ':' {
			return dst, i, false
		}
		dst = append(dst, ':')
		var ok bool
		if dst, i, ok = c.value(dst, text, jsonparse.SkipSpace(text, i+1), depth+1); !ok {
			return dst, i, false
		}
		ms = append(ms, textMember{name: name, start: start, end: len(dst)})
		if i = jsonparse.SkipSpace(text, i); i >= len(text) {
			return dst, i, false
		}
		if text[i] == ',' {
			i = jsonparse.SkipSpace(text, i+1)
			continue
		}
		if text[i] != '}' {
			return dst, i, false
		}
		i++
		break
	}
	if !sorted {
		// By insertion: objects have few members, and most of them are
		// in order already.
		for k := 1; k < len(ms); k++ {
			m := ms[k]
			j := k
			for ; j > 0 && ms[j-1].name.of(text) >= m.name.of(text); j-- {
				if ms[j-1].name.of(text) == m.name.of(text) {
					return dst, i, false
				}
				ms[j] = ms[j-1]
			}
			ms[j] = m
		}
		c.buf = append(c.buf[:0], dst[open+1:]...)
		base := open + 1
		dst = dst[:base]
		for k, m := range ms {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, c.buf[m.start-base:m.end-base]...)
		}
	}
	c.members[depth] = ms[:0]
	return append(dst, '}'), i, true
}

// appendTextString appends the string whose opening quote is at text[i]
// as canonical JSON writes it: escapes only for '"', '\' and control
// characters (\b \f \n \r \t, else \u00xx), everything else as UTF-8.
// With esc, it appends that in Escape's form.
func appendTextString(dst, text []byte, i int, esc bool) ([]byte, int, bool) {
	dst = appendQuote(dst, esc)
	j := i + 1
	start := j
	for {
		var valid bool
		if j, valid = PlainRun(text, j); j >= len(text) || text[j] < 0x20 || !valid {
			return dst, j, false
		}
		dst = append(dst, text[start:j]...)
		switch text[j] {
		case '"':
			return appendQuote(dst, esc), j + 1, true
		case 0x7f:
			dst = appendDEL(dst, esc)
			j++
			start = j
			continue
		}
		// An escape.
		if j+1 >= len(text) {
			return dst, j, false
		}
		switch e := text[j+1]; e {
		case '"', '\\':
			if esc {
				dst = append(dst, '\\', '\\', '\\', e)
			} else {
				dst = append(dst, '\\', e)
			}
			j += 2
		case 'b', 'f', 'n', 'r', 't':
			if esc {
				dst = append(dst, '\\')
			}
			dst = append(dst, '\\', e)
			j += 2
		case '/':
			dst = append(dst, '/')
			j += 2
		case 'u':
			r, perr := jsonparse.Hex4(text, j+2)
			if perr != nil {
				return dst, j, false
			}
			j += 6
			if utf16.IsSurrogate(r) {
				if r >= 0xdc00 || j+6 > len(text) || text[j] != '\\' || text[j+1] != 'u' {
					return dst, j, false
				}
				r2, perr := jsonparse.Hex4(text, j+2)
				if perr != nil || r2 < 0xdc00 || r2 > 0xdfff {
					return dst, j, false
				}
				r = utf16.DecodeRune(r, r2)
				j += 6
			}
			switch {
			case r < 0x20 || r == '"' || r == '\\':
				if !esc {
					dst = AppendEscape(dst, byte(r))
					break
				}
				var b [8]byte
				dst = Escape(dst, AppendEscape(b[:0], byte(r)))
			case r == 0x7f:
				dst = appendDEL(dst, esc)
			default:
				dst = utf8.AppendRune(dst, r)
			}
		default:
			return dst, j, false
		}
		start = j
	}
}

// appendQuote appends a string's quote: '"', or with esc '\"'.
func appendQuote(dst []byte, esc bool) []byte {
	if esc {
		return append(dst, '\\', '"')
	}
	return append(dst, '"')
}

// appendDEL appends DEL, which canonical JSON writes as it is: with esc as
// N-Triples and Turtle escape it.
func appendDEL(dst []byte, esc bool) []byte {
	if esc {
		return append(dst, `\u007F`...)
	}
	return append(dst, 0x7f)
}

// Escape appends canonical JSON text as N-Triples and Turtle write it
// between double quotes: '"' and '\\' with a backslash before them, DEL
// as \u007F. Canonical JSON holds no other character those escape.
func Escape(dst, text []byte) []byte {
	for _, c := range text {
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case 0x7f:
			dst = append(dst, `\u007F`...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Unescape returns the canonical JSON text that Escape wrote as s.
func Unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			if c = s[i]; c == 'u' { // \u007F, the only \u escape written
				c, i = 0x7f, i+4
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// nameEnd returns the offset of the first '"', '\\', control character,
// DEL or byte of a non-ASCII character of text at or after j, or
// len(text): the end of a member name canonical JSON writes as it is.
func nameEnd(text []byte, j int) int {
	j, _ = scanEnd(text, j, true)
	return j
}

// PlainEnd returns the offset of the first '"', '\\', control character or
// DEL of text at or after j, or len(text).
func PlainEnd(text []byte, j int) int {
	j, _ = scanEnd(text, j, false)
	return j
}

// PlainRun returns PlainEnd(text, j) and whether the run of text from j to
// there is valid UTF-8. A run of ASCII, which the scan notices, is not
// read again.
func PlainRun(text []byte, j int) (end int, valid bool) {
	end, seen := scanEnd(text, j, false)
	return end, seen == 0 || utf8.Valid(text[j:end])
}

// scanEnd returns the offset of the first '"', '\\', control character or
// DEL of text at or after j, or with high of any byte from 0x80 on, or
// len(text). It looks at eight bytes at a time. seen is nonzero when a
// byte it looked at, which may be one of the word's bytes past end, is
// from 0x80 on.
func scanEnd(text []byte, j int, high bool) (end int, seen uint64) {
	const (
		ones = 0x0101010101010101
		hi   = 0x8080808080808080
	)
	var highs, acc uint64
	if high {
		highs = hi
	}
	for ; j+8 <= len(text); j += 8 {
		x := binary.LittleEndian.Uint64(text[j:])
		acc |= x
		// (v-k*ones) &^ v & hi has the high bit of each byte of v below k
		// (bytes from 0x80 on never count) and may have it in bytes after
		// the first such one, which a borrow reached: its lowest bit marks
		// v's first byte below k. A byte of x stops the scan when it is
		// below 0x20 or makes a byte of y, z or d zero (below one).
		y, z, d := x^('"'*ones), x^('\\'*ones), x^(0x7f*ones)
		m := ((x-0x20*ones)&^x|(y-ones)&^y|(z-ones)&^z|(d-ones)&^d)&hi | x&highs
		if m != 0 {
			return j + bits.TrailingZeros64(m)>>3, acc & hi
		}
	}
	for ; j < len(text); j++ {
		c := text[j]
		if c == '"' || c == '\\' || c < 0x20 || c == 0x7f || high && c >= utf8.RuneSelf {
			return j, acc & hi
		}
		acc |= uint64(c)
	}
	return j, acc & hi
}

// digits returns the length of the run of ASCII digits at the start of s.
func digits[T string | []byte](s T) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
