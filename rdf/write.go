package rdf

// The writers of Turtle, N-Triples and N-Quads.

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

const (
	// flushSize is the buffer size at which formatted groups are written out.
	flushSize = 64 << 10
	// maxNest is the deepest nesting of [ ... ] in Turtle; deeper blank
	// nodes are written with their labels as statements of their own.
	maxNest = 16
)

// Prefix maps a short name to an IRI namespace for Turtle output.
type Prefix struct{ Name, IRI string }

// A Formatter formats a group of triples as the writer it comes from
// writes a group, appending the text to dst; on error dst comes back as it
// was. Each Formatter has its own scratch space, so that several
// goroutines can format groups at once while one goroutine hands the text
// to the writer's WriteFormatted in the order wanted.
type Formatter func(dst []byte, triples []Triple) ([]byte, error)

// output is the buffer shared by the writers.
type output struct {
	w      io.Writer
	buf    []byte
	err    error // sticky write error
	closed bool
}

// ready reports the error that stops further groups, if any.
func (o *output) ready() error {
	if o.err != nil {
		return o.err
	}
	if o.closed {
		return errClosed
	}
	return nil
}

// write buffers b, formatted statements, and commits; b of a buffer's
// size or more is written as it is, after what is buffered.
func (o *output) write(b []byte) error {
	if err := o.ready(); err != nil {
		return err
	}
	if len(b) < flushSize {
		o.buf = append(o.buf, b...)
		return o.commit()
	}
	if err := o.flush(); err != nil {
		return err
	}
	if _, err := o.w.Write(b); err != nil {
		o.err = fmt.Errorf("rdf: writing: %w", err)
	}
	return o.err
}

// commit writes the buffer out once it is large enough.
func (o *output) commit() error {
	if len(o.buf) >= flushSize {
		return o.flush()
	}
	return nil
}

func (o *output) flush() error {
	if o.err != nil {
		return o.err
	}
	if len(o.buf) == 0 {
		return nil
	}
	_, err := o.w.Write(o.buf)
	o.buf = o.buf[:0]
	if err != nil {
		o.err = fmt.Errorf("rdf: writing: %w", err)
	}
	return o.err
}

func (o *output) close() error {
	if o.closed {
		return o.err
	}
	err := o.flush()
	o.closed = true
	return err
}

// CheckTriple reports why t cannot be written by the writers (an IRI that
// is not absolute, a bad blank node label or literal, a literal subject);
// the error wraps ErrInvalidTerm. nil means every writer accepts it.
func CheckTriple(t Triple) error {
	_, err := appendNTStatement(nil, t, nil)
	return err
}

// invalid builds an error wrapping ErrInvalidTerm.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidTerm}, args...)...)
}

// iriForbidden marks the ASCII characters IRIREF does not allow.
var iriForbidden = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c <= 0x20; c++ {
		t[c] = true
	}
	for _, c := range "<>\"{}|^`\\\x7f" {
		t[c] = true
	}
	return t
}()

// CheckIRI reports why iri cannot be written as an absolute IRI (an
// IRIREF): it is empty, has no scheme, or holds a character IRIs cannot
// contain. The error wraps ErrInvalidTerm; nil means the writers accept it.
func CheckIRI(iri string) error {
	if iri == "" {
		return invalid("empty IRI")
	}
	colon := strings.IndexByte(iri, ':')
	if colon <= 0 || !isAlpha(iri[0]) {
		return invalid("IRI %.200q is not absolute (no scheme)", iri)
	}
	for i := 1; i < colon; i++ {
		if c := iri[i]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return invalid("IRI %.200q is not absolute (no scheme)", iri)
		}
	}
	for i := 0; i < len(iri); {
		c := iri[i]
		if c < utf8.RuneSelf {
			if iriForbidden[c] {
				return invalid("IRI %.200q holds %q at byte %d, which IRIs cannot contain", iri, c, i)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(iri[i:])
		if r == utf8.RuneError && n == 1 {
			return invalid("IRI %.200q is not valid UTF-8 at byte %d", iri, i)
		}
		if r <= 0x9F {
			return invalid("IRI %.200q holds the control character %U at byte %d", iri, r, i)
		}
		i += n
	}
	return nil
}

// appendIRIRef appends <iri>.
func appendIRIRef(dst []byte, iri string) ([]byte, error) {
	if err := CheckIRI(iri); err != nil {
		return dst, err
	}
	dst = append(dst, '<')
	dst = append(dst, iri...)
	return append(dst, '>'), nil
}

// checkBlank checks that label is a valid BLANK_NODE_LABEL:
// (PN_CHARS_U | [0-9]) ((PN_CHARS | '.')* PN_CHARS)?.
func checkBlank(label string) error {
	// The usual label, ASCII letters, digits, '_' and '-' (not first), by
	// table; checkBlankRunes says what is wrong with any other.
	if plainName(label, &blankByte) {
		return nil
	}
	return checkBlankRunes(label)
}

// plainName reports whether s, not empty and not starting with '-', holds
// only bytes that table marks: a blank node label or local name of the
// usual kind, taken without the rune walk.
func plainName(s string, table *[256]bool) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !table[s[i]] {
			return false
		}
	}
	return true
}

// blankByte marks the bytes a blank node label may hold anywhere but
// first ('-') and besides '.': the ASCII PN_CHARS.
var blankByte = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = IsPNChars(rune(c))
	}
	return t
}()

// checkBlankRunes is checkBlank rune by rune.
func checkBlankRunes(label string) error {
	if label == "" {
		return invalid("empty blank node label")
	}
	for i, r := range label {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(label[i:], "\uFFFD"):
			return invalid("blank node label %.200q is not valid UTF-8 at byte %d", label, i)
		case i == 0 && (IsPNCharsU(r) || r >= '0' && r <= '9'):
		case i > 0 && IsPNChars(r):
		case i > 0 && r == '.' && i < len(label)-1:
		default:
			return invalid("blank node label %.200q: %q at byte %d is not allowed there", label, r, i)
		}
	}
	return nil
}

// appendBlank appends _:label after checking label.
func appendBlank(dst []byte, label string) ([]byte, error) {
	if err := checkBlank(label); err != nil {
		return dst, err
	}
	dst = append(dst, '_', ':')
	return append(dst, label...), nil
}

// echar holds the escape letter of the ASCII characters written as ECHAR,
// 'u' for the other control characters, 0 for the rest.
var echar = func() (t [utf8.RuneSelf]byte) {
	for c := 0; c < 0x20; c++ {
		t[c] = 'u'
	}
	t[0x7f] = 'u'
	t['\b'], t['\t'], t['\n'], t['\f'], t['\r'] = 'b', 't', 'n', 'f', 'r'
	t['"'], t['\\'] = '"', '\\'
	return t
}()

// appendLexical appends lex, a literal's lexical form, in double quotes:
// as it is when it is escaped already (Term.Escaped), else escaped by
// appendString.
func appendLexical(dst []byte, escaped bool, lex string) ([]byte, error) {
	if !escaped {
		return appendString(dst, lex)
	}
	dst = append(dst, '"')
	dst = append(dst, lex...)
	return append(dst, '"'), nil
}

// appendString appends s in double quotes with the canonical escapes. On
// error dst comes back as it was.
//
// It reads s once, eight bytes at a time. A word of ASCII with no control
// character, DEL, '"' or '\\' (most of them) is stored whole; in a word
// whose only such bytes are '"' and '\\' (JSON text), each gets its
// backslash in place; the words with any other byte that needs a look go
// byte by byte, checking the UTF-8 of what is not ASCII where it is met.
func appendString(dst []byte, s string) ([]byte, error) {
	start0 := len(dst)
	// Room for every byte escaped in two (a \u00XX escape makes more room
	// first), the quotes, and the slack of a word stored whole.
	dst = slices.Grow(dst, 2*len(s)+2+16)
	out := dst[:cap(dst)]
	j := start0
	out[j] = '"'
	j++
	for i := 0; i < len(s); {
		end := len(s)
		if i+8 <= len(s) {
			w := s[i : i+8]
			// Little-endian: one load on amd64 and arm64.
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			q, r := wordMasks(x)
			if r == 0 {
				binary.LittleEndian.PutUint64(out[j:], x)
				n := 8 // bytes of the word not yet passed
				for q != 0 {
					k := bits.TrailingZeros64(q) >> 3
					j += k // the k bytes before the '"' or '\\' are in place
					out[j] = '\\'
					x >>= 8 * k
					binary.LittleEndian.PutUint64(out[j+1:], x) // the byte and the rest, one further on
					j += 2
					x >>= 8
					q >>= 8 * (k + 1)
					n -= k + 1
				}
				j += n
				i += 8
				continue
			}
			end = i + 8
		}
		for i < end {
			c := s[i]
			if c >= utf8.RuneSelf {
				r, n := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && n == 1 {
					return dst[:start0], invalid("string %.80q is not valid UTF-8 at byte %d", s, i)
				}
				j += copy(out[j:], s[i:i+n])
				i += n
				continue
			}
			i++
			switch e := echar[c]; e {
			case 0:
				out[j] = c
				j++
			case 'u':
				// Six bytes for one: room for the rest escaped in two.
				if need := j + 6 + 2*(len(s)-i) + 1 + 16; need > len(out) {
					dst = slices.Grow(out[:j], need-j)
					out = dst[:cap(dst)]
				}
				const hex = "0123456789ABCDEF"
				out[j], out[j+1], out[j+2], out[j+3], out[j+4], out[j+5] = '\\', 'u', '0', '0', hex[c>>4], hex[c&15]
				j += 6
			default:
				out[j], out[j+1] = '\\', e
				j += 2
			}
		}
	}
	out[j] = '"'
	return out[:j+1], nil
}

// wordMasks returns the high bit of each byte of x (eight bytes of a
// string) that is '"' or '\\' (q), and of each that is a control character,
// DEL or not ASCII (r). Each byte is tested on its own (no carry or borrow
// runs from one to the next), so the flags are exact.
func wordMasks(x uint64) (q, r uint64) {
	const (
		lo7 = 0x7f7f7f7f7f7f7f7f
		hi  = 0x8080808080808080
	)
	// A byte b is zero exactly when neither (b&0x7f)+0x7f nor b has its
	// high bit set.
	y := x ^ ('"' * 0x0101010101010101)
	z := x ^ ('\\' * 0x0101010101010101)
	d := x ^ (0x7f * 0x0101010101010101)
	q = ^(((y&lo7)+lo7)|y)&hi | ^(((z&lo7)+lo7)|z)&hi
	// b < 0x20 exactly when neither (b&0x7f)+0x60 nor b has its high bit.
	r = ^(((x&lo7)+0x6060606060606060)|x)&hi | ^(((d&lo7)+lo7)|d)&hi | x&hi
	return q, r
}

// checkLang reports whether lang matches LANGTAG: [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*.
func checkLang(lang string) error {
	first, n := true, 0
	for i := 0; i < len(lang); i++ {
		switch c := lang[i]; {
		case isAlpha(c) || (!first && isDigit(c)):
			n++
		case c == '-' && n > 0:
			first, n = false, 0
		default:
			return invalid("language tag %.80q is not [a-zA-Z]+('-'[a-zA-Z0-9]+)*", lang)
		}
	}
	if n == 0 {
		return invalid("language tag %.80q is not [a-zA-Z]+('-'[a-zA-Z0-9]+)*", lang)
	}
	return nil
}

// literalParts returns the lexical form, language tag and datatype IRI of l,
// with an empty datatype read as xsd:string.
func literalParts(l *Term) (lex, lang, dt string, err error) {
	lex, lang, dt = l.Value, l.Lang, l.Datatype
	switch {
	case lang != "":
		if err := checkLang(lang); err != nil {
			return "", "", "", err
		}
		dt = RDFLangString
	case dt == RDFLangString:
		return "", "", "", invalid("rdf:langString literal %.80q without a language tag", lex)
	case dt == "":
		dt = XSDString
	}
	return lex, lang, dt, nil
}

// appendNTTerm appends an N-Triples term: <iri>, _:label or a literal.
func appendNTTerm(dst []byte, t Term) ([]byte, error) {
	switch t.Kind {
	case IRI:
		return appendIRIRef(dst, t.Value)
	case Blank:
		return appendBlank(dst, t.Value)
	case Literal:
		lex, lang, dt, err := literalParts(&t)
		if err != nil {
			return dst, err
		}
		if dst, err = appendLexical(dst, t.Escaped, lex); err != nil {
			return dst, err
		}
		switch {
		case lang != "":
			dst = append(dst, '@')
			return append(dst, lang...), nil
		case dt != XSDString:
			dst = append(dst, '^', '^')
			return appendIRIRef(dst, dt)
		}
		return dst, nil
	}
	return dst, invalid("term of unknown kind %d", t.Kind)
}

// appendNTStatement appends "s p o[ g] .\n"; g may be nil.
func appendNTStatement(dst []byte, t Triple, g []byte) ([]byte, error) {
	var err error
	if t.S.Kind == Literal {
		return dst, fmt.Errorf("subject: %w", invalid("a literal cannot be a subject"))
	}
	if dst, err = appendNTTerm(dst, t.S); err != nil {
		return dst, fmt.Errorf("subject: %w", err)
	}
	dst = append(dst, ' ')
	if dst, err = appendIRIRef(dst, t.P); err != nil {
		return dst, fmt.Errorf("predicate: %w", err)
	}
	dst = append(dst, ' ')
	if dst, err = appendNTTerm(dst, t.O); err != nil {
		return dst, fmt.Errorf("object: %w", err)
	}
	if g != nil {
		dst = append(dst, ' ')
		dst = append(dst, g...)
	}
	return append(dst, ' ', '.', '\n'), nil
}

// NTriplesWriter writes N-Triples, one line per triple, in canonical form
// (RDF 1.2): literals in double quotes with \b \t \n \f \r \" \\ as ECHAR,
// the other characters U+0000-U+001F and U+007F as \u00XX and everything
// else as UTF-8; no datatype for xsd:string. A literal with an empty
// datatype and no language tag is an xsd:string.
//
// WriteGroup formats a whole group before any of it can reach the
// underlying writer and drops it on error, so an error never leaves a
// partial statement behind. Output is buffered: it is written out in chunks
// of about 64 KiB and by Flush and Close.
type NTriplesWriter struct {
	out output
}

// NewNTriplesWriter returns a writer of N-Triples to w.
func NewNTriplesWriter(w io.Writer) *NTriplesWriter {
	return &NTriplesWriter{out: output{w: w}}
}

// WriteGroup writes the triples; on error none of them is written.
func (n *NTriplesWriter) WriteGroup(triples []Triple) error {
	if err := n.out.ready(); err != nil {
		return err
	}
	var err error
	if n.out.buf, err = n.appendGroup(n.out.buf, triples); err != nil {
		return err
	}
	return n.out.commit()
}

// appendGroup appends the N-Triples of triples to dst; on error dst comes
// back as it was.
func (n *NTriplesWriter) appendGroup(dst []byte, triples []Triple) ([]byte, error) {
	return appendStatements(dst, nil, triples, "N-Triples")
}

// appendStatements appends a line per triple to dst, in the graph written
// as g (nil: none); format names the syntax in errors. On error dst comes
// back as it was.
func appendStatements(dst, g []byte, triples []Triple, format string) ([]byte, error) {
	start := len(dst)
	for i, t := range triples {
		var err error
		if dst, err = appendNTStatement(dst, t, g); err != nil {
			return dst[:start], fmt.Errorf("rdf: %s: triple %d: %w", format, i, err)
		}
	}
	return dst, nil
}

// Flush writes the buffered output to the underlying writer.
func (n *NTriplesWriter) Flush() error { return n.out.flush() }

// Formatter returns a Formatter of N-Triples.
func (n *NTriplesWriter) Formatter() Formatter { return n.appendGroup }

// WriteFormatted writes statements a Formatter of n formatted.
func (n *NTriplesWriter) WriteFormatted(b []byte) error { return n.out.write(b) }

// Close flushes; the writer accepts no more groups afterwards. It does not
// close the underlying writer.
func (n *NTriplesWriter) Close() error { return n.out.close() }

// NQuadsWriter writes N-Quads, one line per quad, with the terms written as
// by NTriplesWriter, and the same all-or-nothing groups and buffering.
type NQuadsWriter struct {
	out   output
	graph []byte // scratch for the graph term
}

// NewNQuadsWriter returns a writer of N-Quads to w.
func NewNQuadsWriter(w io.Writer) *NQuadsWriter {
	return &NQuadsWriter{out: output{w: w}}
}

// WriteGroup writes the triples into graph, an IRI or a blank node, or
// into the default graph when graph is the zero Term; on error none is
// written.
func (n *NQuadsWriter) WriteGroup(graph Term, triples []Triple) error {
	if err := n.out.ready(); err != nil {
		return err
	}
	g, err := appendGraph(n.graph[:0], graph)
	if err != nil {
		return err
	}
	n.graph = g
	if n.out.buf, err = appendNQGroup(n.out.buf, g, triples); err != nil {
		return err
	}
	return n.out.commit()
}

// appendNQGroup appends the N-Quads of triples in the graph written as g
// (nil for the default graph) to dst; on error dst comes back as it was.
func appendNQGroup(dst, g []byte, triples []Triple) ([]byte, error) {
	return appendStatements(dst, g, triples, "N-Quads")
}

// appendGraph appends the N-Quads term of a graph name to dst; for the
// default graph (the zero Term) it returns nil.
func appendGraph(dst []byte, graph Term) ([]byte, error) {
	if graph == (Term{}) {
		return nil, nil
	}
	if graph.Kind == Literal {
		return nil, fmt.Errorf("rdf: N-Quads: graph name: %w", invalid("a literal cannot name a graph"))
	}
	g, err := appendNTTerm(dst, graph)
	if err != nil {
		return nil, fmt.Errorf("rdf: N-Quads: graph name: %w", err)
	}
	return g, nil
}

// Formatter returns a Formatter of the N-Quads of groups in graph (the
// zero Term for the default graph). An invalid graph name makes every call
// of the Formatter fail.
func (n *NQuadsWriter) Formatter(graph Term) Formatter {
	g, err := appendGraph(nil, graph)
	return func(dst []byte, triples []Triple) ([]byte, error) {
		if err != nil {
			return dst, err
		}
		return appendNQGroup(dst, g, triples)
	}
}

// Flush writes the buffered output to the underlying writer.
func (n *NQuadsWriter) Flush() error { return n.out.flush() }

// WriteFormatted writes statements a Formatter of n formatted.
func (n *NQuadsWriter) WriteFormatted(b []byte) error { return n.out.write(b) }

// Close flushes; the writer accepts no more groups afterwards. It does not
// close the underlying writer.
func (n *NQuadsWriter) Close() error { return n.out.close() }

// TurtleWriter writes Turtle in chunks: the prefix block first, then each
// group of triples as complete statements. Groups are all-or-nothing and
// output is buffered as for NTriplesWriter.
//
// Literals are written bare only in forms that even knakk/rdf reads back
// unchanged (subsets of the Turtle number productions): xsd:integer matching [+-]?[0-9]+, xsd:decimal matching
// [+-]?[0-9]+.[0-9]+, xsd:double matching [+-]?[0-9]+(.[0-9]+)?[eE][+-]?[0-9]+,
// xsd:boolean true or false. Any other literal is quoted, escaped as in
// N-Triples, with its language tag or datatype (a prefixed name when one
// fits). IRIs are prefixed names when a prefix matches and the rest is a
// valid PN_LOCAL once the reserved characters are escaped with '\';
// otherwise <IRI>. rdf:type is written as a.
//
// Blank node labels are kept as given, except for the blank nodes that
// WriteGroup nests as [ ... ]: those lose their label, so a blank node must
// not be shared between groups (the caller chooses labels unique per group).
type TurtleWriter struct {
	out      output
	decl     []Prefix // as given, for the prefix block
	prefixes []Prefix // longest namespace first, for matching
	err      error    // invalid prefix declarations
	started  bool     // prefix block written
	plan     turtlePlan
	// names caches how IRIs that recur in every group (predicates,
	// datatypes, classes, the log's own IRIs) are written; at most
	// maxNames, each value holding its key. recent holds the last ones
	// met, found by where their text is.
	names  map[string]writtenName
	recent [64]writtenName
	// planAll makes every group go through the plan, for tests that
	// compare appendSimple's layout with the plan's.
	planAll bool
	// used, while KeepUsed runs, marks the prefixes (by index in
	// prefixes) that a written IRI took.
	used []bool
	// relOrigin and relDir: IRIs of this origin are written relative to
	// the folder relDir (see SetRelative).
	relOrigin, relDir string
}

// SetRelative makes the writer write the IRIs that share base's scheme and
// authority as relative references from base, without an @base: a reader
// resolves them against the document's own URL. For IRIs resolved against
// a placeholder base because the document's URL is not known yet. Call it
// before the first group.
func (t *TurtleWriter) SetRelative(base string) {
	scheme, rest, ok := strings.Cut(base, "://")
	if !ok {
		return
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		t.relOrigin, t.relDir = base, "/"
		return
	}
	t.relOrigin = scheme + "://" + rest[:slash]
	p := rest[slash:]
	t.relDir = p[:strings.LastIndexByte(p, '/')+1]
}

// relative returns iri as a reference relative to the writer's relDir,
// when it has the writer's relative origin.
func (t *TurtleWriter) relative(iri string) (string, bool) {
	if t.relOrigin == "" || !strings.HasPrefix(iri, t.relOrigin+"/") {
		return "", false
	}
	p := iri[len(t.relOrigin):]
	dir := strings.Split(strings.Trim(t.relDir, "/"), "/")
	if t.relDir == "/" {
		dir = nil
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	i := 0
	for i < len(dir) && i < len(segs)-1 && dir[i] == segs[i] {
		i++
	}
	rel := strings.Repeat("../", len(dir)-i) + strings.Join(segs[i:], "/")
	if rel == "" || strings.HasPrefix(rel, "#") || strings.HasPrefix(rel, "?") {
		rel = "./" + rel
	}
	if first, _, _ := strings.Cut(rel, "/"); strings.Contains(first, ":") {
		rel = "./" + rel // a first segment with ':' would read as a scheme
	}
	return rel, true
}

// maxNames bounds the names a TurtleWriter caches.
const maxNames = 512

// NewTurtleWriter returns a writer of Turtle to w that abbreviates IRIs with
// prefixes. Invalid prefixes (a name that is not a PN_PREFIX, an IRI that
// cannot be written, a repeated name) make every later call fail.
func NewTurtleWriter(w io.Writer, prefixes []Prefix) *TurtleWriter {
	t := &TurtleWriter{out: output{w: w}, decl: slices.Clone(prefixes), prefixes: slices.Clone(prefixes)}
	seen := make(map[string]bool)
	for _, p := range prefixes {
		if err := checkPrefixName(p.Name); err != nil {
			t.err = fmt.Errorf("rdf: Turtle prefix %q: %w", p.Name, err)
			break
		}
		if err := CheckIRI(p.IRI); err != nil {
			t.err = fmt.Errorf("rdf: Turtle prefix %q: %w", p.Name, err)
			break
		}
		if seen[p.Name] {
			t.err = fmt.Errorf("rdf: Turtle prefix %q declared twice", p.Name)
			break
		}
		seen[p.Name] = true
	}
	slices.SortStableFunc(t.prefixes, func(a, b Prefix) int { return len(b.IRI) - len(a.IRI) })
	return t
}

// checkPrefixName checks PN_PREFIX: PN_CHARS_BASE ((PN_CHARS | '.')* PN_CHARS)?
// (or empty).
func checkPrefixName(name string) error {
	for i, r := range name {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(name[i:], "\uFFFD"):
			return invalid("prefix name is not valid UTF-8")
		case i == 0 && IsPNCharsBase(r):
		case i > 0 && IsPNChars(r):
		case i > 0 && r == '.' && i < len(name)-1:
		default:
			return invalid("%q at byte %d is not allowed in a prefix name", r, i)
		}
	}
	return nil
}

// start writes the prefix block once.
func (t *TurtleWriter) start() {
	if t.started {
		return
	}
	t.started = true
	for _, p := range t.decl {
		t.out.buf = append(t.out.buf, "@prefix "...)
		t.out.buf = append(t.out.buf, p.Name...)
		t.out.buf = append(t.out.buf, ": <"...)
		t.out.buf = append(t.out.buf, p.IRI...)
		t.out.buf = append(t.out.buf, "> .\n"...)
	}
	if len(t.prefixes) > 0 {
		t.out.buf = append(t.out.buf, '\n')
	}
}

// WriteGroup writes one group of triples (e.g. one message's triples).
// Within a group, triples are grouped by subject (subject order = first
// appearance) with ';' and ','; a blank node that is the object of exactly
// one triple in the group is nested as [ ... ] under that triple
// (recursively, up to 16 levels, cycles broken at the first node met); an
// unreferenced blank subject is written as [ ... ] . Output of a group is
// written only once the whole group is formatted, so an error never leaves
// a half-written statement.
func (t *TurtleWriter) WriteGroup(triples []Triple) error {
	if t.err != nil {
		return t.err
	}
	if err := t.out.ready(); err != nil {
		return err
	}
	t.start()
	var err error
	if t.out.buf, err = t.appendGroup(t.out.buf, triples); err != nil {
		return err
	}
	return t.out.commit()
}

// appendGroup appends the statements of one group to dst, without the
// prefix block; on error dst comes back as it was.
func (t *TurtleWriter) appendGroup(dst []byte, triples []Triple) ([]byte, error) {
	if t.err != nil {
		return dst, t.err
	}
	if len(triples) == 0 {
		return dst, nil
	}
	start := len(dst)
	if !t.planAll {
		if out, ok, err := t.appendSimple(dst, triples); err != nil {
			return dst[:start], fmt.Errorf("rdf: Turtle: %w", err)
		} else if ok {
			return append(out, '\n'), nil
		}
	}
	if err := t.plan.build(triples); err != nil {
		return dst, fmt.Errorf("rdf: Turtle: %w", err)
	}
	var err error
	for _, r := range t.plan.roots {
		if dst, err = t.appendRoot(dst, r); err != nil {
			return dst[:start], fmt.Errorf("rdf: Turtle: %w", err)
		}
	}
	return append(dst, '\n'), nil
}

// Formatter returns a Formatter of Turtle with t's prefixes. Groups it
// formats go after the prefix block, which WriteFormatted writes first.
func (t *TurtleWriter) Formatter() Formatter {
	f := &TurtleWriter{decl: t.decl, prefixes: t.prefixes, err: t.err, started: true, relOrigin: t.relOrigin, relDir: t.relDir, planAll: t.planAll}
	return f.appendGroup
}

// WriteFormatted writes statements a Formatter of t formatted, after the
// prefix block.
func (t *TurtleWriter) WriteFormatted(b []byte) error {
	if t.err != nil {
		return t.err
	}
	if err := t.out.ready(); err != nil {
		return err
	}
	t.start()
	return t.out.write(b)
}

// Flush writes the buffered output to the underlying writer.
func (t *TurtleWriter) Flush() error { return t.out.flush() }

// Close writes the prefix block if no group was written, then flushes; the
// writer accepts no more groups afterwards. It does not close the
// underlying writer.
func (t *TurtleWriter) Close() error {
	if t.err != nil {
		return t.err
	}
	if t.out.ready() == nil {
		t.start()
	}
	return t.out.close()
}

// Planning a Turtle group.

// termKey identifies a subject: an IRI or a blank node label.
type termKey struct {
	blank bool
	s     string
}

// Subject states in a plan.
const (
	unplanned  uint8 = iota
	planRoot         // written as a statement of its own
	planNested       // written as [ ... ] where it is the object
)

type turtleSubject struct {
	term       Term
	label      string // blank node label, "" for an IRI
	first, end int    // its triples: plan.order[first:end]
	refs       int32  // times it is the object of a triple in the group
	state      uint8
}

// turtlePlan is the reusable scratch state for one group.
type turtlePlan struct {
	triples  []Triple
	subjects []turtleSubject
	subjIdx  map[termKey]int32
	predIdx  map[string]int32
	// Small groups (most of them) are indexed by scanning these instead of
	// the maps above.
	small     bool
	subjKeys  []termKey
	preds     []string
	refLabels []string
	refCounts []int32
	refs      map[string]int32 // blank node label -> times it is an object
	tsubj     []int32          // per triple: subject index
	tpred     []int32          // per triple: predicate index
	order     []int32          // triple indices by subject, then predicate
	roots     []int32          // subjects written as statements, in order
}

func (p *turtlePlan) reset(triples []Triple) {
	if p.subjIdx == nil {
		p.subjIdx = make(map[termKey]int32)
		p.predIdx = make(map[string]int32)
		p.refs = make(map[string]int32)
	}
	p.small = len(triples) <= smallGroup
	if !p.small {
		clear(p.subjIdx)
		clear(p.predIdx)
		clear(p.refs)
	}
	p.subjKeys, p.preds, p.refLabels, p.refCounts = p.subjKeys[:0], p.preds[:0], p.refLabels[:0], p.refCounts[:0]
	p.triples = triples
	p.subjects = p.subjects[:0]
	p.tsubj = p.tsubj[:0]
	p.tpred = p.tpred[:0]
	p.order = p.order[:0]
	p.roots = p.roots[:0]
}

// build indexes the group and decides which blank nodes are nested.
func (p *turtlePlan) build(triples []Triple) error {
	p.reset(triples)
	for i, t := range triples {
		var k termKey
		switch t.S.Kind {
		case IRI:
			k = termKey{s: t.S.Value}
		case Blank:
			k = termKey{blank: true, s: t.S.Value}
			if err := checkBlank(k.s); err != nil {
				return fmt.Errorf("triple %d: subject: %w", i, err)
			}
		default:
			return fmt.Errorf("triple %d: subject: %w", i, invalid("a literal cannot be a subject"))
		}
		si, ok := p.subject(k)
		if !ok {
			si = int32(len(p.subjects))
			if p.small {
				p.subjKeys = append(p.subjKeys, k)
			} else {
				p.subjIdx[k] = si
			}
			lbl := ""
			if k.blank {
				lbl = k.s
			}
			p.subjects = append(p.subjects, turtleSubject{term: t.S, label: lbl})
		}
		pi := p.predicate(t.P)
		if t.O.Kind == Blank {
			lbl := t.O.Value
			if err := checkBlank(lbl); err != nil {
				return fmt.Errorf("triple %d: object: %w", i, err)
			}
			p.addRef(lbl)
		}
		p.tsubj = append(p.tsubj, si)
		p.tpred = append(p.tpred, pi)
		p.order = append(p.order, int32(i))
	}
	slices.SortFunc(p.order, func(a, b int32) int {
		if d := p.tsubj[a] - p.tsubj[b]; d != 0 {
			return int(d)
		}
		if d := p.tpred[a] - p.tpred[b]; d != 0 {
			return int(d)
		}
		return int(a - b)
	})
	for k, ti := range p.order {
		s := &p.subjects[p.tsubj[ti]]
		if k == 0 || p.tsubj[p.order[k-1]] != p.tsubj[ti] {
			s.first = k
		}
		s.end = k + 1
	}
	// Roots: every subject that is not a blank node referenced exactly once.
	for i := range p.subjects {
		s := &p.subjects[i]
		if s.label != "" {
			s.refs = p.refCount(s.label)
		}
		if s.label == "" || s.refs != 1 {
			s.state = planRoot
			p.roots = append(p.roots, int32(i))
		}
	}
	q := p.planQueue(0)
	// Whatever is left lies on cycles of singly referenced blank nodes:
	// break each cycle at its first subject.
	for i := range p.subjects {
		if p.subjects[i].state == unplanned {
			p.subjects[i].state = planRoot
			p.roots = append(p.roots, int32(i))
			q = p.planQueue(q)
		}
	}
	slices.Sort(p.roots)
	return nil
}

// smallGroup is the size up to which a group is indexed by scanning.
const smallGroup = 48

// subject returns the index of subject k.
func (p *turtlePlan) subject(k termKey) (int32, bool) {
	if !p.small {
		i, ok := p.subjIdx[k]
		return i, ok
	}
	for i, x := range p.subjKeys {
		if x == k {
			return int32(i), true
		}
	}
	return 0, false
}

// predicate returns the index of predicate iri, numbering it when new.
func (p *turtlePlan) predicate(iri string) int32 {
	if !p.small {
		i, ok := p.predIdx[iri]
		if !ok {
			i = int32(len(p.predIdx))
			p.predIdx[iri] = i
		}
		return i
	}
	for i, x := range p.preds {
		if x == iri {
			return int32(i)
		}
	}
	p.preds = append(p.preds, iri)
	return int32(len(p.preds) - 1)
}

// addRef counts one more triple whose object is blank node lbl.
func (p *turtlePlan) addRef(lbl string) {
	if !p.small {
		p.refs[lbl]++
		return
	}
	for i, x := range p.refLabels {
		if x == lbl {
			p.refCounts[i]++
			return
		}
	}
	p.refLabels = append(p.refLabels, lbl)
	p.refCounts = append(p.refCounts, 1)
}

// refCount returns the number of triples whose object is blank node lbl.
func (p *turtlePlan) refCount(lbl string) int32 {
	if !p.small {
		return p.refs[lbl]
	}
	for i, x := range p.refLabels {
		if x == lbl {
			return p.refCounts[i]
		}
	}
	return 0
}

// planQueue plans the roots from index q on (planning may add roots) and
// returns the new end of the queue.
func (p *turtlePlan) planQueue(q int) int {
	for ; q < len(p.roots); q++ {
		p.nest(p.roots[q], 0)
	}
	return q
}

// nest marks the blank objects of subject s that can be nested under it.
func (p *turtlePlan) nest(s int32, depth int) {
	sub := p.subjects[s]
	for _, ti := range p.order[sub.first:sub.end] {
		j, ok := p.nestedSubject(p.triples[ti].O)
		if !ok || p.subjects[j].state != unplanned {
			continue
		}
		if depth+1 >= maxNest {
			p.subjects[j].state = planRoot
			p.roots = append(p.roots, j)
			continue
		}
		p.subjects[j].state = planNested
		p.nest(j, depth+1)
	}
}

// nestedSubject returns the subject index of o when o is a blank node that
// is the object of exactly one triple and has triples of its own.
func (p *turtlePlan) nestedSubject(o Term) (int32, bool) {
	if o.Kind != Blank {
		return 0, false
	}
	lbl := o.Value
	if p.refCount(lbl) != 1 {
		return 0, false
	}
	j, ok := p.subject(termKey{blank: true, s: lbl})
	return j, ok
}

// Writing a Turtle group.

// indent holds enough spaces for the deepest nesting.
var indent = strings.Repeat(" ", 4*(maxNest+1))

// simpleMax is the most statements appendSimple takes in a group.
const simpleMax = 32

// appendSimple appends a group as the plan would lay it out, without one,
// when that layout is the order given: the statements have one subject,
// an IRI, no blank node objects, and each predicate's statements come in
// one run. ok is false, and nothing appended, for any other group.
func (t *TurtleWriter) appendSimple(dst []byte, triples []Triple) (out []byte, ok bool, err error) {
	subj := triples[0].S
	if subj.Kind != IRI || len(triples) > simpleMax {
		return dst, false, nil
	}
	for i := range triples {
		tr := &triples[i]
		// The plan tells IRI subjects apart by their text alone.
		if tr.S.Kind != IRI || tr.S.Value != subj.Value || tr.O.Kind == Blank {
			return dst, false, nil
		}
		if i > 0 && tr.P != triples[i-1].P {
			for j := 0; j < i-1; j++ {
				if triples[j].P == tr.P {
					return dst, false, nil
				}
			}
		}
	}
	if dst, err = t.appendIRI(dst, subj.Value); err != nil {
		return dst, false, fmt.Errorf("triple 0: subject: %w", err)
	}
	dst = append(dst, ' ')
	for i := range triples {
		tr := &triples[i]
		switch {
		case i > 0 && tr.P == triples[i-1].P:
			dst = append(dst, ' ', ',', ' ')
		default:
			if i > 0 {
				dst = append(dst, " ;\n"...)
				dst = append(dst, indent[:4]...)
			}
			if tr.P == RDFType {
				dst = append(dst, 'a')
			} else if dst, err = t.appendName(dst, tr.P); err != nil {
				return dst, false, fmt.Errorf("triple %d: predicate: %w", i, err)
			}
			dst = append(dst, ' ')
		}
		if dst, err = t.appendObject(dst, &tr.O); err != nil {
			return dst, false, fmt.Errorf("triple %d: object: %w", i, err)
		}
	}
	return append(dst, " .\n"...), true, nil
}

// appendRoot appends the statement of root subject r.
func (t *TurtleWriter) appendRoot(dst []byte, r int32) ([]byte, error) {
	s := &t.plan.subjects[r]
	var err error
	switch {
	case s.label != "" && s.refs == 0:
		dst = append(dst, '[', ' ')
		if dst, err = t.appendBody(dst, r, 1); err != nil {
			return dst, err
		}
		return append(dst, " ] .\n"...), nil
	case s.label != "":
		dst, err = appendBlank(dst, s.label)
	default:
		dst, err = t.appendIRI(dst, s.term.Value)
	}
	if err != nil {
		return dst, fmt.Errorf("triple %d: subject: %w", t.plan.order[s.first], err)
	}
	dst = append(dst, ' ')
	if dst, err = t.appendBody(dst, r, 1); err != nil {
		return dst, err
	}
	return append(dst, " .\n"...), nil
}

// appendBody appends the predicate-object list of subject s; level is the
// indentation of continuation lines.
func (t *TurtleWriter) appendBody(dst []byte, s int32, level int) ([]byte, error) {
	p := &t.plan
	sub := p.subjects[s]
	var err error
	for k := sub.first; k < sub.end; k++ {
		ti := p.order[k]
		tr := p.triples[ti]
		if k > sub.first && p.tpred[ti] == p.tpred[p.order[k-1]] {
			dst = append(dst, ' ', ',', ' ')
		} else {
			if k > sub.first {
				dst = append(dst, " ;\n"...)
				dst = append(dst, indent[:4*level]...)
			}
			if pr := tr.P; pr == RDFType {
				dst = append(dst, 'a')
			} else if dst, err = t.appendName(dst, pr); err != nil {
				return dst, fmt.Errorf("triple %d: predicate: %w", ti, err)
			}
			dst = append(dst, ' ')
		}
		if j, ok := p.nestedSubject(tr.O); ok && p.subjects[j].state == planNested {
			dst = append(dst, '[', ' ')
			if dst, err = t.appendBody(dst, j, level+1); err != nil {
				return dst, err
			}
			dst = append(dst, ' ', ']')
			continue
		}
		if dst, err = t.appendObject(dst, &tr.O); err != nil {
			return dst, fmt.Errorf("triple %d: object: %w", ti, err)
		}
	}
	return dst, nil
}

// appendObject appends an object that is not nested.
func (t *TurtleWriter) appendObject(dst []byte, o *Term) ([]byte, error) {
	switch o.Kind {
	case IRI:
		return t.appendName(dst, o.Value)
	case Blank:
		lbl := o.Value
		if t.plan.refCount(lbl) == 1 {
			if _, ok := t.plan.subject(termKey{blank: true, s: lbl}); !ok {
				return append(dst, '[', ']'), nil // only here, no properties
			}
		}
		return appendBlank(dst, lbl)
	case Literal:
		return t.appendLiteral(dst, o)
	}
	return dst, invalid("term of unknown kind %d", o.Kind)
}

// appendLiteral appends a literal, bare when its datatype and lexical form
// allow it, otherwise quoted with its language tag or datatype.
func (t *TurtleWriter) appendLiteral(dst []byte, l *Term) ([]byte, error) {
	lex, lang, dt, err := literalParts(l)
	if err != nil {
		return dst, err
	}
	bare := false
	switch dt {
	case XSDInteger:
		bare = isTurtleInteger(lex)
	case XSDDecimal:
		bare = isTurtleDecimal(lex)
	case XSDDouble:
		bare = isTurtleDouble(lex)
	case XSDBoolean:
		bare = lex == "true" || lex == "false"
	}
	if bare {
		return append(dst, lex...), nil
	}
	if dst, err = appendLexical(dst, l.Escaped, lex); err != nil {
		return dst, err
	}
	switch {
	case lang != "":
		dst = append(dst, '@')
		return append(dst, lang...), nil
	case dt != XSDString:
		dst = append(dst, '^', '^')
		return t.appendName(dst, dt)
	}
	return dst, nil
}

// appendIRI appends iri as a prefixed name when a prefix matches and the
// rest is a valid PN_LOCAL (after escaping), else as <iri>.
func (t *TurtleWriter) appendIRI(dst []byte, iri string) ([]byte, error) {
	if rel, ok := t.relative(iri); ok {
		if err := CheckIRI(iri); err != nil {
			return dst, err
		}
		dst = append(dst, '<')
		dst = append(dst, rel...)
		return append(dst, '>'), nil
	}
	for i, p := range t.prefixes {
		if !strings.HasPrefix(iri, p.IRI) {
			continue
		}
		n := len(dst)
		dst = append(dst, p.Name...)
		dst = append(dst, ':')
		if d, ok := appendLocal(dst, iri[len(p.IRI):]); ok {
			if t.used != nil {
				t.used[i] = true
			}
			return d, nil
		}
		dst = dst[:n]
	}
	return appendIRIRef(dst, iri)
}

// KeepUsed narrows the prefix block to the prefixes that writing groups
// uses, for a document whose triples are all known before it is written:
// call it before the first group, with the groups that will be written.
// IRIs are written as they would have been with every prefix; a group that
// cannot be written leaves its prefixes out, and fails when written.
func (t *TurtleWriter) KeepUsed(groups ...[]Triple) {
	if t.err != nil || t.started {
		return
	}
	t.used = make([]bool, len(t.prefixes))
	var scratch []byte
	for _, g := range groups {
		scratch, _ = t.appendGroup(scratch[:0], g)
	}
	keep := map[string]bool{}
	var prefixes []Prefix
	for i, p := range t.prefixes {
		if t.used[i] {
			keep[p.Name] = true
			prefixes = append(prefixes, p)
		}
	}
	t.used, t.prefixes = nil, prefixes
	t.decl = slices.DeleteFunc(t.decl, func(p Prefix) bool { return !keep[p.Name] })
	// The written forms cached are those of the prefixes kept: a prefix
	// left out was never taken. They are dropped all the same, so that
	// nothing cached outlives the list it was made with.
	t.names, t.recent = nil, [64]writtenName{}
}

// writtenName is an IRI and how a TurtleWriter writes it.
type writtenName struct{ iri, name string }

// appendName appends iri as appendIRI does, for IRIs that may recur:
// their written forms are kept, up to maxNames of them.
func (t *TurtleWriter) appendName(dst []byte, iri string) ([]byte, error) {
	// The same IRI comes again and again as the same string, a constant
	// of the code that made the triples: its slot in recent is chosen by
	// the address of its text, and == compares it with what the slot
	// holds. The slots and the map hold their own copies: iri may share
	// memory that is written again (an arena, a batch's text).
	slot := &t.recent[(uintptr(unsafe.Pointer(unsafe.StringData(iri)))>>4^uintptr(len(iri)))%uintptr(len(t.recent))]
	if slot.iri == iri && iri != "" {
		return append(dst, slot.name...), nil
	}
	if n, ok := t.names[iri]; ok {
		*slot = n
		return append(dst, n.name...), nil
	}
	start := len(dst)
	dst, err := t.appendIRI(dst, iri)
	if err != nil {
		return dst, err
	}
	if t.names == nil {
		t.names = make(map[string]writtenName)
	}
	if len(t.names) < maxNames {
		key := strings.Clone(iri)
		t.names[key] = writtenName{key, string(dst[start:])}
	}
	return dst, nil
}

// appendLocal appends local as a PN_LOCAL:
//
//	(PN_CHARS_U | ':' | [0-9] | PLX) ((PN_CHARS | '.' | ':' | PLX)* (PN_CHARS | ':' | PLX))?
//
// escaping with '\' the reserved characters that PN_LOCAL_ESC allows where
// they are not allowed bare. It reports false when local cannot be written
// so; dst may then hold a partial name.
func appendLocal(dst []byte, local string) ([]byte, bool) {
	if plainName(local, &localByte) {
		return append(dst, local...), true
	}
	for i, r := range local {
		first, last := i == 0, i+utf8.RuneLen(r) == len(local)
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(local[i:], "\uFFFD"):
			return dst, false
		case IsPNCharsU(r) || r == ':' || isDigit(byte(r)) && r < utf8.RuneSelf:
			dst = utf8.AppendRune(dst, r)
		case r == '-':
			if first {
				dst = append(dst, '\\')
			}
			dst = append(dst, '-')
		case IsPNChars(r): // U+00B7, combining marks: not allowed first, no escape
			if first {
				return dst, false
			}
			dst = utf8.AppendRune(dst, r)
		case r == '.':
			if first || last {
				dst = append(dst, '\\')
			}
			dst = append(dst, '.')
		case r == '%':
			if i+2 < len(local) && isHex(local[i+1]) && isHex(local[i+2]) {
				dst = append(dst, '%') // PERCENT: kept as is in the IRI
			} else {
				dst = append(dst, '\\', '%')
			}
		case strings.ContainsRune("~!$&'()*+,;=/?#@", r):
			dst = append(dst, '\\', byte(r))
		default:
			return dst, false
		}
	}
	return dst, true
}

// localByte marks the bytes of a local name written as it is (plainName):
// blankByte's and ':'.
var localByte = func() [256]bool {
	t := blankByte
	t[':'] = true
	return t
}()

// Numeric literals are written bare only in forms every Turtle reader
// handles: a subset of the INTEGER, DECIMAL and DOUBLE productions that
// requires digits on both sides of a '.'.

// isTurtleInteger matches [+-]?[0-9]+.
func isTurtleInteger(s string) bool {
	s = trimSign(s)
	return s != "" && digits(s) == len(s)
}

// isTurtleDecimal matches [+-]?[0-9]+ '.' [0-9]+.
func isTurtleDecimal(s string) bool {
	s = trimSign(s)
	n := digits(s)
	if n == 0 || n == len(s) || s[n] != '.' {
		return false
	}
	s = s[n+1:]
	return s != "" && digits(s) == len(s)
}

// isTurtleDouble matches [+-]?[0-9]+ ('.' [0-9]+)? [eE] [+-]?[0-9]+.
func isTurtleDouble(s string) bool {
	s = trimSign(s)
	n := digits(s)
	if n == 0 {
		return false
	}
	s = s[n:]
	if s != "" && s[0] == '.' {
		m := digits(s[1:])
		if m == 0 {
			return false
		}
		s = s[1+m:]
	}
	if s == "" || (s[0] != 'e' && s[0] != 'E') {
		return false
	}
	return isTurtleInteger(s[1:])
}

func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

// digits returns the length of the run of ASCII digits at the start of s.
func digits[T string | []byte](s T) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
