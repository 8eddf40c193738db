package bblock

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestExtensionPoints (issue 21, item 2): extensionPoints as the tool chain
// reads it before it builds: the base block and every extension source
// and target are dependencies; the block takes its base's itemClass; a
// chain of bases that comes back is an error, and so is a fragment or a
// missing baseBuildingBlock; a base with only an OpenAPI document makes
// the extension points declarative, and a base with a schema gives the
// block a built schema (TestExtensionSchema checks what it holds).
func TestExtensionPoints(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml":         {Data: []byte("identifier-prefix: t.\nimports: []\n")},
		"_sources/api/bblock.json":    {Data: []byte(`{"name": "A", "status": "stable", "dateTimeAddition": "2025-06-12T00:00:00Z", "itemClass": "api", "version": "1.0"}`)},
		"_sources/api/openapi.yaml":   {Data: []byte("openapi: 3.1.0\npaths: {}\n")},
		"_sources/in/bblock.json":     meta(""),
		"_sources/in/schema.yaml":     {Data: []byte("type: object\n")},
		"_sources/mine/bblock.json":   meta(""),
		"_sources/mine/schema.yaml":   {Data: []byte("type: object\n")},
		"_sources/base/bblock.json":   {Data: []byte(`{"name": "B", "status": "stable", "dateTimeAddition": "2025-06-12T00:00:00Z", "itemClass": "datatype", "version": "1.0"}`)},
		"_sources/base/schema.yaml":   {Data: []byte("properties:\n  in:\n    $ref: bblocks://t.in\n")},
		"_sources/ext/bblock.json":    meta(`, "extensionPoints": {"baseBuildingBlock": "bblocks://t.api", "extensions": {"t.in": "bblocks://t.mine"}}`),
		"_sources/ext2/bblock.json":   meta(`, "extensionPoints": {"baseBuildingBlock": "t.base", "extensions": {"t.in": "t.mine"}}`),
		"_sources/loop1/bblock.json":  meta(`, "extensionPoints": {"baseBuildingBlock": "t.loop2"}`),
		"_sources/loop2/bblock.json":  meta(`, "extensionPoints": {"baseBuildingBlock": "t.loop1"}`),
		"_sources/frag/bblock.json":   meta(`, "extensionPoints": {"baseBuildingBlock": "t.base", "extensions": {"t.in#/x": "t.mine"}}`),
		"_sources/nobase/bblock.json": meta(`, "extensionPoints": {"extensions": {"t.in": "t.mine"}}`),
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	block := func(id string) *Block {
		t.Helper()
		b := r.Block(id)
		if b == nil {
			t.Fatalf("no block %s", id)
		}
		return b
	}

	ext := block("t.ext")
	if err := ext.Err(); err != nil {
		t.Errorf("t.ext: %v", err)
	}
	if ids := ext.Meta.ExtensionPoints.Ids(); !slices.Equal(ids, []string{"t.api", "t.in", "t.mine"}) {
		t.Errorf("t.ext: extension ids %v, want t.api, t.in, t.mine (without bblocks://)", ids)
	}
	for _, id := range []string{"t.api", "t.in", "t.mine"} {
		if !slices.Contains(ext.Deps, id) {
			t.Errorf("t.ext: %s is not among its dependencies %v", id, ext.Deps)
		}
	}
	if w := ext.Problems.Warnings().Error(); !strings.Contains(w, "t.api has an OpenAPI document: its extension points are declarative") {
		t.Errorf("t.ext: no warning that its extension points are declarative: %s", w)
	}
	// The base's itemClass, in Meta and in the member republished.
	ext2 := block("t.ext2")
	var itemClass string
	for _, f := range ext2.Meta.Fields {
		if f.Key == "itemClass" {
			if err := json.Unmarshal(f.Value, &itemClass); err != nil {
				t.Fatal(err)
			}
		}
	}
	if ext2.Meta.ItemClass != "datatype" || itemClass != "datatype" {
		t.Errorf("t.ext2: itemClass %q (field %q); want its base's, datatype", ext2.Meta.ItemClass, itemClass)
	}
	if err := ext2.Err(); err != nil || ext2.Files.Schema != ExtensionSchemaFile {
		t.Errorf("t.ext2: schema %q, error %v; want its built schema, %s, and no error", ext2.Files.Schema, err, ExtensionSchemaFile)
	}
	for id, want := range map[string]string{
		"t.loop1":  "extension point cycle: t.loop1 -> t.loop2 -> t.loop1",
		"t.frag":   `"t.in#/x" holds a fragment`,
		"t.nobase": "baseBuildingBlock (the id of the block it extends) is missing",
	} {
		if err := block(id).Err(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v; want one with %q", id, err, want)
		}
	}
}

// TestExtensionSchema (issue 21): the schema of a block whose extension
// points name a base with a schema, checked against the rules of the
// tool chain's extension.py (docs/ogc.md, "Extension points"): an allOf of
// a reference to the base's schema and an overlay holding only the
// branches of the base (followed through references) that lead to a
// reference to an extension source, each such reference replaced by its
// target with x-bblocks-extension-source/-target; a property on the way
// keeps none of its other keywords, every entry of a oneOf on the way is
// kept whole; a reference to a schema that is only another name for a
// source (an alias) is replaced too, and so is a reference to a schema
// whose only content is an allOf of one reference to a source. A
// reference copied from the base's document (#/$defs/plain) is written so
// that it still leads there, a root branch leading to a source is kept
// though another was walked after it, and a pattern of patternProperties
// keeps its schema (departure 19, with a warning). The block has no schema file
// of its own, so the built one is ExtensionSchemaFile; a block with one
// gets the built schema under that name. A target without a schema is an
// error of the block.
func TestExtensionSchema(t *testing.T) {
	const base = `
properties:
  in:
    $ref: bblocks://t.in
  other:
    type: string
  list:
    type: array
    items:
      $ref: ../in/schema.yaml
  choice:
    oneOf:
    - $ref: bblocks://t.in
    - type: string
    - $ref: '#/$defs/plain'
  local:
    $ref: '#/$defs/wrap'
  alias:
    $ref: bblocks://t.real
$defs:
  plain:
    type: number
  wrap:
    description: only a name for t.in
    allOf:
    - $ref: bblocks://t.in
`
	fsys := fstest.MapFS{
		"bblocks-config.yaml":       {Data: []byte("identifier-prefix: t.\nimports: []\n")},
		"_sources/in/bblock.json":   meta(""),
		"_sources/in/schema.yaml":   {Data: []byte("type: object\nproperties:\n  a:\n    type: string\n")},
		"_sources/mine/bblock.json": meta(""),
		"_sources/mine/schema.yaml": {Data: []byte("type: object\nproperties:\n  b:\n    type: integer\n")},
		"_sources/real/bblock.json": meta(""),
		"_sources/real/schema.yaml": {Data: []byte("type: string\n")},
		"_sources/s/bblock.json":    meta(""),
		"_sources/s/schema.yaml":    {Data: []byte("description: another name for t.real\n$ref: ../real/schema.yaml\n")},
		"_sources/tgt/bblock.json":  meta(""),
		"_sources/tgt/schema.yaml":  {Data: []byte("type: string\nminLength: 1\n")},
		"_sources/nos/bblock.json":  meta(""),
		"_sources/base/bblock.json": meta(""),
		"_sources/base/schema.yaml": {Data: []byte(base)},
		"_sources/ext/bblock.json":  meta(`, "extensionPoints": {"baseBuildingBlock": "t.base", "extensions": {"t.in": "t.mine", "t.s": "t.tgt"}}`),
		"_sources/own/bblock.json":  meta(`, "extensionPoints": {"baseBuildingBlock": "t.base", "extensions": {"t.in": "t.mine"}}`),
		"_sources/own/schema.yaml":  {Data: []byte("type: object\n")},
		"_sources/bad/bblock.json":  meta(`, "extensionPoints": {"baseBuildingBlock": "t.base", "extensions": {"t.in": "t.nos"}}`),
		// A source reached from a root oneOf, and a root properties the
		// walk makes after it, which the tool chain's overlay would be.
		"_sources/rootbase/bblock.json": meta(""),
		"_sources/rootbase/schema.yaml": {Data: []byte("oneOf:\n  - patternProperties:\n      '^q':\n        type: string\n  - $ref: bblocks://t.in\nproperties:\n  x:\n    type: string\n")},
		"_sources/rootext/bblock.json":  meta(`, "extensionPoints": {"baseBuildingBlock": "t.rootbase", "extensions": {"t.in": "t.mine"}}`),
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	ext := r.Block("t.ext")
	if err := ext.Err(); err != nil {
		t.Fatal(err)
	}
	if ext.Files.Schema != ExtensionSchemaFile || !ext.Files.SchemaBuilt {
		t.Errorf("schema %q (built %v); want %s, built", ext.Files.Schema, ext.Files.SchemaBuilt, ExtensionSchemaFile)
	}
	got, err := ext.SchemaDoc()
	if err != nil {
		t.Fatal(err)
	}
	subst := func(source, target string) string {
		return `{"$ref": "bblocks://` + target + `", "x-bblocks-extension-source": "` + source + `", "x-bblocks-extension-target": "` + target + `"}`
	}
	want := `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "x-bblocks-extends": "t.base",
  "x-bblocks-extensions": {"t.in": "t.mine", "t.s": "t.tgt"},
  "allOf": [
    {"$ref": "bblocks://t.base"},
    {"properties": {
      "in": ` + subst("t.in", "t.mine") + `,
      "list": {"items": ` + subst("t.in", "t.mine") + `},
      "choice": {"oneOf": [` + subst("t.in", "t.mine") + `, {"type": "string"}, {"$ref": "bblocks://t.base#/$defs/plain"}]},
      "local": {"allOf": [` + subst("t.in", "t.mine") + `]},
      "alias": ` + subst("t.s", "t.tgt") + `
    }}
  ]
}`
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if gj, wj := mustJSON(t, got), mustJSON(t, w); gj != wj {
		t.Errorf("built schema\n%s\nwant\n%s", gj, wj)
	}

	// Departure 19: the root oneOf is kept although the walk made the
	// root properties last, and the pattern is written with its schema.
	rootext := r.Block("t.rootext")
	got, err = rootext.SchemaDoc()
	if err != nil {
		t.Fatal(err)
	}
	var wantRoot any
	// In an entry of a oneOf, what the walk met below a replaced
	// reference (t.in's properties, met here first) is kept too, as the
	// tool chain keeps it.
	if err := json.Unmarshal([]byte(`{"oneOf": [{"patternProperties": {"^q": {"type": "string"}}}, `+
		`{"$ref": "bblocks://t.mine", "x-bblocks-extension-source": "t.in", "x-bblocks-extension-target": "t.mine", "properties": {"a": {"type": "string"}}}]}`), &wantRoot); err != nil {
		t.Fatal(err)
	}
	if allOf, _ := got.(map[string]any)["allOf"].([]any); len(allOf) != 2 || mustJSON(t, allOf[1]) != mustJSON(t, wantRoot) {
		t.Errorf("t.rootext: allOf %s; want the base and %s", mustJSON(t, allOf), mustJSON(t, wantRoot))
	}
	w19 := rootext.Problems.Warnings().Error()
	for _, part := range []string{"departure 19", "keeps the last only (here: oneOf)", "writes null"} {
		if !strings.Contains(w19, part) {
			t.Errorf("t.rootext: warning %q lacks %q", w19, part)
		}
	}

	own := r.Block("t.own")
	if err := own.Err(); err != nil || own.Files.Schema != "schema.yaml" || own.Files.SchemaBuilt {
		t.Errorf("t.own: schema %q (built %v), error %v; want schema.yaml, not marked built", own.Files.Schema, own.Files.SchemaBuilt, err)
	}
	if doc, err := own.SchemaDoc(); err != nil || doc.(map[string]any)["x-bblocks-extends"] != "t.base" {
		t.Errorf("t.own: schema.yaml reads %v (%v); want the built schema", doc, err)
	}
	if err := r.Block("t.bad").Err(); err == nil || !strings.Contains(err.Error(), "no schema was found for extension target t.nos") {
		t.Errorf("t.bad: error %v; want one saying the target has no schema", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
