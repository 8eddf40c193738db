package ogcdiff

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// resultsDoc is a full JSON documentation page with the results of a
// Turtle and a JSON transform, their sizes to fill in.
const resultsDoc = `{"examples": [{"snippets": [{"language": "json", "code": "{}", "transformResults": {"t": {"success": true, "sizeBytes": %d, "url": "https://x/tests/a/transforms/example_1_1.t.ttl"}, "j": {"success": true, "sizeBytes": %d, "url": "https://x/tests/a/transforms/example_1_1.j.json"}}}]}]}`

// TestCompare: each kind of file is compared by what it means, and each
// kind of difference is found.
func TestCompare(t *testing.T) {
	want := fstest.MapFS{
		"register.json":           {Data: []byte(`{"name": "R", "modified": "2000-01-01T00:00:00", "bblocks": [{"itemIdentifier": "p.a", "dependsOn": ["bblocks://p.b", "bblocks://p.c"], "validationPassed": true}]}`)},
		"annotated/a/schema.yaml": {Data: []byte("type: object\nproperties:\n  x: {type: number}\n")},
		"tests/a/example_1_1.ttl": {Data: []byte("@prefix e: <http://e/> .\n[] e:p 75.0 ; e:q \"s\" .\n")},
		"tests/a/_report.json": {Data: []byte(`{"title": "T", "bblockName": "A", "bblockId": "p.a", "generated": "x", "result": true, "items": [
			{"source": {"type": "EXAMPLE", "requireFail": false, "filename": "build/tests/a/example_1_1.json"}, "result": true, "sections": [
				{"name": "JSON_SCHEMA", "title": "JSON Schema", "entries": [{"op": "validation", "result": false, "exception": "ValidationError", "errorMessage": "Python's words", "isError": true, "message": "ValidationError: Python's words"}]},
				{"name": "SHACL", "title": "SHACL", "entries": [{"shaclFile": "s.shacl", "focusNodes": {"<x>": {"nodes": ["_:N0123"]}}, "isError": false, "message": "Focus nodes: _:N0123"}]}]}],
			"globalErrors": {}, "counts": {"total": 1, "passed": 1, "failed": 0}}`)},
		"only-theirs.md":                       {Data: []byte("x\n")},
		"generateddocs/json-full/a/index.json": {Data: []byte(fmt.Sprintf(resultsDoc, 151, 10))},
	}
	same := fstest.MapFS{
		"register.json":           {Data: []byte(`{"name": "R", "modified": "2030-05-05T00:00:00", "bblocks": [{"itemIdentifier": "p.a", "dependsOn": ["bblocks://p.c", "bblocks://p.b"], "validationPassed": true}]}`)},
		"annotated/a/schema.yaml": {Data: []byte("properties:\n  x:\n    type: number\ntype: object\n")},
		// The same graph: 75 and 75.0 are one xsd:decimal value, and a
		// plain literal is an xsd:string.
		"tests/a/example_1_1.ttl": {Data: []byte("@prefix e: <http://e/> .\n[] e:q \"s\"^^<http://www.w3.org/2001/XMLSchema#string> ; e:p 75.00 .\n")},
		"tests/a/_report.json": {Data: []byte(`{"title": "T", "bblockName": "A", "bblockId": "p.a", "generated": "y", "result": true, "items": [
			{"source": {"type": "EXAMPLE", "requireFail": false, "filename": "build/tests/a/example_1_1.json"}, "result": true, "sections": [
				{"name": "JSON_SCHEMA", "title": "JSON Schema", "entries": [{"op": "validation", "result": false, "exception": "ValidationError", "errorMessage": "jrpcld's words", "isError": true, "message": "ValidationError: jrpcld's words"}]},
				{"name": "SHACL", "title": "SHACL", "entries": [{"shaclFile": "s.shacl", "focusNodes": {"<x>": {"nodes": ["_:b7"]}}, "isError": false, "message": "Focus nodes: _:b7"}]}]}],
			"globalErrors": {}, "counts": {"total": 1, "passed": 1, "failed": 0}}`)},
		"index.html": {Data: []byte("<p>jrpcld's own</p>")},
		// A transform's Turtle output of another size: its layout.
		"generateddocs/json-full/a/index.json": {Data: []byte(fmt.Sprintf(resultsDoc, 143, 10))},
		"only-ours.json":                       {Data: []byte("{}")},
	}
	diffs := Compare(t, same, want, nil, []string{"index.html"})
	var got []string
	for _, d := range diffs {
		got = append(got, d.String())
	}
	wantDiffs := []string{"missing only-theirs.md", "extra only-ours.json"}
	if strings.Join(got, "\n") != strings.Join(wantDiffs, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantDiffs, "\n"))
	}

	// Each change is found, where it is.
	for _, tt := range []struct {
		file, data, want string
	}{
		{"register.json", `{"name": "R", "bblocks": [{"itemIdentifier": "p.a", "dependsOn": ["bblocks://p.b", "bblocks://p.c"], "validationPassed": false}]}`, "differs register.json bblocks[p.a]/validationPassed"},
		{"annotated/a/schema.yaml", "type: object\n", "missing annotated/a/schema.yaml /properties"},
		{"tests/a/example_1_1.ttl", "@prefix e: <http://e/> .\n[] e:p 76 ; e:q \"s\" .\n", "differs tests/a/example_1_1.ttl graph"},
		{"generateddocs/json-full/a/index.json", fmt.Sprintf(resultsDoc, 151, 11), "differs generateddocs/json-full/a/index.json /examples/0/snippets/0/transformResults/j/sizeBytes"},
		{"tests/a/_report.json", strings.Replace(string(want["tests/a/_report.json"].Data), `"result": false, "exception"`, `"result": true, "exception"`, 1), "differs tests/a/_report.json item[build/tests/a/example_1_1.json].JSON_SCHEMA"},
	} {
		changed := fstest.MapFS{}
		for k, v := range want {
			changed[k] = v
		}
		changed[tt.file] = &fstest.MapFile{Data: []byte(tt.data)}
		found := false
		for _, d := range Compare(t, changed, want, nil, nil) {
			if strings.HasPrefix(d.String(), tt.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s changed: %q not found in %v", tt.file, tt.want, Compare(t, changed, want, nil, nil))
		}
	}
}

// TestCompareMarkdown: a page is compared line by line, its code blocks by
// what the code means; in a block's page every differing line is found.
func TestCompareMarkdown(t *testing.T) {
	want := "# T\n\n```json\n{\"a\": 1, \"b\": [1, 2]}\n```\n\n```ttl\n@prefix e: <http://e/> .\n[] e:p 1 .\n```\n\n```yaml\nx:\n- 1\n```\nlink A\nlink B\n"
	for _, tt := range []struct {
		name, got string
		want      []string
	}{
		{"same meaning", "# T\n\n```json\n{\n  \"b\": [1, 2],\n  \"a\": 1.0\n}\n\n```\n\n```ttl\n[ <http://e/p> 1 ] .\n```\n\n```yaml\nx:\n  - 1\n```\nlink A\nlink B\n\n", nil},
		{"code and lines", "# T\n\n```json\n{\"a\": 2, \"b\": [1, 2]}\n```\n\n```ttl\n@prefix e: <http://e/> .\n[] e:p 1 .\n```\n\n```yaml\nx:\n- 1\n```\nlink B\nlink A\n",
			[]string{"line 3", "line 16", "line 17"}},
		{"a line more", "# T\n\nnew\n```json\n{\"a\": 2}\n```\n", []string{"line 3"}},
	} {
		var got []string
		for _, d := range compareMarkdown("generateddocs/markdown/a/index.md", []byte(tt.got), []byte(want)) {
			got = append(got, d.Where)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s: differences at %q, want %q", tt.name, got, tt.want)
		}
	}
}
