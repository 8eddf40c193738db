package record

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/jsonrpc"
)

// TimeLayout is the form of an envelope's "ts": RFC 3339 in UTC with
// milliseconds, as the recorded sessions jrpcld reads have it.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Log writes the envelope lines of one recorded session to a writer. Each
// line goes to the writer in one Write call, at once: with an unbuffered
// writer (an *os.File), a line is in the file as soon as the message
// passed. A Log is safe for concurrent use; lines are written in the order
// the calls are made.
type Log struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
	err error

	// Now gives the time of each line; time.Now when nil.
	Now func() time.Time
	// Max is the longest line written, line break included (DefaultMax
	// when 0 or less): a message whose envelope line would be longer is
	// logged cut (see RecordCut). It is also the most of a message Stdio
	// and Proxy hold in memory to record it.
	Max int
	// Warn, when not nil, is told of each message logged cut (with the
	// Log's lock held: it must not call the Log).
	Warn func(msg string)
}

// DefaultMax is the default of Log.Max: the longest line jrpcld's readers
// take by default (rpclog's MaxLineBytes), so that every line of a log
// reads with their defaults.
const DefaultMax = 64 << 20

// cutKeep is the most of a message's text a cut envelope keeps.
const cutKeep = 1024

// max returns the longest line l writes.
func (l *Log) max() int {
	if l.Max <= 0 {
		return DefaultMax
	}
	return l.Max
}

// NewLog returns a Log that writes to w.
func NewLog(w io.Writer) *Log { return &Log{w: w} }

// Record writes the envelope line of text, one message (or line, or body)
// sent in direction dir. When text is JSON, the envelope's "msg" is that
// JSON value, as written (or without its insignificant white space when it
// spans several lines); UTF-8 text that is not JSON is "msg" as a JSON
// string, which readers of the log report as a message that is not
// JSON-RPC and keep. Text that is not UTF-8, which no JSON text can hold,
// is "bytes": its exact bytes (less the line feed that ends a line) in
// standard base64, which readers of the log report as not JSON (-32700, at
// the first byte that is not UTF-8) and keep. When the line would be
// longer than Max, the message is logged cut, as RecordCut logs it. The
// first error of the writer is returned by this call and every later one.
func (l *Log) Record(dir jsonrpc.Direction, text []byte) error { return l.RecordIn("", dir, text) }

// RecordIn is Record for a message of the MCP session named session (the
// Mcp-Session-Id of Streamable HTTP, or the run of a stdio server): the
// envelope's "session" is that name, so that readers pair and check each
// session on its own. An empty session writes no "session", as Record.
func (l *Log) RecordIn(session string, dir jsonrpc.Direction, text []byte) error {
	return l.write(func(ts string) {
		if l.surelyTooLong(text) {
			l.cut(dir, ts, session, text, int64(len(text)))
			return
		}
		writeEnvelope(&l.buf, dir, ts, session, text)
		if l.buf.Len() > l.max() {
			l.buf.Reset()
			l.cut(dir, ts, session, text, int64(len(text)))
		}
	})
}

// envelopeRoom is more than what an envelope line adds to its "msg".
const envelopeRoom = 64

// surelyTooLong reports whether the envelope line of text, UTF-8 that is
// not JSON and so a JSON string there, would be longer than l.max(), by
// the length of its escapes (up to six bytes a byte), so that such a line
// is never built.
func (l *Log) surelyTooLong(text []byte) bool {
	if 6*len(text)+envelopeRoom <= l.max() || !utf8.Valid(text) {
		return false
	}
	if trimmed := bytes.TrimSpace(text); len(trimmed) > 0 && json.Valid(trimmed) {
		return false // a JSON text: no longer in the line than it is
	}
	return escapedLen(text)+envelopeRoom > l.max()
}

// escapedLen returns the length of text, UTF-8, as a JSON string the way
// writeString writes it: encoding/json's escapes, HTML characters as they
// are.
func escapedLen(text []byte) int {
	n := 2 // the quotes
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20:
				n += 6 // \u00XX
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == '\u2028' || r == '\u2029' {
			n += 6
		} else {
			n += size
		}
		i += size
	}
	return n
}

// RecordCut writes the envelope line of a message of n bytes sent in
// direction dir that is too long to log, of which head holds the first
// bytes: its "truncated" member is n, and its "msg" the first bytes of
// head as a JSON string (at most 1,024, or Max/8 when less, fewer when
// their escapes would make the line longer than Max; no character cut in
// two). jrpcld's readers keep it, with an error that says the
// message is not in the log.
func (l *Log) RecordCut(dir jsonrpc.Direction, head []byte, n int64) error {
	return l.RecordCutIn("", dir, head, n)
}

// RecordCutIn is RecordCut for a message of the MCP session named session
// (see RecordIn).
func (l *Log) RecordCutIn(session string, dir jsonrpc.Direction, head []byte, n int64) error {
	return l.write(func(ts string) { l.cut(dir, ts, session, head, n) })
}

// write writes the line build puts in l.buf, given the time.
func (l *Log) write(build func(ts string)) error {
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	l.buf.Reset()
	build(now().UTC().Format(TimeLayout))
	_, l.err = l.w.Write(l.buf.Bytes())
	return l.err
}

// cut writes the envelope of a message cut to l.buf, and tells Warn.
func (l *Log) cut(dir jsonrpc.Direction, ts, session string, head []byte, n int64) {
	keep := min(cutKeep, l.max()/8, len(head))
	for {
		// Not inside a character: back to its first byte.
		for i := 1; i < utf8.UTFMax && keep > 0 && keep < len(head) && !utf8.RuneStart(head[keep]); i++ {
			keep--
		}
		writeCutEnvelope(&l.buf, dir, ts, session, head[:keep], n)
		if l.buf.Len() <= l.max() || keep == 0 {
			break
		}
		// Escapes made it too long.
		l.buf.Reset()
		keep /= 2
	}
	if l.Warn != nil {
		from := "the client"
		if dir == jsonrpc.ServerToClient {
			from = "the server"
		}
		l.Warn(fmt.Sprintf("a message of %d bytes from %s is longer than the log's limit of %d bytes: it passed unchanged; the log keeps its length and first %d bytes", n, from, l.max(), keep))
	}
}

// writeCutEnvelope writes to b the envelope line of a message of n bytes
// cut to head: {"dir":...,"ts":...,"session":...,"truncated":n,"msg":"head"}.
func writeCutEnvelope(b *bytes.Buffer, dir jsonrpc.Direction, ts, session string, head []byte, n int64) {
	b.WriteString(`{"dir":"`)
	b.WriteString(dir.String())
	b.WriteString(`","ts":`)
	writeString(b, ts)
	if session != "" {
		b.WriteString(`,"session":`)
		writeString(b, session)
	}
	b.WriteString(`,"truncated":`)
	b.WriteString(strconv.FormatInt(n, 10))
	b.WriteString(`,"msg":`)
	writeString(b, string(head))
	b.WriteString("}\n")
}

// WriteEnvelope writes to b the envelope line of text sent in direction dir
// at time ts ("" for none: the envelope then has no "ts"), with its line
// break. The "msg" is the JSON value text holds, or text as a string when it
// is not JSON; text that is not UTF-8 is "bytes" instead, as Log.Record
// writes it.
func WriteEnvelope(b *bytes.Buffer, dir jsonrpc.Direction, ts string, text []byte) {
	writeEnvelope(b, dir, ts, "", text)
}

// writeEnvelope is WriteEnvelope with the envelope's "session" (none when
// session is "").
func writeEnvelope(b *bytes.Buffer, dir jsonrpc.Direction, ts, session string, text []byte) {
	b.WriteString(`{"dir":"`)
	b.WriteString(dir.String())
	b.WriteString(`"`)
	if ts != "" {
		b.WriteString(`,"ts":`)
		writeString(b, ts)
	}
	if session != "" {
		b.WriteString(`,"session":`)
		writeString(b, session)
	}
	if utf8.Valid(text) {
		b.WriteString(`,"msg":`)
		appendMsg(b, text)
	} else {
		b.WriteString(`,"bytes":"`)
		b.Write(base64.StdEncoding.AppendEncode(b.AvailableBuffer(), bytes.TrimSuffix(text, []byte("\n"))))
		b.WriteByte('"')
	}
	b.WriteString("}\n")
}

// Err returns the first error of the writer, or nil.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// appendMsg appends the "msg" value of text to b: the JSON text itself on
// one line, or text as a JSON string.
func appendMsg(b *bytes.Buffer, text []byte) {
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) > 0 && json.Valid(trimmed) {
		if bytes.ContainsAny(trimmed, "\r\n") {
			if json.Compact(b, trimmed) == nil {
				return
			}
		} else {
			b.Write(trimmed)
			return
		}
	}
	writeString(b, string(text))
}

// writeString writes s to b as a JSON string (HTML characters as they are).
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)           // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}
