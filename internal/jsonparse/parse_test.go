package jsonparse

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// decodeStd decodes JSON text with encoding/json and UseNumber: the
// independent reference for the values the parser must produce.
func decodeStd(t testing.TB, text []byte) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(string(text)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("reference decode of %q: %v", text, err)
	}
	return v
}

// materialize decodes the Undecoded values in v, in place.
func materialize(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if u, ok := e.(Undecoded); ok {
				x[k] = Decode(u)
			} else {
				materialize(e)
			}
		}
	case []any:
		for i, e := range x {
			if u, ok := e.(Undecoded); ok {
				x[i] = Decode(u)
			} else {
				materialize(e)
			}
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		text      string
		err       string
		off       int
		eof       bool
		lazyCount int
	}{
		{text: `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,2]}}`, lazyCount: 1},
		{text: ` [ {"params":[1],"result":{}} , {"params":3} ] `, lazyCount: 2},
		{text: `{"dir":"c2s","msg":{"params":{},"x":{"params":{}}}}`, lazyCount: 1},
		// Of a member named twice, only the value kept is an undecoded one.
		{text: `{"params":{"a":1},"id":1,"params":[2]}`, lazyCount: 1},
		{text: `{"a":`, err: "unexpected end of JSON input", off: 5, eof: true},
		{text: `"abc`, err: "unexpected end of JSON input in a string", off: 4},
		{text: `[1,]`, err: "invalid character ']' looking for beginning of value", off: 3},
		{text: "\"\xff\"", err: "invalid UTF-8 byte 0xff", off: 1},
		{text: `"\ud800"`, err: `lone UTF-16 surrogate \ud800 in string`, off: 1},
		{text: `[[[[[1]]]]]`, err: "nesting deeper than 4 levels", off: 4},
		{text: `1 2`, err: "invalid character '2' after top-level value", off: 2},
	} {
		p := &Parser{MaxDepth: 4, Lazy: []string{"params", "result"}}
		v, perr := p.Parse([]byte(c.text))
		if c.err != "" {
			if perr == nil || !strings.Contains(perr.Msg, c.err) || perr.Offset != c.off || perr.EOF != c.eof || perr.Error() != perr.Msg {
				t.Errorf("%s: error %+v, want %q at %d (EOF %v)", c.text, perr, c.err, c.off, c.eof)
			}
			continue
		}
		if perr != nil {
			t.Errorf("%s: %v", c.text, perr)
			continue
		}
		if len(p.Lazies()) != c.lazyCount {
			t.Errorf("%s: %d lazy values, want %d", c.text, len(p.Lazies()), c.lazyCount)
		}
		materialize(v)
		if want := decodeStd(t, []byte(c.text)); !reflect.DeepEqual(v, want) {
			t.Errorf("%s: %#v, want %#v", c.text, v, want)
		}
		if start, end := p.Span(); strings.TrimSpace(c.text) != c.text[start:end] {
			t.Errorf("%s: span %d:%d", c.text, start, end)
		}
	}
}

// surrogateEscape matches a \u escape of a UTF-16 surrogate.
var surrogateEscape = regexp.MustCompile(`\\u[dD][89a-fA-F]`)

// checkLazy parses data again leaving values of lazy members undecoded,
// and checks it against the parse that decoded everything (v, perr, p):
// the same error at the same place, or the same value once decoded, the
// same spans, and undecoded values that are the text of an object or array
// where the parser said they are.
func checkLazy(t *testing.T, data []byte, v any, perr *SyntaxError, p *Parser) {
	t.Helper()
	lp := Parser{MaxDepth: p.MaxDepth, Lazy: []string{"params", "result", "a", "b"}}
	lv, lerr := lp.Parse(data)
	if (perr == nil) != (lerr == nil) || perr != nil && (perr.Offset != lerr.Offset || perr.Msg != lerr.Msg) {
		t.Fatalf("with lazy members: error %v, without: %v", lerr, perr)
	}
	if perr != nil {
		return
	}
	for _, l := range lp.Lazies() {
		if u, ok := l.M[l.K].(Undecoded); !ok || &u[0] != &l.V[0] || len(u) != len(l.V) || !json.Valid(l.V) || l.V[0] != '{' && l.V[0] != '[' {
			t.Fatalf("undecoded %q of %q: %#v in the object", l.V, l.K, l.M[l.K])
		}
	}
	full := map[Duplicate]bool{}
	for _, d := range p.Duplicates() {
		full[d] = true
	}
	for _, d := range lp.Duplicates() {
		if !full[d] {
			t.Fatalf("with lazy members: duplicate %+v, not found without", d)
		}
	}
	materialize(lv)
	ls, le := lp.Span()
	ps, pe := p.Span()
	lms, lme := lp.MsgSpan()
	pms, pme := p.MsgSpan()
	if !reflect.DeepEqual(lv, v) || ls != ps || le != pe || lms != pms || lme != pme {
		t.Fatalf("with lazy members: %#v, without: %#v", lv, v)
	}
}

// FuzzParser checks the parser against encoding/json: it accepts what
// encoding/json accepts, with the same value, and refuses only what
// encoding/json refuses or would silently alter (invalid UTF-8, lone
// surrogate escapes, which it reads as encoding/json does when asked to);
// it reports the member names an object holds more
// than once as encoding/json's tokens show them; and leaving lazy members
// undecoded changes nothing else.
func FuzzParser(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,2.5e3,"\u00e9"]}}`,
		`{"dir":"s2c","ts":"t","msg":[{"jsonrpc":"2.0","id":"x","result":{"b":{"a":null}}}]}`,
		`[{"params":[true,false]},{"result":{}}]`, `"\ud83c\udf89"`, `-0.0e-0`, `{"a":{"b":[]}}`,
		`{"params":{"a":1,"a":[{"b":1,"b":2}]},"params":{},"x/~":1,"x/~":2}`,
		`["\ud800"]`, `{"params":{"\udc00x":"\ud800\u0041"},"id":"\udbff"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := Parser{MaxDepth: 10000} // encoding/json's own limit
		v, perr := p.Parse(data)
		checkLazy(t, data, v, perr, &p)
		checkShared(t, data, v, perr)
		valid := json.Valid(data)
		checkLoneSurrogates(t, data, valid, perr)
		// DepthPast finds where a parser bounded at 3 stops for depth, or
		// nothing before where it stops for another reason.
		if valid {
			p3 := Parser{MaxDepth: 3}
			_, e3 := p3.Parse(data)
			off := DepthPast(data, 3)
			switch {
			case e3 == nil && off >= 0,
				e3 != nil && strings.HasPrefix(e3.Msg, "nesting deeper") && off != e3.Offset,
				e3 != nil && off >= 0 && off < e3.Offset:
				t.Fatalf("DepthPast(%q, 3) = %d; the parser: %v", data, off, e3)
			}
		}
		if perr != nil {
			if valid && utf8.Valid(data) && !surrogateEscape.Match(data) {
				t.Fatalf("parser refuses %q (%s at %d), encoding/json accepts it", data, perr.Msg, perr.Offset)
			}
			if perr.Offset < 0 || perr.Offset > len(data) {
				t.Fatalf("error offset %d outside the input", perr.Offset)
			}
			return
		}
		if !valid || !utf8.Valid(data) {
			t.Fatalf("parser accepts %q, encoding/json refuses it or it is not UTF-8", data)
		}
		if want := decodeStd(t, data); !reflect.DeepEqual(v, want) {
			t.Fatalf("value %#v, encoding/json gives %#v", v, want)
		}
		if start, end := p.Span(); !json.Valid(data[start:end]) {
			t.Fatalf("value span %d:%d is not the value", start, end)
		}
		checkDuplicates(t, data, &p)
		checkElements(t, data, v)
	})
}

// checkLoneSurrogates parses data with LoneSurrogates: it accepts exactly
// the UTF-8 texts encoding/json accepts (valid), with encoding/json's
// value, and notes lone surrogates exactly when the parser without the
// option refuses the text (strict).
func checkLoneSurrogates(t *testing.T, data []byte, valid bool, strict *SyntaxError) {
	t.Helper()
	p := Parser{MaxDepth: 10000, LoneSurrogates: true}
	v, perr := p.Parse(data)
	if (perr == nil) != (valid && utf8.Valid(data)) {
		t.Fatalf("with LoneSurrogates: error %v; encoding/json accepts it: %v", perr, valid)
	}
	if perr != nil {
		return
	}
	if want := decodeStd(t, data); !reflect.DeepEqual(v, want) {
		t.Fatalf("with LoneSurrogates: value %#v, encoding/json gives %#v", v, want)
	}
	if (strict == nil) != (len(p.Surrogates()) == 0) {
		t.Fatalf("with LoneSurrogates: %+v; without: %v", p.Surrogates(), strict)
	}
}

// checkElements checks Elements on data, which the parser read as v: the
// texts of an array's elements, each the element as encoding/json reads
// it; nil for anything else.
func checkElements(t *testing.T, data []byte, v any) {
	t.Helper()
	es := Elements(data)
	arr, isArr := v.([]any)
	if !isArr {
		if es != nil {
			t.Fatalf("Elements of %q, no array: %q", data, es)
		}
		return
	}
	if len(es) != len(arr) {
		t.Fatalf("Elements of %q: %q, want %d", data, es, len(arr))
	}
	for i, e := range es {
		if strings.TrimSpace(string(e)) != string(e) || !json.Valid(e) || !reflect.DeepEqual(decodeStd(t, e), arr[i]) {
			t.Fatalf("Elements of %q: element %d is %q, want %#v", data, i, e, arr[i])
		}
	}
}

// checkShared parses data with Shared members, three times over (the
// values are shared from the second parse on), and checks that the
// parser gives what it gives without them (v, perr).
func checkShared(t *testing.T, data []byte, v any, perr *SyntaxError) {
	t.Helper()
	sp := Parser{MaxDepth: 10000, Shared: []string{"jsonrpc", "method", "dir", "a", "b", ""}}
	for range 3 {
		sv, serr := sp.Parse(data)
		if (perr == nil) != (serr == nil) || perr != nil && (perr.Offset != serr.Offset || perr.Msg != serr.Msg) {
			t.Fatalf("with shared members: error %v, without: %v", serr, perr)
		}
		if !reflect.DeepEqual(sv, v) {
			t.Fatalf("with shared members: %#v, without: %#v", sv, v)
		}
	}
}

// TestShared checks that the values of Shared members are read as without
// them, and that a repeated one costs no allocation.
func TestShared(t *testing.T) {
	texts := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"method":"x","jsonrpc":"y"}}`,
		`{"dir":"c2s","ts":"2026-11-21T23:20:01.905Z","msg":{"jsonrpc":"2.0","method":"a\u0062c","id":"m"}}`,
		`{"method":"é","jsonrpc":"` + strings.Repeat("x", 65) + `","dir":["c2s"]}`,
		`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"method":1,"jsonrpc":null}]`,
		`{"method":"","jsonrpc":"\ud800"}`,
	}
	for _, text := range texts {
		plain := Parser{MaxDepth: 100, LoneSurrogates: true}
		want, werr := plain.Parse([]byte(text))
		shared := Parser{MaxDepth: 100, LoneSurrogates: true, Shared: []string{"jsonrpc", "method", "dir"}}
		for range 3 {
			got, err := shared.Parse([]byte(text))
			if (err == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: with Shared %#v (%v), without %#v (%v)", text, got, err, want, werr)
			}
			if !reflect.DeepEqual(shared.Surrogates(), plain.Surrogates()) {
				t.Fatalf("%s: surrogates with Shared %+v, without %+v", text, shared.Surrogates(), plain.Surrogates())
			}
		}
	}
	// "2.0" and "tools/call" come from the cache: two allocations (the
	// string and its box) fewer each than without it.
	text := []byte(`{"jsonrpc":"2.0","method":"tools/call","id":1}`)
	count := func(p *Parser) float64 {
		p.Parse(text)
		p.Parse(text)
		return testing.AllocsPerRun(100, func() { p.Parse(text) })
	}
	without := count(&Parser{MaxDepth: 10})
	with := count(&Parser{MaxDepth: 10, Shared: []string{"jsonrpc", "method"}})
	if with != without-4 {
		t.Errorf("%v allocations with Shared, %v without; want 4 fewer", with, without)
	}
}
