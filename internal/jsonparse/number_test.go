package jsonparse

import (
	"math/big"
	"testing"
)

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
