package register

import (
	"encoding/json"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// TestExtendsRegister (issue 21, item 2) builds
// testdata/ogc-registers/extends (its reference build is awaited) and
// checks it against the rules of docs/ogc.md ("extends") and what the
// published build of ogcincubator/bblock-extends-example shows of the
// tool chain: the annotated schema of a block that extends another is an
// allOf of a reference to the extended block's annotated schema (in the
// same form, YAML or JSON) and of its own schema, annotated from its own
// context: the whole schema, its x-jsonld-context kept (simple), or its
// members but $schema and x-jsonld-* at the end of a tree of properties
// (at a path; "[]" an array whose items go on); register.json keeps
// extends as written and counts the extended block among the dependencies;
// the context has the extended block's terms too; examples and test
// resources are validated against the whole; references into the block's
// schema move with it, with a warning.
func TestExtendsRegister(t *testing.T) {
	src := filepath.Join("..", "testdata", "ogc-registers", "extends")
	reg, err := bblock.LoadRegisterDir(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	byID := map[string]BlockResult{}
	for _, b := range res.Blocks {
		byID[b.ID] = b
	}
	for id, tests := range map[string]Count{"t.place": {}, "t.tagged": {Passed: 2}, "t.detailed": {Passed: 2}} {
		b := byID[id]
		if !b.Passed || b.Examples != (Count{Passed: 1}) || b.Tests != tests {
			t.Errorf("%s: passed %v, examples %+v, tests %+v (want 1 example, %+v): %v", id, b.Passed, b.Examples, b.Tests, tests, b.Errors)
		}
	}
	// Each -fail resource fails for what the schema of the block it
	// extends or its own requires.
	for file, want := range map[string]string{
		"tests/tagged/no-label-fail.validation_passed.txt":            "missing property 'label'",
		"tests/tagged/no-rating-fail.validation_passed.txt":           "missing property 'rating'",
		"tests/detailed/no-height-fail.validation_passed.txt":         "missing property 'height'",
		"tests/detailed/source-not-string-fail.validation_passed.txt": "/features/entries/0/detail/source",
	} {
		if s := string(readFile(t, filepath.Join(out, file))); !strings.Contains(s, want) {
			t.Errorf("%s does not fail with %q:\n%s", file, want, s)
		}
	}

	sourceSchema := func(id string) map[string]any {
		b := reg.Block(id)
		data, err := b.ReadFile(b.Files.Schema)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ojson.DecodePlain(b.Files.Schema, data)
		if err != nil {
			t.Fatal(err)
		}
		return v.(map[string]any)
	}
	for _, form := range []string{"yaml", "json"} {
		for _, id := range []string{"t.tagged", "t.detailed"} {
			dir := "annotated/" + strings.TrimPrefix(id, "t.")
			file := dir + "/schema." + form
			v, err := ojson.DecodePlain(file, readFile(t, filepath.Join(out, file)))
			if err != nil {
				t.Fatal(err)
			}
			doc := v.(map[string]any)
			allOf, _ := doc["allOf"].([]any)
			if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" || len(allOf) != 2 {
				t.Errorf("%s: not an allOf of two schemas under draft 2020-12: %v", file, doc)
				continue
			}
			base, _ := allOf[0].(map[string]any)
			if ref, _ := base["$ref"].(string); len(base) != 1 || path.Join(dir, ref) != "annotated/place/schema."+form {
				t.Errorf("%s: allOf/0 = %v, want only a $ref to annotated/place/schema.%s", file, base, form)
			}
			own, _ := allOf[1].(map[string]any)
			want := sourceSchema(id)
			if id == "t.detailed" {
				// At the path features.entries[].detail, without $schema.
				for _, key := range []string{"properties", "features", "properties", "entries"} {
					own, _ = own[key].(map[string]any)
				}
				if own["type"] != "array" {
					t.Errorf("%s: entries is not an array: %v", file, own)
				}
				own, _ = own["items"].(map[string]any)
				own, _ = own["properties"].(map[string]any)
				own, _ = own["detail"].(map[string]any)
				delete(want, "$schema")
				// The reference into the schema follows it.
				ptr := "/allOf/1/properties/features/properties/entries/items/properties/detail/$defs/Link"
				want["properties"].(map[string]any)["source"].(map[string]any)["$ref"] = "#" + ptr
				target, err := jsonptr.Get(doc, ptr)
				if err != nil || !reflect.DeepEqual(target, sourceSchema(id)["$defs"].(map[string]any)["Link"]) {
					t.Errorf("%s: #%s leads to %v (%v), not the source's $defs/Link", file, ptr, target, err)
				}
			}
			// The block's own schema, annotated from its own context.
			props, _ := own["properties"].(map[string]any)
			iris := map[string]string{}
			for name, p := range props {
				p := p.(map[string]any)
				if s, ok := p["x-jsonld-id"].(string); ok {
					iris[name] = s
				}
				delete(p, "x-jsonld-id")
				delete(p, "x-jsonld-type")
			}
			wantIRIs := map[string]string{"tag": "https://example.org/tagging/tag", "rating": "https://example.org/tagging/rating"}
			if id == "t.detailed" {
				wantIRIs = map[string]string{"source": "https://example.org/detail/source", "height": "https://example.org/detail/height"}
			}
			if !reflect.DeepEqual(iris, wantIRIs) {
				t.Errorf("%s: properties annotated with %v, want %v", file, iris, wantIRIs)
			}
			if !reflect.DeepEqual(plainJSON(t, own), plainJSON(t, want)) {
				t.Errorf("%s: the block's own schema is\n%v\nwant (as in its sources)\n%v", file, own, want)
			}
		}
	}

	regJSON := readJSON(t, filepath.Join(out, "register.json"))
	for _, e := range regJSON["bblocks"].([]any) {
		e := e.(map[string]any)
		id := e["itemIdentifier"].(string)
		if id == "t.place" {
			continue
		}
		b := reg.Block(id)
		var written any
		for _, f := range b.Meta.Fields {
			if f.Key == "extends" {
				if err := json.Unmarshal(f.Value, &written); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !reflect.DeepEqual(e["extends"], written) {
			t.Errorf("register.json %s: extends %v, want it as in bblock.json: %v", id, e["extends"], written)
		}
		deps, _ := e["dependsOn"].([]any)
		if len(deps) != 1 || strings.TrimPrefix(deps[0].(string), bblock.BlockRefPrefix) != "t.place" {
			t.Errorf("register.json %s: dependsOn %v, want t.place", id, deps)
		}
		full := readJSON(t, filepath.Join(out, "generateddocs/json-full", strings.TrimPrefix(id, "t."), "index.json"))
		if !reflect.DeepEqual(full["extends"], written) {
			t.Errorf("json-full %s: extends %v", id, full["extends"])
		}
		md := string(readFile(t, filepath.Join(out, "generateddocs/markdown", strings.TrimPrefix(id, "t."), "index.md")))
		if !strings.Contains(md, "allOf:") || !strings.Contains(md, "../place/schema.yaml") {
			t.Errorf("markdown %s does not show the schema built on t.place's", id)
		}
	}

	ctx := readJSON(t, filepath.Join(out, "annotated/tagged/context.jsonld"))["@context"].(map[string]any)
	for _, term := range []string{"label", "features", "tag", "rating"} {
		if _, ok := ctx[term]; !ok {
			t.Errorf("annotated/tagged/context.jsonld has no %q (terms of t.place and of its own)", term)
		}
	}

	warned := func(id, s string) bool {
		return strings.Contains(strings.Join(byID[id].Warnings, "\n"), s)
	}
	if !warned("t.detailed", "references into itself (#/...) are moved") {
		t.Errorf("t.detailed: no warning about its moved references: %v", byID["t.detailed"].Warnings)
	}
	if warned("t.tagged", "extends") {
		t.Errorf("t.tagged: a warning about extends: %v", byID["t.tagged"].Warnings)
	}
}

// plainJSON returns v as encoding/json reads it back, so that values
// decoded from YAML and from JSON compare.
func plainJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
