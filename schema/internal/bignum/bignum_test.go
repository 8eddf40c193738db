package bignum

import (
	"math/big"
	"strings"
	"testing"
)

// TestTooBig: the bounds are on the digits before the exponent and on the
// exponent as written, leading zeros of the exponent aside.
func TestTooBig(t *testing.T) {
	digits := func(n int) string { return strings.Repeat("7", n) }
	tests := []struct {
		text string
		want bool
	}{
		{"0", false}, {"-12.5e-3", false},
		{digits(MaxDigits), false}, {digits(MaxDigits + 1), true},
		{"1." + digits(MaxDigits-1), false}, {"1." + digits(MaxDigits), true},
		{"1e1000", false}, {"1E1001", true}, {"1e-1001", true}, {"1e+0001000", false},
		{"-" + digits(MaxDigits) + "e-1000", false},
	}
	for _, tt := range tests {
		if got := TooBig(tt.text); got != tt.want {
			t.Errorf("TooBig(%.30q) = %v, want %v", tt.text, got, tt.want)
		}
		if got := TooBig([]byte(tt.text)); got != tt.want {
			t.Errorf("TooBig([]byte(%.30q)) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestRatTooBig: a compiled number is too big when its numerator and
// denominator together take more bits than the text bounds allow.
func TestRatTooBig(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 4*(MaxDigits+MaxExponent))
	tests := []struct {
		r    *big.Rat
		want bool
	}{
		{nil, false}, {big.NewRat(1, 3), false},
		{new(big.Rat).SetInt(huge), true}, {new(big.Rat).SetFrac(big.NewInt(1), huge), true},
	}
	for _, tt := range tests {
		if got := RatTooBig(tt.r); got != tt.want {
			t.Errorf("RatTooBig(%v) = %v, want %v", tt.r, got, tt.want)
		}
	}
}

// TestAbbreviate: texts of at most 40 bytes stay whole; longer ones keep
// their first 20 and last 12 bytes.
func TestAbbreviate(t *testing.T) {
	long := strings.Repeat("1", 20) + strings.Repeat("5", 30) + strings.Repeat("9", 12)
	tests := []struct{ in, want string }{
		{"1E999999", "1E999999"}, {strings.Repeat("8", 40), strings.Repeat("8", 40)},
		{long, strings.Repeat("1", 20) + "…" + strings.Repeat("9", 12)},
	}
	for _, tt := range tests {
		if got := Abbreviate(tt.in); got != tt.want {
			t.Errorf("Abbreviate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
