package register

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// TestJSONPathSnippet (issue 21): a snippet with a json-path is the first
// value the path selects in the file its ref names: that part is written,
// validated against the block's schema and uplifted; a path that selects
// nothing skips the snippet, as the tool chain does, with a warning.
func TestJSONPathSnippet(t *testing.T) {
	tree := fstest.MapFS{
		bblock.ConfigFile:                 {Data: []byte("identifier-prefix: t.\nimports: []\n")},
		"_sources/props/bblock.json":      {Data: []byte(blockMeta)},
		"_sources/props/schema.yaml":      {Data: []byte("type: object\nrequired: [name]\nproperties:\n  name:\n    type: string\n")},
		"_sources/props/context.jsonld":   {Data: []byte(`{"@context": {"name": "http://example.com/name"}}`)},
		"_sources/props/examples/fc.json": {Data: []byte(`{"type": "FeatureCollection", "features": [{"id": "f1", "properties": {"name": "one"}}]}`)},
		"_sources/props/examples.yaml": {Data: []byte(`- title: part
  snippets:
    - language: json
      ref: examples/fc.json
      json-path: $.features[0].properties
- title: nothing
  snippets:
    - language: json
      ref: examples/fc.json
      json-path: $.features[3]
`)},
	}
	reg, err := bblock.LoadRegister(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, res, err := build(reg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Blocks[0]
	if !b.Passed || b.Examples.Passed != 1 || b.Examples.Failed != 0 {
		t.Errorf("examples %+v, errors %v: want the selected part to pass (the whole file has no \"name\") and the other skipped", b.Examples, b.Errors)
	}
	var got any
	if err := json.Unmarshal(files["tests/props/example_1_1.json"], &got); err != nil || !reflect.DeepEqual(got, map[string]any{"name": "one"}) {
		t.Errorf("example_1_1.json = %s, %v; want the selected part", files["tests/props/example_1_1.json"], err)
	}
	if ttl := string(files["tests/props/example_1_1.ttl"]); !strings.Contains(ttl, `"one"`) {
		t.Errorf("the selected part is not uplifted:\n%s", ttl)
	}
	for name := range files {
		if strings.HasPrefix(name, "tests/props/example_2_1") {
			t.Errorf("%s written for a snippet whose json-path selects nothing", name)
		}
	}
	if w := strings.Join(b.Warnings, "\n"); !strings.Contains(w, "example 2 snippet 1") || !strings.Contains(w, "selects nothing") {
		t.Errorf("no warning about the skipped snippet: %s", w)
	}
}

// TestJSONPathSnippetReference: the examples register's
// forestStandProperties, whose only snippet is a json-path into another
// block's file, gives the part and the verdict the tool chain gives.
func TestJSONPathSnippetReference(t *testing.T) {
	src := shared.Dir(t, "reference", "ogc-registers-2", "ogcincubator+bblocks-examples", "src")
	ref := shared.Dir(t, "reference", "ogc-full-current", "examples")
	reg, err := bblock.LoadRegisterDir(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	const id = "ogc.bbr.examples.linkeddata.forestStandProperties"
	out, res := buildReg(t, reg, Options{Filter: id})
	if !res.Blocks[0].Passed {
		t.Errorf("%s fails: %v", id, res.Blocks[0].Errors)
	}
	rel := filepath.Join("tests", "bbr", "examples", "linkeddata", "forestStandProperties", "example_1_1.json")
	var got, want any
	if err := json.Unmarshal(readFile(t, filepath.Join(out, rel)), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(ref, rel)), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s differs from the tool chain's:\n%v\n%v", rel, got, want)
	}
}
