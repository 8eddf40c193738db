package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// engineContext exercises what the compiled plan covers and what it hands
// to json-gold: prefixes, coercions of every kind, property-scoped contexts
// (nested, redefining terms, setting @base and @vocab), terms mapped to null,
// and features outside the plan (@list, @language, keyword aliases,
// @reverse, @vocab coercion, @nest).
const engineContext = `{
  "@version": 1.1,
  "ex": "http://example.org/ns#",
  "xsd": "http://www.w3.org/2001/XMLSchema#",
  "jsonrpc": {"@id": "ex:version", "@type": "xsd:string"},
  "method": {"@id": "ex:method", "@type": "xsd:string"},
  "id": {"@id": "ex:id", "@type": "@id"},
  "params": {"@id": "ex:params", "@type": "@json"},
  "result": {"@id": "ex:result", "@context": {
      "count": {"@id": "ex:count", "@type": "xsd:integer"},
      "ratio": {"@id": "ex:ratio", "@type": "xsd:double"},
      "flag": {"@id": "ex:flag", "@type": "xsd:boolean"},
      "when": {"@id": "ex:when", "@type": "xsd:dateTime"},
      "kind": {"@id": "ex:kind", "@type": "ex:Kind"},
      "ref": {"@id": "ex:ref", "@type": "@id"},
      "data": {"@id": "ex:data", "@type": "@json"},
      "inner": {"@id": "ex:inner", "@context": {"@base": "http://inner.example/x/", "name": "ex:innerName"}},
      "voc": {"@id": "ex:voc", "@context": {"@vocab": "http://vocab.example/"}},
      "reset": {"@id": "ex:reset", "@context": [null, {"only": "ex:only"}]},
      "method": {"@id": "ex:innerMethod"},
      "steps": {"@id": "ex:steps", "@type": "@id", "@container": "@list"}
  }},
  "error": {"@id": "ex:error", "@type": "@id", "@context": {
      "code": {"@id": "ex:code", "@type": "xsd:integer"},
      "message": {"@id": "ex:message"},
      "data": {"@id": "ex:errorData", "@type": "@json"}
  }},
  "plain": "ex:plain",
  "set": {"@id": "ex:set", "@container": "@set"},
  "list": {"@id": "ex:list", "@container": "@list"},
  "refs": {"@id": "ex:refs", "@type": "@id", "@container": "@list"},
  "nums": {"@id": "ex:nums", "@type": "xsd:decimal", "@container": "@list"},
  "items": {"@id": "ex:items", "@container": "@list", "@context": {"name": "ex:itemName"}},
  "jlist": {"@id": "ex:jlist", "@type": "@json", "@container": "@list"},
  "label": {"@id": "ex:label", "@language": "en"},
  "type": "@type",
  "back": {"@reverse": "ex:back"},
  "vocabRef": {"@id": "ex:vocabRef", "@type": "@vocab"},
  "nothing": null,
  "ex:curie": {"@id": "ex:curie"},
  "same1": "ex:same",
  "same2": "ex:same",
  "typeProp": "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
}`

func decodeValue(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// engineMappings returns mappings of the default block and the test context,
// and of the MCP block when ../shared is there.
func engineMappings(t testing.TB, base string) map[string]*Mapping {
	t.Helper()
	ctxs := map[string]*ldctx.Processed{"default": toolchaintest.DefaultContext(t), "test": processed(t, decodeValue(t, engineContext))}
	if mcp := toolchaintest.MCPContextIfPresent(t); mcp != nil {
		ctxs["mcp"] = mcp
	}
	out := map[string]*Mapping{}
	for name, ctx := range ctxs {
		m, err := NewMapping(ctx, base)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = m
	}
	return out
}

// compareEngines maps msg with both engines and fails the test when the
// graphs or the notices differ, or when the compiled plan says the message
// needs no patch, or which patch it needs, but reading it back says
// otherwise. It reports whether the compiled plan covered the message.
func compareEngines(t testing.TB, what string, m *Mapping, msg map[string]any, node string) bool {
	t.Helper()
	gold, gLeft, gChanges, gErr := m.goldTriples(nil, msg, node, "g")
	comp, cLeft, cChanges, whole, fix, ok := m.compiledTriples(msg, node, "c", nil)
	if !ok {
		return false
	}
	if gErr != nil {
		t.Errorf("%s: json-gold fails (%v) where the plan maps", what, gErr)
		return true
	}
	if iso, diff := rdftest.Isomorphic(comp, gold); !iso {
		t.Errorf("%s: the engines differ:\n%s", what, diff)
	}
	if !reflect.DeepEqual(cLeft, gLeft) {
		t.Errorf("%s: left out\n compiled %v\n json-gold %v", what, cLeft, gLeft)
	}
	if !reflect.DeepEqual(cChanges, gChanges) {
		t.Errorf("%s: changes\n compiled %v\n json-gold %v", what, cChanges, gChanges)
	}
	if whole || fix != "" {
		var id []rdf.Triple
		if v, ok := msg["id"]; ok {
			id = []rdf.Triple{rdf.T(rdf.NewIRI(node), rdf.JLogID, jlog.IDLiteral(v))}
		}
		if p, err := m.patch(msg, node, comp, id); err != nil || p != fix {
			t.Errorf("%s: said the patch is %q, but reading back gives %q (%v)", what, fix, p, err)
		}
	}
	return true
}

// engineMessages returns the messages of a log text: each object, and each
// object member of a batch.
func engineMessages(t testing.TB, data []byte) []map[string]any {
	r, err := rpclog.NewReader(bytes.NewReader(data), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		switch v := rec.Value.(type) {
		case map[string]any:
			out = append(out, v)
		case []any:
			for _, e := range v {
				if o, ok := e.(map[string]any); ok {
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// TestEnginesCorpus: every corpus message gives the same graph and notices
// with both engines, with the default block, the MCP block and the test
// context; the plan covers every message of the default block.
func TestEnginesCorpus(t *testing.T) {
	for _, base := range []string{"http://example.com/logs/x/", "file:///tmp/logs/x.jsonl/"} {
		for name, m := range engineMappings(t, base) {
			n, covered := 0, 0
			for _, file := range shared.CorpusFiles(t) {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				for i, msg := range engineMessages(t, data) {
					node := base + "m" + fmt.Sprint(i)
					n++
					if compareEngines(t, fmt.Sprintf("%s %s message %d", name, filepath.Base(file), i), m, msg, node) {
						covered++
					}
				}
			}
			t.Logf("%s, base %s: the plan covers %d of %d messages", name, base, covered, n)
			if name == "default" && covered != n {
				t.Errorf("default block: the plan covers %d of %d messages", covered, n)
			}
		}
	}
}

// engineCases are messages that probe json-gold's quirks; they also seed
// FuzzEngines.
var engineCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,2.5,"x",null,true]}}`,
	`{"jsonrpc":"2.0","id":"abc","method":"m"}`,
	`{"jsonrpc":"2.0","id":"a b","method":"m"}`,
	`{"jsonrpc":"2.0","id":"../up","method":"m"}`,
	`{"jsonrpc":"2.0","id":"http://example.org/abs","method":"m"}`,
	`{"jsonrpc":"2.0","id":"ex:curie","method":"m"}`,
	`{"jsonrpc":"2.0","id":"_:b7","method":"m"}`,
	`{"jsonrpc":"2.0","id":"@keyword","method":"m"}`,
	`{"jsonrpc":"2.0","id":"","method":"m"}`,
	`{"jsonrpc":"2.0","id":".","method":"m"}`,
	`{"jsonrpc":"2.0","id":"?q=1","method":"m"}`,
	`{"jsonrpc":"2.0","id":"#frag","method":"m"}`,
	`{"jsonrpc":"2.0","id":"é","method":"m"}`,
	`{"jsonrpc":"2.0","id":null,"result":1}`,
	`{"jsonrpc":"2.0","id":1.5,"result":1}`,
	`{"jsonrpc":"2.0","id":1e400,"result":1}`,
	`{"jsonrpc":"2.0","id":9223372036854775808,"result":1}`,
	`{"jsonrpc":"2.0","id":-9223372036854775808,"result":1}`,
	`{"jsonrpc":"2.0","id":-0,"result":1}`,
	`{"jsonrpc":"2.0","id":1.0,"result":1}`,
	`{"jsonrpc":"2.0","id":1E2,"result":1}`,
	`{"jsonrpc":"2.0","id":9007199254740993,"result":[1e400]}`,
	`{"jsonrpc":"2.0","id":2,"result":{"count":1,"ratio":1,"flag":true,"when":"2020-01-01T00:00:00Z","kind":"k","ref":"r1","data":{"x":[1,0.1]}}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"count":"12","ratio":0.5,"flag":"true","when":3,"kind":false,"ref":5,"data":"s"}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"count":1e400,"ratio":1e308,"flag":null,"data":null}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"inner":{"name":"n","ref":"q"},"voc":{"free":1},"reset":{"only":1,"count":2}}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"method":"inner","count":[1,[2,[3]],null]}}`,
	`{"jsonrpc":"2.0","id":2,"result":{}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"unknown":{"@x":1,"n":1e999}}}`,
	`{"jsonrpc":"2.0","id":2,"result":[{"count":1},{"count":1},{}]}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no","data":{"deep":[{"a":null}]}}}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32601.5,"message":["a","a",1]}}`,
	`{"jsonrpc":"2.0","id":3,"error":"string error"}`,
	`{"jsonrpc":"2.0","method":"n","plain":["x","x",1,1.0,true]}`,
	`{"jsonrpc":"2.0","method":"n","set":[1,2],"list":[1,2]}`,
	`{"jsonrpc":"2.0","method":"n","label":"hello"}`,
	`{"jsonrpc":"2.0","method":"n","type":"ex:T"}`,
	`{"jsonrpc":"2.0","method":"n","back":"http://example.org/b"}`,
	`{"jsonrpc":"2.0","method":"n","vocabRef":"ex:x"}`,
	`{"jsonrpc":"2.0","method":"n","nothing":1,"ex:curie":2,"ex:other":3,"http://example.org/abs":4,"a:b":5,"_:x":{"plain":1}}`,
	`{"jsonrpc":"2.0","method":"n","same1":"a","same2":"a","typeProp":"t"}`,
	`{"jsonrpc":"2.0","method":"n","@context":{"x":"http://evil/"},"@id":"http://evil/","@type":"T","x":1}`,
	`{"jsonrpc":"2.0","method":"n","params":{"@id":"x"},"result":{"data":{"@type":"y"}}}`,
	`{"jsonrpc":"2.0","method":"n","":1,"params":{"":2}}`,
	`{"jsonrpc":"2.0","method":"tab\t\"quote\"\\ \u0000 \u2028 🎉"}`,
	`{"jsonrpc":"2.0","id":7,"result":{"_meta":{"progressToken":1},"content":[{"type":"text","text":"hi"}],"structuredContent":{"a":1},"isError":false}}`,
	`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"c","version":"1"}}}`,
	`{}`,
	`{"foo":1,"@x":2}`,
	`{"method":null,"x":1e400,"params":1e400}`,
	`{"jsonrpc":"2.0","id":7,"result":{"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","title":"t","version":"2"},"instructions":"x"}}`,
	// Members the log reader may leave undecoded, in places and forms the
	// plan cannot map from their text.
	`{"jsonrpc":"2.0","id":1,"method":"m","msg":{"params":{"x":1e400,"y":[1.0]},"result":[1e400]}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":1.0,"b":"\u00e9","c":1E2,"d":12345678901234567890}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2,"é":{"z":1,"\u0061":2}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"data":{"params":{"b":1,"a":1e400}}},"x":{"result":{"k":1e400}}}`,
	// Lists: empty, of nothing, of one, of everything, nested, under
	// coercions and scoped contexts.
	`{"jsonrpc":"2.0","method":"n","list":[]}`,
	`{"jsonrpc":"2.0","method":"n","list":[null,null]}`,
	`{"jsonrpc":"2.0","method":"n","list":null,"refs":null}`,
	`{"jsonrpc":"2.0","method":"n","list":"one","refs":"r","nums":7}`,
	`{"jsonrpc":"2.0","method":"n","list":1e400}`,
	`{"jsonrpc":"2.0","method":"n","list":[1e400]}`,
	`{"jsonrpc":"2.0","method":"n","list":[1e400,2,1e400]}`,
	`{"jsonrpc":"2.0","method":"n","list":[1,1,"a",true,1.5,null,{"plain":2},{},"a",12345678901234567890]}`,
	`{"jsonrpc":"2.0","method":"n","list":[[1]]}`,
	`{"jsonrpc":"2.0","method":"n","list":[1,[2,3]]}`,
	`{"jsonrpc":"2.0","method":"n","list":{"plain":1,"list":[{"list":[]}]}}`,
	`{"jsonrpc":"2.0","method":"n","list":[{"@x":1},{"nothing":1}]}`,
	`{"jsonrpc":"2.0","method":"n","refs":["a","b","a"],"nums":[1,"2.5",true,1.0]}`,
	`{"jsonrpc":"2.0","method":"n","refs":["a b"]}`,
	`{"jsonrpc":"2.0","method":"n","refs":[{"plain":1},"x"]}`,
	`{"jsonrpc":"2.0","method":"n","items":[{"name":"x"},{"name":"y","plain":1,"list":[1]}],"set":[[]]}`,
	`{"jsonrpc":"2.0","id":3,"result":{"steps":["s1",{"count":2},"s1"],"inner":{"name":"n"}}}`,
	`{"jsonrpc":"2.0","id":"l","list":[true],"result":{"steps":[]}}`,
	`{"jsonrpc":"2.0","method":"n","jlist":[1,{"b":2,"a":1}],"list":[{"jlist":null}]}`,
	// Two terms of one property (the MCP block's _meta and metadata).
	`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"_meta":{"progressToken":"p"},"name":"n"}}`,
	`{"jsonrpc":"2.0","id":8,"method":"m","params":{"metadata":{"a":1},"name":"n"}}`,
	`{"jsonrpc":"2.0","id":8,"method":"m","params":{"_meta":{"a":1},"metadata":{"a":1}}}`,
	`{"jsonrpc":"2.0","id":8,"method":"m","params":{"_meta":{"a":1},"metadata":{"b":2}}}`,
	// Numbers under a datatype that is no number's (fixNumber).
	`{"jsonrpc":"2.0","id":2,"result":{"kind":5,"flag":1}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"kind":5,"count":[1]}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"kind":1e400}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"kind":[5]}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"count":5.0}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":1,"total":2}}`,
	`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"_meta":{"progressToken":-0.5e1},"name":"n"}}`,
}

// TestFixNumber: a message whose one loss on the way back is a number
// under a datatype that is no number's gets its patch from the plan, one
// "replace" (RFC 6902) at the number's pointer with the number as written,
// the same text reading the statements back gives (compareEngines); two
// such numbers, or one beside any other loss, are left to reading back
// (want ""), and a message with no loss needs no patch (want "whole").
func TestFixNumber(t *testing.T) {
	cases := []struct {
		block, msg, want string
	}{
		{"test", `{"jsonrpc":"2.0","id":2,"result":{"kind":5}}`, `[{"op":"replace","path":"/result/kind","value":5}]`},
		{"test", `{"jsonrpc":"2.0","id":2,"result":{"kind":-0.50e1,"count":3}}`, `[{"op":"replace","path":"/result/kind","value":-0.50e1}]`},
		{"test", `{"jsonrpc":"2.0","method":5}`, `[{"op":"replace","path":"/method","value":5}]`},
		{"test", `{"jsonrpc":"2.0","id":2,"result":{"kind":5,"flag":1}}`, ""},
		{"test", `{"jsonrpc":"2.0","id":2,"result":{"kind":5,"count":[1]}}`, ""},
		{"test", `{"jsonrpc":"2.0","id":2,"result":{"kind":1e400}}`, ""},
		{"test", `{"jsonrpc":"2.0","id":2,"result":{"count":5.0}}`, ""},
		{"mcp", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":1,"total":2}}`,
			`[{"op":"replace","path":"/params/progressToken","value":5}]`},
		{"mcp", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"_meta":{"progressToken":12},"name":"n"}}`,
			"whole"}, // _meta is an @json value there
	}
	ms := engineMappings(t, "http://example.com/logs/x/")
	for _, c := range cases {
		m := ms[c.block]
		if m == nil {
			continue // the MCP block needs ../shared
		}
		msg := decodeValue(t, c.msg).(map[string]any)
		const node = "http://example.com/logs/x#c2s-1"
		if !compareEngines(t, c.msg, m, msg, node) {
			t.Errorf("%s: the plan does not cover it", c.msg)
			continue
		}
		_, _, _, whole, fix, _ := m.compiledTriples(msg, node, "c", nil)
		got := fix
		if whole {
			got = "whole"
		}
		if got != c.want {
			t.Errorf("%s: whole %v, patch %s; want %s", c.msg, whole, fix, c.want)
		}
	}
}

// TestEnginesCases: the quirk cases, with each context and with bases of
// several kinds, give the same graphs and notices with both engines.
func TestEnginesCases(t *testing.T) {
	bases := []string{"http://example.com/logs/x/", "https://example.com/a//b/./c/", "file:///tmp/x.jsonl/", "urn:x:y/"}
	for _, base := range bases {
		for name, m := range engineMappings(t, base) {
			for i, c := range engineCases {
				msg, ok := decodeValue(t, c).(map[string]any)
				if !ok {
					t.Fatalf("case %d is not an object", i)
				}
				for _, node := range []string{base + "#m1", "http://example.com/log#c2s-12", "file:///l.jsonl#s2c-3", "urn:uuid:1#m2"} {
					compareEngines(t, fmt.Sprintf("%s base %s node %s case %d %s", name, base, node, i, c), m, msg, node)
				}
			}
		}
	}
}

// TestEnginesCoverage: the plan covers the features it claims and hands the
// others to json-gold.
func TestEnginesCoverage(t *testing.T) {
	m, err := NewMapping(processed(t, decodeValue(t, engineContext)), "http://example.com/l/")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		msg     string
		covered bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`, true},
		{`{"jsonrpc":"2.0","id":"abc","method":"m"}`, true},
		{`{"jsonrpc":"2.0","id":"a b","method":"m"}`, false},
		{`{"jsonrpc":"2.0","id":2,"result":{"inner":{"name":"n"},"count":3}}`, true},
		{`{"jsonrpc":"2.0","id":2,"result":{"voc":{"free":1}}}`, false},
		{`{"jsonrpc":"2.0","method":"n","list":[1]}`, true},
		{`{"jsonrpc":"2.0","method":"n","list":[[1]]}`, false},
		{`{"jsonrpc":"2.0","method":"n","items":[{"name":"x"}]}`, true},
		{`{"jsonrpc":"2.0","method":"n","jlist":[1]}`, false},
		{`{"jsonrpc":"2.0","method":"n","label":"x"}`, false},
		{`{"jsonrpc":"2.0","method":"n","type":"T"}`, false},
		{`{"jsonrpc":"2.0","method":"n","back":"x"}`, false},
		{`{"jsonrpc":"2.0","method":"n","vocabRef":"x"}`, false},
		{`{"jsonrpc":"2.0","method":"n","ex:other":1}`, false},
		{`{"jsonrpc":"2.0","method":"n","unknown":1,"nothing":2,"@x":3}`, true},
	}
	for _, tt := range tests {
		msg := decodeValue(t, tt.msg).(map[string]any)
		if got := compareEngines(t, tt.msg, m, msg, "http://example.com/l#m1"); got != tt.covered {
			t.Errorf("%s: covered %v, want %v", tt.msg, got, tt.covered)
		}
	}
}

// TestEnginesLogs: whole conversions with each engine give isomorphic
// graphs, jlog:patch included, and the same issues: the corpus with the
// default and MCP blocks, and the quirk cases as one log.
func TestEnginesLogs(t *testing.T) {
	logs := map[string]string{"cases": strings.Join(engineCases, "\n") + "\n",
		// Batches and envelopes, whose messages the log reader finds too.
		"batches": `[{"jsonrpc":"2.0","id":1,"method":"m","params":[{"b":1,"a":0.10}]},{"jsonrpc":"2.0","id":2,"result":{"z":{},"y":[],"x":{"b":1,"a":2}}}]
{"dir":"c2s","ts":"t","msg":{"jsonrpc":"2.0","id":3,"method":"m","params":{"b":[1,{"d":1,"c":2}],"a":"\u00e9\n"}}}
{"dir":"s2c","msg":[{"jsonrpc":"2.0","id":3,"result":{"b":1,"a":1e400}},{"jsonrpc":"2.0","method":"n","params":{"a":1,"a":2}}]}
`}
	for _, file := range shared.CorpusFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(file)] = string(data)
	}
	ctxs := map[string]*ldctx.Processed{"default": toolchaintest.DefaultContext(t), "mcp": toolchaintest.MCPContext(t), "test": processed(t, decodeValue(t, engineContext))}
	for cname, ctx := range ctxs {
		for lname, log := range logs {
			for _, f := range []rdf.Format{rdf.NTriples, rdf.NQuads} {
				var outs [2]string
				var issues [2][]diag.Diagnostic
				for e, engine := range []Engine{EngineCompiled, EngineJSONGold} {
					c := NewConverter(ctx)
					c.Engine = engine
					c.Report = func(i diag.Diagnostic) { issues[e] = append(issues[e], i) }
					r, err := rpclog.NewReader(strings.NewReader(log), lname, rpclog.ReaderOptions{})
					if err != nil {
						t.Fatal(err)
					}
					var buf bytes.Buffer
					if err := c.Convert(&buf, f, []Log{{Reader: r, File: lname, IRI: "http://example.com/logs/" + lname}}); err != nil {
						t.Fatalf("%s %s %v: %v", cname, lname, engine, err)
					}
					outs[e] = buf.String()
				}
				what := fmt.Sprintf("%s %s %v", cname, lname, f)
				a, err := rdftest.ParseNQuads([]byte(outs[0]))
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				b, err := rdftest.ParseNQuads([]byte(outs[1]))
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if ok, diff := rdftest.IsomorphicQuads(a, b); !ok {
					t.Errorf("%s: the engines differ:\n%s", what, diff)
				}
				if !reflect.DeepEqual(issues[0], issues[1]) {
					t.Errorf("%s: issues differ:\n compiled %v\n json-gold %v", what, issues[0], issues[1])
				}
			}
		}
	}
}

// TestEnginesExamples: every JSON example of the embedded block and of the
// reference register's blocks maps to the same graph with both engines,
// with its block's context.
func TestEnginesExamples(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"), nil)
	if err != nil {
		t.Fatal(err)
	}
	blocks := []*bblock.Block{bblock.Default()}
	for _, id := range reg.IDs() {
		blocks = append(blocks, reg.Block(id))
	}
	n, covered := 0, 0
	for _, b := range blocks {
		if b.Examples == nil || b.Files.Context == "" {
			continue
		}
		ctx, _, err := toolchain.ForBlock(b, reg, nil)
		if err != nil {
			continue
		}
		for i, ex := range b.Examples.Examples {
			base := ex.BaseURI
			if base == "" {
				base = "http://example.com/examples/"
			}
			m, err := NewMapping(ctx, base)
			if err != nil {
				t.Fatalf("%s: %v", b.ID, err)
			}
			for j, sn := range ex.Snippets {
				if !sn.IsJSON() {
					continue
				}
				code, err := b.SnippetCode(sn)
				if err != nil {
					continue
				}
				var objs []map[string]any
				switch v := decodeValue(t, string(code)).(type) {
				case map[string]any:
					objs = append(objs, v)
				case []any:
					for _, e := range v {
						if o, ok := e.(map[string]any); ok {
							objs = append(objs, o)
						}
					}
				}
				for k, o := range objs {
					n++
					if compareEngines(t, fmt.Sprintf("%s example %d snippet %d object %d", b.ID, i, j, k), m, o, "http://example.com/examples#n"+fmt.Sprint(n)) {
						covered++
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no example objects")
	}
	t.Logf("%d example objects, %d covered by the plan", n, covered)
}

// FuzzEngines mutates messages and checks that both engines give the same
// graph and notices, with the default block, the test context and (when
// ../shared is there) the MCP block; that the canonical forms written
// from the decoded value and from the text are jcs's; and that the text walk
// of a message read typed gives what the decoded walk gives.
func FuzzEngines(f *testing.F) {
	for _, c := range append(engineCases, textCases...) {
		f.Add(c)
	}
	var once sync.Once
	var ms map[string]*Mapping
	f.Fuzz(func(t *testing.T, s string) {
		once.Do(func() { ms = engineMappings(t, "http://example.com/logs/f/") })
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		var w jcs.Writer
		got, gotCh, gotErr := w.AppendValue(nil, v)
		want, wantCh, wantErr := jcs.Append(nil, v)
		if string(got) != string(want) || !reflect.DeepEqual(gotCh, wantCh) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("AppendValue %s %v %v, jcs %s %v %v", got, gotCh, gotErr, want, wantCh, wantErr)
		}
		checkCanonicalText(t, []byte(s))
		msg, ok := v.(map[string]any)
		if !ok {
			return
		}
		for name, m := range ms {
			compareEngines(t, name+" "+s, m, msg, "http://example.com/logs/f#c2s-7")
			// The reader decodes a log's first line itself (not typed).
			compareTextWalk(t, name+" "+s, m, `{"jsonrpc":"2.0","method":"first"}`+"\n"+s+"\n")
		}
	})
}

// TestCanonical: jcs.Writer's fast canonical form is byte for byte
// jcs.Append's, with the same changes, whether it writes the value itself
// or leaves it to Append.
func TestCanonical(t *testing.T) {
	cases := []string{`null`, `true`, `[]`, `{}`, `0`, `-0`, `1`, `-12`, `123456789012345`, `1234567890123456`, `12345678901234567890`,
		`1.0`, `0.5`, `1e2`, `1E-7`, `1e-7`, `1e21`, `9007199254740993`, `0.1`, `-1.5e300`, `"a\"b\\c\n\t\u0001\u007f\u2028é🎉"`,
		`{"b":1,"a":[1,{"é":2,"z":3}],"A":null}`, `{"\uE000":1,"🎉":2}`, `[1,[2,[3,{"x":[4.25]}]]]`, `{"k":"\u0000"}`}
	var w jcs.Writer
	for _, c := range cases {
		v := decodeValue(t, c)
		got, gotCh, gotErr := w.AppendValue(nil, v)
		want, wantCh, wantErr := jcs.Append(nil, v)
		if string(got) != string(want) || !reflect.DeepEqual(gotCh, wantCh) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: AppendValue %s %v %v, jcs %s %v %v", c, got, gotCh, gotErr, want, wantCh, wantErr)
		}
	}
}

// checkCanonicalText checks the canonical form written from JSON text that
// the log reader accepts against jcs's of the value the reader decodes:
// where it writes one, it is jcs's, and jcs changes no number and fails on
// nothing. It reports whether it wrote one.
func checkCanonicalText(t *testing.T, text []byte) bool {
	t.Helper()
	p := &jsonparse.Parser{MaxDepth: 1000}
	v, perr := p.Parse(text)
	if perr != nil {
		return false
	}
	var c jcs.Writer
	got, ok := c.AppendText([]byte("x"), text)
	if !ok {
		if string(got) != "x" {
			t.Errorf("%s: %q left behind", text, got)
		}
		return false
	}
	want, changes, err := jcs.Append([]byte("x"), v)
	if string(got) != string(want) || len(changes) > 0 || err != nil {
		t.Errorf("%s: from the text %s, jcs %s %v %v", text, got, want, changes, err)
	}
	// Escaped, it is what the N-Triples writer writes for the literal.
	c.Escaped = true
	esc, ok := c.AppendText([]byte("x"), text)
	if !ok {
		t.Errorf("%s: written from the text, but not escaped", text)
		return true
	}
	lex := string(want[1:])
	if got, want := ntLiteral(t, rdf.Term{Kind: rdf.Literal, Value: string(esc[1:]), Datatype: rdf.RDFJSON, Escaped: true}),
		ntLiteral(t, rdf.NewLiteral(lex, rdf.RDFJSON)); got != want {
		t.Errorf("%s: escaped from the text %s, the writer %s", text, got, want)
	}
	if got := string(jcs.Escape(nil, []byte(lex))); got != string(esc[1:]) {
		t.Errorf("%s: jcs.Escape %s, from the text %s", text, got, esc[1:])
	}
	if got := jcs.Unescape(string(esc[1:])); got != lex {
		t.Errorf("%s: jcs.Unescape %s, want %s", text, got, lex)
	}
	return true
}

// ntLiteral returns the N-Triples line the writer writes for the literal l
// as the object of a statement.
func ntLiteral(t *testing.T, l rdf.Term) string {
	t.Helper()
	var b bytes.Buffer
	w := rdf.NewNTriplesWriter(&b)
	if err := w.WriteGroup([]rdf.Triple{rdf.T(rdf.NewIRI("http://example.com/s"), "http://example.com/p", l)}); err != nil {
		t.Fatalf("%s: %v", l, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestCanonicalText: the canonical form written from the text is jcs's for
// hand-written cases and for every params, result and error of the corpus;
// it leaves to the decoded way what it cannot be sure of.
func TestCanonicalText(t *testing.T) {
	written := []string{`null`, `true`, `false`, `[]`, `{}`, ` [ 1 , 2 ] `, `0`, `-1`, `123456789012345`, `0.5`, `1e-7`,
		`"a\"b\\c\/d\n\t\b\f\r\u0001\u001F\u007f\u2028\u00e9\ud83c\udf89é🎉"`, `"\u0022\u005C\u0008\u000c\u000A\u000D\u0009"`,
		`{"b":1,"a":[1,{"z":3,"y":{}}],"A":null}`, `{"c":{"b":{"a":[{"z":1,"a":2}]}},"a":""}`, `{ "b" : 1 , "a" : 2 }`, `1234567890123456`}
	for _, c := range written {
		if !checkCanonicalText(t, []byte(c)) {
			t.Errorf("%s: not written from the text", c)
		}
	}
	left := []string{`1.0`, `1E2`, `-0`, `1e21`, `12345678901234567890`, `1e400`, `{"é":1}`, `{"\u0061":1}`, `{"a":1,"a":2}`, `{"b":1,"a":1,"b":2}`}
	for _, c := range left {
		if checkCanonicalText(t, []byte(c)) {
			t.Errorf("%s: written from the text", c)
		}
	}
	// The corpus: the text of every params, result and error as sent,
	// and written again sorted, indented and with other escapes.
	n, nText := 0, 0
	p := &jsonparse.Parser{MaxDepth: 1000, Lazy: []string{"params", "result", "error"}}
	for _, file := range shared.CorpusFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if _, perr := p.Parse([]byte(line)); perr != nil {
				t.Fatalf("%s: %v", line, perr.Msg)
			}
			for _, l := range p.Lazies() {
				if checkCanonicalText(t, l.V) {
					nText++
				}
				b, _ := json.MarshalIndent(decodeValue(t, string(l.V)), "", "  ")
				checkCanonicalText(t, b)
				n++
			}
		}
	}
	if nText < n*9/10 {
		t.Errorf("%d of %d corpus values written from the text", nText, n)
	}
	t.Logf("%d of %d corpus values written from the text", nText, n)
}

// TestScopesBounded: messages nested along many different paths through
// terms with scoped contexts reuse a handful of scopes, in the preparation,
// the way back and the compiled plan alike.
func TestScopesBounded(t *testing.T) {
	ctx := processed(t, decodeValue(t, engineContext))
	m, err := NewMapping(ctx, "http://example.com/l/")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"result", "error", "inner", "reset"}
	for i := 0; i < 300; i++ {
		var v any = map[string]any{"count": json.Number("1")}
		for d, x := 0, i; d < 40; d++ {
			v = map[string]any{keys[x%len(keys)]: v, "plain": "p"}
			x = x/len(keys) + d*7 + i
		}
		msg := map[string]any{"jsonrpc": "2.0", "id": json.Number("1"), "result": v}
		compareEngines(t, fmt.Sprintf("path %d", i), m, msg, "http://example.com/l#m1")
		if _, err := m.patch(msg, "http://example.com/l#m1", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	n := ctx.Scopes()
	m.plan.mu.Lock()
	p := m.plan.n
	m.plan.mu.Unlock()
	if n > 16 || p > 16 {
		t.Errorf("%d scopes and %d compiled scopes for 300 paths", n, p)
	}
	t.Logf("%d scopes, %d compiled scopes", n, p)
}

// TestParseLines: N-Triples and N-Quads parsed in pieces (rdf.ParseLines) give the
// statements of the whole, in order, and the first syntax error at its line
// in the document.
func TestParseLines(t *testing.T) {
	var sb strings.Builder
	for _, file := range shared.CorpusFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(data)
	}
	var log strings.Builder
	for log.Len() < 600<<10 {
		log.WriteString(sb.String())
	}
	for _, f := range []rdf.Format{rdf.NTriples, rdf.NQuads} {
		out, _ := convertString(t, log.String(), f, "http://example.com/logs/p")
		data := []byte(out)
		if len(data) < 1<<20 {
			t.Fatalf("%v: %d bytes, too few to be cut", f, len(data))
		}
		syntax := f
		whole, _, err := rdf.Parse(data, syntax, "")
		if err != nil {
			t.Fatal(err)
		}
		pieces, err := rdf.ParseLines(data, syntax, 8)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(whole, pieces) {
			t.Errorf("%v: %d statements in pieces, %d whole, or in another order", f, len(pieces), len(whole))
		}
		lines := bytes.Split(data, []byte("\n"))
		for _, at := range []int{3, len(lines) / 2, len(lines) - 3} {
			bad := bytes.Join(append(append(append([][]byte{}, lines[:at]...), []byte("<x> <y> .")), lines[at:]...), []byte("\n"))
			_, _, want := rdf.Parse(bad, syntax, "")
			_, got := rdf.ParseLines(bad, syntax, 8)
			if want == nil || got == nil || want.Error() != got.Error() {
				t.Errorf("%v: error at line %d: pieces %v, whole %v", f, at+1, got, want)
			}
		}
	}
}

// convertRead converts log with ctx in format f, reading every record into
// maps when untyped, and returns the text and the issues.
func convertRead(t *testing.T, ctx *ldctx.Processed, name, log string, f rdf.Format, untyped bool) (string, []diag.Diagnostic) {
	t.Helper()
	c := NewConverter(ctx)
	c.untyped = untyped
	var issues []diag.Diagnostic
	c.Report = func(i diag.Diagnostic) { issues = append(issues, i) }
	r, err := rpclog.NewReader(strings.NewReader(log), name, rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Convert(&buf, f, []Log{{Reader: r, File: name, IRI: "http://example.com/logs/" + name}}); err != nil {
		t.Fatalf("%s %v: %v", name, f, err)
	}
	return buf.String(), issues
}

// splitPlanned returns the lines of log whose messages the plan of ctx
// maps, and the others (json-gold maps them), as two logs.
func splitPlanned(t *testing.T, ctx *ldctx.Processed, log string) (planned, rest string) {
	m, err := NewMapping(ctx, "http://example.com/logs/")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.SplitAfter(log, "\n") {
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var v any
		msgs := []any{}
		if d.Decode(&v) == nil {
			msgs = append(msgs, v)
			if env, ok := v.(map[string]any); ok && env["msg"] != nil {
				msgs = append(msgs, env["msg"])
			}
			if arr, ok := msgs[len(msgs)-1].([]any); ok {
				msgs = append(msgs, arr...)
			}
		}
		gold := false
		for _, msg := range msgs {
			if obj, ok := msg.(map[string]any); ok && len(obj) > 0 {
				_, _, _, _, _, covered := m.compiledTriples(obj, "http://example.com/logs/x#c2s-1", "b", nil)
				gold = gold || !covered
			}
		}
		if gold {
			rest += line
		} else {
			planned += line
		}
	}
	return planned, rest
}

// TestTypedRead: a conversion that reads ordinary messages typed, with no
// map (rpclog.BatchOptions.Typed), writes the same bytes and tells the same
// issues as one that reads every record into maps, for every format whose
// workers format the triples, with the contexts whose params and result
// the plan maps from their text: as @json terms (the embedded block's and
// the typed context's), or walked (the MCP block's params and the test
// context's results, see TestTextWalk).
func TestTypedRead(t *testing.T) {
	logs := walkLogs(t)
	typedCtx := decodeValue(t, `{"jrpc": "https://example.com/jrpc#",
		"params": {"@id": "jrpc:params", "@type": "@json"}, "result": {"@id": "jrpc:result", "@type": "@json"},
		"method": "jrpc:method", "id": {"@id": "jrpc:id", "@type": "@id"}, "jsonrpc": "jrpc:version"}`)
	ctxs := map[string]*ldctx.Processed{"default": toolchaintest.DefaultContext(t), "typed": processed(t, typedCtx),
		"mcp": toolchaintest.MCPContext(t), "test": processed(t, decodeValue(t, engineContext))}
	typedLines := 0
	for cname, ctx := range ctxs {
		for lname, whole := range logs {
			// json-gold writes the statements of a message in an order,
			// and with blank node labels, that may change from run to run:
			// the messages it maps are compared as graphs.
			log, rest := splitPlanned(t, ctx, whole)
			for _, f := range []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads} {
				var outs [2]string
				var issues [2][]diag.Diagnostic
				for k, untyped := range []bool{false, true} {
					outs[k], issues[k] = convertRead(t, ctx, lname, log, f, untyped)
				}
				what := fmt.Sprintf("%s %s %v", cname, lname, f)
				if outs[0] != outs[1] {
					t.Errorf("%s: typed and map reads write different text", what)
				}
				if !reflect.DeepEqual(issues[0], issues[1]) {
					t.Errorf("%s: issues differ:\n typed %v\n maps  %v", what, issues[0], issues[1])
				}
			}
			if rest == "" {
				continue
			}
			var graphs [2][]rdf.Quad
			var issues [2][]diag.Diagnostic
			for k, untyped := range []bool{false, true} {
				var out string
				out, issues[k] = convertRead(t, ctx, lname, rest, rdf.NQuads, untyped)
				var err error
				if graphs[k], err = rdftest.ParseNQuads([]byte(out)); err != nil {
					t.Fatal(err)
				}
			}
			if ok, diff := rdftest.IsomorphicQuads(graphs[0], graphs[1]); !ok {
				t.Errorf("%s %s, json-gold's messages: typed and map reads write different graphs:\n%s", cname, lname, diff)
			}
			if !reflect.DeepEqual(issues[0], issues[1]) {
				t.Errorf("%s %s, json-gold's messages: issues differ:\n typed %v\n maps  %v", cname, lname, issues[0], issues[1])
			}
		}
	}
	// The test means something only if the corpus is read typed.
	for _, log := range logs {
		r, err := rpclog.NewReader(strings.NewReader(log), "log", rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for b := range r.Batches(rpclog.BatchOptions{Classify: true, Lazy: []string{"params", "result"}, Typed: true}, nil) {
			for _, rec := range b.Records {
				if rec.Record != nil && rec.Object != nil {
					typedLines++
				}
			}
			b.Done()
		}
	}
	if typedLines < 100 {
		t.Errorf("%d lines read typed: the test compares next to nothing", typedLines)
	}
}

// TestShortNumber holds shortNumber to goldNumber of the parsed value, for
// integers around the 15-digit limit, numbers it must leave alone, and each
// kind of term.
func TestShortNumber(t *testing.T) {
	terms := []*cterm{
		{kind: ckPlain},
		{kind: ckTyped, dt: rdf.XSDInteger},
		{kind: ckTyped, dt: rdf.XSDDouble},
		{kind: ckTyped, dt: rdf.XSDString},
	}
	nums := []string{"0", "-0", "7", "-7", "10", "123456789012345", "-123456789012345",
		"999999999999999", "1234567890123456", "9007199254740993", "1.0", "1e3", "-1.5", "00"}
	short := 0
	for _, n := range nums {
		for _, term := range terms {
			lit, ok := shortNumber(n, term)
			f, err := strconv.ParseFloat(n, 64)
			want, _ := goldNumber(f, term)
			switch {
			case ok && (err != nil || lit != want):
				t.Errorf("shortNumber(%q, kind %d %s) = %v, goldNumber gives %v", n, term.kind, term.dt, lit, want)
			case ok:
				short++
			case jcs.ShortInt(n) && term.dt != rdf.XSDDouble:
				t.Errorf("shortNumber(%q, kind %d %s) left a short integer alone", n, term.kind, term.dt)
			}
		}
	}
	if short != 7*3 {
		t.Errorf("%d numbers and terms taken, want %d", short, 7*3)
	}
}
