package jsonparse

import (
	"math/rand/v2"
	"testing"
)

// plainRunBytes is plainRun one byte at a time, as strPlain defines it.
func plainRunBytes(data []byte, j int) int {
	for j < len(data) && strPlain[data[j]] {
		j++
	}
	return j
}

// TestPlainRun holds plainRun to the byte-by-byte scan: every byte value
// at every place of a run of plain bytes, from every start.
func TestPlainRun(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				data := make([]byte, n)
				for i := range data {
					data[i] = 'a' + byte(i%26)
				}
				data[at] = byte(c)
				for j := 0; j <= n; j++ {
					if got, want := plainRun(data, j), plainRunBytes(data, j); got != want {
						t.Fatalf("plainRun(%q, %d) = %d, want %d", data, j, got, want)
					}
				}
			}
		}
	}
	// Random text with few plain bytes and with many.
	r := rand.New(rand.NewPCG(1, 2))
	special := []byte{'"', '\\', 0, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xc3, 0xff}
	for range 20000 {
		data := make([]byte, r.IntN(40))
		for i := range data {
			if r.IntN(6) == 0 {
				data[i] = special[r.IntN(len(special))]
			} else {
				data[i] = byte(r.IntN(256))
			}
		}
		j := 0
		if len(data) > 0 {
			j = r.IntN(len(data))
		}
		if got, want := plainRun(data, j), plainRunBytes(data, j); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, want %d", data, j, got, want)
		}
	}
}

// FuzzPlainRun holds plainRun to the byte-by-byte scan on any bytes.
func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`abcdefgh"ijkl`), 0)
	f.Add([]byte("abcdefghijklmnop\x80"), 3)
	f.Fuzz(func(t *testing.T, data []byte, j int) {
		if j < 0 || j > len(data) {
			return
		}
		if got, want := plainRun(data, j), plainRunBytes(data, j); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, want %d", data, j, got, want)
		}
	})
}
