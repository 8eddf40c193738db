package register

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// TestRootBlock (issue 21): a bblock.json at the root of _sources is the
// block named by the identifier-prefix itself ("t.x." -> t.x), laid out at
// annotated/x/, and its references into the folders below resolve in the
// sources tree (they used to be looked for in _sources/_sources/).
func TestRootBlock(t *testing.T) {
	tree := fstest.MapFS{
		bblock.ConfigFile:              {Data: []byte("identifier-prefix: t.x.\nimports: []\n")},
		"_sources/bblock.json":         {Data: []byte(blockMeta)},
		"_sources/schema.yaml":         {Data: []byte("type: object\nproperties:\n  part:\n    $ref: part/schema.yaml\n")},
		"_sources/context.jsonld":      {Data: []byte(`{"@context": {"part": "http://example.com/part"}}`)},
		"_sources/part/bblock.json":    {Data: []byte(blockMeta)},
		"_sources/part/schema.yaml":    {Data: []byte("type: object\nproperties:\n  name:\n    type: string\n")},
		"_sources/part/context.jsonld": {Data: []byte(`{"@context": {"name": "http://example.com/name"}}`)},
	}
	reg, err := bblock.LoadRegister(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reg.IDs(), []string{"t.x.part", "t.x"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ids %v, want %v (the root block depends on the one its schema refers to)", got, want)
	}
	files, res, err := build(reg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Blocks {
		if !b.Passed {
			t.Errorf("%s failed: %v", b.ID, b.Errors)
		}
	}
	for _, f := range []string{"annotated/x/schema.yaml", "annotated/x/context.jsonld", "annotated/x/part/context.jsonld", "bblock/t.x.html"} {
		if _, ok := files[f]; !ok {
			t.Errorf("no %s; written: %v", f, slices.Sorted(maps.Keys(files)))
		}
	}
	var ctx struct {
		Context map[string]any `json:"@context"`
	}
	if err := json.Unmarshal(files["annotated/x/context.jsonld"], &ctx); err != nil {
		t.Fatal(err)
	}
	part, _ := ctx.Context["part"].(map[string]any)
	scoped, _ := part["@context"].(map[string]any)
	if _, ok := scoped["name"]; !ok {
		t.Errorf("the root block's context lacks the term its reference brings: %v", ctx.Context)
	}
}

// TestRootBlockCroissant: the croissant register, whose _sources/bblock.json
// is block mlc.croissant, builds it where the tool chain does, with the
// same context.
func TestRootBlockCroissant(t *testing.T) {
	src := shared.Dir(t, "reference", "ogc-registers-2", "GeoLabs+bblocks-croissant", "src")
	ref := shared.Dir(t, "reference", "ogc-full-current", "croissant")
	reg, err := bblock.LoadRegisterDir(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if reg.Block("mlc.croissant") == nil {
		t.Fatalf("no block mlc.croissant; ids %v", reg.IDs())
	}
	out, res := buildReg(t, reg, Options{Filter: "mlc.croissant"})
	if len(res.Blocks) != 1 || !res.Blocks[0].Passed {
		t.Fatalf("mlc.croissant: %+v", res.Blocks)
	}
	var got, want any
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "annotated", "croissant", "context.jsonld")), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(ref, "annotated", "croissant", "context.jsonld")), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the context of mlc.croissant differs from the tool chain's")
	}
}
