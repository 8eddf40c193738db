package suggest

import "testing"

func TestClosest(t *testing.T) {
	flags := []string{"format", "formats", "from", "output", "push", "push-timeout", "quiet"}
	for _, c := range []struct{ name, want string }{
		{"formt", "format"},
		{"Format", "format"},
		{"pus", "push"},
		{"push-tiemout", "push-timeout"},
		{"outptu", "output"},
		{"qiuet", "quiet"},
		{"x", ""},
		{"zzzzzz", ""},
		{"fro", "from"},
	} {
		if got := Closest(c.name, flags); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"same", "same", 0}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestHave(t *testing.T) {
	for _, c := range []struct {
		name string
		have []string
		max  int
		want string
	}{
		{"2025-11-26", []string{"2025-11-25", "2024-11-05"}, 10, `; did you mean "2025-11-25"?; it has 2024-11-05, 2025-11-25`},
		{"zebra", []string{"b", "a", "c", "a"}, 2, `; it has a, b, ... (3 in all)`},
		{"x", nil, 5, `; it has none`},
	} {
		if got := Have(c.name, c.have, c.max); got != c.want {
			t.Errorf("Have(%q, %q, %d) = %q, want %q", c.name, c.have, c.max, got, c.want)
		}
	}
}
