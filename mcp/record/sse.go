package record

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"unicode/utf8"
)

// Event is one event of a stream of server-sent events, as a client that
// follows the HTML standard's "event stream interpretation" dispatches it.
type Event struct {
	// Type is the event's type: "message" when the stream named none.
	Type string
	// Data is the event's data (its data lines joined with "\n"), or its
	// first bytes when the data is longer than the parser keeps (Len is
	// then more than len(Data)).
	Data []byte
	// Len is the length of the data in bytes.
	Len int64
	// LastEventID is the stream's last event ID when the event was
	// dispatched.
	LastEventID string
}

// Cut reports whether Data holds only the first bytes of the event's data.
func (e *Event) Cut() bool { return e.Len > int64(len(e.Data)) }

// IsMessage reports whether e carries an MCP message: an event of type
// "message" with data. An event with empty data is one a server sends to
// give an event ID (MCP's "priming" event), and no message.
func (e *Event) IsMessage() bool { return e.Type == "message" && e.Len > 0 }

// SSEMessages calls emit with the data of each event of the stream of
// server-sent events r that carries a message (see Event.IsMessage), in
// order, until r ends. The data of each event is held whole. When the
// stream ends inside an event (with data but no blank line after it), that
// event is not dispatched, as a client does not dispatch it, and the error
// says so.
func SSEMessages(r io.Reader, emit func(data []byte)) error {
	p := &SSEParser{Emit: func(e Event) {
		if e.IsMessage() {
			emit(e.Data)
		}
	}}
	if _, err := io.Copy(p, r); err != nil {
		return err
	}
	if n := p.Close(); n > 0 {
		return fmt.Errorf("the stream ends inside an event (%d bytes of data with no blank line after them): not dispatched, as a client does not dispatch it", n)
	}
	return nil
}

// The fields of an event stream.
const (
	fieldOther = iota
	fieldData
	fieldEvent
	fieldID
	fieldRetry
)

// What the parser is reading.
const (
	stLineStart = iota // nothing of the line read yet
	stName             // the field name
	stValue            // the field value
	stComment          // a line that starts with ':'
)

// maxField is the most bytes the parser keeps of the value of a field
// other than "data" (an event type, an ID, a retry time): beyond it the
// value is cut (an event type so long is no "message"; an ID is only
// passed on in Event; a retry time is capped).
const maxField = 64 << 10

// SSEParser reads a stream of server-sent events as it passes, in pieces
// of any size written to it, exactly as the HTML standard's "event stream
// interpretation" reads it: the stream is UTF-8, decoded with U+FFFD in
// place of each invalid sequence and one leading byte order mark removed;
// lines end with CRLF, LF or CR; a line starting with ':' is a comment; a
// field's value follows its name's first ':' with one space removed (the
// whole line is the name when it has no ':'); "data" lines are joined
// with LF, "event" sets the type, "id" the last event ID (unless it holds
// U+0000), "retry" the reconnection time (when it is all ASCII digits),
// other fields are ignored; a blank line dispatches the event, if it has
// data. At the end of the stream, an event not yet dispatched is
// discarded (Close).
//
// Memory is bounded by Max: an event's data past Max bytes is counted,
// not kept, and the values of other fields are cut at 64 KiB.
type SSEParser struct {
	// Emit is called with each event dispatched, before Write returns.
	// The event's Data is valid only during the call.
	Emit func(Event)
	// Max is the most bytes of an event's data kept (0 or less: no
	// limit).
	Max int

	bom  int  // how many bytes of a leading byte order mark were read
	body bool // past the byte order mark

	// The UTF-8 decoder (the Encoding standard's): the bytes of the
	// sequence being read, how many it needs in all, and the bounds of
	// the next one.
	seq          [4]byte
	nseq, need   int
	lower, upper byte

	cr     bool // the last byte was a CR that ended a line
	state  int
	name   [6]byte // the field name, enough for the longest known one
	nname  int
	field  int
	spaced bool // the value's first byte was read (and a space dropped)

	data     []byte // the data buffer, up to Max bytes
	dataLen  int64  // its length
	event    []byte // the event type buffer
	value    []byte // the value of an event, id or retry line being read
	lastID   string // the last event ID buffer
	retry    int64  // the reconnection time, when retrySet
	retrySet bool
}

// Write takes the next piece of the stream; it never fails.
func (p *SSEParser) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if !p.body {
			p.bomByte(b[0])
			b = b[1:]
			continue
		}
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			i = len(b)
		}
		p.segment(b[:i])
		if i < len(b) {
			p.decode(b[i])
			i++
		}
		b = b[i:]
	}
	return n, nil
}

// segment reads bytes with no line end in them: runs of whole characters
// at once, the rest byte by byte through the decoder.
func (p *SSEParser) segment(s []byte) {
	for len(s) > 0 {
		if p.nseq == 0 && !p.cr {
			if n := validPrefix(s); n > 0 {
				p.text(s[:n])
				s = s[n:]
				continue
			}
		}
		p.decode(s[0])
		s = s[1:]
	}
}

// validPrefix returns the length of the longest start of s that is whole
// UTF-8 characters.
func validPrefix(s []byte) int {
	i := 0
	for i < len(s) {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return i
}

// bomByte reads a byte of the start of the stream, where a byte order mark
// may be.
func (p *SSEParser) bomByte(c byte) {
	if c == byteOrderMark[p.bom] {
		p.bom++
		if p.bom == len(byteOrderMark) {
			p.body = true
		}
		return
	}
	p.body = true
	for i := 0; i < p.bom; i++ {
		p.decode(byteOrderMark[i])
	}
	p.decode(c)
}

// byteOrderMark is U+FEFF in UTF-8.
const byteOrderMark = "\xEF\xBB\xBF"

// decode reads one byte of the stream with the Encoding standard's UTF-8
// decoder, passing on each character, or U+FFFD for an invalid sequence.
func (p *SSEParser) decode(c byte) {
	if p.need == 0 {
		p.lower, p.upper = 0x80, 0xBF
		switch {
		case c < 0x80:
			p.char([]byte{c})
			return
		case c >= 0xC2 && c <= 0xDF:
			p.need = 2
		case c >= 0xE0 && c <= 0xEF:
			p.need = 3
			if c == 0xE0 {
				p.lower = 0xA0
			} else if c == 0xED {
				p.upper = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			p.need = 4
			if c == 0xF0 {
				p.lower = 0x90
			} else if c == 0xF4 {
				p.upper = 0x8F
			}
		default:
			p.char(replacement)
			return
		}
		p.seq[0], p.nseq = c, 1
		return
	}
	if c < p.lower || c > p.upper {
		// The sequence ends before its time: U+FFFD for it, and c is
		// read anew.
		p.need, p.nseq = 0, 0
		p.char(replacement)
		p.decode(c)
		return
	}
	p.lower, p.upper = 0x80, 0xBF
	p.seq[p.nseq] = c
	p.nseq++
	if p.nseq == p.need {
		n := p.nseq
		p.need, p.nseq = 0, 0
		p.char(p.seq[:n])
	}
}

// replacement is U+FFFD in UTF-8.
var replacement = []byte("\uFFFD")

// char reads one decoded character: a line end, or text.
func (p *SSEParser) char(c []byte) {
	if p.cr {
		p.cr = false
		if c[0] == '\n' && len(c) == 1 {
			return // the LF of a CRLF
		}
	}
	switch {
	case len(c) == 1 && c[0] == '\r':
		p.cr = true
		p.endLine()
	case len(c) == 1 && c[0] == '\n':
		p.endLine()
	default:
		p.text(c)
	}
}

// text reads decoded text with no line end in it.
func (p *SSEParser) text(t []byte) {
	for len(t) > 0 {
		switch p.state {
		case stLineStart:
			if t[0] == ':' {
				p.state = stComment
				return
			}
			p.state, p.nname = stName, 0
		case stName:
			i := bytes.IndexByte(t, ':')
			name := t
			if i >= 0 {
				name = t[:i]
			}
			for _, c := range name {
				if p.nname < len(p.name) {
					p.name[p.nname] = c
				}
				p.nname++
			}
			if i < 0 {
				return
			}
			p.startValue()
			t = t[i+1:]
		case stValue:
			if !p.spaced {
				p.spaced = true
				if t[0] == ' ' {
					t = t[1:]
					continue
				}
			}
			p.addValue(t)
			return
		default: // a comment
			return
		}
	}
}

// startValue starts the value of the field whose name was read.
func (p *SSEParser) startValue() {
	p.state, p.spaced, p.field = stValue, false, fieldOther
	if p.nname <= len(p.name) {
		switch string(p.name[:p.nname]) {
		case "data":
			p.field = fieldData
		case "event":
			p.field = fieldEvent
		case "id":
			p.field = fieldID
		case "retry":
			p.field = fieldRetry
		}
	}
	p.value = p.value[:0]
}

// addValue reads part of a field's value.
func (p *SSEParser) addValue(v []byte) {
	switch p.field {
	case fieldData:
		p.addData(v)
	case fieldEvent, fieldID, fieldRetry:
		if room := maxField - len(p.value); room > 0 {
			p.value = append(p.value, v[:min(room, len(v))]...)
		}
	}
}

// addData appends to the data buffer, keeping at most Max bytes.
func (p *SSEParser) addData(v []byte) {
	p.dataLen += int64(len(v))
	if p.Max > 0 {
		v = v[:min(len(v), max(0, p.Max-len(p.data)))]
	}
	p.data = append(p.data, v...)
}

// endLine processes the line just read, or dispatches the event at a blank
// line.
func (p *SSEParser) endLine() {
	switch p.state {
	case stLineStart:
		p.dispatch()
	case stName:
		// A line with no ':': the whole line is the name, the value is
		// empty.
		p.startValue()
		p.endField()
	case stValue:
		p.endField()
	}
	p.state = stLineStart
}

// endField processes a field whose value was read.
func (p *SSEParser) endField() {
	switch p.field {
	case fieldData:
		p.addData([]byte{'\n'})
	case fieldEvent:
		p.event = append(p.event[:0], p.value...)
	case fieldID:
		if bytes.IndexByte(p.value, 0) < 0 {
			p.lastID = string(p.value)
		}
	case fieldRetry:
		if len(p.value) == 0 {
			return
		}
		var ms int64
		for _, c := range p.value {
			if c < '0' || c > '9' {
				return
			}
			if d := int64(c - '0'); ms <= (math.MaxInt64-d)/10 {
				ms = ms*10 + d
			} else {
				ms = math.MaxInt64 // as long as a time can be
			}
		}
		p.retry, p.retrySet = ms, true
	}
}

// Retry returns the reconnection time in milliseconds the stream last set
// with a "retry" field, and whether it set one.
func (p *SSEParser) Retry() (ms int64, ok bool) { return p.retry, p.retrySet }

// dispatch dispatches the event read, if it has data, and empties the
// buffers.
func (p *SSEParser) dispatch() {
	if p.dataLen > 0 {
		n := p.dataLen - 1 // the data buffer ends with an LF: removed
		data := p.data[:min(int64(len(p.data)), n)]
		typ := string(p.event)
		if typ == "" {
			typ = "message"
		}
		if p.Emit != nil {
			p.Emit(Event{Type: typ, Data: data, Len: n, LastEventID: p.lastID})
		}
	}
	p.data, p.dataLen = p.data[:0], 0
	p.event = p.event[:0]
}

// Close ends the stream: an event not dispatched yet is discarded, as the
// standard says. It returns how many bytes of data that event had read (0
// when the stream ended between events).
func (p *SSEParser) Close() int64 {
	// The decoder's end: a start of a byte order mark, or a sequence cut
	// short, is U+FFFD in the line the end discards.
	if !p.body {
		p.body = true
		for i := 0; i < p.bom; i++ {
			p.decode(byteOrderMark[i])
		}
	}
	if p.need > 0 {
		p.need, p.nseq = 0, 0
		p.char(replacement)
	}
	n := p.dataLen
	p.data, p.dataLen = nil, 0
	p.event, p.value = nil, nil
	p.state, p.cr, p.need, p.nseq = stLineStart, false, 0, 0
	return n
}
