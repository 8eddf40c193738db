package jsonparse

import (
	"bytes"
	"fmt"
	"testing"
)

// extents lists, independently of the parser, the extent of every string,
// array and object (member names included) inside the JSON value that
// starts at b[i], itself included, by recursive descent; it returns the
// offset past the value.
func extents(b []byte, i int, out map[int]int) int {
	start := i
	switch b[i] {
	case '"':
		i++
		for b[i] != '"' {
			if b[i] == '\\' {
				i++
			}
			i++
		}
		i++
	case '{', '[':
		close := b[i] + 2
		i = SkipSpace(b, i+1)
		for b[i] != close {
			if close == '}' {
				i = extents(b, i, out)
				i = SkipSpace(b, i) + 1 // the colon
				i = SkipSpace(b, i)
			}
			i = SkipSpace(b, extents(b, i, out))
			if b[i] == ',' {
				i = SkipSpace(b, i+1)
			}
		}
		i++
	default:
		for i < len(b) && !EndsToken(b[i]) {
			i++
		}
		return i
	}
	out[start] = i - start
	return i
}

// TestLens: Parser.Lens gets the extent of every string, array and object
// inside the undecoded values, and nothing outside them.
func TestLens(t *testing.T) {
	texts := []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,"x",{"b\"c":"d\\"}],"":{}, "e" : [ ] }}`,
		`{"jsonrpc":"2.0","id":"params","result":[{"content":[{"type":"text","text":"é \u00e9 \"q\""}]},null,true,-1.5e3]}`,
		`{"dir":"c2s","ts":"2025-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","method":"n","params":["s",["t"]]}}`,
		`[{"jsonrpc":"2.0","method":"a","params":{"x":"y"}},{"jsonrpc":"2.0","id":2,"result":{}}]`,
		`{"jsonrpc":"2.0","method":"m","params":"not lazy: a string"}`,
	}
	for _, text := range texts {
		data := []byte("  " + text + "\n")
		p := &Parser{MaxDepth: 100, Lazy: []string{"params", "result"}}
		p.Lens = make([]int32, len(data))
		if _, err := p.Parse(data); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		want := map[int]int{}
		for _, l := range p.Lazies() {
			start := cap(data) - cap(l.V) // V is part of data
			if !bytes.Equal(data[start:start+len(l.V)], l.V) {
				t.Fatalf("%s: cannot place the undecoded value %s", text, l.V)
			}
			extents(data, start, want)
		}
		got := map[int]int{}
		for i, n := range p.Lens {
			if n != 0 {
				got[i] = int(n)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\n got lens %v\nwant      %v", text, got, want)
		}
	}
	// Too short for the text: Parse leaves it alone.
	p := &Parser{MaxDepth: 10, Lazy: []string{"params"}, Lens: make([]int32, 4)}
	if _, err := p.Parse([]byte(texts[0])); err != nil {
		t.Fatal(err)
	}
	for _, n := range p.Lens {
		if n != 0 {
			t.Fatalf("a Lens shorter than the text was written to: %v", p.Lens)
		}
	}
}
