package shacl

import "testing"

func TestLangMatches(t *testing.T) {
	for _, tc := range []struct {
		tag, rng string
		want     bool
	}{{"en", "en", true}, {"en-GB", "en", true}, {"EN-gb", "en-GB", true}, {"eng", "en", false}, {"en", "en-GB", false},
		{"fr", "*", true}, {"", "*", false}, {"", "en", false}} {
		if got := langMatches(tc.tag, tc.rng); got != tc.want {
			t.Errorf("langMatches(%q, %q) = %v", tc.tag, tc.rng, got)
		}
	}
}
