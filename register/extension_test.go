package register

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// TestExtensionPointsAsPublished (issue 21, item 2): the examples register's
// custom-api block declares extensionPoints on a block of the OGC API
// Processes register, an import. Built with that import mapped to the
// processes register as the tool chain published it, its register.json
// entry gives extensionPoints, isProfileOf, itemClass, dependsOn (the
// base, the extension sources and targets among them) and the verdict as
// the tool chain's published build of the examples register does. (The
// reference build of ../shared leaves the block out: offline, the tool
// chain could not read the import.)
func TestExtensionPointsAsPublished(t *testing.T) {
	examples := shared.Dir(t, "reference", "ogc-registers-2", "ogcincubator+bblocks-examples")
	processes := shared.Dir(t, "reference", "ogc-registers-2", "ogcincubator+bblocks-ogcapi-processes", "published")
	const id = "ogc.bbr.examples.ogcapi.processes.custom-api"
	im, err := bblock.LoadImports([]bblock.ImportMap{{URL: "https://ogcincubator.github.io/bblocks-ogcapi-processes", Dir: processes}})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := bblock.LoadRegisterDir(filepath.Join(examples, "src"), &bblock.Options{Imports: im})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := buildReg(t, reg, Options{Filter: id})
	got := registerEntry(t, out, id)
	var want map[string]any
	pub := readJSON(t, filepath.Join(examples, "published", "register.json"))
	for _, b := range pub["bblocks"].([]any) {
		if m, _ := b.(map[string]any); m["itemIdentifier"] == id {
			want = m
		}
	}
	if want == nil {
		t.Fatalf("the published register has no %s", id)
	}
	for _, k := range []string{"extensionPoints", "isProfileOf", "itemClass", "validationPassed"} {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("%s: %v, the published build's %v", k, got[k], want[k])
		}
	}
	deps := func(m map[string]any) []string {
		var out []string
		for _, d := range m["dependsOn"].([]any) {
			out = append(out, d.(string))
		}
		slices.Sort(out)
		return out
	}
	if g, w := deps(got), deps(want); !slices.Equal(g, w) {
		t.Errorf("dependsOn (as a set) %v, the published build's %v", g, w)
	}
}

// TestExtensionPointsRegister (issue 21) builds
// testdata/ogc-registers/extension-points (its reference build is
// awaited) and checks it against the rules of docs/ogc.md ("Extension
// points"), read in the tool chain's extension.py: the annotated schema of
// t.mountain-trip, whose extension points replace t.place by t.summit in
// its base t.trip, is an allOf of a reference to t.trip's annotated schema
// and of an overlay holding the properties of t.trip that lead to t.place
// (a property, the items of an array, a oneOf whose every entry is kept),
// each reference to t.place replaced by one to t.summit's annotated
// schema; examples and test resources are validated against it (a summit
// without an elevation fails wherever a place stood); the context has
// t.summit's terms; register.json has no sourceSchema for the built schema
// (t.walk, which has a schema file of its own, keeps it, although its
// schema is the built one), and the block takes its base's itemClass. The
// reference into t.trip's own document is written so that it still leads
// there (departure 19, with a warning).
func TestExtensionPointsRegister(t *testing.T) {
	src := filepath.Join("..", "testdata", "ogc-registers", "extension-points")
	reg, err := bblock.LoadRegisterDir(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	const base = "https://example.org/ep/"
	out, res := buildReg(t, reg, Options{BaseURL: base})
	byID := map[string]BlockResult{}
	for _, b := range res.Blocks {
		byID[b.ID] = b
	}
	for id, want := range map[string][2]Count{"t.mountain-trip": {{Passed: 1}, {Passed: 3}}, "t.walk": {{}, {Passed: 1}}} {
		b := byID[id]
		if !b.Passed || b.Examples != want[0] || b.Tests != want[1] {
			t.Errorf("%s: passed %v, examples %+v, tests %+v (want %+v, %+v): %v", id, b.Passed, b.Examples, b.Tests, want[0], want[1], b.Errors)
		}
		if w := strings.Join(b.Warnings, "\n"); !strings.Contains(w, "departure 19") {
			t.Errorf("%s: no warning naming departure 19: %s", id, w)
		}
	}
	for file, want := range map[string]string{
		"tests/mountain-trip/no-elevation-fail.validation_passed.txt":      "elevation",
		"tests/mountain-trip/stop-no-elevation-fail.validation_passed.txt": "/stops/0",
		"tests/mountain-trip/meeting-place-fail.validation_passed.txt":     "/meeting",
	} {
		if s := string(readFile(t, filepath.Join(out, file))); !strings.Contains(s, want) {
			t.Errorf("%s does not fail with %q:\n%s", file, want, s)
		}
	}

	subst := map[string]any{
		"$ref":                       base + "annotated/summit/schema.yaml",
		"x-bblocks-extension-source": "t.place",
		"x-bblocks-extension-target": "t.summit",
	}
	want := map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"x-bblocks-extends":    "t.trip",
		"x-bblocks-extensions": map[string]any{"t.place": "t.summit"},
		"allOf": []any{
			map[string]any{"$ref": base + "annotated/trip/schema.yaml"},
			map[string]any{"properties": map[string]any{
				"destination": subst,
				"stops":       map[string]any{"items": subst},
				"meeting": map[string]any{"oneOf": []any{subst,
					map[string]any{"$ref": base + "annotated/trip/schema.yaml#/$defs/coordinates"}}},
			}},
		},
	}
	for _, id := range []string{"mountain-trip", "walk"} {
		got, err := ojson.DecodePlain("schema.yaml", readFile(t, filepath.Join(out, "annotated", id, "schema.yaml")))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("annotated/%s/schema.yaml:\n%v\nwant\n%v", id, got, want)
		}
	}
	ctx := readJSON(t, filepath.Join(out, "annotated", "mountain-trip", "context.jsonld"))["@context"].(map[string]any)
	for term, iri := range map[string]string{"elevation": "sm:elevation", "label": "pl:label", "name": "tr:name"} {
		if ctx[term] != iri {
			t.Errorf("context: %s is %v, want %s", term, ctx[term], iri)
		}
	}
	mt := registerEntry(t, out, "t.mountain-trip")
	if _, ok := mt["sourceSchema"]; ok || mt["itemClass"] != "datatype" || mt["schema"] == nil {
		t.Errorf("register.json t.mountain-trip: sourceSchema %v, itemClass %v, schema %v; want no sourceSchema, datatype, the annotated schema",
			mt["sourceSchema"], mt["itemClass"], mt["schema"])
	}
	if w := registerEntry(t, out, "t.walk"); w["sourceSchema"] != base+"_sources/walk/schema.yaml" {
		t.Errorf("register.json t.walk: sourceSchema %v, want its own schema file", w["sourceSchema"])
	}
}
