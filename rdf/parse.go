package rdf

// The reader of Turtle 1.1 (https://www.w3.org/TR/turtle/), N-Triples and
// N-Quads.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/limits"
)

const (
	maxNesting  = limits.Depth // depth of nested [] and (): hostile input cannot exhaust the stack
	internLimit = 64           // literals up to this length are shared between statements
)

type reader struct {
	data     []byte
	pos      int
	syntax   Format
	base     string
	prefixes map[string]string
	quads    []Quad
	blanks   int
	depth    int
	intern   map[string]string
	buf      []byte
	// lastSubject is the IRI of the last N-Triples or N-Quads subject
	// that was one.
	lastSubject string
}

// parseError carries a syntax error out of the reader; Parse returns it.
type parseError struct{ e *diag.Diagnostic }

// Parse reads a document in Turtle, N-Triples or N-Quads and returns its statements in document order and the
// prefixes it declares (Turtle only). Relative IRIs in Turtle are resolved against base when it is not
// empty; N-Triples and N-Quads allow only absolute IRIs. A syntax error is a *diag.Diagnostic
// with the 1-based line and column (counted in characters) where the reader stopped.
func Parse(data []byte, syntax Format, base string) (quads []Quad, prefixes map[string]string, err error) {
	return ParseAppend(nil, data, syntax, base)
}

// ParseAppend is Parse appending the statements to dst, for a caller that
// reuses one slice for document after document. On an error it returns
// nil statements, as Parse does.
func ParseAppend(dst []Quad, data []byte, syntax Format, base string) (quads []Quad, prefixes map[string]string, err error) {
	if syntax < Turtle || syntax > NQuads {
		return nil, nil, fmt.Errorf("rdf: Parse reads Turtle, N-Triples and N-Quads, not %v", syntax)
	}
	r := &reader{data: data, syntax: syntax, base: base, prefixes: map[string]string{}, intern: map[string]string{}}
	r.quads = dst
	if dst == nil {
		r.quads = make([]Quad, 0, len(data)/80) // about one statement per 80 bytes
	}
	defer func() {
		if e := recover(); e != nil {
			pe, ok := e.(parseError)
			if !ok {
				panic(e)
			}
			quads, prefixes, err = nil, nil, pe.e
		}
	}()
	if syntax == Turtle {
		for r.skipSpace(); r.pos < len(r.data); r.skipSpace() {
			r.statement()
		}
	} else {
		for r.skipSpace(); r.pos < len(r.data); r.skipSpace() {
			r.lineStatement()
		}
	}
	return r.quads, r.prefixes, nil
}

// fail stops the parse with an error at the current position.
func (r *reader) fail(format string, args ...any) {
	pos := min(r.pos, len(r.data))
	lineStart := bytes.LastIndexByte(r.data[:pos], '\n') + 1
	line := 1 + bytes.Count(r.data[:lineStart], []byte("\n"))
	col := 1 + utf8.RuneCount(r.data[lineStart:pos])
	panic(parseError{&diag.Diagnostic{Line: line, Column: col, Severity: diag.Error, Message: fmt.Sprintf(format, args...)}})
}

// found describes the input at the current position for an error message.
func (r *reader) found() string {
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
func (r *reader) skipSpace() {
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

func (r *reader) peek() byte {
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// share returns b as a string, the same string for the same bytes: IRIs, datatypes and short literals
// repeat from statement to statement.
func (r *reader) share(b []byte) string {
	if s, ok := r.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	r.intern[s] = s
	return s
}

func (r *reader) emit(s Term, p string, o Term, g Term) {
	r.quads = append(r.quads, Quad{Triple{S: s, P: p, O: o}, g})
}

// expect consumes c after optional white space, or fails.
func (r *reader) expect(c byte, what string) {
	r.skipSpace()
	if r.peek() != c {
		r.fail("expected %q %s, found %s", c, what, r.found())
	}
	r.pos++
}

// keyword reports whether the input continues with word (case-insensitively when fold is set) followed by
// a character that cannot continue a name, and consumes it if so.
func (r *reader) keyword(word string, fold bool) bool {
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
		if c, _ := utf8.DecodeRune(r.data[end:]); IsPNChars(c) || c == ':' && word[0] != '@' {
			return false
		}
	}
	r.pos = end
	return true
}

func (r *reader) statement() {
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

func (r *reader) prefixDecl() {
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

func (r *reader) baseDecl() {
	r.skipSpace()
	if r.peek() != '<' {
		r.fail("expected the base IRI, found %s", r.found())
	}
	r.base = r.iriRef()
}

func (r *reader) triplesStatement() {
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

func (r *reader) subject() Term {
	r.skipSpace()
	switch c := r.peek(); {
	case c == '<':
		return Term{Kind: IRI, Value: r.iriRef()}
	case c == '_' && r.pos+1 < len(r.data) && r.data[r.pos+1] == ':':
		return r.blankLabel()
	case c == '(':
		return r.collection()
	case c == '"' || c == '\'' || c == '+' || c == '-' || isDigit(c):
		r.fail("a literal cannot be a subject: %s", r.found())
	}
	return Term{Kind: IRI, Value: r.prefixedName("a subject")}
}

// predicateObjectList reads verb objectList (';' (verb objectList)?)*.
func (r *reader) predicateObjectList(subj Term) {
	for {
		pred := r.verb()
		for {
			obj := r.object()
			r.emit(subj, pred, obj, Term{})
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

func (r *reader) verb() string {
	r.skipSpace()
	if r.peek() == 'a' && r.keyword("a", false) {
		return RDFType
	}
	if r.peek() == '<' {
		return r.iriRef()
	}
	return r.prefixedName("a predicate")
}

func (r *reader) object() Term {
	r.skipSpace()
	switch c := r.peek(); {
	case c == '<':
		return Term{Kind: IRI, Value: r.iriRef()}
	case c == '_' && r.pos+1 < len(r.data) && r.data[r.pos+1] == ':':
		return r.blankLabel()
	case c == '[':
		return r.blankNodePropertyList()
	case c == '(':
		return r.collection()
	case c == '"' || c == '\'':
		return r.rdfLiteral()
	case c == '+' || c == '-' || isDigit(c) || c == '.' && r.pos+1 < len(r.data) && isDigit(r.data[r.pos+1]):
		return r.number()
	case r.keyword("true", false):
		return Term{Kind: Literal, Value: "true", Datatype: XSDBoolean}
	case r.keyword("false", false):
		return Term{Kind: Literal, Value: "false", Datatype: XSDBoolean}
	}
	return Term{Kind: IRI, Value: r.prefixedName("an object")}
}

func (r *reader) newBlank() Term {
	r.blanks++
	return Term{Kind: Blank, Value: "#" + strconv.Itoa(r.blanks)}
}

func (r *reader) nest() {
	r.depth++
	if r.depth > maxNesting {
		r.fail("[] and () nested more than %d deep", maxNesting)
	}
}

// blankNodePropertyList reads '[' predicateObjectList? ']' and returns the blank node.
func (r *reader) blankNodePropertyList() Term {
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
func (r *reader) collection() Term {
	r.nest()
	r.pos++ // '('
	var items []Term
	for r.skipSpace(); r.peek() != ')'; r.skipSpace() {
		if r.pos >= len(r.data) {
			r.fail("expected ')' to close '(', found end of input")
		}
		items = append(items, r.object())
	}
	r.pos++
	r.depth--
	head := Term{Kind: IRI, Value: RDFNil}
	cells := make([]Term, len(items))
	for i := range items {
		cells[i] = r.newBlank()
	}
	for i := len(items) - 1; i >= 0; i-- {
		r.emit(cells[i], RDFFirst, items[i], Term{})
		r.emit(cells[i], RDFRest, head, Term{})
		head = cells[i]
	}
	return head
}

// iriChar reports, for ASCII bytes, whether they may stand in an IRI unescaped.
var iriChar = func() (t [128]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune("<>\"{}|^`\\", rune(c))
	}
	return t
}()

// iriPlain marks the bytes an IRI holds as they are, with nothing to check
// but the byte itself: the ASCII of iriChar. Indexed by any byte, so that
// the loop over them needs no bounds check.
var iriPlain = func() (t [256]bool) {
	copy(t[:], iriChar[:])
	return t
}()

// iriRef reads <...>, unescapes \u and \U, and resolves the IRI against the base (Turtle) or checks that
// it is absolute (N-Triples, N-Quads).
func (r *reader) iriRef() string { return r.iriRefLast(nil) }

// iriRefLast is iriRef with last, the IRI read last in the same place,
// which is compared before the shared strings are looked up: the lines of
// N-Triples that share a subject mostly follow one another.
func (r *reader) iriRefLast(last *string) string {
	r.pos++ // '<'
	start := r.pos
	var b []byte // the unescaped IRI, once an escape is seen
	escaped := false
	for {
		// Most of an IRI is plain ASCII: one run of it at a time.
		i := r.pos
		for i < len(r.data) && iriPlain[r.data[i]] {
			i++
		}
		if escaped {
			b = append(b, r.data[r.pos:i]...)
		}
		r.pos = i
		if r.pos >= len(r.data) {
			r.fail("IRI without closing '>'")
		}
		c := r.data[r.pos]
		if c == '>' {
			break
		}
		if c == '\\' {
			if !escaped {
				b, escaped = append(r.buf[:0], r.data[start:r.pos]...), true
			}
			at := r.pos
			c := r.uchar()
			// IRIREF allows no escape of a character it forbids unescaped.
			if c <= 0x20 || c < utf8.RuneSelf && !iriChar[c] {
				esc := string(r.data[at:r.pos])
				r.pos = at
				r.fail("escape %s stands for %q, which is not allowed in an IRI", esc, c)
			}
			b = utf8.AppendRune(b, c)
			continue
		}
		size := 1
		if c >= utf8.RuneSelf {
			var rc rune
			if rc, size = utf8.DecodeRune(r.data[r.pos:]); rc == utf8.RuneError && size == 1 {
				r.fail("invalid UTF-8 in an IRI")
			}
		} else if !iriChar[c] {
			r.fail("character %q is not allowed in an IRI", rune(c))
		}
		if escaped {
			b = append(b, r.data[r.pos:r.pos+size]...)
		}
		r.pos += size
	}
	var iri string
	if escaped {
		iri = string(b)
		r.buf = b
	} else if last != nil && *last == string(r.data[start:r.pos]) {
		iri = *last
	} else {
		iri = r.share(r.data[start:r.pos])
		if last != nil {
			*last = iri
		}
	}
	r.pos++ // '>'
	if r.syntax != Turtle {
		if !HasScheme(iri) {
			r.pos = start - 1
			r.fail("relative IRI <%s>: %s allows only absolute IRIs", iri, syntaxName(r.syntax))
		}
		return iri
	}
	if r.base == "" || HasScheme(iri) {
		return iri
	}
	return ResolveIRI(r.base, iri)
}

func syntaxName(s Format) string {
	if s == NQuads {
		return "N-Quads"
	}
	return "N-Triples"
}

// HasScheme reports whether iri starts with a scheme and ':'.
func HasScheme(iri string) bool {
	for i := 0; i < len(iri); i++ {
		c := iri[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// uchar reads \uXXXX or \UXXXXXXXX at the current position.
func (r *reader) uchar() rune {
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
func (r *reader) pnPrefix() string {
	start := r.pos
	if c, size := utf8.DecodeRune(r.data[r.pos:]); r.pos < len(r.data) && IsPNCharsBase(c) {
		r.pos += size
	} else {
		return ""
	}
	r.nameTail(false)
	return string(r.data[start:r.pos])
}

// nameTail reads ((PN_CHARS | '.')* PN_CHARS)?, plus ':' and PLX when local is set.
func (r *reader) nameTail(local bool) {
	for r.pos < len(r.data) {
		c, size := utf8.DecodeRune(r.data[r.pos:])
		switch {
		case IsPNChars(c), local && c == ':':
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
			if !IsPNChars(n) && !(local && (n == ':' || n == '%' || n == '\\')) {
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
func (r *reader) plx() {
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
func (r *reader) prefixedName(role string) string {
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
		case IsPNCharsU(c) || c == ':' || isDigit(r.data[r.pos]):
			r.pos += size
			r.nameTail(true)
		case c == '%' || c == '\\':
			r.plx()
			r.nameTail(true)
		}
	}
	local := r.data[localStart:r.pos]
	buf := append(r.buf[:0], ns...)
	for i := 0; i < len(local); i++ {
		if local[i] == '\\' && i+1 < len(local) { // PN_LOCAL_ESC: drop the backslash
			i++
		}
		buf = append(buf, local[i])
	}
	r.buf = buf
	return r.share(buf)
}

// blankLabel reads _:label.
func (r *reader) blankLabel() Term {
	r.pos += 2
	start := r.pos
	c, size := utf8.DecodeRune(r.data[r.pos:])
	if r.pos >= len(r.data) || !(IsPNCharsU(c) || isDigit(r.data[r.pos])) {
		r.fail("bad blank node label %s", r.found())
	}
	r.pos += size
	r.nameTail(false)
	return Term{Kind: Blank, Value: r.share(r.data[start:r.pos])}
}

// rdfLiteral reads a string with an optional language tag or datatype.
func (r *reader) rdfLiteral() Term {
	lit := Term{Kind: Literal, Value: r.str(), Datatype: XSDString}
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
		lit.Lang, lit.Datatype = tag, RDFLangString
	case r.peek() == '^' && r.pos+1 < len(r.data) && r.data[r.pos+1] == '^':
		r.pos += 2
		if r.peek() == '<' {
			lit.Datatype = r.iriRef()
		} else if r.syntax == Turtle {
			lit.Datatype = r.prefixedName("a datatype")
		} else {
			r.fail("expected a datatype IRI, found %s", r.found())
		}
	}
	return lit
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// strStop marks the bytes that end a run of a string's plain ASCII: the
// quotes, '\\', line breaks, and the bytes of UTF-8 past ASCII.
var strStop = func() (t [256]bool) {
	for _, c := range "\"'\\\n\r" {
		t[c] = true
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = true
	}
	return t
}()

// str reads a quoted string in any of the four forms (N-Triples: only "...") and returns its value.
func (r *reader) str() string {
	q := r.data[r.pos]
	long := r.pos+2 < len(r.data) && r.data[r.pos+1] == q && r.data[r.pos+2] == q
	if r.syntax != Turtle && (q != '"' || long) {
		r.fail("%s allows only \"...\" strings, found %s", syntaxName(r.syntax), r.found())
	}
	if long {
		r.pos += 3
	} else {
		r.pos++
	}
	// Fast path: a short string without escapes is a slice of the input.
	if !long {
		for i := r.pos; i < len(r.data); i++ {
			for i < len(r.data) && !strStop[r.data[i]] {
				i++
			}
			if i >= len(r.data) {
				break
			}
			c := r.data[i]
			if c == q {
				s := r.data[r.pos:i]
				if !utf8.Valid(s) {
					break
				}
				r.pos = i + 1
				if len(s) <= internLimit {
					return r.share(s)
				}
				return string(s)
			}
			if c == '\\' || c == '\n' || c == '\r' {
				break
			}
		}
	}
	b := r.buf[:0]
	defer func() { r.buf = b }()
	for {
		// The plain ASCII up to the next byte that needs a look, at once.
		i := r.pos
		for i < len(r.data) && !strStop[r.data[i]] {
			i++
		}
		b = append(b, r.data[r.pos:i]...)
		r.pos = i
		if r.pos >= len(r.data) {
			r.fail("string without closing quote")
		}
		c := r.data[r.pos]
		switch {
		case c == q && !long:
			r.pos++
			return string(b)
		case c == q && r.pos+2 < len(r.data) && r.data[r.pos+1] == q && r.data[r.pos+2] == q:
			r.pos += 3
			return string(b)
		case c == '\\':
			// \" and \\, most of the escapes of JSON text, inline.
			if r.pos+1 < len(r.data) {
				if e := r.data[r.pos+1]; e == '"' || e == '\\' {
					b = append(b, e)
					r.pos += 2
					continue
				}
			}
			b = utf8.AppendRune(b, r.echar())
			continue
		case !long && (c == '\n' || c == '\r'):
			r.fail("line break in a short string (use \"\"\" for long strings)")
		case c >= utf8.RuneSelf:
			rc, size := utf8.DecodeRune(r.data[r.pos:])
			if rc == utf8.RuneError && size == 1 {
				r.fail("invalid UTF-8 in a string")
			}
			b = append(b, r.data[r.pos:r.pos+size]...)
			r.pos += size
			continue
		}
		b = append(b, c)
		r.pos++
	}
}

// echar reads a string escape.
func (r *reader) echar() rune {
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

// number reads an integer, decimal or double.
func (r *reader) number() Term {
	start := r.pos
	if c := r.peek(); c == '+' || c == '-' {
		r.pos++
	}
	digits := r.digits()
	frac, dt := 0, XSDInteger
	if r.peek() == '.' && r.pos+1 < len(r.data) && (isDigit(r.data[r.pos+1]) || digits > 0 && r.exponentAt(r.pos+1)) {
		r.pos++
		frac = r.digits()
		dt = XSDDecimal
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
		dt = XSDDouble
	}
	return Term{Kind: Literal, Value: r.share(r.data[start:r.pos]), Datatype: dt}
}

func (r *reader) digits() int {
	n := 0
	for r.pos < len(r.data) && isDigit(r.data[r.pos]) {
		r.pos++
		n++
	}
	return n
}

// exponentAt reports whether an exponent ([eE][+-]?[0-9]) starts at i.
func (r *reader) exponentAt(i int) bool {
	if i >= len(r.data) || r.data[i] != 'e' && r.data[i] != 'E' {
		return false
	}
	i++
	if i < len(r.data) && (r.data[i] == '+' || r.data[i] == '-') {
		i++
	}
	return i < len(r.data) && isDigit(r.data[i])
}

// skipInline skips the spaces and tabs between the terms of an N-Triples or N-Quads statement.
func (r *reader) skipInline() {
	for r.pos < len(r.data) && (r.data[r.pos] == ' ' || r.data[r.pos] == '\t') {
		r.pos++
	}
}

// lineStatement reads one N-Triples or N-Quads statement, which ends its line.
func (r *reader) lineStatement() {
	var s, o, g Term
	switch c := r.peek(); {
	case c == '<':
		s = Term{Kind: IRI, Value: r.iriRefLast(&r.lastSubject)}
	case c == '_' && r.pos+1 < len(r.data) && r.data[r.pos+1] == ':':
		s = r.blankLabel()
	default:
		r.fail("expected a subject (<IRI> or _:label), found %s", r.found())
	}
	r.skipInline()
	if r.peek() != '<' {
		r.fail("expected a predicate <IRI>, found %s", r.found())
	}
	p := r.iriRef()
	r.skipInline()
	switch c := r.peek(); {
	case c == '<':
		o = Term{Kind: IRI, Value: r.iriRef()}
	case c == '_' && r.pos+1 < len(r.data) && r.data[r.pos+1] == ':':
		o = r.blankLabel()
	case c == '"':
		o = r.rdfLiteral()
	default:
		r.fail("expected an object (<IRI>, _:label or \"literal\"), found %s", r.found())
	}
	r.skipInline()
	if r.syntax == NQuads {
		switch c := r.peek(); {
		case c == '<':
			g = Term{Kind: IRI, Value: r.iriRef()}
		case c == '_' && r.pos+1 < len(r.data) && r.data[r.pos+1] == ':':
			g = r.blankLabel()
		}
		r.skipInline()
	}
	if r.peek() != '.' {
		r.fail("expected '.' at the end of the statement, found %s", r.found())
	}
	r.pos++
	r.skipInline()
	if c := r.peek(); c == '#' {
		for r.pos < len(r.data) && r.data[r.pos] != '\n' {
			r.pos++
		}
	} else if r.pos < len(r.data) && c != '\n' && c != '\r' {
		r.fail("expected the end of the line after '.', found %s", r.found())
	}
	r.emit(s, p, o, g)
}

// IsPNCharsBase reports whether c is a PN_CHARS_BASE character of the
// Turtle grammar.
func IsPNCharsBase(c rune) bool {
	switch {
	case c < utf8.RuneSelf:
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
	case c >= 0xC0 && c <= 0xD6, c >= 0xD8 && c <= 0xF6, c >= 0xF8 && c <= 0x2FF,
		c >= 0x370 && c <= 0x37D, c >= 0x37F && c <= 0x1FFF, c >= 0x200C && c <= 0x200D,
		c >= 0x2070 && c <= 0x218F, c >= 0x2C00 && c <= 0x2FEF, c >= 0x3001 && c <= 0xD7FF,
		c >= 0xF900 && c <= 0xFDCF, c >= 0xFDF0 && c <= 0xFFFD, c >= 0x10000 && c <= 0xEFFFF:
		return true
	}
	return false
}

// IsPNCharsU reports whether c is PN_CHARS_U: PN_CHARS_BASE or '_'.
func IsPNCharsU(c rune) bool { return c == '_' || IsPNCharsBase(c) }

// IsPNChars reports whether c is PN_CHARS.
func IsPNChars(c rune) bool {
	return IsPNCharsU(c) || c == '-' || c >= '0' && c <= '9' || c == 0xB7 ||
		c >= 0x300 && c <= 0x36F || c >= 0x203F && c <= 0x2040
}
