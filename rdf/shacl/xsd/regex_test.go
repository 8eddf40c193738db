package xsd

import "testing"

// TestRegex: XPath regular expressions (XML Schema Part 2, appendix G,
// and XPath and XQuery Functions 3.1, 5.6) as sh:pattern reads them.
func TestRegex(t *testing.T) {
	tests := []struct {
		pattern, flags string
		match, miss    []string
	}{
		{"^[a-z-[aeiou]]+$", "", []string{"bcd", "xyz"}, []string{"bad", "BCD"}},
		{"^[\\w-[\\d]]+$", "", []string{"abc", "été", "日本"}, []string{"a1", "a b", "a-b"}},
		{"^\\d+$", "", []string{"123", "١٢٣"}, []string{"12a", ""}},
		{"^\\s$", "", []string{" ", "\t", "\n", "\r"}, []string{"\f", "\v", "\u00a0"}},
		{"^\\i\\c*$", "", []string{"a-b.c", "_x", ":y"}, []string{"1a", "-a", "a b"}},
		{"^\\p{Lu}\\P{Lu}*$", "", []string{"Abc", "Éé"}, []string{"abc", "ABc"}},
		{"^\\p{IsGreek}+$", "", []string{"αβγ"}, []string{"abc"}},
		{"^a.b$", "", []string{"axb", "a b"}, []string{"a\nb", "a\rb"}},
		{"^a.b$", "s", []string{"a\nb", "a\rb"}, nil},
		{"^abc$", "i", []string{"ABC", "aBc"}, []string{"abd"}},
		{"^b$", "m", []string{"a\nb\nc"}, []string{"a b"}},
		{"^b$", "", nil, []string{"a\nb\nc", "b\n"}},
		{"^a b c$", "x", []string{"abc"}, []string{"a b c"}},
		{"^a[ ]b$", "x", []string{"a b"}, []string{"ab"}},
		{"a.c", "q", []string{"xa.cx"}, []string{"abc"}},
		{"^[^a-c]$", "", []string{"d", "é"}, []string{"a", "c"}},
		{"^[-a]+$", "", []string{"-a-"}, []string{"b"}},
		{"^\\$\\^\\.$", "", []string{"$^."}, []string{"x"}},
		{"(?:ab)+", "", []string{"abab"}, []string{"ba"}},
		{"", "", []string{"", "anything"}, nil},
	}
	for _, tc := range tests {
		re, err := Regexp(tc.pattern, tc.flags)
		if err != nil {
			t.Errorf("Regexp(%q, %q): %v", tc.pattern, tc.flags, err)
			continue
		}
		for _, s := range tc.match {
			if !re.MatchString(s) {
				t.Errorf("%q (flags %q) does not match %q", tc.pattern, tc.flags, s)
			}
		}
		for _, s := range tc.miss {
			if re.MatchString(s) {
				t.Errorf("%q (flags %q) matches %q", tc.pattern, tc.flags, s)
			}
		}
	}
	for _, bad := range []struct{ pattern, flags string }{
		{"(a)\\1", ""}, {"[a", ""}, {"a\\", ""}, {"\\p{IsNoSuchBlock}", ""}, {"\\p{Xx}", ""}, {"[z-a]", ""},
		{"a", "g"}, {"(?i)a", ""}, {"\\k", ""},
	} {
		if _, err := Regexp(bad.pattern, bad.flags); err == nil {
			t.Errorf("Regexp(%q, %q) accepted", bad.pattern, bad.flags)
		}
	}
}
