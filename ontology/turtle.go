package ontology

// A Turtle reader (https://www.w3.org/TR/turtle/). knakk/rdf's Turtle decoder rejects a number at the end
// of a line (the published json-rpc ontology has one), panics in a goroutine nobody can recover on valid
// input such as """""a""" or on a line starting with ".5", gives blank node labels that clash with the ones
// it makes for [], and leaves its lexer goroutine blocked after an error. So this package reads Turtle
// itself: one pass over the bytes, errors with line numbers, no goroutines.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxNesting bounds the depth of nested [] and () so that hostile input cannot exhaust the stack.
const maxNesting = 512

type turtleReader struct {
	data     []byte
	pos      int
	base     string
	prefixes map[string]string
	triples  []triple
	blanks   int
	depth    int
}

// turtleError carries a parse error out of the reader; parseTurtle turns it into a *ParseError.
type turtleError struct{ pe *ParseError }

// parseTurtle reads a Turtle document and returns its triples and the prefixes it declares.
func parseTurtle(data []byte, base string) (ts []triple, prefixes map[string]string, err error) {
	r := &turtleReader{data: data, base: base, prefixes: map[string]string{}}
	defer func() {
		if e := recover(); e != nil {
			te, ok := e.(turtleError)
			if !ok {
				panic(e)
			}
			ts, prefixes, err = nil, nil, te.pe
		}
	}()
	for r.skipSpace(); r.pos < len(r.data); r.skipSpace() {
		r.statement()
	}
	return r.triples, r.prefixes, nil
}

// fail stops the parse with an error at the current position.
func (r *turtleReader) fail(format string, args ...any) {
	line := 1 + bytes.Count(r.data[:min(r.pos, len(r.data))], []byte("\n"))
	panic(turtleError{&ParseError{Line: line, Msg: fmt.Sprintf(format, args...)}})
}

// found describes the input at the current position for an error message.
func (r *turtleReader) found() string {
	if r.pos >= len(r.data) {
		return "end of input"
	}
	end := r.pos
	for end < len(r.data) && end-r.pos < 20 && !isSpace(r.data[end]) {
		end++
	}
	if end == r.pos {
		end = r.pos + 1
	}
	return strconv.Quote(string(r.data[r.pos:end]))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipSpace skips white space and comments.
func (r *turtleReader) skipSpace() {
	for r.pos < len(r.data) {
		switch c := r.data[r.pos]; {
		case isSpace(c):
			r.pos++
		case c == '#':
			for r.pos < len(r.data) && r.data[r.pos] != '\n' {
				r.pos++
			}
		default:
			return
		}
	}
}

func (r *turtleReader) peek() byte {
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// expect consumes c after optional white space, or fails.
func (r *turtleReader) expect(c byte, what string) {
	r.skipSpace()
	if r.peek() != c {
		r.fail("expected %q %s, found %s", c, what, r.found())
	}
	r.pos++
}

// keyword reports whether the input continues with word (case-insensitively when fold is set) followed by
// a character that cannot continue a name, and consumes it if so.
func (r *turtleReader) keyword(word string, fold bool) bool {
	end := r.pos + len(word)
	if end > len(r.data) {
		return false
	}
	got := string(r.data[r.pos:end])
	if got != word && !(fold && strings.EqualFold(got, word)) {
		return false
	}
	if end < len(r.data) {
		// "a:b" and "true:x" are prefixed names, "@prefix:" is the directive and the empty prefix.
		if c, _ := utf8.DecodeRune(r.data[end:]); isPNChars(c) || c == ':' && word[0] != '@' {
			return false
		}
	}
	r.pos = end
	return true
}

func (r *turtleReader) statement() {
	switch {
	case r.keyword("@prefix", false):
		r.prefixDecl()
		r.expect('.', "after @prefix")
	case r.keyword("@base", false):
		r.baseDecl()
		r.expect('.', "after @base")
	case r.keyword("PREFIX", true):
		r.prefixDecl()
	case r.keyword("BASE", true):
		r.baseDecl()
	case r.peek() == '@':
		r.fail("unknown directive %s", r.found())
	default:
		r.triplesStatement()
		r.expect('.', "at the end of the statement")
	}
}

func (r *turtleReader) prefixDecl() {
	r.skipSpace()
	start := r.pos
	name := r.pnPrefix()
	if r.peek() != ':' {
		r.pos = start
		r.fail("expected a prefix name and ':', found %s", r.found())
	}
	r.pos++
	r.skipSpace()
	if r.peek() != '<' {
		r.fail("expected the prefix IRI, found %s", r.found())
	}
	r.prefixes[name] = r.iriRef()
}

func (r *turtleReader) baseDecl() {
	r.skipSpace()
	if r.peek() != '<' {
		r.fail("expected the base IRI, found %s", r.found())
	}
	r.base = r.iriRef()
}

func (r *turtleReader) triplesStatement() {
	r.skipSpace()
	if r.peek() == '[' {
		subj := r.blankNodePropertyList()
		r.skipSpace()
		if r.peek() != '.' {
			r.predicateObjectList(subj)
		}
		return
	}
	r.predicateObjectList(r.subject())
}

func (r *turtleReader) subject() term {
	r.skipSpace()
	switch c := r.peek(); {
	case c == '<':
		return term{kind: iriTerm, value: r.iriRef()}
	case c == '_' && r.pos+1 < len(r.data) && r.data[r.pos+1] == ':':
		return r.blankLabel()
	case c == '(':
		return r.collection()
	case c == '"' || c == '\'' || c == '+' || c == '-' || isDigit(c):
		r.fail("a literal cannot be a subject: %s", r.found())
	}
	return term{kind: iriTerm, value: r.prefixedName("a subject")}
}

// predicateObjectList reads verb objectList (';' (verb objectList)?)*.
func (r *turtleReader) predicateObjectList(subj term) {
	for {
		pred := r.verb()
		for {
			obj := r.object()
			r.triples = append(r.triples, triple{s: subj, p: pred, o: obj})
			r.skipSpace()
			if r.peek() != ',' {
				break
			}
			r.pos++
		}
		if r.peek() != ';' {
			return
		}
		for r.peek() == ';' {
			r.pos++
			r.skipSpace()
		}
		if c := r.peek(); c == '.' || c == ']' || r.pos >= len(r.data) {
			return
		}
	}
}

func (r *turtleReader) verb() string {
	r.skipSpace()
	if r.peek() == 'a' && r.keyword("a", false) {
		return nsRDF + "type"
	}
	if r.peek() == '<' {
		return r.iriRef()
	}
	return r.prefixedName("a predicate")
}

func (r *turtleReader) object() term {
	r.skipSpace()
	switch c := r.peek(); {
	case c == '<':
		return term{kind: iriTerm, value: r.iriRef()}
	case c == '_' && r.pos+1 < len(r.data) && r.data[r.pos+1] == ':':
		return r.blankLabel()
	case c == '[':
		return r.blankNodePropertyList()
	case c == '(':
		return r.collection()
	case c == '"' || c == '\'':
		return r.rdfLiteral()
	case c == '+' || c == '-' || isDigit(c) || c == '.' && r.pos+1 < len(r.data) && isDigit(r.data[r.pos+1]):
		return term{kind: literalTerm, value: r.number()}
	case r.keyword("true", false):
		return term{kind: literalTerm, value: "true"}
	case r.keyword("false", false):
		return term{kind: literalTerm, value: "false"}
	}
	return term{kind: iriTerm, value: r.prefixedName("an object")}
}

func (r *turtleReader) newBlank() term {
	r.blanks++
	return term{kind: blankTerm, value: "g" + strconv.Itoa(r.blanks)}
}

func (r *turtleReader) nest() {
	r.depth++
	if r.depth > maxNesting {
		r.fail("[] and () nested more than %d deep", maxNesting)
	}
}

// blankNodePropertyList reads '[' predicateObjectList? ']' and returns the blank node.
func (r *turtleReader) blankNodePropertyList() term {
	r.nest()
	r.pos++ // '['
	b := r.newBlank()
	r.skipSpace()
	if r.peek() != ']' {
		r.predicateObjectList(b)
	}
	r.expect(']', "to close '['")
	r.depth--
	return b
}

// collection reads '(' object* ')' and returns the head of the RDF list.
func (r *turtleReader) collection() term {
	r.nest()
	r.pos++ // '('
	var items []term
	for r.skipSpace(); r.peek() != ')'; r.skipSpace() {
		if r.pos >= len(r.data) {
			r.fail("expected ')' to close '(', found end of input")
		}
		items = append(items, r.object())
	}
	r.pos++
	r.depth--
	head := term{kind: iriTerm, value: nsRDF + "nil"}
	cells := make([]term, len(items))
	for i := range items {
		cells[i] = r.newBlank()
	}
	for i := len(items) - 1; i >= 0; i-- {
		r.triples = append(r.triples,
			triple{s: cells[i], p: nsRDF + "first", o: items[i]},
			triple{s: cells[i], p: nsRDF + "rest", o: head})
		head = cells[i]
	}
	return head
}

// iriRef reads <...>, unescapes \u and \U, and resolves the IRI against the base.
func (r *turtleReader) iriRef() string {
	r.pos++ // '<'
	var b strings.Builder
	for {
		if r.pos >= len(r.data) {
			r.fail("IRI without closing '>'")
		}
		c, size := utf8.DecodeRune(r.data[r.pos:])
		switch {
		case c == '>':
			r.pos++
			return resolveIRI(r.base, b.String())
		case c == '\\':
			b.WriteRune(r.uchar())
			continue
		case c <= ' ' || strings.ContainsRune("<\"{}|^`", c) || c == utf8.RuneError && size == 1:
			r.fail("character %q is not allowed in an IRI", c)
		}
		b.WriteRune(c)
		r.pos += size
	}
}

// uchar reads \uXXXX or \UXXXXXXXX at the current position.
func (r *turtleReader) uchar() rune {
	n := 0
	switch {
	case r.pos+1 < len(r.data) && r.data[r.pos+1] == 'u':
		n = 4
	case r.pos+1 < len(r.data) && r.data[r.pos+1] == 'U':
		n = 8
	default:
		r.fail("bad escape %s", r.found())
	}
	if r.pos+2+n > len(r.data) {
		r.fail("bad escape %s", r.found())
	}
	v, err := strconv.ParseUint(string(r.data[r.pos+2:r.pos+2+n]), 16, 32)
	if err != nil || !utf8.ValidRune(rune(v)) {
		r.fail("bad escape %s", r.found())
	}
	r.pos += 2 + n
	return rune(v)
}

// pnPrefix reads PN_PREFIX (possibly empty) and returns it.
func (r *turtleReader) pnPrefix() string {
	start := r.pos
	if c, size := utf8.DecodeRune(r.data[r.pos:]); r.pos < len(r.data) && isPNCharsBase(c) {
		r.pos += size
	} else {
		return ""
	}
	r.nameTail(false)
	return string(r.data[start:r.pos])
}

// nameTail reads ((PN_CHARS | '.')* PN_CHARS)?, plus ':' and PLX when local is set.
func (r *turtleReader) nameTail(local bool) {
	for r.pos < len(r.data) {
		c, size := utf8.DecodeRune(r.data[r.pos:])
		switch {
		case isPNChars(c), local && c == ':':
			r.pos += size
		case c == '.':
			// A dot belongs to the name only when the name goes on after it.
			next := r.pos + 1
			for next < len(r.data) && r.data[next] == '.' {
				next++
			}
			if next >= len(r.data) {
				return
			}
			n, _ := utf8.DecodeRune(r.data[next:])
			if !isPNChars(n) && !(local && (n == ':' || n == '%' || n == '\\')) {
				return
			}
			r.pos = next
		case local && (c == '%' || c == '\\'):
			r.plx()
		default:
			return
		}
	}
}

// plx checks a %HH or a \-escape in a local name; the caller keeps the source text.
func (r *turtleReader) plx() {
	if r.data[r.pos] == '%' {
		if r.pos+2 >= len(r.data) || !isHex(r.data[r.pos+1]) || !isHex(r.data[r.pos+2]) {
			r.fail("bad percent escape %s in a local name", r.found())
		}
		r.pos += 3
		return
	}
	if r.pos+1 >= len(r.data) || !strings.ContainsRune("_~.-!$&'()*+,;=/?#@%", rune(r.data[r.pos+1])) {
		r.fail("bad escape %s in a local name", r.found())
	}
	r.pos += 2
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// prefixedName reads PNAME_NS or PNAME_LN and returns the IRI it stands for.
func (r *turtleReader) prefixedName(role string) string {
	start := r.pos
	prefix := r.pnPrefix()
	if r.peek() != ':' {
		r.pos = start
		r.fail("expected %s, found %s", role, r.found())
	}
	ns, ok := r.prefixes[prefix]
	if !ok {
		r.pos = start
		r.fail("undeclared prefix %q", prefix+":")
	}
	r.pos++
	localStart := r.pos
	if r.pos < len(r.data) {
		c, size := utf8.DecodeRune(r.data[r.pos:])
		switch {
		case isPNCharsU(c) || c == ':' || isDigit(r.data[r.pos]):
			r.pos += size
			r.nameTail(true)
		case c == '%' || c == '\\':
			r.plx()
			r.nameTail(true)
		}
	}
	local := string(r.data[localStart:r.pos])
	if strings.Contains(local, "\\") { // PN_LOCAL_ESC: drop the backslash
		var b strings.Builder
		for i := 0; i < len(local); i++ {
			if local[i] == '\\' && i+1 < len(local) {
				i++
			}
			b.WriteByte(local[i])
		}
		local = b.String()
	}
	return ns + local
}

// blankLabel reads _:label.
func (r *turtleReader) blankLabel() term {
	r.pos += 2
	start := r.pos
	c, size := utf8.DecodeRune(r.data[r.pos:])
	if r.pos >= len(r.data) || !(isPNCharsU(c) || isDigit(r.data[r.pos])) {
		r.fail("bad blank node label %s", r.found())
	}
	r.pos += size
	r.nameTail(false)
	return term{kind: blankTerm, value: "l" + string(r.data[start:r.pos])}
}

// rdfLiteral reads a string with an optional language tag or datatype.
func (r *turtleReader) rdfLiteral() term {
	lit := term{kind: literalTerm, value: r.str()}
	switch {
	case r.peek() == '@':
		r.pos++
		start := r.pos
		for r.pos < len(r.data) && (isLetter(r.data[r.pos]) || r.pos > start && (r.data[r.pos] == '-' || isDigit(r.data[r.pos]))) {
			r.pos++
		}
		tag := string(r.data[start:r.pos])
		if tag == "" || !isLetter(tag[0]) || strings.HasSuffix(tag, "-") || strings.Contains(tag, "--") {
			r.pos = start
			r.fail("bad language tag %s", r.found())
		}
		lit.lang = tag
	case r.peek() == '^' && r.pos+1 < len(r.data) && r.data[r.pos+1] == '^':
		r.pos += 2
		if r.peek() == '<' {
			r.iriRef()
		} else {
			r.prefixedName("a datatype")
		}
	}
	return lit
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// str reads a quoted string in any of the four forms and returns its value.
func (r *turtleReader) str() string {
	q := r.data[r.pos]
	long := r.pos+2 < len(r.data) && r.data[r.pos+1] == q && r.data[r.pos+2] == q
	if long {
		r.pos += 3
	} else {
		r.pos++
	}
	var b strings.Builder
	for {
		if r.pos >= len(r.data) {
			r.fail("string without closing quote")
		}
		c, size := utf8.DecodeRune(r.data[r.pos:])
		switch {
		case c == rune(q) && !long:
			r.pos++
			return b.String()
		case c == rune(q) && r.pos+2 < len(r.data) && r.data[r.pos+1] == q && r.data[r.pos+2] == q:
			r.pos += 3
			return b.String()
		case c == '\\':
			b.WriteRune(r.echar())
			continue
		case !long && (c == '\n' || c == '\r'):
			r.fail("line break in a short string (use \"\"\" for long strings)")
		case c == utf8.RuneError && size == 1:
			r.fail("invalid UTF-8 in a string")
		}
		b.WriteRune(c)
		r.pos += size
	}
}

// echar reads a string escape.
func (r *turtleReader) echar() rune {
	if r.pos+1 >= len(r.data) {
		r.fail("bad escape at end of input")
	}
	c := r.data[r.pos+1]
	if c == 'u' || c == 'U' {
		return r.uchar()
	}
	if i := strings.IndexByte("tbnrf\"'\\", c); i >= 0 {
		r.pos += 2
		return rune("\t\b\n\r\f\"'\\"[i])
	}
	r.fail("bad escape %s", r.found())
	return 0
}

// number reads an integer, decimal or double and returns its text.
func (r *turtleReader) number() string {
	start := r.pos
	if c := r.peek(); c == '+' || c == '-' {
		r.pos++
	}
	digits := r.digits()
	frac := 0
	if r.peek() == '.' && r.pos+1 < len(r.data) && (isDigit(r.data[r.pos+1]) || digits > 0 && r.exponentAt(r.pos+1)) {
		r.pos++
		frac = r.digits()
	}
	if digits+frac == 0 {
		r.pos = start
		r.fail("bad number %s", r.found())
	}
	if r.exponentAt(r.pos) {
		r.pos++
		if c := r.peek(); c == '+' || c == '-' {
			r.pos++
		}
		r.digits()
	}
	return string(r.data[start:r.pos])
}

func (r *turtleReader) digits() int {
	n := 0
	for r.pos < len(r.data) && isDigit(r.data[r.pos]) {
		r.pos++
		n++
	}
	return n
}

// exponentAt reports whether an exponent ([eE][+-]?[0-9]) starts at i.
func (r *turtleReader) exponentAt(i int) bool {
	if i >= len(r.data) || r.data[i] != 'e' && r.data[i] != 'E' {
		return false
	}
	i++
	if i < len(r.data) && (r.data[i] == '+' || r.data[i] == '-') {
		i++
	}
	return i < len(r.data) && isDigit(r.data[i])
}

// isPNCharsBase reports whether c is a PN_CHARS_BASE character of the Turtle grammar.
func isPNCharsBase(c rune) bool {
	switch {
	case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		return true
	case c < 0xC0:
		return false
	}
	for _, rg := range [][2]rune{
		{0xC0, 0xD6}, {0xD8, 0xF6}, {0xF8, 0x2FF}, {0x370, 0x37D}, {0x37F, 0x1FFF}, {0x200C, 0x200D},
		{0x2070, 0x218F}, {0x2C00, 0x2FEF}, {0x3001, 0xD7FF}, {0xF900, 0xFDCF}, {0xFDF0, 0xFFFD}, {0x10000, 0xEFFFF},
	} {
		if c >= rg[0] && c <= rg[1] {
			return true
		}
	}
	return false
}

// isPNCharsU reports whether c is PN_CHARS_U: PN_CHARS_BASE or '_'.
func isPNCharsU(c rune) bool { return c == '_' || isPNCharsBase(c) }

// isPNChars reports whether c is PN_CHARS.
func isPNChars(c rune) bool {
	return isPNCharsU(c) || c == '-' || c >= '0' && c <= '9' || c == 0xB7 ||
		c >= 0x300 && c <= 0x36F || c >= 0x203F && c <= 0x2040
}
