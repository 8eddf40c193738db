package syntax

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/rdf"
)

// tokKind tells what a token is.
type tokKind uint8

// The kinds of tokens. Keywords, function names and 'a' are all tWord;
// the parser tells them apart. NIL "()" and ANON "[]" are two tokens each.
const (
	tEOF     tokKind = iota
	tIRI             // <...>: val is the IRI as written, escapes undone
	tPName           // prefix:local: val the prefix, local the local name unescaped
	tBlank           // _:label: val the label
	tVar             // ?x or $x: val the name
	tString          // val the string, escapes undone
	tLang            // @tag: val the tag
	tInteger         // val the lexical form, sign included
	tDecimal         //
	tDouble          //
	tWord            // a bare name: val as written
	tPunct           // val the punctuation: { } ( ) [ ] . , ; * + - / ! = != < > <= >= && || ^^ ^ | ?
)

// token is one token of the text; pos is its byte offset in the text the
// lexer read (after codepoint escapes were undone).
type token struct {
	kind       tokKind
	val, local string
	pos        int
}

// is reports whether t is the punctuation p.
func (t token) is(p string) bool { return t.kind == tPunct && t.val == p }

// isWord reports whether t is the keyword w (case-insensitively).
func (t token) isWord(w string) bool { return t.kind == tWord && strings.EqualFold(t.val, w) }

// describe names t for messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the text"
	case tIRI:
		return "<" + t.val + ">"
	case tPName:
		return strconv.Quote(t.val + ":" + t.local)
	case tBlank:
		return "_:" + t.val
	case tVar:
		return "?" + t.val
	case tString:
		s := t.val
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return "the string " + strconv.Quote(s)
	case tLang:
		return "@" + t.val
	case tInteger, tDecimal, tDouble:
		return "the number " + t.val
	case tWord:
		return strconv.Quote(t.val)
	}
	return strconv.Quote(t.val)
}

// source is a query's text with its codepoint escapes undone, and what is
// needed to turn an offset in it back into a line and column of the text
// as written.
type source struct {
	orig string
	text string
	// segs maps offsets: from segs[i].at in text on, the text is the
	// original from segs[i].orig on.
	segs []seg
}

type seg struct{ at, orig int }

// newSource undoes the \uXXXX and \UXXXXXXXX escapes of src in one pass,
// as section 19.2 of the specification says: before the text is split
// into tokens, and without undoing an escape that an undone one makes.
func newSource(src string) (*source, error) {
	s := &source{orig: src, text: src, segs: []seg{{0, 0}}}
	if !strings.Contains(src, `\u`) && !strings.Contains(src, `\U`) {
		return s, nil
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(src); i++ {
		if src[i] != '\\' || i+1 >= len(src) || src[i+1] != 'u' && src[i+1] != 'U' {
			continue
		}
		n := 4
		if src[i+1] == 'U' {
			n = 8
		}
		if i+2+n > len(src) {
			continue
		}
		v, err := strconv.ParseUint(src[i+2:i+2+n], 16, 32)
		if err != nil {
			continue
		}
		if v >= 0xD800 && v <= 0xDFFF || v > utf8.MaxRune {
			line, col := lineCol(src, i)
			return nil, &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf("the escape %s is not a Unicode character (a surrogate or past U+10FFFF)", src[i:i+2+n])}
		}
		b.WriteString(src[last:i])
		b.WriteRune(rune(v))
		last = i + 2 + n
		s.segs = append(s.segs, seg{b.Len(), last})
		i = last - 1
	}
	b.WriteString(src[last:])
	s.text = b.String()
	return s, nil
}

// errAt returns a SyntaxError at offset pos of the text.
func (s *source) errAt(pos int, format string, args ...any) *SyntaxError {
	i := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].at > pos }) - 1
	orig := s.segs[i].orig + pos - s.segs[i].at
	if orig > len(s.orig) {
		orig = len(s.orig)
	}
	line, col := lineCol(s.orig, orig)
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// lineCol returns the 1-based line and column (in characters) of offset
// off in text.
func lineCol(text string, off int) (int, int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(text); i++ {
		if text[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCountInString(text[start:off]) + 1
}

// lexer splits a source's text into tokens.
type lexer struct {
	src *source
	s   string
	pos int
}

func (lx *lexer) fail(pos int, format string, args ...any) error {
	return lx.src.errAt(pos, format, args...)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rune returns the character at i and its size (0 at the end).
func (lx *lexer) rune(i int) (rune, int) {
	if i >= len(lx.s) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(lx.s[i:])
}

// skipSpace skips white space and comments.
func (lx *lexer) skipSpace() {
	for lx.pos < len(lx.s) {
		switch c := lx.s[lx.pos]; c {
		case ' ', '\t', '\r', '\n':
			lx.pos++
		case '#':
			for lx.pos < len(lx.s) && lx.s[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			return
		}
	}
}

func (lx *lexer) next() (token, error) {
	lx.skipSpace()
	start := lx.pos
	if start >= len(lx.s) {
		return token{kind: tEOF, pos: start}, nil
	}
	punct := func(p string) (token, error) {
		lx.pos += len(p)
		return token{kind: tPunct, val: p, pos: start}, nil
	}
	c := lx.s[start]
	rest := lx.s[start:]
	switch {
	case c == '<':
		if t, ok := lx.iriRef(); ok {
			return t, nil
		}
		if strings.HasPrefix(rest, "<=") {
			return punct("<=")
		}
		return punct("<")
	case c == '?' || c == '$':
		if r, _ := lx.rune(start + 1); r >= 0 && (rdf.IsPNCharsU(r) || r >= '0' && r <= '9') {
			lx.pos++
			return token{kind: tVar, val: lx.varName(), pos: start}, nil
		}
		if c == '$' {
			return token{}, lx.fail(start, "'$' without a variable name")
		}
		return punct("?")
	case c == '"' || c == '\'':
		return lx.str()
	case c == '@':
		lx.pos++
		for lx.pos < len(lx.s) && isLetter(lx.s[lx.pos]) {
			lx.pos++
		}
		if lx.pos == start+1 {
			return token{}, lx.fail(start, "'@' without a language tag")
		}
		for lx.pos+1 < len(lx.s) && lx.s[lx.pos] == '-' && (isLetter(lx.s[lx.pos+1]) || isDigit(lx.s[lx.pos+1])) {
			lx.pos += 2
			for lx.pos < len(lx.s) && (isLetter(lx.s[lx.pos]) || isDigit(lx.s[lx.pos])) {
				lx.pos++
			}
		}
		return token{kind: tLang, val: lx.s[start+1 : lx.pos], pos: start}, nil
	case isDigit(c) || c == '.' && start+1 < len(lx.s) && isDigit(lx.s[start+1]):
		return lx.number(start), nil
	case (c == '+' || c == '-') && start+1 < len(lx.s) && (isDigit(lx.s[start+1]) ||
		lx.s[start+1] == '.' && start+2 < len(lx.s) && isDigit(lx.s[start+2])):
		lx.pos++
		return lx.number(start), nil
	case c == '_' && strings.HasPrefix(rest, "_:"):
		return lx.blank()
	}
	for _, p := range []string{"^^", "&&", "||", "!=", ">="} {
		if strings.HasPrefix(rest, p) {
			return punct(p)
		}
	}
	if strings.ContainsRune("{}()[].,;*+-/!=>^|", rune(c)) {
		return punct(string(c))
	}
	r, _ := lx.rune(start)
	if r == ':' || rdf.IsPNCharsBase(r) {
		return lx.name()
	}
	if r == utf8.RuneError {
		return token{}, lx.fail(start, "the text is not valid UTF-8")
	}
	return token{}, lx.fail(start, "unexpected character %q", r)
}

// iriRef reads IRIREF if the text at lx.pos is one.
func (lx *lexer) iriRef() (token, bool) {
	start := lx.pos
	for i := start + 1; i < len(lx.s); i++ {
		c := lx.s[i]
		switch {
		case c == '>':
			lx.pos = i + 1
			return token{kind: tIRI, val: lx.s[start+1 : i], pos: start}, true
		case c <= ' ' || strings.IndexByte("<\"{}|^`\\", c) >= 0:
			return token{}, false
		}
	}
	return token{}, false
}

// varName reads VARNAME.
func (lx *lexer) varName() string {
	start := lx.pos
	for {
		r, size := lx.rune(lx.pos)
		if r < 0 || !(rdf.IsPNCharsU(r) || r >= '0' && r <= '9' || r == 0xB7 ||
			r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040) {
			return lx.s[start:lx.pos]
		}
		lx.pos += size
	}
}

// number reads INTEGER, DECIMAL or DOUBLE from lx.pos; the token starts at
// start (a sign, if any, is already read).
func (lx *lexer) number(start int) token {
	digits := func() int {
		n := 0
		for lx.pos < len(lx.s) && isDigit(lx.s[lx.pos]) {
			lx.pos++
			n++
		}
		return n
	}
	kind := tInteger
	digits()
	if lx.pos < len(lx.s) && lx.s[lx.pos] == '.' {
		// "1." is the integer 1 and a dot, unless an exponent follows.
		save := lx.pos
		lx.pos++
		n := digits()
		switch {
		case n > 0:
			kind = tDecimal
		case lx.exponentAt(lx.pos):
		default:
			lx.pos = save
		}
	}
	if lx.exponentAt(lx.pos) {
		lx.pos++
		if lx.s[lx.pos] == '+' || lx.s[lx.pos] == '-' {
			lx.pos++
		}
		digits()
		kind = tDouble
	}
	return token{kind: kind, val: lx.s[start:lx.pos], pos: start}
}

// exponentAt reports whether an exponent ([eE][+-]?[0-9]+) starts at i.
func (lx *lexer) exponentAt(i int) bool {
	if i >= len(lx.s) || lx.s[i] != 'e' && lx.s[i] != 'E' {
		return false
	}
	i++
	if i < len(lx.s) && (lx.s[i] == '+' || lx.s[i] == '-') {
		i++
	}
	return i < len(lx.s) && isDigit(lx.s[i])
}

// nameTail reads ((PN_CHARS | '.')* PN_CHARS)?, plus ':' and PLX in a
// local name, leaving out trailing dots.
func (lx *lexer) nameTail(local bool) error {
	for {
		r, size := lx.rune(lx.pos)
		switch {
		case r < 0:
			return nil
		case rdf.IsPNChars(r), local && r == ':':
			lx.pos += size
		case r == '.':
			next := lx.pos
			for next < len(lx.s) && lx.s[next] == '.' {
				next++
			}
			n, _ := lx.rune(next)
			if n < 0 || !rdf.IsPNChars(n) && !(local && (n == ':' || n == '%' || n == '\\')) {
				return nil
			}
			lx.pos = next
		case local && (r == '%' || r == '\\'):
			if err := lx.plx(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// plx checks a %HH or \-escape at lx.pos and reads it.
func (lx *lexer) plx() error {
	if lx.s[lx.pos] == '%' {
		if lx.pos+2 >= len(lx.s) || !isHex(lx.s[lx.pos+1]) || !isHex(lx.s[lx.pos+2]) {
			return lx.fail(lx.pos, "a '%%' in a local name must be followed by two hex digits")
		}
		lx.pos += 3
		return nil
	}
	if lx.pos+1 >= len(lx.s) || !strings.ContainsRune("_~.-!$&'()*+,;=/?#@%", rune(lx.s[lx.pos+1])) {
		return lx.fail(lx.pos, "bad escape in a local name: only one of _~.-!$&'()*+,;=/?#@%% may follow '\\'")
	}
	lx.pos += 2
	return nil
}

// name reads a prefixed name or a bare word.
func (lx *lexer) name() (token, error) {
	start := lx.pos
	if lx.s[start] != ':' {
		_, size := lx.rune(start)
		lx.pos += size
		if err := lx.nameTail(false); err != nil {
			return token{}, err
		}
	}
	if lx.pos >= len(lx.s) || lx.s[lx.pos] != ':' {
		word := lx.s[start:lx.pos]
		for i := 0; i < len(word); i++ {
			if c := word[i]; !isLetter(c) && !isDigit(c) && c != '_' {
				return token{}, lx.fail(start, "unknown word %q: a prefixed name needs a ':'", word)
			}
		}
		return token{kind: tWord, val: word, pos: start}, nil
	}
	prefix := lx.s[start:lx.pos]
	lx.pos++
	localStart := lx.pos
	r, size := lx.rune(lx.pos)
	switch {
	case r < 0:
	case rdf.IsPNCharsU(r) || r == ':' || r >= '0' && r <= '9':
		lx.pos += size
		if err := lx.nameTail(true); err != nil {
			return token{}, err
		}
	case r == '%' || r == '\\':
		if err := lx.plx(); err != nil {
			return token{}, err
		}
		if err := lx.nameTail(true); err != nil {
			return token{}, err
		}
	}
	raw := lx.s[localStart:lx.pos]
	local := raw
	if strings.IndexByte(raw, '\\') >= 0 {
		var b strings.Builder
		for i := 0; i < len(raw); i++ {
			if raw[i] == '\\' {
				i++
			}
			b.WriteByte(raw[i])
		}
		local = b.String()
	}
	return token{kind: tPName, val: prefix, local: local, pos: start}, nil
}

// blank reads a blank node label.
func (lx *lexer) blank() (token, error) {
	start := lx.pos
	lx.pos += 2
	r, size := lx.rune(lx.pos)
	if r < 0 || !(rdf.IsPNCharsU(r) || r >= '0' && r <= '9') {
		return token{}, lx.fail(start, "a blank node label must follow \"_:\"")
	}
	lx.pos += size
	if err := lx.nameTail(false); err != nil {
		return token{}, err
	}
	return token{kind: tBlank, val: lx.s[start+2 : lx.pos], pos: start}, nil
}

// str reads one of the four forms of string.
func (lx *lexer) str() (token, error) {
	start := lx.pos
	q := lx.s[start]
	long := strings.HasPrefix(lx.s[start:], strings.Repeat(string(q), 3))
	if long {
		lx.pos += 3
	} else {
		lx.pos++
	}
	var b strings.Builder
	for {
		if lx.pos >= len(lx.s) {
			return token{}, lx.fail(start, "the string is not closed")
		}
		c := lx.s[lx.pos]
		switch {
		case c == q && !long:
			lx.pos++
			return token{kind: tString, val: b.String(), pos: start}, nil
		case c == q && strings.HasPrefix(lx.s[lx.pos:], strings.Repeat(string(q), 3)):
			lx.pos += 3
			return token{kind: tString, val: b.String(), pos: start}, nil
		case c == '\\':
			if lx.pos+1 >= len(lx.s) {
				return token{}, lx.fail(lx.pos, "the string is not closed")
			}
			e := strings.IndexByte(`tbnrf"'\`, lx.s[lx.pos+1])
			if e < 0 {
				return token{}, lx.fail(lx.pos, "bad escape \\%c in a string: use one of \\t \\b \\n \\r \\f \\\" \\' \\\\", lx.s[lx.pos+1])
			}
			b.WriteByte("\t\b\n\r\f\"'\\"[e])
			lx.pos += 2
		case !long && (c == '\n' || c == '\r'):
			return token{}, lx.fail(lx.pos, "a line break in a string quoted with one %c: use \\n or the long form %c%c%c", q, q, q, q)
		default:
			r, size := lx.rune(lx.pos)
			if r == utf8.RuneError && size == 1 {
				return token{}, lx.fail(lx.pos, "the text is not valid UTF-8")
			}
			b.WriteString(lx.s[lx.pos : lx.pos+size])
			lx.pos += size
		}
	}
}
