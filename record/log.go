package record

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

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
}

// NewLog returns a Log that writes to w.
func NewLog(w io.Writer) *Log { return &Log{w: w} }

// Record writes the envelope line of text, one message (or line, or body)
// sent in direction dir. When text is JSON, the envelope's "msg" is that
// JSON value, as written (or without its insignificant white space when it
// spans several lines); otherwise "msg" is the text as a JSON string (with
// any bytes that are not UTF-8 replaced by U+FFFD), which readers of the log
// report as a message that is not JSON-RPC and keep. The first error of the
// writer is returned by this call and every later one.
func (l *Log) Record(dir jsonrpc.Direction, text []byte) error {
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
	WriteEnvelope(&l.buf, dir, now().UTC().Format(TimeLayout), text)
	_, l.err = l.w.Write(l.buf.Bytes())
	return l.err
}

// WriteEnvelope writes to b the envelope line of text sent in direction dir
// at time ts ("" for none: the envelope then has no "ts"), with its line
// break. The "msg" is the JSON value text holds, or text as a string when it
// is not JSON, as Log.Record writes it.
func WriteEnvelope(b *bytes.Buffer, dir jsonrpc.Direction, ts string, text []byte) {
	b.WriteString(`{"dir":"`)
	b.WriteString(dir.String())
	b.WriteString(`"`)
	if ts != "" {
		b.WriteString(`,"ts":`)
		writeString(b, ts)
	}
	b.WriteString(`,"msg":`)
	appendMsg(b, text)
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
