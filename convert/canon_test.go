package convert

import (
	"testing"

	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// checkVouch checks the voucher on the value at the start of text, inside
// depth arrays and objects, against the log reader's own check with
// maxDepth: it vouches only for a value the check takes as clean, ending
// where the check ends, and what it writes is the escaped canonical text
// the mapping writes from the value's text. It reports whether it vouched.
func checkVouch(t *testing.T, text []byte, depth, maxDepth int) bool {
	t.Helper()
	i := jsonparse.SkipSpace(text, 0)
	if i >= len(text) {
		return false
	}
	var v voucher
	out, end, ok := v.Vouch([]byte("x"), text, i, depth, maxDepth)
	if !ok {
		if string(out) != "x" {
			t.Errorf("%q: refused, but %q left behind", text, out)
		}
		return false
	}
	p := &jsonparse.Parser{MaxDepth: maxDepth}
	cend, clean, perr := p.Check(text, i, depth, false)
	if perr != nil || !clean || cend != end {
		t.Errorf("%q (depth %d of %d): vouched to %d, the check: end %d, clean %v, %v", text, depth, maxDepth, end, cend, clean, perr)
		return true
	}
	c := jcs.Writer{Escaped: true}
	want, ok := c.AppendText([]byte("x"), text[i:end])
	if !ok || string(want) != string(out) {
		t.Errorf("%q: vouched %q, from the text %q (%v)", text, out, want, ok)
	}
	return true
}

// TestVouch: the voucher vouches for ordinary values and refuses what the
// reader's check refuses or takes as not clean, and what is deeper than
// the reader allows; where it refuses what the check takes, the reader
// checks it (rpclog's TestVouched).
func TestVouch(t *testing.T) {
	cases := []struct {
		text            string
		depth, maxDepth int
		vouched         bool
	}{
		{`{"b":[1,{"a":"\u00e9\n"}],"a":null} ,`, 1, 10, true},
		{`[[1]]`, 1, 3, true},
		{`[[1]]`, 2, 3, false}, // the inner array is a third level
		{`[[1]]`, 1, 2, false},
		{`[]`, 2, 3, true},
		{`[]`, 3, 3, false},
		{`{"a":1,"a":2}`, 1, 10, false},      // named twice: not clean
		{`{"a":1,"\u0061":2}`, 1, 10, false}, // the same, escaped
		{`["\ud800"]`, 1, 10, false},         // a lone surrogate: not clean
		{"[\"\xff\"]", 1, 10, false},         // not UTF-8: the check takes it
		{`[1.0]`, 1, 10, false},              // not canonical: the check takes it
		{`{"a":}`, 1, 10, false},
		{`[1,]`, 1, 10, false},
		{`["a`, 1, 10, false},
		{"[\"\x7f\"]", 1, 10, true},
	}
	for _, c := range cases {
		if got := checkVouch(t, []byte(c.text), c.depth, c.maxDepth); got != c.vouched {
			t.Errorf("%q (depth %d of %d): vouched %v, want %v", c.text, c.depth, c.maxDepth, got, c.vouched)
		}
	}
}

// FuzzVouch: checkVouch for any text and depths.
func FuzzVouch(f *testing.F) {
	f.Add(`{"b":[1,{"a":"\u00e9\n"}],"a":null}`, uint8(1), uint8(10))
	f.Add(`[[[]]]`, uint8(2), uint8(4))
	f.Add(`{"a":1,"\u0061":2}`, uint8(1), uint8(10))
	f.Fuzz(func(t *testing.T, text string, depth, maxDepth uint8) {
		md := int(maxDepth)%64 + 1
		checkVouch(t, []byte(text), int(depth)%md, md)
	})
}
