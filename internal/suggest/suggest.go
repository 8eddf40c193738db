// Package suggest finds the name a user probably meant: the flag or value
// nearest to a mistyped one, for the "did you mean" of jrpcld and
// jrpcld-beam.
package suggest

import (
	"fmt"
	"slices"
	"strings"
)

// Closest returns the candidate nearest to name: one that starts with it
// (when name is longer than one character), or else one at most two edits
// away (case-insensitively), the first of the nearest; "" when none is.
func Closest(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		d := Distance(strings.ToLower(name), strings.ToLower(c))
		if len(name) > 1 && strings.HasPrefix(c, name) {
			d = 1
		}
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, byte by byte.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Have returns what an error about name, which is not among have, adds to
// say what there is: "; did you mean "X"?" for the nearest (see Closest),
// then "; it has A, B, C": have sorted, the first max of them and how many
// there are in all when there are more.
func Have(name string, have []string, max int) string {
	var b strings.Builder
	if near := Closest(name, have); near != "" {
		fmt.Fprintf(&b, "; did you mean %q?", near)
	}
	sorted := slices.Compact(slices.Sorted(slices.Values(have)))
	switch {
	case len(sorted) == 0:
		b.WriteString("; it has none")
	case len(sorted) > max:
		fmt.Fprintf(&b, "; it has %s, ... (%d in all)", strings.Join(sorted[:max], ", "), len(sorted))
	default:
		b.WriteString("; it has " + strings.Join(sorted, ", "))
	}
	return b.String()
}
