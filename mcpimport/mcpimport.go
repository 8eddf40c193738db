// Package mcpimport converts recordings of MCP sessions made by other tools
// into the log jrpcld reads: envelope lines {"dir","ts","msg"}. It reads
// MCP Inspector's exports (its request history, and its network log of
// Streamable HTTP traffic), mcp-recorder's cassettes and agent-vcr's .vcr
// files, as those tools publish them.
//
// Messages keep their JSON text (member order, number spelling); each gets
// the direction the recording gives it and the time it records, where it
// records one. A time the recording gives only as a delay after a request
// (a response's latency) is added to the request's.
package mcpimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/record"
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

// reader collects the entries of one recording.
type reader struct {
	format  Format
	entries []Entry
	warns   []diag.Diagnostic
}

func (rd *reader) warn(ptr, format string, args ...any) {
	rd.warns = append(rd.warns, diag.Diagnostic{Pointer: ptr, Severity: diag.Warning, Message: fmt.Sprintf(format, args...)})
}

func (rd *reader) fail(ptr, format string, args ...any) error {
	return &FormatError{Format: rd.format, Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
}

// add adds the message v (JSON text; a JSON string holding the text of a
// message is taken for that message) sent in direction dir at ts. null and
// an absent value add nothing.
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
	rd.entries = append(rd.entries, Entry{Dir: dir, TS: ts, Msg: v})
}

// ordered returns the entries by time when every one has a time that can be
// read, keeping the recording's order among equal times; otherwise in the
// recording's order.
func (rd *reader) ordered() []Entry {
	times := make([]time.Time, len(rd.entries))
	for i, e := range rd.entries {
		t, ok := parseTime(e.TS)
		if !ok {
			return rd.entries
		}
		times[i] = t
	}
	idx := make([]int, len(rd.entries))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return times[idx[a]].Before(times[idx[b]]) })
	out := make([]Entry, len(idx))
	for i, j := range idx {
		out[i] = rd.entries[j]
	}
	return out
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

// after returns the time ms milliseconds after ts, written as ts is (with
// its zone, or without one), to the millisecond; "" when ts cannot be read
// or ms is not a number.
func after(ts string, ms json.RawMessage) string {
	t, ok := parseTime(ts)
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(ms)), 64)
	if !ok || err != nil || f < 0 || f > 1e12 {
		return ""
	}
	t = t.Add(time.Duration(f * float64(time.Millisecond)))
	if _, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t.Format("2006-01-02T15:04:05.000Z07:00")
	}
	return t.Format("2006-01-02T15:04:05.000")
}

// object decodes v as a JSON object of raw members; ok is false when it is
// not one.
func object(v json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

// array decodes v as a JSON array; ok is false when it is not one.
func array(v json.RawMessage) ([]json.RawMessage, bool) {
	var a []json.RawMessage
	if err := json.Unmarshal(v, &a); err != nil || a == nil {
		return nil, false
	}
	return a, true
}

// str returns the string v holds, or "".
func str(v json.RawMessage) string {
	var s string
	json.Unmarshal(v, &s)
	return s
}

// has reports whether m has a member with one of names that is not null.
func has(m map[string]json.RawMessage, names ...string) bool {
	return slices.ContainsFunc(names, func(n string) bool {
		v, ok := m[n]
		return ok && strings.TrimSpace(string(v)) != "null"
	})
}
