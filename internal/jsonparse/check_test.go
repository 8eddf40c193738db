package jsonparse

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// checkCheck holds Check to Parse on data: the same errors, at the same
// offsets; the same end; clean exactly when Parse finds no member named
// twice and no lone surrogate; and, for an object or array, the Lens Parse
// notes of it as an undecoded "params" member.
func checkCheck(t *testing.T, data []byte) {
	t.Helper()
	for _, depth := range []int{0, 3} {
		p := Parser{MaxDepth: 10 + depth, LoneSurrogates: true}
		end, clean, cerr := p.Check(data, SkipSpace(data, 0), depth, false)
		q := Parser{MaxDepth: 10, LoneSurrogates: true}
		_, perr := q.Parse(data)
		switch {
		case cerr != nil:
			if depth > 0 && perr != nil && strings.HasPrefix(cerr.Msg, "nesting deeper") {
				// The limit is MaxDepth-depth levels of the value: the same.
				cerr.Msg = strings.Replace(cerr.Msg, strconv.Itoa(p.MaxDepth), strconv.Itoa(q.MaxDepth), 1)
			}
			if perr == nil || *perr != *cerr {
				t.Fatalf("Check error %+v, Parse %+v", cerr, perr)
			}
			continue
		case SkipSpace(data, end) < len(data):
			if perr == nil {
				t.Fatalf("Check ends at %d of %q, Parse reads it whole", end, data)
			}
			continue
		case perr != nil:
			t.Fatalf("Check accepts %q, Parse: %v", data, perr)
		}
		if _, pend := q.Span(); pend != end {
			t.Fatalf("Check ends at %d, Parse at %d", end, pend)
		}
		if want := len(q.Duplicates()) == 0 && len(q.Surrogates()) == 0; clean != want {
			t.Fatalf("clean %v, Parse: duplicates %v, surrogates %v", clean, q.Duplicates(), q.Surrogates())
		}
	}
	// The Lens of the value as an undecoded member, when data is one
	// value (`{},"":0` is not, though it makes a member and another).
	v := bytes.TrimSpace(data)
	if len(v) == 0 || v[0] != '{' && v[0] != '[' {
		return
	}
	if _, perr := (&Parser{MaxDepth: 10, LoneSurrogates: true}).Parse(v); perr != nil {
		return
	}
	text := slices.Concat([]byte(`{"params":`), v, []byte(`}`))
	q := Parser{MaxDepth: 11, LoneSurrogates: true, Lazy: []string{"params"}, Lens: make([]uint16, len(text))}
	if _, perr := q.Parse(text); perr != nil || q.LazyDuplicates() || q.LazySurrogates() {
		return
	}
	p := Parser{MaxDepth: 11, LoneSurrogates: true, Lens: make([]uint16, len(text))}
	if end, clean, cerr := p.Check(text, len(`{"params":`), 1, true); cerr != nil || !clean || end != len(text)-1 {
		t.Fatalf("Check of the member: %d %v %v", end, clean, cerr)
	}
	if !slices.Equal(p.Lens, q.Lens) {
		t.Fatalf("Lens of %s: %v, Parse notes %v", text, p.Lens, q.Lens)
	}
}

func TestCheck(t *testing.T) {
	for _, s := range []string{
		`{"a":[1,{"b":"c\u00e9"}],"d":null}`, ` [true, false, -1.5e3] `, `"x"`, `{}`, `[]`,
		`{"a":1,"a":2}`, `[{"b":1,"b":2}]`, `{"\u0061":1,"a":2}`, `"\ud800"`, `{"\udc00":1}`,
		`{"a":1`, `[1,]`, `{"a" 1}`, `{"a":1} x`, `[[[[[[[[[[[[1]]]]]]]]]]]]`, "\"\xff\"", `tru`, `-`,
		`{"a":{"b":{"c":{"d":[]}}}}`, `[1 2]`, `{1:2}`,
	} {
		checkCheck(t, []byte(s))
	}
}

// FuzzCheck: see checkCheck.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}],"d":null}`, `[{"b":1,"b":2}]`, `"\ud800"`, `{"a":1} x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkCheck(t, data) })
}

// TestSharedString: equal texts give one string, shared.
func TestSharedString(t *testing.T) {
	var p Parser
	a := p.SharedString([]byte("tools/call"))
	b := p.SharedString([]byte("tools/call"))
	if a != "tools/call" || b != a || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatalf("%q %q not shared", a, b)
	}
	if allocs := testing.AllocsPerRun(100, func() { p.SharedString([]byte("tools/call")) }); allocs != 0 {
		t.Errorf("%v allocations for a string seen before", allocs)
	}
	if c := p.SharedString([]byte("other")); c != "other" {
		t.Fatalf("got %q", c)
	}
}

func TestDepthPast(t *testing.T) {
	for _, c := range []struct {
		data string
		max  int
		want int
	}{
		{`[]`, 0, 0},
		{`[]`, 1, -1},
		{`1`, 0, -1},
		{`[[],[[]]]`, 2, 5},
		{`[[],[[]]]`, 3, -1},
		{`{"a":{"b":[1]}}`, 2, 10},
		// Brackets in strings, escaped quotes among them, do not count.
		{`["[[[", {"a": "\"[[", "\\": [0]}]`, 2, 28},
		{`["[[[", {"a": "\"[[", "\\": [0]}]`, 3, -1},
		{`"[[[ never closed`, 0, -1},
		{"[\"\xff[\", [[]]]", 2, 8},
	} {
		if got := DepthPast([]byte(c.data), c.max); got != c.want {
			t.Errorf("DepthPast(%q, %d) = %d, want %d", c.data, c.max, got, c.want)
		}
	}
}
