package record

import (
	"reflect"
	"strings"
	"testing"
)

// ev is an event as the tests write it: its type, data and last event ID.
type ev struct{ typ, data, id string }

// sseCase is a stream and what the HTML standard's event stream
// interpretation makes of it, worked out by hand.
type sseCase struct {
	name, stream string
	want         []ev
	retry        int64 // -1: no retry set
	pending      int64 // the bytes of data Close discards
}

// sseCases go through each step of the algorithm, in its order.
var sseCases = []sseCase{
	// Decoding: UTF-8, one leading byte order mark removed, U+FFFD for each
	// invalid sequence (its longest valid start, as the Encoding standard
	// says).
	{"one event", "data: x\n\n", []ev{{"message", "x", ""}}, -1, 0},
	{"byte order mark", "\uFEFFdata: x\n\n", []ev{{"message", "x", ""}}, -1, 0},
	{"byte order mark before a CRLF field", "\uFEFFevent: e\r\ndata: x\r\n\r\n", []ev{{"e", "x", ""}}, -1, 0},
	{"a second byte order mark is text", "\uFEFF\uFEFFdata: x\n\ndata: y\n\n", []ev{{"message", "y", ""}}, -1, 0},
	{"byte order mark in data", "data: \uFEFFx\n\n", []ev{{"message", "\uFEFFx", ""}}, -1, 0},
	{"byte order mark cut short", "\xEF\xBBdata: x\n\ndata: y\n\n", []ev{{"message", "y", ""}}, -1, 0},
	{"byte order mark alone", "\uFEFF", nil, -1, 0},
	{"invalid byte", "data: a\xffb\n\n", []ev{{"message", "a\uFFFDb", ""}}, -1, 0},
	{"sequence cut short: one U+FFFD", "data: \xE2\x82a\n\n", []ev{{"message", "\uFFFDa", ""}}, -1, 0},
	{"surrogate: one U+FFFD a byte", "data: \xED\xA0\x80\n\n", []ev{{"message", "\uFFFD\uFFFD\uFFFD", ""}}, -1, 0},
	{"overlong: one U+FFFD a byte", "data: \xC0\xAF\xE0\x80\xAF\n\n", []ev{{"message", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD", ""}}, -1, 0},
	{"past U+10FFFF", "data: \xF4\x90\x80\x80|\xF5\n\n", []ev{{"message", "\uFFFD\uFFFD\uFFFD\uFFFD|\uFFFD", ""}}, -1, 0},
	{"sequence cut by a line end", "data: \xF0\x9F\x98\ndata: b\n\n", []ev{{"message", "\uFFFD\nb", ""}}, -1, 0},
	{"four-byte characters", "data: \U0001F600é\u00a0\n\n", []ev{{"message", "\U0001F600é\u00a0", ""}}, -1, 0},
	{"NUL in data", "data: a\x00b\n\n", []ev{{"message", "a\x00b", ""}}, -1, 0},

	// Lines: ended by CRLF, LF or CR.
	{"LF, CRLF and CR", "data: a\r\n\r\ndata: b\r\rdata: c\n\n", []ev{{"message", "a", ""}, {"message", "b", ""}, {"message", "c", ""}}, -1, 0},
	{"CR CR LF: two line ends and a third", "data: a\r\r\ndata: b\n\n", []ev{{"message", "a", ""}, {"message", "b", ""}}, -1, 0},
	{"LF CR: two line ends", "data: a\n\rdata: b\n\n", []ev{{"message", "a", ""}, {"message", "b", ""}}, -1, 0},
	{"CRLF inside data lines", "data: a\r\ndata: b\r\n\r\n", []ev{{"message", "a\nb", ""}}, -1, 0},

	// A line that starts with a colon is a comment.
	{"comments", ": hi\ndata: a\n:\n: data: b\n\n", []ev{{"message", "a", ""}}, -1, 0},
	{"a comment does not dispatch", ":\n:\n", nil, -1, 0},
	{"a comment ended by CR", ": a\rdata: b\n\n", []ev{{"message", "b", ""}}, -1, 0},

	// Fields: the name before the first colon, the value after it with
	// one leading space removed; with no colon, the whole line is the
	// name and the value is empty.
	{"no space after the colon", "data:a\n\n", []ev{{"message", "a", ""}}, -1, 0},
	{"one space removed, not two", "data:  a\n\n", []ev{{"message", " a", ""}}, -1, 0},
	{"a tab is not removed", "data:\ta\n\n", []ev{{"message", "\ta", ""}}, -1, 0},
	{"a space only", "data: \n\n", []ev{{"message", "", ""}}, -1, 0},
	{"colons in the value", "data: a: b:c\n\n", []ev{{"message", "a: b:c", ""}}, -1, 0},
	{"a space before the colon is part of the name", "data : a\ndata: b\n\n", []ev{{"message", "b", ""}}, -1, 0},
	{"names are case-sensitive", "Data: a\nDATA: b\ndata: c\n\n", []ev{{"message", "c", ""}}, -1, 0},
	{"unknown fields ignored", "foo: bar\ndat: x\ndatas: y\ndata: a\nx\n\n", []ev{{"message", "a", ""}}, -1, 0},

	// data: appended to the data buffer with a LF; the last LF removed at
	// dispatch; an empty data buffer dispatches nothing.
	{"multi-line data joined with LF", "data: a\ndata:b\ndata:  c\n\n", []ev{{"message", "a\nb\n c", ""}}, -1, 0},
	{"data with no colon: empty data", "data\n\n", []ev{{"message", "", ""}}, -1, 0},
	{"empty data line", "data:\n\n", []ev{{"message", "", ""}}, -1, 0},
	{"two empty data lines", "data\ndata\n\n", []ev{{"message", "\n", ""}}, -1, 0},
	{"an empty data line last", "data: a\ndata:\n\n", []ev{{"message", "a\n", ""}}, -1, 0},
	{"an empty data line first", "data\ndata: a\n\n", []ev{{"message", "\na", ""}}, -1, 0},
	{"blank lines without data", "\n\r\n\r\n\n", nil, -1, 0},
	{"a value that is a LF's worth", "data: a\n\n\n\ndata: b\n\n", []ev{{"message", "a", ""}, {"message", "b", ""}}, -1, 0},

	// event: sets the event type buffer; "message" when empty; reset at
	// each blank line, data or not.
	{"event type", "event: endpoint\ndata: /m?s=1\n\n", []ev{{"endpoint", "/m?s=1", ""}}, -1, 0},
	{"event: message", "event: message\ndata: a\n\n", []ev{{"message", "a", ""}}, -1, 0},
	{"empty event type is message", "event:\ndata: a\n\nevent\ndata: b\n\n", []ev{{"message", "a", ""}, {"message", "b", ""}}, -1, 0},
	{"the last event line wins", "event: a\nevent: b\ndata: x\n\n", []ev{{"b", "x", ""}}, -1, 0},
	{"type reset after dispatch", "event: e\ndata: a\n\ndata: b\n\n", []ev{{"e", "a", ""}, {"message", "b", ""}}, -1, 0},
	{"type reset by a blank line without data", "event: e\n\ndata: a\n\n", []ev{{"message", "a", ""}}, -1, 0},
	{"event after data", "data: a\nevent: e\n\n", []ev{{"e", "a", ""}}, -1, 0},

	// id: sets the last event ID buffer, unless it holds NUL; never reset.
	{"id", "id: 7\ndata: a\n\ndata: b\n\n", []ev{{"message", "a", "7"}, {"message", "b", "7"}}, -1, 0},
	{"id with NUL ignored", "id: 1\ndata: a\n\nid: 2\x00\ndata: b\n\n", []ev{{"message", "a", "1"}, {"message", "b", "1"}}, -1, 0},
	{"empty id", "id: 1\ndata: a\n\nid\ndata: b\n\nid:\ndata: c\n\n", []ev{{"message", "a", "1"}, {"message", "b", ""}, {"message", "c", ""}}, -1, 0},
	{"id without data carries on", "id: 3\n\ndata: a\n\n", []ev{{"message", "a", "3"}}, -1, 0},
	{"id after data", "data: a\nid: 4\n\n", []ev{{"message", "a", "4"}}, -1, 0},
	{"id: U+FFFD is no NUL", "id: \xff\ndata: a\n\n", []ev{{"message", "a", "\uFFFD"}}, -1, 0},

	// retry: the reconnection time when the value is ASCII digits only.
	{"retry", "retry: 2500\ndata: a\n\n", []ev{{"message", "a", ""}}, 2500, 0},
	{"retry: the last one that is digits", "retry: 10\nretry: 1x\nretry: -1\nretry:  5\nretry: 5.0\nretry\nretry:\n", nil, 10, 0},
	{"retry: leading zeros", "retry: 007\n", nil, 7, 0},
	{"retry: not digits only", "retry: ٣\n", nil, -1, 0},
	{"retry: huge", "retry: 99999999999999999999999\n", nil, 1<<63 - 1, 0},

	// The end of the stream discards an event not dispatched.
	{"end without a blank line", "data: a\n\ndata: b\n", []ev{{"message", "a", ""}}, -1, 2},
	{"end inside a line", "data: a\n\ndata: {\"jsonrpc\"", []ev{{"message", "a", ""}}, -1, 10},
	{"end after a CR", "data: a\r", nil, -1, 2},
	{"end after two data lines", "data: a\ndata: b\n", nil, -1, 4},
	{"end inside a field name", "data: a\n\nda", []ev{{"message", "a", ""}}, -1, 0},
	{"end after a comment", "data: a\n\n: bye", []ev{{"message", "a", ""}}, -1, 0},
	{"end inside a sequence: U+FFFD", "data: a\n\ndata: \xE2\x82", []ev{{"message", "a", ""}}, -1, 3},
	{"end inside a byte order mark", "\xEF\xBB", nil, -1, 0},
	{"end inside a sequence, no space", "data:\xEF\xBB", nil, -1, 3},
	{"empty stream", "", nil, -1, 0},
}

// parse runs p over stream in pieces of size bytes (the whole stream when
// size is 0), and returns its events and what Close discarded.
func parse(p *SSEParser, stream string, size int) ([]ev, int64) {
	var got []ev
	p.Emit = func(e Event) {
		if int64(len(e.Data)) != e.Len {
			panic("Data is not the whole data")
		}
		got = append(got, ev{e.Type, string(e.Data), e.LastEventID})
	}
	if size <= 0 {
		size = max(1, len(stream))
	}
	for i := 0; i < len(stream); i += size {
		p.Write([]byte(stream[i:min(i+size, len(stream))]))
	}
	return got, p.Close()
}

// TestSSEParser: every step of the HTML standard's event stream
// interpretation, each stream in pieces of every size.
func TestSSEParser(t *testing.T) {
	for _, c := range sseCases {
		t.Run(c.name, func(t *testing.T) {
			for _, size := range []int{0, 1, 2, 3, 5} {
				var p SSEParser
				got, pending := parse(&p, c.stream, size)
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("pieces of %d: %q, want %q", size, got, c.want)
				}
				retry, ok := p.Retry()
				if !ok {
					retry = -1
				}
				if retry != c.retry || pending != c.pending {
					t.Errorf("pieces of %d: retry %d, %d bytes discarded; want %d, %d", size, retry, pending, c.retry, c.pending)
				}
			}
		})
	}
}

// TestSSEParserMax: past Max, an event's data is counted and its first Max
// bytes kept; the values of other fields are cut at 64 KiB, and a long
// line costs no more (nor time: a line of invalid bytes, each read anew
// from its place to the line's end, took time quadratic in its length).
func TestSSEParserMax(t *testing.T) {
	long := strings.Repeat("x", 3<<20)
	for _, c := range []struct {
		name, stream string
		max          int
		want         []Event
	}{
		{"under", "data: abcd\n\n", 4, []Event{{Type: "message", Data: []byte("abcd"), Len: 4}}},
		{"over", "data: abcdefgh\n\n", 4, []Event{{Type: "message", Data: []byte("abcd"), Len: 8}}},
		{"over, in lines", "data: ab\ndata: cd\n\ndata: e\n\n", 4, []Event{
			{Type: "message", Data: []byte("ab\nc"), Len: 5}, {Type: "message", Data: []byte("e"), Len: 1}}},
		{"a line of 3 MiB", "data: " + long + "\r\n\r\n", 1 << 10, []Event{{Type: "message", Data: []byte(long[:1<<10]), Len: 3 << 20}}},
		{"an event type of 3 MiB", "event: " + long + "\ndata: a\n\n", 1 << 10, []Event{{Type: long[:maxField], Data: []byte("a"), Len: 1}}},
		{"an id of 3 MiB", "id: " + long + "\ndata: a\n\n", 1 << 10, []Event{{Type: "message", Data: []byte("a"), Len: 1, LastEventID: long[:maxField]}}},
		{"a line of 1 MiB of invalid bytes", "data: " + strings.Repeat("\xff", 1<<20) + "\n\n", 1 << 10,
			[]Event{{Type: "message", Data: []byte(strings.Repeat("\uFFFD", 342)[:1<<10]), Len: 3 << 20}}},
		{"a comment of 3 MiB", ":" + long + "\ndata: a\n\n", 1 << 10, []Event{{Type: "message", Data: []byte("a"), Len: 1}}},
		{"a field name of 3 MiB", long + ": a\ndata: a\n\n", 1 << 10, []Event{{Type: "message", Data: []byte("a"), Len: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []Event
			p := &SSEParser{Max: c.max, Emit: func(e Event) {
				e.Data = append([]byte(nil), e.Data...)
				got = append(got, e)
			}}
			for i := 0; i < len(c.stream); i += 1 << 20 {
				p.Write([]byte(c.stream[i:min(i+1<<20, len(c.stream))]))
			}
			p.Close()
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %d events, want %d", len(got), len(c.want))
				for i := range min(len(got), len(c.want)) {
					g, w := got[i], c.want[i]
					t.Errorf("event %d: type of %d bytes, %d bytes of data, Len %d, id of %d bytes; want %d, %d, %d, %d",
						i, len(g.Type), len(g.Data), g.Len, len(g.LastEventID), len(w.Type), len(w.Data), w.Len, len(w.LastEventID))
				}
			}
			if cap(p.data) > c.max || cap(p.value) > 2*maxField {
				t.Errorf("the parser holds %d and %d bytes", cap(p.data), cap(p.value))
			}
		})
	}
}

// TestSSEMessages: the data of each event that carries a message, and an
// error for an event the stream ends in.
func TestSSEMessages(t *testing.T) {
	var got []string
	err := SSEMessages(strings.NewReader("event: endpoint\ndata: /m\n\nid: 1\ndata\n\ndata: a\n\ndata: b"), func(d []byte) { got = append(got, string(d)) })
	if !reflect.DeepEqual(got, []string{"a"}) || err == nil || !strings.Contains(err.Error(), "ends inside an event (1 bytes of data") {
		t.Errorf("%q, %v", got, err)
	}
	got = nil
	if err := SSEMessages(strings.NewReader("data: a\n\n"), func(d []byte) { got = append(got, string(d)) }); err != nil || len(got) != 1 {
		t.Errorf("%q, %v", got, err)
	}
}
