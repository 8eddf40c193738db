package xsd

// sh:pattern is SPARQL's REGEX, whose syntax is that of XPath and XML
// Schema regular expressions, not Go's (RE2). Regexp translates:
// character classes become explicit lists of ranges (which gives XPath's
// class subtraction, [a-z-[aeiou]], and its \i, \c, \w, \d and \p{IsBlock}
// escapes, none of which RE2 has in the same sense), '.' stops at CR as
// well as LF, and the flags s, m, i, x and q are XPath's. Back-references
// (\1), which RE2 cannot run, are an error.

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Regexp compiles an XPath regular expression with XPath's flags (s, m,
// i, x and q) into Go's regular expressions.
func Regexp(pattern, flags string) (*regexp.Regexp, error) {
	var goFlags string
	literal, extended, dotAll := false, false, false
	for _, f := range flags {
		switch f {
		case 'i':
			goFlags += "i"
		case 'm':
			goFlags += "m"
		case 's':
			dotAll = true
		case 'x':
			extended = true
		case 'q':
			literal = true
		default:
			return nil, fmt.Errorf("unknown flag %q in flags %q (XPath's flags are s, m, i, x and q)", f, flags)
		}
	}
	prefix := ""
	if goFlags != "" {
		prefix = "(?" + goFlags + ")"
	}
	if literal {
		return regexp.Compile(prefix + regexp.QuoteMeta(pattern))
	}
	t := &translator{src: []rune(pattern), dotAll: dotAll, extended: extended}
	out, err := t.translate()
	if err != nil {
		return nil, err
	}
	return regexp.Compile(prefix + out)
}

type translator struct {
	src              []rune
	pos              int
	dotAll, extended bool
}

// rangeSet is a set of characters as sorted, disjoint, inclusive ranges.
type rangeSet []rune // lo0, hi0, lo1, hi1, ...

func (t *translator) translate() (string, error) {
	var b strings.Builder
	for t.pos < len(t.src) {
		c := t.src[t.pos]
		switch {
		case t.extended && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			t.pos++
		case c == '.':
			t.pos++
			if t.dotAll {
				b.WriteString(`(?s:.)`)
			} else {
				b.WriteString(`[^\n\r]`)
			}
		case c == '[':
			set, err := t.class()
			if err != nil {
				return "", err
			}
			b.WriteString(set.String())
		case c == '\\':
			set, lit, err := t.escape()
			if err != nil {
				return "", err
			}
			if set != nil {
				b.WriteString(set.String())
			} else {
				b.WriteString(regexp.QuoteMeta(string(lit)))
			}
		case c == '(' && t.pos+1 < len(t.src) && t.src[t.pos+1] == '?':
			if t.pos+2 < len(t.src) && t.src[t.pos+2] == ':' {
				b.WriteString("(?:")
				t.pos += 3
				continue
			}
			//lint:ignore ST1005 the message ends with the one (? group XPath has, not with punctuation
			return "", errors.New("(? is not XPath regular expression syntax, except (?:")
		default:
			b.WriteRune(c)
			t.pos++
		}
	}
	return b.String(), nil
}

// escape reads a backslash escape: a set of characters, or one character.
func (t *translator) escape() (rangeSet, rune, error) {
	t.pos++ // '\'
	if t.pos >= len(t.src) {
		return nil, 0, errors.New("the pattern ends with a lone backslash")
	}
	c := t.src[t.pos]
	t.pos++
	switch c {
	case 'n':
		return nil, '\n', nil
	case 'r':
		return nil, '\r', nil
	case 't':
		return nil, '\t', nil
	case '\\', '|', '.', '?', '*', '+', '(', ')', '{', '}', '-', '[', ']', '^', '$':
		return nil, c, nil
	case 'd', 'D', 's', 'S', 'w', 'W', 'i', 'I', 'c', 'C':
		set := multiEscape(c)
		if c >= 'A' && c <= 'Z' {
			set = set.complement()
		}
		return set, 0, nil
	case 'p', 'P':
		if t.pos >= len(t.src) || t.src[t.pos] != '{' {
			return nil, 0, fmt.Errorf(`\%c must be followed by {name}`, c)
		}
		end := slices.Index(t.src[t.pos:], '}')
		if end < 0 {
			return nil, 0, fmt.Errorf(`\%c{ is not closed`, c)
		}
		name := string(t.src[t.pos+1 : t.pos+end])
		t.pos += end + 1
		set, err := property(name)
		if err != nil {
			return nil, 0, err
		}
		if c == 'P' {
			set = set.complement()
		}
		return set, 0, nil
	}
	if c >= '0' && c <= '9' {
		return nil, 0, errors.New("back-references (\\1 ...) are not supported by jrpcld's regular expression engine (RE2)")
	}
	return nil, 0, fmt.Errorf(`\%c is not an XPath regular expression escape`, c)
}

// class reads a character class expression, [...], with XPath's
// negation and subtraction.
func (t *translator) class() (rangeSet, error) {
	t.pos++ // '['
	negate := false
	if t.pos < len(t.src) && t.src[t.pos] == '^' {
		negate = true
		t.pos++
	}
	var set rangeSet
	first := true
	for {
		if t.pos >= len(t.src) {
			return nil, errors.New("a character class [ is not closed")
		}
		c := t.src[t.pos]
		if c == ']' && !first {
			t.pos++
			break
		}
		if c == '-' && t.pos+1 < len(t.src) && t.src[t.pos+1] == '[' && !first {
			t.pos++
			sub, err := t.class()
			if err != nil {
				return nil, err
			}
			if t.pos >= len(t.src) || t.src[t.pos] != ']' {
				return nil, errors.New("a class subtraction -[...] must end its class")
			}
			t.pos++
			if negate {
				set = set.complement()
			}
			return set.minus(sub), nil
		}
		first = false
		var lo rune
		if c == '\\' {
			s, lit, err := t.escape()
			if err != nil {
				return nil, err
			}
			if s != nil {
				set = set.union(s)
				continue
			}
			lo = lit
		} else {
			if c == '[' {
				return nil, errors.New("[ inside a character class must be escaped")
			}
			lo = c
			t.pos++
		}
		hi := lo
		if t.pos+1 < len(t.src) && t.src[t.pos] == '-' && t.src[t.pos+1] != ']' && t.src[t.pos+1] != '[' {
			t.pos++
			h := t.src[t.pos]
			if h == '\\' {
				s, lit, err := t.escape()
				if err != nil {
					return nil, err
				}
				if s != nil {
					return nil, errors.New("a range cannot end with a multi-character escape")
				}
				h = lit
			} else {
				t.pos++
			}
			if h < lo {
				return nil, fmt.Errorf("the range %c-%c is out of order", lo, h)
			}
			hi = h
		}
		set = set.union(rangeSet{lo, hi})
	}
	if negate {
		set = set.complement()
	}
	return set, nil
}

// String writes the set as an RE2 character class.
func (s rangeSet) String() string {
	if len(s) == 0 {
		return `[^\x00-\x{10FFFF}]`
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < len(s); i += 2 {
		fmt.Fprintf(&b, `\x{%x}`, s[i])
		if s[i+1] != s[i] {
			fmt.Fprintf(&b, `-\x{%x}`, s[i+1])
		}
	}
	b.WriteByte(']')
	return b.String()
}

func (s rangeSet) union(o rangeSet) rangeSet {
	all := append(slices.Clone(s), o...)
	type r struct{ lo, hi rune }
	rs := make([]r, 0, len(all)/2)
	for i := 0; i < len(all); i += 2 {
		rs = append(rs, r{all[i], all[i+1]})
	}
	slices.SortFunc(rs, func(a, b r) int { return int(a.lo) - int(b.lo) })
	var out rangeSet
	for _, x := range rs {
		if n := len(out); n > 0 && x.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], x.hi)
			continue
		}
		out = append(out, x.lo, x.hi)
	}
	return out
}

func (s rangeSet) complement() rangeSet {
	var out rangeSet
	next := rune(0)
	for i := 0; i < len(s); i += 2 {
		if s[i] > next {
			out = append(out, next, s[i]-1)
		}
		next = s[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

func (s rangeSet) minus(o rangeSet) rangeSet {
	// s - o = complement(complement(s) | o)
	return s.complement().union(o).complement()
}

func fromTable(t *unicode.RangeTable) rangeSet {
	var s rangeSet
	for _, r := range t.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			if r.Stride == 1 {
				s = append(s, rune(r.Lo), rune(r.Hi))
				break
			}
			s = append(s, c, c)
		}
	}
	for _, r := range t.R32 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			if r.Stride == 1 {
				s = append(s, rune(r.Lo), rune(r.Hi))
				break
			}
			s = append(s, c, c)
		}
	}
	return rangeSet(nil).union(s)
}

// multiEscape returns the set of \d, \s, \w, \i or \c (or their upper
// case forms, before complement).
func multiEscape(c rune) rangeSet {
	switch unicode.ToLower(c) {
	case 'd':
		return fromTable(unicode.Nd)
	case 's':
		return rangeSet{'\t', '\n', '\r', '\r', ' ', ' '}
	case 'w':
		return fromTable(unicode.P).union(fromTable(unicode.Z)).union(fromTable(unicode.C)).complement()
	case 'i':
		return nameSet(isNameStart)
	}
	return nameSet(isNameChar)
}

func nameSet(f func(rune) bool) rangeSet {
	var s rangeSet
	for c := rune(0); c <= 0xEFFFF; c++ {
		if f(c) {
			if n := len(s); n > 0 && s[n-1] == c-1 {
				s[n-1] = c
			} else {
				s = append(s, c, c)
			}
		}
	}
	return s
}

// property returns the set of \p{name}: a Unicode general category (L,
// Lu, Nd...) or, with the prefix Is, a block.
func property(name string) (rangeSet, error) {
	if strings.HasPrefix(name, "Is") {
		for _, b := range blocks {
			if b.name == name[2:] {
				return rangeSet{b.lo, b.hi}, nil
			}
		}
		return nil, fmt.Errorf("\\p{%s}: jrpcld does not know the Unicode block %q", name, name[2:])
	}
	if t, ok := unicode.Categories[name]; ok {
		return fromTable(t), nil
	}
	return nil, fmt.Errorf("\\p{%s}: unknown Unicode category", name)
}

// blocks are the Unicode blocks \p{IsName} names, the most used ones.
var blocks = []struct {
	name   string
	lo, hi rune
}{
	{"BasicLatin", 0x0000, 0x007F}, {"Latin-1Supplement", 0x0080, 0x00FF}, {"LatinExtended-A", 0x0100, 0x017F},
	{"LatinExtended-B", 0x0180, 0x024F}, {"IPAExtensions", 0x0250, 0x02AF}, {"SpacingModifierLetters", 0x02B0, 0x02FF},
	{"CombiningDiacriticalMarks", 0x0300, 0x036F}, {"Greek", 0x0370, 0x03FF}, {"GreekandCoptic", 0x0370, 0x03FF},
	{"Cyrillic", 0x0400, 0x04FF}, {"Armenian", 0x0530, 0x058F}, {"Hebrew", 0x0590, 0x05FF}, {"Arabic", 0x0600, 0x06FF},
	{"Syriac", 0x0700, 0x074F}, {"Thaana", 0x0780, 0x07BF}, {"Devanagari", 0x0900, 0x097F}, {"Bengali", 0x0980, 0x09FF},
	{"Gurmukhi", 0x0A00, 0x0A7F}, {"Gujarati", 0x0A80, 0x0AFF}, {"Oriya", 0x0B00, 0x0B7F}, {"Tamil", 0x0B80, 0x0BFF},
	{"Telugu", 0x0C00, 0x0C7F}, {"Kannada", 0x0C80, 0x0CFF}, {"Malayalam", 0x0D00, 0x0D7F}, {"Sinhala", 0x0D80, 0x0DFF},
	{"Thai", 0x0E00, 0x0E7F}, {"Lao", 0x0E80, 0x0EFF}, {"Tibetan", 0x0F00, 0x0FFF}, {"Myanmar", 0x1000, 0x109F},
	{"Georgian", 0x10A0, 0x10FF}, {"HangulJamo", 0x1100, 0x11FF}, {"Ethiopic", 0x1200, 0x137F}, {"Cherokee", 0x13A0, 0x13FF},
	{"UnifiedCanadianAboriginalSyllabics", 0x1400, 0x167F}, {"Ogham", 0x1680, 0x169F}, {"Runic", 0x16A0, 0x16FF},
	{"Khmer", 0x1780, 0x17FF}, {"Mongolian", 0x1800, 0x18AF}, {"LatinExtendedAdditional", 0x1E00, 0x1EFF},
	{"GreekExtended", 0x1F00, 0x1FFF}, {"GeneralPunctuation", 0x2000, 0x206F}, {"SuperscriptsandSubscripts", 0x2070, 0x209F},
	{"CurrencySymbols", 0x20A0, 0x20CF}, {"CombiningMarksforSymbols", 0x20D0, 0x20FF}, {"LetterlikeSymbols", 0x2100, 0x214F},
	{"NumberForms", 0x2150, 0x218F}, {"Arrows", 0x2190, 0x21FF}, {"MathematicalOperators", 0x2200, 0x22FF},
	{"MiscellaneousTechnical", 0x2300, 0x23FF}, {"ControlPictures", 0x2400, 0x243F}, {"OpticalCharacterRecognition", 0x2440, 0x245F},
	{"EnclosedAlphanumerics", 0x2460, 0x24FF}, {"BoxDrawing", 0x2500, 0x257F}, {"BlockElements", 0x2580, 0x259F},
	{"GeometricShapes", 0x25A0, 0x25FF}, {"MiscellaneousSymbols", 0x2600, 0x26FF}, {"Dingbats", 0x2700, 0x27BF},
	{"BraillePatterns", 0x2800, 0x28FF}, {"CJKRadicalsSupplement", 0x2E80, 0x2EFF}, {"KangxiRadicals", 0x2F00, 0x2FDF},
	{"CJKSymbolsandPunctuation", 0x3000, 0x303F}, {"Hiragana", 0x3040, 0x309F}, {"Katakana", 0x30A0, 0x30FF},
	{"Bopomofo", 0x3100, 0x312F}, {"HangulCompatibilityJamo", 0x3130, 0x318F}, {"Kanbun", 0x3190, 0x319F},
	{"EnclosedCJKLettersandMonths", 0x3200, 0x32FF}, {"CJKCompatibility", 0x3300, 0x33FF},
	{"CJKUnifiedIdeographsExtensionA", 0x3400, 0x4DBF}, {"CJKUnifiedIdeographs", 0x4E00, 0x9FFF}, {"YiSyllables", 0xA000, 0xA48F},
	{"YiRadicals", 0xA490, 0xA4CF}, {"HangulSyllables", 0xAC00, 0xD7AF}, {"PrivateUse", 0xE000, 0xF8FF},
	{"PrivateUseArea", 0xE000, 0xF8FF}, {"CJKCompatibilityIdeographs", 0xF900, 0xFAFF}, {"AlphabeticPresentationForms", 0xFB00, 0xFB4F},
	{"ArabicPresentationForms-A", 0xFB50, 0xFDFF}, {"CombiningHalfMarks", 0xFE20, 0xFE2F}, {"CJKCompatibilityForms", 0xFE30, 0xFE4F},
	{"SmallFormVariants", 0xFE50, 0xFE6F}, {"ArabicPresentationForms-B", 0xFE70, 0xFEFF},
	{"HalfwidthandFullwidthForms", 0xFF00, 0xFFEF}, {"Specials", 0xFFF0, 0xFFFF},
}
