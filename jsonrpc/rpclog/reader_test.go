package rpclog

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// lrGot is a Record copied out of the Reader (Raw is only valid until Next).
type lrGot struct {
	line          int
	raw           string
	value         any
	dir, ts       string
	session       string
	dirRaw, tsRaw string
	problems      []diag.Diagnostic
	warnings      []diag.Diagnostic
	lones         []diag.Diagnostic
	bytes         bool
	err           *diag.Diagnostic
}

// lrReadAll reads every record of input and returns them with the final
// error from Next (nil when the input ended with io.EOF).
func lrReadAll(t testing.TB, input []byte, opts ReaderOptions) ([]lrGot, *Reader, error) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(input), "in.jsonl", opts)
	if err != nil {
		return nil, nil, err
	}
	var out []lrGot
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, r, nil
		}
		if err != nil {
			return out, r, err
		}
		out = append(out, gotOf(t, rec))
		if len(out) > len(input)+1 {
			t.Fatalf("more records than input bytes: the reader does not advance")
		}
	}
}

// lrDecodeStd decodes JSON text with encoding/json and UseNumber: the
// independent reference for the values the reader must produce.
func lrDecodeStd(t testing.TB, text string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("reference decode of %q: %v", text, err)
	}
	return v
}

// lrWant is one expected record: a message (raw set) or an error (code set).
type lrWant struct {
	line          int
	raw           string // the message text; its value is checked against encoding/json
	dir, ts       string
	session       string   // the envelope's "session"
	dirRaw, tsRaw string   // envelope members kept as JSON text
	problem       string   // substring of the envelope's one problem, if any
	dups          []string // pointers of the members named twice, in the order of the warnings
	lones         []string // pointers of the strings with a lone surrogate escape, in text order
	tsLone        bool     // the envelope's "ts" holds a lone surrogate escape: one warning
	col           int      // error column
	code          int      // error code; 0 for a message
	msg           string   // substring of the error message
	bytes         bool     // an error record that keeps raw, an envelope's "bytes", with its dir and ts
}

// lrMsg, lrEnv and lrBad build expected records: a bare message, an
// envelope, an error.
func lrMsg(line int, raw string) lrWant { return lrWant{line: line, raw: raw} }

func lrEnv(line int, dir, ts, raw string) lrWant {
	return lrWant{line: line, raw: raw, dir: dir, ts: ts}
}

func lrBad(line, col, code int, msg string) lrWant {
	return lrWant{line: line, col: col, code: code, msg: msg}
}

// lrCheck compares records with the expected ones; message values are
// compared with what encoding/json makes of the expected text.
func lrCheck(t *testing.T, gots []lrGot, wants []lrWant) {
	t.Helper()
	if len(gots) != len(wants) {
		for _, g := range gots {
			t.Logf("got line %d raw %q err %v", g.line, g.raw, g.err)
		}
		t.Fatalf("got %d records, want %d", len(gots), len(wants))
	}
	for i, w := range wants {
		g := gots[i]
		if g.line != w.line {
			t.Errorf("record %d: line %d, want %d", i, g.line, w.line)
		}
		if w.code != 0 {
			if g.err == nil {
				t.Errorf("record %d: no error, want code %d %q (value %v)", i, w.code, w.msg, g.value)
				continue
			}
			if g.value != nil {
				t.Errorf("record %d: error record has a value %v", i, g.value)
			}
			e := g.err
			if e.Code != w.code || e.Line != w.line || e.Column != w.col || !strings.Contains(e.Message, w.msg) || e.File != "in.jsonl" {
				t.Errorf("record %d: error %+v, want line %d col %d code %d msg containing %q", i, e, w.line, w.col, w.code, w.msg)
			}
			if g.bytes != w.bytes || w.bytes && (g.raw != w.raw || g.dir != w.dir || g.ts != w.ts) {
				t.Errorf("record %d: bytes %v raw %q dir %q ts %q, want %v %q %q %q", i, g.bytes, g.raw, g.dir, g.ts, w.bytes, w.raw, w.dir, w.ts)
			}
			continue
		}
		if g.bytes {
			t.Errorf("record %d: a message read from JSON text has Bytes set", i)
		}
		if g.err != nil {
			t.Errorf("record %d: unexpected error %v", i, g.err)
			continue
		}
		if g.raw != w.raw {
			t.Errorf("record %d: raw %q, want %q", i, g.raw, w.raw)
		}
		if wv := lrDecodeStd(t, w.raw); !reflect.DeepEqual(g.value, wv) {
			t.Errorf("record %d: value %#v, want %#v", i, g.value, wv)
		}
		if g.session != w.session {
			t.Errorf("record %d: session %q, want %q", i, g.session, w.session)
		}
		if g.dir != w.dir || g.ts != w.ts || g.dirRaw != w.dirRaw || g.tsRaw != w.tsRaw {
			t.Errorf("record %d: dir %q ts %q raw dir %q raw ts %q, want %q %q %q %q", i, g.dir, g.ts, g.dirRaw, g.tsRaw, w.dir, w.ts, w.dirRaw, w.tsRaw)
		}
		switch {
		case w.problem == "" && len(g.problems) > 0:
			t.Errorf("record %d: problems %v, want none", i, g.problems)
		case w.problem != "" && (len(g.problems) != 1 || !strings.Contains(g.problems[0].Message, w.problem) || g.problems[0].Line != w.line):
			t.Errorf("record %d: problems %v, want one on line %d containing %q", i, g.problems, w.line, w.problem)
		}
		var ptrs []string
		warnings := g.warnings
		if w.tsLone {
			if len(warnings) == 0 || warnings[0].Pointer != "/ts" || !strings.Contains(warnings[0].Message, "lone UTF-16 surrogate") ||
				warnings[0].Severity != diag.Warning || warnings[0].Line != w.line {
				t.Errorf("record %d: warnings %+v, want one about the lone surrogate of \"ts\" first", i, warnings)
			} else {
				warnings = warnings[1:]
			}
		}
		for _, d := range warnings {
			ptrs = append(ptrs, d.Pointer)
			if d.Severity != diag.Warning || d.File != "in.jsonl" || d.Line != w.line || !strings.Contains(d.Message, "appears") {
				t.Errorf("record %d: warning %+v, want a duplicate member warning on line %d", i, d, w.line)
			}
		}
		if !reflect.DeepEqual(ptrs, w.dups) {
			t.Errorf("record %d: duplicate members at %q, want %q", i, ptrs, w.dups)
		}
		ptrs = nil
		for _, d := range g.lones {
			ptrs = append(ptrs, d.Pointer)
			if d.Severity != diag.Error || d.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(d.Message, "lone UTF-16 surrogate \\u") {
				t.Errorf("record %d: %+v, want an error about a lone surrogate", i, d)
			}
		}
		if !reflect.DeepEqual(ptrs, w.lones) {
			t.Errorf("record %d: lone surrogates at %q, want %q", i, ptrs, w.lones)
		}
	}
}

// lrGzip returns data gzip-compressed.
func lrGzip(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const (
	lrPE = codeParseError
	lrIE = codeInvalidMessage
)

var lrCases = []struct {
	name    string
	in      string
	opts    ReaderOptions
	partial bool // reading stops before the end of the input
	want    []lrWant
}{
	// An input without a message is one error record, on no line.
	{name: "empty", in: "",
		want: []lrWant{lrBad(0, 0, lrPE, "empty input")}},
	{name: "only blank lines", in: "\n  \r\n\t\n\n",
		want: []lrWant{lrBad(0, 0, lrPE, "empty input: only white space, no JSON-RPC message")}},
	{name: "only a byte order mark", in: "\xef\xbb\xbf",
		want: []lrWant{lrBad(0, 0, lrPE, "empty input")}},
	// A UTF-8 byte order mark is skipped; UTF-16 and UTF-32 are one error
	// record, with or without a byte order mark.
	{name: "UTF-8 byte order mark",
		in:   "\xef\xbb\xbf{\"a\":1}\n{\"b\":2}\n",
		want: []lrWant{lrMsg(1, `{"a":1}`), lrMsg(2, `{"b":2}`)}},
	{name: "UTF-8 byte order mark before a document",
		in:   "\xef\xbb\xbf{\n \"a\": 1\n}\n",
		want: []lrWant{lrMsg(1, "{\n \"a\": 1\n}")}},
	{name: "UTF-16 LE with a byte order mark", in: lrUTF("\ufeff{\"a\":1}\n", "UTF-16LE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "the log is UTF-16 LE (it starts with the UTF-16 byte order mark): jrpcld reads UTF-8; convert it first (iconv -f UTF-16LE -t UTF-8)")}},
	{name: "UTF-16 BE with a byte order mark", in: lrUTF("\ufeff{\"a\":1}\n", "UTF-16BE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-16 BE (it starts with the UTF-16 byte order mark)")}},
	{name: "UTF-16 LE", in: lrUTF("{\"a\":1}\n{\"b\":2}\n", "UTF-16LE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-16 LE (a NUL byte follows the first character)")}},
	{name: "UTF-16 BE", in: lrUTF("\n{\"a\":1}\n", "UTF-16BE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-16 BE (it starts with a NUL byte)")}},
	{name: "UTF-16 LE, one character", in: lrUTF("1", "UTF-16LE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-16 LE")}},
	{name: "UTF-32 LE with a byte order mark", in: lrUTF("\ufeff[]", "UTF-32LE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-32 LE (it starts with the UTF-32 byte order mark): jrpcld reads UTF-8; convert it first (iconv -f UTF-32LE -t UTF-8)")}},
	{name: "UTF-32 BE with a byte order mark", in: lrUTF("\ufeff[]", "UTF-32BE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-32 BE (it starts with the UTF-32 byte order mark)")}},
	{name: "UTF-32 LE", in: lrUTF("[1]\n", "UTF-32LE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-32 LE (a NUL byte follows the first character)")}},
	{name: "UTF-32 BE", in: lrUTF("[1]\n", "UTF-32BE"), partial: true,
		want: []lrWant{lrBad(0, 0, lrPE, "UTF-32 BE (it starts with a NUL byte)")}},
	{name: "NUL bytes later are a syntax error of their line",
		in:   "{\"a\":1}\n{\x00}\n",
		want: []lrWant{lrMsg(1, `{"a":1}`), lrBad(2, 2, lrPE, "invalid character '\\x00'")}},
	// A member named twice is a warning with its pointer; the last value
	// is kept, as encoding/json keeps it (lrCheck compares the values).
	{name: "duplicate members",
		in: `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}` + "\n" +
			`{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2,"a":3,"b/c":0,"b/c":1}}}` + "\n" +
			`[{"jsonrpc":"2.0","method":"m"},{"jsonrpc":"2.0","method":"m","method":"n"}]` + "\n" +
			`{"dir":"c2s","dir":"s2c","msg":{"jsonrpc":"2.0","method":"m"}}` + "\n" +
			`{"jsonrpc":"2.0","method":"m","params":{"a":{"x":1},"b":{"x":1}}}` + "\n",
		want: []lrWant{
			{line: 1, raw: `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`, dups: []string{"/id"}},
			{line: 2, raw: `{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2,"a":3,"b/c":0,"b/c":1}}`, dir: "c2s", dups: []string{"/params/a", "/params/b~1c"}},
			{line: 3, raw: `[{"jsonrpc":"2.0","method":"m"},{"jsonrpc":"2.0","method":"m","method":"n"}]`, dups: []string{"/1/method"}},
			{line: 4, raw: `{"jsonrpc":"2.0","method":"m"}`, dir: "s2c", dups: []string{"/dir"}},
			lrMsg(5, `{"jsonrpc":"2.0","method":"m","params":{"a":{"x":1},"b":{"x":1}}}`)}},
	{name: "duplicate members in a document",
		in:   "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"id\": 2\n}\n",
		want: []lrWant{{line: 1, raw: "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"id\": 2\n}", dups: []string{"/id"}}}},
	{name: "single object without newline",
		in:   `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		want: []lrWant{lrMsg(1, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)}},
	{name: "pretty-printed object",
		in:   "\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"ping\"\n}\n",
		want: []lrWant{lrMsg(2, "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"ping\"\n}")}},
	{name: "pretty-printed array is one batch",
		in:   "[\n  {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"a\"},\n  {\"jsonrpc\": \"2.0\", \"method\": \"b\"}\n]\n",
		want: []lrWant{lrMsg(1, "[\n  {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"a\"},\n  {\"jsonrpc\": \"2.0\", \"method\": \"b\"}\n]")}},
	{name: "stream of documents",
		in:   "{\n \"a\": 1\n}\n\n[\n 2\n] {\"b\":\n3}\n\"s\"",
		want: []lrWant{lrMsg(1, "{\n \"a\": 1\n}"), lrMsg(5, "[\n 2\n]"), lrMsg(7, "{\"b\":\n3}"), lrMsg(9, `"s"`)}},
	{name: "number at the end of a document stream",
		in:   "[\n1\n]\n42",
		want: []lrWant{lrMsg(1, "[\n1\n]"), lrMsg(4, "42")}},
	{name: "first line cut inside a string is read as JSONL",
		in:   "{\"a\":\"abc\n{\"b\":1}\n",
		want: []lrWant{lrBad(1, 10, lrPE, "end of JSON input in a string"), lrMsg(2, `{"b":1}`)}},
	{name: "jsonl with a batch line",
		in:   "{\"a\":1}\n[{\"b\":2},{\"c\":3}]\n{\"d\":4}\n",
		want: []lrWant{lrMsg(1, `{"a":1}`), lrMsg(2, `[{"b":2},{"c":3}]`), lrMsg(3, `{"d":4}`)}},
	{name: "envelopes",
		in: `{"dir":"c2s","ts":"2026-01-02T03:04:05Z","msg":{"jsonrpc":"2.0","id":0,"method":"ping"}}` + "\n" +
			`{"dir":"s2c","ts":"2026-01-02T03:04:06.5Z","msg":{"jsonrpc":"2.0","id":0,"result":{}}}` + "\n",
		want: []lrWant{
			lrEnv(1, "c2s", "2026-01-02T03:04:05Z", `{"jsonrpc":"2.0","id":0,"method":"ping"}`),
			lrEnv(2, "s2c", "2026-01-02T03:04:06.5Z", `{"jsonrpc":"2.0","id":0,"result":{}}`)}},
	{name: "envelopes and bare lines mixed",
		in: `{"dir":"c2s", "msg" : {"id": 1,"method":"a"} , "ts":"t1"}` + "\n" +
			`{"jsonrpc":"2.0","method":"b","msg":"not an envelope"}` + "\n" +
			`{"msg":[{"jsonrpc":"2.0","method":"c"}]}` + "\n" +
			`{"m\u0073g":{"x":1},"extra":true}` + "\n" +
			`{"a":{"msg":1}}` + "\n",
		want: []lrWant{
			lrEnv(1, "c2s", "t1", `{"id": 1,"method":"a"}`),
			lrMsg(2, `{"jsonrpc":"2.0","method":"b","msg":"not an envelope"}`),
			lrMsg(3, `[{"jsonrpc":"2.0","method":"c"}]`),
			lrMsg(4, `{"x":1}`),
			lrMsg(5, `{"a":{"msg":1}}`)}},
	{name: "blank lines",
		in:   "\n\n{\"a\":1}\n   \n\t\n{\"b\":2}\n\n",
		want: []lrWant{lrMsg(3, `{"a":1}`), lrMsg(6, `{"b":2}`)}},
	{name: "CRLF jsonl",
		in:   "{\"a\":1}\r\n\r\n{\"b\":2}\r\n",
		want: []lrWant{lrMsg(1, `{"a":1}`), lrMsg(3, `{"b":2}`)}},
	{name: "CRLF documents",
		in:   "{\r\n  \"a\": 1\r\n}\r\n\r\n{\r\n \"b\": 2\r\n}\r\n",
		want: []lrWant{lrMsg(1, "{\r\n  \"a\": 1\r\n}"), lrMsg(5, "{\r\n \"b\": 2\r\n}")}},
	{name: "bad lines in the middle",
		in:   "{\"a\":1}\n{\"a\":\nhello\n{\"b\":2}\n",
		want: []lrWant{lrMsg(1, `{"a":1}`), lrBad(2, 6, lrPE, "unexpected end"), lrBad(3, 1, lrPE, "invalid character 'h'"), lrMsg(4, `{"b":2}`)}},
	{name: "trailing garbage",
		in:   "{\"a\":1}\n{\"a\":1} x\n{\"a\":1}{\"b\":2}\n{\"b\":2}",
		want: []lrWant{lrMsg(1, `{"a":1}`), lrBad(2, 9, lrPE, "after top-level value"), lrBad(3, 8, lrPE, "after top-level value"), lrMsg(4, `{"b":2}`)}},
	{name: "bad first line keeps reading lines",
		in:   "{\"a\":1} x\n{\"b\":2}\n",
		want: []lrWant{lrBad(1, 9, lrPE, "after top-level value"), lrMsg(2, `{"b":2}`)}},
	{name: "syntax error in document mode ends the input",
		in:      "{\n  \"a\": 1\n}\n{\n  \"b\": x\n}\n{\"c\": 3}\n",
		partial: true,
		want:    []lrWant{lrMsg(1, "{\n  \"a\": 1\n}"), lrBad(5, 8, lrPE, "invalid character 'x'")}},
	{name: "truncated document",
		in:   "[\n {\"a\": 1},\n {\"b\":\n",
		want: []lrWant{lrBad(4, 1, lrPE, "unexpected end")}},
	{name: "syntax error on a later line of a document stream",
		in:      "[1,\n 2]\n[3,\n 4,,\n 5]\n",
		partial: true,
		want:    []lrWant{lrMsg(1, "[1,\n 2]"), lrBad(4, 4, lrPE, "invalid character ','")}},
	// A bad first line that begins a document (a truncated object, a lone
	// "[") is a bad line when the lines after it are JSON lines: it alone
	// is lost (issue 23, item 6).
	{name: "truncated first line, then JSON lines",
		in: `{"jsonrpc":"2.0","method":"a","params":{"x":` + "\n" + `{"jsonrpc":"2.0","method":"b"}` + "\n" +
			`{"jsonrpc":"2.0","method":"c"}` + "\n\n" + `{"jsonrpc":"2.0","method":"d"}` + "\n",
		want: []lrWant{lrBad(1, 45, lrPE, "unexpected end of JSON input"), lrMsg(2, `{"jsonrpc":"2.0","method":"b"}`),
			lrMsg(3, `{"jsonrpc":"2.0","method":"c"}`), lrMsg(5, `{"jsonrpc":"2.0","method":"d"}`)}},
	{name: "lone bracket first, then JSON lines, CRLF",
		in:   "[\r\n\r\n{\"a\":1}\r\n{\"b\":2}\r\n",
		want: []lrWant{lrBad(1, 2, lrPE, "unexpected end"), lrMsg(3, `{"a":1}`), lrMsg(4, `{"b":2}`)}},
	{name: "truncated first line, then garbage, then JSON lines",
		in:   "{\"x\":\nhello\n{\"a\":1}\n",
		want: []lrWant{lrBad(1, 6, lrPE, "unexpected end"), lrBad(2, 1, lrPE, "invalid character 'h'"), lrMsg(3, `{"a":1}`)}},
	{name: "garbage led by a NUL byte first is a bad line, not UTF-16",
		in:   "\x00garbage\n{\"a\":1}\n{\"b\":2}\n",
		want: []lrWant{lrBad(1, 1, lrPE, `invalid character '\x00'`), lrMsg(2, `{"a":1}`), lrMsg(3, `{"b":2}`)}},
	{name: "pretty-printed batch with a missing comma",
		in:   "[\n  {\"a\":1}\n  {\"b\":2}\n]\n",
		want: []lrWant{lrBad(1, 2, lrPE, "unexpected end"), lrMsg(2, `{"a":1}`), lrMsg(3, `{"b":2}`), lrBad(4, 1, lrPE, "invalid character ']'")}},
	{name: "a document of the stream cut short, then JSON lines",
		in:   "{\n \"a\": 1\n} {\"b\":\n{\"c\":3}\n",
		want: []lrWant{lrMsg(1, "{\n \"a\": 1\n}"), lrBad(3, 8, lrPE, "unexpected end"), lrMsg(4, `{"c":3}`)}},
	{name: "truncated first line, then JSON lines over MaxLineBytes",
		in:   "{\"x\":\n{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n{\"d\":4}\n",
		opts: ReaderOptions{MaxLineBytes: 16},
		want: []lrWant{lrBad(1, 6, lrPE, "unexpected end"), lrMsg(2, `{"a":1}`), lrMsg(3, `{"b":2}`), lrMsg(4, `{"c":3}`), lrMsg(5, `{"d":4}`)}},
	{name: "line over MaxLineBytes is skipped",
		in:   "{\"a\":1}\n{\"long\":\"xxxxxxxxxxxxxxxxxxxxxxx\"}\n{\"b\":\"12345678\"}\r\n{\"c\":\"123456789\"}\n{\"d\":2}",
		opts: ReaderOptions{MaxLineBytes: 16},
		want: []lrWant{lrMsg(1, `{"a":1}`), lrBad(2, 0, lrPE, "longer than 16 bytes"), lrMsg(3, `{"b":"12345678"}`),
			lrBad(4, 0, lrPE, "longer than 16 bytes"), lrMsg(5, `{"d":2}`)}},
	{name: "first line over MaxLineBytes",
		in:   "{\"long\":\"xxxxxxxxxxxxxxxxxxxxxxx\"}\n{\"a\":1}\n",
		opts: ReaderOptions{MaxLineBytes: 16},
		want: []lrWant{lrBad(1, 0, lrPE, "longer than 16 bytes"), lrMsg(2, `{"a":1}`)}},
	{name: "document over MaxLineBytes",
		in:      "{\n \"a\": 1,\n \"b\": 2,\n \"c\": 3\n}\n{\"d\":4}\n",
		opts:    ReaderOptions{MaxLineBytes: 16},
		partial: true,
		want:    []lrWant{lrBad(1, 0, lrPE, "document longer than 16 bytes")}},
	{name: "lines longer than the read buffer",
		in: `{"s":"` + strings.Repeat("x", readBufferSize+100) + `"}` + "\n" +
			`{"s":"` + strings.Repeat("y", 2*readBufferSize) + `"}` + "\n" +
			`{"b":2}` + "\n",
		opts: ReaderOptions{MaxLineBytes: readBufferSize + 200},
		want: []lrWant{lrMsg(1, `{"s":"`+strings.Repeat("x", readBufferSize+100)+`"}`),
			lrBad(2, 0, lrPE, "longer than"), lrMsg(3, `{"b":2}`)}},
	{name: "100000 opening brackets",
		in:   strings.Repeat("[", 100000) + "\n{\"b\":2}\n" + strings.Repeat("{\"a\":", 100000) + "\n[3]\n",
		want: []lrWant{lrBad(1, 513, lrPE, "nesting deeper than 512"), lrMsg(2, `{"b":2}`), lrBad(3, 5*512+1, lrPE, "nesting deeper than 512"), lrMsg(4, `[3]`)}},
	{name: "MaxDepth boundary",
		in:   "[[[1]]]\n[[[[1]]]]\n{\"a\":{\"b\":{\"c\":[]}}}\n{\"a\":{\"b\":[{}]}}\n",
		opts: ReaderOptions{MaxDepth: 3},
		want: []lrWant{lrMsg(1, `[[[1]]]`), lrBad(2, 4, lrPE, "nesting deeper than 3"), lrBad(3, 16, lrPE, "nesting deeper than 3"), lrBad(4, 12, lrPE, "nesting deeper than 3")}},
	// RFC 8259's grammar allows a lone surrogate escape: the message is
	// kept, exactly, and its strings that hold one are named.
	{name: "lone surrogates",
		in: `{"s":"\ud800"}` + "\n" + `{"s":"\udc00"}` + "\n" + `{"s":"ab\ud800\u0041"}` + "\n" +
			`{"s":"\uDBFFx"}` + "\n" + `{"\udfff":1}` + "\n" + `{"s":"\ud800\ud800"}` + "\n" +
			`{"s":"\ud83d\ude00 \u00e9\uD834\uDD1E"}` + "\n" + `["\ud800"]` + "\n" +
			`{"jsonrpc":"2.0","method":"m","params":["\udc00x"],"id":1}` + "\n" +
			`{"dir":"c2s","ts":"\ud800","msg":{"jsonrpc":"2.0","method":"\udc00","id":"\ud801"}}` + "\n" +
			`{"dir":"\udfff","msg":"\ud800"}` + "\n" +
			`{"dir":"s2c","ts":"\udbff","ts":"t","msg":{"params":{"a":["\udbff"]}}}` + "\n" +
			`{"dir":"s2c","ts":"\udbff","msg":{"params":{"\udbff":1}}}` + "\n",
		want: []lrWant{{line: 1, raw: `{"s":"\ud800"}`, lones: []string{"/s"}}, {line: 2, raw: `{"s":"\udc00"}`, lones: []string{"/s"}},
			{line: 3, raw: `{"s":"ab\ud800\u0041"}`, lones: []string{"/s"}}, {line: 4, raw: `{"s":"\uDBFFx"}`, lones: []string{"/s"}},
			{line: 5, raw: `{"\udfff":1}`, lones: []string{"/\ufffd"}}, {line: 6, raw: `{"s":"\ud800\ud800"}`, lones: []string{"/s"}},
			lrMsg(7, `{"s":"\ud83d\ude00 \u00e9\uD834\uDD1E"}`), {line: 8, raw: `["\ud800"]`, lones: []string{"/0"}},
			{line: 9, raw: `{"jsonrpc":"2.0","method":"m","params":["\udc00x"],"id":1}`, lones: []string{"/params/0"}},
			{line: 10, raw: `{"jsonrpc":"2.0","method":"\udc00","id":"\ud801"}`, dir: "c2s", tsRaw: `"\ud800"`, tsLone: true,
				lones: []string{"/method", "/id"}},
			{line: 11, raw: `"\ud800"`, dirRaw: `"\udfff"`, problem: `not "\udfff": the message is kept`, lones: []string{""}},
			{line: 12, raw: `{"params":{"a":["\udbff"]}}`, dir: "s2c", ts: "t", lones: []string{"/params/a/0"}, dups: []string{"/ts"}},
			{line: 13, raw: `{"params":{"\udbff":1}}`, dir: "s2c", tsRaw: `"\udbff"`, tsLone: true, lones: []string{"/params/\ufffd"}}}},
	{name: "invalid UTF-8",
		in: "{\"s\":\"\xff\"}\n{\"s\":\"a\\n\xc3\"}\n{\"s\":\"\xed\xa0\x80\"}\n{\"s\":1}\xfe\n{\"s\":\"é€😀\"}\n",
		want: []lrWant{lrBad(1, 7, lrPE, "invalid UTF-8 byte 0xff"), lrBad(2, 10, lrPE, "invalid UTF-8"),
			lrBad(3, 7, lrPE, "invalid UTF-8"), lrBad(4, 8, lrPE, "invalid character"), lrMsg(5, "{\"s\":\"é€😀\"}")}},
	{name: "strings, escapes and control characters",
		in: `{"s":"a\"b\\c\/d\b\f\n\r\t\u00e9\u0000"}` + "\n" + "{\"s\":\"a\tb\"}\n" + `{"s":"\x"}` + "\n" +
			`{"s":"\u12G4"}` + "\n" + `{"a":1,"a":2}` + "\n",
		want: []lrWant{lrMsg(1, `{"s":"a\"b\\c\/d\b\f\n\r\t\u00e9\u0000"}`), lrBad(2, 8, lrPE, "in string literal"),
			lrBad(3, 8, lrPE, "escape"), lrBad(4, 11, lrPE, "hexadecimal"), {line: 5, raw: `{"a":1,"a":2}`, dups: []string{"/a"}}}},
	{name: "numbers and literals",
		in: "[0,-0,1.5e+10,-12.5E-3,12345678901234567890123,1E2,true,false,null]\n" +
			"[01]\n[1.]\n[-]\n[1e]\n[.5]\n[tru]\n[nul\n\"str\"\n42\ntrue\n",
		want: []lrWant{lrMsg(1, `[0,-0,1.5e+10,-12.5E-3,12345678901234567890123,1E2,true,false,null]`),
			lrBad(2, 3, lrPE, "after array element"), lrBad(3, 4, lrPE, "decimal point"), lrBad(4, 3, lrPE, "numeric literal"),
			lrBad(5, 4, lrPE, "exponent"), lrBad(6, 2, lrPE, "beginning of value"), lrBad(7, 5, lrPE, "literal true"),
			lrBad(8, 5, lrPE, "unexpected end"), lrMsg(9, `"str"`), lrMsg(10, `42`), lrMsg(11, `true`)}},
	// Every message JSON holds is kept, whatever its envelope says: a
	// "dir" that is not c2s or s2c is a problem of the record, a "ts" that
	// is not a string is kept as JSON text, null is a (bad) message.
	{name: "bad envelopes",
		in: `{"dir":"x","msg":{}}` + "\n" + `{"dir":5,"msg":{}}` + "\n" + `{"dir":"","ts":"t","msg":{}}` + "\n" +
			`{"ts":1.50,"msg":{}}` + "\n" + `{"dir":"c2s","ts":null,"msg":null}` + "\n" + "null\n" +
			`{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":1}}` + "\n",
		want: []lrWant{
			{line: 1, raw: "{}", dirRaw: `"x"`, problem: `envelope "dir" must be "c2s" or "s2c", not "x"`},
			{line: 2, raw: "{}", dirRaw: "5", problem: "not 5"},
			{line: 3, raw: "{}", ts: "t", dirRaw: `""`, problem: `not ""`},
			{line: 4, raw: "{}", tsRaw: "1.50"},
			{line: 5, raw: "null", dir: "c2s", tsRaw: "null"},
			lrMsg(6, "null"),
			lrEnv(7, "s2c", "", `{"jsonrpc":"2.0","id":1,"result":1}`)}},
	// The MCP session of each message: a string, kept as written (with
	// escapes undone); any other value, or a string with a lone surrogate,
	// is a problem and the message is kept without a session.
	{name: "sessions",
		in: `{"dir":"c2s","ts":"t","session":"a","msg":{"jsonrpc":"2.0","id":0,"method":"ping"}}` + "\n" +
			`{"dir":"c2s","session":"b\u00e9","msg":{"jsonrpc":"2.0","id":0,"method":"ping"}}` + "\n" +
			`{"dir":"s2c","session":"","msg":{}}` + "\n" + `{"dir":"s2c","session":7,"msg":{}}` + "\n" +
			`{"dir":"s2c","session":"\udc00","msg":{}}` + "\n" + `{"dir":"s2c","session":null,"msg":{}}` + "\n",
		want: []lrWant{
			{line: 1, raw: `{"jsonrpc":"2.0","id":0,"method":"ping"}`, dir: "c2s", ts: "t", session: "a"},
			{line: 2, raw: `{"jsonrpc":"2.0","id":0,"method":"ping"}`, dir: "c2s", session: "bé"},
			{line: 3, raw: "{}", dir: "s2c"},
			{line: 4, raw: "{}", dir: "s2c", problem: `envelope "session" must be a string of Unicode characters, not 7: the message is kept without a session`},
			{line: 5, raw: "{}", dir: "s2c", problem: `not "\udc00"`},
			{line: 6, raw: "{}", dir: "s2c", problem: "not null"}}},
	// A message too long to log (jrpcld record --max-message): kept as
	// the string of its first bytes, with an error that gives its length.
	{name: "truncated envelopes",
		in: `{"dir":"s2c","ts":"t","truncated":70000000,"msg":"{\"jsonrpc\":\"2.0\",\"id\":1,\"res"}` + "\n" +
			`{"dir":"c2s","msg":"é","truncated":1e3}` + "\n" + `{"dir":"c2s","truncated":-1,"msg":"x"}` + "\n" +
			`{"dir":"c2s","truncated":5,"msg":{}}` + "\n" + `{"jsonrpc":"2.0","method":"m","truncated":5,"msg":{}}` + "\n",
		want: []lrWant{
			{line: 1, raw: `"{\"jsonrpc\":\"2.0\",\"id\":1,\"res"`, dir: "s2c", ts: "t",
				problem: "a message of 70000000 bytes was too long to log (jrpcld record --max-message): the log keeps only its first 28 bytes, as a string"},
			{line: 2, raw: `"é"`, dir: "c2s", problem: `envelope "truncated" must be the length in bytes of a message too long to log, not 1e3`},
			{line: 3, raw: `"x"`, dir: "c2s", problem: `not -1: the message is not in the log`},
			{line: 4, raw: `{}`, dir: "c2s", problem: "a message of 5 bytes was too long to log (jrpcld record --max-message): it is not in the log"},
			lrMsg(5, `{"jsonrpc":"2.0","method":"m","truncated":5,"msg":{}}`)}},
	// An envelope holds text that is not UTF-8 (which no JSON text can
	// hold) in "bytes", as jrpcld record writes it: the record keeps the
	// exact bytes, a parse error at the first byte that is not UTF-8; the
	// lines around it are read on. Bytes that are JSON text are a message.
	{name: "bytes envelopes",
		in: `{"dir":"s2c","ts":"2026-01-02T03:04:05.006Z","bytes":"` + lrB64(lrLatin1) + `"}` + "\n" +
			`{"dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"ping"}}` + "\n" +
			`{"dir":"s2c","bytes":"` + lrB64("caf\xe9 au lait\r") + `"}` + "\n" +
			`{"bytes":"` + lrB64("\xff") + `","ts":"t"}` + "\n" +
			`{"dir":"c2s","bytes":"` + lrB64("hello") + `"}` + "\n" +
			`{"dir":"c2s","bytes":"` + lrB64(` {"jsonrpc":"2.0","method":"m","a":1,"a":2} `) + `"}` + "\n" +
			`{"dir":"s2c","bytes":""}` + "\n" +
			`{"dir":"s2c","bytes":"!!"}` + "\n" +
			`{"dir":"s2c","bytes":"QQ="}` + "\n" +
			`{"bytes":5}` + "\n" +
			`{"dir":"c2s","msg":{"a":1},"bytes":"/w=="}` + "\n" +
			`{"jsonrpc":"2.0","method":"m","bytes":"/w=="}` + "\n",
		want: []lrWant{
			{line: 1, code: lrPE, msg: fmt.Sprintf("byte 0xe9 at offset %d of the message is not UTF-8", strings.IndexByte(lrLatin1, 0xe9)),
				bytes: true, raw: lrLatin1, dir: "s2c", ts: "2026-01-02T03:04:05.006Z"},
			lrEnv(2, "c2s", "", `{"jsonrpc":"2.0","id":2,"method":"ping"}`),
			{line: 3, code: lrPE, msg: "byte 0xe9 at offset 3 of", bytes: true, raw: "caf\xe9 au lait\r", dir: "s2c"},
			{line: 4, code: lrPE, msg: "byte 0xff at offset 0 of", bytes: true, raw: "\xff", ts: "t"},
			{line: 5, code: lrPE, msg: "offset 0 of the message: invalid character 'h'", bytes: true, raw: "hello", dir: "c2s"},
			{line: 6, raw: `{"jsonrpc":"2.0","method":"m","a":1,"a":2}`, dir: "c2s", dups: []string{"/a"}},
			{line: 7, code: lrPE, msg: "offset 0 of the message: unexpected end of JSON input", bytes: true, raw: "", dir: "s2c"},
			{line: 8, raw: `{"dir":"s2c","bytes":"!!"}`, problem: `envelope "bytes" must be a string of standard base64`},
			{line: 9, raw: `{"dir":"s2c","bytes":"QQ="}`, problem: "illegal base64 data"},
			{line: 10, raw: `{"bytes":5}`, problem: "it is 5"},
			lrEnv(11, "c2s", "", `{"a":1}`),
			lrMsg(12, `{"jsonrpc":"2.0","method":"m","bytes":"/w=="}`)}},
	{name: "pretty-printed envelope",
		in:   "{\n  \"dir\": \"s2c\",\n  \"ts\": \"t\",\n  \"msg\": {\n    \"id\": 2\n  }\n}\n",
		want: []lrWant{lrEnv(1, "s2c", "t", "{\n    \"id\": 2\n  }")}},
}

// lrLatin1 is a message a server wrote in Latin-1: its "é" is byte 0xe9,
// which is not UTF-8.
const lrLatin1 = `{"jsonrpc":"2.0","id":1,"result":{"text":"caf` + "\xe9" + `"}}`

// lrB64 returns s in standard base64, as envelopes hold bytes.
func lrB64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// lrUTF returns s encoded in enc: UTF-16LE, UTF-16BE, UTF-32LE or
// UTF-32BE.
func lrUTF(s, enc string) string {
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		switch enc {
		case "UTF-16LE":
			b = binary.LittleEndian.AppendUint16(b, c)
		case "UTF-16BE":
			b = binary.BigEndian.AppendUint16(b, c)
		}
	}
	for _, c := range s {
		switch enc {
		case "UTF-32LE":
			b = binary.LittleEndian.AppendUint32(b, uint32(c))
		case "UTF-32BE":
			b = binary.BigEndian.AppendUint32(b, uint32(c))
		}
	}
	return string(b)
}

func TestReader(t *testing.T) {
	for _, tc := range lrCases {
		for _, compressed := range []bool{false, true} {
			name := tc.name
			in := []byte(tc.in)
			if compressed {
				name += "/gzip"
				in = lrGzip(t, in)
			}
			t.Run(name, func(t *testing.T) {
				gots, r, err := lrReadAll(t, in, tc.opts)
				if err != nil {
					t.Fatalf("read: %v", err)
				}
				lrCheck(t, gots, tc.want)
				if n := r.BytesRead(); !tc.partial && n != int64(len(tc.in)) {
					t.Errorf("BytesRead %d, want %d", n, len(tc.in))
				}
				if _, err := r.Next(); err != io.EOF {
					t.Errorf("Next after the end: %v, want io.EOF", err)
				}
			})
		}
	}
}

// TestReadError: a ReadError prints as its diagnostic does, and errors.As
// finds both the ReadError and the diag.Diagnostic it holds through a
// wrapping error.
func TestReadError(t *testing.T) {
	tests := []struct {
		err  *ReadError
		want string
	}{
		{&ReadError{diag.Diagnostic{File: "a.jsonl", Line: 3, Column: 7, Code: lrPE, Message: "bad"}}, "a.jsonl:3:7: bad"},
		{&ReadError{diag.Diagnostic{File: "-", Line: 12, Code: lrIE, Message: "worse"}}, "-:12: worse"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		wrapped := fmt.Errorf("reading: %w", tt.err)
		var re *ReadError
		if !errors.As(wrapped, &re) || re != tt.err {
			t.Errorf("errors.As(%v, *ReadError) did not find it", wrapped)
		}
		var d *diag.Diagnostic
		if !errors.As(wrapped, &d) || d.Line != tt.err.Line || d.Code != tt.err.Code || d.Message != tt.err.Message {
			t.Errorf("errors.As(%v, *diag.Diagnostic) = %+v, want the ReadError's diagnostic", wrapped, d)
		}
	}
}

// lrFailingReader returns its data, then err.
type lrFailingReader struct {
	data []byte
	err  error
}

func (f *lrFailingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestReaderIOErrors(t *testing.T) {
	boom := errors.New("disk on fire")
	plain := []byte("{\"a\":1}\n{\"b\":2}\n{\"c\":")
	zipped := lrGzip(t, []byte(strings.Repeat("{\"a\":1}\n", 1000)))
	tests := []struct {
		name    string
		r       io.Reader
		minRecs int
		want    error
	}{
		{"read error", &lrFailingReader{data: plain, err: boom}, 2, boom},
		{"truncated gzip", bytes.NewReader(zipped[:len(zipped)-10]), 0, io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(tt.r, "x", ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for {
				rec, err := r.Next()
				if err == nil {
					if rec.Err != nil {
						t.Fatalf("record %d: %v", n, rec.Err)
					}
					n++
					continue
				}
				if err == io.EOF || !errors.Is(err, tt.want) {
					t.Fatalf("Next: %v, want %v", err, tt.want)
				}
				// The caller names the file: the error does not (issue
				// 23, item 19: the name came twice).
				if msg := err.Error(); strings.HasPrefix(msg, "x:") || !strings.HasPrefix(msg, "line ") {
					t.Errorf("Next: %q, want an error that names the line, not the file", msg)
				}
				break
			}
			if n < tt.minRecs {
				t.Errorf("got %d records before the error, want at least %d", n, tt.minRecs)
			}
		})
	}
	if _, err := NewReader(bytes.NewReader([]byte{0x1f, 0x8b, 0}), "x", ReaderOptions{}); err == nil {
		t.Error("NewReader accepted a broken gzip header")
	}
}

// lrCorpusLines returns the non-empty lines of a corpus file.
func lrCorpusLines(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestReaderCorpus(t *testing.T) {
	dir := shared.Dir(t, "corpus", "mcp-sessions")
	sessions := []struct {
		name string
		n    int
	}{{"everything-stdio", 76}, {"filesystem-stdio", 23}, {"memory-stdio", 13}}
	for _, s := range sessions {
		t.Run(s.name, func(t *testing.T) {
			barePath := filepath.Join(dir, s.name+".jsonl")
			envPath := filepath.Join(dir, s.name+".dir.jsonl")
			bareData, err := os.ReadFile(barePath)
			if err != nil {
				t.Fatal(err)
			}
			envData, err := os.ReadFile(envPath)
			if err != nil {
				t.Fatal(err)
			}
			bare, _, err := lrReadAll(t, bareData, ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			envs, _, err := lrReadAll(t, lrGzip(t, envData), ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(bare) != s.n || len(envs) != s.n {
				t.Fatalf("got %d bare and %d enveloped messages, want %d", len(bare), len(envs), s.n)
			}
			bareLines, envLines := lrCorpusLines(t, barePath), lrCorpusLines(t, envPath)
			for i := range bare {
				b, e := bare[i], envs[i]
				if b.err != nil || e.err != nil {
					t.Fatalf("message %d: errors %v / %v", i, b.err, e.err)
				}
				if b.line != i+1 || e.line != i+1 {
					t.Errorf("message %d: lines %d / %d", i, b.line, e.line)
				}
				if b.raw != string(bareLines[i]) || b.dir != "" || b.ts != "" {
					t.Errorf("message %d: bare raw/dir/ts differ from the line", i)
				}
				// Independent reading of the envelope with encoding/json.
				var ref struct {
					Dir string          `json:"dir"`
					TS  string          `json:"ts"`
					Msg json.RawMessage `json:"msg"`
				}
				if err := json.Unmarshal(envLines[i], &ref); err != nil {
					t.Fatal(err)
				}
				if e.dir != ref.Dir || e.ts != ref.TS || e.raw != string(ref.Msg) {
					t.Errorf("message %d: dir %q ts %q raw %.40q, want %q %q %.40q", i, e.dir, e.ts, e.raw, ref.Dir, ref.TS, ref.Msg)
				}
				if e.dir != "c2s" && e.dir != "s2c" || e.ts == "" {
					t.Errorf("message %d: envelope dir %q ts %q", i, e.dir, e.ts)
				}
				want := lrDecodeStd(t, string(bareLines[i]))
				if !reflect.DeepEqual(b.value, want) || !reflect.DeepEqual(e.value, want) {
					t.Errorf("message %d: values differ from encoding/json", i)
				}
			}
		})
	}
}

// lrCycle reads data over and over.
type lrCycle struct {
	data []byte
	off  int
}

func (c *lrCycle) Read(p []byte) (int, error) {
	n := copy(p, c.data[c.off:])
	c.off = (c.off + n) % len(c.data)
	return n, nil
}

func BenchmarkReader(b *testing.B) {
	dir := shared.Dir(b, "corpus", "mcp-sessions")
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no corpus files: %v", err)
	}
	var data []byte
	msgs := 0
	for _, p := range paths {
		for _, l := range lrCorpusLines(b, p) {
			data = append(append(data, l...), '\n')
			msgs++
		}
	}
	r, err := NewReader(&lrCycle{data: data}, "corpus", ReaderOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data) / msgs))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec, err := r.Next()
		if err != nil || rec.Err != nil {
			b.Fatalf("message %d: %v %v", i, err, rec.Err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

func FuzzReader(f *testing.F) {
	for _, tc := range lrCases {
		if len(tc.in) < 4096 {
			f.Add([]byte(tc.in))
		}
	}
	f.Add(lrGzip(f, []byte("{\"a\":1}\n{\n\"b\":2}\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), "fuzz", ReaderOptions{MaxLineBytes: 1 << 12, MaxDepth: 32})
		if err != nil {
			return // a broken gzip header
		}
		gz := len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
		lastLine := 0
		whole := false // a record about the whole input (line 0) was read: it is the last
		for n := 0; ; n++ {
			if !gz && n > len(data)+1 {
				t.Fatal("more records than input bytes")
			}
			rec, err := r.Next()
			if err != nil {
				if !gz && err != io.EOF {
					t.Fatalf("I/O error on in-memory input: %v", err)
				}
				break
			}
			if rec.Value != nil && rec.Err != nil || rec.Err == nil && rec.Raw == nil {
				t.Fatalf("record %d: value %v, raw %q and error %v", n, rec.Value, rec.Raw, rec.Err)
			}
			if whole {
				t.Fatalf("record %d after the record about the whole input", n)
			}
			whole = rec.Line == 0 && rec.Err != nil
			if rec.Line < lastLine || rec.Line < 1 && !whole {
				t.Fatalf("record %d: line %d after line %d", n, rec.Line, lastLine)
			}
			lastLine = rec.Line
			for _, w := range rec.Warnings {
				if w.Severity != diag.Warning || w.Line != rec.Line || w.File != "fuzz" || !strings.HasPrefix(w.Pointer, "/") || rec.Err != nil {
					t.Fatalf("record %d: warning %+v", n, w)
				}
			}
			if rec.Bytes && rec.Err == nil {
				// An envelope's "bytes" that are JSON text make a message.
				t.Fatalf("record %d: bytes %q kept as bytes, error %v", n, rec.Raw, rec.Err)
			}
			if rec.Err != nil {
				var re *diag.Diagnostic
				if !errors.As(rec.Err, &re) || re.Line != rec.Line || re.File != "fuzz" ||
					(re.Code != codeParseError && re.Code != codeInvalidMessage) || rec.Bytes && re.Code != codeParseError {
					t.Fatalf("record %d: lrBad error %#v", n, rec.Err)
				}
				continue
			}
			if rec.Dir > jsonrpc.ServerToClient {
				t.Fatalf("record %d: dir %q", n, rec.Dir)
			}
			// The value must be what encoding/json makes of the raw text.
			if !json.Valid(rec.Raw) || !utf8.Valid(rec.Raw) {
				t.Fatalf("record %d: raw text %q is not valid JSON", n, rec.Raw)
			}
			if want := lrDecodeStd(t, string(rec.Raw)); !reflect.DeepEqual(rec.Value, want) {
				t.Fatalf("record %d: value %#v, encoding/json gives %#v", n, rec.Value, want)
			}
		}
		if !gz && r.BytesRead() > int64(len(data)) {
			t.Fatalf("BytesRead %d > %d", r.BytesRead(), len(data))
		}
	})
}

// gotOf returns what the tests compare of a record.
func gotOf(t testing.TB, rec *Record) lrGot {
	t.Helper()
	g := lrGot{line: rec.Line, raw: string(rec.Raw), value: rec.Value, dir: rec.Dir.String(), ts: rec.TS, session: rec.Session,
		dirRaw: rec.DirRaw, tsRaw: rec.TSRaw, problems: rec.Problems, warnings: rec.Warnings, lones: rec.Surrogates, bytes: rec.Bytes}
	if rec.Err != nil {
		var re *diag.Diagnostic
		if !errors.As(rec.Err, &re) {
			t.Fatalf("record error %v is not a *diag.Diagnostic", rec.Err)
		}
		g.err = re
	}
	return g
}
