package rpclog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// Error codes of the diagnostics of unreadable records, taken from
// JSON-RPC 2.0.
const (
	codeParseError     = jsonrpc.CodeParseError     // the text is not JSON
	codeInvalidMessage = jsonrpc.CodeInvalidRequest // the JSON is not an acceptable message or envelope
)

const (
	defaultMaxLineBytes = 64 << 20
	defaultMaxDepth     = 512
	readBufferSize      = 256 << 10
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
	Value any               // the decoded message, as encoding/json with UseNumber decodes it (nil for JSON null, or when Err != nil)
	Dir   jsonrpc.Direction // NoDirection when the input has no envelope (or its "dir" is not c2s or s2c)
	TS    string            // the envelope's "ts" when it is a string, as written, or ""
	// TSRaw is the envelope's "ts" as JSON text when it is there and not
	// a string (a number, null, ...); DirRaw its "dir" when it is there and
	// not "c2s" or "s2c". The message is kept: these keep what the envelope
	// said.
	TSRaw, DirRaw string
	// Problems are what is wrong with the envelope around a message that
	// is kept (a "dir" that is not "c2s" or "s2c").
	Problems []diag.Diagnostic
	Err      error // non-nil when this part could not be read: a *diag.Diagnostic
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
	p        jsonparse.Parser
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
		p:        jsonparse.Parser{MaxDepth: opts.MaxDepth},
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
		if jsonparse.SkipSpace(line, 0) == len(line) {
			continue
		}
		v, perr := r.p.Parse(line)
		if perr != nil && perr.EOF {
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
		if jsonparse.SkipSpace(line, 0) == len(line) {
			continue
		}
		v, perr := r.p.Parse(line)
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
		r.advance(jsonparse.SkipSpace(r.doc, r.pos))
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
	v, perr := r.p.Parse(chunk)
	if perr != nil {
		r.done = true
		// Find the error's line and column from the document's start.
		eline, ecol := line, col
		for _, c := range chunk[:perr.Offset] {
			if c == '\n' {
				eline, ecol = eline+1, 1
			} else {
				ecol++
			}
		}
		return r.errRecord(chunk, eline, ecol, codeParseError, perr.Msg), nil
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
		if jsonparse.SkipSpace(l, 0) < len(l) {
			return nil, append(dst, l...), r.line, nil
		}
	}
}

// decodeText decodes a line nextText returned, with p, a parser of the
// caller's own: several goroutines may decode the lines of one Reader
// while it reads on.
func (r *Reader) decodeText(p *jsonparse.Parser, text []byte, line int) *Record {
	v, perr := p.Parse(text)
	return r.record(p, v, perr, text, line, 1)
}

// newParser returns a parser with the Reader's limits, for decodeText.
func (r *Reader) newParser() *jsonparse.Parser {
	return &jsonparse.Parser{MaxDepth: r.p.MaxDepth}
}

// record builds the record for a value p read from text, which starts on
// line line at column col. perr is the syntax error when there was one. It
// reads only the Reader's settings.
func (r *Reader) record(p *jsonparse.Parser, v any, perr *jsonparse.SyntaxError, text []byte, line, col int) *Record {
	if perr != nil {
		return r.errRecord(text, line, col+perr.Offset, codeParseError, perr.Msg)
	}
	start, end := p.Span()
	raw := text[start:end]
	msgStart, msgEnd := p.MsgSpan()
	m, ok := v.(map[string]any)
	if !ok || msgStart < 0 {
		// A batch, or JSON that is no message at all (null, a number, a
		// string): kept, to be classified as invalid.
		return r.checkBatch(&Record{Line: line, Raw: raw, Value: v})
	}
	if _, ok := m["jsonrpc"]; ok {
		return &Record{Line: line, Raw: raw, Value: v}
	}
	// An envelope: {"dir": "c2s"|"s2c", "ts": "...", "msg": {...}}.
	rec := &Record{Line: line, Raw: text[msgStart:msgEnd], Value: m["msg"]}
	if d, ok := m["dir"]; ok {
		s, _ := d.(string)
		if dir, ok := jsonrpc.ParseDirection(s); ok {
			rec.Dir = dir
		} else {
			rec.DirRaw = rawJSON(d)
			rec.Problems = append(rec.Problems, diag.Diagnostic{File: r.name, Line: line, Pointer: "/dir", Code: codeInvalidMessage, Severity: diag.Error,
				Message: `envelope "dir" must be "c2s" or "s2c", not ` + describeJSON(d) + ": the message is kept without a direction"})
		}
	}
	if t, ok := m["ts"]; ok {
		if s, ok := t.(string); ok {
			rec.TS = s
		} else {
			rec.TSRaw = rawJSON(t)
		}
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
	return &Record{Line: line, Raw: text, Err: &diag.Diagnostic{File: r.name, Line: line, Column: col, Code: code, Severity: diag.Error, Message: msg}}
}

// tooLong returns the record for a line or document over the limit.
func (r *Reader) tooLong(line int, what string) *Record {
	return r.errRecord(nil, line, 0, codeParseError, fmt.Sprintf("%s longer than %d bytes (raise the limit with --max-line-bytes)", what, r.maxLine))
}

// rawJSON returns v as JSON text; json.Number keeps its spelling.
func rawJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
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
			if jsonparse.EndsToken(c) {
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
