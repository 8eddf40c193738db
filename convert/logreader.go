package convert

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Error codes carried by a ReadError, taken from JSON-RPC 2.0.
const (
	codeParseError     = -32700 // the text is not JSON
	codeInvalidMessage = -32600 // the JSON is not an acceptable message or envelope
)

const (
	defaultMaxLineBytes = 64 << 20
	defaultMaxDepth     = 512
	readBufferSize      = 256 << 10
	maxInterned         = 4096 // object keys a Reader keeps to share
	maxInternLen        = 64   // longest key kept
)

// Record is one message read from a log, or one unreadable part of it.
// Each call to Reader.Next returns a new Record; only Raw points into the
// Reader's buffers.
type Record struct {
	Line int // 1-based line where the message starts
	// Raw is the message's JSON text (for an envelope: the "msg" value's
	// text), or the unreadable text when Err is set (nil for an over-long
	// line). It is valid until the next call to Next.
	Raw   []byte
	Value any               // the decoded message, as encoding/json with UseNumber decodes it; nil when Err != nil
	Dir   jsonrpc.Direction // NoDirection when the input has no envelope
	TS    string            // the envelope's "ts" as written, or ""
	Err   error             // non-nil when this part could not be read: a *ReadError
}

// ReadError describes a part of a log that could not be read as a message.
type ReadError struct {
	File   string
	Line   int
	Column int // 1-based byte column, 0 when unknown
	Code   int // -32700 for text that is not JSON; -32600 for JSON that is not an acceptable message or envelope
	Msg    string
}

// Error returns the error as "FILE:LINE[:COL]: message".
func (e *ReadError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ReaderOptions bounds what a Reader accepts. The zero value means the defaults.
type ReaderOptions struct {
	MaxLineBytes int // longest line (and, for a pretty-printed input, longest document) accepted; default 64 MiB
	MaxDepth     int // deepest nesting of arrays and objects accepted; default 512
	MaxBatch     int // most messages in one batch; default 100000
}

// DefaultMaxBatch is the default of ReaderOptions.MaxBatch.
const DefaultMaxBatch = 100000

// Input forms, decided from the first non-blank line.
const (
	modeUnknown = iota
	modeLines   // JSONL: one message or envelope per line
	modeDocs    // a stream of JSON documents, possibly pretty-printed
)

// Reader reads messages from a log: a JSON document or a stream of them,
// JSONL, or JSONL of {"dir","ts","msg"} envelopes, each possibly gzipped.
// Memory stays bounded by the longest line (or document) whatever the size
// of the log.
type Reader struct {
	name     string
	maxLine  int
	maxBatch int
	br       *bufio.Reader
	p        jsonParser
	mode     int
	n        int64  // bytes consumed
	line     int    // number of the last line read
	eof      bool   // no line is left
	done     bool   // document mode met an error it cannot recover from
	long     []byte // holds a line longer than the bufio buffer
	lineNL   bool   // the last line read ended with "\n"

	// Document mode: doc holds the text from the current document's start
	// on; pos is where reading continues, on line posLine, which starts at
	// offset lineStart of doc (negative once its start was dropped).
	doc       []byte
	pos       int
	posLine   int
	lineStart int
	fr        docFramer
}

// NewReader returns a Reader over r; name is used in errors (e.g. the file
// path or "-"). Gzip-compressed input is recognised by its magic bytes and
// decompressed.
func NewReader(r io.Reader, name string, opts ReaderOptions) (*Reader, error) {
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = defaultMaxLineBytes
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = defaultMaxDepth
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = DefaultMaxBatch
	}
	br := bufio.NewReaderSize(r, readBufferSize)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		br = bufio.NewReaderSize(zr, readBufferSize)
	}
	return &Reader{
		name:     name,
		maxBatch: opts.MaxBatch,
		maxLine:  opts.MaxLineBytes,
		br:       br,
		p:        jsonParser{maxDepth: opts.MaxDepth},
	}, nil
}

// BytesRead returns how many bytes of the (decompressed) input have been
// consumed so far, for progress reporting.
func (r *Reader) BytesRead() int64 { return r.n }

// Next returns the next record, or io.EOF at the end. A non-nil error other
// than io.EOF is an I/O error that ends the input.
func (r *Reader) Next() (*Record, error) {
	switch r.mode {
	case modeLines:
		return r.nextLine()
	case modeDocs:
		return r.nextDoc()
	}
	return r.detect()
}

// detect reads the first non-blank line and decides the input form: JSONL
// when the line holds a whole JSON value (or is not JSON at all), a stream of
// documents when the line is the start of a longer one.
func (r *Reader) detect() (*Record, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if line == nil {
			r.mode = modeLines
			return r.tooLong(r.line, "line"), nil
		}
		if skipJSONSpace(line, 0) == len(line) {
			continue
		}
		v, perr := r.p.parse(line)
		if perr != nil && perr.eof {
			r.mode = modeDocs
			r.doc = append(r.doc[:0], line...)
			if r.lineNL {
				r.doc = append(r.doc, '\n')
			}
			r.pos, r.posLine, r.lineStart = 0, r.line, 0
			return r.nextDoc()
		}
		r.mode = modeLines
		return r.record(&r.p, v, perr, line, r.line, 1), nil
	}
}

// nextLine returns the record for the next non-blank line of a JSONL input.
func (r *Reader) nextLine() (*Record, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if line == nil {
			return r.tooLong(r.line, "line"), nil
		}
		if skipJSONSpace(line, 0) == len(line) {
			continue
		}
		v, perr := r.p.parse(line)
		return r.record(&r.p, v, perr, line, r.line, 1), nil
	}
}

// nextDoc returns the record for the next document of a document stream.
// A syntax error ends the stream: nothing after it can be trusted.
func (r *Reader) nextDoc() (*Record, error) {
	if r.done {
		return nil, io.EOF
	}
	for {
		r.advance(skipJSONSpace(r.doc, r.pos))
		if r.pos < len(r.doc) {
			break
		}
		r.doc, r.pos, r.lineStart = r.doc[:0], 0, 0
		rec, err := r.appendLine(0)
		if err != nil || rec != nil {
			return rec, err
		}
	}
	start, line, col := r.pos, r.posLine, r.pos-r.lineStart+1
	r.fr = docFramer{}
	end, complete := r.fr.scan(r.doc, start)
	for !complete {
		if start > 0 {
			n := copy(r.doc, r.doc[start:])
			r.doc = r.doc[:n]
			r.lineStart -= start
			end -= start
			r.pos, start = 0, 0
		}
		rec, err := r.appendLine(line)
		if err == io.EOF {
			break
		}
		if err != nil || rec != nil {
			return rec, err
		}
		end, complete = r.fr.scan(r.doc, end)
	}
	if !complete {
		end = len(r.doc)
	}
	chunk := r.doc[start:end]
	v, perr := r.p.parse(chunk)
	if perr != nil {
		r.done = true
		// Find the error's line and column from the document's start.
		eline, ecol := line, col
		for _, c := range chunk[:perr.off] {
			if c == '\n' {
				eline, ecol = eline+1, 1
			} else {
				ecol++
			}
		}
		return r.errRecord(chunk, eline, ecol, codeParseError, perr.msg), nil
	}
	r.advance(end)
	return r.record(&r.p, v, nil, chunk, line, col), nil
}

// appendLine adds the next line to the document buffer. It returns io.EOF at
// the end of the input, or a record when the line or the document beginning
// on line docLine (0 when none has begun) is over the limit, which ends the
// stream.
func (r *Reader) appendLine(docLine int) (*Record, error) {
	line, err := r.readLine()
	if err != nil {
		if err == io.EOF {
			r.done = true
		}
		return nil, err
	}
	if line == nil {
		r.done = true
		return r.tooLong(r.line, "line"), nil
	}
	if docLine > 0 && len(r.doc)+len(line) > r.maxLine {
		r.done = true
		return r.tooLong(docLine, "document"), nil
	}
	r.doc = append(r.doc, line...)
	if r.lineNL {
		r.doc = append(r.doc, '\n')
	}
	return nil, nil
}

// advance moves the document read position to to, counting lines.
func (r *Reader) advance(to int) {
	for i := r.pos; ; {
		j := bytes.IndexByte(r.doc[i:to], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		r.posLine++
		r.lineStart = i
	}
	r.pos = to
}

// readLine returns the next line without its "\n", or nil when the line is
// longer than the limit (it is then skipped to its end). The line is valid
// until the next read.
func (r *Reader) readLine() ([]byte, error) {
	if r.eof {
		return nil, io.EOF
	}
	b, err := r.br.ReadSlice('\n')
	r.n += int64(len(b))
	over := false
	if err == bufio.ErrBufferFull {
		// A line longer than the buffer: gather it, up to the limit.
		r.long = append(r.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = r.br.ReadSlice('\n')
			r.n += int64(len(b))
			if !over && len(r.long)+len(b)-2 <= r.maxLine {
				r.long = append(r.long, b...)
			} else {
				over = true
			}
		}
		b = r.long
	}
	if err == io.EOF {
		r.eof = true
		if len(b) == 0 {
			return nil, io.EOF
		}
	} else if err != nil {
		r.eof = true
		return nil, fmt.Errorf("%s: line %d: %w", r.name, r.line+1, err)
	}
	r.line++
	r.lineNL = len(b) > 0 && b[len(b)-1] == '\n'
	if r.lineNL {
		b = b[:len(b)-1]
	}
	n := len(b)
	if n > 0 && b[n-1] == '\r' {
		n--
	}
	if over || n > r.maxLine {
		return nil, nil
	}
	return b, nil
}

// nextText returns, for a JSON lines input, the text of the next non-blank
// line appended to dst and its line number, for decodeText; for any other
// input (and for a line over the limit), the next record as Next returns
// it, with dst as it was.
func (r *Reader) nextText(dst []byte) (rec *Record, text []byte, line int, err error) {
	if r.mode != modeLines {
		rec, err := r.Next()
		return rec, dst, 0, err
	}
	for {
		l, err := r.readLine()
		if err != nil {
			return nil, dst, 0, err
		}
		if l == nil {
			return r.tooLong(r.line, "line"), dst, 0, nil
		}
		if skipJSONSpace(l, 0) < len(l) {
			return nil, append(dst, l...), r.line, nil
		}
	}
}

// decodeText decodes a line nextText returned, with p, a parser of the
// caller's own: several goroutines may decode the lines of one Reader
// while it reads on.
func (r *Reader) decodeText(p *jsonParser, text []byte, line int) *Record {
	v, perr := p.parse(text)
	return r.record(p, v, perr, text, line, 1)
}

// newParser returns a parser with the Reader's limits, for decodeText.
func (r *Reader) newParser() *jsonParser {
	return &jsonParser{maxDepth: r.p.maxDepth}
}

// record builds the record for a value p read from text, which starts on
// line line at column col. perr is the syntax error when there was one. It
// reads only the Reader's settings.
func (r *Reader) record(p *jsonParser, v any, perr *jsonSyntaxError, text []byte, line, col int) *Record {
	if perr != nil {
		return r.errRecord(text, line, col+perr.off, codeParseError, perr.msg)
	}
	raw := text[p.start:p.end]
	m, ok := v.(map[string]any)
	if !ok || p.msgStart < 0 {
		if v == nil {
			return r.errRecord(raw, line, 0, codeInvalidMessage, "message is null")
		}
		return r.checkBatch(&Record{Line: line, Raw: raw, Value: v})
	}
	if _, ok := m["jsonrpc"]; ok {
		return &Record{Line: line, Raw: raw, Value: v}
	}
	// An envelope: {"dir": "c2s"|"s2c", "ts": "...", "msg": {...}}.
	rec := &Record{Line: line, Raw: text[p.msgStart:p.msgEnd], Value: m["msg"]}
	if d, ok := m["dir"]; ok {
		s, _ := d.(string)
		dir, ok := jsonrpc.ParseDirection(s)
		switch {
		case ok:
			rec.Dir = dir
		default:
			return r.errRecord(raw, line, 0, codeInvalidMessage,
				`envelope "dir" must be "c2s" or "s2c", not `+describeJSON(d))
		}
	}
	if t, ok := m["ts"]; ok {
		s, ok := t.(string)
		if !ok {
			return r.errRecord(raw, line, 0, codeInvalidMessage, `envelope "ts" must be a string, not `+describeJSON(t))
		}
		rec.TS = s
	}
	if rec.Value == nil {
		return r.errRecord(raw, line, 0, codeInvalidMessage, `envelope "msg" is null`)
	}
	return r.checkBatch(rec)
}

// checkBatch refuses a batch with more members than the limit.
func (r *Reader) checkBatch(rec *Record) *Record {
	if a, ok := rec.Value.([]any); ok && len(a) > r.maxBatch {
		return r.errRecord(rec.Raw, rec.Line, 0, codeInvalidMessage,
			fmt.Sprintf("a batch of %d messages is more than the limit of %d (raise it with --max-batch)", len(a), r.maxBatch))
	}
	return rec
}

// errRecord returns a record for text that could not be read.
func (r *Reader) errRecord(text []byte, line, col, code int, msg string) *Record {
	return &Record{Line: line, Raw: text, Err: &ReadError{File: r.name, Line: line, Column: col, Code: code, Msg: msg}}
}

// tooLong returns the record for a line or document over the limit.
func (r *Reader) tooLong(line int, what string) *Record {
	return r.errRecord(nil, line, 0, codeParseError, fmt.Sprintf("%s longer than %d bytes (raise the limit with --max-line-bytes)", what, r.maxLine))
}

// describeJSON returns v as short JSON text for an error message.
func describeJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > 64 {
		return string(b[:64]) + "..."
	}
	return string(b)
}

// docFramer finds where a JSON document ends in a stream without parsing it:
// it follows strings and bracket depth only. The parser then checks the text
// it framed; on invalid text both stop at the same first error.
type docFramer struct {
	started bool
	kind    byte // '{' for an object or array, '"' for a string, 'x' for another token
	depth   int
	inStr   bool
	esc     bool
}

// scan continues framing data from offset i. It returns the offset just past
// the document and true, or len(data) and false when the document goes on.
func (f *docFramer) scan(data []byte, i int) (int, bool) {
	if !f.started {
		f.started = true
		switch data[i] {
		case '{', '[':
			f.kind = '{'
		case '"':
			f.kind, f.inStr = '"', true
			i++
		case '}', ']', ',', ':':
			return i + 1, true
		default:
			f.kind = 'x'
		}
	}
	for ; i < len(data); i++ {
		c := data[i]
		if f.inStr {
			switch {
			case f.esc:
				f.esc = false
			case c == '\\':
				f.esc = true
			case c == '"':
				f.inStr = false
				if f.kind == '"' {
					return i + 1, true
				}
			}
			continue
		}
		if f.kind == 'x' {
			if jsonTokenEnd[c] {
				return i, true
			}
			continue
		}
		switch c {
		case '"':
			f.inStr = true
		case '{', '[':
			f.depth++
		case '}', ']':
			f.depth--
			if f.depth == 0 {
				return i + 1, true
			}
		}
	}
	return i, false
}

// jsonTokenEnd marks the bytes that end a number or a literal.
var jsonTokenEnd = [256]bool{' ': true, '\t': true, '\n': true, '\r': true,
	'{': true, '}': true, '[': true, ']': true, ',': true, ':': true, '"': true}

// jsonStrPlain marks the bytes a string holds as they are: not '"', '\\', a
// control character or the start of a multi-byte UTF-8 sequence.
var jsonStrPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// jsonParser decodes one JSON value from a complete text, without recursion,
// into the values encoding/json with UseNumber gives: map[string]any, []any,
// string, json.Number, bool and nil. It refuses what encoding/json would
// silently alter: invalid UTF-8 and lone UTF-16 surrogate escapes.
//
// With lazy set, an object or array that is the value of one of the lazy
// member names in a message object (the top-level object, the "msg" object
// of an envelope, an object of a batch) is checked as thoroughly but not
// decoded: it is left as its text, an undecoded value, and noted in
// lazies.
type jsonParser struct {
	maxDepth int
	stack    []jsonFrame          // open arrays and objects
	vals     []any                // members of the open containers
	keys     []string             // keys of the open objects' members
	buf      []byte               // scratch for unescaping strings
	keyCache *[maxInterned]string // object keys seen, by hash

	lazy     []string  // member names whose values are left undecoded
	lazyNext bool      // the value about to be read is one of them
	skip     int       // the depth of the undecoded value being read, or 0
	lazies   []lazyRef // the undecoded values of the last parse

	// After a successful parse: the value's span in the text, and the span of
	// the top-level object's "msg" member value (-1 when there is none).
	start, end       int
	msgStart, msgEnd int
	inMsg            bool // reading the top-level object's "msg" value
}

// jsonFrame is an open array or object.
type jsonFrame struct {
	obj        bool
	vals, keys int  // where its members begin in jsonParser.vals and jsonParser.keys
	msg        bool // an object that may be a message
	batch      bool // an array whose objects may be messages
	start      int  // where the undecoded value it opens starts
}

// undecoded is the text of a JSON object or array that the parser checked
// but did not decode (see jsonParser.lazy). It is valid as long as the text
// it was read from.
type undecoded []byte

// lazyRef is an undecoded value and where it is: member k of object m.
type lazyRef struct {
	m map[string]any
	k string
	v undecoded
}

// jsonSyntaxError is a parse failure at byte offset off; eof tells the text
// ended inside a value.
type jsonSyntaxError struct {
	off int
	msg string
	eof bool
}

func jsonErrAt(off int, format string, args ...any) *jsonSyntaxError {
	return &jsonSyntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

func jsonErrEOF(off int) *jsonSyntaxError {
	return &jsonSyntaxError{off: off, msg: "unexpected end of JSON input", eof: true}
}

// jsonErrStringEOF reports text that ends inside a string. A string cannot
// go on to the next line, so this is not a truncated document: eof is false.
func jsonErrStringEOF(off int) *jsonSyntaxError {
	return &jsonSyntaxError{off: off, msg: "unexpected end of JSON input in a string"}
}

// parse decodes the JSON value that data holds, with optional whitespace
// around it.
func (p *jsonParser) parse(data []byte) (any, *jsonSyntaxError) {
	clear(p.vals)
	clear(p.keys)
	clear(p.lazies)
	p.stack, p.vals, p.keys, p.lazies = p.stack[:0], p.vals[:0], p.keys[:0], p.lazies[:0]
	p.msgStart, p.msgEnd, p.inMsg = -1, -1, false
	p.lazyNext, p.skip = false, 0
	i := skipJSONSpace(data, 0)
	p.start = i
	var perr *jsonSyntaxError
value:
	for {
		// Read a value at i: a scalar into v, or open a container.
		if i >= len(data) {
			return nil, jsonErrEOF(i)
		}
		var v any
		lazy := p.lazyNext
		p.lazyNext = false
		switch c := data[i]; c {
		case '{', '[':
			if len(p.stack) >= p.maxDepth {
				return nil, jsonErrAt(i, "nesting deeper than %d levels (raise the limit with --max-depth)", p.maxDepth)
			}
			p.stack = append(p.stack, p.frame(c == '{', i, lazy))
			i = skipJSONSpace(data, i+1)
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
			var s string
			if s, i, perr = p.str(data, i, false, p.skip > 0); perr != nil {
				return nil, perr
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
			if i, perr = parseNumber(data, i); perr != nil {
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
				if i = skipJSONSpace(data, i); i < len(data) {
					return nil, jsonErrAt(i, "invalid character %s after top-level value", quoteJSONChar(data[i]))
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
			if i = skipJSONSpace(data, i); i >= len(data) {
				return nil, jsonErrEOF(i)
			}
			switch c := data[i]; {
			case c == ',':
				i = skipJSONSpace(data, i+1)
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
				return nil, jsonErrAt(i, "invalid character %s after object key:value pair", quoteJSONChar(c))
			default:
				return nil, jsonErrAt(i, "invalid character %s after array element", quoteJSONChar(c))
			}
		}
	}
}

// frame returns the frame of an array or object that opens at i; lazy
// tells that it is the value of a lazy member.
func (p *jsonParser) frame(obj bool, i int, lazy bool) jsonFrame {
	f := jsonFrame{obj: obj, vals: len(p.vals), keys: len(p.keys)}
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
func (p *jsonParser) close(data []byte, end int) any {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	if p.skip > 0 {
		if len(p.stack)+1 > p.skip {
			return nil // inside an undecoded value
		}
		p.skip = 0
		return undecoded(data[f.start:end])
	}
	vals := p.vals[f.vals:]
	var v any
	if f.obj {
		keys := p.keys[f.keys:]
		m := make(map[string]any, len(vals))
		for j, k := range keys {
			m[k] = vals[j]
			if u, ok := vals[j].(undecoded); ok {
				p.lazies = append(p.lazies, lazyRef{m, k, u})
			}
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

// key reads an object key and its colon at i, and returns the offset of the
// member's value. It notes where the top-level object's "msg" value starts.
func (p *jsonParser) key(data []byte, i int) (int, *jsonSyntaxError) {
	if i >= len(data) {
		return i, jsonErrEOF(i)
	}
	if data[i] != '"' {
		return i, jsonErrAt(i, "invalid character %s looking for beginning of object key string", quoteJSONChar(data[i]))
	}
	k, i, perr := p.str(data, i, true, p.skip > 0)
	if perr != nil {
		return i, perr
	}
	if i = skipJSONSpace(data, i); i >= len(data) {
		return i, jsonErrEOF(i)
	}
	if data[i] != ':' {
		return i, jsonErrAt(i, "invalid character %s after object key", quoteJSONChar(data[i]))
	}
	i = skipJSONSpace(data, i+1)
	if p.skip > 0 {
		return i, nil
	}
	p.keys = append(p.keys, k)
	if len(p.stack) == 1 && k == "msg" {
		p.inMsg, p.msgStart = true, i
	}
	if p.lazy != nil && p.stack[len(p.stack)-1].msg && i < len(data) && (data[i] == '{' || data[i] == '[') {
		for _, l := range p.lazy {
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
func (p *jsonParser) str(data []byte, i int, key, discard bool) (string, int, *jsonSyntaxError) {
	start := i + 1
	j := start
	for {
		for j < len(data) && jsonStrPlain[data[j]] {
			j++
		}
		if j >= len(data) {
			return "", j, jsonErrStringEOF(j)
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
			return "", j, jsonErrAt(j, "invalid character %s in string literal", quoteJSONChar(c))
		}
		n, perr := jsonRuneLen(data, j)
		if perr != nil {
			return "", j, perr
		}
		j += n
	}
	// The string has escapes: unescape it into the scratch buffer.
	buf := append(p.buf[:0], data[start:j]...)
	for {
		for j < len(data) && jsonStrPlain[data[j]] {
			buf = append(buf, data[j])
			j++
		}
		if j >= len(data) {
			p.buf = buf
			return "", j, jsonErrStringEOF(j)
		}
		switch c := data[j]; {
		case c == '"':
			p.buf = buf
			if discard {
				return "", j + 1, nil
			}
			return string(buf), j + 1, nil
		case c == '\\':
			var perr *jsonSyntaxError
			if buf, j, perr = appendUnescaped(buf, data, j); perr != nil {
				p.buf = buf
				return "", j, perr
			}
		case c < 0x20:
			p.buf = buf
			return "", j, jsonErrAt(j, "invalid character %s in string literal", quoteJSONChar(c))
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

// intern returns b as a string, shared with earlier keys of the same text:
// object keys repeat from message to message.
func (p *jsonParser) intern(b []byte) string {
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
		p.keyCache = new([maxInterned]string)
	}
	slot := &p.keyCache[h%maxInterned]
	if *slot == string(b) {
		return *slot
	}
	*slot = string(b)
	return *slot
}

// jsonRuneLen returns the length of the UTF-8 sequence at data[j], which must
// be valid.
func jsonRuneLen(data []byte, j int) (int, *jsonSyntaxError) {
	r, n := utf8.DecodeRune(data[j:])
	if r == utf8.RuneError && n == 1 {
		return 0, jsonErrAt(j, "invalid UTF-8 byte %#02x", data[j])
	}
	return n, nil
}

// appendUnescaped decodes the escape sequence whose backslash is at data[j],
// appends it to buf, and returns the offset past it. A \u escape of a UTF-16
// surrogate must pair a high with a low one.
func appendUnescaped(buf, data []byte, j int) ([]byte, int, *jsonSyntaxError) {
	if j+1 >= len(data) {
		return buf, j + 1, jsonErrStringEOF(j + 1)
	}
	switch c := data[j+1]; c {
	case '"', '\\', '/':
		return append(buf, c), j + 2, nil
	case 'b':
		return append(buf, '\b'), j + 2, nil
	case 'f':
		return append(buf, '\f'), j + 2, nil
	case 'n':
		return append(buf, '\n'), j + 2, nil
	case 'r':
		return append(buf, '\r'), j + 2, nil
	case 't':
		return append(buf, '\t'), j + 2, nil
	case 'u':
		// decoded below
	default:
		return buf, j + 1, jsonErrAt(j+1, "invalid character %s in string escape code", quoteJSONChar(c))
	}
	r, perr := parseHex4(data, j+2)
	if perr != nil {
		return buf, perr.off, perr
	}
	next := j + 6
	if utf16.IsSurrogate(r) {
		var r2 rune = -1
		if r < 0xdc00 && next+1 < len(data) && data[next] == '\\' && data[next+1] == 'u' {
			if r2, perr = parseHex4(data, next+2); perr != nil {
				return buf, perr.off, perr
			}
		}
		if r >= 0xdc00 || r2 < 0xdc00 || r2 > 0xdfff {
			return buf, j, jsonErrAt(j, "lone UTF-16 surrogate %s in string", data[j:j+6])
		}
		r = utf16.DecodeRune(r, r2)
		next += 6
	}
	return utf8.AppendRune(buf, r), next, nil
}

// parseHex4 decodes the four hexadecimal digits at data[i:].
func parseHex4(data []byte, i int) (rune, *jsonSyntaxError) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(data) {
			return 0, jsonErrStringEOF(k)
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
			return 0, jsonErrAt(k, "invalid character %s in \\u hexadecimal character escape", quoteJSONChar(c))
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

// parseLiteral reads the literal word (true, false or null) at i.
func parseLiteral(data []byte, i int, word string) (int, *jsonSyntaxError) {
	for k := 1; k < len(word); k++ {
		if i+k >= len(data) {
			return i + k, jsonErrEOF(i + k)
		}
		if data[i+k] != word[k] {
			return i + k, jsonErrAt(i+k, "invalid character %s in literal %s (expecting %s)",
				quoteJSONChar(data[i+k]), word, quoteJSONChar(word[k]))
		}
	}
	return i + len(word), nil
}

// parseNumber reads the number at i and returns the offset past it.
func parseNumber(data []byte, i int) (int, *jsonSyntaxError) {
	neg := data[i] == '-'
	if neg {
		i++
		if i >= len(data) {
			return i, jsonErrEOF(i)
		}
	}
	switch c := data[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		i = skipDigits(data, i+1)
	case neg:
		return i, jsonErrAt(i, "invalid character %s in numeric literal", quoteJSONChar(c))
	default:
		return i, jsonErrAt(i, "invalid character %s looking for beginning of value", quoteJSONChar(c))
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) {
			return i, jsonErrEOF(i)
		}
		if !isDigit(data[i]) {
			return i, jsonErrAt(i, "invalid character %s after decimal point in numeric literal", quoteJSONChar(data[i]))
		}
		i = skipDigits(data, i)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			return i, jsonErrEOF(i)
		}
		if !isDigit(data[i]) {
			return i, jsonErrAt(i, "invalid character %s in exponent of numeric literal", quoteJSONChar(data[i]))
		}
		i = skipDigits(data, i)
	}
	return i, nil
}

func skipDigits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

// skipJSONSpace returns the offset of the first byte at or after i that is not
// JSON whitespace.
func skipJSONSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// quoteJSONChar formats c for an error message.
func quoteJSONChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string([]byte{c}))
	return "'" + s[1:len(s)-1] + "'"
}
