package rpclog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

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

// The limits a Reader applies when its ReaderOptions give none: a writer
// of logs (such as an import) can warn of a message the readers will
// refuse without a flag.
const (
	DefaultMaxLineBytes = 64 << 20 // a line's bytes
	DefaultMaxDepth     = 512      // nesting of arrays and objects, the envelope's included
)

const readBufferSize = 256 << 10

// ratioCheckAfter is how many bytes a gzip input must have decompressed to
// before its compression ratio is checked: small inputs compress well.
const ratioCheckAfter = 64 << 20

// Record is one message read from a log, or one unreadable part of it.
// Each call to Reader.Next returns a new Record; only Raw points into the
// Reader's buffers.
type Record struct {
	Line int // 1-based line where the message starts
	// Raw is the message's JSON text (for an envelope: the "msg" value's
	// text), or the unreadable text when Err is set (nil for an over-long
	// line). It is valid until the next call to Next.
	Raw []byte
	// Value is the decoded message, as encoding/json with UseNumber
	// decodes it (nil for JSON null, or when Err != nil, or when Object is
	// set: decode Raw to have it).
	Value any
	// Object is the message read typed, with no map, when
	// BatchOptions.Typed asked for it and the message is one a typed read
	// takes (see jsonrpc.Object); Value is then nil. Its texts are part of
	// Raw.
	Object *jsonrpc.Object
	Dir    jsonrpc.Direction // NoDirection when the input has no envelope (or its "dir" is not c2s or s2c)
	TS     string            // the envelope's "ts" when it is a string, as written, or ""
	// Session is the envelope's "session" when it is a string: the MCP
	// session the message belongs to (its Mcp-Session-Id over HTTP, or the
	// run of a stdio server, as jrpcld record writes it), "" when there is
	// none. Requests and responses pair within a session, and the ids of
	// two sessions never meet. An envelope "session" that is not a string
	// is an error and the message is kept without one.
	Session string
	// TSRaw is the envelope's "ts" as JSON text when it is there and not
	// a string (a number, null, ...); DirRaw its "dir" when it is there and
	// not "c2s" or "s2c". The message is kept: these keep what the envelope
	// said.
	TSRaw, DirRaw string
	// Problems are what is wrong with the envelope around a message that
	// is kept (a "dir" that is not "c2s" or "s2c").
	Problems []diag.Diagnostic
	// Surrogates are the strings of the message that hold a lone UTF-16
	// surrogate escape ("\ud800" with no low surrogate after it), which
	// RFC 8259's grammar allows but which stands for no Unicode character:
	// Value has U+FFFD in its place (as encoding/json reads it), Raw keeps
	// it as written, and Classify makes the message (or the batch member)
	// invalid. Each is an error (code -32600) with the JSON pointer of the
	// string from the message's root (for a member name, of the member).
	// An envelope's "ts" or "dir" with one is kept as its JSON text, in
	// TSRaw or DirRaw.
	Surrogates []diag.Diagnostic
	// Warnings are remarks about the JSON text of a message that is kept:
	// a member name an object holds more than once (the last one is
	// used, as encoding/json does). Each has severity diag.Warning, the
	// File and Line of the record, and the JSON pointer of the member from
	// the root of the JSON value the line or document holds (for an
	// envelope, "/msg/..." inside the message).
	Warnings []diag.Diagnostic
	// Lens, when Reader.Batches was asked for it (BatchOptions.Lens), tells
	// where the strings, arrays and objects inside the message's undecoded
	// values end: Lens[i] is the length of the text of the one that starts
	// at Raw[i], 0 where none does or where it is 65,536 bytes or longer
	// (see jsonparse.Parser.Lens). It is valid as long as Raw.
	Lens []uint16
	// Vouched holds what the batch's Voucher wrote for the "params" and
	// "result" members of a message read typed, when it vouched for them
	// (BatchOptions.Vouch), else nil. It is valid as long as Raw.
	Vouched [2][]byte
	// Bytes tells that Raw holds the exact bytes of a message that an
	// envelope carried in "bytes" (standard base64, in place of "msg":
	// text that is not UTF-8, as jrpcld record writes it) and that are no
	// JSON text: Err says why (-32700, at the offset of the first byte
	// that is not UTF-8), Dir and TS are the envelope's. Unlike other
	// records with Err, it is a message of the log: a graph keeps it
	// (jlog:bytes) and the way back writes its bytes again. Bytes that
	// are JSON text make an ordinary record, as "msg" would.
	Bytes bool
	// Err is non-nil when this part could not be read: a *diag.Diagnostic.
	// A problem with the whole input (empty, not UTF-8, a gzip stream
	// over the limits) is one such record, with Line 0 when it concerns
	// no line, and the last.
	Err error
}

// Kept reports whether the record is a message of the log, which a graph
// of the log keeps: one that could be read (Err is nil), or the bytes of
// one an envelope held (Bytes).
func (r *Record) Kept() bool { return r.Err == nil || r.Bytes }

// ReaderOptions bounds what a Reader accepts. The zero value means the defaults.
type ReaderOptions struct {
	MaxLineBytes int // longest line (and, for a pretty-printed input, longest document) accepted; default 64 MiB
	MaxDepth     int // deepest nesting of arrays and objects accepted; default 512
	MaxBatch     int // most messages in one batch; default 100000
	// MaxDecompressedBytes bounds the size of a gzip input once
	// decompressed; default DefaultMaxDecompressedBytes.
	MaxDecompressedBytes int64
	// MaxCompressionRatio bounds the decompressed bytes per compressed
	// byte of a gzip input, checked once 64 MiB have been decompressed;
	// default DefaultMaxCompressionRatio. Deflate cannot exceed about
	// 1032, so a ratio above that is no limit.
	MaxCompressionRatio int
}

// Defaults of ReaderOptions.
const (
	DefaultMaxBatch             = 100000
	DefaultMaxDecompressedBytes = 16 << 30
	DefaultMaxCompressionRatio  = 1000
)

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
	batchErr bool // a read error has ended the log's batches (ReadBatch)
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
	gzip     bool   // the input is gzip-compressed
	sniffed  bool   // the start of the input was checked for its encoding
	lines    bool   // the first line decided that the input is JSON lines
	limit    int64  // with a Range: no line that begins past this offset is read; -1 for none
	limitAt  int    // the limit applies to the lines after this many
	cut      bool   // the limit ended the reading
	// replay holds lines already read that are read again: those after
	// the first line of a document that turned out to be a bad line of a
	// JSON lines log (see recoverLines).
	replay []byte
	// final is the record that ends the input, handed out when the
	// reading ends: the input is empty, not UTF-8, or over a limit of
	// decompression.
	final *Record

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
// decompressed, within the limits of opts. A UTF-8 byte order mark at the
// start of the (decompressed) input is skipped; an input in UTF-16 or
// UTF-32 is one error record that says how to convert it.
func NewReader(r io.Reader, name string, opts ReaderOptions) (*Reader, error) {
	opts = opts.withDefaults()
	raw := &countingReader{r: r}
	br := bufio.NewReaderSize(raw, readBufferSize)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	gz := len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	if gz {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		br = bufio.NewReaderSize(&inflateLimiter{zr: zr, raw: raw, buf: br,
			max: opts.MaxDecompressedBytes, ratio: int64(opts.MaxCompressionRatio)}, readBufferSize)
	}
	return &Reader{
		name:     name,
		maxBatch: opts.MaxBatch,
		maxLine:  opts.MaxLineBytes,
		br:       br,
		gzip:     gz,
		p:        jsonparse.Parser{MaxDepth: opts.MaxDepth, LoneSurrogates: true, Shared: sharedMembers},
		limit:    -1,
	}, nil
}

// Range is a part of a log file, by byte offsets, for reading a big JSON
// lines log in pieces (see NewRangeReader). A range holds the lines that
// begin after Start and at End or before, and, when Start is 0, the first
// line: ranges that follow one another, [0, a), [a, b), ..., [z, size),
// hold every line of the file once.
type Range struct {
	Start, End int64
	// Line is the number of lines of the file before the range's first:
	// the lines of the records are numbered from Line+1, as in the file.
	Line int
}

// NewRangeReader returns a Reader of the records of a range of a log that
// Splittable says is read one record per line; r reads the file from
// offset rg.Start. The reader skips the end of a line begun before the
// range, and reads every line that begins in it to its end, even past
// rg.End. A range that starts at 0 is read as NewReader reads the start
// of a log (byte order mark, encoding, the form of the first line); any
// other is read as JSON lines, with none of these checks. Nothing tells a
// range's Reader whether the file is JSON lines: given another file, it
// reads lines that are not JSON, each an error record.
func NewRangeReader(r io.Reader, name string, opts ReaderOptions, rg Range) (*Reader, error) {
	if rg.Start < 0 || rg.End < rg.Start || rg.Line < 0 {
		return nil, fmt.Errorf("%s: bad range %d-%d (line %d)", name, rg.Start, rg.End, rg.Line)
	}
	if rg.Start == 0 {
		rd, err := NewReader(r, name, opts)
		if err != nil {
			return nil, err
		}
		// The first line is the range's whatever its offset (after a byte
		// order mark, blank lines: past End).
		rd.limit, rd.line, rd.limitAt = rg.End, rg.Line, rg.Line+1
		return rd, nil
	}
	// Only the start of a file can be gzip data, or have a byte order
	// mark: a range past it is read as it is.
	opts = opts.withDefaults()
	rd := &Reader{
		name:     name,
		maxBatch: opts.MaxBatch,
		maxLine:  opts.MaxLineBytes,
		br:       bufio.NewReaderSize(r, readBufferSize),
		p:        jsonparse.Parser{MaxDepth: opts.MaxDepth, LoneSurrogates: true, Shared: sharedMembers},
		mode:     modeLines,
		sniffed:  true,
		lines:    true,
		n:        rg.Start,
		limit:    rg.End,
		line:     rg.Line,
	}
	// The end of a line begun before the range belongs to an earlier one.
	for {
		b, err := rd.br.ReadSlice('\n')
		rd.n += int64(len(b))
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			rd.eof = true
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return rd, nil
	}
}

// Splittable reports whether the log can be read in ranges by
// NewRangeReader: it is not gzip-compressed, and its first line, a whole
// JSON value or no JSON at all, made the Reader read it one record per
// line (JSON lines, of messages or of envelopes). It is known once Next
// has returned the first record; a log whose first document spans lines,
// or an empty one, is not.
func (r *Reader) Splittable() bool { return r.lines && !r.gzip }

// withDefaults returns opts with the defaults in place of zero values.
func (opts ReaderOptions) withDefaults() ReaderOptions {
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = DefaultMaxLineBytes
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = DefaultMaxBatch
	}
	if opts.MaxDecompressedBytes <= 0 {
		opts.MaxDecompressedBytes = DefaultMaxDecompressedBytes
	}
	if opts.MaxCompressionRatio <= 0 {
		opts.MaxCompressionRatio = DefaultMaxCompressionRatio
	}
	return opts
}

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inflateLimiter reads decompressed data from zr and refuses more than max
// bytes, or, past ratioCheckAfter bytes, more than ratio bytes per
// compressed byte: the compressed bytes zr has taken are those read from
// raw less those still in buf, through which zr reads them.
type inflateLimiter struct {
	zr         io.Reader
	raw        *countingReader
	buf        *bufio.Reader
	out        int64 // bytes decompressed so far
	max, ratio int64
}

func (l *inflateLimiter) Read(p []byte) (int, error) {
	if rest := l.max - l.out + 1; int64(len(p)) > rest {
		p = p[:rest] // one byte more than the limit, to know it is passed
	}
	n, err := l.zr.Read(p)
	l.out += int64(n)
	if l.out > l.max {
		return n - int(l.out-l.max), &limitError{fmt.Sprintf(
			"the gzip input decompresses to more than %s, the limit: raise it with --max-decompressed-bytes", sizeString(l.max))}
	}
	if l.out > ratioCheckAfter {
		if in := l.raw.n - int64(l.buf.Buffered()); l.out > l.ratio*in {
			return n, &limitError{fmt.Sprintf(
				"the gzip input expands more than %d times (%s from %s): refused as a likely decompression bomb; if the log is genuine, raise the limit with --max-compression-ratio",
				l.ratio, sizeString(l.out), sizeString(in))}
		}
	}
	return n, err
}

// sizeString returns n bytes in the largest binary unit not over it:
// exactly when the unit divides it, else to a tenth of a MiB or GiB, or as
// bytes below one MiB.
func sizeString(n int64) string {
	size, unit := int64(1), "bytes"
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			size, unit = u.size, u.name
			break
		}
	}
	switch {
	case n%size == 0:
		return strconv.FormatInt(n/size, 10) + " " + unit
	case size == 1<<10:
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return strconv.FormatFloat(float64(n)/float64(size), 'f', 1, 64) + " " + unit
}

// Line returns the number of the last line read (with a Range, counting
// the lines before it): once Next has returned io.EOF, the number of lines
// of the input, or of the range.
func (r *Reader) Line() int { return r.line }

// BytesRead returns how many bytes of the (decompressed) input have been
// consumed so far, for progress reporting.
func (r *Reader) BytesRead() int64 { return r.n }

// Next returns the next record, or io.EOF at the end. A non-nil error other
// than io.EOF is an I/O error that ends the input; it names the line, not
// the file.
func (r *Reader) Next() (*Record, error) {
	var rec *Record
	var err error
	switch r.mode {
	case modeLines:
		rec, err = r.nextLine()
	case modeDocs:
		rec, err = r.nextDoc()
	default:
		rec, err = r.detect()
	}
	if err == io.EOF {
		return r.end()
	}
	return rec, err
}

// end returns the record that ends the input, if there is one, or io.EOF.
func (r *Reader) end() (*Record, error) {
	if rec := r.final; rec != nil {
		r.final = nil
		return rec, nil
	}
	return nil, io.EOF
}

// detect reads the first non-blank line and decides the input form: JSONL
// when the line holds a whole JSON value (or is not JSON at all), a stream of
// documents when the line is the start of a longer one. An input with no
// such line is empty: its record ends it.
func (r *Reader) detect() (*Record, error) {
	if !r.sniffed {
		r.sniffed = true
		if err := r.sniff(); err != nil {
			r.mode = modeLines
			return nil, err
		}
	}
	for {
		line, err := r.readLine()
		if err == io.EOF && r.final == nil && !r.cut {
			r.final = r.emptyRecord()
		}
		if err != nil {
			r.mode = modeLines // nothing is left to detect
			return nil, err
		}
		if line == nil {
			r.mode, r.lines = modeLines, true
			return r.tooLong(r.line, "line"), nil
		}
		if jsonparse.SkipSpace(line, 0) == len(line) {
			continue
		}
		v, perr := r.p.Parse(line)
		r.lines = perr == nil || !perr.EOF
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

// sniffBytes is how much of the start of the input sniff looks at.
const sniffBytes = 64

// sniff checks the start of the input: it skips a UTF-8 byte order mark,
// and refuses UTF-16 and UTF-32, told by their byte order mark or, without
// one, by the NUL bytes around the characters, which JSON text (ASCII
// there) shows in these encodings (RFC 4627, section 3). Without a byte
// order mark, most of the first characters (up to 64 bytes) must show the
// encoding's pattern: a line of garbage that starts with a NUL byte is a bad
// line of a UTF-8 log, not UTF-16.
func (r *Reader) sniff() error {
	b, err := r.br.Peek(sniffBytes)
	if err != nil && err != io.EOF && len(b) < 4 {
		// (With 4 bytes or more, what is there is enough: a read error
		// the reader keeps comes back with the next read.)
		return r.readErr(err)
	}
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		r.br.Discard(3)
		r.n += 3
		return nil
	}
	enc, bom := "", false
	switch {
	case bytes.HasPrefix(b, []byte{0, 0, 0xfe, 0xff}):
		enc, bom = "UTF-32BE", true
	case bytes.HasPrefix(b, []byte{0xff, 0xfe, 0, 0}):
		enc, bom = "UTF-32LE", true
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		enc, bom = "UTF-16BE", true
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		enc, bom = "UTF-16LE", true
	default:
		enc = wideEncoding(b)
	}
	if enc == "" {
		return nil
	}
	how := "it starts with a NUL byte"
	switch {
	case bom:
		how = "it starts with the " + enc[:6] + " byte order mark"
	case b[0] != 0:
		how = "a NUL byte follows the first character"
	}
	r.eof = true
	r.final = r.errRecord(nil, 0, 0, codeParseError, fmt.Sprintf(
		"the log is %s %s (%s): jrpcld reads UTF-8; convert it first (iconv -f %s -t UTF-8)", enc[:6], enc[6:], how, enc))
	return io.EOF
}

// wideEncoding returns the encoding the start of an input without a byte
// order mark, b, is in when it is UTF-32 or UTF-16 ("UTF-32BE", ...), or
// "". The first character must show the encoding's NUL bytes, and so must
// at least three in four of the characters b holds whole: an ASCII
// character is 00 00 00 XX in UTF-32BE, XX 00 00 00 in UTF-32LE, 00 XX in
// UTF-16BE and XX 00 in UTF-16LE (XX not NUL).
func wideEncoding(b []byte) string {
	for _, e := range []struct {
		name string
		size int
		nul  func(u []byte) bool
	}{
		{"UTF-32BE", 4, func(u []byte) bool { return u[0] == 0 && u[1] == 0 && u[2] == 0 && u[3] != 0 }},
		{"UTF-32LE", 4, func(u []byte) bool { return u[0] != 0 && u[1] == 0 && u[2] == 0 && u[3] == 0 }},
		{"UTF-16BE", 2, func(u []byte) bool { return u[0] == 0 && u[1] != 0 }},
		{"UTF-16LE", 2, func(u []byte) bool { return u[0] != 0 && u[1] == 0 }},
	} {
		units := len(b) / e.size
		if units == 0 || !e.nul(b[:e.size]) {
			continue
		}
		n := 0
		for i := range units {
			if e.nul(b[i*e.size : (i+1)*e.size]) {
				n++
			}
		}
		if 4*n >= 3*units {
			return e.name
		}
	}
	return ""
}

// emptyRecord returns the record of an input that holds no message.
func (r *Reader) emptyRecord() *Record {
	what := "no JSON-RPC message"
	switch {
	case r.line > 0:
		what = "only white space, no JSON-RPC message"
	case r.gzip:
		what = "the gzip data decompresses to nothing, no JSON-RPC message"
	}
	return r.errRecord(nil, 0, 0, codeParseError, "empty input: "+what)
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
		rec, _, err := r.appendLine(0)
		if err != nil || rec != nil {
			return rec, err
		}
	}
	start, line, col := r.pos, r.posLine, r.pos-r.lineStart+1
	r.fr = docFramer{}
	end, complete := r.fr.scan(r.doc, start)
	// A document that goes on over lines is parsed as it grows, each time
	// it has doubled (linear time in all): a syntax error is found soon
	// after the line it is on, not at the end of a document that never
	// closes, such as a JSON lines log after a bad first line.
	var perr *jsonparse.SyntaxError
	checked := len(r.doc) - start
	for !complete {
		if start > 0 {
			n := copy(r.doc, r.doc[start:])
			r.doc = r.doc[:n]
			r.lineStart -= start
			end -= start
			r.pos, start = 0, 0
		}
		rec, over, err := r.appendLine(line)
		if err == io.EOF {
			if r.final != nil {
				return nil, err // the input was cut short: say why, not where
			}
			break
		}
		if over {
			// Over the limit, unless a syntax error came first.
			if _, perr = r.p.Parse(r.doc[start:]); perr == nil || perr.EOF {
				return rec, nil
			}
			break
		}
		if err != nil || rec != nil {
			return rec, err
		}
		end, complete = r.fr.scan(r.doc, end)
		if !complete && len(r.doc)-start >= 2*checked {
			checked = len(r.doc) - start
			if _, perr = r.p.Parse(r.doc[start:]); perr != nil && !perr.EOF {
				break
			}
			perr = nil
		}
	}
	if !complete {
		end = len(r.doc)
	}
	chunk := r.doc[start:end]
	var v any
	if perr == nil {
		v, perr = r.p.Parse(chunk)
	}
	if perr != nil {
		if rec := r.recoverLines(start, line, col); rec != nil {
			return rec, nil
		}
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

// recoverLines decides, for a document that begins on line line, at column
// col and offset start of the document buffer, and does not parse, whether
// its first line is rather a bad line of a JSON lines log: it is when the
// next line that is not blank holds a whole JSON value, or begins with
// what begins no JSON at all (a pretty-printed document goes on with a
// member, a value, or a bracket that closes). It then returns the record
// of that line alone, and the lines after it are read again, one record
// per line; otherwise nil. So a truncated first line, a lone "[", does not
// take the log after it along.
func (r *Reader) recoverLines(start, line, col int) *Record {
	text := r.doc[start:]
	nl := bytes.IndexByte(text, '\n')
	if nl < 0 {
		return nil
	}
	rest := text[nl+1:]
	next := rest
	for len(next) > 0 {
		l := next
		if i := bytes.IndexByte(next, '\n'); i >= 0 {
			l, next = next[:i], next[i+1:]
		} else {
			next = nil
		}
		if i := jsonparse.SkipSpace(l, 0); i < len(l) {
			next = l[i:]
			break
		}
	}
	switch {
	case len(next) > 0:
		if _, perr := r.p.Parse(next); perr != nil && !beginsNoJSON(next[0]) {
			return nil
		}
	case !r.cut:
		// Nothing follows: the document is cut short at the end of the
		// input, as it says. (A range of a log cut after the line reads
		// it as the whole log does, as a line.)
		return nil
	}
	first := text[:nl]
	if n := len(first); n > 0 && first[n-1] == '\r' {
		first = first[:n-1]
	}
	ecol := col + len(first)
	msg := "unexpected end of JSON input"
	if _, perr := r.p.Parse(first); perr != nil {
		ecol, msg = col+perr.Offset, perr.Msg
	}
	rec := r.errRecord(append([]byte(nil), first...), line, ecol, codeParseError, msg)
	r.replay = append(append([]byte(nil), rest...), r.replay...)
	r.n -= int64(len(rest))
	r.line = line
	r.done = false
	r.mode, r.lines = modeLines, true
	r.doc, r.pos, r.lineStart = r.doc[:0], 0, 0
	return rec
}

// beginsNoJSON reports whether a line that starts with c (not white
// space) can be no part of a JSON text.
func beginsNoJSON(c byte) bool {
	switch c {
	case '{', '[', '}', ']', ',', ':', '"', '-', 't', 'f', 'n':
		return false
	}
	return c < '0' || c > '9'
}

// appendLine adds the next line to the document buffer. It returns io.EOF at
// the end of the input, or a record when the line or the document beginning
// on line docLine (0 when none has begun) is over the limit, which ends the
// stream; over tells the latter, for which the line is in the buffer all
// the same (it is read again if the document turns out to be a bad line).
func (r *Reader) appendLine(docLine int) (rec *Record, over bool, err error) {
	line, err := r.readLine()
	if err != nil {
		if err == io.EOF {
			r.done = true
		}
		return nil, false, err
	}
	if line == nil {
		r.done = true
		return r.tooLong(r.line, "line"), false, nil
	}
	over = docLine > 0 && len(r.doc)+len(line) > r.maxLine
	r.doc = append(r.doc, line...)
	if r.lineNL {
		r.doc = append(r.doc, '\n')
	}
	if over {
		r.done = true
		return r.tooLong(docLine, "document"), true, nil
	}
	return nil, false, nil
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
	if len(r.replay) > 0 {
		b := r.replay
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b, r.replay = b[:i+1], b[i+1:]
		} else {
			r.replay = r.replay[:0]
		}
		r.n += int64(len(b))
		r.line++
		r.lineNL = b[len(b)-1] == '\n'
		if r.lineNL {
			b = b[:len(b)-1]
		}
		return b, nil
	}
	if r.eof {
		return nil, io.EOF
	}
	if r.limit >= 0 && r.line >= r.limitAt && r.n > r.limit {
		r.eof, r.cut = true, true
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
		return nil, r.readErr(err)
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

// readErr ends the input on a read error: one over a limit of
// decompression becomes the final record and io.EOF, any other an I/O
// error that names the line (and gzip, for a compressed input), which the
// caller wraps with the file's name.
func (r *Reader) readErr(err error) error {
	r.eof = true
	var le *limitError
	if errors.As(err, &le) {
		r.final = r.errRecord(nil, r.line+1, 0, codeParseError, le.msg)
		return io.EOF
	}
	if r.gzip {
		return fmt.Errorf("line %d: gzip: %w", r.line+1, err)
	}
	return fmt.Errorf("line %d: %w", r.line+1, err)
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
		if err == io.EOF {
			rec, err := r.end()
			return rec, dst, 0, err
		}
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
	if perr == nil && (p.LazyDuplicates() || p.LazySurrogates()) {
		// A member named twice, or a lone surrogate, inside a value left
		// undecoded: the text is read whole, so that the record names it.
		lazy := p.Lazy
		p.Lazy = nil
		v, perr = p.Parse(text)
		p.Lazy = lazy
	}
	return r.record(p, v, perr, text, line, 1)
}

// sharedMembers are the members whose string values repeat from line to
// line: the parsers share them (jsonparse.Parser.Shared). Not modified.
var sharedMembers = []string{"jsonrpc", "method", "dir", "session"}

// newParser returns a parser with the Reader's limits, for decodeText.
func (r *Reader) newParser() *jsonparse.Parser {
	// record takes what it needs of an envelope at once.
	return &jsonparse.Parser{MaxDepth: r.p.MaxDepth, ReuseEnvelope: true, LoneSurrogates: true, Shared: sharedMembers}
}

// record builds the record for a value p read from text, which starts on
// line line at column col. perr is the syntax error when there was one. It
// reads only the Reader's settings.
func (r *Reader) record(p *jsonparse.Parser, v any, perr *jsonparse.SyntaxError, text []byte, line, col int) *Record {
	var badBytes *diag.Diagnostic
	if perr == nil {
		var rec *Record
		if rec, badBytes = r.bytesEnvelope(p, v, text, line); rec != nil {
			return rec
		}
	}
	rec := r.message(p, v, perr, text, line, col)
	if perr != nil || rec.Err != nil {
		return rec
	}
	if badBytes != nil {
		rec.Problems = append(rec.Problems, *badBytes)
	}
	// Pointers into the message of an envelope start at the message, as
	// those of every other finding about it do.
	obj, isObj := v.(map[string]any)
	_, bare := obj["jsonrpc"]
	msgStart, _ := p.MsgSpan()
	envelope := isObj && msgStart >= 0 && !bare
	for _, s := range p.Surrogates() {
		if envelope {
			if s.Pointer != "/msg" && !strings.HasPrefix(s.Pointer, "/msg/") {
				continue // "ts" and "dir" are kept as written (see message), no other member at all
			}
			s.Pointer = s.Pointer[len("/msg"):]
		}
		rec.Surrogates = append(rec.Surrogates, SurrogateError(s))
	}
	for _, d := range p.Duplicates() {
		if envelope && strings.HasPrefix(d.Pointer, "/msg/") {
			d.Pointer = strings.TrimPrefix(d.Pointer, "/msg")
		}
		w := DuplicateWarning(d, "")
		w.File, w.Line = r.name, line
		rec.Warnings = append(rec.Warnings, w)
	}
	return rec
}

// SurrogateError is the error about a string that holds a lone UTF-16
// surrogate escape, s, found in a message (see Record.Surrogates).
func SurrogateError(s jsonparse.Surrogate) diag.Diagnostic {
	what := "a string"
	if s.Name {
		what = "a member name"
	}
	return diag.Diagnostic{Pointer: s.Pointer, Code: codeInvalidMessage, Severity: diag.Error,
		Message: fmt.Sprintf("lone UTF-16 surrogate %s in %s: it stands for no Unicode character (RFC 8259 leaves its meaning open, I-JSON forbids it)", s.Escape, what)}
}

// DuplicateWarning is the warning about a member an object holds more
// than once, d, found in a value at the JSON pointer at.
func DuplicateWarning(d jsonparse.Duplicate, at string) diag.Diagnostic {
	times := "twice"
	if d.Count > 2 {
		times = strconv.Itoa(d.Count) + " times"
	}
	return diag.Diagnostic{Pointer: at + d.Pointer, Severity: diag.Warning,
		Message: fmt.Sprintf("member %s appears %s in one object: the last one is used", strconv.Quote(d.Name), times)}
}

// message builds the record for record, without its warnings.
func (r *Reader) message(p *jsonparse.Parser, v any, perr *jsonparse.SyntaxError, text []byte, line, col int) *Record {
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
	r.envelope(p, m, text, rec)
	if n, ok := m["truncated"]; ok {
		rec.Problems = append(rec.Problems, r.truncated(n, m["msg"], line))
	}
	return r.checkBatch(rec)
}

// envelope sets what the envelope m, parsed by p from text, says of the
// message of rec: its "dir" and "ts", and what is wrong with them.
func (r *Reader) envelope(p *jsonparse.Parser, m map[string]any, text []byte, rec *Record) {
	line := rec.Line
	if d, ok := m["dir"]; ok {
		s, _ := d.(string)
		if dir, ok := jsonrpc.ParseDirection(s); ok {
			rec.Dir = dir
		} else {
			rec.DirRaw = rawJSON(d)
			shown := describeJSON(d)
			if exact, ok := loneText(p, text, "/dir", s); ok {
				rec.DirRaw, shown = exact, exact
			}
			rec.Problems = append(rec.Problems, diag.Diagnostic{File: r.name, Line: line, Pointer: "/dir", Code: codeInvalidMessage, Severity: diag.Error,
				Message: `envelope "dir" must be "c2s" or "s2c", not ` + shown + ": the message is kept without a direction"})
		}
	}
	if v, ok := m["session"]; ok {
		s, isStr := v.(string)
		shown := describeJSON(v)
		exact, lone := loneText(p, text, "/session", s)
		if lone {
			shown = exact
		}
		if isStr && !lone {
			rec.Session = s
		} else {
			rec.Problems = append(rec.Problems, diag.Diagnostic{File: r.name, Line: line, Pointer: "/session", Code: codeInvalidMessage, Severity: diag.Error,
				Message: `envelope "session" must be a string of Unicode characters, not ` + shown + ": the message is kept without a session"})
		}
	}
	if t, ok := m["ts"]; ok {
		s, isStr := t.(string)
		switch exact, lone := loneText(p, text, "/ts", s); {
		case lone:
			// No string stands for it: its text is kept, as for a number.
			rec.TSRaw = exact
			rec.Warnings = append(rec.Warnings, diag.Diagnostic{File: r.name, Line: line, Pointer: "/ts", Severity: diag.Warning,
				Message: `envelope "ts" ` + exact + " holds a lone UTF-16 surrogate, which stands for no character: kept as its JSON text"})
		case isStr:
			rec.TS = s
		default:
			rec.TSRaw = rawJSON(t)
		}
	}
}

// bytesEnvelope returns the record of v, parsed by p from text, when it is
// an envelope that holds its message as "bytes" rather than "msg" (see
// Record.Bytes); nil when it is not one. When its "bytes" is not a string
// of standard base64, the record is nil and bad says so: the line is then
// read as the JSON value it is, with that problem.
func (r *Reader) bytesEnvelope(p *jsonparse.Parser, v any, text []byte, line int) (rec *Record, bad *diag.Diagnostic) {
	m, ok := v.(map[string]any)
	if msgStart, _ := p.MsgSpan(); !ok || msgStart >= 0 {
		return nil, nil // not an object, or an envelope with "msg"
	}
	enc, ok := m["bytes"]
	if _, bare := m["jsonrpc"]; !ok || bare {
		return nil, nil
	}
	s, isStr := enc.(string)
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if !isStr || err != nil {
		why := "it is " + describeJSON(enc)
		if isStr {
			why = err.Error()
		}
		return nil, &diag.Diagnostic{File: r.name, Line: line, Pointer: "/bytes", Code: codeInvalidMessage, Severity: diag.Error,
			Message: `envelope "bytes" must be a string of standard base64 (RFC 4648), the message's exact bytes: ` + why + "; the line is kept as the JSON value it is"}
	}
	// A parser of its own: the bytes' value outlives p's next Parse.
	rec = readBytes(&jsonparse.Parser{MaxDepth: r.p.MaxDepth, LoneSurrogates: true}, r.name, b, line)
	r.envelope(p, m, text, rec)
	if rec.Err == nil {
		rec = r.checkBatch(rec)
	}
	return rec, nil
}

// BytesRecord returns the record a log reader reads for b, the exact bytes
// of a message that an envelope held in "bytes" (as a graph keeps them in
// jlog:bytes), on line: with Bytes and Err when they are no JSON text,
// else an ordinary record of the message they hold. Its Dir and TS are the
// caller's to set.
func BytesRecord(b []byte, line int) *Record {
	// encoding/json's bound on nesting, as MessageRecord.
	return readBytes(&jsonparse.Parser{MaxDepth: 10000, LoneSurrogates: true}, "", b, line)
}

// readBytes returns the record of b, the exact bytes of a message, read
// with p, on line of file.
func readBytes(p *jsonparse.Parser, file string, b []byte, line int) *Record {
	rec := &Record{Line: line, Raw: b, Bytes: true}
	fail := func(format string, args ...any) *Record {
		rec.Err = &diag.Diagnostic{File: file, Line: line, Code: codeParseError, Severity: diag.Error,
			Message: fmt.Sprintf(format, args...) + ` (the envelope's "bytes" holds the message's exact bytes)`}
		return rec
	}
	if i := jsonparse.InvalidUTF8(b); i >= 0 {
		return fail("byte %#02x at offset %d of the message is not UTF-8, which JSON text must be", b[i], i)
	}
	v, perr := p.Parse(b)
	if perr != nil {
		return fail("offset %d of the message: %s", perr.Offset, perr.Msg)
	}
	start, end := p.Span()
	rec.Bytes, rec.Raw, rec.Value = false, b[start:end], v
	for _, s := range p.Surrogates() {
		rec.Surrogates = append(rec.Surrogates, SurrogateError(s))
	}
	for _, d := range p.Duplicates() {
		w := DuplicateWarning(d, "")
		w.File, w.Line = file, line
		rec.Warnings = append(rec.Warnings, w)
	}
	return rec
}

// truncated returns the problem of an envelope with a "truncated" member
// n, which jrpcld record writes for a message too long to log, whose "msg"
// then holds the first bytes of its text as a string.
func (r *Reader) truncated(n, msg any, line int) diag.Diagnostic {
	p := diag.Diagnostic{File: r.name, Line: line, Pointer: "/truncated", Code: codeParseError, Severity: diag.Error}
	size, err := strconv.ParseInt(rawJSON(n), 10, 64)
	head, isStr := msg.(string)
	switch {
	case err != nil || size < 0:
		p.Message = `envelope "truncated" must be the length in bytes of a message too long to log, not ` + describeJSON(n) + ": the message is not in the log"
	case isStr:
		p.Message = fmt.Sprintf("a message of %d bytes was too long to log (jrpcld record --max-message): the log keeps only its first %d bytes, as a string", size, len(head))
	default:
		p.Message = fmt.Sprintf("a message of %d bytes was too long to log (jrpcld record --max-message): it is not in the log", size)
	}
	return p
}

// loneText returns the text of the string at ptr, a member of the
// envelope p parsed from text, whose value is s, when it holds a lone
// surrogate escape (s then has U+FFFD in its place).
func loneText(p *jsonparse.Parser, text []byte, ptr, s string) (string, bool) {
	ls := p.Surrogates()
	// The last one: of a member named twice, the value kept.
	for i := len(ls) - 1; i >= 0; i-- {
		if l := ls[i]; l.Pointer == ptr && !l.Name && strings.ContainsRune(s, utf8.RuneError) {
			return string(text[l.Start:l.End]), true
		}
	}
	return "", false
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
