package stats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// readGraph returns the Stats of each log of a graph, read back with the
// context ctx, and why it was read whole ("" when it was streamed).
func readGraph(t *testing.T, data []byte, file string, f rdf.Format, ctx *ldctx.Processed) ([]*LogStats, string, error) {
	t.Helper()
	rv := wire.NewDecoder(ctx)
	whole := ""
	got, err := ReadGraph(bytes.NewReader(data), file, f, rv, GraphOptions{
		NewCollector: func(string) *Collector { return NewCollector(Options{}) },
		Whole:        func(reason string) { whole = reason },
	})
	return got, whole, err
}

// sameStats reports an error when two Stats differ.
func sameStats(t *testing.T, what string, got, want *Stats) {
	t.Helper()
	if a, b := statsJSON(t, got), statsJSON(t, want); !reflect.DeepEqual(a, b) {
		ja, _ := json.MarshalIndent(a, "", " ")
		jb, _ := json.MarshalIndent(b, "", " ")
		t.Errorf("%s: from the graph:\n%s\nfrom the log:\n%s", what, ja, jb)
	}
}

// statsJSON returns the JSON value of Stats without where they came from.
func statsJSON(t *testing.T, s *Stats) any { return toJSON(t, s) }

var graphFormats = []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads, rdf.JSONLD}

// TestGraphRoundTrip: the Stats of the graph jrpcld writes for a log, in
// each RDF format, are those of the log itself.
func TestGraphRoundTrip(t *testing.T) {
	logs := []string{filepath.Join("testdata", "pairing.jsonl")}
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.jsonl")
	writeBare(t, logs[0], bare)
	logs = append(logs, bare)
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	more, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	logs = append(logs, more...)
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range graphFormats {
		for i, file := range logs {
			t.Run(fmt.Sprintf("%s/%s", f, filepath.Base(file)), func(t *testing.T) {
				g := filepath.Join(dir, fmt.Sprintf("g%d.%s", i, f))
				data := writeGraph(t, ctx, file, "http://example.org/log", g, f)
				got, whole, err := readGraph(t, data, g, f, ctx)
				if err != nil {
					t.Fatal(err)
				}
				// What jrpcld writes streams back (JSON-LD is always read
				// whole, without a reason).
				if whole != "" {
					t.Errorf("read whole: %q", whole)
				}
				if len(got) != 1 || got[0].Log != "http://example.org/log" || got[0].File != g {
					t.Fatalf("%d logs", len(got))
				}
				sameStats(t, g, got[0].Stats, readLogFile(t, file, Options{}).Stats)
			})
		}
	}
}

// TestGraphMCPBlock: a graph made with the MCP block, whose context maps
// parameters and results into nodes of their own, gives the figures of its
// log when read back with that block, and not with the default one.
func TestGraphMCPBlock(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"), nil)
	if err != nil {
		t.Fatal(err)
	}
	mcp, _, err := toolchain.ForBlock(reg.Block("mcp.mcp"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	def, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t, "corpus", "mcp-sessions"), "*.dir.jsonl"))
	if len(files) != 3 {
		t.Fatalf("%d sessions with envelopes, want 3", len(files))
	}
	dir := t.TempDir()
	toolCalls := 0
	for _, f := range []rdf.Format{rdf.Turtle, rdf.NQuads} {
		for i, file := range files {
			what := fmt.Sprintf("%s %s", f, filepath.Base(file))
			g := filepath.Join(dir, fmt.Sprintf("mcp%d.%s", i, f))
			data := writeGraph(t, mcp, file, "http://example.org/log", g, f)
			got, _, err := readGraph(t, data, g, f, mcp)
			if err != nil || len(got) != 1 {
				t.Fatalf("%s: %d logs, %v", what, len(got), err)
			}
			sameStats(t, what, got[0].Stats, readLogFile(t, file, Options{}).Stats)
			if f == rdf.Turtle {
				toolCalls += got[0].Requests["tools/call"]
			}
			// The default block does not know the MCP block's terms: what it
			// reads back is not the log.
			other, _, err := readGraph(t, data, g, f, def)
			if err == nil && len(other) == 1 && reflect.DeepEqual(statsJSON(t, other[0].Stats), statsJSON(t, got[0].Stats)) {
				t.Errorf("%s: the default block reads the same figures", what)
			}
		}
	}
	// SOURCE.txt of the corpus: 25 tools/call in the three sessions.
	if toolCalls != 25 {
		t.Errorf("%d tools/call requests, want 25", toolCalls)
	}
}

// TestGraphSeveralLogs: a graph of several logs gives one LogStats each, in
// the order they appear.
func TestGraphSeveralLogs(t *testing.T) {
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs []convert.Log
	var out bytes.Buffer
	for _, iri := range []string{"http://x/b", "http://x/a"} {
		r, err := rpclog.NewReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+iri+`"}`), iri, rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, convert.Log{Reader: r, File: iri, IRI: iri})
	}
	if err := convert.NewConverter(ctx).Convert(&out, rdf.Turtle, logs); err != nil {
		t.Fatal(err)
	}
	got, _, err := readGraph(t, out.Bytes(), "two.ttl", rdf.Turtle, ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, l.Log+" "+strings.Join(slices.Sorted(maps.Keys(l.Requests)), ","))
	}
	if want := []string{"http://x/b http://x/b", "http://x/a http://x/a"}; !reflect.DeepEqual(names, want) {
		t.Errorf("logs %q, want %q", names, want)
	}
}

// TestGraphErrors: a graph that does not parse gives where and what; nodes
// that are not messages jrpcld wrote give a GraphError each, and the other
// messages are counted.
func TestGraphErrors(t *testing.T) {
	const (
		jlog = "https://jrpcld.github.io/ns/log#"
		jrpc = "http://json-rpc.org/ontology#"
		xsd  = "http://www.w3.org/2001/XMLSchema#"
		rdfT = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
	)
	// One request at position 1 of log <http://l>, in N-Triples.
	good := `<http://l#1> <` + rdfT + `> <` + jrpc + `Request> .
<http://l#1> <` + jlog + `inLog> <http://l> .
<http://l#1> <` + jlog + `position> "1"^^<` + xsd + `integer> .
<http://l#1> <` + jlog + `id> "1"^^<` + xsd + `integer> .
<http://l#1> <` + jrpc + `hasMethod> "m" .
<http://l#1> <` + jrpc + `version> "2.0" .
`
	tests := []struct {
		name, file, doc string
		f               rdf.Format
		want            []string // the errors, one a line
		requests        int      // requests counted
	}{
		{"syntax", "bad.ttl", "@prefix ex: <http://ex/> .\nex:s ex:p .\n", rdf.Turtle,
			[]string{"bad.ttl:2:11: "}, -1},
		{"n-quads syntax", "bad.nq", good + `<http://s> <http://p> "x" <http://g> <http://h> .`, rdf.NQuads,
			[]string{"bad.nq:7:38: "}, -1},
		{"json-ld syntax", "bad.jsonld", "{\n  \"@id\": }", rdf.JSONLD,
			[]string{"bad.jsonld:2:10: "}, -1},
		{"not a log", "empty.nt", "# nothing\n", rdf.NTriples,
			[]string{"empty.nt: no JSON-RPC messages"}, 0},
		{"a message without a position", "p.nt", good + `<http://l#2> <` + rdfT + `> <` + jrpc + `Notification> .`, rdf.NTriples,
			[]string{"p.nt: <http://l#2>: it is typed as a message but has no jlog:position"}, 1},
		{"a blank node message without a method", "b.nt", good +
			`_:n <` + rdfT + `> <` + jrpc + `Notification> .` + "\n" + `_:n <` + jlog + `position> "2"^^<` + xsd + `integer> .` + "\n" +
			`_:n <` + jlog + `inLog> <http://l> .` + "\n" + `_:n <` + jrpc + `version> "2.0" .`, rdf.NTriples,
			[]string{"b.nt: _:n: not a JSON-RPC 2.0 message"}, 1},
	}
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := readGraph(t, []byte(tt.doc), tt.file, tt.f, ctx)
			if err == nil {
				t.Fatalf("no error")
			}
			var errs []error
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			} else {
				errs = []error{err}
			}
			if len(errs) != len(tt.want) {
				t.Fatalf("errors %v, want %q", errs, tt.want)
			}
			for i, e := range errs {
				var ge *diag.Diagnostic
				if !errors.As(e, &ge) || !strings.HasPrefix(e.Error(), tt.want[i]) || ge.File != tt.file {
					t.Errorf("error %T %q, want a *diag.Diagnostic starting with %q", e, e, tt.want[i])
				}
			}
			requests := 0
			for _, l := range got {
				requests += l.Requests["m"]
				if l.Log != "http://l" || l.File != tt.file {
					t.Errorf("log %q of file %q", l.Log, l.File)
				}
			}
			if tt.requests < 0 {
				if got != nil {
					t.Errorf("Stats of a graph that does not parse: %v", got)
				}
			} else if requests != tt.requests {
				t.Errorf("%d requests counted, want %d", requests, tt.requests)
			}
		})
	}
}

// TestGraphUngrouped: a graph whose statements are not laid out as jrpcld
// writes logs (here in reverse order) is read whole, says why, and gives
// the same figures as the stream.
func TestGraphUngrouped(t *testing.T) {
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("testdata", "pairing.jsonl")
	g := filepath.Join(t.TempDir(), "g.nt")
	data := writeGraph(t, ctx, file, "http://example.org/log", g, rdf.NTriples)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	slices.Reverse(lines)
	got, whole, err := readGraph(t, []byte(strings.Join(lines, "\n")+"\n"), g, rdf.NTriples, ctx)
	if err != nil || len(got) != 1 {
		t.Fatalf("%d logs, %v", len(got), err)
	}
	if !strings.Contains(whole, "not grouped") {
		t.Errorf("read whole because %q, want the reason the stream gave up", whole)
	}
	sameStats(t, "reversed", got[0].Stats, readLogFile(t, file, Options{}).Stats)
}
