package stats

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// termKind tells IRIs, blank nodes and literals apart.
type termKind uint8

const (
	iriTerm termKind = iota + 1
	blankTerm
	literalTerm
)

// term is an RDF term as the graph reader needs it.
type term struct {
	kind  termKind
	value string // the IRI, the blank node's label, or the literal's lexical form
	dt    string // a literal's datatype IRI
	lang  string // a literal's language tag
}

// key identifies a node (IRI or blank node) in maps.
func (t term) key() string {
	if t.kind == blankTerm {
		return "_:" + t.value
	}
	return t.value
}

type triple struct{ s, p, o term }

// GraphError is a syntax error in a graph file.
type GraphError struct {
	File string
	Line int
	Msg  string
}

// Error returns the error as "FILE:LINE: message".
func (e *GraphError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

const (
	rdfNS    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	xsdNS    = "http://www.w3.org/2001/XMLSchema#"
	xsdStr   = xsdNS + "string"
	langStr  = rdfNS + "langString"
	rdfFirst = rdfNS + "first"
	rdfRest  = rdfNS + "rest"
	rdfNil   = rdfNS + "nil"
)

// parseRDF reads Turtle, and with it N-Triples; a statement may also carry a
// graph name after its object, as in N-Quads (the graph name is ignored: the
// log a message belongs to is given by jlog:inLog). emit receives each triple.
// Blank nodes written [] or () get labels that cannot clash with written ones.
func parseRDF(data []byte, file string, emit func(triple)) error {
	p := &rdfParser{data: data, file: file, line: 1, prefixes: map[string]string{}, emit: emit}
	return p.document()
}

type rdfParser struct {
	data     []byte
	pos      int
	line     int
	file     string
	base     *url.URL
	prefixes map[string]string
	fresh    int
	emit     func(triple)
}

// parseFail is the panic value of a syntax error inside the parser; document
// turns it back into an error. Nothing else is recovered.
type parseFail struct{ err *GraphError }

func (p *rdfParser) fail(format string, args ...any) {
	panic(parseFail{&GraphError{File: p.file, Line: p.line, Msg: fmt.Sprintf(format, args...)}})
}

func (p *rdfParser) document() (err error) {
	defer func() {
		if r := recover(); r != nil {
			pf, ok := r.(parseFail)
			if !ok {
				panic(r)
			}
			err = pf.err
		}
	}()
	if len(p.data) >= 3 && string(p.data[:3]) == "\xef\xbb\xbf" {
		p.pos = 3
	}
	for {
		p.space()
		if p.pos >= len(p.data) {
			return nil
		}
		p.statement()
	}
}

// space skips white space and comments.
func (p *rdfParser) space() {
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; c {
		case '\n':
			p.line++
			p.pos++
		case ' ', '\t', '\r':
			p.pos++
		case '#':
			for p.pos < len(p.data) && p.data[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func (p *rdfParser) peek() byte {
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

func (p *rdfParser) expect(c byte) {
	p.space()
	if p.peek() != c {
		p.fail("expected %q, found %s", c, p.near())
	}
	p.pos++
}

// near describes the text at the current position for errors.
func (p *rdfParser) near() string {
	if p.pos >= len(p.data) {
		return "the end of the input"
	}
	end := min(p.pos+20, len(p.data))
	if i := strings.IndexByte(string(p.data[p.pos:end]), '\n'); i >= 0 {
		end = p.pos + i
	}
	return strconv.Quote(string(p.data[p.pos:end]))
}

// keyword reports whether the input continues with word (case-insensitive)
// followed by a non-name character, and consumes it.
func (p *rdfParser) keyword(word string) bool {
	end := p.pos + len(word)
	if end > len(p.data) || !strings.EqualFold(string(p.data[p.pos:end]), word) {
		return false
	}
	if end < len(p.data) && (isNameByte(p.data[end]) && p.data[end] != '.' || p.data[end] == ':') {
		return false
	}
	p.pos = end
	return true
}

func (p *rdfParser) statement() {
	switch {
	case p.peek() == '@':
		p.pos++
		switch {
		case p.keyword("prefix"):
			p.prefixDecl()
			p.expect('.')
		case p.keyword("base"):
			p.baseDecl()
			p.expect('.')
		default:
			p.fail("unknown directive %s", p.near())
		}
	case p.keyword("PREFIX"):
		p.prefixDecl()
	case p.keyword("BASE"):
		p.baseDecl()
	default:
		p.triples()
		p.expect('.')
	}
}

func (p *rdfParser) prefixDecl() {
	p.space()
	start := p.pos
	for p.pos < len(p.data) && p.data[p.pos] != ':' && isNameByte(p.data[p.pos]) {
		p.pos++
	}
	if p.peek() != ':' {
		p.fail("expected a prefix name ending in ':', found %s", p.near())
	}
	name := string(p.data[start:p.pos])
	p.pos++
	p.space()
	p.prefixes[name] = p.iriRef()
}

func (p *rdfParser) baseDecl() {
	p.space()
	iri := p.iriRef()
	u, err := url.Parse(iri)
	if err != nil {
		p.fail("bad base IRI %q: %v", iri, err)
	}
	p.base = u
}

func (p *rdfParser) triples() {
	p.space()
	var subj term
	switch p.peek() {
	case '[':
		subj = p.blankNodePropertyList()
		p.space()
		if c := p.peek(); c == '.' || c == 0 {
			return
		}
	case '(':
		subj = p.collection()
	default:
		subj = p.node("subject")
		if subj.kind == literalTerm {
			p.fail("a literal cannot be a subject")
		}
	}
	p.predicateObjectList(subj)
}

func (p *rdfParser) predicateObjectList(subj term) {
	for {
		p.space()
		var pred term
		if p.peek() == 'a' && p.pos+1 < len(p.data) && !isNameByte(p.data[p.pos+1]) && p.data[p.pos+1] != ':' {
			p.pos++
			pred = term{kind: iriTerm, value: rdfNS + "type"}
		} else {
			pred = p.node("predicate")
			if pred.kind != iriTerm {
				p.fail("a predicate must be an IRI")
			}
		}
		p.objectList(subj, pred)
		p.space()
		if p.peek() != ';' {
			return
		}
		for p.peek() == ';' {
			p.pos++
			p.space()
		}
		if c := p.peek(); c == '.' || c == ']' || c == 0 {
			return
		}
	}
}

func (p *rdfParser) objectList(subj, pred term) {
	for {
		p.space()
		p.emit(triple{subj, pred, p.object()})
		p.space()
		if c := p.peek(); c == '<' || c == '_' {
			p.node("graph name") // N-Quads: the graph name is not needed
			p.space()
		}
		if p.peek() != ',' {
			return
		}
		p.pos++
	}
}

func (p *rdfParser) object() term {
	switch p.peek() {
	case '[':
		return p.blankNodePropertyList()
	case '(':
		return p.collection()
	}
	return p.node("object")
}

func (p *rdfParser) newBlank() term {
	p.fresh++
	// A label with a character that written labels cannot have.
	return term{kind: blankTerm, value: "#" + strconv.Itoa(p.fresh)}
}

func (p *rdfParser) blankNodePropertyList() term {
	p.pos++ // [
	b := p.newBlank()
	p.space()
	if p.peek() == ']' {
		p.pos++
		return b
	}
	p.predicateObjectList(b)
	p.expect(']')
	return b
}

func (p *rdfParser) collection() term {
	p.pos++ // (
	nilTerm := term{kind: iriTerm, value: rdfNil}
	rest := term{kind: iriTerm, value: rdfRest}
	head, last := nilTerm, term{}
	for {
		p.space()
		if p.peek() == ')' {
			p.pos++
			if last.kind != 0 {
				p.emit(triple{last, rest, nilTerm})
			}
			return head
		}
		if p.pos >= len(p.data) {
			p.fail("unterminated collection")
		}
		cell := p.newBlank()
		if last.kind == 0 {
			head = cell
		} else {
			p.emit(triple{last, rest, cell})
		}
		p.emit(triple{cell, term{kind: iriTerm, value: rdfFirst}, p.object()})
		last = cell
	}
}

// node reads an IRI, a prefixed name, a blank node label or a literal.
func (p *rdfParser) node(what string) term {
	p.space()
	c := p.peek()
	switch {
	case c == '<':
		return term{kind: iriTerm, value: p.iriRef()}
	case c == '_' && p.pos+1 < len(p.data) && p.data[p.pos+1] == ':':
		p.pos += 2
		start := p.pos
		for p.pos < len(p.data) && (isNameByte(p.data[p.pos]) || p.data[p.pos] >= 0x80) {
			p.pos++
		}
		for p.pos > start && p.data[p.pos-1] == '.' {
			p.pos--
		}
		if p.pos == start {
			p.fail("empty blank node label")
		}
		return term{kind: blankTerm, value: string(p.data[start:p.pos])}
	case c == '"' || c == '\'':
		return p.literal()
	case c == '+' || c == '-' || c == '.' || ('0' <= c && c <= '9'):
		return p.number()
	case c == 0:
		p.fail("expected %s, found the end of the input", what)
	}
	if p.keyword("true") {
		return term{kind: literalTerm, value: "true", dt: xsdNS + "boolean"}
	}
	if p.keyword("false") {
		return term{kind: literalTerm, value: "false", dt: xsdNS + "boolean"}
	}
	return term{kind: iriTerm, value: p.prefixedName(what)}
}

func (p *rdfParser) prefixedName(what string) string {
	start := p.pos
	for p.pos < len(p.data) && p.data[p.pos] != ':' && (isNameByte(p.data[p.pos]) || p.data[p.pos] >= 0x80) {
		p.pos++
	}
	if p.peek() != ':' {
		p.pos = start
		p.fail("expected %s, found %s", what, p.near())
	}
	prefix := string(p.data[start:p.pos])
	ns, ok := p.prefixes[prefix]
	if !ok {
		p.fail("undeclared prefix %q", prefix)
	}
	p.pos++
	var local strings.Builder
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '\\' && p.pos+1 < len(p.data):
			local.WriteByte(p.data[p.pos+1])
			p.pos += 2
		case c == '.':
			// A name cannot end with '.': that ends the statement.
			if p.pos+1 >= len(p.data) || !isLocalByte(p.data[p.pos+1]) {
				return ns + local.String()
			}
			local.WriteByte(c)
			p.pos++
		case isLocalByte(c):
			local.WriteByte(c)
			p.pos++
		default:
			return ns + local.String()
		}
	}
	return ns + local.String()
}

func isLocalByte(c byte) bool { return isNameByte(c) || c == ':' || c == '%' || c == '\\' || c >= 0x80 }

func (p *rdfParser) iriRef() string {
	if p.peek() != '<' {
		p.fail("expected an IRI in <>, found %s", p.near())
	}
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.data) {
			p.fail("unterminated IRI")
		}
		c := p.data[p.pos]
		switch {
		case c == '>':
			p.pos++
			return p.resolve(b.String())
		case c == '\\':
			b.WriteRune(p.uescape())
		case c <= ' ' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`' || c == '<':
			p.fail("character %q not allowed in an IRI", c)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

func (p *rdfParser) resolve(iri string) string {
	if p.base == nil || strings.Contains(strings.SplitN(iri, "/", 2)[0], ":") {
		return iri
	}
	ref, err := url.Parse(iri)
	if err != nil {
		p.fail("bad IRI %q: %v", iri, err)
	}
	return p.base.ResolveReference(ref).String()
}

// uescape reads \uXXXX or \UXXXXXXXX at the current position.
func (p *rdfParser) uescape() rune {
	if p.pos+1 >= len(p.data) {
		p.fail("unterminated escape")
	}
	n := 0
	switch p.data[p.pos+1] {
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		p.fail("bad escape \\%c", p.data[p.pos+1])
	}
	if p.pos+2+n > len(p.data) {
		p.fail("unterminated escape")
	}
	v, err := strconv.ParseUint(string(p.data[p.pos+2:p.pos+2+n]), 16, 32)
	if err != nil || !utf8.ValidRune(rune(v)) {
		p.fail("bad escape %q", p.data[p.pos:p.pos+2+n])
	}
	p.pos += 2 + n
	return rune(v)
}

func (p *rdfParser) literal() term {
	q := p.data[p.pos]
	long := p.pos+2 < len(p.data) && p.data[p.pos+1] == q && p.data[p.pos+2] == q
	if long {
		p.pos += 3
	} else {
		p.pos++
	}
	var b strings.Builder
	for {
		if p.pos >= len(p.data) {
			p.fail("unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == q && !long:
			p.pos++
			goto end
		case c == q && p.pos+2 < len(p.data) && p.data[p.pos+1] == q && p.data[p.pos+2] == q:
			// In a long string, the last three quotes end it: """a"""" is a".
			for p.pos+3 < len(p.data) && p.data[p.pos+3] == q {
				b.WriteByte(q)
				p.pos++
			}
			p.pos += 3
			goto end
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				p.fail("unterminated string")
			}
			switch e := p.data[p.pos+1]; e {
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 'f':
				b.WriteByte('\f')
			case '"', '\'', '\\':
				b.WriteByte(e)
			case 'u', 'U':
				b.WriteRune(p.uescape())
				continue
			default:
				p.fail("bad escape \\%c in a string", e)
			}
			p.pos += 2
		case (c == '\n' || c == '\r') && !long:
			p.fail("line break in a short string")
		default:
			if c == '\n' {
				p.line++
			}
			b.WriteByte(c)
			p.pos++
		}
	}
end:
	t := term{kind: literalTerm, value: b.String(), dt: xsdStr}
	if !utf8.ValidString(t.value) {
		p.fail("string is not valid UTF-8")
	}
	switch {
	case p.peek() == '@':
		p.pos++
		start := p.pos
		for p.pos < len(p.data) && (isAlnum(p.data[p.pos]) || p.data[p.pos] == '-') {
			p.pos++
		}
		if p.pos == start {
			p.fail("empty language tag")
		}
		t.lang, t.dt = string(p.data[start:p.pos]), langStr
	case p.peek() == '^' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '^':
		p.pos += 2
		if p.peek() == '<' {
			t.dt = p.iriRef()
		} else {
			t.dt = p.prefixedName("a datatype")
		}
	}
	return t
}

func (p *rdfParser) number() term {
	start := p.pos
	if c := p.peek(); c == '+' || c == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && '0' <= p.data[p.pos] && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	dt := xsdNS + "integer"
	n := digits()
	if p.peek() == '.' && p.pos+1 < len(p.data) && '0' <= p.data[p.pos+1] && p.data[p.pos+1] <= '9' {
		p.pos++
		n += digits()
		dt = xsdNS + "decimal"
	}
	if n == 0 {
		p.pos = start
		p.fail("expected a term, found %s", p.near())
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if digits() == 0 {
			p.fail("bad exponent in a number")
		}
		dt = xsdNS + "double"
	}
	return term{kind: literalTerm, value: string(p.data[start:p.pos]), dt: dt}
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isNameByte reports whether c may appear in a prefix, local name or blank
// node label (ASCII part; bytes of other characters are accepted by callers).
func isNameByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }
