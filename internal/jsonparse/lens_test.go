package jsonparse

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
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
// inside the undecoded values shorter than 65,536 bytes, and nothing else.
func TestLens(t *testing.T) {
	texts := []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,"x",{"b\"c":"d\\"}],"":{}, "e" : [ ] }}`,
		`{"jsonrpc":"2.0","id":"params","result":[{"content":[{"type":"text","text":"é \u00e9 \"q\""}]},null,true,-1.5e3]}`,
		`{"dir":"c2s","ts":"2025-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","method":"n","params":["s",["t"]]}}`,
		`[{"jsonrpc":"2.0","method":"a","params":{"x":"y"}},{"jsonrpc":"2.0","id":2,"result":{}}]`,
		`{"jsonrpc":"2.0","method":"m","params":"not lazy: a string"}`,
		// Too long to note: the string and the arrays around it.
		`{"jsonrpc":"2.0","id":1,"result":[["` + strings.Repeat("x", 70000) + `"],"y"]}`,
	}
	for _, text := range texts {
		data := []byte("  " + text + "\n")
		p := &Parser{MaxDepth: 100, Lazy: []string{"params", "result"}}
		p.Lens = make([]uint16, len(data))
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
		for i, n := range want {
			if n > math.MaxUint16 {
				delete(want, i)
			}
		}
		got := map[int]int{}
		for i, n := range p.Lens {
			if n != 0 {
				got[i] = int(n)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%.80s:\n got lens %v\nwant      %v", text, got, want)
		}
	}
	// Too short for the text: Parse leaves it alone.
	p := &Parser{MaxDepth: 10, Lazy: []string{"params"}, Lens: make([]uint16, 4)}
	if _, err := p.Parse([]byte(texts[0])); err != nil {
		t.Fatal(err)
	}
	for _, n := range p.Lens {
		if n != 0 {
			t.Fatalf("a Lens shorter than the text was written to: %v", p.Lens)
		}
	}
}

// TestReuseEnvelope: with ReuseEnvelope, an envelope's map is the same from
// one Parse to the next, and holds only the last envelope's members, while
// the message maps it held stay as they were; a message's own map is never
// reused.
func TestReuseEnvelope(t *testing.T) {
	p := &Parser{MaxDepth: 10, ReuseEnvelope: true}
	parse := func(text string) map[string]any {
		t.Helper()
		v, err := p.Parse([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return v.(map[string]any)
	}
	e1 := parse(`{"dir":"c2s","ts":"t1","msg":{"jsonrpc":"2.0","method":"a"}}`)
	msg1 := e1["msg"].(map[string]any)
	e2 := parse(`{"dir":"s2c","msg":{"jsonrpc":"2.0","method":"b"}}`)
	if reflect.ValueOf(e1).UnsafePointer() != reflect.ValueOf(e2).UnsafePointer() {
		t.Error("the envelope map was not reused")
	}
	if _, ok := e2["ts"]; ok || e2["dir"] != "s2c" || len(e2) != 2 {
		t.Errorf("the reused map holds %v", e2)
	}
	if msg1["method"] != "a" {
		t.Errorf("the first message changed: %v", msg1)
	}
	bare1 := parse(`{"jsonrpc":"2.0","method":"c","msg":1}`)
	bare2 := parse(`{"jsonrpc":"2.0","method":"d","msg":2}`)
	if bare1["method"] != "c" || bare2["method"] != "d" {
		t.Errorf("a message's map was reused: %v, %v", bare1, bare2)
	}
}
