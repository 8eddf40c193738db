package register

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/piprate/json-gold/ld"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const fixtureDir = "testdata/fixture"

// buildDir loads the register source tree src and builds it into a new
// temporary folder, which it returns with the result.
func buildDir(t testing.TB, src string, opts Options) (string, *Result) {
	t.Helper()
	reg, err := bblock.LoadRegisterDir(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return buildReg(t, reg, opts)
}

// buildReg builds reg into a new temporary folder, which it returns with
// the result; the transforms and uplift steps run in testSandbox unless
// opts names a sandbox.
func buildReg(t testing.TB, reg *bblock.Register, opts Options) (string, *Result) {
	t.Helper()
	if opts.Sandbox == nil {
		opts.Sandbox = testSandbox
	}
	out := filepath.Join(t.TempDir(), "out")
	res, err := Build(reg, out, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return out, res
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func readJSON(t testing.TB, name string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(readFile(t, name), &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// firstKey returns the first member name of the JSON object data.
func firstKey(t *testing.T, data []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", data)
	}
	tok, err := dec.Token()
	if err != nil {
		t.Fatal(err)
	}
	k, _ := tok.(string)
	return k
}

// tree lists the files below dir, as slash paths.
func tree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// reportItems returns the items of a _report.json by their file name.
func reportItems(t *testing.T, rep map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	items, _ := rep["items"].([]any)
	for _, i := range items {
		m := i.(map[string]any)
		src := m["source"].(map[string]any)
		out[path.Base(src["filename"].(string))] = m
	}
	return out
}

// TestBuildOGC builds the published MCP register and checks the layout the
// OGC tool chain writes, that all 23 example snippets pass, what
// register.json holds, and that the built files work on their own: the
// examples validate against the built schemas with a validator that knows
// nothing of jrpcld, and each .jsonld, read with the built context file it
// names, means the same graph as its .ttl read by rapper.
func TestBuildOGC(t *testing.T) {
	src := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	reg, err := bblock.LoadRegisterDir(src, &bblock.Options{Imports: fullBuildImports(t, "ogc-mcp-2025-09")})
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	if res.Failed() {
		t.Fatalf("build failed: %+v", res)
	}
	examples := map[string]int{"json-rpc": 3, "mcp": 20}

	// The layout, from BBLOCKS.md.
	want := []string{"register.json", "index.html", "bblock/mcp.json-rpc.html", "bblock/mcp.mcp.html"}
	for p, n := range examples {
		for _, f := range []string{"schema.yaml", "schema.json", "context.jsonld", "ontology.ttl"} {
			want = append(want, "annotated/"+p+"/"+f)
		}
		want = append(want, "tests/"+p+"/_report.json", "generateddocs/markdown/"+p+"/index.md", "generateddocs/json-full/"+p+"/index.json")
		for i := 1; i <= n; i++ {
			for _, ext := range []string{".json", ".jsonld", ".ttl", ".validation_passed.txt"} {
				want = append(want, fmt.Sprintf("tests/%s/example_%d_1%s", p, i, ext))
			}
		}
	}
	files := tree(t, out)
	for _, w := range want {
		if _, ok := files[w]; !ok {
			t.Errorf("missing %s", w)
		}
	}
	for f := range files {
		if strings.HasSuffix(f, ".validation_failed.txt") {
			t.Errorf("%s: a snippet failed:\n%s", f, files[f])
		}
	}

	// All 23 examples pass, by the reports.
	passed := 0
	for p := range examples {
		rep := readJSON(t, filepath.Join(out, "tests", p, "_report.json"))
		for name, it := range reportItems(t, rep) {
			src := it["source"].(map[string]any)
			if src["type"] == "EXAMPLE" && it["result"] == true {
				passed++
			} else {
				t.Errorf("%s/%s: %v", p, name, it)
			}
		}
		counts := rep["counts"].(map[string]any)
		if counts["total"] != float64(examples[p]) || counts["passed"] != float64(examples[p]) || rep["result"] != true {
			t.Errorf("%s: counts %v, result %v", p, counts, rep["result"])
		}
		for _, k := range []string{"title", "bblockName", "bblockId", "generated", "result", "items", "globalErrors", "counts"} {
			if _, ok := rep[k]; !ok {
				t.Errorf("%s/_report.json lacks %q", p, k)
			}
		}
	}
	if passed != 23 {
		t.Errorf("%d examples passed, want 23", passed)
	}
	if got := res.Blocks; len(got) != 2 || got[0].ID != "mcp.json-rpc" || got[1].ID != "mcp.mcp" ||
		got[0].Examples != (Count{3, 0}) || got[1].Examples != (Count{20, 0}) {
		t.Errorf("results %+v", got)
	}

	checkRegisterJSON(t, src, out)
	checkSchemasStandAlone(t, src, out)
	checkUplift(t, src, out)
}

// checkRegisterJSON checks register.json against BBLOCKS.md and the source
// metadata, and that each link it holds names a file of the build.
func checkRegisterJSON(t *testing.T, src, out string) {
	data := readFile(t, filepath.Join(out, "register.json"))
	reg := readJSON(t, filepath.Join(out, "register.json"))
	for _, k := range []string{"name", "abstract", "modified", "tooling", "baseURL", "validationReport", "validationReportJson", "remoteCacheDir", "links", "bblocks"} {
		if _, ok := reg[k]; !ok {
			t.Errorf("register.json lacks %q", k)
		}
	}
	if reg["name"] != "Model Context Protocol (MCP) Building Blocks" || reg["modified"] != "2025-06-12T00:00:00" {
		t.Errorf("name %v, modified %v", reg["name"], reg["modified"])
	}
	var raw struct{ BBlocks []json.RawMessage }
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	blocks := reg["bblocks"].([]any)
	if len(blocks) != 2 || len(raw.BBlocks) != 2 {
		t.Fatalf("%d blocks", len(blocks))
	}
	for i, folder := range []string{"json-rpc", "mcp"} {
		b := blocks[i].(map[string]any)
		if k := firstKey(t, raw.BBlocks[i]); k != "itemIdentifier" {
			t.Errorf("block %d starts with %q", i, k)
		}
		if b["itemIdentifier"] != "mcp."+folder {
			t.Errorf("block %d is %v", i, b["itemIdentifier"])
		}
		// Every member of bblock.json, unchanged (dependsOn aside).
		var meta map[string]any
		if err := json.Unmarshal(readFile(t, filepath.Join(src, "_sources", folder, "bblock.json")), &meta); err != nil {
			t.Fatal(err)
		}
		for k, v := range meta {
			if k != "dependsOn" && !reflect.DeepEqual(b[k], v) {
				t.Errorf("%s: %s = %v, want %v", folder, k, b[k], v)
			}
		}
		for _, k := range []string{"sourceSchema", "sourceLdContext", "sourceFiles", "validationPassed"} {
			if _, ok := b[k]; !ok {
				t.Errorf("%s lacks %q", folder, k)
			}
		}
		if b["validationPassed"] != true {
			t.Errorf("%s: validationPassed %v", folder, b["validationPassed"])
		}
		links := map[string]string{}
		sch, _ := b["schema"].(map[string]any)
		links["application/yaml"], _ = sch["application/yaml"].(string)
		links["application/json"], _ = sch["application/json"].(string)
		links["ldContext"], _ = b["ldContext"].(string)
		links["ontology"], _ = b["ontology"].(string)
		doc, _ := b["documentation"].(map[string]any)
		for _, kind := range []string{"markdown", "json-full"} {
			d, _ := doc[kind].(map[string]any)
			links[kind], _ = d["url"].(string)
			if d["mediatype"] == nil {
				t.Errorf("%s: documentation %s has no mediatype", folder, kind)
			}
		}
		for k, l := range links {
			if l == "" {
				t.Errorf("%s: no %s link", folder, k)
				continue
			}
			if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(l))); err != nil {
				t.Errorf("%s: %s link %q: %v", folder, k, l, err)
			}
		}
	}
	if deps := blocks[1].(map[string]any)["dependsOn"]; !reflect.DeepEqual(deps, []any{"bblocks://mcp.json-rpc"}) {
		t.Errorf("mcp.mcp dependsOn %v", deps)
	}
}

// checkSchemasStandAlone validates every example snippet against the built
// schema.json files with the jsonschema library alone: the references
// between the built files must resolve without jrpcld.
func checkSchemasStandAlone(t *testing.T, src, out string) {
	c := jsonschema.NewCompiler()
	for _, p := range []string{"json-rpc", "mcp"} {
		for _, f := range []string{"schema.json"} {
			file := filepath.Join(out, "annotated", p, f)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(readFile(t, file)))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.AddResource(fileURL(file), doc); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The anchors of the JSON-RPC block's source schema, read by hand.
	anchors := map[string]string{"#Request": "#/$defs/Request", "#Response": "#/$defs/Response", "#Notification": "#/$defs/Notification"}
	checked := 0
	for _, p := range []string{"json-rpc", "mcp"} {
		b, err := bblock.LoadDir(filepath.Join(src, "_sources", p))
		if err != nil {
			t.Fatal(err)
		}
		for i, ex := range b.Examples.Examples {
			ref := ex.Snippets[0].SchemaRef
			if a, ok := anchors[ref]; ok {
				ref = a
			} else {
				ref = "#/" + strings.TrimPrefix(ref, "#")
			}
			sch, err := c.Compile(fileURL(filepath.Join(out, "annotated", p, "schema.json")) + ref)
			if err != nil {
				t.Errorf("%s example %d: %v", p, i+1, err)
				continue
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(readFile(t, filepath.Join(out, "tests", p, fmt.Sprintf("example_%d_1.json", i+1)))))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s example %d: %v", p, i+1, err)
			}
			checked++
		}
	}
	if checked != 23 {
		t.Errorf("%d examples validated, want 23", checked)
	}
	// The references the mcp schema makes into the JSON-RPC block now
	// point at the built files, in the same form.
	y := string(readFile(t, filepath.Join(out, "annotated", "mcp", "schema.yaml")))
	j := string(readFile(t, filepath.Join(out, "annotated", "mcp", "schema.json")))
	if strings.Contains(y+j, "bblocks://") || !strings.Contains(y, "$ref: ../json-rpc/schema.yaml#/$defs/Request") ||
		!strings.Contains(j, `"$ref": "../json-rpc/schema.json#/$defs/Request"`) {
		t.Errorf("references not rewritten")
	}
	if !strings.Contains(y, "x-jsonld-id:") {
		t.Errorf("schema.yaml is not annotated")
	}
}

func fileURL(p string) string {
	abs, _ := filepath.Abs(p)
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// checkUplift reads each .jsonld with the context file it names, with
// json-gold, and compares the graph with the .ttl read by rapper.
func checkUplift(t *testing.T, src, out string) {
	for _, p := range []string{"json-rpc", "mcp"} {
		b, err := bblock.LoadDir(filepath.Join(src, "_sources", p))
		if err != nil {
			t.Fatal(err)
		}
		for i, ex := range b.Examples.Examples {
			base := filepath.Join(out, "tests", p, fmt.Sprintf("example_%d_1", i+1))
			got := jsonldGraph(t, base+".jsonld", ex.BaseURI)
			want := rdftest.Rapper(t, readFile(t, base+".ttl"), ex.BaseURI)
			if len(want) == 0 {
				t.Errorf("%s: empty graph", base)
			}
			if ok, diff := rdftest.Isomorphic(got, want); !ok {
				t.Errorf("%s: .jsonld and .ttl differ:\n%s", base, diff)
			}
		}
	}
}

type noLoader struct{}

func (noLoader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	return nil, fmt.Errorf("test: refusing to load %s", u)
}

// jsonldGraph reads the JSON-LD file name with json-gold, the relative
// context references in it replaced by the files they name.
func jsonldGraph(t *testing.T, name, base string) []rdf.Triple {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(readFile(t, name), &doc); err != nil {
		t.Fatal(err)
	}
	resolve := func(v any) any {
		s, ok := v.(string)
		if !ok {
			return v
		}
		ctx := readJSON(t, filepath.Join(filepath.Dir(name), filepath.FromSlash(s)))
		return ctx["@context"]
	}
	switch c := doc["@context"].(type) {
	case []any:
		for i := range c {
			c[i] = resolve(c[i])
		}
	default:
		doc["@context"] = resolve(c)
	}
	opts := ld.NewJsonLdOptions(base)
	opts.DocumentLoader = noLoader{}
	opts.Format = "application/n-quads"
	nq, err := ld.NewJsonLdProcessor().ToRDF(doc, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ts, err := rdftest.ParseNTriples([]byte(nq.(string)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ts
}

// TestBuildFixture builds a register made for the purpose, whose outcomes
// are known by construction: examples and test resources that pass, fail,
// fail as they must, and pass or fail wrongly; a block building on another;
// a block referring into an import.
func TestBuildFixture(t *testing.T) {
	out, res := buildDir(t, fixtureDir, Options{})
	if !res.Failed() {
		t.Error("the build did not fail")
	}
	byID := map[string]BlockResult{}
	for _, b := range res.Blocks {
		byID[b.ID] = b
	}
	tests := []struct {
		id              string
		passed          bool
		examples, tests Count
	}{
		{"fx.point", false, Count{1, 1}, Count{2, 2}},
		{"fx.labelled-point", true, Count{2, 0}, Count{2, 0}},
		{"fx.remote", false, Count{}, Count{}},
	}
	for _, tt := range tests {
		b := byID[tt.id]
		if b.Passed != tt.passed || b.Examples != tt.examples || b.Tests != tt.tests {
			t.Errorf("%s: passed %v, examples %v, tests %v; want %v, %v, %v", tt.id, b.Passed, b.Examples, b.Tests, tt.passed, tt.examples, tt.tests)
		}
	}
	if ids := []string{res.Blocks[0].ID, res.Blocks[1].ID}; ids[0] != "fx.point" || ids[1] != "fx.labelled-point" {
		t.Errorf("order %v: a block must follow the block it depends on", ids)
	}

	// Each resource's outcome, in its text file and in _report.json.
	items := []struct {
		block, file string
		passed      bool
		requireFail bool
	}{
		{"point", "example_1_1.json", true, false},
		{"point", "example_2_1.json", false, false},
		{"point", "good.json", true, false},
		{"point", "missing-y-fail.json", true, true},
		{"point", "wrongly-invalid.json", false, false},
		{"point", "wrongly-valid-fail.json", false, true},
		{"labelled-point", "example_1_1.json", true, false},
		{"labelled-point", "example_2_1.ttl", true, false},
		{"labelled-point", "labelled.json", true, false},
		{"labelled-point", "truncated-fail.ttl", true, true},
	}
	reports := map[string]map[string]map[string]any{}
	for _, it := range items {
		if reports[it.block] == nil {
			reports[it.block] = reportItems(t, readJSON(t, filepath.Join(out, "tests", it.block, "_report.json")))
		}
		stem := strings.TrimSuffix(it.file, path.Ext(it.file))
		passedTxt := filepath.Join(out, "tests", it.block, stem+".validation_passed.txt")
		failedTxt := filepath.Join(out, "tests", it.block, stem+".validation_failed.txt")
		_, errP := os.Stat(passedTxt)
		_, errF := os.Stat(failedTxt)
		if (errP == nil) != it.passed || (errF == nil) == it.passed {
			t.Errorf("%s/%s: passed.txt %v, failed.txt %v; want passed %v", it.block, it.file, errP == nil, errF == nil, it.passed)
		}
		rep := reports[it.block][it.file]
		if rep == nil {
			t.Errorf("%s/%s: not in _report.json", it.block, it.file)
			continue
		}
		src := rep["source"].(map[string]any)
		if rep["result"] != it.passed || src["requireFail"] != it.requireFail {
			t.Errorf("%s/%s: report result %v, requireFail %v", it.block, it.file, rep["result"], src["requireFail"])
		}
		if _, err := os.Stat(filepath.Join(out, "tests", it.block, it.file)); err != nil {
			t.Errorf("%s/%s: the resource is not in the output: %v", it.block, it.file, err)
		}
	}
	pointRep := readJSON(t, filepath.Join(out, "tests", "point", "_report.json"))
	if c := pointRep["counts"].(map[string]any); c["total"] != 6.0 || c["passed"] != 3.0 || c["failed"] != 3.0 || pointRep["result"] != false {
		t.Errorf("point counts %v, result %v", c, pointRep["result"])
	}

	// The labelled point gets the point's terms through its reference into
	// the point block.
	ts := rdftest.Rapper(t, readFile(t, filepath.Join(out, "tests", "labelled-point", "example_1_1.ttl")), "")
	preds := map[string]string{}
	for _, tr := range ts {
		preds[tr.P] = tr.O.Value
	}
	wantPreds := map[string]string{"http://example.org/geo#x": "10", "http://example.org/geo#y": "20", "http://www.w3.org/2000/01/rdf-schema#label": "home"}
	if len(ts) != 3 || !reflect.DeepEqual(preds, wantPreds) {
		t.Errorf("labelled point graph: %v", ts)
	}
	y := string(readFile(t, filepath.Join(out, "annotated", "labelled-point", "schema.yaml")))
	if !strings.Contains(y, "$ref: ../point/schema.yaml#/$defs/Point") {
		t.Errorf("labelled point schema:\n%s", y)
	}

	// Offline: the import without a copy is an error of the register,
	// once, that says how to fetch it, and the reference into it is an
	// error that names it.
	imp := "https://example.org/elsewhere/register.json"
	for _, w := range res.Warnings {
		if strings.Contains(w, imp) {
			t.Errorf("the import is in a warning: %s", w)
		}
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0], `"jrpcld fetch `+imp+`"`) || !strings.Contains(res.Errors[0], "--import "+imp+"=DIR") {
		t.Errorf("the register's errors %q: want one, that says how to fetch the import or map it", res.Errors)
	}
	remote := byID["fx.remote"]
	if len(remote.Errors) == 0 || !strings.Contains(remote.Errors[0], imp) || !strings.Contains(remote.Errors[0], "ogc.geo.features.feature") {
		t.Errorf("remote errors %q: the first must name the import and the block", remote.Errors)
	}
}

// TestBuildDefault builds the embedded JSON-RPC 2.0 block: every example
// passes, and each test resource fails validation exactly when the
// JSON-RPC 2.0 rules (checked by jsonrpc.Classify, which shares no code
// with schema validation) find it invalid, or it is not JSON.
func TestBuildDefault(t *testing.T) {
	reg, err := DefaultRegister()
	if err != nil {
		t.Fatal(err)
	}
	if ids := reg.IDs(); len(ids) != 1 || ids[0] != bblock.DefaultID {
		t.Fatalf("ids %v", ids)
	}
	out, res := buildReg(t, reg, Options{})
	if res.Failed() || len(res.Warnings) != 0 || len(res.Errors) != 0 {
		t.Fatalf("%+v", res)
	}
	b := res.Blocks[0]
	if b.Examples.Failed != 0 || b.Examples.Passed != len(reg.Blocks[0].Examples.Examples) || b.Tests.Failed != 0 || b.Tests.Passed < 10 {
		t.Errorf("%+v", b)
	}
	rep := reportItems(t, readJSON(t, filepath.Join(out, "tests", "json-rpc", "_report.json")))
	fails := 0
	for _, f := range reg.Blocks[0].Files.Tests {
		data, err := fs.ReadFile(bblock.DefaultFS(), f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		valid := dec.Decode(&v) == nil && jsonrpc.Classify(v).Valid()
		mustFail := strings.Contains(f, "-fail.")
		if valid == mustFail {
			t.Errorf("%s: valid by the JSON-RPC rules: %v", f, valid)
		}
		if mustFail {
			fails++
		}
		if it := rep[path.Base(f)]; it == nil || it["result"] != true {
			t.Errorf("%s: report %v", f, it)
		}
	}
	if fails < 5 {
		t.Errorf("%d resources must fail; the spec's invalid messages are missing", fails)
	}
	// Test resources are uplifted with the examples' base IRI, so that
	// string ids become IRIs as they do in the examples.
	ids := 0
	for _, tr := range rdftest.Rapper(t, readFile(t, filepath.Join(out, "tests", "json-rpc", "batch.ttl")), "") {
		if tr.P == "http://json-rpc.org/ontology#hasId" && strings.HasPrefix(tr.O.Value, "http://example.com/jsonrpc/") {
			ids++
		}
	}
	if ids != 2 {
		t.Errorf("batch.ttl: %d ids resolved against the examples' base, want 2", ids)
	}
	// With a relative base, as the tool chain: against its working folder.
	reg, err = DefaultRegister()
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := build(reg, Options{RelativeBase: "file:///github/workspace/", Sandbox: testSandbox})
	if err != nil {
		t.Fatal(err)
	}
	got, err := rdftest.ParseTurtle(files["tests/json-rpc/batch.ttl"], "")
	if err != nil {
		t.Fatal(err)
	}
	var resolved []string
	for _, tr := range got {
		if tr.P == "http://json-rpc.org/ontology#hasId" && tr.O.Kind == rdf.IRI {
			resolved = append(resolved, tr.O.Value)
		}
	}
	sort.Strings(resolved)
	if want := []string{"file:///github/workspace/1", "file:///github/workspace/9"}; !slices.Equal(resolved, want) {
		t.Errorf("batch.ttl with a relative base: ids %q, want %q", resolved, want)
	}
}

// TestTestResourceNotJSON (docs/ogc.md, departure 20): a .json test
// resource that is not JSON fails as it must, its report naming the JSON
// error where it is (invalid-json-fail.json of the embedded block: the
// string "foobar, " ends at column 39, so column 40 is the "p" that no
// JSON may follow a value with), where the tool chain reads the file with
// its YAML parser and reports that parser's error and a crash of its RDF
// step.
func TestTestResourceNotJSON(t *testing.T) {
	reg, err := DefaultRegister()
	if err != nil {
		t.Fatal(err)
	}
	// Built as the tool chain's working folder resolves relative IRIs,
	// so that no note of jrpcld's comes in.
	files, _, err := build(reg, Options{RelativeBase: "file:///github/workspace/", Sandbox: testSandbox})
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Items []struct {
			Source   struct{ Filename string }
			Result   bool
			Sections []struct {
				Name    string
				Entries []map[string]any
			}
		}
	}
	if err := json.Unmarshal(files["tests/json-rpc/_report.json"], &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range rep.Items {
		if path.Base(it.Source.Filename) != "invalid-json-fail.json" {
			continue
		}
		found = true
		if !it.Result {
			t.Error("invalid-json-fail.json did not fail as it must")
		}
		var sections []string
		for _, s := range it.Sections {
			sections = append(sections, s.Name)
			if s.Name != "JSON_SCHEMA" {
				continue
			}
			e := s.Entries[0]
			if e["exception"] != "JSONDecodeError" || e["line"] != float64(1) || e["col"] != float64(40) || e["isError"] != true {
				t.Errorf("the JSON error: %v, want JSONDecodeError at line 1, column 40", e)
			}
		}
		if !slices.Equal(sections, []string{"GENERAL", "JSON_SCHEMA"}) {
			t.Errorf("sections %q, want GENERAL and JSON_SCHEMA (no uplift, nothing unknown)", sections)
		}
	}
	if !found {
		t.Error("no report item for invalid-json-fail.json")
	}
}

// TestDeterministic builds each register twice and compares the outputs
// byte by byte; no output holds an absolute path. (The build is made in
// memory; Build writes exactly those bytes, as TestBuildOGC sees.)
func TestDeterministic(t *testing.T) {
	regs := map[string]func() (*bblock.Register, error){
		"fixture": func() (*bblock.Register, error) { return bblock.LoadRegisterDir(fixtureDir, nil) },
		"default": DefaultRegister,
	}
	wd, _ := os.Getwd()
	absolute := []string{wd, os.TempDir()}
	if dir := ogcDir(t); dir != "" {
		regs["ogc"] = func() (*bblock.Register, error) { return bblock.LoadRegisterDir(dir, nil) }
		absolute = append(absolute, dir)
	}
	for name, load := range regs {
		t.Run(name, func(t *testing.T) {
			var trees []map[string][]byte
			for range 2 {
				reg, err := load()
				if err != nil {
					t.Fatal(err)
				}
				files, _, err := build(reg, Options{})
				if err != nil {
					t.Fatal(err)
				}
				trees = append(trees, files)
			}
			if len(trees[0]) != len(trees[1]) {
				t.Errorf("%d files, then %d", len(trees[0]), len(trees[1]))
			}
			for f, data := range trees[0] {
				if !bytes.Equal(data, trees[1][f]) {
					t.Errorf("%s differs between two builds", f)
				}
				for _, abs := range absolute {
					if bytes.Contains(data, []byte(abs)) {
						t.Errorf("%s holds the absolute path %s", f, abs)
					}
				}
			}
		})
	}
}

// ogcDir returns the OGC tree, or "" when ../shared is absent (and not
// required).
func ogcDir(t *testing.T) string {
	var dir string
	t.Run("shared", func(t *testing.T) { dir = shared.Dir(t, "reference", "ogc-mcp-bblocks") })
	return dir
}

// TestOptions checks the base URL, the filter and the date.
func TestOptions(t *testing.T) {
	t.Run("base URL", func(t *testing.T) {
		out, _ := buildDir(t, fixtureDir, Options{BaseURL: "https://example.org/reg"})
		reg := readJSON(t, filepath.Join(out, "register.json"))
		if reg["baseURL"] != "https://example.org/reg/" {
			t.Errorf("baseURL %v", reg["baseURL"])
		}
		b := reg["bblocks"].([]any)[1].(map[string]any)
		if b["ldContext"] != "https://example.org/reg/annotated/labelled-point/context.jsonld" {
			t.Errorf("ldContext %v", b["ldContext"])
		}
		y := string(readFile(t, filepath.Join(out, "annotated", "labelled-point", "schema.yaml")))
		if !strings.Contains(y, "$ref: https://example.org/reg/annotated/point/schema.yaml#/$defs/Point") {
			t.Errorf("schema:\n%s", y)
		}
		j := readJSON(t, filepath.Join(out, "tests", "point", "example_1_1.jsonld"))
		if c := j["@context"].([]any); c[1] != "https://example.org/reg/annotated/point/context.jsonld" {
			t.Errorf("@context %v", c)
		}
		page := string(readFile(t, filepath.Join(out, "bblock", "fx.point.html")))
		if !strings.Contains(page, `href="../annotated/point/schema.yaml"`) {
			t.Errorf("the page does not link relatively")
		}
	})
	t.Run("filter and date", func(t *testing.T) {
		out, res := buildDir(t, fixtureDir, Options{Filter: "fx.labelled-point", Date: "2030-01-02"})
		if len(res.Blocks) != 1 || res.Blocks[0].ID != "fx.labelled-point" || !res.Blocks[0].Passed {
			t.Errorf("%+v", res.Blocks)
		}
		files := tree(t, out)
		for f := range files {
			if strings.HasPrefix(f, "_sources/") {
				continue // the sources, copied whole
			}
			if strings.Contains(f, "/point/") || strings.Contains(f, "remote") {
				t.Errorf("%s built, but the filter excludes it", f)
			}
		}
		reg := readJSON(t, filepath.Join(out, "register.json"))
		if reg["modified"] != "2030-01-02T00:00:00" || len(reg["bblocks"].([]any)) != 1 {
			t.Errorf("modified %v, %d blocks", reg["modified"], len(reg["bblocks"].([]any)))
		}
		rep := readJSON(t, filepath.Join(out, "tests", "labelled-point", "_report.json"))
		if rep["generated"] != "2030-01-02T00:00:00+00:00" {
			t.Errorf("generated %v", rep["generated"])
		}
	})
	t.Run("dates from the metadata", func(t *testing.T) {
		out, _ := buildDir(t, fixtureDir, Options{})
		// The latest date of the fixture's metadata: fx.remote's addition.
		if reg := readJSON(t, filepath.Join(out, "register.json")); reg["modified"] != "2026-03-01T00:00:00" {
			t.Errorf("modified %v", reg["modified"])
		}
	})
	reg, err := bblock.LoadRegisterDir(fixtureDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Date: "2030-1-2"}, {Filter: "fx.nope"}, {BaseURL: "example.org/x"}} {
		if _, err := Build(reg, t.TempDir(), o); !errors.Is(err, ErrUsage) {
			t.Errorf("%+v: error %v, want ErrUsage", o, err)
		}
	}
}

// TestSchemaFiles checks the rewriting of references between the schema
// files of a block and into another block: anchors (draft-07 "$id": "#X"
// too) become pointers, pointers get their slash, references into another
// block lead to its annotated schema, and another file of the sources tree
// is copied under _sources/ as the tool chain publishes it beside its
// build, as it is and, for the JSON form, as JSON with its references to
// YAML files leading to their JSON copies.
func TestSchemaFiles(t *testing.T) {
	meta := `{"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`
	fsys := fstest.MapFS{
		"bblocks-config.yaml":         {Data: []byte("name: T\nidentifier-prefix: t.\nimports: []\n")},
		"_sources/a/bblock.json":      {Data: []byte(meta)},
		"_sources/a/schema.json":      {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"A": {"$anchor": "A", "type": "string"}, "Old": {"$id": "#Old", "type": "number"}}}`)},
		"_sources/b/bblock.json":      {Data: []byte(meta)},
		"_sources/b/schema.yaml":      {Data: []byte("properties:\n  a: {$ref: 'bblocks://t.a#A'}\n  old: {$ref: 'bblocks://t.a#Old'}\n  c: {$ref: 'common/defs.yaml#C'}\n  d: {$ref: '#definitions/D'}\n  g: {$ref: 'bblocks://t.a'}\ndefinitions:\n  D: {type: integer}\n")},
		"_sources/b/common/defs.yaml": {Data: []byte("$defs:\n  C:\n    $anchor: C\n    $ref: '../schema.yaml#/definitions/D'\n")},
	}
	reg, err := bblock.LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	if res.Failed() {
		t.Errorf("%+v", res)
	}
	for _, form := range []struct {
		ext  string
		want map[string]string
	}{
		{"json", map[string]string{
			"a":   "../a/schema.json#/definitions/A",
			"old": "../a/schema.json#/definitions/Old",
			"c":   "../../_sources/b/common/defs.json#/$defs/C",
			"d":   "#/definitions/D",
			"g":   "../a/schema.json",
		}},
		{"yaml", map[string]string{
			"a": "../a/schema.yaml#/definitions/A",
			"c": "../../_sources/b/common/defs.yaml#/$defs/C",
		}},
	} {
		doc, _, err := ojson.DecodeAny(readFile(t, filepath.Join(out, "annotated", "b", "schema."+form.ext)))
		if err != nil {
			t.Fatal(err)
		}
		props := doc.(*ojson.Object).Object("properties")
		for k, w := range form.want {
			if got, _ := props.Object(k).String("$ref"); got != w {
				t.Errorf("schema.%s: %s: $ref %q, want %q", form.ext, k, got, w)
			}
		}
	}
	defs := string(readFile(t, filepath.Join(out, "_sources", "b", "common", "defs.yaml")))
	if !strings.Contains(defs, "$ref: '../schema.yaml#/definitions/D'") {
		t.Errorf("defs.yaml is not the source file:\n%s", defs)
	}
	defsJSON := string(readFile(t, filepath.Join(out, "_sources", "b", "common", "defs.json")))
	if !strings.Contains(defsJSON, `"$ref": "../schema.json#/definitions/D"`) {
		t.Errorf("defs.json:\n%s", defsJSON)
	}
	if !strings.Contains(string(readFile(t, filepath.Join(out, "_sources", "b", "schema.json"))), `"D"`) {
		t.Error("the source schema defs.json refers to was not copied as JSON")
	}
}

// TestBrokenBlocks checks that bad input gives errors of the block
// concerned, never a panic, and that the other blocks still build.
func TestBrokenBlocks(t *testing.T) {
	meta := `{"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`
	good := fstest.MapFS{
		"_sources/ok/bblock.json": {Data: []byte(meta)},
		"_sources/ok/schema.yaml": {Data: []byte("type: object\n")},
	}
	cases := map[string]fstest.MapFS{
		"schema not YAML":     {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/schema.yaml": {Data: []byte("a: [\n")}},
		"context not JSON":    {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/schema.yaml": {Data: []byte("type: object\n")}, "_sources/x/context.jsonld": {Data: []byte("{")}},
		"ontology not Turtle": {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/ontology.ttl": {Data: []byte("<a> <b> .\n")}},
		"examples not YAML":   {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/examples.yaml": {Data: []byte("- [\n")}},
		"snippet ref missing": {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/examples.yaml": {Data: []byte("- title: t\n  snippets:\n    - language: json\n      ref: nope.json\n")}},
		"bad schema-ref":      {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/schema.yaml": {Data: []byte("type: object\n")}, "_sources/x/examples.yaml": {Data: []byte("- title: t\n  snippets:\n    - language: json\n      schema-ref: '#Nope'\n      code: '{}'\n")}},
		"tests.yaml URL":      {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/tests.yaml": {Data: []byte("- ref: https://example.org/t.json\n")}},
		"tests.yaml bad":      {"_sources/x/bblock.json": {Data: []byte(meta)}, "_sources/x/tests.yaml": {Data: []byte("ref: x\n")}},
		"bad metadata":        {"_sources/x/bblock.json": {Data: []byte(`{"name": 3}`)}},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{"bblocks-config.yaml": {Data: []byte("name: T\nidentifier-prefix: t.\nimports: []\n")}}
			for k, v := range good {
				fsys[k] = v
			}
			for k, v := range files {
				fsys[k] = v
			}
			reg, err := bblock.LoadRegister(fsys, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, res := buildReg(t, reg, Options{})
			var x, ok BlockResult
			for _, b := range res.Blocks {
				switch b.ID {
				case "t.x":
					x = b
				case "t.ok":
					ok = b
				}
			}
			if x.Passed || len(x.Errors) == 0 {
				t.Errorf("t.x passed: %+v", x)
			}
			if !ok.Passed {
				t.Errorf("t.ok failed: %+v", ok)
			}
			t.Logf("%q", x.Errors)
		})
	}
}

// TestDefaultTreeOnDisk writes the embedded block's register tree to disk,
// as a user who copies the block as a template would, and checks that
// building it gives exactly what building the embedded block gives.
func TestDefaultTreeOnDisk(t *testing.T) {
	reg, err := DefaultRegister()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	err = fs.WalkDir(reg.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(reg.FS, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "_sources", "json-rpc", "tests")); err != nil {
		t.Fatalf("the tree has no tests folder: %v", err)
	}
	onDisk, err := bblock.LoadRegisterDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, resA, err := build(reg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, resB, err := build(onDisk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if resA.Failed() || resB.Failed() {
		t.Fatalf("failed: %+v, %+v", resA, resB)
	}
	if len(a) != len(b) {
		t.Errorf("%d files, and %d from the tree on disk", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs", name)
		}
	}
}

// TestBuildIntoTheSources: Build into the register's own folder lays the
// build out as the OGC GitHub Action does, in the repository: with a
// BuildPath it writes the build below it and the pages at the root, and
// changes no file of the sources (nothing is copied over them); without
// one, and into a folder inside _sources/ (which the copy would write into
// as it reads it), it refuses, with a usage error, and writes nothing.
func TestBuildIntoTheSources(t *testing.T) {
	repo := t.TempDir()
	for p, data := range tree(t, fixtureDir) {
		dst := filepath.Join(repo, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := tree(t, repo)
	reg, err := bblock.LoadRegisterDir(repo, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, out, buildPath string
	}{
		{"the repository, no build path", repo, ""},
		{"inside _sources", filepath.Join(repo, "_sources", "out"), "build"},
		{"_sources itself", filepath.Join(repo, "_sources"), ""},
	} {
		if _, err := Build(reg, tt.out, Options{BuildPath: tt.buildPath, Sandbox: testSandbox}); !errors.Is(err, ErrUsage) {
			t.Errorf("%s: %v, want a usage error", tt.name, err)
		}
	}
	if got := tree(t, repo); !reflect.DeepEqual(got, before) {
		t.Error("a refused build wrote into the sources")
	}
	if _, err := Build(reg, repo, Options{BuildPath: "build", Sandbox: testSandbox}); err != nil {
		t.Fatal(err)
	}
	after := tree(t, repo)
	for p, data := range before {
		if !bytes.Equal(after[p], data) {
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		_, source := before[p]
		if !source && !strings.HasPrefix(p, "build/") && p != "index.html" && !strings.HasPrefix(p, "bblock/") {
			t.Errorf("%s written outside build/ and the pages", p)
		}
	}
	if _, ok := after["build/register.json"]; !ok {
		t.Error("no build/register.json")
	}
}

// TestBuildPath: with BuildPath, the output is laid out as the OGC GitHub
// Action publishes a repository: the build below BuildPath, linked below
// BaseURL + BuildPath, the sources in _sources/ and the pages at the root,
// linked below BaseURL and relatively; report file names from the
// repository root; a bad build path refused.
func TestBuildPath(t *testing.T) {
	root, _ := buildDir(t, fixtureDir, Options{BaseURL: "https://r.example/repo/", BuildPath: "build"})
	out := filepath.Join(root, "build")
	for _, f := range []string{"index.html", "bblock/fx.point.html", "_sources/point/bblock.json", "_sources/point/tests/good.json", "build/register.json"} {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil {
			t.Errorf("the repository lacks %s: %v", f, err)
		}
	}
	for _, f := range []string{"build/index.html", "build/_sources", "build/bblock"} {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
			t.Errorf("the repository has %s", f)
		}
	}
	if src, want := readFile(t, filepath.Join(root, "_sources", "point", "schema.yaml")), readFile(t, filepath.Join(fixtureDir, "_sources", "point", "schema.yaml")); !bytes.Equal(src, want) {
		t.Errorf("_sources/point/schema.yaml is not the source's copy")
	}
	page := string(readFile(t, filepath.Join(root, "bblock", "fx.point.html")))
	for _, link := range []string{`href="../build/annotated/point/schema.yaml"`, `href="../_sources/point/tests/good.json"`, `href="../build/tests/point/example_1_1.json"`} {
		if !strings.Contains(page, link) {
			t.Errorf("the page lacks %s", link)
		}
	}
	reg := readJSON(t, filepath.Join(out, "register.json"))
	var point map[string]any
	for _, b := range reg["bblocks"].([]any) {
		if m := b.(map[string]any); m["itemIdentifier"] == "fx.point" {
			point = m
		}
	}
	if point == nil {
		t.Fatal("fx.point is not in register.json")
	}
	if s := point["schema"].(map[string]any); s["application/yaml"] != "https://r.example/repo/build/annotated/point/schema.yaml" {
		t.Errorf("schema link %v", s)
	}
	items := readJSON(t, filepath.Join(out, "tests", "point", "_report.json"))["items"].([]any)
	sources := map[string]string{}
	for _, it := range items {
		src := it.(map[string]any)["source"].(map[string]any)
		sources[src["filename"].(string)], _ = src["url"].(string)
	}
	for f, u := range map[string]string{
		"build/tests/point/example_1_1.json": "https://r.example/repo/build/tests/point/example_1_1.json",
		"_sources/point/tests/good.json":     "https://r.example/repo/_sources/point/tests/good.json",
	} {
		if got, ok := sources[f]; !ok || got != u {
			t.Errorf("report item %s: url %q (found %v), want %q", f, got, ok, u)
		}
	}
	for _, bad := range []string{"/abs", "..", "../up", "."} {
		if _, _, err := build(&bblock.Register{}, Options{BuildPath: bad}); !errors.Is(err, ErrUsage) {
			t.Errorf("build path %q: %v, want a usage error", bad, err)
		}
	}
}

// TestRegisterFields: register.json's register-level members and those
// the options give each block, as the tool chain writes them, and the copy
// of a mapped import the viewer reads (annotated/_cache, named by the
// SHA-256 of the import's register.json URL).
func TestRegisterFields(t *testing.T) {
	impDir := t.TempDir()
	impReg := []byte(`{"name": "Elsewhere", "baseURL": "https://example.org/elsewhere/", "bblocks": [{"itemIdentifier": "ogc.geo.features.feature", "name": "Feature"}]}`)
	if err := os.WriteFile(filepath.Join(impDir, "register.json"), impReg, 0o644); err != nil {
		t.Fatal(err)
	}
	const impURL = "https://example.org/elsewhere/register.json"
	imports, err := bblock.LoadImports([]bblock.ImportMap{{URL: impURL, Dir: impDir}})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := bblock.LoadRegisterDir(fixtureDir, &bblock.Options{Imports: imports})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{BaseURL: "https://r.example/", BuildPath: "build", Date: "2030-01-02", CommitDate: "2031-02-03",
		GitRepository: "https://github.com/o/r", GitHubBaseURL: "https://github.com/o/r/blob/main/", ViewerURL: "https://viewer.example/r"}
	root, _ := buildReg(t, reg, opts)
	out := filepath.Join(root, "build")
	got := readJSON(t, filepath.Join(out, "register.json"))
	for k, want := range map[string]any{
		"modified":             "2030-01-02T00:00:00",
		"gitRepository":        "https://github.com/o/r",
		"gitHubRepository":     "https://github.com/o/r/blob/main/",
		"viewerURL":            "https://viewer.example/r/",
		"validationReport":     "https://r.example/build/tests/report.html",
		"validationReportJson": "https://r.example/build/tests/report.json",
		"remoteCacheDir":       "https://r.example/build/annotated/_cache",
		"imports":              []any{impURL},
	} {
		if !reflect.DeepEqual(got[k], want) {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	sum := sha256.Sum256([]byte(impURL))
	if cached := readFile(t, filepath.Join(out, "annotated", "_cache", hex.EncodeToString(sum[:]))); !bytes.Equal(cached, impReg) {
		t.Errorf("annotated/_cache holds %s, want the import's register.json", cached)
	}
	var point map[string]any
	for _, b := range got["bblocks"].([]any) {
		if m := b.(map[string]any); m["itemIdentifier"] == "fx.point" {
			point = m
		}
	}
	for k, want := range map[string]any{
		"dateOfLastChange": "2031-02-03",
		"sourceFiles":      "https://r.example/_sources/point/",
		"testOutputs":      "https://github.com/o/r/blob/main/build/tests/point/",
		"shaclShapes":      map[string]any{},
	} {
		if !reflect.DeepEqual(point[k], want) {
			t.Errorf("fx.point %s = %v, want %v", k, point[k], want)
		}
	}
	viewer := point["documentation"].(map[string]any)["bblocks-viewer"].(map[string]any)
	if viewer["url"] != "https://viewer.example/r/bblock/fx.point" {
		t.Errorf("viewer link %v", viewer)
	}
	summary := string(readFile(t, filepath.Join(out, "register-summary.md")))
	if !strings.HasPrefix(summary, "# Fixture register\n") || !strings.Contains(summary, "### `fx.point` \u2014 ") {
		t.Errorf("register-summary.md:\n%s", summary)
	}
}

// TestMetadataLinks: members of bblock.json that register.json rewrites or
// keeps as the tool chain does: a resource's relative ref is linked from the
// block's sources (an absolute URL stays), and a block with no context file
// keeps the sourceLdContext its bblock.json names, while a block with one
// gets the link to its file.
func TestMetadataLinks(t *testing.T) {
	const meta = `"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"`
	fsys := fstest.MapFS{
		"bblocks-config.yaml": {Data: []byte("name: T\nidentifier-prefix: t.\nimports: []\n")},
		"_sources/a/bblock.json": {Data: []byte(`{` + meta + `, "sourceLdContext": "https://example.org/ctx.jsonld",
			"resources": [{"role": "validation", "ref": "assets/schema.xsd"}, {"ref": "https://example.org/x.xsd"}, {"role": "none"}]}`)},
		"_sources/a/schema.yaml":       {Data: []byte("type: object\n")},
		"_sources/b/bblock.json":       {Data: []byte(`{` + meta + `, "sourceLdContext": "https://example.org/other.jsonld"}`)},
		"_sources/b/schema.yaml":       {Data: []byte("type: object\n")},
		"_sources/b/context.jsonld":    {Data: []byte(`{"@context": {"p": "https://example.org/p"}}`)},
		"_sources/a/assets/schema.xsd": {Data: []byte("<schema/>")},
	}
	reg, err := bblock.LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := buildReg(t, reg, Options{BaseURL: "https://r.example/"})
	got := readJSON(t, filepath.Join(out, "register.json"))
	blocks := map[string]map[string]any{}
	for _, b := range got["bblocks"].([]any) {
		m := b.(map[string]any)
		blocks[m["itemIdentifier"].(string)] = m
	}
	wantResources := []any{
		map[string]any{"role": "validation", "ref": "https://r.example/_sources/a/assets/schema.xsd"},
		map[string]any{"ref": "https://example.org/x.xsd"},
		map[string]any{"role": "none"},
	}
	if !reflect.DeepEqual(blocks["t.a"]["resources"], wantResources) {
		t.Errorf("t.a resources = %v, want %v", blocks["t.a"]["resources"], wantResources)
	}
	for id, want := range map[string]string{
		"t.a": "https://example.org/ctx.jsonld",
		"t.b": "https://r.example/_sources/b/context.jsonld",
	} {
		if blocks[id]["sourceLdContext"] != want {
			t.Errorf("%s sourceLdContext = %v, want %s", id, blocks[id]["sourceLdContext"], want)
		}
	}
}

// TestSnippetNotJSON: a JSON snippet whose code is not JSON (cco's
// `code: complete-example.json`, where `ref` was meant) fails with the
// parse error and is not uplifted: no .jsonld, no .ttl (departure 18; the
// tool chain writes a JSON-LD document whose @graph is the text and an
// empty Turtle file).
func TestSnippetNotJSON(t *testing.T) {
	const meta = `{"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`
	fsys := fstest.MapFS{
		"bblocks-config.yaml":       {Data: []byte("name: T\nidentifier-prefix: t.\nimports: []\n")},
		"_sources/a/bblock.json":    {Data: []byte(meta)},
		"_sources/a/schema.yaml":    {Data: []byte("type: object\n")},
		"_sources/a/context.jsonld": {Data: []byte(`{"@context": {"p": "https://example.org/p"}}`)},
		"_sources/a/examples.yaml":  {Data: []byte("- title: Complete\n  snippets:\n    - language: json\n      code: complete-example.json\n")},
	}
	reg, err := bblock.LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	if b := res.Blocks[0]; b.Examples.Failed != 1 {
		t.Errorf("examples %+v: the snippet that is not JSON must fail", b.Examples)
	}
	dir := filepath.Join(out, "tests", "a")
	for _, name := range []string{"example_1_1.jsonld", "example_1_1.ttl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s written for a snippet that is not JSON", name)
		}
	}
	failed := string(readFile(t, filepath.Join(dir, "example_1_1.validation_failed.txt")))
	if !strings.Contains(failed, "Error parsing JSON example") {
		t.Errorf("the report does not give the parse error:\n%s", failed)
	}
}
