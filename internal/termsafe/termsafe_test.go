package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEscape: each kind of character that acts on a terminal comes out as a
// visible escape, and other text, backslashes and non-ASCII letters
// included, comes out as it went in.
func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "tools/call", "tools/call"},
		{"letters and symbols", "café ∑ 日本 🙂 a\\b", "café ∑ 日本 🙂 a\\b"},
		{"ESC sequence", "x\x1b[31mred", `x\x1b[31mred`},
		{"line breaks", "a\r\nb", `a\r\nb`},
		{"tab", "a\tb", `a\tb`},
		{"NUL and BEL", "\x00\x07", `\x00\x07`},
		{"unit separator", "\x1f", `\x1f`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 controls", "a\u0080b\u009bc\u0085", `a\u0080b\u009bc\u0085`},
		{"first after C1", "\u00a0", "\u00a0"},
		{"bidi embeddings and overrides", "\u202a\u202b\u202c\u202d\u202e", `\u202a\u202b\u202c\u202d\u202e`},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`},
		{"neighbours of bidi ranges", "\u2029\u202f\u2065\u206a", "\u2029\u202f\u2065\u206a"},
		{"invalid UTF-8", "a\x9bb\xff", `a\x9bb\xff`},
		{"truncated rune", "\xe2\x80", `\xe2\x80`},
		{"forged row", "x\u001b[31m\r\nforged | row", `x\x1b[31m\r\nforged | row`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestEscapeLeavesNothingRaw: for every rune up to U+FFFF, the escaped text
// holds no C0, DEL, C1 or bidirectional control, and is valid UTF-8.
func TestEscapeLeavesNothingRaw(t *testing.T) {
	var b strings.Builder
	for r := rune(0); r <= 0xffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue // surrogates are not runes of valid UTF-8
		}
		b.WriteRune(r)
	}
	out := Escape(b.String())
	if !utf8.ValidString(out) {
		t.Error("the result is not valid UTF-8")
	}
	for _, r := range out {
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Errorf("U+%04X left raw", r)
		}
	}
}

func BenchmarkEscapePlain(b *testing.B) {
	s := "notifications/resources/list_changed"
	for b.Loop() {
		Escape(s)
	}
}
