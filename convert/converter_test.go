package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/piprate/json-gold/ld"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// processed processes v, the value of a "@context".
func processed(t testing.TB, v any) *ldctx.Processed {
	t.Helper()
	ctx, err := ldctx.Process(v)
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// convertString converts log text in format f with the default block.
func convertString(t testing.TB, log string, f rdf.Format, iri string) (string, []diag.Diagnostic) {
	t.Helper()
	out, issues, err := convertLogs(t, f, map[string]string{iri: log})
	if err != nil {
		t.Fatal(err)
	}
	return out, issues
}

func convertLogs(t testing.TB, f rdf.Format, logs map[string]string) (string, []diag.Diagnostic, error) {
	t.Helper()
	c := NewConverter(toolchaintest.DefaultContext(t))
	var issues []diag.Diagnostic
	c.Report = func(i diag.Diagnostic) { issues = append(issues, i) }
	var buf bytes.Buffer
	err := c.Convert(&buf, f, textLogs(t, logs))
	return buf.String(), issues, err
}

// textLogs returns logs (IRI -> text) as Logs to convert, in IRI order.
func textLogs(t testing.TB, logs map[string]string) []Log {
	t.Helper()
	var ls []Log
	for _, iri := range sortedKeys(logs) {
		r, err := rpclog.NewReader(strings.NewReader(logs[iri]), iri, rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, Log{Reader: r, File: iri, IRI: iri})
	}
	return ls
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// TestCorpusTurtle: the rdf.Turtle of every corpus log reads back, with rapper, to
// the same graph as its N-Triples read by knakk.
func TestCorpusTurtle(t *testing.T) {
	for _, file := range shared.CorpusFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		iri := "http://example.com/logs/" + filepath.Base(file)
		ttl, issues := convertString(t, string(data), rdf.Turtle, iri)
		nt, _ := convertString(t, string(data), rdf.NTriples, iri)
		if len(issues) > 0 {
			t.Errorf("%s: issues %v", file, issues)
		}
		fromTurtle := rdftest.Rapper(t, []byte(ttl), "")
		fromNT, err := rdftest.ParseNTriples([]byte(nt))
		if err != nil {
			t.Fatal(err)
		}
		if ok, diff := rdftest.Isomorphic(fromTurtle, fromNT); !ok {
			t.Errorf("%s: Turtle and N-Triples differ:\n%s", filepath.Base(file), diff)
		}
		if n := strings.Count(string(data), "\n"); countType(fromNT, rdf.JRPCNS+"Request")+countType(fromNT, rdf.JRPCNS+"Notification")+
			countType(fromNT, rdf.JRPCNS+"Response")+countType(fromNT, rdf.JRPCNS+"ErrorResponse") != n {
			t.Errorf("%s: not one typed node per message (%d lines)", file, n)
		}
	}
}

func countType(ts []rdf.Triple, class string) int {
	n := 0
	for _, t := range ts {
		if t.P == rdf.RDFType && t.O.Value == class {
			n++
		}
	}
	return n
}

// TestMappingMatchesJSONGold: for every corpus message, the mapping's triples
// are isomorphic to what json-gold alone makes of the same context and
// message. Where json-gold writes an error text for an @json value (arrays,
// strings, null; see LIBRARIES.md), the mapping's literal must be the same
// JSON value as the message member, in canonical form.
func TestMappingMatchesJSONGold(t *testing.T) {
	ctx := toolchaintest.DefaultContext(t)
	// Besides the corpus, whose params and results are all objects, the
	// values json-gold cannot canonicalise.
	extra := `{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}
{"jsonrpc":"2.0","result":null,"id":1}
{"jsonrpc":"2.0","result":"text","id":"a"}
{"jsonrpc":"2.0","result":[],"id":2}
{"jsonrpc":"2.0","result":0,"id":2}
{"jsonrpc":"2.0","result":false,"id":2}
{"jsonrpc":"2.0","error":{"code":-32000,"message":"m","data":["x",1]},"id":null}
`
	n, patched := compareWithGold(t, ctx, ctx.Value(), extra)
	if n != 224+7 || patched < 4 {
		t.Errorf("%d messages, %d patched; want 231 and at least 4", n, patched)
	}
	t.Logf("%d messages compared; %d json-gold error literals checked by value", n, patched)
}

// TestMCPCorpusMatchesOracleContext: with the MCP block of the OGC register,
// jrpcld maps every corpus message to the statements json-gold gives with
// the context the OGC tool chain's own code builds for that block
// (../shared/reference/ogc-published/mcp-bblocks-current, made with the
// oracle), message by message: among them params.reason and
// params.requestId of notifications/cancelled, params.progress,
// progressToken and total of notifications/progress, params.logger and
// params.data of notifications/message.
func TestMCPCorpusMatchesOracleContext(t *testing.T) {
	ctx := toolchaintest.MCPContext(t)
	data, err := os.ReadFile(shared.Dir(t, "reference", "ogc-published", "mcp-bblocks-current", "annotated", "mcp", "context.jsonld"))
	if err != nil {
		t.Fatal(err)
	}
	var oracle map[string]any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&oracle); err != nil {
		t.Fatal(err)
	}
	n, _ := compareWithGold(t, ctx, oracle["@context"], "")
	if n != 224 {
		t.Errorf("%d messages compared, want the corpus's 224", n)
	}
	// Statements the OGC tool chain's 2025-09 context did not give.
	m, err := NewMapping(ctx, "http://example.com/log/")
	if err != nil {
		t.Fatal(err)
	}
	for msg, want := range map[string][]string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`:              {"hasRequestId", "hasReason"},
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":5,"total":10}}`: {"hasProgressToken", "hasProgress", "hasTotal"},
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"db","data":{"x":1}}}`:  {"hasLogger", "hasData"},
	} {
		var v map[string]any
		d := json.NewDecoder(strings.NewReader(msg))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		ts, _, err := m.Triples(v, "http://example.com/log/m1", "x")
		if err != nil {
			t.Fatal(err)
		}
		for _, local := range want {
			found := false
			for _, tr := range ts {
				if strings.HasSuffix(tr.P, "#"+local) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no mcp:%s in %v", msg, local, ts)
			}
		}
	}
}

// compareWithGold maps every message of the corpus, and of extra (JSON
// lines), with ctx, and compares the triples with json-gold's for the
// context value goldCtx. It returns the number of messages and of json-gold
// error literals checked by value instead.
func compareWithGold(t *testing.T, ctx *ldctx.Processed, goldCtx any, extra string) (n, patched int) {
	t.Helper()
	const base = "http://example.com/log/"
	m, err := NewMapping(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	jsonMembers := map[string]func(map[string]any) any{
		rdf.JRPCNS + "hasParameters": func(o map[string]any) any { return o["params"] },
		rdf.JRPCNS + "hasResult":     func(o map[string]any) any { return o["result"] },
		rdf.JRPCNS + "hasErrorData": func(o map[string]any) any {
			e, _ := o["error"].(map[string]any)
			return e["data"]
		},
	}
	inputs := shared.CorpusFiles(t)
	if extra != "" {
		inputs = append(inputs, "extra")
	}
	for _, file := range inputs {
		var f *os.File
		var src io.Reader = strings.NewReader(extra)
		if file != "extra" {
			if f, err = os.Open(file); err != nil {
				t.Fatal(err)
			}
			src = f
		}
		r, _ := rpclog.NewReader(src, file, rpclog.ReaderOptions{})
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			msg := rec.Value.(map[string]any)
			node := fmt.Sprintf("%sm%d", base, n)
			n++
			ours, _, err := m.Triples(msg, node, "x")
			if err != nil {
				t.Fatalf("%s:%d: %v", file, rec.Line, err)
			}
			gold := jsonGoldAlone(t, goldCtx, msg, node, base)
			for i, g := range gold {
				if g.O.Kind != rdf.Literal || !strings.HasPrefix(g.O.Value, "JSON Canonicalization error") {
					continue
				}
				get := jsonMembers[g.P]
				if get == nil {
					t.Fatalf("json-gold error literal on %s", g.P)
				}
				for _, o := range ours {
					ob, gb := o.S.Kind == rdf.Blank, g.S.Kind == rdf.Blank
					if o.P == g.P && (o.S == g.S || ob && gb) {
						var v any
						d := json.NewDecoder(strings.NewReader(o.O.Value))
						d.UseNumber()
						if err := d.Decode(&v); err != nil || !jsonEqual(v, get(msg)) {
							t.Errorf("%s:%d: %s literal %s is not the member's value", file, rec.Line, o.P, o.O)
						}
						gold[i].O = o.O
						patched++
					}
				}
			}
			if ok, diff := rdftest.Isomorphic(ours, gold); !ok {
				t.Errorf("%s:%d: differs from json-gold:\n%s", file, rec.Line, diff)
			}
		}
		if f != nil {
			f.Close()
		}
	}
	return n, patched
}

// jsonGoldAlone runs json-gold's own ToRDF on {"@context": ctx, "@id": node, ...msg}.
func jsonGoldAlone(t *testing.T, ctx any, msg map[string]any, node, base string) []rdf.Triple {
	t.Helper()
	doc := map[string]any{"@context": gold.FloatNumbers(ctx), "@id": node}
	for k, v := range msg {
		doc[k] = v
	}
	opts := gold.Options(base)
	opts.Format = "application/n-quads"
	out, err := ld.NewJsonLdProcessor().ToRDF(doc, opts)
	if err != nil {
		t.Fatalf("json-gold: %v", err)
	}
	ts, err := rdftest.ParseNTriples([]byte(out.(string)))
	if err != nil {
		t.Fatalf("json-gold output: %v\n%s", err, out)
	}
	return ts
}

func jsonEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var va, vb any
	json.Unmarshal(ja, &va)
	json.Unmarshal(jb, &vb)
	return reflect.DeepEqual(va, vb)
}

// graphOf parses N-Triples output.
func graphOf(t *testing.T, nt string) []rdf.Triple {
	t.Helper()
	ts, err := rdftest.ParseNTriples([]byte(nt))
	if err != nil {
		t.Fatalf("%v\n%s", err, nt)
	}
	return ts
}

// objects returns the objects of (s, p).
func objects(ts []rdf.Triple, s, p string) []string {
	var out []string
	for _, t := range ts {
		if t.S.Value == s && t.P == p {
			out = append(out, t.O.Value)
		}
	}
	return out
}

// TestPairing: responses are linked to the request they answer by id and
// opposite direction, even when the server reuses the client's ids; an
// unanswered request and an orphan response are typed as such.
func TestPairing(t *testing.T) {
	const L = "http://example.com/l"
	log := strings.Join([]string{
		`{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{}}}`,
		`{"dir":"s2c","ts":"2026-01-01T00:00:01Z","msg":{"jsonrpc":"2.0","id":0,"method":"roots/list"}}`,
		`{"dir":"c2s","ts":"2026-01-01T00:00:02Z","msg":{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}}`,
		`{"dir":"s2c","ts":"2026-01-01T00:00:03Z","msg":{"jsonrpc":"2.0","id":0,"result":{}}}`,
		`{"dir":"c2s","ts":"not a time","msg":{"jsonrpc":"2.0","id":"q","method":"ping"}}`,
		`{"dir":"s2c","msg":{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"no"}}}`,
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","id":"1","method":"a"}}`,
		`{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":true}}`,
	}, "\n")
	nt, issues := convertString(t, log, rdf.NTriples, L)
	if len(issues) != 1 || !strings.Contains(issues[0].Message, `"not a time" is not a valid xsd:dateTime`) {
		t.Fatalf("issues %v, want one about the time that is not one", issues)
	}
	g := graphOf(t, nt)
	want := map[string]string{
		L + "#c2s-3": L + "#s2c-2", // the client answers the server's roots/list
		L + "#s2c-4": L + "#c2s-1", // the server answers the client's tools/call
	}
	for resp, req := range want {
		if got := objects(g, resp, rdf.JLogAnswers); len(got) != 1 || got[0] != req {
			t.Errorf("%s answers %v, want %s", resp, got, req)
		}
	}
	for node, class := range map[string]string{
		L + "#c2s-5": rdf.JLogUnansweredRequest, // ping never answered
		L + "#s2c-6": rdf.JLogOrphanResponse,    // id 9 was never asked
		L + "#c2s-7": rdf.JLogUnansweredRequest, // id "1" is not id 1
		L + "#s2c-8": rdf.JLogOrphanResponse,
	} {
		if !contains(objects(g, node, rdf.RDFType), class) {
			t.Errorf("%s is not a %s: %v", node, class, objects(g, node, rdf.RDFType))
		}
	}
	if got := objects(g, L+"#c2s-5", rdf.JLogTimestamp); len(got) != 1 || got[0] != "not a time" {
		t.Errorf("timestamp %v", got)
	}
	if got := objects(g, L+"#c2s-7", rdf.JLogID); len(got) != 1 || got[0] != "1" {
		t.Errorf("jlog:id of a string id %v", got)
	}
}

// TestPairingSessions: two MCP sessions of one log, interleaved and both
// numbering their ids from 0, pair each response with its own session's
// request (the latest open request of the id is the other session's);
// a response of a session that made no such request answers nothing.
func TestPairingSessions(t *testing.T) {
	const L = "http://example.com/l"
	log := strings.Join([]string{
		`{"dir":"c2s","session":"A","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}}`,
		`{"dir":"c2s","session":"B","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}}`,
		`{"dir":"s2c","session":"A","msg":{"jsonrpc":"2.0","id":0,"result":{}}}`,
		`{"dir":"s2c","session":"B","msg":{"jsonrpc":"2.0","id":0,"result":{}}}`,
		`{"dir":"c2s","session":"B","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}`,
		`{"dir":"s2c","session":"A","msg":{"jsonrpc":"2.0","id":1,"result":{}}}`,
		`{"dir":"s2c","session":"B","msg":{"jsonrpc":"2.0","id":1,"result":{}}}`,
	}, "\n")
	nt, issues := convertString(t, log, rdf.NTriples, L)
	if len(issues) != 0 {
		t.Fatalf("issues %v", issues)
	}
	g := graphOf(t, nt)
	for resp, req := range map[string]string{
		L + "#s2c-3": L + "#c2s-1",
		L + "#s2c-4": L + "#c2s-2",
		L + "#s2c-7": L + "#c2s-5",
	} {
		if got := objects(g, resp, rdf.JLogAnswers); len(got) != 1 || got[0] != req {
			t.Errorf("%s answers %v, want %s", resp, got, req)
		}
	}
	if got := objects(g, L+"#s2c-6", rdf.JLogAnswers); len(got) != 0 || !contains(objects(g, L+"#s2c-6", rdf.RDFType), rdf.JLogOrphanResponse) {
		t.Errorf("session A's response to id 1 answers %v, types %v: want an orphan", got, objects(g, L+"#s2c-6", rdf.RDFType))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestCorpusPairing checks every jlog:answers link of the corpus against an
// independent reading of the envelopes: same id, opposite direction, earlier.
func TestCorpusPairing(t *testing.T) {
	for _, file := range shared.CorpusFiles(t) {
		if !strings.HasSuffix(file, ".dir.jsonl") {
			continue
		}
		data, _ := os.ReadFile(file)
		type env struct {
			Dir string
			Msg map[string]any
		}
		var msgs []env
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var e env
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, e)
		}
		const L = "http://example.com/c"
		nt, _ := convertString(t, string(data), rdf.NTriples, L)
		g := graphOf(t, nt)
		links := 0
		for i, m := range msgs {
			_, isResp := m.Msg["result"]
			_, isErr := m.Msg["error"]
			if !isResp && !isErr {
				continue
			}
			node := fmt.Sprintf("%s#%s-%d", L, m.Dir, i+1)
			got := objects(g, node, rdf.JLogAnswers)
			if len(got) != 1 {
				t.Errorf("%s: response %s answers %v", filepath.Base(file), node, got)
				continue
			}
			var j int
			var dir string
			fmt.Sscanf(strings.TrimPrefix(got[0], L+"#"), "%3s-%d", &dir, &j)
			req := msgs[j-1]
			if j-1 >= i || req.Dir == m.Dir || fmt.Sprint(req.Msg["id"]) != fmt.Sprint(m.Msg["id"]) || req.Msg["method"] == nil {
				t.Errorf("%s: %s answers %s, which is not an earlier request with its id the other way", filepath.Base(file), node, got[0])
			}
			links++
		}
		if links == 0 {
			t.Errorf("%s: no responses", file)
		}
	}
}

// TestBatchGraph: a batch is a node linking its members, each typed, in
// order; a member that is no message is kept as a jlog:InvalidMessage.
func TestBatchGraph(t *testing.T) {
	const L = "http://example.com/b"
	nt, issues := convertString(t, `[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"n"},5]`, rdf.NTriples, L)
	if len(issues) != 1 || !strings.Contains(issues[0].Message, "member 2") {
		t.Errorf("issues %v, want one about member 2", issues)
	}
	g := graphOf(t, nt)
	node := L + "#m1"
	if !contains(objects(g, node, rdf.RDFType), rdf.JLogBatch) || len(objects(g, node, rdf.JLogMember)) != 3 {
		t.Fatalf("batch node: %s", nt)
	}
	if !contains(objects(g, node+".2", rdf.RDFType), rdf.JLogInvalidMessage) || !slices.Equal(objects(g, node+".2", rdf.JLogJSON), []string{"5"}) {
		t.Errorf("member 2: %s", nt)
	}
	if !contains(objects(g, node+".0", rdf.RDFType), rdf.JRPCNS+"Request") || !contains(objects(g, node+".1", rdf.RDFType), rdf.JRPCNS+"Notification") {
		t.Errorf("member types: %s", nt)
	}
	if got := objects(g, node+".1", rdf.JLogMemberIndex); len(got) != 1 || got[0] != "1" {
		t.Errorf("member index %v", got)
	}
}

// TestInvalidKeepsContent: a message that breaks the rules, alone or in a
// batch, keeps the statements the context gives for its members, as a
// JSON-LD processor makes them, besides its exact text; a member whose name
// starts with "@" stays data there too.
func TestInvalidKeepsContent(t *testing.T) {
	const L = "http://example.com/inv"
	log := `{"jsonrpc":"1.0","id":7,"method":"m","params":{"a":1}}` + "\n" +
		`[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"3","result":true,"@id":"http://evil.example/"}]` + "\n"
	nt, _ := convertString(t, log, rdf.NTriples, L)
	g := graphOf(t, nt)
	for _, c := range []struct {
		node, p string
		want    []string
	}{
		{L + "#m1", rdf.JRPCNS + "version", []string{"1.0"}},
		{L + "#m1", rdf.JRPCNS + "hasId", []string{"7"}},
		{L + "#m1", rdf.JRPCNS + "hasMethod", []string{"m"}},
		{L + "#m1", rdf.JRPCNS + "hasParameters", []string{`{"a":1}`}},
		{L + "#m1", rdf.JLogJSON, []string{`{"jsonrpc":"1.0","id":7,"method":"m","params":{"a":1}}`}},
		{L + "#m2.1", rdf.JRPCNS + "version", []string{"3"}},
		{L + "#m2.1", rdf.JRPCNS + "hasResult", []string{"true"}},
		{L + "#m2.0", rdf.JRPCNS + "version", []string{"2.0"}},
	} {
		if got := objects(g, c.node, c.p); !slices.Equal(got, c.want) {
			t.Errorf("%s %s: %q, want %q", c.node, c.p, got, c.want)
		}
	}
	if !contains(objects(g, L+"#m1", rdf.RDFType), rdf.JLogInvalidMessage) || !contains(objects(g, L+"#m2.1", rdf.RDFType), rdf.JLogInvalidMessage) {
		t.Errorf("not typed jlog:InvalidMessage:\n%s", nt)
	}
	if strings.Contains(nt, "evil") && !strings.Contains(nt, `\"@id\":\"http://evil.example/\"`) {
		t.Errorf("an \"@id\" member reached the processor:\n%s", nt)
	}
	for _, tr := range g {
		if tr.S.Value == "http://evil.example/" || tr.O.Kind == rdf.IRI && tr.O.Value == "http://evil.example/" {
			t.Errorf("an \"@id\" member reached the processor: %v", tr)
		}
	}
}

// TestBlankLabelsDoNotCollide: the N-Triples of two logs, concatenated, keep
// their blank nodes apart.
func TestBlankLabelsDoNotCollide(t *testing.T) {
	log := `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}` + "\n" + `{"jsonrpc":"2.0","id":2,"error":{"code":-2,"message":"y"}}` + "\n"
	a, _ := convertString(t, log, rdf.NTriples, "http://example.com/a")
	b, _ := convertString(t, log, rdf.NTriples, "http://example.com/b")
	g := graphOf(t, a+b)
	blanks := map[string]bool{}
	for _, tr := range g {
		if tr.O.Kind == rdf.Blank {
			blanks[tr.O.Value] = true
		}
	}
	if len(blanks) != 4 {
		t.Errorf("%d distinct blank nodes, want 4 (2 per log)", len(blanks))
	}
}

// TestBadLines: a line that is not JSON is reported with its line and
// skipped; one that is no message is reported and kept as a
// jlog:InvalidMessage; "@" keys are data, reported and left out.
func TestBadLines(t *testing.T) {
	log := "not json\n" + `{"jsonrpc":"2.0","method":1}` + "\n" +
		`{"jsonrpc":"2.0","method":"m","@context":{"x":"http://evil.example/"},"@id":"http://evil.example/me","x":1}` + "\n"
	nt, issues := convertString(t, log, rdf.NTriples, "http://example.com/bad")
	var got []string
	for _, i := range issues {
		got = append(got, i.String())
	}
	want := []string{"http://example.com/bad:1:2: skipped:", "http://example.com/bad:2: warning: not a JSON-RPC 2.0 message, kept as jlog:InvalidMessage", `http://example.com/bad:3: warning: member "@context" is data`, `http://example.com/bad:3: warning: member "@id" is data`}
	if len(got) != len(want) {
		t.Fatalf("issues %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("issue %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	// The invalid message's notice names its pointer once.
	if strings.Count(got[1], "(at /method)") != 1 {
		t.Errorf("issue %q: want its pointer once", got[1])
	}
	// The "@" members are carried as data (a literal), never as JSON-LD:
	// no IRI of the graph comes from them.
	for _, tr := range graphOf(t, nt) {
		if strings.Contains(tr.S.Value, "evil") || strings.Contains(tr.P, "evil") {
			t.Errorf("a message's own @context or @id reached the processor: %v", tr)
		}
		if tr.O.Kind == rdf.IRI && strings.Contains(tr.O.Value, "evil") {
			t.Errorf("a message's own @context or @id reached the processor: %v", tr)
		}
	}
	if !strings.Contains(nt, "<http://example.com/bad#m3> <"+rdf.JRPCNS+"hasMethod> \"m\"") {
		t.Errorf("the valid part of line 3 is missing:\n%s", nt)
	}
}

// TestBytesMessages: a message an envelope holds as "bytes" (text that is
// not UTF-8) is in the graph, at its position, with its direction and
// time: typed jlog:InvalidMessage, its exact bytes in an xsd:base64Binary
// jlog:bytes, and a problem (-32700) that names the offset of its first
// byte that is not UTF-8; a notice tells it is kept. Only the line that is
// not JSON at all is skipped.
func TestBytesMessages(t *testing.T) {
	const L = "http://example.com/b"
	log := `{"dir":"s2c","ts":"2026-01-02T03:04:05.006Z","bytes":"Y2Fm6SBhdSBsYWl0"}` + "\n" + // "caf\xe9 au lait"
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"m"}}` + "\n" +
		"not JSON\n" +
		`{"dir":"c2s","bytes":"/w=="}` + "\n" // "\xff"
	nt, issues := convertString(t, log, rdf.NTriples, L)
	var got []string
	for _, i := range issues {
		got = append(got, i.String())
	}
	want := []string{
		L + ":1: warning: not JSON text, kept as jlog:InvalidMessage with its exact bytes in jlog:bytes: byte 0xe9 at offset 3 of the message is not UTF-8",
		L + ":3:2: skipped:",
		L + ":4: warning: not JSON text, kept as jlog:InvalidMessage with its exact bytes in jlog:bytes: byte 0xff at offset 0 of the message is not UTF-8",
	}
	if len(got) != len(want) {
		t.Fatalf("issues %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("issue %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	// The statements about the bytes' messages and their problems, with
	// each problem's words checked and then left out.
	g := graphOf(t, nt)
	var kept []rdf.Triple
	for _, tr := range g {
		if tr.P == rdf.JLogMessage {
			if !strings.Contains(tr.O.Value, "is not UTF-8") {
				t.Errorf("problem message %q", tr.O.Value)
			}
			continue
		}
		if tr.S.Kind == rdf.Blank || tr.S.Value == L+"#s2c-1" || tr.S.Value == L+"#c2s-4" {
			kept = append(kept, tr)
		}
	}
	wantNT := `<` + L + `#s2c-1> <` + rdf.RDFType + `> <` + rdf.JLogInvalidMessage + `> .
<` + L + `#s2c-1> <` + rdf.JLogInLog + `> <` + L + `> .
<` + L + `#s2c-1> <` + rdf.JLogPosition + `> "1"^^<` + rdf.XSDInteger + `> .
<` + L + `#s2c-1> <` + rdf.JLogDirection + `> <` + rdf.JLogServerToClient + `> .
<` + L + `#s2c-1> <` + rdf.JLogTimestamp + `> "2026-01-02T03:04:05.006Z"^^<` + rdf.XSDDateTime + `> .
<` + L + `#s2c-1> <` + rdf.JLogBytes + `> "Y2Fm6SBhdSBsYWl0"^^<http://www.w3.org/2001/XMLSchema#base64Binary> .
<` + L + `#s2c-1> <` + rdf.JLogProblem + `> _:p1 .
_:p1 <` + rdf.RDFType + `> <` + rdf.JLogNS + `Problem> .
_:p1 <` + rdf.JLogCode + `> "-32700"^^<` + rdf.XSDInteger + `> .
_:p1 <` + rdf.JLogPointer + `> "" .
<` + L + `#c2s-4> <` + rdf.RDFType + `> <` + rdf.JLogInvalidMessage + `> .
<` + L + `#c2s-4> <` + rdf.JLogInLog + `> <` + L + `> .
<` + L + `#c2s-4> <` + rdf.JLogPosition + `> "4"^^<` + rdf.XSDInteger + `> .
<` + L + `#c2s-4> <` + rdf.JLogDirection + `> <` + rdf.JLogClientToServer + `> .
<` + L + `#c2s-4> <` + rdf.JLogBytes + `> "/w=="^^<http://www.w3.org/2001/XMLSchema#base64Binary> .
<` + L + `#c2s-4> <` + rdf.JLogProblem + `> _:p4 .
_:p4 <` + rdf.RDFType + `> <` + rdf.JLogNS + `Problem> .
_:p4 <` + rdf.JLogCode + `> "-32700"^^<` + rdf.XSDInteger + `> .
_:p4 <` + rdf.JLogPointer + `> "" .
`
	if ok, why := rdftest.Isomorphic(kept, graphOf(t, wantNT)); !ok {
		t.Errorf("the bytes' messages: %s\n%s", why, nt)
	}
	if !slices.Contains(objects(g, L+"#c2s-2", rdf.RDFType), rdf.JRPCNS+"Notification") || !slices.Contains(objects(g, L, rdf.RDFType), rdf.JLogLog) {
		t.Errorf("the log or the message around the bytes is missing:\n%s", nt)
	}
}

// TestStrict: --strict stops at the first bad message; what was written
// before is complete rdf.Turtle, and holds every message before it, in
// the batch of the bad line and in those before.
func TestStrict(t *testing.T) {
	for _, before := range []int{1, 100, 256, 257, 700} {
		c := NewConverter(toolchaintest.DefaultContext(t))
		c.Strict = true
		var log strings.Builder
		for i := 0; i < before; i++ {
			fmt.Fprintf(&log, `{"jsonrpc":"2.0","method":"a%d"}`+"\n", i)
		}
		log.WriteString("garbage\n" + `{"jsonrpc":"2.0","method":"b"}` + "\n")
		r, _ := rpclog.NewReader(strings.NewReader(log.String()), "s", rpclog.ReaderOptions{})
		var buf bytes.Buffer
		err := c.Convert(&buf, rdf.Turtle, []Log{{Reader: r, File: "s", IRI: "http://example.com/s"}})
		if want := fmt.Sprintf("s:%d", before+1); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%d before: error %v, want one naming %s", before, err, want)
		}
		g := rdftest.Rapper(t, buf.Bytes(), "")
		if n := countType(g, rdf.JRPCNS+"Notification"); n != before || strings.Contains(buf.String(), `"b"`) {
			t.Errorf("%d before: %d notifications written before the stop, or the one after", before, n)
		}
	}
}

// TestFormatsAgree: N-Quads (a graph per log), JSON-LD compacted and
// expanded all hold the graph the N-Triples hold.
func TestFormatsAgree(t *testing.T) {
	data, err := os.ReadFile("../examples/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	logs := map[string]string{"http://example.com/one": string(data), "http://example.com/two": string(data)}
	nt, _, err := convertLogs(t, rdf.NTriples, logs)
	if err != nil {
		t.Fatal(err)
	}
	want := graphOf(t, nt)

	nq, _, err := convertLogs(t, rdf.NQuads, logs)
	if err != nil {
		t.Fatal(err)
	}
	quads, err := rdftest.ParseNQuads([]byte(nq))
	if err != nil {
		t.Fatal(err)
	}
	graphs := map[string]int{}
	var merged []rdf.Triple
	for _, q := range quads {
		graphs[q.G.Value]++
		merged = append(merged, q.Triple)
	}
	if len(graphs) != 2 || graphs["http://example.com/one"] == 0 || graphs["http://example.com/two"] == 0 {
		t.Errorf("graphs %v, want one per log", graphs)
	}
	if ok, diff := rdftest.Isomorphic(merged, want); !ok {
		t.Errorf("N-Quads differ:\n%s", diff)
	}

	for _, f := range []rdf.Format{rdf.JSONLD, rdf.JSONLDExpanded} {
		out, _, err := convertLogs(t, f, logs)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		d := json.NewDecoder(strings.NewReader(out))
		d.UseNumber()
		if err := d.Decode(&doc); err != nil {
			t.Fatalf("%v: not JSON: %v", f, err)
		}
		opts := gold.Options("")
		opts.Format = "application/n-quads"
		back, err := ld.NewJsonLdProcessor().ToRDF(gold.FloatNumbers(doc), opts)
		if err != nil {
			t.Fatalf("%v: json-gold cannot read it: %v", f, err)
		}
		got := graphOf(t, back.(string))
		// json-gold re-canonicalises rdf:JSON literals itself; compare
		// after checking it did not turn any into its error text.
		if strings.Contains(back.(string), "JSON Canonicalization error") {
			t.Logf("%v: json-gold failed on a JSON literal when reading back (known limitation)", f)
			continue
		}
		if ok, diff := rdftest.Isomorphic(got, want); !ok {
			t.Errorf("%v reads back differently:\n%s", f, diff)
		}
	}
}

// TestDuplicateMembers: a member named twice is told, with its line and
// pointer into the message, by both engines alike: in values the compiled
// engine reads from their text (params, result) as in those the log reader
// decodes (id, the members of a batch, an envelope's message).
func TestDuplicateMembers(t *testing.T) {
	log := `{"jsonrpc":"2.0","id":1,"method":"a","params":{"x":1,"x":2}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"id":1,"result":{"b":{"y":1,"y":[]}}}` + "\n" +
		`{"dir":"s2c","msg":{"jsonrpc":"2.0","method":"n","params":{"a":1,"a":1,"a":1}}}` + "\n" +
		`[{"jsonrpc":"2.0","method":"n","params":[{"c":1,"c":2}]}]` + "\n"
	want := []string{
		`f:1: warning: member "x" appears twice in one object: the last one is used (at /params/x)`,
		`f:2: warning: member "id" appears twice in one object: the last one is used (at /id)`,
		`f:2: warning: member "y" appears twice in one object: the last one is used (at /result/b/y)`,
		`f:3: warning: member "a" appears 3 times in one object: the last one is used (at /params/a)`,
		`f:4: warning: member "c" appears twice in one object: the last one is used (at /0/params/0/c)`,
	}
	for _, engine := range []Engine{EngineCompiled, EngineJSONGold} {
		c := NewConverter(toolchaintest.DefaultContext(t))
		c.Engine = engine
		var got []string
		c.Report = func(d diag.Diagnostic) { got = append(got, d.String()) }
		r, err := rpclog.NewReader(strings.NewReader(log), "f", rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Convert(io.Discard, rdf.NTriples, []Log{{Reader: r, File: "f", IRI: "http://example.com/f"}}); err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("engine %d: notices\n%s\nwant\n%s", engine, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestProcessorFailureKeepsMessage: a message on which json-gold itself
// fails (with the MCP block, an empty member name next to numbers makes it
// panic) is kept, with a notice, its content in jlog:patch, and comes back
// whole from the graph.
func TestProcessorFailureKeepsMessage(t *testing.T) {
	ctx := toolchaintest.MCPContext(t)
	const msg = `{"jsonrpc":"2.0","id":"0","method":"m","params":{"":[{"":0},0]}}`
	for _, engine := range []Engine{EngineCompiled, EngineJSONGold} {
		c := NewConverter(ctx)
		c.Engine = engine
		var notices []string
		c.Report = func(d diag.Diagnostic) {
			if d.Severity == diag.Error {
				t.Errorf("engine %d: %v", engine, d)
			}
			notices = append(notices, d.Message)
		}
		r, err := rpclog.NewReader(strings.NewReader("["+msg+","+msg+"]\n"+msg+"\n"), "f", rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var nq bytes.Buffer
		if err := c.Convert(&nq, rdf.NQuads, []Log{{Reader: r, File: "f", IRI: "http://example.com/f"}}); err != nil {
			t.Fatal(err)
		}
		var back bytes.Buffer
		res, err := wire.NewDecoder(ctx).WriteJSONL(&back, &nq, rdf.NQuads, wire.JSONLOptions{})
		if err != nil || len(res.Problems) > 0 {
			t.Fatalf("engine %d: %v %v", engine, err, res.Problems)
		}
		if want := "[" + msg + "," + msg + "]\n" + msg + "\n"; back.String() != want {
			t.Errorf("engine %d: back\n%s\nwant\n%s", engine, back.String(), want)
		}
		if engine == EngineJSONGold && !strings.Contains(strings.Join(notices, "\n"), "jlog:patch keeps it") {
			t.Errorf("engine %d: notices %q", engine, notices)
		}
	}
}
