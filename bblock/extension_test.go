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
// the extension points declarative, and a base with a schema is warned
// about (jrpcld does not build the extended schema).
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
	if w := ext2.Problems.Warnings().Error(); !strings.Contains(w, "does not build the schema the OGC tool chain makes") {
		t.Errorf("t.ext2: no warning that the extended schema is not built: %s", w)
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
