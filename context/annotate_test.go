package context

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/shared"
	"gopkg.in/yaml.v3"
)

const jrpcNS = "http://json-rpc.org/ontology#"

// annCheck expects member key of the object at path to be value, or to be
// absent when value is nil.
type annCheck struct {
	path, key string
	value     any
}

func checkAnnotations(t *testing.T, doc any, checks []annCheck) {
	t.Helper()
	for _, c := range checks {
		obj, ok := get(doc, c.path)
		m, isMap := obj.(map[string]any)
		if !ok || !isMap {
			t.Errorf("%s: no object there", c.path)
			continue
		}
		got, present := m[c.key]
		switch {
		case c.value == nil && present:
			t.Errorf("%s: %s = %v, want it absent", c.path, c.key, got)
		case c.value != nil && !reflect.DeepEqual(got, c.value):
			t.Errorf("%s: %s = %#v, want %#v", c.path, c.key, got, c.value)
		}
	}
}

func TestAnnotateFixture(t *testing.T) {
	reg, err := bblock.LoadRegisterDir("testdata/register")
	if err != nil {
		t.Fatal(err)
	}
	doc, warns, err := Annotate(reg.Block("test.annot"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkAnnotations(t, doc, []annCheck{
		{"properties/name", "x-jsonld-id", ns + "name"},
		{"properties/name", "x-jsonld-type", xsd + "string"},
		// An existing annotation wins; the missing keyword is added.
		{"properties/custom", "x-jsonld-id", "http://example.org/preannotated"},
		{"properties/custom", "x-jsonld-type", "@id"},
		{"properties/tags", "x-jsonld-id", ns + "tag"},
		{"properties/tags", "x-jsonld-container", "@list"},
		{"properties/child", "x-jsonld-id", ns + "child"},
		{"properties/child", "x-jsonld-type", "@id"},
		{"properties/child", "x-jsonld-context", nil},
		{"properties/child", "$ref", "#Child"}, // source form kept
		{"properties/nulled", "x-jsonld-id", nil},
		{"properties/alt/anyOf/0", "$ref", "#/$defs/ViaRef"},
		// $defs come first, with the root context: name keeps the root term.
		{"$defs/Child/properties/name", "x-jsonld-id", ns + "name"},
		// age is only in child's scoped context, reached through the anchor.
		{"$defs/Child/properties/age", "x-jsonld-id", ns + "age"},
		{"$defs/Child/properties/age", "x-jsonld-type", xsd + "integer"},
		// @vocab does not annotate properties the context does not name.
		{"$defs/Child/properties/unknownProp", "x-jsonld-id", nil},
		{"$defs/ViaRef/properties/viaRef", "x-jsonld-id", ns + "viaRef"},
		{"properties/list/items/properties/inItems", "x-jsonld-id", ns + "inItems"},
		{"properties/pp/patternProperties/^x-/properties/inPattern", "x-jsonld-id", ns + "inPattern"},
		{"properties/pp/additionalProperties/properties/inAdditional", "x-jsonld-id", ns + "inAdditional"},
		{"properties/cond/then/properties/inThen", "x-jsonld-id", ns + "inThen"},
		{"properties/cond/else/properties/inElse", "x-jsonld-id", ns + "inElse"},
		{"", "x-jsonld-base", "http://example.org/base/"},
		{"", "x-jsonld-vocab", "http://example.org/vocab#"},
	})
	root := doc.(map[string]any)
	wantPrefixes := map[string]any{"ex": ns, "xsd": xsd}
	if got := root["x-jsonld-prefixes"]; !reflect.DeepEqual(got, wantPrefixes) {
		t.Errorf("x-jsonld-prefixes = %v, want %v", got, wantPrefixes)
	}
	wantExtra := map[string]any{
		"Thing":      map[string]any{"x-jsonld-id": ns + "Thing"},
		"unusedTerm": map[string]any{"x-jsonld-id": ns + "unused", "x-jsonld-type": "@id"},
	}
	if got := root["x-jsonld-extra-terms"]; !reflect.DeepEqual(got, wantExtra) {
		t.Errorf("x-jsonld-extra-terms = %v, want %v", got, wantExtra)
	}
	if !hasWarning(warns, `"nickname"`, `"child"`) {
		t.Errorf("no warning about the unused scoped term nickname: %v", warns)
	}
}

func TestAnnotatePublishedJSONRPC(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"))
	if err != nil {
		t.Fatal(err)
	}
	doc, _, err := Annotate(reg.Block("mcp.json-rpc"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkAnnotations(t, doc, []annCheck{
		{"$defs/JSONRPC2Object/properties/jsonrpc", "x-jsonld-id", jrpcNS + "version"},
		{"$defs/JSONRPC2Object/properties/jsonrpc", "x-jsonld-type", xsd + "string"},
		{"$defs/IDObject/allOf/1/properties/id", "x-jsonld-id", jrpcNS + "hasId"},
		{"$defs/IDObject/allOf/1/properties/id", "x-jsonld-type", "@id"},
		{"$defs/Notification/allOf/1/properties/method", "x-jsonld-id", jrpcNS + "hasMethod"},
		{"$defs/Notification/allOf/1/properties/params", "x-jsonld-id", jrpcNS + "hasParameters"},
		{"$defs/Notification/allOf/1/properties/params", "x-jsonld-type", "@json"},
		{"$defs/Response/allOf/1/oneOf/0/properties/result", "x-jsonld-id", jrpcNS + "hasResult"},
		{"$defs/Response/allOf/1/oneOf/1/properties/error", "x-jsonld-id", jrpcNS + "hasError"},
		{"$defs/Response/allOf/1/oneOf/1/properties/error", "$ref", "#/$defs/ErrorObject"},
		{"$defs/ErrorObject/properties/code", "x-jsonld-id", jrpcNS + "hasErrorCode"},
		{"$defs/ErrorObject/properties/code", "x-jsonld-type", xsd + "integer"},
		{"$defs/IDObject/allOf/0", "$ref", "#/$defs/JSONRPC2Object"},
		{"", "x-jsonld-base", "https://override-me-for-custom-content.eg/"},
	})
	root := doc.(map[string]any)
	wantPrefixes := map[string]any{"jrpc": jrpcNS, "xsd": xsd, "rdfs": "http://www.w3.org/2000/01/rdf-schema#"}
	if got := root["x-jsonld-prefixes"]; !reflect.DeepEqual(got, wantPrefixes) {
		t.Errorf("x-jsonld-prefixes = %v, want %v", got, wantPrefixes)
	}
	// The terms of context.jsonld that no property of schema.yaml uses, read by hand.
	wantExtra := strings.Fields(`Message Request Notification Response ErrorResponse Error RequestId StringId
		NumberId NullId stringValue numberValue ParseError InvalidRequest MethodNotFound InvalidParams InternalError ServerError`)
	extra, _ := root["x-jsonld-extra-terms"].(map[string]any)
	if got := slices.Sorted(maps.Keys(extra)); !reflect.DeepEqual(got, slices.Sorted(maps.Keys(setOf(wantExtra)))) {
		t.Errorf("x-jsonld-extra-terms has %v\nwant %v", got, slices.Sorted(maps.Keys(setOf(wantExtra))))
	}
	if got := extra["ParseError"]; !reflect.DeepEqual(got, map[string]any{"x-jsonld-id": jrpcNS + "ParseError", "x-jsonld-type": "@id"}) {
		t.Errorf("extra term ParseError = %v", got)
	}
}

func TestAnnotateMCP(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"))
	if err != nil {
		t.Fatal(err)
	}
	doc, warns, err := Annotate(reg.Block("mcp.mcp"), reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	const mcpNS = "http://modelcontextprotocol.io/ontology#"
	checkAnnotations(t, doc, []annCheck{
		// The reference into json-rpc keeps its source form and is not inlined.
		{"definitions/CallToolRequest/allOf/0", "$ref", "bblocks://mcp.json-rpc#Request"},
		{"definitions/CallToolRequest/allOf/0", "x-jsonld-id", nil},
		// mcp's own params definition, its jrpc: prefix resolved through json-rpc's context.
		{"definitions/CallToolRequest/properties/params", "x-jsonld-id", jrpcNS + "hasParameters"},
		{"definitions/CallToolRequest/properties/params", "x-jsonld-type", "urn:mcp:params"},
		// method is defined only by json-rpc's context: the stack applies.
		{"definitions/CallToolRequest/properties/method", "x-jsonld-id", jrpcNS + "hasMethod"},
		{"definitions/CallToolRequest/properties/params/properties/name", "x-jsonld-id", mcpNS + "hasName"},
		{"definitions/CallToolRequest/properties/params/properties/arguments", "x-jsonld-type", "@json"},
		{"definitions/CallToolResult/properties/content", "x-jsonld-container", "@list"},
		{"", "x-jsonld-base", "https://override-me-for-custom-content.eg/"},
	})
	prefixes, _ := get(doc, "x-jsonld-prefixes")
	if p, _ := prefixes.(map[string]any); p["jrpc"] != jrpcNS || p["mcp"] != mcpNS {
		t.Errorf("x-jsonld-prefixes = %v; want jrpc and mcp among them", prefixes)
	}
	if !hasWarning(warns, "mcp.mcp/context.jsonld", "jrpc:", "without declaring it", "mcp.json-rpc/context.jsonld") {
		t.Errorf("no warning about the undeclared jrpc: prefix: %v", warns)
	}
}

func TestAnnotateNoSchema(t *testing.T) {
	_, _, err := Annotate(&bblock.Block{ID: "x"}, nil, nil)
	if !errors.Is(err, ErrNoSchema) {
		t.Errorf("error %v, want ErrNoSchema", err)
	}
}

func TestWriteYAML(t *testing.T) {
	reg, err := bblock.LoadRegisterDir("testdata/register")
	if err != nil {
		t.Fatal(err)
	}
	var outs [2]bytes.Buffer
	for i := range outs {
		doc, _, err := Annotate(reg.Block("test.annot"), reg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteYAML(&outs[i], doc); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(outs[0].Bytes(), outs[1].Bytes()) {
		t.Error("annotating twice gives different YAML")
	}
	var back any
	if err := yaml.Unmarshal(outs[0].Bytes(), &back); err != nil {
		t.Fatalf("WriteYAML wrote unreadable YAML: %v", err)
	}
	if v, _ := get(back, "properties/child/x-jsonld-id"); v != ns+"child" {
		t.Errorf("read back child's x-jsonld-id = %v", v)
	}

	// Numbers keep their type and spelling; strings that look like numbers stay strings.
	var sb strings.Builder
	doc := map[string]any{"num": json.Number("1.50"), "i": json.Number("7"), "s": "2.0", "b": true, "z": nil, "l": []any{"a"}}
	if err := WriteYAML(&sb, doc); err != nil {
		t.Fatal(err)
	}
	want := "b: true\ni: 7\nl:\n  - a\nnum: 1.50\ns: \"2.0\"\nz: null\n"
	if sb.String() != want {
		t.Errorf("WriteYAML =\n%s\nwant\n%s", sb.String(), want)
	}
}

func setOf(list []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range list {
		m[s] = true
	}
	return m
}
