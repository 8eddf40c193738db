package jcs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestScanEnd checks PlainEnd and nameEnd against a byte-by-byte scan for
// every stopping byte at every offset of a word and past it, and for every
// byte value, in text that is otherwise plain for each.
func TestScanEnd(t *testing.T) {
	for _, tt := range []struct {
		name  string
		end   func([]byte, int) int
		fill  string
		stops func(c byte) bool
	}{
		{"PlainEnd", PlainEnd, "aé", func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c == 0x7f }},
		{"nameEnd", nameEnd, "ab", func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c == 0x7f || c >= 0x80 }},
	} {
		naive := func(text []byte, j int) int {
			for j < len(text) && !tt.stops(text[j]) {
				j++
			}
			return j
		}
		for c := 0; c < 256; c++ {
			for n := 0; n <= 19; n++ {
				for at := 0; at < n; at++ {
					text := []byte(strings.Repeat(tt.fill, n)[:n])
					text[at] = byte(c)
					for from := 0; from <= n; from++ {
						if got, want := tt.end(text, from), naive(text, from); got != want {
							t.Fatalf("%s(%q, %d) = %d, want %d", tt.name, text, from, got, want)
						}
					}
				}
			}
		}
	}
}

// TestPlainRun checks PlainRun's validity against utf8.Valid of the run it
// returns, with every byte value at every offset of ASCII text, of text
// with two-byte characters and of text with a four-byte one cut short, and
// with a stopping byte after it or not.
func TestPlainRun(t *testing.T) {
	for _, fill := range []string{"abcdefgh", "aé", "ab\xf0\x9f\x98"} {
		for c := 0; c < 256; c++ {
			for n := 1; n <= 19; n++ {
				for at := 0; at < n; at++ {
					for _, tail := range []string{"", `"x`, "\xe9\"x"} {
						text := append([]byte(strings.Repeat(fill, n)[:n]), tail...)
						text[at] = byte(c)
						for from := 0; from <= n; from++ {
							end, valid := PlainRun(text, from)
							if end != PlainEnd(text, from) {
								t.Fatalf("PlainRun(%q, %d) ends at %d, PlainEnd at %d", text, from, end, PlainEnd(text, from))
							}
							if want := utf8.Valid(text[from:end]); valid != want {
								t.Fatalf("PlainRun(%q, %d) = %d, %v; utf8.Valid of the run is %v", text, from, end, valid, want)
							}
						}
					}
				}
			}
		}
	}
}
