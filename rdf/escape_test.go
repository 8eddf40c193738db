package rdf

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// badUTF8 returns the byte offset of the first invalid UTF-8 sequence in s,
// or -1.
func badUTF8(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// appendStringRef is appendString as it was before it read words of eight
// bytes: the UTF-8 checked first, then one byte at a time. appendString
// must give the same bytes and the same errors.
func appendStringRef(dst []byte, s string) ([]byte, error) {
	if i := badUTF8(s); i >= 0 {
		return dst, invalid("string %.80q is not valid UTF-8 at byte %d", s, i)
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || echar[c] == 0 {
			continue
		}
		dst = append(dst, s[start:i]...)
		start = i + 1
		if e := echar[c]; e != 'u' {
			dst = append(dst, '\\', e)
			continue
		}
		const hex = "0123456789ABCDEF"
		dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), nil
}

// checkEscape compares appendString with appendStringRef on s, after a
// prefix in dst.
func checkEscape(t *testing.T, s string) {
	t.Helper()
	prefix := []byte("x ")
	got, err := appendString(bytes.Clone(prefix), s)
	want, werr := appendStringRef(bytes.Clone(prefix), s)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("appendString(%q): error %v, want %v", s, err, werr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("appendString(%q) = %q, want %q", s, got, want)
	}
}

// TestAppendString: the escapes of N-Triples and Turtle literals, at every
// place in and around the eight-byte words the fast path reads.
func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain ascii", `"plain ascii"`},
		{"exactly8", `"exactly8"`},
		{"sixteen bytes!!!", `"sixteen bytes!!!"`},
		{`{"a":"b\"c"}`, `"{\"a\":\"b\\\"c\"}"`},
		{"tab\there", `"tab\there"`},
		{"\b\t\n\f\r", `"\b\t\n\f\r"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001F\u007F"`},
		{"nul in the middle of a long run \x00 of text", `"nul in the middle of a long run \u0000 of text"`},
		{" !#$%&'()*+,-./~", `" !#$%&'()*+,-./~"`}, // ASCII next to the special bytes
		{"é", `"é"`},
		{"caf\u00e9 au lait, cr\u00e8me br\u00fbl\u00e9e", `"café au lait, crème brûlée"`},
		{"\u0080\u009f", "\"\u0080\u009f\""}, // C1 controls stay as they are
		{"\uFFFD replacement", "\"\uFFFD replacement\""},
		{"emoji 😀 and 𝄞", `"emoji 😀 and 𝄞"`},
		{"\u2028\u2029\u200f", "\"\u2028\u2029\u200f\""},
		{"ends with a quote\"", `"ends with a quote\""`},
		{"12345678\"", `"12345678\""`},
		{"1234567\\", `"1234567\\"`},
	}
	for _, tt := range tests {
		got, err := appendString(nil, tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("appendString(%q) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
		checkEscape(t, tt.in)
	}
	// Not UTF-8: refused, at the first bad byte, dst as it was.
	for _, s := range []string{"\xff", "abc\xff", "12345678\xc3", "é\xe2\x82", "ok ok ok ok \xed\xa0\x80 surrogate", "\xc0\x80 overlong",
		"abcdefgh\x80", strings.Repeat("a", 100) + "\xf8"} {
		dst := []byte("kept")
		got, err := appendString(dst, s)
		if err == nil || string(got) != "kept" {
			t.Errorf("appendString(%q) = %q, %v; want kept and an error", s, got, err)
		}
		checkEscape(t, s)
	}
}

// TestWordMasks: the flags of wordMasks are exact, whatever the bytes
// around: each byte value at each place, among bytes of every kind.
func TestWordMasks(t *testing.T) {
	for _, fill := range []byte{'a', '"', '\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff} {
		for b := range 256 {
			for at := range 8 {
				var x, wantQ, wantR uint64
				for k := range 8 {
					c := fill
					if k == at {
						c = byte(b)
					}
					x |= uint64(c) << (8 * k)
					if c == '"' || c == '\\' {
						wantQ |= 0x80 << (8 * k)
					}
					if c < 0x20 || c >= 0x7f {
						wantR |= 0x80 << (8 * k)
					}
				}
				if q, r := wordMasks(x); q != wantQ || r != wantR {
					t.Fatalf("wordMasks(%#016x) = %#016x, %#016x; want %#016x, %#016x", x, q, r, wantQ, wantR)
				}
			}
		}
	}
}

// TestAppendStringPositions puts each kind of byte that needs a look at
// every offset of strings of 0 to 24 bytes.
func TestAppendStringPositions(t *testing.T) {
	for _, odd := range []string{"\"", "\\", "\x00", "\x1f", "\x7f", "\n", "é", "€", "😀", "\xff", "\xe2\x82", " ", "~", "!", "#", "[", "]", "^"} {
		for n := 0; n <= 24; n++ {
			for at := 0; at <= n; at++ {
				s := strings.Repeat("a", at) + odd + strings.Repeat("b", n-at)
				checkEscape(t, s)
			}
		}
	}
}

// TestAppendStringRandom compares the fast path with the reference on
// random strings drawn mostly from the bytes that matter.
func TestAppendStringRandom(t *testing.T) {
	alphabet := []string{"a", "Z", "0", " ", "\"", "\\", "\x00", "\x08", "\x1f", "\x7f", "é", "€", "😀", "\uFFFD", "\xff", "\x80", "\xe2\x82", "\xed\xa0\x80"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(40) {
			if r.IntN(3) == 0 {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			} else {
				b.WriteString(strings.Repeat("x", r.IntN(12)))
			}
		}
		checkEscape(t, b.String())
	}
}

// FuzzAppendString: the fast path and the reference agree on any string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "abc", `{"a":[1,2,"x\"y"]}`, "\x00\x7f\xff", "é€😀", "12345678\"12345678\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkEscape(t, s) })
}

// BenchmarkAppendString escapes the literals jrpcld writes most: the
// canonical JSON of params and results, and short plain strings.
func BenchmarkAppendString(b *testing.B) {
	cases := map[string]string{
		"json":  `{"_meta":{"progressToken":3},"arguments":{"a":5,"b":7,"message":"Hello, MCP! é"},"name":"get-sum"}`,
		"text":  "Unknown tool: tides; the server knows forecast and nothing else at all",
		"short": "tools/call",
	}
	for name, s := range cases {
		b.Run(name, func(b *testing.B) {
			var dst []byte
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				dst, _ = appendString(dst[:0], s)
			}
		})
		b.Run(name+"-ref", func(b *testing.B) {
			var dst []byte
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				dst, _ = appendStringRef(dst[:0], s)
			}
		})
	}
}
