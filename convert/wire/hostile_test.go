package wire_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// hostileWords are strings a peer may put where jrpcld must not read them
// as anything but data: JSON-LD keywords, IRIs and names of every sort.
var hostileWords = []string{
	"@id", "@context", "@type", "@vocab", "@base", "@none", "@graph", "@list", "@set", "@value",
	"@language", "@index", "@reverse", "@nest", "@json", "@direction", "@included", "@protected",
	"@version", "@import", "@propagate", "@prefix", "@", "@@", "@ID", "_:b0", "_:", "http://evil.example/x",
	"urn:x", "jrpc:hasMethod", "rdf:type", ":", "#", "", " ", "\u0000", "\u202e", "é🎉", "jsonrpc",
	"params", "1", "-0", "1e400", "true", "null",
}

// hostileMessage builds one log line from what a peer controls: the id, a
// member name and its value, the method. shape picks the kind of message
// (bits 0-1: request, notification, result, error), the id as a number
// when it is one (bit 2), an envelope with a direction (bits 3-4) and the
// value as its timestamp, the value as JSON when it is JSON (bit 5), the
// member nested in an array of objects (bit 6) and a batch of the message
// twice (bit 7).
func hostileMessage(shape uint8, id, key, value, method string) ([]byte, bool) {
	var val any = value
	if shape&32 != 0 {
		if v, err := decodeStrict(value); err == nil && depth(v) < 64 {
			val = v
		}
	}
	var member any = map[string]any{key: val}
	if shape&64 != 0 {
		member = map[string]any{key: []any{map[string]any{key: val}, val}}
	}
	var idv any = id
	if shape&4 != 0 && json.Valid([]byte(id)) {
		if v, err := decodeStrict(id); err == nil {
			if _, ok := v.(json.Number); ok {
				idv = v
			}
		}
	}
	msg := map[string]any{"jsonrpc": "2.0"}
	switch shape & 3 {
	case 0:
		msg["id"], msg["method"], msg["params"] = idv, method, member
	case 1:
		msg["method"], msg["params"] = method, member
	case 2:
		msg["id"], msg["result"] = idv, member
	case 3:
		msg["id"], msg["error"] = idv, map[string]any{"code": -32000, "message": value, "data": member}
	}
	var line any = msg
	if shape&128 != 0 {
		line = []any{msg, msg}
	}
	if shape&8 != 0 {
		line = map[string]any{"dir": []string{"c2s", "s2c"}[shape>>4&1], "ts": value, "msg": line}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(line); err != nil {
		return nil, false
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), true
}

// depth returns how deeply v nests.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, depth(e))
		}
	case []any:
		for _, e := range x {
			d = max(d, depth(e))
		}
	default:
		return 0
	}
	return d + 1
}

// hostileRoundTrip converts line with ctx and engine into format and
// writes it back as `jrpcld json` does; it fails t unless the message comes
// back exactly as sent, and unless it was kept without an error. It
// returns the statements of the graph, whatever their named graph.
func hostileRoundTrip(t *testing.T, what string, ctx *ldctx.Processed, engine convert.Engine, format rdf.Format, line []byte, sent []wireRecord) []rdf.Triple {
	t.Helper()
	c := convert.NewConverter(ctx)
	c.Engine = engine
	var errs []string
	c.Report = func(d diag.Diagnostic) {
		if d.Severity == diag.Error {
			errs = append(errs, d.String())
		}
	}
	r, err := rpclog.NewReader(bytes.NewReader(line), "fuzz", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var graph bytes.Buffer
	if err := c.Convert(&graph, format, []convert.Log{{Reader: r, File: "fuzz", IRI: "http://example.com/f"}}); err != nil || len(errs) > 0 {
		t.Fatalf("%s: %s: %v %q", what, line, err, errs)
	}
	var back bytes.Buffer
	res, err := wire.NewDecoder(ctx).WriteJSONL(&back, bytes.NewReader(graph.Bytes()), format, wire.JSONLOptions{Envelope: true})
	if err != nil || len(res.Problems) > 0 || res.Whole != "" {
		t.Fatalf("%s: %s: %v %+v\n%s", what, line, err, res, graph.String())
	}
	checkSame(t, what+" "+string(line), sent, readWire(t, back.Bytes()))
	// What holds a lone surrogate comes back as written.
	if lone := []byte(`\ud800`); bytes.Count(back.Bytes(), lone) != bytes.Count(line, lone) {
		t.Fatalf("%s: %s: came back as %s", what, line, back.Bytes())
	}
	quads, err := wire.ReadRDF(graph.Bytes(), format)
	if err != nil {
		t.Fatalf("%s: %s: %v", what, line, err)
	}
	triples := make([]rdf.Triple, len(quads))
	for i, q := range quads {
		triples[i] = q.Triple
	}
	return triples
}

// FuzzHostile: a message whose id, member names and values a peer chose
// (JSON-LD keywords among them) goes from the log to RDF and back, as
// `jrpcld turtle` and `jrpcld json` take it, exactly as it was sent; and
// the graph is the same whatever the format and engine. variant picks the
// block (the default, or the MCP block when ../shared is there, whose
// context maps MCP's params and results), the engine and the RDF format
// checked against N-Quads written by the compiled engine, so that each
// input costs two conversions. With bit 4 of variant, each U+FFFD of the
// line is written as a lone surrogate escape, "\ud800", which makes the
// message invalid, kept as it was written: it comes back byte for byte.
func FuzzHostile(f *testing.F) {
	methods := []string{"m", "tools/call", "completion/complete", "resources/read", "notifications/progress", "@type"}
	for i, w := range hostileWords {
		f.Add(uint8(i*37), uint8(i), w, w, w, methods[i%len(methods)])
	}
	f.Add(uint8(0), uint8(1), "1", "ref", "@type", "completion/complete")
	f.Add(uint8(32), uint8(3), "@id", "ref", `{"type":"@type","name":"@id"}`, "completion/complete")
	f.Add(uint8(32+2), uint8(5), "@context", "content", `[{"type":"@vocab","text":"@base"}]`, "tools/call")
	f.Add(uint8(32+8+16), uint8(7), "@none", "progressToken", `"@none"`, "notifications/progress")
	// The first lines of issue 23 (items 6 and 10), as values.
	f.Add(uint8(1), uint8(2), "\x00garbage", "#", `<?xml version="1.0"?>`, "[")
	f.Add(uint8(2), uint8(3), "[", "# comment", `{"jsonrpc":"2.0","method":"a","params":{"x":`, "#!")
	// Lone surrogate escapes (issue 23, item 8): variant's bit 4 writes
	// each U+FFFD as one, in the id, a name, a value, the method, the
	// timestamp, a batch.
	f.Add(uint8(0), uint8(16), "\ufffd", "k\ufffd", "v\ufffd", "m\ufffd")
	f.Add(uint8(2|4|32), uint8(16+4), "1", "\ufffd", `["\ufffd",{"\ufffd":"\ufffd"}]`, "m")
	f.Add(uint8(8|16|128), uint8(16+8+2), "x", "a", "\ufffd", "tools/call")
	f.Add(uint8(3|64), uint8(16+12+1), "\ufffd", "data", "\ufffd\ufffd", "m")
	f.Fuzz(hostileCheck)
}

var (
	hostileOnce   sync.Once
	hostileBlocks []*ldctx.Processed
)

// hostileCheck is the body of FuzzHostile.
func hostileCheck(t *testing.T, shape, variant uint8, id, key, value, method string) {
	hostileOnce.Do(func() {
		hostileBlocks = append(hostileBlocks, toolchaintest.DefaultContext(t))
		if mcp := toolchaintest.MCPContextIfPresent(t); mcp != nil {
			hostileBlocks = append(hostileBlocks, mcp)
		}
	})
	for _, s := range []string{id, key, value, method} {
		if !utf8.ValidString(s) {
			return // JSON text holds no invalid UTF-8
		}
	}
	line, ok := hostileMessage(shape, id, key, value, method)
	if !ok || strings.ContainsAny(string(line), "\n\r") {
		return
	}
	if variant&16 != 0 {
		line = bytes.ReplaceAll(line, []byte("\ufffd"), []byte(`\ud800`))
	}
	v, err := decodeStrict(string(line))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	sent := []wireRecord{wireOf(v)}
	ctx := hostileBlocks[int(variant&1)%len(hostileBlocks)]
	engine := []convert.Engine{convert.EngineCompiled, convert.EngineJSONGold}[variant>>1&1]
	format := []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads, rdf.JSONLD}[variant>>2&3]
	what := fmt.Sprintf("block %d, %s, engine %d", int(variant&1)%len(hostileBlocks), format, engine)
	want := hostileRoundTrip(t, what, ctx, convert.EngineCompiled, rdf.NQuads, line, sent)
	got := hostileRoundTrip(t, what, ctx, engine, format, line, sent)
	if ok, diff := rdftest.Isomorphic(got, want); !ok {
		t.Fatalf("%s: %s: not the graph of N-Quads with the compiled engine:\n%s", what, line, diff)
	}
}
