package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("test data %q: %v", s, err)
	}
	return v
}

func compileDefault(t testing.TB) *Schema {
	t.Helper()
	s, err := Compile(bblock.Default(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDefaultExamples checks every example of the embedded block against its
// schema-ref and against the whole schema.
func TestDefaultExamples(t *testing.T) {
	b := bblock.Default()
	s := compileDefault(t)
	n := 0
	for _, ex := range b.Examples.Examples {
		for _, sn := range ex.Snippets {
			if !sn.IsJSON() {
				continue
			}
			code, err := b.SnippetCode(sn)
			if err != nil {
				t.Fatal(err)
			}
			v := decode(t, string(code))
			if probs, err := s.ValidateRef(sn.SchemaRef, v); err != nil || len(probs) > 0 {
				t.Errorf("%s: against %s: %v %v", ex.Title, sn.SchemaRef, err, probs)
			}
			if probs := s.Validate(v); len(probs) > 0 {
				t.Errorf("%s: against the whole schema: %v", ex.Title, probs)
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d JSON snippets checked", n)
	}
}

// TestDefaultSchemaRejects checks the embedded schema on its own (not the
// JSON-RPC rules) rejects what the specification forbids, at the right place.
func TestDefaultSchemaRejects(t *testing.T) {
	s := compileDefault(t)
	tests := []struct {
		name, msg, ref string
		pointer        string // where one problem must point
	}{
		{"method not a string", `{"jsonrpc": "2.0", "method": 1, "params": "bar"}`, "", "/method"},
		{"params a string", `{"jsonrpc": "2.0", "method": "m", "params": "bar", "id": 1}`, "#Request", "/params"},
		{"wrong version", `{"jsonrpc": "1.0", "method": "m", "id": 1}`, "#Request", "/jsonrpc"},
		{"id boolean", `{"jsonrpc": "2.0", "method": "m", "id": true}`, "#Request", "/id"},
		{"notification with id", `{"jsonrpc": "2.0", "method": "m", "id": 1}`, "#Notification", ""},
		{"result and error", `{"jsonrpc": "2.0", "result": 1, "error": {"code": 1, "message": "x"}, "id": 1}`, "", ""},
		{"error code fractional", `{"jsonrpc": "2.0", "error": {"code": 1.5, "message": "x"}, "id": 1}`, "#ErrorResponse", "/error/code"},
		{"error without message", `{"jsonrpc": "2.0", "error": {"code": 1}, "id": 1}`, "#ErrorResponse", "/error"},
		{"response without id", `{"jsonrpc": "2.0", "result": 1}`, "#Response", ""},
		{"empty batch", `[]`, "", ""},
		{"batch of numbers", `[1, 2]`, "#Batch", "/0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := decode(t, tt.msg)
			var probs []diag.Diagnostic
			if tt.ref == "" {
				probs = s.Validate(v)
			} else {
				var err error
				if probs, err = s.ValidateRef(tt.ref, v); err != nil {
					t.Fatal(err)
				}
			}
			if len(probs) == 0 {
				t.Fatalf("%s passed %s", tt.msg, tt.ref)
			}
			found := false
			for _, p := range probs {
				if p.Pointer == tt.pointer {
					found = true
				}
				if strings.Contains(p.Message, "'oneOf' failed") || strings.Contains(p.Message, "'anyOf' failed") {
					t.Errorf("unexplained problem %q", p.Message)
				}
				if p.Schema == "" || p.Severity != diag.Error {
					t.Errorf("problem without schema location or not an error: %+v", p)
				}
			}
			if !found {
				t.Errorf("no problem at %q: %+v", tt.pointer, probs)
			}
		})
	}
}

func blockFS(meta string, files map[string]string) fstest.MapFS {
	m := fstest.MapFS{"bblock.json": {Data: []byte(meta)}}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

const testMeta = `{"name": "T", "status": "stable", "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`

// TestReferences covers the reference forms building blocks use.
func TestReferences(t *testing.T) {
	base := blockFS(testMeta, map[string]string{
		"schema.yaml": `$schema: http://json-schema.org/draft-07/schema#
$defs:
  Thing:
    $anchor: Thing
    type: object
    required: [name]
  Old:
    $id: "#Old"
    type: string
`,
	})
	fsys := fstest.MapFS{"bblocks-config.yaml": {Data: []byte("identifier-prefix: t.\nimports: []\n")}}
	for k, v := range base {
		fsys["_sources/base/"+k] = v
	}
	for k, v := range blockFS(testMeta, map[string]string{
		"schema.json": `{"$schema": "http://json-schema.org/draft-07/schema#",
 "definitions": {
  "UsesAnchor": {"$ref": "#Local"},
  "Local": {"$anchor": "Local", "type": "integer"},
  "NoSlash": {"$ref": "#definitions/Local"},
  "Other": {"$ref": "bblocks://t.base#Thing"},
  "OtherOld": {"$ref": "bblocks://t.base#Old"},
  "Sibling": {"$ref": "parts/part.yaml#Part"}
 }}`,
		"parts/part.yaml": "$defs:\n  P:\n    $anchor: Part\n    type: boolean\n",
	}) {
		fsys["_sources/top/"+k] = v
	}
	reg, err := bblock.LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(reg.Block("t.top"), reg)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref       string
		good, bad string
	}{
		{"UsesAnchor", `1`, `"x"`},
		{"#Local", `1`, `"x"`},
		{"Local", `1`, `1.5`},
		{"#definitions/NoSlash", `2`, `true`},
		{"#/definitions/NoSlash", `2`, `true`},
		{"Other", `{"name": 1}`, `{}`},
		{"OtherOld", `"s"`, `1`},
		{"Sibling", `true`, `1`},
		{"bblocks://t.base#Thing", `{"name": 1}`, `[]`},
		{"parts/part.yaml#Part", `false`, `"no"`},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			if probs, err := s.ValidateRef(tt.ref, decode(t, tt.good)); err != nil || len(probs) > 0 {
				t.Errorf("%s rejected by %s: %v %v", tt.good, tt.ref, err, probs)
			}
			if probs, err := s.ValidateRef(tt.ref, decode(t, tt.bad)); err != nil || len(probs) == 0 {
				t.Errorf("%s accepted by %s (%v)", tt.bad, tt.ref, err)
			}
		})
	}
	if _, err := s.ValidateRef("Nothing", decode(t, `1`)); !errors.Is(err, ErrNoDefinition) {
		t.Errorf("unknown definition: %v", err)
	}
}

// TestRefusedReferences: nothing is fetched and nothing outside the block is
// read; each refusal names the reference.
func TestRefusedReferences(t *testing.T) {
	tests := []struct {
		name, ref, want string
	}{
		{"http", "http://169.254.169.254/latest", "does not fetch"},
		{"https", "https://example.com/schema.json#/x", "does not fetch"},
		{"file URL", "file:///etc/passwd", "does not fetch"},
		{"absolute path", "/etc/passwd", "does not fetch"},
		{"parent folder", "../secret.yaml", "leaves the block's folder"},
		{"unknown block", "bblocks://nowhere.block#X", `"nowhere.block"`},
		{"missing anchor", "#NoSuchAnchor", `no $anchor "NoSuchAnchor"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := bblock.Load(blockFS(testMeta, map[string]string{
				"schema.json": `{"properties": {"a": {"$ref": "` + tt.ref + `"}}}`,
			}), "t.x")
			if err != nil {
				t.Fatal(err)
			}
			_, err = Compile(b, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.ref) {
				t.Errorf("Compile with $ref %q: error %v, want it to name the ref and say %q", tt.ref, err, tt.want)
			}
		})
	}
}

func TestCompileFileStaysInFolder(t *testing.T) {
	dir := t.TempDir()
	inner := filepath.Join(dir, "inner")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "secret.json"), []byte(`{"type": "string"}`), 0o644)
	os.WriteFile(filepath.Join(inner, "sub.json"), []byte(`{"type": "integer"}`), 0o644)
	os.WriteFile(filepath.Join(inner, "ok.json"), []byte(`{"$ref": "sub.json"}`), 0o644)
	os.WriteFile(filepath.Join(inner, "bad.json"), []byte(`{"$ref": "../secret.json"}`), 0o644)
	s, err := CompileFile(filepath.Join(inner, "ok.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Validate(decode(t, `1`))) != 0 || len(s.Validate(decode(t, `"x"`))) == 0 {
		t.Error("sibling reference not followed")
	}
	if _, err := CompileFile(filepath.Join(inner, "bad.json")); err == nil || !strings.Contains(err.Error(), "outside the schema's folder") {
		t.Errorf("reference outside the folder: %v", err)
	}
}

// TestDeepestCause: a value that fails every branch of a oneOf is explained by
// the branch it nearly matched, at the deepest pointer.
func TestDeepestCause(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	os.WriteFile(file, []byte(`{"oneOf": [
	  {"type": "object", "required": ["kind", "a"], "properties": {"kind": {"const": "a"}, "a": {"type": "object", "properties": {"n": {"type": "integer"}}}}},
	  {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "b"}}},
	  {"type": "array"}
	]}`), 0o644)
	s, err := CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	probs := s.Validate(decode(t, `{"kind": "a", "a": {"n": "x"}}`))
	if len(probs) != 1 || probs[0].Pointer != "/a/n" || !strings.Contains(probs[0].Message, "want integer") {
		t.Errorf("problems %+v, want one at /a/n about integer", probs)
	}
	if !strings.HasSuffix(probs[0].Schema, "s.json#/oneOf/0/properties/a/properties/n/type") {
		t.Errorf("schema location %q", probs[0].Schema)
	}
	// A value that is none of the alternatives gets them listed.
	probs = s.Validate(decode(t, `"text"`))
	if len(probs) != 1 || !strings.Contains(probs[0].Message, "none of the alternatives") || !strings.Contains(probs[0].Message, "want array") {
		t.Errorf("problems %+v", probs)
	}
}

// TestDispatch uses a small MCP-like schema of our own: methods by const, and
// responses by the request they answer, with the server reusing the client's
// ids in the other direction.
// dispatchSchema is a small MCP-like schema of our own.
const dispatchSchema = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
	  "CallToolRequest": {"type": "object", "required": ["method", "params"], "properties": {"method": {"const": "tools/call"}, "params": {"type": "object", "required": ["name"]}}},
	  "CallToolResult": {"type": "object", "required": ["content"]},
	  "ListRootsRequest": {"type": "object", "properties": {"method": {"const": "roots/list"}}},
	  "ListRootsResult": {"type": "object", "required": ["roots"]},
	  "PingRequest": {"type": "object", "properties": {"method": {"const": "ping"}}},
	  "ServerResult": {"anyOf": [{"$ref": "#/$defs/CallToolResult"}, {"type": "object", "maxProperties": 0}]},
	  "ClientResult": {"anyOf": [{"$ref": "#/$defs/ListRootsResult"}, {"type": "object", "maxProperties": 0}]},
	  "JSONRPCResultResponse": {"type": "object", "required": ["jsonrpc", "id", "result"]}
	}}`

func TestDispatch(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.json")
	os.WriteFile(file, []byte(dispatchSchema), 0o644)
	s, err := CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChecker(s, "")
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		dir      jsonrpc.Direction
		msg      string
		problems []string // pointer=substring
	}{
		{jsonrpc.ClientToServer, `{"jsonrpc": "2.0", "id": 0, "method": "tools/call", "params": {"name": "t"}}`, nil},
		{jsonrpc.ClientToServer, `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}`, []string{"/params=missing property 'name'"}},
		{jsonrpc.ServerToClient, `{"jsonrpc": "2.0", "id": 0, "method": "roots/list"}`, nil},
		// answers the server's roots/list (id 0, s2c), not the client's tools/call
		{jsonrpc.ClientToServer, `{"jsonrpc": "2.0", "id": 0, "result": {"content": []}}`, []string{"/result=missing property 'roots'"}},
		// answers the client's tools/call id 0
		{jsonrpc.ServerToClient, `{"jsonrpc": "2.0", "id": 0, "result": {"roots": []}}`, []string{"/result=missing property 'content'"}},
		// id 7 was never asked: any server result will do, and {} is one
		{jsonrpc.ServerToClient, `{"jsonrpc": "2.0", "id": 7, "result": {}}`, nil},
		{jsonrpc.ClientToServer, `{"jsonrpc": "2.0", "id": 2, "method": "nope"}`, []string{"/method=not defined by schema"}},
	}
	for i, st := range steps {
		_, ds := c.Check(decode(t, st.msg), st.dir, i)
		var got []string
		for _, p := range ds {
			got = append(got, p.Pointer+"="+p.Message)
		}
		if len(got) != len(st.problems) {
			t.Errorf("step %d %s: problems %q, want %q", i, st.msg, got, st.problems)
			continue
		}
		for j, w := range st.problems {
			ptr, sub, _ := strings.Cut(w, "=")
			if !strings.HasPrefix(got[j], ptr+"=") || !strings.Contains(got[j], sub) {
				t.Errorf("step %d: problem %q, want %q", i, got[j], w)
			}
		}
	}
	open := c.Open()
	if len(open) != 2 || open[0].Index != 1 || open[1].Index != 6 {
		t.Errorf("open requests %+v, want steps 1 and 6", open)
	}
}

// TestOGCExamples validates every example snippet of the OGC tree against its
// schema-ref: draft-07 anchors, "#definitions/X" and bblocks:// references.
func TestOGCExamples(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range reg.Blocks {
		s, err := Compile(b, reg)
		if err != nil {
			t.Fatalf("%s: %v", b.ID, err)
		}
		for _, ex := range b.Examples.Examples {
			for _, sn := range ex.Snippets {
				code, err := b.SnippetCode(sn)
				if err != nil {
					t.Fatal(err)
				}
				probs, err := s.ValidateRef(sn.SchemaRef, decode(t, string(code)))
				if err != nil || len(probs) > 0 {
					t.Errorf("%s %s (%s): %v %v", b.ID, ex.Title, sn.SchemaRef, err, probs)
				}
				n++
			}
		}
	}
	if n != 23 {
		t.Errorf("%d snippets, want 23", n)
	}
}

// TestMCPCorpus checks the recorded sessions against the official MCP
// schemas. Every problem found is listed, with why it is right.
func TestMCPCorpus(t *testing.T) {
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	type finding struct {
		line              int
		pointer, contains string
	}
	tests := []struct {
		schema, session string
		want            []finding
	}{
		{"2025-11-25", "everything", []finding{
			// The everything server's elicitation asks for a "number" field and
			// the client answers 3.5, but ElicitResult.content allows only
			// string, integer, boolean or string[] values.
			{43, "/result/content/number", "none of the alternatives"},
			// The recorder calls a method that does not exist on purpose (the
			// server answers -32601); the schema has no definition for it.
			{71, "/method", `"no/such/method" is not defined`},
		}},
		{"2025-11-25", "filesystem", nil},
		{"2025-11-25", "memory", nil},
		// The draft-07 schema of 2025-06-18 predates the multi-select enums the
		// everything server puts in its elicitation request; the rest as above.
		{"2025-06-18", "everything", []finding{
			{42, "/params/requestedSchema/properties/titledMultipleSelectEnum/type", ""},
			{42, "/params/requestedSchema/properties/untitledMultipleSelectEnum/type", ""},
			{43, "/result/content/number", "want boolean or integer or string"},
			{71, "/method", `"no/such/method" is not defined`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.schema+"/"+tt.session, func(t *testing.T) {
			s, err := CompileFile(shared.Dir(t, "reference", "mcp-schema", tt.schema, "schema.json"))
			if err != nil {
				t.Fatal(err)
			}
			c, _ := NewChecker(s, "")
			f, err := os.Open(filepath.Join(corpus, tt.session+"-stdio.dir.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<24)
			var got []finding
			for line := 1; sc.Scan(); line++ {
				var env struct {
					Dir jsonrpc.Direction
					Msg json.RawMessage
				}
				if err := json.Unmarshal(sc.Bytes(), &env); err != nil {
					t.Fatal(err)
				}
				_, ds := c.Check(decode(t, string(bytes.TrimSpace(env.Msg))), env.Dir, line)
				for _, p := range ds {
					got = append(got, finding{line, p.Pointer, p.Message})
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("findings %+v\nwant %+v", got, tt.want)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.line != w.line || g.pointer != w.pointer || !strings.Contains(g.contains, w.contains) {
					t.Errorf("finding %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// TestDispatchResultResponse: where a schema defines a whole response per
// method (2026-07-28: ReadResourceResultResponse, whose result may be an
// InputRequiredResult), a response is checked against it, not against the
// method's Result alone.
func TestDispatchResultResponse(t *testing.T) {
	s, err := CompileFile(shared.Dir(t, "reference", "mcp-schema", "2026-07-28", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewChecker(s, "")
	readRequest := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"uri":"file:///a"}}`, id)
	}
	steps := []struct {
		dir      jsonrpc.Direction
		msg      string
		problems int // -1: some
	}{
		{jsonrpc.ClientToServer, readRequest(1), 0},
		{jsonrpc.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s1"}}`, 0},
		{jsonrpc.ClientToServer, readRequest(2), 0},
		{jsonrpc.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","cacheScope":"private","ttlMs":0,"contents":[{"uri":"file:///a","text":"x"}]}}`, 0},
		{jsonrpc.ClientToServer, readRequest(3), 0},
		{jsonrpc.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"contents":"no"}}`, -1},
	}
	for i, st := range steps {
		_, ds := c.Check(decode(t, st.msg), st.dir, i)
		if st.problems < 0 && len(ds) == 0 || st.problems >= 0 && len(ds) != st.problems {
			t.Errorf("step %d %s: problems %v, want %d", i, st.msg, ds, st.problems)
		}
	}
}

// TestFormats: with Compiler.Formats, "format" is asserted in a 2020-12
// schema (MCP 2025-11-25): uri, and byte (base64) as ajv-formats checks it;
// without it, the draft's default (annotations only) holds.
func TestFormats(t *testing.T) {
	file := shared.Dir(t, "reference", "mcp-schema", "2025-11-25", "schema.json")
	plain, err := CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	strict, err := (&Compiler{Formats: true}).CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		def, value string
		valid      bool // with formats asserted
	}{
		{"Icon", `{"src":"https://example.com/i.png"}`, true},
		{"Icon", `{"src":"foobar"}`, false},
		{"BlobResourceContents", `{"uri":"file:///a","blob":"aGVsbG8="}`, true},
		{"BlobResourceContents", `{"uri":"file:///a","blob":""}`, true},
		{"BlobResourceContents", `{"uri":"file:///a","blob":"not base64!"}`, false},
		{"BlobResourceContents", `{"uri":"relative/a","blob":"aGVsbG8="}`, false},
	}
	for _, tt := range tests {
		v := decode(t, tt.value)
		if probs, err := plain.ValidateRef(tt.def, v); err != nil || len(probs) > 0 {
			t.Errorf("%s %s without formats: %v %v", tt.def, tt.value, err, probs)
		}
		probs, err := strict.ValidateRef(tt.def, v)
		if err != nil || (len(probs) == 0) != tt.valid {
			t.Errorf("%s %s with formats: %v %v, want valid %v", tt.def, tt.value, err, probs, tt.valid)
		}
	}
}

// TestBigNumbers (issue 23, item 12): a number with more than 1,000 digits
// or an exponent beyond ±1,000 is a problem "could not be checked" at its
// pointer wherever a keyword needs its value, with plans and without;
// where none does, it is checked as any number. The case,
// uniqueItems over [1E1000001,1E1000001], was found valid.
func TestBigNumbers(t *testing.T) {
	digits1001 := "1" + strings.Repeat("0", 1000)
	tests := []struct {
		schema, params string
		want           string // "" valid; "unchecked /ptr": could not be checked there; "invalid": invalid otherwise
	}{
		{`{"uniqueItems":true}`, `[1E1000001,1E1000001]`, "unchecked /params/0"},
		{`{"uniqueItems":true}`, `[1, 2, 1E1000001]`, "unchecked /params/2"},
		{`{"uniqueItems":true}`, `[1E1000001]`, ""},
		{`{"items":{"multipleOf":2}}`, `[2, 1E999999]`, "unchecked /params/1"},
		{`{"items":{"minimum":0}}`, `[1E1001]`, "unchecked /params/0"},
		{`{"items":{"maximum":0}}`, `[-1e-1001]`, "unchecked /params/0"},
		{`{"items":{"exclusiveMinimum":0}}`, `[0.` + strings.Repeat("0", 1000) + `1]`, "unchecked /params/0"},
		{`{"items":{"exclusiveMaximum":0}}`, `[` + digits1001 + `]`, "unchecked /params/0"},
		{`{"items":{"type":"integer"}}`, `[1E1001]`, "unchecked /params/0"},
		// In digits alone too, as the plans once took it (FuzzPlan).
		{`{"items":{"type":"integer"}}`, `[` + digits1001 + `]`, "unchecked /params/0"},
		{`{"contains":{"type":"integer"}}`, `[` + digits1001 + `,"a"]`, "unchecked /params/0"},
		{`{"items":{"const":1}}`, `[1E1001]`, "unchecked /params/0"},
		{`{"items":{"enum":["a",1]}}`, `[1E1001]`, "unchecked /params/0"},
		{`{"const":[1,[2]]}`, `[1,[1E1001]]`, "unchecked /params/1/0"},
		{`{"properties":{"b":{"minimum":0}}}`, `{"a":1E1001,"b":1E1001}`, "unchecked /params/b"},
		// No keyword needs the value: checked as any number.
		{`{"items":{"type":"number"}}`, `[1E1000001, 1e-1001, ` + digits1001 + `]`, ""},
		{`{"items":{"type":"string"}}`, `[1E1001]`, "invalid"},
		{`{"items":{"const":"a"}}`, `[1E1001]`, "invalid"},
		{`{"properties":{"b":{"minimum":0}}}`, `{"a":1E1001}`, ""},
		{`{"items":{"anyOf":[{"type":"number"},{"minimum":0}]}}`, `[1E1001]`, ""},
		// Within the bounds, computed exactly.
		{`{"items":{"multipleOf":2}}`, `[1E1000, ` + digits1001[:1000] + `]`, ""},
		{`{"items":{"multipleOf":3}}`, `[1E1000]`, "invalid"},
		{`{"items":{"maximum":1E999}}`, `[1E1000]`, "invalid"},
	}
	for _, tt := range tests {
		schemaText := `{"properties":{"params":` + tt.schema + `}}`
		msg := `{"jsonrpc":"2.0","method":"m","params":` + tt.params + `,"id":1}`
		file := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(file, []byte(schemaText), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := CompileFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// As validate checks a log (plans first), and jsonschema alone.
		var withPlans []diag.Diagnostic
		r, _ := rpclog.NewReader(strings.NewReader(msg+"\n"), "log.jsonl", rpclog.ReaderOptions{})
		c, _ := NewChecker(s, "")
		if _, err := ValidateLog(r, c, "log.jsonl", func(f Finding) { withPlans = append(withPlans, f.Diagnostic) }); err != nil {
			t.Fatal(err)
		}
		c, _ = NewChecker(s, "")
		_, alone := c.Check(decode(t, msg), jsonrpc.NoDirection, 0)
		for i, probs := range [][]diag.Diagnostic{withPlans, alone} {
			var got string
			switch {
			case len(probs) == 0:
			case strings.Contains(probs[0].Message, "could not be checked"):
				got = "unchecked " + probs[0].Pointer
				for _, p := range probs {
					if !strings.Contains(p.Message, "could not be checked") || !strings.Contains(p.Message, "too big to compute with") {
						t.Errorf("%s %s: %v", tt.schema, tt.params, p)
					}
				}
			default:
				got = "invalid"
			}
			if got != tt.want {
				t.Errorf("%s %s (plans %v): %q %v, want %q", tt.schema, tt.params, i == 0, got, probs, tt.want)
			}
		}
	}
}

// TestBigNumbersCost (issue 23, item 13): numbers such as 1E999999 under
// multipleOf (2,000 of them took 52 s and 850 MB; 6,000 ran out of memory)
// are reported without being computed with: checking a message of 2,000 of
// them allocates less than 16 MB, where math/big would take about 400 KB
// for each.
func TestBigNumbersCost(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(file, []byte(`{"properties":{"params":{"items":{"multipleOf":0.5}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const n = 2000
	msg := `{"jsonrpc":"2.0","method":"m","params":[` + strings.TrimSuffix(strings.Repeat("1E999999,", n), ",") + `],"id":1}` + "\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, _ := rpclog.NewReader(strings.NewReader(msg), "log.jsonl", rpclog.ReaderOptions{})
	c, _ := NewChecker(s, "")
	problems := 0
	if _, err := ValidateLog(r, c, "log.jsonl", func(f Finding) {
		if strings.Contains(f.Message, "could not be checked") {
			problems++
		}
	}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if problems != n {
		t.Errorf("%d problems, want %d", problems, n)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("%d MB allocated", alloc>>20)
	}
}

// TestBigNumbersInSchema: a schema whose minimum, multipleOf, const, ...
// holds a number too big to compute with is refused when it is compiled,
// naming the number's pointer; the same number elsewhere (an example) is
// not in the way.
func TestBigNumbersInSchema(t *testing.T) {
	for _, tt := range []struct{ schema, ptr string }{
		{`{"properties":{"a":{"minimum":1E999999}}}`, "/properties/a/minimum"},
		{`{"multipleOf":1e-1001}`, "/multipleOf"},
		{`{"enum":[1,{"a":[1E2000]}]}`, "/enum/1/a/0"},
		{`{"maxLength":1E1001}`, "/maxLength"},
		{`{"examples":[1E999999],"default":1E999999}`, ""},
	} {
		file := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(file, []byte(tt.schema), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := CompileFile(file)
		switch {
		case tt.ptr == "" && err != nil:
			t.Errorf("%s: %v", tt.schema, err)
		case tt.ptr != "" && (err == nil || !strings.Contains(err.Error(), tt.ptr+": the number") || !strings.Contains(err.Error(), "too big")):
			t.Errorf("%s: %v, want an error at %s", tt.schema, err, tt.ptr)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		lead     int
	}{
		{"", "", 0},
		{" \t\r\n", "", 4},
		{"{}", "{}", 0},
		{" {} ", "{}", 1},
		{"\t\n[1, 2]\r\n", "[1, 2]", 2},
		{"\"a \"  ", "\"a \"", 0},
	} {
		got, lead := trimSpace([]byte(tc.in))
		if string(got) != tc.want || lead != tc.lead {
			t.Errorf("trimSpace(%q) = %q, %d; want %q, %d", tc.in, got, lead, tc.want, tc.lead)
		}
	}
}
