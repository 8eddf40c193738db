package record

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// sseModel reads a whole stream the plain way, as an independent check of
// SSEParser: the bytes decoded at once (Unicode's table of well-formed
// UTF-8, each maximal subpart of an ill-formed sequence one U+FFFD), split
// into lines, each line cut at its first colon. It returns the events, the
// retry time (-1 for none) and the bytes of data the end discards.
func sseModel(stream []byte) (events []ev, retry, pending int64) {
	text := decodeWhole(bytes.TrimPrefix(stream, []byte(byteOrderMark)))
	var data strings.Builder
	hasData := false
	typ, id := "", ""
	retry = -1
	for {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			break // the last line has no end: the end of the stream discards it
		}
		line := text[:i]
		if strings.HasPrefix(text[i:], "\r\n") {
			text = text[i+2:]
		} else {
			text = text[i+1:]
		}
		if line == "" {
			if hasData {
				d := strings.TrimSuffix(data.String(), "\n")
				t := typ
				if t == "" {
					t = "message"
				}
				events = append(events, ev{t, d, id})
			}
			data.Reset()
			hasData, typ = false, ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "data":
			data.WriteString(value + "\n")
			hasData = true
		case "event":
			typ = value
		case "id":
			if !strings.Contains(value, "\x00") {
				id = value
			}
		case "retry":
			if value != "" && strings.Trim(value, "0123456789") == "" {
				retry = parseRetry(value)
			}
		}
	}
	pending = int64(data.Len())
	if name, value, ok := strings.Cut(text, ":"); ok && name == "data" {
		pending += int64(len(strings.TrimPrefix(value, " ")))
	}
	return events, retry, pending
}

// parseRetry reads digits as a number, as big as an int64 goes.
func parseRetry(digits string) int64 {
	var n int64
	for _, c := range digits {
		d := int64(c - '0')
		if n > (1<<63-1-d)/10 {
			return 1<<63 - 1
		}
		n = n*10 + d
	}
	return n
}

// decodeWhole decodes b as UTF-8 by the table of well-formed byte
// sequences (Unicode, table 3-7), with U+FFFD for each maximal subpart of
// an ill-formed one.
func decodeWhole(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			out.WriteByte(c)
			i++
			continue
		}
		// The ranges of the bytes after a first byte c.
		var next [][2]byte
		switch {
		case c >= 0xC2 && c <= 0xDF:
			next = [][2]byte{{0x80, 0xBF}}
		case c == 0xE0:
			next = [][2]byte{{0xA0, 0xBF}, {0x80, 0xBF}}
		case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
			next = [][2]byte{{0x80, 0xBF}, {0x80, 0xBF}}
		case c == 0xED:
			next = [][2]byte{{0x80, 0x9F}, {0x80, 0xBF}}
		case c == 0xF0:
			next = [][2]byte{{0x90, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}}
		case c >= 0xF1 && c <= 0xF3:
			next = [][2]byte{{0x80, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}}
		case c == 0xF4:
			next = [][2]byte{{0x80, 0x8F}, {0x80, 0xBF}, {0x80, 0xBF}}
		}
		k := 0
		for k < len(next) && i+1+k < len(b) && b[i+1+k] >= next[k][0] && b[i+1+k] <= next[k][1] {
			k++
		}
		if next != nil && k == len(next) {
			out.Write(b[i : i+1+k])
		} else {
			out.WriteString("\uFFFD")
		}
		i += 1 + k
	}
	return out.String()
}

// TestSSEModel: the model gives what the table of cases says, so that
// FuzzSSE checks SSEParser against something right.
func TestSSEModel(t *testing.T) {
	for _, c := range sseCases {
		got, retry, pending := sseModel([]byte(c.stream))
		if !reflect.DeepEqual(got, c.want) || retry != c.retry || pending != c.pending {
			t.Errorf("%s: %q, retry %d, %d bytes discarded; want %q, %d, %d", c.name, got, retry, pending, c.want, c.retry, c.pending)
		}
	}
}

// FuzzSSE: SSEParser, fed a stream in pieces of any size, dispatches what
// the model reads from the whole stream; with a small Max, each event's
// length is the same and its data the first Max bytes.
func FuzzSSE(f *testing.F) {
	for _, c := range sseCases {
		f.Add([]byte(c.stream), uint8(len(c.name)))
	}
	f.Fuzz(func(t *testing.T, stream []byte, size uint8) {
		want, wantRetry, wantPending := sseModel(stream)
		var p SSEParser
		got, pending := parse(&p, string(stream), int(size%19))
		retry, ok := p.Retry()
		if !ok {
			retry = -1
		}
		if !reflect.DeepEqual(got, want) || retry != wantRetry || pending != wantPending {
			t.Fatalf("pieces of %d: %q, retry %d, %d discarded; the model: %q, %d, %d", size%19, got, retry, pending, want, wantRetry, wantPending)
		}
		const max = 5
		var cut []Event
		small := &SSEParser{Max: max, Emit: func(e Event) {
			e.Data = bytes.Clone(e.Data)
			cut = append(cut, e)
		}}
		small.Write(stream)
		small.Close()
		if len(cut) != len(want) {
			t.Fatalf("with Max %d: %d events, want %d", max, len(cut), len(want))
		}
		for i, e := range cut {
			w := want[i].data
			if e.Len != int64(len(w)) || string(e.Data) != w[:min(len(w), max)] || e.Cut() != (len(w) > max) {
				t.Fatalf("with Max %d, event %d: %q of %d bytes, want %q", max, i, e.Data, e.Len, w)
			}
		}
	})
}
