package bblock

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

const goodMeta = `{"name": "X", "status": "stable", "dateTimeAddition": "2025-06-12T00:00:00Z",
 "itemClass": "schema", "version": "1.0"%s}`

func TestParseMetadata(t *testing.T) {
	tests := []struct {
		name     string
		doc      string
		errs     []string // substrings, one per expected error, in order
		warnings []string
	}{
		{name: "minimal", doc: strings.Replace(goodMeta, "%s", "", 1)},
		{name: "optional members", doc: strings.Replace(goodMeta, "%s",
			`, "dependsOn": ["a.b"], "dateOfLastChange": "2025-06-13", "sources": [{"title": "t", "link": "https://x"}], "highlighted": true`, 1)},
		{name: "fractional seconds and offset", doc: `{"name": "X", "status": "stable", "dateTimeAddition": "2025-06-12T00:00:00.123+02:00", "itemClass": "model", "version": "1"}`},
		{name: "missing required", doc: `{"name": "X", "status": "stable"}`,
			errs: []string{`"dateTimeAddition" is missing`, `"itemClass" is missing`, `"version" is missing`}},
		{name: "bad status", doc: `{"name": "X", "status": "draft", "dateTimeAddition": "2025-06-12T00:00:00Z", "itemClass": "schema", "version": "1"}`,
			errs: []string{`status "draft" is not one of`}},
		{name: "bad itemClass", doc: `{"name": "X", "status": "stable", "dateTimeAddition": "2025-06-12T00:00:00Z", "itemClass": "thing", "version": "1"}`,
			errs: []string{`itemClass "thing" is not one of`}},
		{name: "date only in dateTimeAddition", doc: `{"name": "X", "status": "stable", "dateTimeAddition": "2025-06-12", "itemClass": "schema", "version": "1"}`,
			errs: []string{`"dateTimeAddition" must be a date-time`}},
		{name: "bad dateOfLastChange", doc: strings.Replace(goodMeta, "%s", `, "dateOfLastChange": "12/06/2025"`, 1),
			errs: []string{`"dateOfLastChange" must be a date YYYY-MM-DD`}},
		{name: "wrong type", doc: strings.Replace(goodMeta, "%s", `, "dependsOn": "a.b"`, 1),
			errs: []string{`"dependsOn" must be array, got string`}},
		{name: "version as number", doc: `{"name": "X", "status": "stable", "dateTimeAddition": "2025-06-12T00:00:00Z", "itemClass": "schema", "version": 1}`,
			errs: []string{`"version" must be string, got number`}},
		{name: "members the tool chain publishes accepted", doc: strings.Replace(goodMeta, "%s", `, "title": "T", "rules": [], "maturity": "mature", "scope": "unstable", "sourceSchema": "x"`, 1)},
		{name: "slips for defined members warned", doc: strings.Replace(goodMeta, "%s", `, "dependOn": [], "LdContext": "c.jsonld", "tag": [], "shaclRule": [], "profileOf": []`, 1),
			warnings: []string{`"dependOn" is not defined by the bblock.json schema: did you mean "dependsOn"?`,
				`"LdContext" is not defined by the bblock.json schema: did you mean "ldContext"?`,
				`"tag" is not defined by the bblock.json schema: did you mean "tags"?`,
				`"shaclRule" is not defined by the bblock.json schema: did you mean "shaclRules"?`,
				`"profileOf" is not defined by the bblock.json schema: did you mean "isProfileOf"?`}},
		{name: "duplicate member", doc: strings.Replace(goodMeta, "%s", `, "name": "Y"`, 1),
			errs: []string{`member "name" appears twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, probs, err := ParseMetadata("bblock.json", []byte(tt.doc))
			if err != nil {
				t.Fatalf("ParseMetadata: %v", err)
			}
			checkProblems(t, Problems(probs).Errors(), tt.errs)
			checkProblems(t, Problems(probs).Warnings(), tt.warnings)
			if m.Name == "" {
				t.Errorf("name not decoded")
			}
			var fromFields map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tt.doc), &fromFields); err != nil {
				t.Fatal(err)
			}
			keys := map[string]bool{}
			for _, f := range m.Fields {
				keys[f.Key] = true
			}
			if len(keys) != len(fromFields) {
				t.Errorf("Fields keeps %d distinct members, document has %d", len(keys), len(fromFields))
			}
		})
	}
}

func TestParseMetadataNotAnObject(t *testing.T) {
	for _, doc := range []string{`[]`, `"x"`, `{"name": `, `{} {}`, ``} {
		if _, _, err := ParseMetadata("bblock.json", []byte(doc)); err == nil || !strings.Contains(err.Error(), "bblock.json") {
			t.Errorf("ParseMetadata(%q): error %v, want one naming the file", doc, err)
		}
	}
}

func TestParseMetadataKeepsOrder(t *testing.T) {
	m, _, err := ParseMetadata("bblock.json", []byte(`{"version": "1", "name": "X", "zeta": 1, "status": "stable", "itemClass": "schema", "dateTimeAddition": "2025-06-12T00:00:00Z"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range m.Fields {
		got = append(got, f.Key)
	}
	if want := "version name zeta status itemClass dateTimeAddition"; strings.Join(got, " ") != want {
		t.Errorf("field order %v, want %s", got, want)
	}
}

func checkProblems(t *testing.T, got Problems, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d problems, want %d:\n%v", len(got), len(want), got)
		return
	}
	for i := range want {
		if !strings.Contains(got[i].Message, want[i]) {
			t.Errorf("problem %d = %q, want it to contain %q", i, got[i].Message, want[i])
		}
	}
}

func TestParseExamples(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		examples  int
		snippets  []int
		prefixes  int
		problems  []string
		wantError string
	}{
		{name: "bare list", doc: "- title: a\n  snippets:\n    - language: json\n      code: '{}'\n", examples: 1, snippets: []int{1}},
		{name: "object form", doc: "prefixes:\n  ex: http://example.com/\nexamples:\n  - title: a\n    content: text\n  - title: b\n    snippets:\n      - language: json\n        ref: a.json\n        schema-ref: '#Request'\n      - language: turtle\n        code: '<a> <b> <c> .'\n",
			examples: 2, snippets: []int{0, 2}, prefixes: 1},
		{name: "code and ref", doc: "- title: a\n  snippets:\n    - language: json\n      code: '{}'\n      ref: a.json\n", examples: 1, snippets: []int{1},
			problems: []string{"line 3: example 1 snippet 1: has both code and ref"}},
		{name: "neither code nor ref", doc: "- snippets:\n    - language: json\n", examples: 1, snippets: []int{1},
			problems: []string{"has neither code nor ref"}},
		{name: "no language", doc: "- snippets:\n    - code: x\n", examples: 1, snippets: []int{1},
			problems: []string{"language is required"}},
		{name: "empty example", doc: "- title: a\n", examples: 1, snippets: []int{0},
			problems: []string{"has neither content nor snippets"}},
		{name: "object without examples", doc: "prefixes: {}\n", wantError: "needs an \"examples\" list"},
		{name: "not a list", doc: "examples: 3\n", wantError: "must be a list"},
		{name: "not YAML", doc: "- [\n", wantError: "not YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, probs, err := ParseExamples("examples.yaml", []byte(tt.doc))
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) || !strings.Contains(err.Error(), "examples.yaml") {
					t.Fatalf("error %v, want %q naming the file", err, tt.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(ex.Examples) != tt.examples || len(ex.Prefixes) != tt.prefixes {
				t.Fatalf("%d examples, %d prefixes; want %d, %d", len(ex.Examples), len(ex.Prefixes), tt.examples, tt.prefixes)
			}
			for i, n := range tt.snippets {
				if len(ex.Examples[i].Snippets) != n {
					t.Errorf("example %d: %d snippets, want %d", i, len(ex.Examples[i].Snippets), n)
				}
			}
			checkProblems(t, probs, tt.problems)
		})
	}
}

func meta(extra string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(strings.Replace(goodMeta, "%s", extra, 1))}
}

func TestLoadRegister(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml":               {Data: []byte("name: Test\nidentifier-prefix: t\nimports: []\n")},
		"_sources/base/bblock.json":         meta(""),
		"_sources/base/schema.yaml":         {Data: []byte("$defs:\n  A:\n    $anchor: A\n    type: object\n")},
		"_sources/_group/top/bblock.json":   meta(""),
		"_sources/_group/top/schema.json":   {Data: []byte(`{"allOf": [{"$ref": "part.json"}]}`)},
		"_sources/_group/top/part.json":     {Data: []byte(`{"$ref": "bblocks://t.base#A"}`)},
		"_sources/_group/top/examples.yaml": {Data: []byte("- snippets:\n    - language: json\n      ref: ex/a.json\n")},
		"_sources/_group/top/ex/a.json":     {Data: []byte(`{"a": 1}`)},
		"_sources/aa/bblock.json":           meta(`, "dependsOn": ["t.top"]`),
		"_sources/aa/nested/bblock.json":    meta(`, "dependsOn": ["t.nowhere"]`),
		"_sources/aa/nested/schema.yaml":    {Data: []byte("type: object\n")},
		"_sources/aa/nested/schema.json":    {Data: []byte("{}")},
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(r.IDs(), " "), "t.base t.top t.aa t.aa.nested"; got != want {
		t.Errorf("ids in dependency order = %q, want %q", got, want)
	}
	top := r.Block("t.top")
	if top == nil || strings.Join(top.Deps, " ") != "t.base" {
		t.Fatalf("t.top deps = %v, want the bblocks:// reference found through part.json", top.Deps)
	}
	code, err := top.SnippetCode(top.Examples.Examples[0].Snippets[0])
	if err != nil || string(code) != `{"a": 1}` {
		t.Errorf("SnippetCode = %q, %v", code, err)
	}
	if err := top.Err(); err != nil {
		t.Errorf("t.top has errors: %v", err)
	}
	nested := r.Block("t.aa.nested")
	errs := nested.Problems.Errors().Error()
	for _, want := range []string{`depends on unknown building block "t.nowhere"`, "two schema files (schema.yaml and schema.json)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("t.aa.nested errors %q lack %q", errs, want)
		}
	}
	if r.Block("nowhere") != nil {
		t.Error("Block of an unknown id is not nil")
	}
}

func TestLoadRegisterCycle(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml":    {Data: []byte("identifier-prefix: c.\n")},
		"_sources/a/bblock.json": meta(`, "dependsOn": ["c.b"]`),
		"_sources/b/bblock.json": meta(`, "dependsOn": ["c.a"]`),
		"_sources/z/bblock.json": meta(""),
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.IDs(), " "); got != "c.b c.a c.z" {
		t.Errorf("order %q, want c.b c.a c.z (depth first from c.a)", got)
	}
	w := r.Problems.Warnings().Error()
	if !strings.Contains(w, "dependency cycle c.a -> c.b -> c.a") {
		t.Errorf("warnings %q lack the cycle", w)
	}
	if !strings.Contains(w, `import "default" is not resolved`) {
		t.Errorf("a config without imports imports the default register; warnings %q", w)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := LoadRegister(fstest.MapFS{}, nil); err == nil || !strings.Contains(err.Error(), "bblocks-config.yaml") {
		t.Errorf("empty tree: %v", err)
	}
	if _, err := Load(fstest.MapFS{"x": {}}, "x"); err == nil || !strings.Contains(err.Error(), "no bblock.json") {
		t.Errorf("folder without bblock.json: %v", err)
	}
	b, err := Load(fstest.MapFS{"bblock.json": meta("")}, "x")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../secret", "/etc/passwd", "a/../../b"} {
		if _, err := b.ReadFile(name); err == nil {
			t.Errorf("ReadFile(%q) succeeded, want it refused", name)
		}
	}
	if _, err := b.SnippetCode(Snippet{Ref: "http://169.254.169.254/latest"}); err == nil {
		t.Error("SnippetCode of a URL ref succeeded")
	}
}

// TestOGCRegister loads the real source tree of ../shared as it is.
func TestOGCRegister(t *testing.T) {
	dir := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	r, err := LoadRegisterDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.IDs(), " "); got != "mcp.json-rpc mcp.mcp" {
		t.Fatalf("ids %q, want mcp.json-rpc mcp.mcp", got)
	}
	rpc, mcp := r.Block("mcp.json-rpc"), r.Block("mcp.mcp")
	if strings.Join(mcp.Deps, " ") != "mcp.json-rpc" || len(rpc.Deps) != 0 {
		t.Errorf("deps: json-rpc %v, mcp %v; want mcp to depend on json-rpc only", rpc.Deps, mcp.Deps)
	}
	for _, b := range r.Blocks {
		if err := b.Err(); err != nil {
			t.Errorf("%s: %v", b.ID, err)
		}
		// Both bblock.json files carry "title" and "rules", which the schema
		// does not define and the tool chain publishes as written: no warning.
		if w := b.Problems.Warnings(); len(w) != 0 {
			t.Errorf("%s: warnings %q, want none", b.ID, w.Error())
		}
		if !slices.ContainsFunc(b.Meta.Fields, func(f Field) bool { return f.Key == "title" }) {
			t.Errorf("%s: member title not kept", b.ID)
		}
	}
	if n := len(rpc.Examples.Examples); n != 3 {
		t.Errorf("json-rpc has %d examples, want 3", n)
	}
	if n := len(mcp.Examples.Examples); n != 20 {
		t.Errorf("mcp has %d examples, want 20", n)
	}
	for _, ex := range mcp.Examples.Examples {
		for _, s := range ex.Snippets {
			code, err := mcp.SnippetCode(s)
			if err != nil {
				t.Errorf("%s: %v", ex.Title, err)
				continue
			}
			var v any
			if err := json.Unmarshal(code, &v); err != nil {
				t.Errorf("%s: snippet is not JSON: %v", ex.Title, err)
			}
		}
	}
	if mcp.Files.Schema != "schema.json" || len(mcp.Files.Ontology) != 1 || mcp.Files.Ontology[0] != "ontology/mcp.ttl" {
		t.Errorf("mcp files: %+v", mcp.Files)
	}
}

// TestDefault checks the embedded block loads without problems and has what
// every command relies on.
func TestDefault(t *testing.T) {
	b := Default()
	if len(b.Problems) > 0 {
		t.Fatalf("embedded block has problems:\n%v", b.Problems)
	}
	if b.Files.Schema == "" || b.Files.Context == "" || len(b.Files.Ontology) != 1 || b.Files.Description == "" || b.Examples == nil {
		t.Fatalf("embedded block lacks a file: %+v", b.Files)
	}
	if b.ID != DefaultID || b.Meta.Name == "" {
		t.Errorf("id %q name %q", b.ID, b.Meta.Name)
	}
	if len(b.Examples.Examples) == 0 {
		t.Error("embedded block has no examples")
	}
}

func TestOpen(t *testing.T) {
	b, reg, err := Open("", "", nil)
	if err != nil || b.ID != DefaultID || reg != nil {
		t.Fatalf("Open default: %v %v %v", b, reg, err)
	}
	if _, _, err := Open("", "x.y", nil); err == nil || !strings.Contains(err.Error(), "--bblock") {
		t.Errorf("an id without a folder: %v", err)
	}
	dir := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	if _, _, err := Open(dir, "", nil); err == nil || !strings.Contains(err.Error(), "mcp.json-rpc, mcp.mcp") {
		t.Errorf("a register of two blocks without --id: %v", err)
	}
	if _, _, err := Open(dir, "mcp.nope", nil); err == nil || !strings.Contains(err.Error(), `"mcp.nope"`) {
		t.Errorf("unknown id: %v", err)
	}
	b, reg, err = Open(dir, "mcp.mcp", nil)
	if err != nil || b.ID != "mcp.mcp" || reg == nil {
		t.Fatalf("Open register with id: %v", err)
	}
	// A block folder inside a register tree gets its register id and register.
	b, reg, err = Open(dir+"/_sources/mcp", "", nil)
	if err != nil || b.ID != "mcp.mcp" || reg == nil || reg.Block("mcp.json-rpc") == nil {
		t.Fatalf("Open block folder: %v %v", b, err)
	}
	if _, _, err := Open(dir+"/_sources", "", nil); err == nil {
		t.Error("a folder that is neither a block nor a register opened")
	}
}

// TestPrefixMustBeAPath (issue 23, item 1): an identifier-prefix that
// cannot be part of a path is an error naming the key.
func TestPrefixMustBeAPath(t *testing.T) {
	for _, prefix := range []string{"../../tmp/X/", `a\b.`, "a/b.", "x\n."} {
		fsys := fstest.MapFS{
			"bblocks-config.yaml":    {Data: []byte(fmt.Sprintf("identifier-prefix: %q\nimports: []\n", prefix))},
			"_sources/x/bblock.json": meta(""),
		}
		r, err := LoadRegister(fsys, nil)
		if err == nil {
			t.Errorf("prefix %q: loaded, ids %v", prefix, r.IDs())
			continue
		}
		if !strings.Contains(err.Error(), "bblocks-config.yaml: identifier-prefix") {
			t.Errorf("prefix %q: the error does not name the key: %v", prefix, err)
		}
	}
	for _, prefix := range []string{"", "ogc.", "ogc.geo", "mlc.croissant.", "x-y_z."} {
		fsys := fstest.MapFS{
			"bblocks-config.yaml":    {Data: []byte(fmt.Sprintf("identifier-prefix: %q\nimports: []\n", prefix))},
			"_sources/x/bblock.json": meta(""),
		}
		if _, err := LoadRegister(fsys, nil); err != nil {
			t.Errorf("prefix %q: %v", prefix, err)
		}
	}
}

// TestNotDoneIsSaid (issue 21, item 2): what jrpcld does not do of the
// tool chain's features (plugins, schema-oas30-downcompile) is a warning
// naming the file, never skipped in silence.
func TestNotDoneIsSaid(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml": {Data: []byte("identifier-prefix: t.\nimports: []\nschema-oas30-downcompile: true\n" +
			"plugins:\n  validators:\n    - pip: example-plugin\n      modules: [example]\n")},
		"_sources/base/bblock.json": meta(""),
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"plugins are not installed", "schema-oas30-downcompile is not applied"} {
		if w := r.Problems.Warnings().Error(); !strings.Contains(w, want) {
			t.Errorf("no warning with %q: %s", want, w)
		}
	}
}

// TestOpenAPIDocument: a block's OpenAPI document is openapi.yaml, or the
// file bblock.json's openAPIDocument names, and the blocks it refers to
// (bblocks:// URIs, x-bblocks-ref, a path to another block's document) are
// its dependencies, as the tool chain counts them; response codes written
// as numbers (200:) do not stop the walk.
func TestOpenAPIDocument(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml":          {Data: []byte("identifier-prefix: t.\nimports: []\n")},
		"_sources/api/bblock.json":     meta(""),
		"_sources/api/openapi.yaml":    {Data: []byte("paths:\n  /a:\n    $ref: bblocks://t.path\n  /b:\n    $ref: ../other/api.yaml#/x\n")},
		"_sources/path/bblock.json":    meta(""),
		"_sources/path/openapi.yaml":   {Data: []byte("get:\n  responses:\n    200:\n      $ref: bblocks://t.resp\n    404:\n      $ref: ignored\n      x-bblocks-ref: bblocks://t.missing\n")},
		"_sources/resp/bblock.json":    meta(""),
		"_sources/resp/schema.yaml":    {Data: []byte("type: object\n")},
		"_sources/other/bblock.json":   meta(`, "openAPIDocument": "api.yaml"`),
		"_sources/other/api.yaml":      {Data: []byte("x: {}\n")},
		"_sources/both/bblock.json":    meta(`, "openAPIDocument": "api.yaml"`),
		"_sources/both/api.yaml":       {Data: []byte("x: {}\n")},
		"_sources/both/openapi.yaml":   {Data: []byte("x: {}\n")},
		"_sources/broken/bblock.json":  meta(""),
		"_sources/broken/openapi.yaml": {Data: []byte("a: [\n")},
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, file string
		deps     []string
	}{
		{"t.api", "openapi.yaml", []string{"t.path", "t.other"}},
		{"t.path", "openapi.yaml", []string{"t.resp", "t.missing"}},
		{"t.other", "api.yaml", nil},
		{"t.resp", "", nil},
	} {
		b := r.Block(c.id)
		if b.Files.OpenAPI != c.file {
			t.Errorf("%s: OpenAPI document %q, want %q", c.id, b.Files.OpenAPI, c.file)
		}
		if !slices.Equal(b.Deps, c.deps) {
			t.Errorf("%s: dependencies %v, want %v", c.id, b.Deps, c.deps)
		}
	}
	if errs := r.Block("t.path").Err(); errs == nil || !strings.Contains(errs.Error(), `unknown building block "t.missing"`) {
		t.Errorf("t.path: a reference to an unknown block is not an error: %v", errs)
	}
	if errs := r.Block("t.both").Err(); errs == nil || !strings.Contains(errs.Error(), "keep one") {
		t.Errorf("t.both: a named document beside openapi.yaml is not an error: %v", errs)
	}
	if errs := r.Block("t.broken").Err(); errs == nil || !strings.Contains(errs.Error(), "openapi.yaml") {
		t.Errorf("t.broken: a document that does not parse is not an error naming it: %v", errs)
	}
}
