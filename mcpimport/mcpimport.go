// Package mcpimport converts recordings of MCP sessions made by other tools
// into the log jrpcld reads: envelope lines {"dir","ts","msg"}. It reads
// MCP Inspector's exports (its request history, and its network log of
// Streamable HTTP traffic), mcp-recorder's cassettes and agent-vcr's .vcr
// files, as those tools publish them.
//
// Messages keep their JSON text (member order, number spelling); each gets
// the direction the recording gives it and the time it records, where it
// records one. A time the recording gives only as a delay after a request
// (a response's latency) is added to the request's, to the nanosecond: a
// recording of a fast local server answers within microseconds, and an
// answer's time cut to the millisecond would come before its request's.
// The order is the recording's: its entries as it lists them, and what
// each holds after its request, merged by time with the entries after it.
package mcpimport

import (
	"bytes"
	"encoding/json"
	"errors"
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
	"github.com/jrpcld/jrpcld/record"
	"github.com/jrpcld/jrpcld/rpclog"
)

// Format is a recording format Read knows.
type Format string

// The formats.
const (
	Inspector   Format = "inspector"    // MCP Inspector: history export, or network log export
	MCPRecorder Format = "mcp-recorder" // mcp-recorder: a cassette (.json)
	VCR         Format = "vcr"          // agent-vcr: a .vcr recording
)

// Formats lists the formats, as named on the command line.
var Formats = []Format{Inspector, MCPRecorder, VCR}

// ParseFormat returns the format named s.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
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

// FormatError is the error of Read for a recording that is not in the
// format asked for: Pointer is a JSON pointer to what is wrong.
type FormatError struct {
	Format  Format
	Pointer string
	Msg     string
}

func (e *FormatError) Error() string {
	at := e.Pointer
	if at == "" {
		at = "/"
	}
	return fmt.Sprintf("not %s: %s (at %s)", describe(e.Format), e.Msg, at)
}

func describe(f Format) string {
	switch f {
	case Inspector:
		return "an MCP Inspector export (a JSON array of its history or network log entries)"
	case MCPRecorder:
		return "an mcp-recorder cassette (a JSON object with \"interactions\")"
	}
	return "an agent-vcr recording (a JSON object with \"session\")"
}

// Read reads a recording in format f from r and returns its messages in
// the order they were sent, as far as the recording tells it. Parts of the
// recording that hold no message are skipped; the warnings name those it
// cannot read (with a JSON pointer). The error is an I/O error, a
// *FormatError, the JSON syntax error of a recording that is not JSON, or
// ErrNoMessages.
func Read(r io.Reader, f Format) ([]Entry, []diag.Diagnostic, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if err := checkUTF8(data); err != nil {
		return nil, nil, err
	}
	var doc json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, jsonError(data, err)
	}
	rd := &reader{format: f}
	switch f {
	case Inspector:
		err = rd.inspector(doc)
	case MCPRecorder:
		err = rd.cassette(doc)
	case VCR:
		err = rd.vcr(doc)
	default:
		_, err = ParseFormat(string(f))
	}
	if err != nil {
		return nil, rd.warns, err
	}
	es := rd.ordered()
	if len(es) == 0 {
		return nil, rd.warns, ErrNoMessages
	}
	return es, rd.warns, nil
}

// ErrNoMessages is the error of Read for a recording of the right format
// that holds no message: an empty log would be written, which no reader
// of logs takes for one.
var ErrNoMessages = errors.New("the recording holds no MCP message: nothing to import")

// Write writes entries to w as envelope lines.
func Write(w io.Writer, entries []Entry) error {
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

// checkUTF8 reports where data is not UTF-8, which JSON text must be:
// encoding/json passes such bytes through in the messages it leaves as
// text, and the log they would go into could not be read.
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	i := 0
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	line := 1 + bytes.Count(data[:i], []byte("\n"))
	col := i - bytes.LastIndexByte(data[:i], '\n')
	return fmt.Errorf("line %d, column %d: not JSON: byte %#02x is not UTF-8, which JSON text must be (convert the recording to UTF-8 first, e.g. with iconv)", line, col, data[i])
}

// jsonError says where a recording that is not JSON goes wrong.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("line %d: not JSON: %v", line, se)
	}
	return fmt.Errorf("not JSON: %v", err)
}

// reader collects the messages of one recording, exchange by exchange: an
// exchange is what the recording keeps as one entry (a request, what the
// server sent while it was open, and its answer).
type reader struct {
	format    Format
	exchanges []exchange
	warns     []diag.Diagnostic
}

// exchange is one entry of a recording: its messages in the recording's
// order, the first one its lead (the request), and a JSON pointer to it.
type exchange struct {
	ptr  string
	msgs []Entry
}

func (rd *reader) warn(ptr, format string, args ...any) {
	rd.warns = append(rd.warns, diag.Diagnostic{Pointer: ptr, Severity: diag.Warning, Message: fmt.Sprintf(format, args...)})
}

func (rd *reader) fail(ptr, format string, args ...any) error {
	return &FormatError{Format: rd.format, Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
}

// begin starts the exchange of the recording's entry at ptr: the messages
// added next belong to it.
func (rd *reader) begin(ptr string) {
	rd.exchanges = append(rd.exchanges, exchange{ptr: ptr})
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
	if len(rd.exchanges) == 0 {
		rd.begin("")
	}
	x := &rd.exchanges[len(rd.exchanges)-1]
	if d := depth(v) + 1; d > rpclog.DefaultMaxDepth {
		rd.warn(x.ptr, "a message nested %d levels deep in its log line: read the log with --max-depth %d or more", d, d)
	}
	if n := len(v) + 64 + len(ts); n > rpclog.DefaultMaxLineBytes {
		rd.warn(x.ptr, "a message of %d bytes: read the log with --max-line-bytes %d or more", len(v), n)
	}
	x.msgs = append(x.msgs, Entry{Dir: dir, TS: ts, Msg: v})
}

// ordered returns the messages in the order they were sent, as far as the
// recording tells it. The exchanges' leads keep the recording's order,
// whatever their times say (a clock set back is no reason to reorder what
// was recorded in sequence). Every other message comes after its lead, and
// after the later leads sent before it, by the times the recording gives
// at their full precision: a message with no time of its own, or one
// earlier than its lead's (with a warning), is taken at its lead's time;
// ties keep the recording's order. Where times cannot be compared (one
// missing, or some with a zone and some without), the recording's order
// is kept.
func (rd *reader) ordered() []Entry {
	var xs []exchange
	for _, x := range rd.exchanges {
		if len(x.msgs) > 0 {
			xs = append(xs, x)
		}
	}
	clock := newClock(xs)
	type follower struct {
		e  Entry
		t  time.Time
		ok bool
	}
	gaps := make([][]follower, len(xs)) // gaps[i]: what goes between lead i and lead i+1
	lead := make([]time.Time, len(xs))
	leadOK := make([]bool, len(xs))
	for i, x := range xs {
		lead[i], leadOK[i] = clock.at(x.msgs[0].TS)
	}
	for i, x := range xs {
		for _, m := range x.msgs[1:] {
			t, ok := clock.at(m.TS)
			switch {
			case !ok:
				t, ok = lead[i], leadOK[i]
			case leadOK[i] && t.Before(lead[i]):
				rd.warn(x.ptr, "a message recorded at %s, before the message it answers or follows (%s): kept after it", m.TS, x.msgs[0].TS)
				t = lead[i]
			}
			g := i
			for ok && g+1 < len(xs) && leadOK[g+1] && lead[g+1].Before(t) {
				g++
			}
			gaps[g] = append(gaps[g], follower{m, t, ok})
		}
	}
	out := make([]Entry, 0, len(xs))
	for i, x := range xs {
		out = append(out, x.msgs[0])
		gap := gaps[i]
		if !slices.ContainsFunc(gap, func(f follower) bool { return !f.ok }) {
			slices.SortStableFunc(gap, func(a, b follower) int { return a.t.Compare(b.t) })
		}
		for _, f := range gap {
			out = append(out, f.e)
		}
	}
	return out
}

// clock reads the times of one recording's messages, so that they can be
// compared: times with a zone, or times without one, not both.
type clock struct{ zoned, naive bool }

func newClock(xs []exchange) clock {
	var c clock
	for _, x := range xs {
		for _, m := range x.msgs {
			if _, err := time.Parse(time.RFC3339Nano, m.TS); err == nil {
				c.zoned = true
			} else if _, err := time.Parse(naiveLayout, m.TS); err == nil {
				c.naive = true
			}
		}
	}
	return c
}

// at returns the time ts, and whether it can be compared with the others.
func (c clock) at(ts string) (time.Time, bool) {
	if c.zoned && c.naive {
		return time.Time{}, false
	}
	return parseTime(ts)
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
