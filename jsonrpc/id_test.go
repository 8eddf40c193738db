package jsonrpc

import (
	"encoding/json"
	"math/big"
	"strconv"
	"testing"
)

func TestIDKey(t *testing.T) {
	same := [][2]any{{json.Number("1"), json.Number("1.0")}, {json.Number("1"), 1.0}, {json.Number("10"), json.Number("1e1")}, {"a", "a"}, {nil, nil},
		{json.Number("1"), 1}, {json.Number("-7"), int64(-7)}, {json.Number("0.5"), 0.5}, {json.Number("-0"), json.Number("0e5")},
		{json.Number("123456789012345678901234567890"), json.Number("1.2345678901234567890123456789e29")},
		{json.Number("1e99999999999999999999"), json.Number("10e99999999999999999998")}}
	for _, p := range same {
		if IDKey(p[0]) != IDKey(p[1]) {
			t.Errorf("IDKey(%#v) != IDKey(%#v)", p[0], p[1])
		}
	}
	differ := [][2]any{{"1", json.Number("1")}, {"", nil}, {json.Number("1"), json.Number("2")}, {"a", "A"},
		{json.Number("0.1"), json.Number("0.10000000000000001")}, {json.Number("1e99999999999999999999"), json.Number("1e99999999999999999998")},
		{json.Number("9007199254740993"), json.Number("9007199254740992")}}
	for _, p := range differ {
		if IDKey(p[0]) == IDKey(p[1]) {
			t.Errorf("IDKey(%#v) == IDKey(%#v)", p[0], p[1])
		}
	}
}

// TestNumbers checks the exact comparison of numbers against math/big.
func TestNumbers(t *testing.T) {
	nums := []string{"0", "-0", "0.0", "0e5", "1", "1.0", "1e0", "10e-1", "0.1e1", "100", "1e2", "1E+2", "-1", "-1.00",
		"0.001", "1e-3", "0.010", "1.5", "15e-1", "123456789012345678901234567890", "1.23456789012345678901234567890e29", "2", "0.5",
		"9007199254740993", "9007199254740992", "1e400", "10e399", "1e-400", "0.1e-399"}
	for _, a := range nums {
		na, ok := NormalNumber(a)
		if !ok {
			t.Fatalf("NormalNumber(%q) not ok", a)
		}
		for _, b := range nums {
			nb, _ := NormalNumber(b)
			ra, _ := new(big.Rat).SetString(a)
			rb, _ := new(big.Rat).SetString(b)
			if want := ra.Cmp(rb) == 0; SameNumber(a, b) != want || (na == nb) != want {
				t.Errorf("%s (%s) vs %s (%s): SameNumber %v, want %v", a, na, b, nb, SameNumber(a, b), want)
			}
		}
	}
	if !SameNumber("1e99999999999999999999", "10e99999999999999999998") || SameNumber("1e99999999999999999999", "1e99999999999999999998") {
		t.Error("huge exponents compare wrongly")
	}
	for s, want := range map[string]bool{"0": true, "-0": true, "1.5e3": true, "01": false, "1.": false, ".5": false, "+1": false,
		"1e": false, "1e+": false, "INF": false, "": false, "-": false, "0x10": false, "1 ": false} {
		if IsNumber(s) != want {
			t.Errorf("IsNumber(%q) = %v", s, !want)
		}
		if _, ok := NormalNumber(s); ok != want {
			t.Errorf("NormalNumber(%q) ok = %v", s, ok)
		}
	}
}

// TestIntegerKey: the short way to the key of an integer id gives exactly
// the key of NormalNumber's form, and takes nothing that is not an integer
// as JSON writes one.
func TestIntegerKey(t *testing.T) {
	ints := []string{"0", "-0", "1", "-1", "7", "10", "100", "120", "-1200", "999999999999999999", "123456789012345678"}
	for n := int64(1); n < 1e18; n = n*7 + 3 {
		ints = append(ints, strconv.FormatInt(n, 10), "-"+strconv.FormatInt(n, 10))
		if n < 1e16 {
			ints = append(ints, strconv.FormatInt(n*100, 10))
		}
	}
	for _, s := range ints {
		k, ok := integerKey(s)
		norm, _ := NormalNumber(s)
		if !ok || k != "n"+norm {
			t.Errorf("integerKey(%q) = %q, %v; want %q", s, k, ok, "n"+norm)
		}
	}
	for _, s := range []string{"", "-", "01", "-01", "1.0", "1e3", "1E3", "+1", "1a", "1234567890123456789"} {
		if k, ok := integerKey(s); ok {
			t.Errorf("integerKey(%q) = %q, want none", s, k)
		}
	}
}
