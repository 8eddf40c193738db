package jsonparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"testing"
)

// TestDuplicates: every member name an object holds more than once is
// reported once, with its JSON pointer from the root and its count, inner
// objects first; the object keeps the last value, as encoding/json does;
// names in different objects are no duplicates; names inside undecoded
// values are not seen.
func TestDuplicates(t *testing.T) {
	for _, c := range []struct {
		name, text string
		lazy       []string
		want       []Duplicate
	}{
		{name: "none", text: `{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":{}}`},
		{name: "top-level id", text: `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`,
			want: []Duplicate{{"/id", "id", 2}}},
		{name: "four times in params", text: `{"params":{"x":1,"y":2,"x":3,"x":4}}`,
			want: []Duplicate{{"/params/x", "x", 3}}},
		{name: "batch member", text: `[{"id":1},{"id":1,"id":2}]`,
			want: []Duplicate{{"/1/id", "id", 2}}},
		{name: "deep in arrays", text: `[[1,{"a":[0,{"b":1,"b":{"c":1}}]}]]`,
			want: []Duplicate{{"/0/1/a/1/b", "b", 2}}},
		{name: "escaped pointer tokens, inner first", text: `{"a/b":{"~":1,"~":2},"a/b":{}}`,
			want: []Duplicate{{"/a~1b/~0", "~", 2}, {"/a~1b", "a/b", 2}}},
		{name: "names compare unescaped", text: `{"\u0069d":1,"id":2}`,
			want: []Duplicate{{"/id", "id", 2}}},
		{name: "empty name", text: `{"":1,"":2}`,
			want: []Duplicate{{"/", "", 2}}},
		{name: "envelope", text: `{"dir":"c2s","msg":{"id":1,"id":1},"dir":"s2c"}`,
			want: []Duplicate{{"/msg/id", "id", 2}, {"/dir", "dir", 2}}},
		{name: "several names, first appearance order", text: `{"b":1,"a":1,"b":2,"a":2,"c":0}`,
			want: []Duplicate{{"/b", "b", 2}, {"/a", "a", 2}}},
		{name: "not inside undecoded values", text: `{"params":{"a":1,"a":2},"id":1,"id":2}`, lazy: []string{"params"},
			want: []Duplicate{{"/id", "id", 2}}},
		{name: "a repeated undecoded member", text: `{"params":{"a":1},"params":[2]}`, lazy: []string{"params"},
			want: []Duplicate{{"/params", "params", 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Parser{MaxDepth: 100, Lazy: c.lazy}
			v, perr := p.Parse([]byte(c.text))
			if perr != nil {
				t.Fatal(perr)
			}
			if got := p.Duplicates(); len(got) != len(c.want) || len(got) > 0 && !reflect.DeepEqual(got, c.want) {
				t.Errorf("duplicates %+v, want %+v", got, c.want)
			}
			materialize(v)
			if want := decodeStd(t, []byte(c.text)); !reflect.DeepEqual(v, want) {
				t.Errorf("value %#v, want %#v", v, want)
			}
			if c.lazy == nil {
				checkDuplicates(t, []byte(c.text), p)
			}
			// The next parse starts afresh.
			if _, perr := p.Parse([]byte(`{"a":1}`)); perr != nil || len(p.Duplicates()) != 0 {
				t.Errorf("after a text without duplicates: %v %+v", perr, p.Duplicates())
			}
		})
	}
}

// checkDuplicates compares the duplicates p found in text, which it parsed
// decoding everything, with those encoding/json's tokens show.
func checkDuplicates(t *testing.T, text []byte, p *Parser) {
	t.Helper()
	want, err := duplicatesStd(text)
	if err != nil {
		t.Fatalf("reference tokens of %q: %v", text, err)
	}
	got := map[string]int{}
	for _, d := range p.Duplicates() {
		if _, ok := got[d.Pointer]; ok || d.Count < 2 {
			t.Fatalf("%q: duplicate %+v reported twice or with a count under 2", text, d)
		}
		got[d.Pointer] = d.Count
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: duplicates %v, encoding/json's tokens show %v", text, got, want)
	}
}

// duplicatesStd walks text with encoding/json's tokens and returns the
// pointers of the members whose name an object holds more than once, with
// the number of times: the independent reference for Parser.Duplicates.
func duplicatesStd(text []byte) (map[string]int, error) {
	type container struct {
		ptr    string
		obj    bool
		names  map[string]int
		key    string // the name of the member whose value comes next
		keyNow bool   // the next token of the object is a name
		index  int    // the index of the array's next element
	}
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	out := map[string]int{}
	var stack []*container
	// member returns the pointer of the value about to be read.
	member := func() string {
		c := stack[len(stack)-1]
		if c.obj {
			return c.ptr + "/" + escapePointer(c.key)
		}
		return c.ptr + "/" + strconv.Itoa(c.index)
	}
	// done notes that a value of the innermost container ended.
	done := func() {
		if len(stack) == 0 {
			return
		}
		c := stack[len(stack)-1]
		if c.obj {
			c.keyNow = true
		} else {
			c.index++
		}
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(stack) > 0 {
			if c := stack[len(stack)-1]; c.obj && c.keyNow {
				if s, ok := tok.(string); ok {
					c.key, c.keyNow = s, false
					c.names[s]++
					continue
				}
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			ptr := ""
			if len(stack) > 0 {
				ptr = member()
			}
			stack = append(stack, &container{ptr: ptr, obj: tok == json.Delim('{'), names: map[string]int{}, keyNow: true})
		case json.Delim('}'), json.Delim(']'):
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for name, n := range c.names {
				if n > 1 {
					out[c.ptr+"/"+escapePointer(name)] = n
				}
			}
			done()
		default:
			done()
		}
	}
}

// TestLazyDuplicates: a name repeated in an object inside a value left
// undecoded is told by LazyDuplicates (Duplicates does not see it), at any
// depth and however it is escaped; names repeated in different objects are
// not repeats.
func TestLazyDuplicates(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{`{"jsonrpc":"2.0","method":"m","params":{"a":1,"b":2}}`, false},
		{`{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2}}`, true},
		{`{"jsonrpc":"2.0","method":"m","params":{"x":[{"b":1},{"b":1,"c":{"d":0,"d":0}}]}}`, true},
		{`{"jsonrpc":"2.0","method":"m","params":{"a":{"a":1},"b":{"a":1}}}`, false},
		{`{"jsonrpc":"2.0","method":"m","params":{"a":1,"\u0061":2}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":[{"k1":0,"k2":0,"k3":0,"k4":0,"k5":0,"k6":0,"k7":0,"k8":0,"k9":0,"k10":0,"k11":0,"k12":0,"k13":0,"k14":0,"k15":0,"k16":0,"k17":0,"k1":1}]}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":[{"k1":0,"k2":0,"k3":0,"k4":0,"k5":0,"k6":0,"k7":0,"k8":0,"k9":0,"k10":0,"k11":0,"k12":0,"k13":0,"k14":0,"k15":0,"k16":0,"k17":0}]}`, false},
		{`{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2}}}`, true},
		{`[{"jsonrpc":"2.0","method":"m","params":{"a":1}},{"jsonrpc":"2.0","method":"m","params":{"b":1,"b":1}}]`, true},
	}
	p := Parser{MaxDepth: 100, Lazy: []string{"params", "result"}}
	for _, tt := range tests {
		if _, err := p.Parse([]byte(tt.text)); err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		if got := p.LazyDuplicates(); got != tt.want {
			t.Errorf("%s: LazyDuplicates %v, want %v", tt.text, got, tt.want)
		}
		if len(p.Lazies()) == 0 {
			t.Errorf("%s: nothing left undecoded", tt.text)
		}
		// Read whole, the parser finds the same.
		whole := Parser{MaxDepth: 100}
		whole.Parse([]byte(tt.text))
		if got := len(whole.Duplicates()) > 0; got != tt.want {
			t.Errorf("%s: read whole, duplicates %v", tt.text, whole.Duplicates())
		}
	}
}
