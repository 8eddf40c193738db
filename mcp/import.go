package mcp

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp/record"
)

// Recorder is a recording format ReadRecording knows.
type Recorder string

// The formats.
const (
	Inspector   Recorder = "inspector"    // MCP Inspector: history export, or network log export
	MCPRecorder Recorder = "mcp-recorder" // mcp-recorder: a cassette (.json)
	VCR         Recorder = "vcr"          // agent-vcr: a .vcr recording
)

// Recorders lists the formats, as named on the command line.
var Recorders = []Recorder{Inspector, MCPRecorder, VCR}

// ParseRecorder returns the format named s.
func ParseRecorder(s string) (Recorder, error) {
	for _, f := range Recorders {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q: give inspector, mcp-recorder or vcr", s)
}

// Entry is one message of a session: its direction, its time as the
// recording wrote it ("" when it records none) and its JSON text (or, for
// text the recording holds that is not JSON, that text).
type Entry struct {
	Dir jsonrpc.Direction
	TS  string
	Msg []byte
}

func describe(f Recorder) string {
	switch f {
	case Inspector:
		return "an MCP Inspector export (a JSON array of its history or network log entries)"
	case MCPRecorder:
		return "an mcp-recorder cassette (a JSON object with \"interactions\")"
	}
	return "an agent-vcr recording (a JSON object with \"session\")"
}

// ReadRecording reads a recording in format f from r and returns its messages in
// the order they were sent, as far as the recording tells it. Parts of the
// recording that hold no message are skipped; the warnings name those it
// cannot read (with a JSON pointer). The error is an I/O error, a
// *RecordingError, the JSON syntax error of a recording that is not JSON, or
// ErrNoMessages.
func ReadRecording(r io.Reader, f Recorder) ([]Entry, []diag.Diagnostic, error) {
	var es []Entry
	var warns []diag.Diagnostic
	err := read(r, f, func(e Entry) error {
		es = append(es, e)
		return nil
	}, func(d diag.Diagnostic) { warns = append(warns, d) }, maxWaiting)
	if err != nil {
		return nil, warns, err
	}
	return es, warns, nil
}

// ConvertRecording reads a recording as ReadRecording does and writes its messages to w as
// envelope lines, as it reads them: memory holds one entry of the
// recording and the answers that wait for the requests sent before them,
// not the recording. warn is called with each warning. On an error, what
// was written is to be thrown away.
func ConvertRecording(w io.Writer, r io.Reader, f Recorder, warn func(diag.Diagnostic)) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b bytes.Buffer
	err := read(r, f, func(e Entry) error {
		b.Reset()
		record.WriteEnvelope(&b, e.Dir, e.TS, e.Msg)
		_, err := bw.Write(b.Bytes())
		return err
	}, warn, maxWaiting)
	if err != nil {
		return err
	}
	return bw.Flush()
}

// read reads a recording, calling emit with each message in order and
// warn with each warning; at most waiting bytes of messages wait for
// their time (see orderer).
func read(r io.Reader, f Recorder, emit func(Entry) error, warn func(diag.Diagnostic), waiting int) error {
	rd := &reader{format: f, warnf: warn, ord: orderer{emit: emit, limit: waiting}}
	s := newScanner(r)
	var err error
	switch f {
	case Inspector:
		err = rd.inspector(s)
	case MCPRecorder:
		err = rd.cassette(s)
	case VCR:
		err = rd.vcr(s)
	default:
		_, err = ParseRecorder(string(f))
		return err
	}
	if err == nil {
		err = s.end()
	}
	if err == nil {
		rd.flush()
		err = cmp.Or(rd.err, rd.ord.end(rd))
	}
	if err == nil && rd.ord.n == 0 {
		err = ErrNoMessages
	}
	return err
}

// WriteLog writes entries to w as envelope lines.
func WriteLog(w io.Writer, entries []Entry) error {
	var b bytes.Buffer
	for _, e := range entries {
		record.WriteEnvelope(&b, e.Dir, e.TS, e.Msg)
		if b.Len() >= 64<<10 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// reader reads the messages of one recording, entry by entry: each entry
// is an exchange (a request, what was sent while it was open, and its
// answer), handed to the orderer once read.
type reader struct {
	format Recorder
	warnf  func(diag.Diagnostic)
	cur    exchange // the exchange being read
	ord    orderer
	err    error // of writing a message: the end of the run
}

// exchange is one entry of a recording: its messages in the recording's
// order, the first one its lead (the request), and a JSON pointer to it.
type exchange struct {
	ptr  string
	msgs []Entry
}

func (rd *reader) warn(ptr, format string, args ...any) {
	rd.warnf(diag.Diagnostic{Pointer: ptr, Severity: diag.Warning, Message: fmt.Sprintf(format, args...)})
}

func (rd *reader) fail(ptr, format string, args ...any) error {
	return &RecordingError{Recorder: rd.format, Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
}

// begin starts the exchange of the recording's entry at ptr: the messages
// added next belong to it.
func (rd *reader) begin(ptr string) {
	rd.flush()
	rd.cur = exchange{ptr: ptr}
}

// flush hands the exchange read to the orderer.
func (rd *reader) flush() {
	if len(rd.cur.msgs) > 0 && rd.err == nil {
		rd.err = rd.ord.exchange(rd, rd.cur)
	}
	rd.cur.msgs = nil
}

// add adds the message v (JSON text; a JSON string holding the text of a
// message is taken for that message) sent in direction dir at ts to the
// current exchange. null and an absent value add nothing.
func (rd *reader) add(dir jsonrpc.Direction, ts string, v json.RawMessage) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			if t := bytes.TrimSpace([]byte(s)); json.Valid(t) && (t[0] == '{' || t[0] == '[') {
				v = t
			} else {
				v = []byte(s) // text that is not a message: kept as text
			}
		}
	}
	if d := depth(v) + 1; d > rpclog.DefaultMaxDepth {
		rd.warn(rd.cur.ptr, "a message nested %d levels deep in its log line: read the log with --max-depth %d or more", d, d)
	}
	if n := len(v) + 64 + len(ts); n > rpclog.DefaultMaxLineBytes {
		rd.warn(rd.cur.ptr, "a message of %d bytes: read the log with --max-line-bytes %d or more", len(v), n)
	}
	rd.cur.msgs = append(rd.cur.msgs, Entry{Dir: dir, TS: ts, Msg: v})
}

// orderer writes the messages of a recording's exchanges in the order
// they were sent, as far as the recording tells it, as they come. The
// leads keep the recording's order, whatever their times say (a clock set
// back is no reason to reorder what was recorded in sequence). Every other
// message comes after its lead, and after the later leads sent before it,
// by the times the recording gives at their full precision: a message
// with no time of its own, or one earlier than its lead's (with a
// warning), is taken at its lead's time; ties keep the recording's order.
// Where times cannot be compared (one missing, or with a zone where the
// first time had none, or the other way round), the recording's order is
// kept. A message waits while its time is later than the last lead's, in
// a heap by time; past maxWaiting bytes of them, the earliest are written
// before the next lead, with a warning.
type orderer struct {
	emit    func(Entry) error
	limit   int // maxWaiting
	n       int // messages written
	seq     int // followers taken
	zoned   int // 1: the recording's times have a zone, -1: they have none, 0: none read yet
	mixed   bool
	waiting followers  // by time, then seq
	bytes   int        // the size of the messages waiting
	loose   []follower // those without a time, which wait for the next lead
	over    bool       // maxWaiting was passed (warned once)
}

// maxWaiting bounds the bytes of the messages that wait for their time.
const maxWaiting = 64 << 20

// follower is a message that is not its exchange's lead, its time, and
// its place in the recording.
type follower struct {
	e   Entry
	t   time.Time
	seq int
}

// followers is a heap of followers, the earliest (then first taken) on top.
type followers []follower

func (h followers) Len() int { return len(h) }
func (h followers) Less(i, j int) bool {
	if c := h[i].t.Compare(h[j].t); c != 0 {
		return c < 0
	}
	return h[i].seq < h[j].seq
}
func (h followers) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *followers) Push(x any)   { *h = append(*h, x.(follower)) }
func (h *followers) Pop() any {
	old := *h
	f := old[len(old)-1]
	*h = old[:len(old)-1]
	return f
}

// exchange writes what can be written once the exchange x is read: the
// waiting messages sent before its lead, then its lead; its other messages
// wait.
func (o *orderer) exchange(rd *reader, x exchange) error {
	lead, leadOK := o.at(rd, x.ptr, x.msgs[0].TS)
	if o.bytes > o.limit && !o.over {
		o.over = true
		rd.warn(x.ptr, "more than %d bytes of messages wait for the requests sent before them: from here on, the earliest are written before the next request when they pass that, whatever their time", o.limit)
	}
	var gap []follower
	for o.waiting.Len() > 0 && (!leadOK || !lead.Before(o.waiting[0].t) || o.bytes > o.limit) {
		f := heap.Pop(&o.waiting).(follower)
		o.bytes -= len(f.e.Msg)
		gap = append(gap, f)
	}
	if err := o.write(gap); err != nil {
		return err
	}
	if err := o.emit(x.msgs[0]); err != nil {
		return err
	}
	o.n++
	for _, m := range x.msgs[1:] {
		o.seq++
		t, ok := o.at(rd, x.ptr, m.TS)
		switch {
		case !ok && !leadOK:
			o.loose = append(o.loose, follower{e: m, seq: o.seq})
			continue
		case !ok:
			t = lead
		case leadOK && t.Before(lead):
			rd.warn(x.ptr, "a message recorded at %s, before the message it answers or follows (%s): kept after it", m.TS, x.msgs[0].TS)
			t = lead
		}
		heap.Push(&o.waiting, follower{e: m, t: t, seq: o.seq})
		o.bytes += len(m.Msg)
	}
	return nil
}

// end writes the messages still waiting.
func (o *orderer) end(rd *reader) error {
	var gap []follower
	for o.waiting.Len() > 0 {
		gap = append(gap, heap.Pop(&o.waiting).(follower))
	}
	return o.write(gap)
}

// write writes the messages of one gap between leads, gap (in order of
// time) and those without a time: by time when none is without one,
// otherwise in the recording's order.
func (o *orderer) write(gap []follower) error {
	if len(o.loose) > 0 {
		gap = append(gap, o.loose...)
		o.loose = o.loose[:0]
		slices.SortFunc(gap, func(a, b follower) int { return a.seq - b.seq })
	}
	for _, f := range gap {
		if err := o.emit(f.e); err != nil {
			return err
		}
		o.n++
	}
	return nil
}

// at returns the time ts, and whether it can be compared with the others
// of the recording: those of the kind (with a zone, or without) of the
// first one read. The first of another kind is a warning at ptr.
func (o *orderer) at(rd *reader, ptr, ts string) (time.Time, bool) {
	t, ok := parseTime(ts)
	if !ok {
		return t, false
	}
	kind := -1
	if _, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		kind = 1
	}
	switch {
	case o.zoned == 0:
		o.zoned = kind
	case o.zoned != kind:
		if !o.mixed {
			o.mixed = true
			rd.warn(ptr, "the time %s has %s zone, unlike the recording's first: times of its kind are not compared with the others, and keep the recording's order", ts, map[int]string{1: "a", -1: "no"}[kind])
		}
		return t, false
	}
	return t, true
}

// The layouts of the times recordings write: RFC 3339 (JavaScript's
// toISOString, Python's isoformat with a zone) and Python's isoformat of a
// time without a zone.
const naiveLayout = "2006-01-02T15:04:05.999999999"

func parseTime(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(naiveLayout, s); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// after returns the time ms milliseconds after ts, to the nanosecond,
// written as ts is (with its zone, or without one) with as many digits of
// fraction as ts has (three at least) and more where the sum needs them;
// "" when ts cannot be read or ms is absent. An ms that is not a number of
// milliseconds from 0 to 10^12 is "", with a warning at ptr.
func (rd *reader) after(ptr, ts string, ms json.RawMessage) string {
	s := string(bytes.TrimSpace(ms))
	t, ok := parseTime(ts)
	if !ok || s == "" || s == "null" {
		return ""
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !json.Valid(ms) || !(f >= 0 && f <= 1e12) {
		rd.warn(ptr, "%s is not a latency in milliseconds: the answer is given its request's time", clip(s))
		return ""
	}
	t = t.Add(time.Duration(math.Round(f * 1e6)))
	out := t.Format("2006-01-02T15:04:05.000000000")
	keep := len(out) - 9 + max(3, fractionDigits(ts))
	for len(out) > keep && out[len(out)-1] == '0' {
		out = out[:len(out)-1]
	}
	if _, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		out += t.Format("Z07:00")
	}
	return out
}

// fractionDigits returns the number of digits of ts's fraction of a second.
func fractionDigits(ts string) int {
	i := strings.IndexByte(ts, '.')
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range ts[i+1:] {
		if c < '0' || c > '9' {
			break
		}
		n++
	}
	return n
}

// depth returns how deep arrays and objects nest in the JSON text v.
func depth(v []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			deepest = max(deepest, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

// clip returns s, cut short with an ellipsis past 40 bytes, for a message.
func clip(s string) string {
	if len(s) > 40 {
		i := 40
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		return s[:i] + "..."
	}
	return s
}

// object decodes v as a JSON object of raw members; ok is false when it is
// not one. A member named twice is a warning at ptr: the last is read.
func (rd *reader) object(ptr string, v json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		return nil, false
	}
	if name, ok := twice(v); ok {
		rd.warn(ptr+"/"+jsonptr.Escape(name), "%q is named twice in this object: only the last is read", name)
	}
	return m, true
}

// twice returns the first member name the JSON object v holds twice.
func twice(v json.RawMessage) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(v))
	if _, err := d.Token(); err != nil {
		return "", false
	}
	seen := map[string]bool{}
	var skip json.RawMessage
	for d.More() {
		tok, err := d.Token()
		name, _ := tok.(string)
		if err != nil || d.Decode(&skip) != nil {
			return "", false
		}
		if seen[name] {
			return name, true
		}
		seen[name] = true
	}
	return "", false
}

// array decodes v as a JSON array; ok is false when it is not one.
func array(v json.RawMessage) ([]json.RawMessage, bool) {
	var a []json.RawMessage
	if err := json.Unmarshal(v, &a); err != nil || a == nil {
		return nil, false
	}
	return a, true
}

// list returns the messages of m's member name, an array of them; a value
// that is not an array is one message, with a warning.
func (rd *reader) list(ptr string, m map[string]json.RawMessage, name string) []json.RawMessage {
	v, ok := m[name]
	if !ok || isNull(v) {
		return nil
	}
	if a, ok := array(v); ok {
		return a
	}
	rd.warn(ptr+"/"+jsonptr.Escape(name), "not an array: read as one message")
	return []json.RawMessage{v}
}

// text returns the string m's member name holds; "" when it has none, and
// a warning when it holds something else.
func (rd *reader) text(ptr string, m map[string]json.RawMessage, name, what string) string {
	v, ok := m[name]
	if !ok || isNull(v) {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		rd.warn(ptr+"/"+jsonptr.Escape(name), "%s is not %s", clip(string(bytes.TrimSpace(v))), what)
	}
	return s
}

// body returns the HTTP body m's member name holds: its text, or the JSON
// text of a body recorded as a JSON value rather than a string.
func body(m map[string]json.RawMessage, name string) string {
	v := bytes.TrimSpace(m[name])
	if len(v) == 0 || isNull(v) {
		return ""
	}
	if v[0] == '"' {
		return str(v)
	}
	return string(v)
}

// str returns the string v holds, or "".
func str(v json.RawMessage) string {
	var s string
	json.Unmarshal(v, &s)
	return s
}

func isNull(v json.RawMessage) bool {
	return string(bytes.TrimSpace(v)) == "null"
}

// has reports whether m has a member with one of names that is not null.
func has(m map[string]json.RawMessage, names ...string) bool {
	return slices.ContainsFunc(names, func(n string) bool {
		v, ok := m[n]
		return ok && strings.TrimSpace(string(v)) != "null"
	})
}
