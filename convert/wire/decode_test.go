package wire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/ontology"
	"github.com/jrpcld/jrpcld/rdf"
)

var allFormats = []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads, rdf.JSONLD, rdf.JSONLDExpanded}

// wireRecord is one line of a log as the test reads it, with encoding/json
// alone: independent of the package's log reader.
type wireRecord struct {
	dir, ts string
	msg     any
}

// readWire reads JSONL: envelopes ({"msg": ...} without "jsonrpc") or bare
// messages. Blank lines are skipped.
func readWire(t testing.TB, data []byte) []wireRecord {
	t.Helper()
	var out []wireRecord
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		v, err := decodeStrict(line)
		if err != nil {
			t.Fatalf("line %d: %v: %q", i+1, err, line)
		}
		out = append(out, wireOf(v))
	}
	return out
}

func decodeStrict(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

func wireOf(v any) wireRecord {
	if m, ok := v.(map[string]any); ok {
		if msg, ok := m["msg"]; ok {
			if _, bare := m["jsonrpc"]; !bare {
				dir, _ := m["dir"].(string)
				ts, _ := m["ts"].(string)
				return wireRecord{dir: dir, ts: ts, msg: msg}
			}
		}
	}
	return wireRecord{msg: v}
}

// sameValue compares two JSON values as encoding/json decodes them, numbers
// by their exact decimal value.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if _, ok := y[k]; !ok || !sameValue(x[k], y[k]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && sameDecimal(string(x), string(y))
	}
	return a == b
}

var numberRE = regexp.MustCompile(`^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$`)

// sameDecimal compares two JSON numbers exactly: with math/big.Rat when the
// exponents are modest, else as digits and a big exponent.
func sameDecimal(a, b string) bool {
	ma, mb := numberRE.FindStringSubmatch(a), numberRE.FindStringSubmatch(b)
	if ma == nil || mb == nil {
		return false
	}
	if len(ma[4]) < 5 && len(mb[4]) < 5 {
		ra, _ := new(big.Rat).SetString(a)
		rb, _ := new(big.Rat).SetString(b)
		return ra != nil && rb != nil && ra.Cmp(rb) == 0
	}
	norm := func(m []string) string {
		digits := m[2] + m[3]
		exp, _ := new(big.Int).SetString(strings.TrimPrefix(m[4], "+"), 10)
		if exp == nil {
			exp = new(big.Int)
		}
		exp.Sub(exp, big.NewInt(int64(len(m[3])))) // value = digits × 10^exp
		trimmed := strings.TrimRight(digits, "0")
		exp.Add(exp, big.NewInt(int64(len(digits)-len(trimmed))))
		trimmed = strings.TrimLeft(trimmed, "0")
		if trimmed == "" {
			return "0"
		}
		return m[1] + trimmed + "e" + exp.String()
	}
	return norm(ma) == norm(mb)
}

// wireRoundTrip converts log with ctx to format f and reads it back.
func wireRoundTrip(t testing.TB, ctx *ldctx.Processed, log string, f rdf.Format) ([]wire.Log, []diag.Diagnostic, []diag.Diagnostic) {
	t.Helper()
	c := convert.NewConverter(ctx)
	var issues []diag.Diagnostic
	c.Report = func(i diag.Diagnostic) { issues = append(issues, i) }
	r, err := rpclog.NewReader(strings.NewReader(log), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Convert(&buf, f, []convert.Log{{Reader: r, File: "log", IRI: "http://example.com/logs/a.jsonl"}}); err != nil {
		t.Fatalf("%v: %v", f, err)
	}
	ds, err := wire.ReadRDF(buf.Bytes(), f)
	if err != nil {
		t.Fatalf("%v: reading back: %v\n%s", f, err, buf.String())
	}
	rv := wire.NewDecoder(ctx)
	logs, probs := rv.Logs(ds)
	return logs, probs, issues
}

// backLines writes the messages back as JSONL, with envelopes, and reads
// the lines as the test reads any log.
func backLines(t testing.TB, logs []wire.Log) []wireRecord {
	t.Helper()
	var buf bytes.Buffer
	for _, l := range logs {
		if err := wire.WriteJSONL(&buf, l.Messages, true); err != nil {
			t.Fatal(err)
		}
	}
	return readWire(t, buf.Bytes())
}

// checkSame compares the records read back with those sent.
func checkSame(t testing.TB, what string, sent, back []wireRecord) {
	t.Helper()
	if len(sent) != len(back) {
		t.Errorf("%s: %d messages back, %d sent", what, len(back), len(sent))
		return
	}
	for i := range sent {
		s, b := sent[i], back[i]
		if s.dir != b.dir || s.ts != b.ts || !sameValue(s.msg, b.msg) {
			sj, _ := json.Marshal(s.msg)
			bj, _ := json.Marshal(b.msg)
			t.Errorf("%s: message %d:\n sent %s %s %s\n back %s %s %s", what, i+1, s.dir, s.ts, sj, b.dir, b.ts, bj)
		}
	}
}

// TestCorpusRoundTrip: every message of every corpus log (bare and with
// envelopes) comes back from each RDF format equal to the message sent, in
// order, with its direction and timestamp; with the default block and with
// the MCP block, whose context maps params and results into nodes, sets
// and literals of many kinds.
func TestCorpusRoundTrip(t *testing.T) {
	blocks := map[string]*ldctx.Processed{"json-rpc": toolchaintest.DefaultContext(t), "mcp": toolchaintest.MCPContext(t)}
	for _, file := range shared.CorpusFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sent := readWire(t, data)
		for name, ctx := range blocks {
			for _, f := range allFormats {
				what := fmt.Sprintf("%s %s %v", filepath.Base(file), name, f)
				logs, probs, issues := wireRoundTrip(t, ctx, string(data), f)
				if len(probs) > 0 || len(issues) > 0 {
					t.Errorf("%s: problems %v, issues %v", what, probs, issues)
				}
				checkSame(t, what, sent, backLines(t, logs))
			}
		}
	}
}

// TestNoPatchWhenMapped: the example session, whose messages the default
// block maps whole, has no jlog:patch; members the context has no term
// for get one.
func TestNoPatchWhenMapped(t *testing.T) {
	data, err := os.ReadFile("../../examples/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := convertString(t, string(data), rdf.NTriples, "http://example.com/s")
	if strings.Contains(out, rdf.JLogPatch) {
		t.Errorf("the example session has a jlog:patch:\n%s", out)
	}
	out, _ = convertString(t, `{"jsonrpc":"2.0","method":"m","extra":[1,2]}`, rdf.NTriples, "http://example.com/s")
	want := `<http://example.com/s#m1> <` + rdf.JLogPatch + `> "[{\"op\":\"add\",\"path\":\"/extra\",\"value\":[1,2]}]" .`
	if !strings.Contains(out, want) {
		t.Errorf("no patch for an unmapped member:\n%s", out)
	}
}

// roundTripCases are messages the mapping alone cannot all give back; each
// must come back exactly. They are also the seeds of FuzzRoundTrip.
var roundTripCases = []struct{ name, log string }{
	{"string id", `{"jsonrpc":"2.0","id":"abc","method":"m"}`},
	{"id like an IRI", `{"jsonrpc":"2.0","id":"http://example.com/x?y#z","method":"m"}`},
	{"id with slash", `{"jsonrpc":"2.0","id":"a/b/../c","method":"m"}`},
	{"id dot dot", `{"jsonrpc":"2.0","id":"..","method":"m"}`},
	{"id hash", `{"jsonrpc":"2.0","id":"#frag","method":"m"}`},
	{"id query", `{"jsonrpc":"2.0","id":"?q=1&r","method":"m"}`},
	{"id space", `{"jsonrpc":"2.0","id":"a b","method":"m"}`},
	{"id percent", `{"jsonrpc":"2.0","id":"100%","method":"m"}`},
	{"id percent escape", `{"jsonrpc":"2.0","id":"a%20b","method":"m"}`},
	{"id unicode", `{"jsonrpc":"2.0","id":"ü/日本/😀","method":"m"}`},
	{"id empty", `{"jsonrpc":"2.0","id":"","method":"m"}`},
	{"id IRI-hostile", `{"jsonrpc":"2.0","id":"<>\"{}|^` + "`" + `\\","method":"m"}`},
	{"id string one", `{"jsonrpc":"2.0","id":"1","method":"m"}`},
	{"id number one", `{"jsonrpc":"2.0","id":1,"method":"m"}`},
	{"id 1.0", `{"jsonrpc":"2.0","id":1.0,"method":"m"}`},
	{"id -0", `{"jsonrpc":"2.0","id":-0,"method":"m"}`},
	{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"m"}`},
	{"id exponent", `{"jsonrpc":"2.0","id":2.5E-3,"method":"m"}`},
	{"id big", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"}`},
	{"id null", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
	{"params object", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"b":1,"a":{"c":[3,2,1]}}}`},
	{"params array", `{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23,42,"x","x",null]}`},
	{"params empty", `{"jsonrpc":"2.0","id":1,"method":"m","params":[]}`},
	{"result null", `{"jsonrpc":"2.0","id":1,"result":null}`},
	{"result false", `{"jsonrpc":"2.0","id":1,"result":false}`},
	{"result 0", `{"jsonrpc":"2.0","id":1,"result":0}`},
	{"result empty string", `{"jsonrpc":"2.0","id":1,"result":""}`},
	{"result empty array", `{"jsonrpc":"2.0","id":1,"result":[]}`},
	{"result one-element array", `{"jsonrpc":"2.0","id":1,"result":[["x"]]}`},
	{"result empty object", `{"jsonrpc":"2.0","id":1,"result":{}}`},
	{"result nested", `{"jsonrpc":"2.0","id":1,"result":{"a":[{"b":[[[]]],"c":{"d":null}},true,-1.5e-7]}}`},
	{"error with data", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":{"why":["x",1]}}}`},
	{"error without data", `{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found"}}`},
	{"error data null", `{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m","data":null}}`},
	{"error extra members", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","retry":true,"when":[1,2],"@type":"x"}}`},
	{"notification", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":0.5}}`},
	{"notification no params", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n","params":[1]},{"jsonrpc":"2.0","id":"1","method":"b"}]`},
	{"batch of responses", `[{"jsonrpc":"2.0","id":2,"result":[]},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}]`},
	{"deep nesting", `{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat(`{"a":[`, 100) + `1` + strings.Repeat(`]}`, 100) + `}`},
	{"escapes", `{"jsonrpc":"2.0","id":"\"\\\/\b\f\n\r\t\u0000\u001f","method":"\u00e9\ud83d\ude00","params":{"k\"\\\n":"v\u2028\u2029\t"}}`},
	{"unicode keys and values", `{"jsonrpc":"2.0","id":1,"method":"日本語","params":{"ключ":"значение","😀":"🙂","":""}}`},
	{"unknown top-level members", `{"jsonrpc":"2.0","id":1,"method":"m","x":1,"y":{"z":[null]},"jrpc:version":"9","http://json-rpc.org/ontology#hasId":"zz"}`},
	{"@ keys as data", `{"jsonrpc":"2.0","id":1,"method":"m","@context":{"@vocab":"http://evil.example/"},"@id":"http://evil.example/me","@type":"X","params":{"@context":"keep"}}`},
	{"big integers in params", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"big":12345678901234567890,"neg":-9007199254740993,"list":[9007199254740993,1]}}`},
	{"long decimals in result", `{"jsonrpc":"2.0","id":1,"result":[0.1000000000000000055511151231257827,3.141592653589793238462643383279]}`},
	{"number spellings", `{"jsonrpc":"2.0","id":1,"result":{"a":1.0,"b":1E2,"c":-0,"d":0.10,"e":1e-7}}`},
	{"huge exponent in params", `{"jsonrpc":"2.0","id":1,"method":"m","params":[1e400,-1e-400]}`},
	{"error code spelled otherwise", `{"jsonrpc":"2.0","id":1,"error":{"code":-3.2e4,"message":"m"}}`},
	{"envelope", `{"dir":"c2s","ts":"2026-01-02T03:04:05.678Z","msg":{"jsonrpc":"2.0","id":"q","method":"ping"}}`},
	{"envelope odd time", `{"dir":"s2c","ts":"yesterday, \"late\"","msg":{"jsonrpc":"2.0","id":"q","result":{}}}`},
	{"envelope no time", `{"dir":"s2c","msg":[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]}`},
	// Nothing a log holds is lost: envelopes the reader used to refuse,
	// messages that break the rules, ids that are JSON-LD keywords.
	{"envelope invalid time", `{"dir":"c2s","ts":"2026-13-45T99:99:99Z","msg":{"jsonrpc":"2.0","id":1,"method":"m"}}`},
	{"envelope numeric time", `{"dir":"c2s","ts":1732300000000.50,"msg":{"jsonrpc":"2.0","id":1,"method":"m"}}`},
	{"envelope other times", `{"ts":null,"msg":{"jsonrpc":"2.0","method":"m"}}` + "\n" + `{"ts":{"s":1},"msg":{"jsonrpc":"2.0","method":"m"}}` + "\n" + `{"ts":true,"msg":{"jsonrpc":"2.0","method":"m"}}`},
	{"envelope odd direction", `{"dir":"up","msg":{"jsonrpc":"2.0","id":1,"method":"m"}}` + "\n" + `{"dir":7,"msg":{"jsonrpc":"2.0","id":1,"result":1}}`},
	{"invalid params", `{"jsonrpc":"2.0","id":1,"method":"m","params":null}`},
	{"invalid version and id", `{"jsonrpc":"1.0","id":{"n":1},"method":"m"}` + "\n" + `{"id":[1],"result":2}`},
	{"not messages", "null\n5\n\"text\"\n[]\n{}\ntrue"},
	{"invalid with a big number", `{"jsonrpc": "2.0",  "method": 1, "big": 12345678901234567890123, "f": 1.50E+3}`},
	{"batch with invalid members", `[{"jsonrpc":"2.0","id":1,"method":"a"},5,{"jsonrpc":"2.0","id":2,"method":"b","params":"x"},null]`},
	{"invalid request answered", `{"dir":"c2s","msg":{"jsonrpc":"2.0","id":7,"method":"m","params":3}}` + "\n" + `{"dir":"s2c","msg":{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad"}}}`},
	{"keyword ids", `{"jsonrpc":"2.0","id":"@id","method":"a"}` + "\n" + `{"jsonrpc":"2.0","id":"@context","result":{}}` + "\n" + `{"jsonrpc":"2.0","id":"@type","method":"b"}` + "\n" + `{"jsonrpc":"2.0","id":"@vocab","method":"c"}` + "\n" + `{"jsonrpc":"2.0","id":"@base","method":"d"}` + "\n" + `{"jsonrpc":"2.0","id":"@none","method":"e"}` + "\n" + `{"jsonrpc":"2.0","id":"a b<>","method":"f"}`},
	{"ids no IRI can hold", "{\"jsonrpc\":\"2.0\",\"id\":\"a:`\",\"method\":\"m\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"x:{y}\",\"result\":{\"b\":\"c d\"}}\n{\"jsonrpc\":\"2.0\",\"id\":\"h:<\\u0000>\",\"error\":{\"code\":1,\"message\":\"m\"}}"},
	// Text that is not UTF-8, which an envelope holds as "bytes" (issue 37,
	// item 1): its exact bytes, with its direction and time; no bytes at
	// all.
	{"bytes not UTF-8", `{"dir":"s2c","ts":"2026-01-02T03:04:05.006Z","bytes":"eyJqc29ucnBjIjoiMi4wIiwiaWQiOjEsInJlc3VsdCI6ImNhZukifQ=="}` + "\n" +
		`{"dir":"c2s","ts":"2026-01-02T03:04:05.007Z","msg":{"jsonrpc":"2.0","id":1,"method":"m"}}` + "\n" + `{"bytes":"/w=="}` + "\n" + `{"dir":"c2s","bytes":""}`},
}

// expectedNotice reports whether a conversion notice is one the round-trip
// cases may give: "@" keys taken as data, envelopes read as they are,
// messages kept as invalid, statements no writer takes left out.
func expectedNotice(msg string) bool {
	for _, s := range []string{`" is data, not a JSON-LD instruction`, "is not a valid xsd:dateTime", "is a number: read as milliseconds",
		"kept as jlog:InvalidMessage", "is left out", `envelope "dir" must be`} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// TestRoundTripCases: each hand-written case comes back exactly, from
// every format, with no notice but those expectedNotice lists.
func TestRoundTripCases(t *testing.T) {
	ctx := toolchaintest.DefaultContext(t)
	for _, tc := range roundTripCases {
		t.Run(tc.name, func(t *testing.T) {
			sent := readWire(t, []byte(tc.log))
			for _, f := range allFormats {
				logs, probs, issues := wireRoundTrip(t, ctx, tc.log, f)
				if len(probs) > 0 {
					t.Errorf("%v: problems %v", f, probs)
				}
				for _, i := range issues {
					if i.Severity == diag.Error || !expectedNotice(i.Message) {
						t.Errorf("%v: issue %v", f, i)
					}
				}
				checkSame(t, f.String(), sent, backLines(t, logs))
			}
		})
	}
}

// TestBytesBack: the messages a log held as "bytes" (text that is not
// UTF-8) come back from the graph byte for byte, as JSON lines (the bytes
// alone, a line each) and as envelopes (the lines of the log exactly, in
// the member order jrpcld record writes); a jlog:bytes that is no base64
// literal, or beside a jlog:json, is a problem of its node, and the other
// messages come back.
func TestBytesBack(t *testing.T) {
	ctx := toolchaintest.DefaultContext(t)
	rv := wire.NewDecoder(ctx)
	log := `{"dir":"s2c","ts":"2026-01-02T03:04:05.006Z","bytes":"Y2Fm6SBhdSBsYWl0DQ=="}` + "\n" + // "caf\xe9 au lait\r"
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"m"}}` + "\n" +
		`{"bytes":"/w=="}` + "\n" + // "\xff"
		`{"dir":"c2s","bytes":""}` + "\n"
	for _, f := range allFormats {
		out := convertWith(t, ctx, f, map[string]string{"http://example.com/b": log})
		for _, envelope := range []bool{false, true} {
			var got bytes.Buffer
			res, err := rv.WriteJSONL(&got, bytes.NewReader(out), f, wire.JSONLOptions{Envelope: envelope})
			want := "caf\xe9 au lait\r\n" + `{"jsonrpc":"2.0","method":"m"}` + "\n\xff\n\n"
			if envelope {
				want = log
			}
			if err != nil || len(res.Problems) > 0 || got.String() != want {
				t.Errorf("%v, envelope %v: %q (%v %v), want %q", f, envelope, got.String(), err, res.Problems, want)
			}
		}
	}
	const bad = `@prefix jlog: <https://jrpcld.github.io/ns/log#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<http://example.com/b#m1> a jlog:InvalidMessage ; jlog:inLog <http://example.com/b> ; jlog:position 1 ; jlog:bytes "!!"^^xsd:base64Binary .
<http://example.com/b#m2> a jlog:InvalidMessage ; jlog:inLog <http://example.com/b> ; jlog:position 2 ; jlog:bytes "QQ==" .
<http://example.com/b#m3> a jlog:InvalidMessage ; jlog:inLog <http://example.com/b> ; jlog:position 3 ; jlog:bytes "QQ=="^^xsd:base64Binary ; jlog:json "{}" .
<http://example.com/b#m4> a jlog:InvalidMessage ; jlog:inLog <http://example.com/b> ; jlog:position 4 ; jlog:bytes "QQ=="^^xsd:base64Binary , "Qg=="^^xsd:base64Binary .
<http://example.com/b#m5> a jlog:InvalidMessage ; jlog:inLog <http://example.com/b> ; jlog:position 5 ; jlog:bytes "QQ=="^^xsd:base64Binary .
`
	var got bytes.Buffer
	res, err := rv.WriteJSONL(&got, strings.NewReader(bad), rdf.Turtle, wire.JSONLOptions{})
	var probs []string
	for _, p := range res.Problems {
		probs = append(probs, p.Node+": "+p.Message)
	}
	wantProbs := []string{
		`http://example.com/b#m1: https://jrpcld.github.io/ns/log#bytes "!!" is not base64`,
		`http://example.com/b#m2: https://jrpcld.github.io/ns/log#bytes "QQ==" is not an xsd:base64Binary literal`,
		`http://example.com/b#m3: it has both https://jrpcld.github.io/ns/log#bytes and https://jrpcld.github.io/ns/log#json`,
		`http://example.com/b#m4: it has 2 values of https://jrpcld.github.io/ns/log#bytes, want one`,
	}
	ok := err == nil && got.String() == "A\n" && len(probs) == len(wantProbs)
	for i := 0; ok && i < len(probs); i++ {
		ok = strings.HasPrefix(probs[i], wantProbs[i])
	}
	if !ok {
		t.Errorf("bad jlog:bytes: %q (%v), problems:\n%s\nwant:\n%s", got.String(), err, strings.Join(probs, "\n"), strings.Join(wantProbs, "\n"))
	}
}

// TestSequence: a log of many messages of all kinds, several logs in one
// output, and the choice of one by its IRI.
func TestSequence(t *testing.T) {
	log := sequenceLog()
	sent := readWire(t, []byte(log))
	for _, f := range allFormats {
		out, issues, err := convertLogs(t, f, map[string]string{"http://example.com/one": log, "http://example.com/two": log})
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range issues {
			if i.Severity == diag.Error {
				t.Errorf("%v: %v", f, i)
			}
		}
		ds, err := wire.ReadRDF([]byte(out), f)
		if err != nil {
			t.Fatal(err)
		}
		rv := wire.NewDecoder(toolchaintest.DefaultContext(t))
		logs, probs := rv.Logs(ds)
		if len(probs) > 0 || len(logs) != 2 || logs[0].IRI != "http://example.com/one" || logs[1].IRI != "http://example.com/two" {
			t.Fatalf("%v: %d logs %v, problems %v", f, len(logs), []string{logs[0].IRI, logs[len(logs)-1].IRI}, probs)
		}
		for _, l := range logs {
			checkSame(t, f.String()+" "+l.IRI, sent, backLines(t, []wire.Log{l}))
		}
	}
}

// TestBadRDF: RDF that does not parse gives the line and column of the
// problem and what it is.
func TestBadRDF(t *testing.T) {
	tests := []struct {
		f         rdf.Format
		doc       string
		line, col int
		msg       string
	}{
		{rdf.Turtle, "@prefix jlog: <https://jrpcld.github.io/ns/log#> .\n<http://e/m1> jlog:position 1 ;\n  jlog:id \"x .\n", 3, 15, "line break in a short string"},
		{rdf.Turtle, "<http://e/m1> <http://e/p> \"\"\"\"\"a\"\"\" .\n<http://e/m1> <http://e/p>\n.5 .\n<http://e/m1> nope:x 1 .", 4, 15, `undeclared prefix "nope:"`},
		{rdf.NTriples, "<http://e/s> <http://e/p> 1 .", 1, 27, "expected an object"},
		{rdf.NTriples, "<http://e/s> <http://e/p> <http://e/o> .\n<http://e/s> <http://e/p> \"é\" <http://e/g> .", 2, 31, "expected '.'"},
		{rdf.NQuads, "<http://e/s> <http://e/p> <http://e/o> <g> .", 1, 40, "relative IRI <g>"},
		{rdf.JSONLD, "{\n  \"@graph\": [\n    {\"@id\": \"x\",}\n  ]\n}", 3, 17, "invalid character '}'"},
		{rdf.JSONLD, "[1] [2]", 1, 5, "more than one JSON value"},
		{rdf.JSONLD, "[1] {\"a\":1}", 1, 5, "more than one JSON value"},
	}
	for _, tt := range tests {
		_, err := wire.ReadRDF([]byte(tt.doc), tt.f)
		var se *diag.Diagnostic
		if !errors.As(err, &se) || se.Line != tt.line || se.Column != tt.col || !strings.Contains(se.Message, tt.msg) {
			t.Errorf("%v %q: error %v, want %d:%d and %q", tt.f, tt.doc, err, tt.line, tt.col, tt.msg)
		}
	}
	_, err := wire.ReadRDF([]byte(`{"@context": "http://example.com/ctx", "@id": "x"}`), rdf.JSONLD)
	if err == nil || !strings.Contains(err.Error(), "does not fetch") {
		t.Errorf("a remote context: %v", err)
	}
}

// TestNotALog: a graph that parses but is not a log as jrpcld writes one:
// each problem names its node, and the other messages come back.
func TestNotALog(t *testing.T) {
	const head = "@prefix jlog: <https://jrpcld.github.io/ns/log#> .\n@prefix jrpc: <http://json-rpc.org/ontology#> .\n@prefix l: <http://e/l#> .\n"
	ok := func(n, pos int) string {
		return fmt.Sprintf("l:m%d jlog:inLog <http://e/l> ; jlog:position %d ; jrpc:version \"2.0\" ; jrpc:hasMethod \"ok%d\" .\n", n, pos, n)
	}
	tests := []struct {
		name  string
		doc   string
		probs []string // each a node and a part of its message
		back  []string // the methods that come back, in order
	}{
		{"no method, result or error", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\" .\n" + ok(3, 3),
			[]string{"http://e/l#m2", "not a JSON-RPC 2.0 message"}, []string{"ok1", "ok3"}},
		{"two at one position", ok(1, 1) + ok(2, 1) + ok(3, 2),
			[]string{"http://e/l#m2", "position 1 is also the position of <http://e/l#m1>"}, []string{"ok1", "ok2", "ok3"}},
		{"position not an integer", ok(1, 1) + "l:m2 jlog:position \"two\" ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" .\n",
			[]string{"http://e/l#m2", `"two" is not an integer`}, []string{"ok1"}},
		{"typed without position", ok(1, 1) + "l:m2 a jrpc:Request ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" .\n",
			[]string{"http://e/l#m2", "has no jlog:position"}, []string{"ok1"}},
		{"bad patch", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" ; jlog:patch \"[{\\\"op\\\":\\\"add\\\",\\\"path\\\":\\\"/a/b\\\",\\\"value\\\":1}]\" .\n",
			[]string{"http://e/l#m2", `jlog:patch: add /a/b: no member "a"`}, []string{"ok1", "x"}},
		{"patch not JSON", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" ; jlog:patch \"{\" .\n",
			[]string{"http://e/l#m2", "jlog:patch: not JSON"}, []string{"ok1", "x"}},
		{"bad rdf:JSON", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" ; jrpc:hasParameters \"{\"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .\n",
			[]string{"http://e/l#m2", "is not JSON"}, []string{"ok1"}},
		{"bad id", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" ; jlog:id <http://e/x> .\n",
			[]string{"http://e/l#m2", "jlog:id"}, []string{"ok1", "x"}},
		{"bad direction", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jlog:direction <http://e/up> ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\" .\n",
			[]string{"http://e/l#m2", "neither jlog:ClientToServer"}, []string{"ok1", "x"}},
		{"batch member without index", "l:b jlog:inLog <http://e/l> ; jlog:position 1 ; a jlog:Batch ; jlog:member l:b0 , l:b1 .\nl:b0 jlog:memberIndex 0 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"b0\" .\nl:b1 jrpc:version \"2.0\" ; jrpc:hasMethod \"b1\" .\n",
			[]string{"http://e/l#b1", "without a jlog:memberIndex"}, []string{"b0"}},
		{"blank nodes in a cycle", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\" ; jrpc:hasId 2 ; jrpc:hasError _:e .\n_:e jrpc:hasErrorCode 1 ; jrpc:hasErrorMessage \"m\" ; jrpc:hasError _:e .\n",
			[]string{"http://e/l#m2", "nested more than 512 deep"}, []string{"ok1", ""}},
		{"no messages", "<http://e/a> <http://e/b> <http://e/c> .\n", []string{"", "no JSON-RPC messages"}, nil},
		// A property of a rule member with several values is said so, in
		// words, not as the Go type that holds them (issue 23, item 9).
		{"several methods", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"x\", \"y\", \"z\" .\n" + ok(3, 3),
			[]string{"http://e/l#m2", `"method" has 3 values in the graph, where a message has one`}, []string{"ok1", "ok3"}},
		{"several versions", ok(1, 1) + "l:m2 jlog:inLog <http://e/l> ; jlog:position 2 ; jrpc:version \"2.0\", \"1.0\" ; jrpc:hasMethod \"x\" .\n",
			[]string{"http://e/l#m2", `"jsonrpc" has 2 values`}, []string{"ok1"}},
	}
	rv := wire.NewDecoder(toolchaintest.DefaultContext(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := wire.ReadRDF([]byte(head+tt.doc), rdf.Turtle)
			if err != nil {
				t.Fatal(err)
			}
			logs, probs := rv.Logs(ds)
			found := false
			for _, p := range probs {
				if p.Node == tt.probs[0] && strings.Contains(p.Message, tt.probs[1]) {
					found = true
				}
			}
			if !found {
				t.Errorf("problems %v, want one for <%s> containing %q", probs, tt.probs[0], tt.probs[1])
			}
			for _, p := range probs {
				if strings.Contains(p.Message, "Go value") || strings.Contains(p.Message, "wire.") {
					t.Errorf("a Go type reaches the problem %q", p.Message)
				}
			}
			var got []string
			for _, l := range logs {
				for _, m := range l.Messages {
					v, err := decodeStrict(string(m.JSON))
					if err != nil {
						t.Fatalf("%s: %v", m.JSON, err)
					}
					if batch, ok := v.([]any); ok {
						for _, e := range batch {
							got = append(got, fmt.Sprint(e.(map[string]any)["method"]))
						}
						continue
					}
					method, _ := v.(map[string]any)["method"].(string)
					got = append(got, method)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.back, ",") {
				t.Errorf("back %q, want %q", got, tt.back)
			}
		})
	}
}

// TestDeepBlankNodes: a chain of blank nodes far deeper than any message
// is reported, not followed until the stack runs out.
func TestDeepBlankNodes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<http://e/l#m1> <https://jrpcld.github.io/ns/log#position> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n<http://e/l#m1> <http://json-rpc.org/ontology#hasError> _:b0 .\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, "_:b%d <http://json-rpc.org/ontology#hasError> _:b%d .\n", i, i+1)
	}
	ds, err := wire.ReadRDF([]byte(b.String()), rdf.NTriples)
	if err != nil {
		t.Fatal(err)
	}
	rv := wire.NewDecoder(toolchaintest.DefaultContext(t))
	_, probs := rv.Logs(ds)
	if len(probs) == 0 || !strings.Contains(fmt.Sprint(probs), "nested more than") {
		t.Errorf("problems %v", probs)
	}
}

// TestNotices: what jlog:id and jlog:patch carry exactly gets no notice;
// "@" keys are still named, as data.
func TestNotices(t *testing.T) {
	log := `{"jsonrpc":"2.0","id":1e400,"method":"m","params":{"a":12345678901234567890,"b":[1e400]},"x":1}
{"jsonrpc":"2.0","id":2,"method":"m","@context":{},"params":{"@id":"kept inside @json"},"y":{"@type":"T"}}
`
	_, issues := convertString(t, log, rdf.NTriples, "http://example.com/n")
	var got []string
	for _, i := range issues {
		got = append(got, fmt.Sprintf("%d %s %s", i.Line, i.Pointer, i.Message))
	}
	want := []string{
		`2 /@context member "@context" is data, not a JSON-LD instruction; it is not mapped to RDF (jlog:patch keeps it)`,
		`2 /y/@type member "@type" is data, not a JSON-LD instruction; it is not mapped to RDF (jlog:patch keeps it)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLogTermsDeclared: every log term the conversion writes is declared in
// the project's ontology.
func TestLogTermsDeclared(t *testing.T) {
	o, err := ontology.ParseFile("../../ontology/log.ttl")
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range []string{rdf.JLogLog, rdf.JLogBatch, rdf.JLogUnansweredRequest, rdf.JLogOrphanResponse, rdf.JLogInLog, rdf.JLogPosition, rdf.JLogDirection,
		rdf.JLogClientToServer, rdf.JLogServerToClient, rdf.JLogTimestamp, rdf.JLogAnswers, rdf.JLogMember, rdf.JLogMemberIndex, rdf.JLogID, rdf.JLogPatch,
		rdf.JLogInvalidMessage, rdf.JLogJSON, rdf.JLogBytes, rdf.JLogProblem, rdf.JLogRawTimestamp, rdf.JLogRawDirection,
		rdf.JLogFinding, rdf.JLogFindingClass, rdf.JLogRule, rdf.JLogSeverity} {
		if !o.Declares(term) {
			t.Errorf("%s is not declared in ontology/log.ttl", term)
		}
	}
}

// TestPatch applies JSON Patches of the kinds the way back reads, with the
// results written by hand.
func TestPatch(t *testing.T) {
	tests := []struct {
		doc, patch, want, err string
	}{
		{`{"a":1}`, `[{"op":"add","path":"/b","value":[1,2]}]`, `{"a":1,"b":[1,2]}`, ""},
		{`{"a":1}`, `[{"op":"replace","path":"/a","value":{"x":null}}]`, `{"a":{"x":null}}`, ""},
		{`{"a":1,"b":2}`, `[{"op":"remove","path":"/a"}]`, `{"b":2}`, ""},
		{`{"a":[1,2,3]}`, `[{"op":"replace","path":"/a/1","value":9},{"op":"add","path":"/a/0","value":0},{"op":"add","path":"/a/-","value":4},{"op":"remove","path":"/a/1"}]`, `{"a":[0,9,3,4]}`, ""},
		{`{"a/b":{"~":1}}`, `[{"op":"replace","path":"/a~1b/~0","value":2}]`, `{"a/b":{"~":2}}`, ""},
		{`{}`, `[{"op":"add","path":"/","value":1}]`, `{"":1}`, ""},
		{`{"a":1}`, `[{"op":"replace","path":"","value":{"b":2}}]`, `{"b":2}`, ""},
		{`{"a":1}`, `[{"op":"replace","path":"/b","value":1}]`, "", `no member "b"`},
		{`{"a":[1]}`, `[{"op":"replace","path":"/a/01","value":1}]`, "", `no element "01"`},
		{`{"a":[1]}`, `[{"op":"replace","path":"/a/1","value":1}]`, "", `no element "1"`},
		{`{"a":1}`, `[{"op":"add","path":"/a/b","value":1}]`, "", "not an object or array"},
		{`{"a":1}`, `[{"op":"move","from":"/a","path":"/b"}]`, "", "not an add, replace or remove"},
		{`{"a":1}`, `[{"op":"add","path":"a","value":1}]`, "", "not a JSON pointer"},
		{`{"a":1}`, `[{"op":"remove","path":"/a","value":1}]`, "", "not an add, replace or remove"},
		{`{"a":1}`, `{"op":"remove","path":"/a"}`, "", "not a JSON array"},
	}
	for _, tt := range tests {
		got, err := wire.ApplyPatch(tt.doc, tt.patch)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s on %s: error %v, want %q", tt.patch, tt.doc, err, tt.err)
			}
			continue
		}
		want, _ := decodeStrict(tt.want)
		if err != nil || !sameValue(got, want) {
			t.Errorf("%s on %s: %v, %v; want %s", tt.patch, tt.doc, got, err, tt.want)
		}
	}
}

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzRoundTrip from roundTripCases")

// TestFuzzSeeds: the committed seed corpus of FuzzRoundTrip holds every
// hand-written case (written with -update-seeds).
func TestFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzRoundTrip")
	for i, tc := range roundTripCases {
		name := filepath.Join(dir, fmt.Sprintf("case%02d", i))
		content := "go test fuzz v1\n[]byte(" + strconv.Quote(tc.log) + ")\n"
		if *updateSeeds {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != content {
			t.Errorf("%s does not hold case %q (run go test -run TestFuzzSeeds -update-seeds): %v", name, tc.name, err)
		}
	}
}

// FuzzRoundTrip: a message line that converts comes back from rdf.Turtle,
// N-Triples and N-Quads equal to what encoding/json reads from it, with
// Logs and with the stream.
func FuzzRoundTrip(f *testing.F) {
	ctx := toolchaintest.DefaultContext(f)
	rv := wire.NewDecoder(ctx)
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n\r") || !utf8.Valid(line) {
			return // one line of text
		}
		v, err := decodeStrict(string(line))
		if err != nil {
			return
		}
		sent := []wireRecord{wireOf(v)}
		for _, format := range []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads} {
			c := convert.NewConverter(ctx)
			skipped := false
			c.Report = func(i diag.Diagnostic) { skipped = skipped || i.Severity == diag.Error }
			r, err := rpclog.NewReader(bytes.NewReader(line), "fuzz", rpclog.ReaderOptions{})
			if err != nil {
				return
			}
			var buf bytes.Buffer
			if err := c.Convert(&buf, format, []convert.Log{{Reader: r, File: "fuzz", IRI: "http://example.com/f"}}); err != nil || skipped {
				return
			}
			ds, err := wire.ReadRDF(buf.Bytes(), format)
			if err != nil {
				t.Fatalf("%v does not read back: %v\n%s", format, err, buf.String())
			}
			logs, probs := rv.Logs(ds)
			if len(probs) > 0 {
				t.Fatalf("%v: problems %v\n%s", format, probs, buf.String())
			}
			checkSame(t, format.String(), sent, backLines(t, logs))
			// What jrpcld writes is read as a stream, into the same.
			for _, size := range []int{1 << 20, 1} {
				streamedLogs, err := streamed(t, rv, buf.Bytes(), format, size)
				if err != nil {
					t.Fatalf("%v, chunks of %d: %v\n%s", format, size, err, buf.String())
				}
				if err := sameLogs(streamedLogs, logs); err != nil {
					t.Fatalf("%v, chunks of %d: %v", format, size, err)
				}
			}
		}
	})
}
