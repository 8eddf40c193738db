package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
)

// streamed reads data with the stream, in chunks of about size bytes; the
// statements are read back in jobs of about size/16 (with size 1, a job
// per message).
func streamed(t testing.TB, rv *wire.Decoder, data []byte, f rdf.Format, size int) ([]wire.Log, error) {
	t.Helper()
	var logs []wire.Log
	err := rv.StreamSized(bytes.NewReader(data), f, size, max(1, size/16), func(log string, m *wire.Message) error {
		if len(logs) == 0 || logs[len(logs)-1].IRI != log {
			logs = append(logs, wire.Log{IRI: log})
		}
		l := &logs[len(logs)-1]
		l.Messages = append(l.Messages, *m)
		return nil
	})
	return logs, err
}

// whole reads data with wire.ReadRDF and Logs, leaving out logs without
// messages (the stream has nothing to say about them).
func whole(t testing.TB, rv *wire.Decoder, data []byte, f rdf.Format) ([]wire.Log, []diag.Diagnostic, error) {
	t.Helper()
	ds, err := wire.ReadRDF(data, f)
	if err != nil {
		return nil, nil, err
	}
	logs, probs := rv.Logs(ds)
	var out []wire.Log
	for _, l := range logs {
		if len(l.Messages) > 0 {
			out = append(out, l)
		}
	}
	return out, probs, nil
}

// sameLogs compares logs read back: their IRIs and messages, field by
// field (but the labels of blank nodes that the rdf.Turtle parser names: the
// stream names them apart chunk by chunk).
func sameLogs(a, b []wire.Log) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d logs, want %d", len(a), len(b))
	}
	for i := range a {
		if a[i].IRI != b[i].IRI || len(a[i].Messages) != len(b[i].Messages) {
			return fmt.Errorf("log %d: <%s> with %d messages, want <%s> with %d", i, a[i].IRI, len(a[i].Messages), b[i].IRI, len(b[i].Messages))
		}
		for j := range a[i].Messages {
			x, y := a[i].Messages[j], b[i].Messages[j]
			if x.Node != y.Node && !(strings.HasPrefix(x.Node, "#") && strings.HasPrefix(y.Node, "#")) || x.Position != y.Position || x.Dir != y.Dir || x.TS != y.TS || !bytes.Equal(x.JSON, y.JSON) {
				return fmt.Errorf("log <%s> message %d: %+v, want %+v", a[i].IRI, j, x, y)
			}
		}
	}
	return nil
}

// checkStream checks the stream against wire.ReadRDF and Logs on data: when the
// stream reads data, Logs reads the same logs and messages without a
// problem; otherwise its error says the input is not grouped. It returns
// the stream's error.
func checkStream(t testing.TB, rv *wire.Decoder, data []byte, f rdf.Format, size int) error {
	t.Helper()
	got, err := streamed(t, rv, data, f, size)
	if err != nil {
		if !errors.Is(err, wire.ErrUngrouped) {
			t.Fatalf("%v, chunks of %d: error %v does not wrap ErrUngrouped", f, size, err)
		}
		return err
	}
	want, probs, werr := whole(t, rv, data, f)
	if werr != nil || len(probs) > 0 {
		t.Fatalf("%v, chunks of %d: the stream reads what Logs does not: %v %v\n%s", f, size, werr, probs, data)
	}
	if err := sameLogs(got, want); err != nil {
		t.Fatalf("%v, chunks of %d: %v\n%s", f, size, err, data)
	}
	return nil
}

var streamFormats = []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads}

// TestStreamCorpus: what jrpcld writes of every corpus log, with the
// default block and the MCP block (whose context maps params and results
// into nested blank nodes), is read as a stream, whatever the size of the
// chunks, into the messages Logs reads.
func TestStreamCorpus(t *testing.T) {
	blocks := map[string]*ldctx.Processed{"json-rpc": toolchaintest.DefaultContext(t), "mcp": toolchaintest.MCPContext(t)}
	for _, file := range shared.CorpusFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for name, ctx := range blocks {
			rv := wire.NewDecoder(ctx)
			for _, f := range streamFormats {
				out := convertWith(t, ctx, f, map[string]string{"http://example.com/logs/" + filepath.Base(file): string(data)})
				for _, size := range []int{1 << 20, 4096, 1} {
					if err := checkStream(t, rv, out, f, size); err != nil {
						t.Errorf("%s %s %v, chunks of %d: %v", filepath.Base(file), name, f, size, err)
					}
				}
			}
		}
	}
}

// sequenceLog is every round-trip case in one log, with envelopes.
func sequenceLog() string {
	var lines []string
	for _, tc := range roundTripCases {
		if !strings.HasPrefix(tc.name, "envelope") {
			for _, msg := range strings.Split(tc.log, "\n") {
				lines = append(lines, fmt.Sprintf(`{"dir":"c2s","ts":"t%d","msg":%s}`, len(lines), msg))
			}
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestStreamCases: every round-trip case alone, and all of them in two logs
// in one output, are read as a stream.
func TestStreamCases(t *testing.T) {
	ctx := toolchaintest.DefaultContext(t)
	rv := wire.NewDecoder(ctx)
	for _, f := range streamFormats {
		for _, tc := range roundTripCases {
			out := convertWith(t, ctx, f, map[string]string{"http://example.com/a.jsonl": tc.log})
			if err := checkStream(t, rv, out, f, 64); err != nil {
				t.Errorf("%s %v: %v", tc.name, f, err)
			}
		}
		log := sequenceLog()
		out := convertWith(t, ctx, f, map[string]string{"http://example.com/one": log, "http://example.com/two": log})
		for _, size := range []int{1 << 20, 300, 1} {
			if err := checkStream(t, rv, out, f, size); err != nil {
				t.Errorf("two logs %v, chunks of %d: %v", f, size, err)
			}
		}
	}
}

// TestStreamUngrouped: input that is not laid out as jrpcld writes logs, or
// that Logs would find problems in, is refused as such (and never read
// differently from Logs), whatever the size of the chunks.
func TestStreamUngrouped(t *testing.T) {
	ctx := toolchaintest.DefaultContext(t)
	rv := wire.NewDecoder(ctx)
	const log = `{"dir":"c2s","msg":[{"jsonrpc":"2.0","id":3,"method":"c"},{"jsonrpc":"2.0","method":"d"}]}
{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"a"}}
{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}}
{"dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"b","params":[1]}}
`
	const (
		iri      = "http://example.com/l"
		method   = " <http://json-rpc.org/ontology#hasMethod> "
		version  = " <http://json-rpc.org/ontology#version> \"2.0\" .\n"
		position = " <https://jrpcld.github.io/ns/log#position> "
	)
	pos := func(n int) string {
		return fmt.Sprintf(`"%d"^^<http://www.w3.org/2001/XMLSchema#integer> .`+"\n", n)
	}
	nt := string(convertWith(t, ctx, rdf.NTriples, map[string]string{iri: log}))
	lines := strings.SplitAfter(nt, "\n")
	lines = lines[:len(lines)-1]
	reversed := make([]string, len(lines))
	for i, l := range lines {
		reversed[len(lines)-1-i] = l
	}
	label := nt[strings.Index(nt, "_:"):]
	label = label[:strings.IndexByte(label, ' ')]
	ttl := string(convertWith(t, ctx, rdf.Turtle, map[string]string{iri: log}))
	nq := string(convertWith(t, ctx, rdf.NQuads, map[string]string{"http://example.com/a": log, "http://example.com/b": log}))
	nqA := strings.Split(nq, "<http://example.com/b>")[0]
	m9 := "<" + iri + "#c2s-9>"
	tests := []struct {
		name string
		f    rdf.Format
		doc  string
	}{
		{"statements in reverse", rdf.NTriples, strings.Join(reversed, "")},
		{"a statement about the first message at the end", rdf.NTriples, nt + m9 + position + pos(9) + m9 + version + m9 + method + `"x" .` + "\n" + "<" + iri + "#c2s-2>" + method + `"x" .` + "\n"},
		{"a member of the batch named at the end", rdf.NTriples, nt + "<" + iri + "#c2s-1.1>" + method + `"x" .` + "\n"},
		{"an error node named at the end", rdf.NTriples, nt + label + ` <http://json-rpc.org/ontology#hasErrorData> "x" .` + "\n"},
		{"an error node shared with a later message", rdf.NTriples, nt + m9 + position + pos(9) + m9 + version + m9 + " <http://json-rpc.org/ontology#hasError> " + label + " .\n"},
		{"a message at an earlier position", rdf.NTriples, nt + "<http://e/x>" + position + pos(0) + "<http://e/x> <https://jrpcld.github.io/ns/log#inLog> <" + iri + "> .\n" + "<http://e/x>" + version + "<http://e/x>" + method + `"x" .` + "\n"},
		{"a message without a method", rdf.NTriples, nt + m9 + position + pos(9)},
		{"a syntax error at the end", rdf.NTriples, nt + m9 + " nope .\n"},
		{"a log named again", rdf.NQuads, nq + nqA},
		{"a log that continues after another", rdf.NQuads, nq + "<http://example.com/a#c2s-9>" + position + pos(9)[:len(pos(9))-2] + "<http://example.com/a> .\n" +
			"<http://example.com/a#c2s-9>" + version[:len(version)-3] + "<http://example.com/a> .\n" + "<http://example.com/a#c2s-9>" + method + `"x" <http://example.com/a> .` + "\n"},
		{"nothing", rdf.NTriples, ""},
		{"no messages", rdf.NTriples, "<http://e/a> <http://e/b> <http://e/c> .\n"},
		{"a message's statements split", rdf.NTriples, strings.Join(lines[:3], "") + "<http://e/a> <http://e/b> <http://e/c> .\n" + strings.Join(lines[3:], "")},
		{"a [] before its subject", rdf.Turtle, ttl + m9 + " <http://json-rpc.org/ontology#hasError> [ <http://json-rpc.org/ontology#hasErrorCode> 1 ] ;" + position + "9 ;" + version},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, size := range []int{1 << 20, 200, 1} {
				if (strings.HasPrefix(tt.name, "a log that continues") || strings.HasPrefix(tt.name, "a message at an earlier")) && size > 1 {
					continue // read right: the messages are in one job
				}
				if err := checkStream(t, rv, []byte(tt.doc), tt.f, size); err == nil {
					t.Errorf("chunks of %d: read as a stream", size)
				} else if testing.Verbose() {
					t.Logf("chunks of %d: %v", size, err)
				}
			}
		})
	}
	// Directives after the statements: read right (in one chunk) or
	// refused (in several), never read wrong.
	for _, doc := range []string{
		ttl + "@base <http://example.com/> .\n<l#c2s-9>" + position + "9 ;" + version,
		ttl + "@prefix jrpc: <http://example.com/other#> .\n" + m9 + position + "9 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" .\n",
	} {
		for _, size := range []int{1 << 20, 200, 1} {
			err := checkStream(t, rv, []byte(doc), rdf.Turtle, size)
			if size < len(doc) && err == nil {
				t.Errorf("chunks of %d: read as a stream:\n%s", size, doc)
			}
		}
	}
}

// TestStreamFromOthers: RDF laid out as jrpcld lays it out but written by
// hand (prefixed names, comments, other IRIs and labels, statements of a
// message in any order, a message as a blank node) is read as a stream too.
func TestStreamFromOthers(t *testing.T) {
	rv := wire.NewDecoder(toolchaintest.DefaultContext(t))
	doc := `@prefix jlog: <https://jrpcld.github.io/ns/log#> .
@prefix jrpc: <http://json-rpc.org/ontology#> .
# a log
<http://e/log> a jlog:Log .
<http://e/one> jrpc:version "2.0" ; jrpc:hasMethod "a" ; jlog:position 1 ;
  jlog:inLog <http://e/log> ; jlog:id 1 .
<http://e/two> jlog:position 2 ; jlog:inLog <http://e/log> ; jrpc:version "2.0" ; jlog:id 1 ;
  jrpc:hasError _:e .
_:e jrpc:hasErrorCode 7 ; jrpc:hasErrorMessage "m" .
<http://e/three> jlog:position 3 ; jlog:inLog <http://e/log> ; jrpc:version "2.0" ; jrpc:hasMethod "c" .
[ jlog:position 4 ; jlog:inLog <http://e/log> ; jrpc:version "2.0" ; jrpc:hasMethod "d" ] .
<http://e/one> a jlog:UnansweredRequest .
`
	for _, size := range []int{1 << 20, 100, 1} {
		if err := checkStream(t, rv, []byte(doc), rdf.Turtle, size); err != nil {
			t.Errorf("chunks of %d: %v", size, err)
		}
	}
}

// TestStreamReadError: an error of the reader ends the stream with that
// error, not as input to read whole.
func TestStreamReadError(t *testing.T) {
	rv := wire.NewDecoder(toolchaintest.DefaultContext(t))
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("<http://e/a> <http://e/b> <http://e/c> .\n"), errReader{boom})
	err := rv.Stream(r, rdf.NTriples, func(string, *wire.Message) error { return nil })
	if !errors.Is(err, boom) || errors.Is(err, wire.ErrUngrouped) {
		t.Errorf("error %v, want boom", err)
	}
	out := convertWith(t, toolchaintest.DefaultContext(t), rdf.NTriples, map[string]string{"http://e/l": sequenceLog()})
	stop := errors.New("stop")
	n := 0
	err = rv.Stream(bytes.NewReader(out), rdf.NTriples, func(string, *wire.Message) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("error %v after %d messages, want stop after 3", err, n)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// FuzzStream: whatever the RDF text and the size of the chunks, the stream
// either says the input is not grouped or reads exactly what Logs reads,
// without a problem.
func FuzzStream(f *testing.F) {
	ctx := toolchaintest.DefaultContext(f)
	rv := wire.NewDecoder(ctx)
	for i, tc := range roundTripCases {
		format := streamFormats[i%len(streamFormats)]
		out := convertWith(f, ctx, format, map[string]string{"http://example.com/l": tc.log})
		f.Add(out, uint8(format), uint16(i*37))
	}
	f.Fuzz(func(t *testing.T, data []byte, format uint8, size uint16) {
		f := streamFormats[int(format)%len(streamFormats)]
		checkStream(t, rv, data, f, int(size%512)+1)
	})
}

// TestStreamErrorLine: a syntax error deep in a graph, found by the stream
// in a chunk of its own, names the line and column of the input, those
// reading it whole names (issue 23, item 19: the "read whole" notice named
// the line in the chunk).
func TestStreamErrorLine(t *testing.T) {
	ctx := toolchaintest.DefaultContext(t)
	rv := wire.NewDecoder(ctx)
	log := sequenceLog()
	for _, f := range streamFormats {
		data := convertWith(t, ctx, f, map[string]string{"http://example.com/one": log, "http://example.com/two": log})
		lines := strings.SplitAfter(string(data), "\n")
		// A statement of the last third is broken: its final "." doubled.
		k := 2 * len(lines) / 3
		for !strings.HasSuffix(lines[k], " .\n") {
			k++
		}
		lines[k] = strings.TrimSuffix(lines[k], "\n") + " .\n"
		bad := []byte(strings.Join(lines, ""))
		_, werr := wire.ReadRDF(bad, f)
		var want *diag.Diagnostic
		if !errors.As(werr, &want) || want.Line != k+1 {
			t.Fatalf("%v: reading whole: %v, want a syntax error on line %d", f, werr, k+1)
		}
		for _, size := range []int{1 << 20, 4096, 300} {
			_, err := streamed(t, rv, bad, f, size)
			if !errors.Is(err, wire.ErrUngrouped) || !strings.Contains(err.Error(), ": "+want.Error()) {
				t.Errorf("%v, chunks of %d: stream error %v, want one that ends with %q", f, size, err, want.Error())
			}
		}
	}
}
