package jcs

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// TestRFC8785Vectors canonicalises each input of the test vectors published
// with RFC 8785 (cyberphone/json-canonicalization, testdata) and compares
// the bytes with the output file of the same name. Numbers are decoded both
// as json.Number and as float64. Only values.json writes a number of another
// value than written: 333333333.33333329 has no double of its own.
func TestRFC8785Vectors(t *testing.T) {
	dir := shared.Dir(t, "reference", "rfc8785-vectors", "testdata")
	inputs, err := filepath.Glob(filepath.Join(dir, "input", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	outputs, _ := filepath.Glob(filepath.Join(dir, "output", "*.json"))
	if len(inputs) != 6 || len(outputs) != len(inputs) {
		t.Fatalf("%d inputs and %d outputs, want 6 of each", len(inputs), len(outputs))
	}
	wantChanges := map[string][]Change{
		"values.json": {{Pointer: "/numbers/0", Written: "333333333.33333329", Becomes: "333333333.3333333"}},
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "output", name))
			if err != nil {
				t.Fatal(err)
			}
			for _, useNumber := range []bool{true, false} {
				d := json.NewDecoder(bytes.NewReader(src))
				if useNumber {
					d.UseNumber()
				}
				var v any
				if err := d.Decode(&v); err != nil {
					t.Fatal(err)
				}
				got, changes, err := Append(nil, v)
				if err != nil {
					t.Fatalf("UseNumber %v: %v", useNumber, err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("UseNumber %v:\ngot  %s\nwant %s", useNumber, got, want)
				}
				if !useNumber {
					continue // float64s carry no written form to compare
				}
				if !slices.Equal(changes, wantChanges[name]) {
					t.Errorf("changes %+v, want %+v", changes, wantChanges[name])
				}
			}
		})
	}
}

// TestES6Numbers generates the first million numbers of the ES6 number
// test file that the vectors' README describes (a fixed list of edge cases,
// the 2000 doubles from the smallest normal one up, then doubles drawn from
// a SHA-256 chain), writes each line "hex-ieee,expected\n" with
// AppendNumber, and compares the SHA-256 of the first 1000, 10000, 100000
// and 1000000 lines with the README's table. The fixed list and the table
// are read from the README.
func TestES6Numbers(t *testing.T) {
	readme, err := os.ReadFile(shared.Dir(t, "reference", "rfc8785-vectors", "testdata", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(readme, []byte("staticU64s = new BigUint64Array(["))
	end := bytes.Index(readme, []byte("staticF64s"))
	if start < 0 || end < start {
		t.Fatal("README: the list staticU64s is missing")
	}
	var static []uint64
	for _, m := range regexp.MustCompile(`0x([0-9a-f]+)n`).FindAllSubmatch(readme[start:end], -1) {
		u, err := strconv.ParseUint(string(m[1]), 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		static = append(static, u)
	}
	if len(static) < 100 {
		t.Fatalf("README: %d values in staticU64s", len(static))
	}
	hashes := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)^\| ([0-9a-f]{64}) \| ([0-9]+) `).FindAllSubmatch(readme, -1) {
		n, _ := strconv.Atoi(string(m[2]))
		hashes[n] = string(m[1])
	}
	for _, n := range []int{1000, 10000, 100000, 1000000} {
		if hashes[n] == "" {
			t.Fatalf("README: no checksum for %d lines", n)
		}
	}

	var block [32]byte
	var pool []uint64 // doubles of the current block not used yet
	next := func(i int) uint64 {
		switch {
		case i < len(static):
			return static[i]
		case i < len(static)+2000:
			return 0x0010000000000000 + uint64(i-len(static))
		}
		for {
			if len(pool) == 0 {
				block = sha256.Sum256(block[:])
				for j := 0; j < 4; j++ {
					pool = append(pool, binary.LittleEndian.Uint64(block[8*j:]))
				}
			}
			u := pool[0]
			pool = pool[1:]
			if f := math.Float64frombits(u); f != 0 && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return u
			}
		}
	}
	h := sha256.New()
	w := bufio.NewWriter(h)
	var line []byte
	for i := 0; i < 1000000; i++ {
		u := next(i)
		line = strconv.AppendUint(line[:0], u, 16)
		line = append(line, ',')
		if line, err = AppendNumber(line, math.Float64frombits(u)); err != nil {
			t.Fatalf("%x: %v", u, err)
		}
		w.Write(append(line, '\n'))
		if want, ok := hashes[i+1]; ok {
			w.Flush()
			if got := hex.EncodeToString(h.Sum(nil)); got != want {
				t.Errorf("SHA-256 of the first %d lines is %s, want %s", i+1, got, want)
			}
		}
	}
}
