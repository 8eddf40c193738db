package context

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/rdftest"
	"github.com/jrpcld/jrpcld/internal/shared"
	"github.com/piprate/json-gold/ld"
)

// expectedJSONRPC is the context of the published JSON-RPC block written by
// hand from BBLOCKS.md and the block's context.jsonld.
const expectedJSONRPC = `{"@context": {
	"@version": 1.1,
	"@base": "https://override-me-for-custom-content.eg/",
	"jrpc": "http://json-rpc.org/ontology#",
	"xsd": "http://www.w3.org/2001/XMLSchema#",
	"rdfs": "http://www.w3.org/2000/01/rdf-schema#",
	"jsonrpc": {"@id": "jrpc:version", "@type": "xsd:string"},
	"id": {"@id": "jrpc:hasId", "@type": "@id"},
	"method": {"@id": "jrpc:hasMethod", "@type": "xsd:string"},
	"params": {"@id": "jrpc:hasParameters", "@type": "@json"},
	"result": {"@id": "jrpc:hasResult", "@type": "@json"},
	"error": {"@id": "jrpc:hasError", "@type": "@id", "@context": {
		"code": {"@id": "jrpc:hasErrorCode", "@type": "xsd:integer"},
		"message": {"@id": "jrpc:hasErrorMessage", "@type": "xsd:string"},
		"data": {"@id": "jrpc:hasErrorData", "@type": "@json"}}},
	"Message": {"@id": "jrpc:Message", "@type": "@id"},
	"Request": {"@id": "jrpc:Request", "@type": "@id"},
	"Notification": {"@id": "jrpc:Notification", "@type": "@id"},
	"Response": {"@id": "jrpc:Response", "@type": "@id"},
	"ErrorResponse": {"@id": "jrpc:ErrorResponse", "@type": "@id"},
	"Error": {"@id": "jrpc:Error", "@type": "@id"},
	"RequestId": {"@id": "jrpc:RequestId", "@type": "@id"},
	"StringId": {"@id": "jrpc:StringId", "@type": "@id"},
	"NumberId": {"@id": "jrpc:NumberId", "@type": "@id"},
	"NullId": {"@id": "jrpc:NullId", "@type": "@id"},
	"stringValue": {"@id": "jrpc:hasStringValue", "@type": "xsd:string"},
	"numberValue": {"@id": "jrpc:hasNumberValue", "@type": "xsd:decimal"},
	"ParseError": {"@id": "jrpc:ParseError", "@type": "@id"},
	"InvalidRequest": {"@id": "jrpc:InvalidRequest", "@type": "@id"},
	"MethodNotFound": {"@id": "jrpc:MethodNotFound", "@type": "@id"},
	"InvalidParams": {"@id": "jrpc:InvalidParams", "@type": "@id"},
	"InternalError": {"@id": "jrpc:InternalError", "@type": "@id"},
	"ServerError": {"@id": "jrpc:ServerError", "@type": "@id"}
}}`

func ogcRegister(t *testing.T) *bblock.Register {
	t.Helper()
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// checkSameMeaning compares a built context with an expected one by what
// they mean, with json-gold and with Parse.
func checkSameMeaning(t *testing.T, built map[string]any, expected string) {
	t.Helper()
	got := roundTrip(t, built).(map[string]any)
	exp := plainJSON(t, expected).(map[string]any)
	if d := diffMeaning(goldMeaning(t, got["@context"]), goldMeaning(t, exp["@context"]), ""); len(d) > 0 {
		t.Errorf("json-gold: the built context means something else:\n%s", strings.Join(d, "\n"))
	}
	gc, _, err := Parse("built", got, nil)
	if err != nil {
		t.Fatal(err)
	}
	ec, _, err := Parse("expected", exp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffMeaning(ourMeaning(gc), ourMeaning(ec), ""); len(d) > 0 {
		t.Errorf("Parse: the built context means something else:\n%s", strings.Join(d, "\n"))
	}
	if gc.Base != ec.Base || gc.Vocab != ec.Vocab {
		t.Errorf("@base, @vocab = %q, %q; want %q, %q", gc.Base, gc.Vocab, ec.Base, ec.Vocab)
	}
	if v, _ := get(got, "@context/@version"); v != 1.1 {
		t.Errorf("@version = %v, want 1.1", v)
	}
}

// checkSameTriples checks that json-gold gives isomorphic, non-empty graphs
// for msg with the built and the expected context, and that the graph holds
// each of the N-Quads lines in must.
func checkSameTriples(t *testing.T, built map[string]any, expected, msg string, must ...string) {
	t.Helper()
	withCtx := func(ctx any) any {
		m := plainJSON(t, msg).(map[string]any)
		m["@context"] = ctx
		return m
	}
	gotNQ := toNQuads(t, withCtx(roundTrip(t, built).(map[string]any)["@context"]))
	wantNQ := toNQuads(t, withCtx(plainJSON(t, expected).(map[string]any)["@context"]))
	got, err := rdftest.ParseNQuads([]byte(gotNQ))
	if err != nil {
		t.Fatalf("json-gold wrote N-Quads knakk/rdf cannot read: %v\n%s", err, gotNQ)
	}
	want, err := rdftest.ParseNQuads([]byte(wantNQ))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatalf("empty graph for %s", msg)
	}
	if ok, why := rdftest.IsomorphicQuads(got, want); !ok {
		t.Errorf("%s: graphs differ (%s)\nbuilt:\n%s\nexpected:\n%s", msg, why, gotNQ, wantNQ)
	}
	for _, line := range must {
		if !strings.Contains(gotNQ, line) {
			t.Errorf("%s: no %q in\n%s", msg, line, gotNQ)
		}
	}
}

func TestBuildPublishedJSONRPC(t *testing.T) {
	reg := ogcRegister(t)
	built, _, err := Build(reg.Block("mcp.json-rpc"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSameMeaning(t, built, expectedJSONRPC)
	// The text: IRIs compacted with the prefixes.
	for path, want := range map[string]any{
		"@context/jrpc":                      jrpcNS,
		"@context/jsonrpc/@id":               "jrpc:version",
		"@context/jsonrpc/@type":             "xsd:string",
		"@context/error/@context/code/@type": "xsd:integer",
		"@context/Message/@type":             "@id",
	} {
		if got, _ := get(built, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}

	const base = "https://override-me-for-custom-content.eg/"
	for _, tc := range []struct {
		msg  string
		must []string
	}{
		{`{"jsonrpc":"2.0","method":"subtract","params":{"p1":42},"id":"1"}`, []string{
			// xsd:string literals are written bare in N-Quads; a string id is an IRI against @base.
			"<" + jrpcNS + "version> \"2.0\" .",
			"<" + jrpcNS + "hasMethod> \"subtract\" .",
			"<" + jrpcNS + "hasId> <" + base + "1> .",
		}},
		{`{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":{"method":"x"}},"id":"1"}`, []string{
			"<" + jrpcNS + "hasErrorCode> \"-32601\"^^<" + xsd + "integer>",
			"<" + jrpcNS + "hasErrorMessage> \"Method not found\" .",
		}},
		{`{"jsonrpc":"2.0","result":{"value":19},"id":4}`, []string{
			"<" + jrpcNS + "hasId> \"4\"^^<" + xsd + "integer>",
		}},
	} {
		checkSameTriples(t, built, expectedJSONRPC, tc.msg, tc.must...)
	}
}

func TestBuildMCP(t *testing.T) {
	reg := ogcRegister(t)
	built, warns, err := Build(reg.Block("mcp.mcp"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := roundTrip(t, built).(map[string]any)["@context"]
	gold := goldMeaning(t, ctx) // json-gold parses it
	const mcpNS = "http://modelcontextprotocol.io/ontology#"
	// Facts read by hand from mcp's schema.json and context.jsonld and from
	// json-rpc's schema.yaml and context.jsonld.
	for _, f := range []struct {
		path, id, typ, container string
	}{
		{"jsonrpc", jrpcNS + "version", xsd + "string", ""},
		{"id", jrpcNS + "hasId", "@id", ""},
		{"method", jrpcNS + "hasMethod", xsd + "string", ""},
		{"result", jrpcNS + "hasResult", "@json", ""},
		// mcp's own params definition wins over json-rpc's.
		{"params", jrpcNS + "hasParameters", "urn:mcp:params", ""},
		{"params/name", mcpNS + "hasName", xsd + "string", ""},       // CallToolRequest params
		{"params/arguments", mcpNS + "hasArguments", "@json", ""},    // CallToolRequest params
		{"params/cursor", mcpNS + "hasCursor", mcpNS + "Cursor", ""}, // ListToolsRequest params
		{"params/uri", mcpNS + "hasURI", xsd + "anyURI", ""},         // ReadResourceRequest params
		// The error object comes from json-rpc, annotated with json-rpc's context.
		{"error", jrpcNS + "hasError", "@id", ""},
		{"error/message", jrpcNS + "hasErrorMessage", xsd + "string", ""},
		{"error/data", jrpcNS + "hasErrorData", "@json", ""},
		// CallToolResult's members sit beside those of the response.
		{"isError", mcpNS + "isError", xsd + "boolean", ""},
		{"structuredContent", mcpNS + "hasStructuredContent", "@json", ""},
		{"content", mcpNS + "hasContent", "@id", "@list"},
		{"content/text", mcpNS + "hasText", xsd + "string", ""},               // ContentBlock -> TextContent
		{"protocolVersion", mcpNS + "hasProtocolVersion", xsd + "string", ""}, // InitializeResult
		// Extra terms, from both contexts.
		{"Tool", mcpNS + "Tool", "@id", ""},
		{"ParseError", jrpcNS + "ParseError", "@id", ""},
		// Prefixes.
		{"jrpc", jrpcNS, "", ""},
		{"mcp", mcpNS, "", ""},
	} {
		m, ok := meaningAt(gold, f.path)
		if !ok {
			t.Errorf("%s: not in the built context", f.path)
			continue
		}
		if m.ID != f.id || m.Type != f.typ || m.Container != f.container {
			t.Errorf("%s = {%s %s %s}, want {%s %s %s}", f.path, m.ID, m.Type, m.Container, f.id, f.typ, f.container)
		}
	}
	// name and uri are members of params and content blocks, never of a message.
	for _, absent := range []string{"name", "uri", "arguments"} {
		if _, ok := gold[absent]; ok {
			t.Errorf("%s is a top-level term; want it only scoped", absent)
		}
	}
	if v, _ := get(ctx, "@base"); v != "https://override-me-for-custom-content.eg/" {
		t.Errorf("@base = %v", v)
	}
	if !hasWarning(warns, "mcp.mcp/context.jsonld", "jrpc:", "without declaring it") {
		t.Errorf("no warning about mcp's undeclared jrpc: prefix in %v", warns)
	}
	for _, w := range warns {
		if strings.Contains(w.Message, "@vocab") {
			t.Errorf("unexpected warning %v: the published json-rpc context has no x@vocab term", w)
		}
	}
	// A request of the MCP corpus kind gives triples with both vocabularies.
	msg := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	doc := plainJSON(t, msg).(map[string]any)
	doc["@context"] = ctx
	nq := toNQuads(t, doc)
	for _, line := range []string{
		"<" + jrpcNS + "hasMethod> \"tools/call\" .",
		"<" + mcpNS + "hasName> \"echo\" .",
		"<" + jrpcNS + "hasId> \"7\"^^<" + xsd + "integer> .",
	} {
		if !strings.Contains(nq, line) {
			t.Errorf("no %q in\n%s", line, nq)
		}
	}
}

// meaningAt follows a slash-separated path of terms through scoped contexts.
func meaningAt(m map[string]meaning, path string) (meaning, bool) {
	var cur meaning
	for i, tok := range strings.Split(path, "/") {
		if i > 0 {
			m = cur.Scoped
		}
		var ok bool
		if cur, ok = m[tok]; !ok {
			return meaning{}, false
		}
	}
	return cur, true
}

func TestBuildDefault(t *testing.T) {
	built, _, err := Build(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := roundTrip(t, built).(map[string]any)["@context"]
	if _, err := ld.NewContext(nil, goldOptions(t)).Parse(ctx); err != nil {
		t.Fatalf("json-gold refuses the built default context: %v", err)
	}
	c, _, err := Parse("built", built, nil)
	if err != nil {
		t.Fatal(err)
	}
	iris := c.IRIs()
	if len(iris) == 0 {
		t.Fatal("no IRIs")
	}
	for _, iri := range iris {
		ok := false
		for _, nsp := range []string{jrpcNS, xsd, "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2000/01/rdf-schema#"} {
			if strings.HasPrefix(iri, nsp) && len(iri) > len(nsp) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("IRI %s is outside the JSON-RPC ontology, xsd, rdf and rdfs", iri)
		}
	}
	for _, term := range []string{"jsonrpc", "id", "method", "params", "result", "error"} {
		if c.Terms[term] == nil || !strings.HasPrefix(c.Terms[term].ID, jrpcNS) {
			t.Errorf("term %q missing or outside the JSON-RPC ontology", term)
		}
	}
}

// expectedAnnot is the context of the test.annot fixture, written by hand.
const expectedAnnot = `{"@context": {
	"@version": 1.1,
	"@base": "http://example.org/base/",
	"@vocab": "http://example.org/vocab#",
	"ex": "http://example.org/ns#",
	"xsd": "http://www.w3.org/2001/XMLSchema#",
	"name": {"@id": "ex:name", "@type": "xsd:string"},
	"custom": {"@id": "http://example.org/preannotated", "@type": "@id"},
	"tags": {"@id": "ex:tag", "@container": "@list"},
	"child": {"@id": "ex:child", "@type": "@id", "@context": {"age": {"@id": "ex:age", "@type": "xsd:integer"}}},
	"viaRef": "ex:viaRef",
	"inAnyOf": "ex:inAnyOf",
	"inThen": "ex:inThen",
	"inElse": "ex:inElse",
	"inItems": "ex:inItems",
	"inPattern": "ex:inPattern",
	"inAdditional": "ex:inAdditional",
	"Thing": "ex:Thing",
	"unusedTerm": {"@id": "ex:unused", "@type": "@id"}
}}`

func TestBuildFixture(t *testing.T) {
	reg, err := bblock.LoadRegisterDir("testdata/register")
	if err != nil {
		t.Fatal(err)
	}
	built, _, err := Build(reg.Block("test.annot"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSameMeaning(t, built, expectedAnnot)
	for path, want := range map[string]any{
		"@context/viaRef":     "ex:viaRef", // {"@id": x} written as x
		"@context/custom/@id": "http://example.org/preannotated",
		"@context/tags/@id":   "ex:tag",
	} {
		if got, _ := get(built, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	// The scoped name, identical to the root's, is dropped.
	if _, ok := get(built, "@context/child/@context/name"); ok {
		t.Error("child's scoped context repeats the root's name term")
	}
	// The triples, written by hand.
	doc := plainJSON(t, `{"@id": "thing1", "name": "N", "custom": "other", "tags": ["a", "b"],
		"child": {"@id": "c1", "age": 7, "name": "C"}, "extra": "v"}`).(map[string]any)
	doc["@context"] = roundTrip(t, built).(map[string]any)["@context"]
	got, err := rdftest.ParseNQuads([]byte(toNQuads(t, doc)))
	if err != nil {
		t.Fatal(err)
	}
	const rdfNS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	want, err := rdftest.ParseNQuads([]byte(strings.Join([]string{
		`<http://example.org/base/thing1> <http://example.org/ns#name> "N"^^<` + xsd + `string> .`,
		`<http://example.org/base/thing1> <http://example.org/preannotated> <http://example.org/base/other> .`,
		`<http://example.org/base/thing1> <http://example.org/ns#tag> _:l1 .`,
		`_:l1 <` + rdfNS + `first> "a" .`,
		`_:l1 <` + rdfNS + `rest> _:l2 .`,
		`_:l2 <` + rdfNS + `first> "b" .`,
		`_:l2 <` + rdfNS + `rest> <` + rdfNS + `nil> .`,
		`<http://example.org/base/thing1> <http://example.org/ns#child> <http://example.org/base/c1> .`,
		`<http://example.org/base/c1> <http://example.org/ns#age> "7"^^<` + xsd + `integer> .`,
		`<http://example.org/base/c1> <http://example.org/ns#name> "C"^^<` + xsd + `string> .`,
		`<http://example.org/base/thing1> <http://example.org/vocab#extra> "v" .`,
	}, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := rdftest.IsomorphicQuads(got, want); !ok {
		t.Errorf("graph differs from the hand-written one: %s", why)
	}
}

func TestBuildCycle(t *testing.T) {
	reg, err := bblock.LoadRegisterDir("testdata/register")
	if err != nil {
		t.Fatal(err)
	}
	built, _, err := Build(reg.Block("test.cycle"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSameMeaning(t, built, `{"@context": {
		"@version": 1.1,
		"ex": "http://example.org/ns#",
		"label": "ex:label",
		"next": {"@id": "ex:next", "@type": "@id"},
		"children": {"@id": "ex:children", "@type": "@id"}}}`)
}

func TestBuildErrors(t *testing.T) {
	if _, _, err := Build(&bblock.Block{ID: "x"}, nil, nil); !errors.Is(err, ErrNoSchema) {
		t.Errorf("block without schema: %v, want ErrNoSchema", err)
	}
	reg, err := bblock.LoadRegisterDir("testdata/register")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Build(reg.Block("test.remote"), reg, nil)
	var ue *UnmappedError
	if !errors.As(err, &ue) {
		t.Errorf("block with an unmapped remote context: %v, want an UnmappedError", err)
	}
}

func TestBuildDeterministic(t *testing.T) {
	reg := ogcRegister(t)
	var outs [2]bytes.Buffer
	for i := range outs {
		built, _, err := Build(reg.Block("mcp.mcp"), reg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&outs[i], built); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(outs[0].Bytes(), outs[1].Bytes()) {
		t.Error("building twice gives different JSON")
	}
	if !bytes.HasPrefix(outs[0].Bytes(), []byte("{\n  \"@context\": {\n    \"@base\"")) {
		t.Errorf("unexpected layout: %.60s", outs[0].String())
	}
}

func TestCompactIRI(t *testing.T) {
	prefixes := map[string]string{"ex": "http://example.org/", "exns": "http://example.org/ns#", "h": "http:"}
	for iri, want := range map[string]string{
		"http://example.org/ns#a":  "exns:a", // the longest prefix wins
		"http://example.org/b":     "ex:b",
		"http://example.org/":      "http://example.org/", // nothing after the prefix
		"http://other.example/x":   "http://other.example/x",
		"https://example.org/ns#a": "https://example.org/ns#a",
	} {
		if got := compactIRI(iri, prefixes); got != want {
			t.Errorf("compactIRI(%q) = %q, want %q", iri, got, want)
		}
	}
}
