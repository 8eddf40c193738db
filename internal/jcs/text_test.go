package jcs

import (
	"strings"
	"testing"
)

// TestPlainEnd checks PlainEnd against a byte-by-byte scan for every
// stopping byte at every offset of a word and past it, and for every byte
// value.
func TestPlainEnd(t *testing.T) {
	naive := func(text []byte, j int) int {
		for j < len(text) && text[j] != '"' && text[j] != '\\' && text[j] >= 0x20 && text[j] != 0x7f {
			j++
		}
		return j
	}
	for c := 0; c < 256; c++ {
		for n := 0; n <= 19; n++ {
			for at := 0; at < n; at++ {
				text := []byte(strings.Repeat("aé", n)[:n])
				text[at] = byte(c)
				for from := 0; from <= n; from++ {
					if got, want := PlainEnd(text, from), naive(text, from); got != want {
						t.Fatalf("PlainEnd(%q, %d) = %d, want %d", text, from, got, want)
					}
				}
			}
		}
	}
}

// TestNameEnd checks nameEnd against a byte-by-byte scan as TestPlainEnd
// checks PlainEnd.
func TestNameEnd(t *testing.T) {
	naive := func(text []byte, j int) int {
		for j < len(text) && text[j] != '"' && text[j] != '\\' && text[j] >= 0x20 && text[j] != 0x7f && text[j] < 0x80 {
			j++
		}
		return j
	}
	for c := 0; c < 256; c++ {
		for n := 0; n <= 19; n++ {
			for at := 0; at < n; at++ {
				text := []byte(strings.Repeat("ab", n)[:n])
				text[at] = byte(c)
				for from := 0; from <= n; from++ {
					if got, want := nameEnd(text, from), naive(text, from); got != want {
						t.Fatalf("nameEnd(%q, %d) = %d, want %d", text, from, got, want)
					}
				}
			}
		}
	}
}
