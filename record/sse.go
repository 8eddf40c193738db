package record

import (
	"bytes"
	"io"
)

// SSEMessages calls emit with the data of each event of the stream of
// server-sent events r that carries a message (see sseParser), in order,
// until r ends.
func SSEMessages(r io.Reader, emit func(data []byte)) error {
	p := &sseParser{emit: emit}
	_, err := io.Copy(p, r)
	p.Close()
	return err
}

// sseParser reads a stream of server-sent events as it passes, in pieces of
// any size, and calls emit with the data of each event that carries a
// message: an event of type "message" (or of no type) with data. Comments,
// other fields and events of other types (such as the old HTTP+SSE
// transport's "endpoint") are skipped.
type sseParser struct {
	emit    func(data []byte)
	line    []byte // the line being read, without its end
	data    bytes.Buffer
	hasData bool
	event   string
	cr      bool // the last byte seen was a '\r' ending a line
}

// Write takes the next piece of the stream.
func (p *sseParser) Write(b []byte) (int, error) {
	for _, c := range b {
		if p.cr {
			p.cr = false
			if c == '\n' {
				continue // "\r\n" ends one line
			}
		}
		switch c {
		case '\r':
			p.cr = true
			p.endLine()
		case '\n':
			p.endLine()
		default:
			p.line = append(p.line, c)
		}
	}
	return len(b), nil
}

// Close dispatches an event the stream ended in without a blank line after
// it (the specification discards it; a recorder keeps what was sent).
func (p *sseParser) Close() {
	if len(p.line) > 0 {
		p.endLine()
	}
	p.dispatch()
}

func (p *sseParser) endLine() {
	line := p.line
	p.line = p.line[:0]
	if len(line) == 0 {
		p.dispatch()
		return
	}
	if line[0] == ':' {
		return // a comment
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if p.hasData {
			p.data.WriteByte('\n')
		}
		p.data.Write(value)
		p.hasData = true
	case "event":
		p.event = string(value)
	}
}

func (p *sseParser) dispatch() {
	if p.hasData && p.data.Len() > 0 && (p.event == "" || p.event == "message") {
		p.emit(bytes.Clone(p.data.Bytes()))
	}
	p.data.Reset()
	p.hasData = false
	p.event = ""
}
