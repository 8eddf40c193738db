package bblock

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// TestParseExtendsPath: an extends path is split as the tool chain splits
// it (a dot followed by an even number of double quotes, one leading "."
// or "$" dropped, "[]" for array items); an empty property is an error.
func TestParseExtendsPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []PathSegment
		err  string
	}{
		{in: "", want: nil},
		{in: ".", want: nil},
		{in: "$", want: nil},
		{in: "a", want: []PathSegment{{Name: "a"}}},
		{in: " $.a.b ", err: "property 1 is empty"}, // "$" then ".a.b": as in the tool chain, a property ""
		{in: "$a.b", want: []PathSegment{{Name: "a"}, {Name: "b"}}},
		{in: ".a.list[].c", want: []PathSegment{{Name: "a"}, {Name: "list", Array: true}, {Name: "c"}}},
		{in: `a."b.c".d`, want: []PathSegment{{Name: "a"}, {Name: "b.c"}, {Name: "d"}}},
		{in: `"x.y"[]`, want: []PathSegment{{Name: "x.y", Array: true}}},
		{in: "a..b", err: "property 2 is empty"},
		{in: "a.[]", err: "property 2 is empty"},
		{in: "a.", err: "property 2 is empty"},
	} {
		got, err := ParseExtendsPath(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

// TestExtendsSchema: the schema of a block that extends another, as the
// tool chain builds it: the whole schema as the second member of an allOf
// (simple), or its members but $schema and x-jsonld-* at the path (with a
// path), x-jsonld-* copied to the root; references into the schema move
// with it.
func TestExtendsSchema(t *testing.T) {
	src := `{"$schema": "http://json-schema.org/draft-07/schema#", "x-jsonld-context": "c.jsonld", "type": "object",
		"properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#B"}, "c": {"$ref": "#"}, "d": {"$ref": "#definitions/D"}, "e": {"$ref": "other.yaml#/x"}},
		"$defs": {"A": {"type": "string"}}}`
	simple := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "allOf": [{"$ref": "REF"},
		{"$schema": "http://json-schema.org/draft-07/schema#", "x-jsonld-context": "c.jsonld", "type": "object",
		 "properties": {"a": {"$ref": "#/allOf/1/$defs/A"}, "b": {"$ref": "#B"}, "c": {"$ref": "#/allOf/1"}, "d": {"$ref": "#/allOf/1/definitions/D"}, "e": {"$ref": "other.yaml#/x"}},
		 "$defs": {"A": {"type": "string"}}}],
		"x-jsonld-context": "c.jsonld"}`
	P := "/allOf/1/properties/p/properties/q/items"
	atPath := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "allOf": [{"$ref": "REF"},
		{"properties": {"p": {"properties": {"q": {"type": "array", "items": {"type": "object",
		 "properties": {"a": {"$ref": "#` + P + `/$defs/A"}, "b": {"$ref": "#B"}, "c": {"$ref": "#` + P + `"}, "d": {"$ref": "#` + P + `/definitions/D"}, "e": {"$ref": "other.yaml#/x"}},
		 "$defs": {"A": {"type": "string"}}}}}}}}],
		"x-jsonld-context": "c.jsonld"}`
	for _, c := range []struct {
		path, want string
	}{{"", simple}, {"p.q[]", atPath}} {
		segs, err := ParseExtendsPath(c.path)
		if err != nil {
			t.Fatal(err)
		}
		e := &Extends{ID: "t.base", Path: segs}
		doc, err := ojson.DecodeJSON([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got, moved := e.Schema(doc.(*ojson.Object), "REF")
		want, err := ojson.DecodeJSON([]byte(c.want))
		if err != nil {
			t.Fatal(err)
		}
		if !moved || !ojson.Equal(got, want) {
			b, _ := ojson.Marshal(got)
			t.Errorf("path %q: moved %v,\n%s\nwant\n%s", c.path, moved, b, c.want)
		}
		if gotKeys := got.Keys(); !reflect.DeepEqual(gotKeys, []string{"$schema", "allOf", "x-jsonld-context"}) {
			t.Errorf("path %q: root members %v, want $schema, allOf, then the x-jsonld-* members", c.path, gotKeys)
		}
	}
}

// TestExtends: extends makes the extended block a dependency, built first;
// what cannot be built is an error of the block naming bblock.json and
// /extends: an unknown block, a block that extends itself or a chain that
// comes back, a bad path, a member of the wrong shape.
func TestExtends(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml":           {Data: []byte("identifier-prefix: t.\nimports: []\n")},
		"_sources/a-ext/bblock.json":    meta(`, "extends": {"itemIdentifier": "t.z-base", "path": "x.y[]"}`),
		"_sources/a-ext/schema.yaml":    {Data: []byte("type: object\n")},
		"_sources/z-base/bblock.json":   meta(""),
		"_sources/z-base/schema.yaml":   {Data: []byte("type: object\n")},
		"_sources/b-simple/bblock.json": meta(`, "extends": "bblocks://t.z-base"`),
		"_sources/unknown/bblock.json":  meta(`, "extends": "t.nowhere"`),
		"_sources/self/bblock.json":     meta(`, "extends": "t.self"`),
		"_sources/c1/bblock.json":       meta(`, "extends": "t.c2"`),
		"_sources/c2/bblock.json":       meta(`, "extends": {"itemIdentifier": "t.c1"}`),
		"_sources/badpath/bblock.json":  meta(`, "extends": {"itemIdentifier": "t.z-base", "path": "x..y"}`),
		"_sources/noid/bblock.json":     meta(`, "extends": {"path": "x"}`),
		"_sources/numpath/bblock.json":  meta(`, "extends": {"itemIdentifier": "t.z-base", "path": 3}`),
		"_sources/number/bblock.json":   meta(`, "extends": 3`),
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	order := map[string]int{}
	for i, b := range r.Blocks {
		order[b.ID] = i
	}
	for _, id := range []string{"t.a-ext", "t.b-simple"} {
		b := r.Block(id)
		if len(b.Problems.Errors()) > 0 || !reflect.DeepEqual(b.Deps, []string{"t.z-base"}) || b.Meta.Extends.ID != "t.z-base" {
			t.Errorf("%s: deps %v, extends %+v, problems %v", id, b.Deps, b.Meta.Extends, b.Problems)
		}
		if order[id] < order["t.z-base"] {
			t.Errorf("%s is built before t.z-base, which it extends", id)
		}
	}
	if p := r.Block("t.a-ext").Meta.Extends.Path; !reflect.DeepEqual(p, []PathSegment{{Name: "x"}, {Name: "y", Array: true}}) {
		t.Errorf("t.a-ext path %+v", p)
	}
	for id, want := range map[string]string{
		"t.unknown": `extends unknown building block "t.nowhere"`,
		"t.self":    "block t.self extends itself",
		"t.c1":      "extends cycle: t.c1 -> t.c2 -> t.c1",
		"t.c2":      "extends cycle: t.c2 -> t.c1 -> t.c2",
		"t.badpath": `path "x..y": property 2 is empty`,
		"t.noid":    "itemIdentifier (the id of the block it extends) is missing",
		"t.numpath": "path must be a string",
		"t.number":  `"extends" must be string or object, got number`,
	} {
		b := r.Block(id)
		if b == nil {
			t.Fatalf("no block %s", id)
		}
		errs := b.Problems.Errors()
		found := false
		for _, p := range errs {
			if strings.Contains(p.Message, want) && p.File == "bblock.json" && p.Pointer == "/extends" {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no error of bblock.json /extends with %q: %v", id, want, errs)
		}
	}
}
