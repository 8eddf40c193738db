package register

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/shared"
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
