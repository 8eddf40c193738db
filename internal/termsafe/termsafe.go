// Package termsafe makes text read from an input safe to print on a
// terminal: control characters and bidirectional overrides, which could move
// the cursor, recolour the screen, forge lines or reorder what the reader
// sees, are turned into visible escapes.
package termsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character that could act on a terminal
// instead of being shown written as a visible escape:
//
//   - the C0 controls U+0000 to U+001F, tab and line breaks included, as
//     \t, \n, \r, or \xHH (\x1b for ESC);
//   - DEL, as \x7f;
//   - the C1 controls U+0080 to U+009F, as \u0080 to \u009f;
//   - the bidirectional embeddings, overrides and isolates U+202A to U+202E
//     and U+2066 to U+2069, as \u202a and so on;
//   - bytes that are not valid UTF-8, as \xHH.
//
// Other text, a backslash included, is left as it is, so Escape returns s
// itself when there is nothing to escape.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			break // C0 or DEL
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f:
			b.WriteString(`\x`)
			writeHex(&b, uint32(s[i]), 2)
		case unsafeRune(r, n):
			b.WriteString(`\u`)
			writeHex(&b, uint32(r), 4)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports whether r, decoded from n bytes, is a C1 control, a
// bidirectional embedding, override or isolate, or an invalid byte.
func unsafeRune(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// writeHex writes v as width lower-case hexadecimal digits.
func writeHex(b *strings.Builder, v uint32, width int) {
	h := strconv.FormatUint(uint64(v), 16)
	for range width - len(h) {
		b.WriteByte('0')
	}
	b.WriteString(h)
}
