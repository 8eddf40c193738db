// Package jsonparse is jrpcld's JSON parser for logs: one pass over a
// complete text, no recursion, the values encoding/json with UseNumber
// gives, strict about what encoding/json would silently alter (invalid
// UTF-8, lone surrogate escapes), with a bound on nesting and errors at a
// byte offset. It notes the member names an object holds more than once
// (the last one wins, as in encoding/json), and, when asked, the strings
// that hold a lone surrogate escape. It can leave chosen members of message objects undecoded
// (their text checked but not turned into values), which the conversion
// maps from the text directly, and it exposes the scanning steps other
// text-level code needs.
package jsonparse

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxInterned and maxInternLen bound the object keys a Parser keeps to
// share between texts, and their length; maxShared the values of its
// Shared members.
const (
	maxInterned  = 4096
	maxInternLen = 64
	maxShared    = 256
)

// EndsToken reports whether c ends a number or a literal (true, false,
// null): white space or a structural character.
func EndsToken(c byte) bool { return tokenEnd[c] }

// Decode decodes text the parser has checked, such as an Undecoded value,
// whole. It returns the text itself when it does not parse.
func Decode(u Undecoded) any {
	p := &Parser{MaxDepth: math.MaxInt}
	v, perr := p.Parse(u)
	if perr != nil {
		return u
	}
	return v
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// tokenEnd marks the bytes that end a number or a literal.
var tokenEnd = [256]bool{' ': true, '\t': true, '\n': true, '\r': true,
	'{': true, '}': true, '[': true, ']': true, ',': true, ':': true, '"': true}

// strPlain marks the bytes a string holds as they are: not '"', '\\', a
// control character or the start of a multi-byte UTF-8 sequence.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Parser decodes one JSON value from a complete text, without recursion,
// into the values encoding/json with UseNumber gives: map[string]any, []any,
// string, json.Number, bool and nil. It refuses what encoding/json would
// silently alter: invalid UTF-8 and (unless LoneSurrogates is set) lone
// UTF-16 surrogate escapes. A Parser keeps scratch space from one Parse to
// the next; it is not safe for concurrent use.
//
// With Lazy set, an object or array that is the value of one of the lazy
// member names in a message object (the top-level object, the "msg" object
// of an envelope, an object of a batch) is checked as thoroughly but not
// decoded: it is left as its text, an Undecoded value, and noted in
// Lazies.
type Parser struct {
	// MaxDepth bounds the nesting of arrays and objects (0: no nesting).
	MaxDepth int
	// Lazy names the members of message objects whose object or array
	// values are left Undecoded.
	Lazy []string
	// Lens, when at least as long as the text, receives the extent of the
	// strings, arrays and objects inside the Undecoded values (the values
	// and the names of members): Lens[i] is the length of the text of the
	// one that starts at offset i, when it is below 65,536 (a longer one is
	// not noted). Parse writes nothing else into it, and does not clear it.
	Lens []uint16
	// ReuseEnvelope lets Parse return, for a top-level object that has a
	// "msg" member and no "jsonrpc" member (a log's envelope), a map that
	// the next Parse reuses: the caller must be done with that map (not
	// with the values it holds) by then.
	ReuseEnvelope bool
	// LoneSurrogates accepts a lone UTF-16 surrogate escape ("\ud800",
	// or a high one not followed by a low one), which RFC 8259's grammar
	// allows though it stands for no Unicode character: it is read as
	// U+FFFD, the replacement character, as encoding/json reads it, and
	// its string is noted in Surrogates. Without it, it is a syntax error.
	LoneSurrogates bool
	// Shared names the members whose string values repeat from text to
	// text (a message's "jsonrpc" and "method", an envelope's "dir"): a
	// value of one of them that is ASCII without escapes, up to
	// maxInternLen bytes, is returned shared with the last equal one read
	// (as one boxed string), sparing its allocations.
	Shared []string

	stack    []frame              // open arrays and objects
	vals     []any                // members of the open containers
	keys     []string             // keys of the open objects' members
	buf      []byte               // scratch for unescaping strings
	keyCache *[maxInterned]string // object keys seen, by hash
	valCache *[maxShared]any      // the values of Shared members seen, by hash
	parses   int                  // calls of Parse, up to 2
	envelope map[string]any       // the map ReuseEnvelope reuses

	lazyNext bool        // the value about to be read is one of Lazy
	skip     int         // the depth of the undecoded value being read, or 0
	lazies   []LazyRef   // the undecoded values of the last parse
	dups     []Duplicate // the repeated member names of the last parse
	skipKeys [][]byte    // names of the open objects of undecoded values
	lens     []uint16    // Lens, when long enough for the text being parsed
	lazyDup  bool        // an object of an undecoded value names a member twice
	lone     int         // where the first lone surrogate escape of the last string read is, or -1
	escaped  bool        // the last string read holds an escape
	lones    []Surrogate // the strings with lone surrogates of the last parse
	lazyLone bool        // a string of an undecoded value holds a lone surrogate

	checkStack []checkFrame // Check's open arrays and objects
	checkNames [][]byte     // Check's member names of the open objects

	// After a successful parse: the value's span in the text, and the span of
	// the top-level object's "msg" member value (-1 when there is none).
	start, end       int
	msgStart, msgEnd int
	inMsg            bool // reading the top-level object's "msg" value
}

// frame is an open array or object.
type frame struct {
	obj        bool
	vals, keys int  // where its members begin in Parser.vals and Parser.keys
	skipKeys   int  // where its names begin in Parser.skipKeys (undecoded objects)
	msg        bool // an object that may be a message
	batch      bool // an array whose objects may be messages
	start      int  // where the undecoded value it opens starts
	open       int  // where it opens
}

// Undecoded is the text of a JSON object or array that the parser checked
// but did not decode (see Parser.Lazy). It is valid as long as the text it
// was read from.
type Undecoded []byte

// LazyRef is an Undecoded value and where it is: member K of object M.
type LazyRef struct {
	M map[string]any
	K string
	V Undecoded
}

// Duplicate is a member name that one object of the text holds more than
// once. The object keeps the value of its last appearance, as encoding/json
// does.
type Duplicate struct {
	// Pointer is the JSON pointer (RFC 6901) of the member from the root
	// of the parsed value, e.g. "/params/name".
	Pointer string
	Name    string // the member name, unescaped
	Count   int    // how many times the object holds it (2 or more)
}

// Surrogate is a string of the text that holds a lone UTF-16 surrogate
// escape (see Parser.LoneSurrogates).
type Surrogate struct {
	// Pointer is the JSON pointer (RFC 6901) of the string from the root
	// of the parsed value; for a member name, of the member, whose name
	// has U+FFFD in place of the escape.
	Pointer string
	Name    bool   // the string is a member name
	Escape  string // the string's first lone surrogate escape, as written: `\ud800`
	// Start and End are the string's extent in the text, quotes included.
	Start, End int
}

func errAt(off int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func errEOF(off int) *SyntaxError {
	return &SyntaxError{Offset: off, Msg: "unexpected end of JSON input", EOF: true}
}

// errStringEOF reports text that ends inside a string. A string cannot go
// on to the next line, so this is not a truncated document: EOF is false.
func errStringEOF(off int) *SyntaxError {
	return &SyntaxError{Offset: off, Msg: "unexpected end of JSON input in a string"}
}

// Lazies returns the Undecoded values of the last Parse, valid until the
// next.
func (p *Parser) Lazies() []LazyRef { return p.lazies }

// LazyDuplicates reports whether an object inside an Undecoded value of the
// last Parse names a member more than once (Duplicates does not see those):
// parse the text again without Lazy to know which.
func (p *Parser) LazyDuplicates() bool { return p.lazyDup }

// Surrogates returns the strings of the last successful Parse that hold a
// lone surrogate escape (with LoneSurrogates set), in the order of the
// text. Those inside an Undecoded value are not seen (LazySurrogates tells
// there are some). The slice is valid until the next Parse.
func (p *Parser) Surrogates() []Surrogate { return p.lones }

// LazySurrogates reports whether a string inside an Undecoded value of
// the last Parse holds a lone surrogate escape: parse the text again
// without Lazy to know which.
func (p *Parser) LazySurrogates() bool { return p.lazyLone }

// Duplicates returns the member names that an object of the last
// successful Parse holds more than once, each object's in the order of
// their first appearance, inner objects before the objects that hold them.
// Names repeated inside an Undecoded value are not seen. The slice is valid
// until the next Parse.
func (p *Parser) Duplicates() []Duplicate { return p.dups }

// Span returns where the value of the last successful Parse starts and
// ends in the text.
func (p *Parser) Span() (start, end int) { return p.start, p.end }

// MsgSpan returns where the value of the top-level object's "msg" member
// starts and ends in the text of the last successful Parse; start is -1
// when there is none.
func (p *Parser) MsgSpan() (start, end int) { return p.msgStart, p.msgEnd }

// Parse decodes the JSON value that data holds, with optional whitespace
// around it.
func (p *Parser) Parse(data []byte) (any, *SyntaxError) {
	clear(p.vals)
	clear(p.keys)
	clear(p.lazies)
	clear(p.dups)
	clear(p.skipKeys)
	clear(p.lones)
	p.stack, p.vals, p.keys, p.lazies, p.dups = p.stack[:0], p.vals[:0], p.keys[:0], p.lazies[:0], p.dups[:0]
	p.skipKeys, p.lazyDup = p.skipKeys[:0], false
	p.lones, p.lazyLone = p.lones[:0], false
	p.msgStart, p.msgEnd, p.inMsg = -1, -1, false
	p.lazyNext, p.skip = false, 0
	p.parses = min(p.parses+1, 2)
	p.lens = nil
	if len(p.Lens) >= len(data) {
		p.lens = p.Lens
	}
	i := SkipSpace(data, 0)
	p.start = i
	var perr *SyntaxError
value:
	for {
		// Read a value at i: a scalar into v, or open a container.
		if i >= len(data) {
			return nil, errEOF(i)
		}
		var v any
		lazy := p.lazyNext
		p.lazyNext = false
		switch c := data[i]; c {
		case '{', '[':
			if len(p.stack) >= p.MaxDepth {
				return nil, errAt(i, "nesting deeper than %d levels (raise the limit with --max-depth)", p.MaxDepth)
			}
			p.stack = append(p.stack, p.frame(c == '{', i, lazy))
			i = SkipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				i++
				v = p.close(data, i)
				break
			}
			if c == '{' {
				if i, perr = p.key(data, i); perr != nil {
					return nil, perr
				}
			}
			continue value
		case '"':
			if p.skip == 0 && p.Shared != nil && p.sharedMember() {
				var ok bool
				var end int
				if v, end, ok = p.sharedString(data, i); ok {
					i = end
					break
				}
			}
			var s string
			start := i
			if s, i, perr = p.str(data, i, false, p.skip > 0); perr != nil {
				return nil, perr
			}
			if p.skip > 0 {
				p.note(start, i)
			}
			if p.lone >= 0 {
				p.surrogate(data, start, i, p.lone, false)
			}
			v = s
		case 't':
			if i, perr = parseLiteral(data, i, "true"); perr != nil {
				return nil, perr
			}
			v = true
		case 'f':
			if i, perr = parseLiteral(data, i, "false"); perr != nil {
				return nil, perr
			}
			v = false
		case 'n':
			if i, perr = parseLiteral(data, i, "null"); perr != nil {
				return nil, perr
			}
		default:
			start := i
			if i, perr = ScanNumber(data, i); perr != nil {
				return nil, perr
			}
			if p.skip == 0 {
				v = json.Number(data[start:i])
			}
		}
		// A value ends at i: add it to its container, then read a separator
		// and go on with the next value, or close containers.
		for {
			if len(p.stack) == 0 {
				p.end = i
				if i = SkipSpace(data, i); i < len(data) {
					return nil, errAt(i, "invalid character %s after top-level value", QuoteChar(data[i]))
				}
				return v, nil
			}
			if p.inMsg && len(p.stack) == 1 {
				p.inMsg, p.msgEnd = false, i
			}
			if p.skip == 0 {
				p.vals = append(p.vals, v)
			}
			top := p.stack[len(p.stack)-1]
			if i = SkipSpace(data, i); i >= len(data) {
				return nil, errEOF(i)
			}
			switch c := data[i]; {
			case c == ',':
				i = SkipSpace(data, i+1)
				if top.obj {
					if i, perr = p.key(data, i); perr != nil {
						return nil, perr
					}
				}
				continue value
			case top.obj && c == '}', !top.obj && c == ']':
				i++
				v = p.close(data, i)
			case top.obj:
				return nil, errAt(i, "invalid character %s after object key:value pair", QuoteChar(c))
			default:
				return nil, errAt(i, "invalid character %s after array element", QuoteChar(c))
			}
		}
	}
}

// note notes in Lens the extent of a value of an undecoded value, from
// start to end.
func (p *Parser) note(start, end int) {
	if p.lens != nil && end-start <= math.MaxUint16 {
		p.lens[start] = uint16(end - start)
	}
}

// frame returns the frame of an array or object that opens at i; lazy
// tells that it is the value of a lazy member.
func (p *Parser) frame(obj bool, i int, lazy bool) frame {
	f := frame{obj: obj, vals: len(p.vals), keys: len(p.keys), skipKeys: len(p.skipKeys), open: i}
	switch {
	case p.skip > 0:
		return f
	case lazy:
		p.skip, f.start = len(p.stack)+1, i
		return f
	case len(p.stack) == 0:
		f.msg, f.batch = obj, !obj
	default:
		parent := p.stack[len(p.stack)-1]
		if parent.obj && len(p.stack) == 1 && p.keys[len(p.keys)-1] == "msg" || !parent.obj && parent.batch {
			f.msg, f.batch = obj, !obj && parent.obj
		}
	}
	return f
}

// close ends the innermost container, which ends before end, and returns
// it.
func (p *Parser) close(data []byte, end int) any {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	if p.skip > 0 {
		p.note(f.open, end)
		if f.obj {
			p.lazyDup = p.lazyDup || repeats(p.skipKeys[f.skipKeys:])
			clear(p.skipKeys[f.skipKeys:])
			p.skipKeys = p.skipKeys[:f.skipKeys]
		}
		if len(p.stack)+1 > p.skip {
			return nil // inside an undecoded value
		}
		p.skip = 0
		return Undecoded(data[f.start:end])
	}
	vals := p.vals[f.vals:]
	var v any
	if f.obj {
		keys := p.keys[f.keys:]
		var m map[string]any
		if p.ReuseEnvelope && len(p.stack) == 0 && p.msgStart >= 0 && !slices.Contains(keys, "jsonrpc") {
			if p.envelope == nil {
				p.envelope = make(map[string]any, len(vals))
			}
			m = p.envelope
			clear(m)
		} else {
			m = make(map[string]any, len(vals))
		}
		lazies := len(p.lazies)
		for j, k := range keys {
			m[k] = vals[j]
			if u, ok := vals[j].(Undecoded); ok {
				p.lazies = append(p.lazies, LazyRef{m, k, u})
			}
		}
		if len(m) < len(keys) {
			p.duplicates(f, keys, m, lazies)
		}
		clear(keys)
		p.keys = p.keys[:f.keys]
		v = m
	} else {
		a := make([]any, len(vals))
		copy(a, vals)
		v = a
	}
	clear(vals)
	p.vals = p.vals[:f.vals]
	return v
}

// duplicates notes the names that the object of frame f, just closed as
// m, holds more than once (keys are its members' names in order), and
// drops the undecoded values the object does not keep from p.lazies[from:].
// Only objects with such names come here.
func (p *Parser) duplicates(f frame, keys []string, m map[string]any, from int) {
	count := make(map[string]int, len(keys))
	for _, k := range keys {
		count[k]++
	}
	ptr := p.pointer(f)
	for _, k := range keys {
		if n := count[k]; n > 1 {
			p.dups = append(p.dups, Duplicate{Pointer: ptr + "/" + escapePointer(k), Name: k, Count: n})
			count[k] = 0
		}
	}
	kept := p.lazies[:from]
	for _, l := range p.lazies[from:] {
		if u, ok := m[l.K].(Undecoded); ok && &u[0] == &l.V[0] {
			kept = append(kept, l)
		}
	}
	clear(p.lazies[len(kept):])
	p.lazies = kept
}

// repeats reports whether names holds a name twice.
func repeats(names [][]byte) bool {
	if len(names) <= 16 {
		for i := 1; i < len(names); i++ {
			for j := 0; j < i; j++ {
				if bytes.Equal(names[i], names[j]) {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[string(n)] {
			return true
		}
		seen[string(n)] = true
	}
	return false
}

// pointer returns the JSON pointer of the container of frame f, just
// closed (or of the value at the place frame f would open): p.stack holds
// the containers around it.
func (p *Parser) pointer(f frame) string {
	var b []byte
	for i, parent := range p.stack {
		child := f
		if i+1 < len(p.stack) {
			child = p.stack[i+1]
		}
		b = append(b, '/')
		if parent.obj {
			b = append(b, escapePointer(p.keys[child.keys-1])...)
		} else {
			b = strconv.AppendInt(b, int64(child.vals-parent.vals), 10)
		}
	}
	return string(b)
}

// surrogate notes the string from start to end, just read, whose first
// lone surrogate escape is at esc: name tells a member name, whose key
// p.keys holds by now. Inside an undecoded value, only that there is one is
// noted.
func (p *Parser) surrogate(data []byte, start, end, esc int, name bool) {
	if p.skip > 0 {
		p.lazyLone = true
		return
	}
	// The pointer of the value about to join the innermost container (for
	// a name, of the member it names) is that of a frame opening there.
	at := frame{vals: len(p.vals), keys: len(p.keys)}
	p.lones = append(p.lones, Surrogate{Pointer: p.pointer(at), Name: name,
		Escape: string(data[esc : esc+6]), Start: start, End: end})
}

// pointerEscaper escapes a reference token of a JSON pointer.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// escapePointer returns name as a JSON pointer reference token.
func escapePointer(name string) string { return pointerEscaper.Replace(name) }

// key reads an object key and its colon at i, and returns the offset of the
// member's value. It notes where the top-level object's "msg" value starts.
func (p *Parser) key(data []byte, i int) (int, *SyntaxError) {
	if i >= len(data) {
		return i, errEOF(i)
	}
	if data[i] != '"' {
		return i, errAt(i, "invalid character %s looking for beginning of object key string", QuoteChar(data[i]))
	}
	quote := i
	k, i, perr := p.str(data, i, true, p.skip > 0)
	if perr != nil {
		return i, perr
	}
	end, lone := i, p.lone
	if p.skip > 0 {
		p.note(quote, i)
		// Inside an undecoded value, names are kept as written, to tell
		// whether one is repeated when the object closes.
		name := data[quote+1 : i-1]
		if p.escaped {
			u, _, _ := p.str(data, quote, false, false)
			name = []byte(u)
		}
		p.lazyLone = p.lazyLone || lone >= 0
		p.skipKeys = append(p.skipKeys, name)
	}
	if i = SkipSpace(data, i); i >= len(data) {
		return i, errEOF(i)
	}
	if data[i] != ':' {
		return i, errAt(i, "invalid character %s after object key", QuoteChar(data[i]))
	}
	i = SkipSpace(data, i+1)
	if p.skip > 0 {
		return i, nil
	}
	p.keys = append(p.keys, k)
	if lone >= 0 {
		p.surrogate(data, quote, end, lone, true)
	}
	if len(p.stack) == 1 && k == "msg" {
		p.inMsg, p.msgStart = true, i
	}
	if p.Lazy != nil && p.stack[len(p.stack)-1].msg && i < len(data) && (data[i] == '{' || data[i] == '[') {
		for _, l := range p.Lazy {
			if k == l {
				p.lazyNext = true
			}
		}
	}
	return i, nil
}

// str reads the string whose opening quote is at i and returns it with the
// offset past its closing quote; with discard, it only checks it and
// returns "".
//
// p.lone tells where its first lone surrogate escape is, or -1, and
// p.escaped whether it holds an escape at all.
func (p *Parser) str(data []byte, i int, key, discard bool) (string, int, *SyntaxError) {
	p.lone, p.escaped = -1, false
	start := i + 1
	j := start
	for {
		j = plainRun(data, j)
		if j >= len(data) {
			return "", j, errStringEOF(j)
		}
		c := data[j]
		if c == '"' {
			switch {
			case discard:
				return "", j + 1, nil
			case key:
				return p.intern(data[start:j]), j + 1, nil
			}
			return string(data[start:j]), j + 1, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", j, errAt(j, "invalid character %s in string literal", QuoteChar(c))
		}
		n, perr := jsonRuneLen(data, j)
		if perr != nil {
			return "", j, perr
		}
		j += n
	}
	p.escaped = true
	if discard {
		return p.checkEscaped(data, j)
	}
	// The string has escapes: unescape it into the scratch buffer.
	buf := append(p.buf[:0], data[start:j]...)
	for {
		k := plainRun(data, j)
		buf = append(buf, data[j:k]...)
		j = k
		if j >= len(data) {
			p.buf = buf
			return "", j, errStringEOF(j)
		}
		switch c := data[j]; {
		case c == '"':
			p.buf = buf
			if discard {
				return "", j + 1, nil
			}
			return string(buf), j + 1, nil
		case c == '\\':
			var perr *SyntaxError
			at := j
			var lone bool
			if buf, j, lone, perr = appendUnescaped(buf, data, j, p.LoneSurrogates); perr != nil {
				p.buf = buf
				return "", j, perr
			}
			if lone && p.lone < 0 {
				p.lone = at
			}
		case c < 0x20:
			p.buf = buf
			return "", j, errAt(j, "invalid character %s in string literal", QuoteChar(c))
		default:
			n, perr := jsonRuneLen(data, j)
			if perr != nil {
				p.buf = buf
				return "", j, perr
			}
			buf = append(buf, data[j:j+n]...)
			j += n
		}
	}
}

// checkEscaped is str with discard from the first escape of the string,
// at data[j], on: it checks the rest as str does, with the same errors,
// without unescaping it.
func (p *Parser) checkEscaped(data []byte, j int) (string, int, *SyntaxError) {
	var scratch [utf8.UTFMax]byte // one escape's character
	for {
		j = plainRun(data, j)
		if j >= len(data) {
			return "", j, errStringEOF(j)
		}
		switch c := data[j]; {
		case c == '"':
			return "", j + 1, nil
		case c == '\\':
			at := j
			var lone bool
			var perr *SyntaxError
			if _, j, lone, perr = appendUnescaped(scratch[:0], data, j, p.LoneSurrogates); perr != nil {
				return "", j, perr
			}
			if lone && p.lone < 0 {
				p.lone = at
			}
		case c < 0x20:
			return "", j, errAt(j, "invalid character %s in string literal", QuoteChar(c))
		default:
			n, perr := jsonRuneLen(data, j)
			if perr != nil {
				return "", j, perr
			}
			j += n
		}
	}
}

// sharedMember reports whether the value about to be read is that of a
// member of an object named in Shared.
func (p *Parser) sharedMember() bool {
	if len(p.stack) == 0 || !p.stack[len(p.stack)-1].obj {
		return false
	}
	return slices.Contains(p.Shared, p.keys[len(p.keys)-1])
}

// sharedString reads the string whose opening quote is at data[i] when it
// is ASCII without escapes and no longer than maxInternLen, and returns it
// boxed, shared with the last equal one; ok is false for any other string,
// which str reads.
func (p *Parser) sharedString(data []byte, i int) (v any, end int, ok bool) {
	j := i + 1
	for j < len(data) && strPlain[data[j]] {
		j++
	}
	if j >= len(data) || data[j] != '"' || j-i-1 > maxInternLen || p.parses < 2 {
		return nil, i, false
	}
	b := data[i+1 : j]
	slot := p.sharedSlot(b)
	if s, ok := (*slot).(string); !ok || s != string(b) {
		*slot = string(b)
	}
	return *slot, j + 1, true
}

// intern returns b as a string, shared with earlier keys of the same text:
// object keys repeat from message to message.
func (p *Parser) intern(b []byte) string {
	if len(b) > maxInternLen {
		return string(b)
	}
	// A direct-mapped cache: a key takes the slot its hash picks, and a
	// later key with the same slot takes it over.
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	if p.keyCache == nil {
		if p.parses < 2 {
			// A parser used once has no use for a cache.
			return string(b)
		}
		p.keyCache = new([maxInterned]string)
	}
	slot := &p.keyCache[h%maxInterned]
	if *slot == string(b) {
		return *slot
	}
	*slot = string(b)
	return *slot
}

// plainRun returns the offset of the first byte at or after j that a
// string does not hold as it is (see strPlain), or len(data). Strings are
// most of a log's text: it looks at eight bytes at a time while all are
// plain.
func plainRun(data []byte, j int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for ; j+8 <= len(data); j += 8 {
		x := binary.LittleEndian.Uint64(data[j:])
		// A byte below 0x20, '"' (0x22) or '\\' (0x5C) turns on the high
		// bit of its lane in the first three terms (only lanes above a
		// true one can be turned on falsely, by a borrow); one from 0x80
		// on is there already. So the lowest lane on is the first byte
		// not plain.
		q, bs := x^(ones*'"'), x^(ones*'\\')
		if m := (x - ones*0x20 | (q-ones)&^q | (bs-ones)&^bs | x) & highs; m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
	}
	for j < len(data) && strPlain[data[j]] {
		j++
	}
	return j
}

// jsonRuneLen returns the length of the UTF-8 sequence at data[j], which must
// be valid.
func jsonRuneLen(data []byte, j int) (int, *SyntaxError) {
	r, n := utf8.DecodeRune(data[j:])
	if r == utf8.RuneError && n == 1 {
		return 0, errAt(j, "invalid UTF-8 byte %#02x", data[j])
	}
	return n, nil
}

// appendUnescaped decodes the escape sequence whose backslash is at data[j],
// appends it to buf, and returns the offset past it. A \u escape of a UTF-16
// surrogate must pair a high with a low one; with lone, one that does not
// is read as U+FFFD, and reported.
func appendUnescaped(buf, data []byte, j int, lone bool) (_ []byte, next int, wasLone bool, _ *SyntaxError) {
	if j+1 >= len(data) {
		return buf, j + 1, false, errStringEOF(j + 1)
	}
	switch c := data[j+1]; c {
	case '"', '\\', '/':
		return append(buf, c), j + 2, false, nil
	case 'b':
		return append(buf, '\b'), j + 2, false, nil
	case 'f':
		return append(buf, '\f'), j + 2, false, nil
	case 'n':
		return append(buf, '\n'), j + 2, false, nil
	case 'r':
		return append(buf, '\r'), j + 2, false, nil
	case 't':
		return append(buf, '\t'), j + 2, false, nil
	case 'u':
		// decoded below
	default:
		return buf, j + 1, false, errAt(j+1, "invalid character %s in string escape code", QuoteChar(c))
	}
	r, perr := Hex4(data, j+2)
	if perr != nil {
		return buf, perr.Offset, false, perr
	}
	next = j + 6
	if utf16.IsSurrogate(r) {
		var r2 rune = -1
		if r < 0xdc00 && next+1 < len(data) && data[next] == '\\' && data[next+1] == 'u' {
			if r2, perr = Hex4(data, next+2); perr != nil {
				return buf, perr.Offset, false, perr
			}
		}
		if r >= 0xdc00 || r2 < 0xdc00 || r2 > 0xdfff {
			if !lone {
				return buf, j, false, errAt(j, "lone UTF-16 surrogate %s in string", data[j:j+6])
			}
			// The escape after a lone high one is read on its own.
			return utf8.AppendRune(buf, utf8.RuneError), next, true, nil
		}
		r = utf16.DecodeRune(r, r2)
		next += 6
	}
	return utf8.AppendRune(buf, r), next, false, nil
}

// Member is one member of an object's JSON text.
type Member struct {
	Name  []byte // the name's text, between its quotes
	Value []byte // the value's text
}

// AppendMembers appends to dst the members of the object text, JSON the
// Parser accepts, in the order of the text; ok is false when a name holds
// an escape.
func AppendMembers(dst []Member, text []byte) (_ []Member, ok bool) {
	for i := SkipSpace(text, 1); i < len(text) && text[i] != '}'; {
		j := plainRun(text, i+1)
		for j < len(text) && text[j] >= utf8.RuneSelf {
			j = plainRun(text, j+1)
		}
		if text[i] != '"' || j >= len(text) || text[j] != '"' {
			return dst, false
		}
		name := text[i+1 : j]
		if i = SkipSpace(text, j+1); i >= len(text) || text[i] != ':' {
			return dst, false
		}
		i = SkipSpace(text, i+1)
		end := SkipValue(text, i)
		if end <= i || end > len(text) {
			return dst, false
		}
		dst = append(dst, Member{name, text[i:end]})
		if i = SkipSpace(text, end); i < len(text) && text[i] == ',' {
			i = SkipSpace(text, i+1)
		}
	}
	return dst, true
}

// AppendString appends to dst the string whose text, quotes included, is
// text, unescaped; ok is false when text is no string the Parser accepts,
// or holds a lone surrogate escape.
func AppendString(dst, text []byte) (_ []byte, ok bool) {
	if len(text) < 2 || text[0] != '"' {
		return dst, false
	}
	for j := 1; j < len(text); {
		k := plainRun(text, j)
		dst = append(dst, text[j:k]...)
		if j = k; j >= len(text) {
			break
		}
		var perr *SyntaxError
		switch c := text[j]; {
		case c == '"':
			return dst, j == len(text)-1
		case c == '\\':
			dst, j, _, perr = appendUnescaped(dst, text, j, false)
		case c < 0x20:
			return dst, false
		default:
			var n int
			if n, perr = jsonRuneLen(text, j); perr == nil {
				dst = append(dst, text[j:j+n]...)
				j += n
			}
		}
		if perr != nil {
			return dst, false
		}
	}
	return dst, false
}

// Hex4 decodes the four hexadecimal digits at data[i:].
func Hex4(data []byte, i int) (rune, *SyntaxError) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(data) {
			return 0, errStringEOF(k)
		}
		c := data[k]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, errAt(k, "invalid character %s in \\u hexadecimal character escape", QuoteChar(c))
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

// parseLiteral reads the literal word (true, false or null) at i.
func parseLiteral(data []byte, i int, word string) (int, *SyntaxError) {
	for k := 1; k < len(word); k++ {
		if i+k >= len(data) {
			return i + k, errEOF(i + k)
		}
		if data[i+k] != word[k] {
			return i + k, errAt(i+k, "invalid character %s in literal %s (expecting %s)",
				QuoteChar(data[i+k]), word, QuoteChar(word[k]))
		}
	}
	return i + len(word), nil
}

// ScanNumber reads the number at data[i] and returns the offset past it.
func ScanNumber(data []byte, i int) (int, *SyntaxError) {
	neg := data[i] == '-'
	if neg {
		i++
		if i >= len(data) {
			return i, errEOF(i)
		}
	}
	switch c := data[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		i = skipDigits(data, i+1)
	case neg:
		return i, errAt(i, "invalid character %s in numeric literal", QuoteChar(c))
	default:
		return i, errAt(i, "invalid character %s looking for beginning of value", QuoteChar(c))
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) {
			return i, errEOF(i)
		}
		if !isDigit(data[i]) {
			return i, errAt(i, "invalid character %s after decimal point in numeric literal", QuoteChar(data[i]))
		}
		i = skipDigits(data, i)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			return i, errEOF(i)
		}
		if !isDigit(data[i]) {
			return i, errAt(i, "invalid character %s in exponent of numeric literal", QuoteChar(data[i]))
		}
		i = skipDigits(data, i)
	}
	return i, nil
}

// Elements returns the texts of the elements of the array that text holds,
// without the white space around them: text must be JSON the Parser
// accepts. It returns nil when text holds no array.
func Elements(text []byte) [][]byte {
	i := SkipSpace(text, 0)
	if i >= len(text) || text[i] != '[' {
		return nil
	}
	var out [][]byte
	for i = SkipSpace(text, i+1); i < len(text) && text[i] != ']'; {
		end := SkipValue(text, i)
		out = append(out, text[i:end])
		if i = SkipSpace(text, end); i < len(text) && text[i] == ',' {
			i = SkipSpace(text, i+1)
		}
	}
	return out
}

// DepthPast returns the offset of the first '[' or '{' of data that is
// inside max others, or -1 when there is none; brackets in strings do not
// count. data need not be JSON: a reader that decodes with encoding/json,
// whose bound is 10,000, calls it first to refuse nesting it would follow
// by recursion, or whose cost grows with its square.
func DepthPast(data []byte, max int) int {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i = plainRun(data, i+1); i < len(data) && data[i] != '"'; i = plainRun(data, i+1) {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			if depth == max {
				return i
			}
			depth++
		case '}', ']':
			depth--
		}
	}
	return -1
}

// SkipValue returns the offset past the value at data[i], which must be
// JSON the Parser accepts.
func SkipValue(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			for i = plainRun(data, i+1); i < len(data) && data[i] != '"'; i = plainRun(data, i+1) {
				if data[i] == '\\' {
					i++
				}
			}
			i++
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		case ',', ':', ' ', '\t', '\n', '\r':
			i++
		default: // a number or a literal
			for i < len(data) && !tokenEnd[data[i]] {
				i++
			}
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

func skipDigits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

// InvalidUTF8 returns the offset of the first byte of b that is not part
// of a UTF-8 encoded character, which JSON text must be made of, or -1
// when b is UTF-8.
func InvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	i := 0
	for {
		c, n := utf8.DecodeRune(b[i:])
		if c == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
}

// SkipSpace returns the offset of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(data []byte, i int) int {
	// Most JSON is compact: one comparison tells most bytes apart.
	for i < len(data) && data[i] <= ' ' {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// QuoteChar formats c for an error message, as encoding/json does.
func QuoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string([]byte{c}))
	return "'" + s[1:len(s)-1] + "'"
}

// Check checks the JSON value that starts at data[i] as Parse reads it,
// with the same errors, without decoding it, and returns the offset past
// it. depth is the number of arrays and objects around the value, which
// count against MaxDepth. With lens, the extents of the value's strings,
// arrays, objects and member names go into Lens as Parse notes those of an
// Undecoded value (when Lens is at least as long as data). clean reports
// that no object of the value names a member twice and no string of it
// holds a lone surrogate escape: where one does, Parse tells which.
func (p *Parser) Check(data []byte, i, depth int, lens bool) (end int, clean bool, perr *SyntaxError) {
	var ls []uint16
	if lens && len(p.Lens) >= len(data) {
		ls = p.Lens
	}
	note := func(start, end int) {
		if ls != nil && end-start <= math.MaxUint16 {
			ls[start] = uint16(end - start)
		}
	}
	st := p.checkStack[:0]
	names := p.checkNames[:0]
	defer func() {
		p.checkStack = st[:0]
		clear(names)
		p.checkNames = names[:0]
	}()
	clean = true
	// key reads an object's member name at i and its colon, and returns
	// the offset of the member's value.
	key := func(i int) (int, *SyntaxError) {
		if i >= len(data) {
			return i, errEOF(i)
		}
		if data[i] != '"' {
			return i, errAt(i, "invalid character %s looking for beginning of object key string", QuoteChar(data[i]))
		}
		quote := i
		_, i, perr := p.str(data, i, true, true)
		if perr != nil {
			return i, perr
		}
		note(quote, i)
		clean = clean && p.lone < 0
		name := data[quote+1 : i-1]
		if p.escaped {
			u, _, _ := p.str(data, quote, false, false)
			name = []byte(u)
		}
		names = append(names, name)
		if i = SkipSpace(data, i); i >= len(data) {
			return i, errEOF(i)
		}
		if data[i] != ':' {
			return i, errAt(i, "invalid character %s after object key", QuoteChar(data[i]))
		}
		return SkipSpace(data, i+1), nil
	}
value:
	for {
		if i >= len(data) {
			return i, false, errEOF(i)
		}
		switch c := data[i]; c {
		case '{', '[':
			if depth+len(st) >= p.MaxDepth {
				return i, false, errAt(i, "nesting deeper than %d levels (raise the limit with --max-depth)", p.MaxDepth)
			}
			st = append(st, checkFrame{obj: c == '{', open: i, names: len(names)})
			i = SkipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 {
				i++
				note(st[len(st)-1].open, i)
				st = st[:len(st)-1]
				break
			}
			if c == '{' {
				if i, perr = key(i); perr != nil {
					return i, false, perr
				}
			}
			continue value
		case '"':
			start := i
			if _, i, perr = p.str(data, i, false, true); perr != nil {
				return i, false, perr
			}
			note(start, i)
			clean = clean && p.lone < 0
		case 't':
			if i, perr = parseLiteral(data, i, "true"); perr != nil {
				return i, false, perr
			}
		case 'f':
			if i, perr = parseLiteral(data, i, "false"); perr != nil {
				return i, false, perr
			}
		case 'n':
			if i, perr = parseLiteral(data, i, "null"); perr != nil {
				return i, false, perr
			}
		default:
			if i, perr = ScanNumber(data, i); perr != nil {
				return i, false, perr
			}
		}
		// A value ends at i: read a separator, or close containers.
		for {
			if len(st) == 0 {
				return i, clean, nil
			}
			top := st[len(st)-1]
			if i = SkipSpace(data, i); i >= len(data) {
				return i, false, errEOF(i)
			}
			switch c := data[i]; {
			case c == ',':
				i = SkipSpace(data, i+1)
				if top.obj {
					if i, perr = key(i); perr != nil {
						return i, false, perr
					}
				}
				continue value
			case top.obj && c == '}', !top.obj && c == ']':
				i++
				note(top.open, i)
				if top.obj {
					clean = clean && !repeats(names[top.names:])
					clear(names[top.names:])
					names = names[:top.names]
				}
				st = st[:len(st)-1]
			case top.obj:
				return i, false, errAt(i, "invalid character %s after object key:value pair", QuoteChar(c))
			default:
				return i, false, errAt(i, "invalid character %s after array element", QuoteChar(c))
			}
		}
	}
}

// checkFrame is an array or object open in Check.
type checkFrame struct {
	obj   bool
	open  int // where it opens
	names int // where its member names begin in Parser.checkNames
}

// SharedString returns b as a string, shared with the last equal one
// that SharedString or a Shared member returned (b must be no longer than
// 64 bytes to be shared): for the values that repeat from text to text.
func (p *Parser) SharedString(b []byte) string {
	if len(b) > maxInternLen {
		return string(b)
	}
	slot := p.sharedSlot(b)
	if s, ok := (*slot).(string); ok && s == string(b) {
		return s
	}
	s := string(b)
	*slot = s
	return s
}

// sharedSlot returns the slot of the shared values' cache that b's hash
// (FNV-1a) picks: a direct-mapped cache, where the last value of a slot
// wins.
func (p *Parser) sharedSlot(b []byte) *any {
	if p.valCache == nil {
		p.valCache = new([maxShared]any)
	}
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return &p.valCache[h%maxShared]
}
