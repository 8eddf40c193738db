package register

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// registerEntry returns the entry of block id in the register.json of the
// build in out.
func registerEntry(t *testing.T, out, id string) map[string]any {
	t.Helper()
	reg := readJSON(t, filepath.Join(out, "register.json"))
	blocks, _ := reg["bblocks"].([]any)
	for _, b := range blocks {
		if m, _ := b.(map[string]any); m["itemIdentifier"] == id {
			return m
		}
	}
	t.Fatalf("register.json has no block %s", id)
	return nil
}

// TestURLMappings (issue 21, item 2): the register
// testdata/ogc-registers/url-mappings names a schema and a context by URL,
// mapped by the url-mappings of its bblocks-config.yaml to files of its
// folder (docs/ogc.md, "URL mappings"): they are read from there, never
// fetched; a relative $ref in a mapped schema resolves against its URL,
// which the annotated schema names in full; register.json lists the URL
// as the source; a schema named by a URL nothing maps makes its block
// fail, with an error naming the URL and --map.
func TestURLMappings(t *testing.T) {
	dir := filepath.Join("..", "testdata", "ogc-registers", "url-mappings")
	out, res := buildDir(t, dir, Options{})
	verdicts := map[string]*BlockResult{}
	for i := range res.Blocks {
		verdicts[res.Blocks[i].ID] = &res.Blocks[i]
	}
	for id, want := range map[string]bool{"t.quantity": true, "t.place": true, "t.remote": false} {
		b := verdicts[id]
		if b == nil {
			t.Fatalf("no result for %s", id)
		}
		if b.Passed != want {
			t.Errorf("%s: passed %v, want %v (errors %q)", id, b.Passed, want, b.Errors)
		}
	}
	if q := verdicts["t.quantity"]; q.Examples != (Count{Passed: 1}) || q.Tests != (Count{Passed: 1}) {
		t.Errorf("t.quantity: examples %+v, tests %+v; want 1 each, passed (acres-fail.json fails the mapped unit.yaml's enum, as it must)", q.Examples, q.Tests)
	}
	if p := verdicts["t.place"]; p.Tests != (Count{Passed: 1}) {
		t.Errorf("t.place: tests %+v; want acres-fail.json to fail through the mapped URL its schema refers to", p.Tests)
	}
	if errs := strings.Join(verdicts["t.remote"].Errors, "\n"); !strings.Contains(errs, "--map https://schemas.example.org/unmapped/thing.yaml=FILE") {
		t.Errorf("t.remote: the error does not name the URL and --map: %s", errs)
	}

	// The schema named by URL is cached for the block, by the SHA-256 of
	// its URL, as the tool chain's reference build shows; the other
	// blocks have no cache.
	sum := sha256.Sum256([]byte("https://schemas.example.org/shared/quantity.yaml"))
	cached := readFile(t, filepath.Join(out, "annotated", "quantity", "remote_cache", hex.EncodeToString(sum[:])))
	if want := readFile(t, filepath.Join(dir, "mapped", "shared", "quantity.yaml")); !bytes.Equal(cached, want) {
		t.Errorf("remote_cache of t.quantity holds %q, want the mapped file", cached)
	}
	for _, b := range readJSON(t, filepath.Join(out, "register.json"))["bblocks"].([]any) {
		m := b.(map[string]any)
		if got, want := m["remoteCacheDir"], map[string]any{"t.quantity": "annotated/quantity/remote_cache/"}[m["itemIdentifier"].(string)]; got != want {
			t.Errorf("%s: remoteCacheDir %v, want %v", m["itemIdentifier"], got, want)
		}
	}

	var schema map[string]any
	if err := yaml.Unmarshal(readFile(t, filepath.Join(out, "annotated", "quantity", "schema.yaml")), &schema); err != nil {
		t.Fatal(err)
	}
	unit, _ := schema["properties"].(map[string]any)["unit"].(map[string]any)
	if unit["$ref"] != "https://schemas.example.org/shared/unit.yaml" {
		t.Errorf("annotated quantity schema: unit's $ref %v; want the URL it resolves to (relative to the mapped URL)", unit["$ref"])
	}
	if unit["x-jsonld-id"] != "https://example.org/quantity#unit" {
		t.Errorf("annotated quantity schema: unit not annotated from the block's context: %v", unit)
	}
	ctx := readJSON(t, filepath.Join(out, "annotated", "place", "context.jsonld"))
	if v := ctx["@context"].(map[string]any)["@vocab"]; v != "https://example.org/place#" {
		t.Errorf("place's context has @vocab %v; want the mapped context's", v)
	}
	// t.place's schema refers to the URL t.quantity names as its schema:
	// as in the tool chain, t.quantity is a dependency, the reference leads
	// to its annotated schema, and its terms come into t.place's context.
	for form, ref := range map[string]string{"yaml": "../quantity/schema.yaml", "json": "../quantity/schema.json"} {
		v, err := ojson.DecodePlain("schema."+form, readFile(t, filepath.Join(out, "annotated", "place", "schema."+form)))
		if err != nil {
			t.Fatal(err)
		}
		area, _ := v.(map[string]any)["properties"].(map[string]any)["area"].(map[string]any)
		if area["$ref"] != ref {
			t.Errorf("annotated place schema.%s: area's $ref %v; want t.quantity's annotated schema, %s", form, area["$ref"], ref)
		}
	}
	if v := ctx["@context"].(map[string]any)["unit"]; v != "https://example.org/quantity#unit" {
		t.Errorf("place's context: unit is %v; want t.quantity's term, reached through its annotated schema", v)
	}
	if deps, _ := registerEntry(t, out, "t.place")["dependsOn"].([]any); !slices.Contains(deps, any("bblocks://t.quantity")) {
		t.Errorf("register.json t.place: dependsOn %v; want t.quantity among them", deps)
	}
	for id, want := range map[string]map[string]any{
		"t.quantity": {"sourceSchema": "https://schemas.example.org/shared/quantity.yaml", "sourceLdContext": "_sources/quantity/context.jsonld"},
		"t.place":    {"sourceSchema": "_sources/place/schema.yaml", "sourceLdContext": "https://schemas.example.org/contexts/place.jsonld"},
	} {
		e := registerEntry(t, out, id)
		for k, v := range want {
			if e[k] != v {
				t.Errorf("register.json %s: %s = %v, want %v", id, k, e[k], v)
			}
		}
	}
}

// TestURLMappedProcesses: the OGC API Processes register names three
// schemas by schemas.opengis.net URLs, which the tool chain fetched for
// its published build. Mapped with --map to copies of those schemas (the
// published build's annotated ones: these blocks have no context, so the
// annotation is the schema), the blocks pass, and their annotated schemas
// and register.json's sourceSchema equal the published build's; the
// block whose URL is left unmapped fails, naming it.
func TestURLMappedProcesses(t *testing.T) {
	repo := shared.Dir(t, "reference", "ogc-registers-2", "ogcincubator+bblocks-ogcapi-processes")
	const urlBase = "https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/schemas/"
	published := filepath.Join(repo, "published", "annotated", "api", "processes", "v1", "schemas")
	blocks := map[string]string{ // block id -> its folder below published
		"ogc.api.processes.v1.schemas.timeStamp":               "timeStamp",
		"ogc.api.processes.v1.schemas.common-core.confClasses": "common-core/confClasses",
	}
	copies := t.TempDir()
	var maps []bblock.URLMap
	for _, sub := range blocks {
		name := filepath.Base(sub)
		file := filepath.Join(copies, name+".yaml")
		if err := os.WriteFile(file, readFile(t, filepath.Join(published, sub, "schema.json")), 0o644); err != nil {
			t.Fatal(err)
		}
		maps = append(maps, bblock.URLMap{URL: urlBase + name + ".yaml", Path: file})
	}
	im, err := (*bblock.Imports)(nil).MapURLs(maps)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := bblock.LoadRegisterDir(filepath.Join(repo, "src"), &bblock.Options{Imports: im})
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	passed := map[string]bool{}
	errs := map[string][]string{}
	for _, b := range res.Blocks {
		passed[b.ID], errs[b.ID] = b.Passed, b.Errors
	}
	pubReg := readJSON(t, filepath.Join(repo, "published", "register.json"))
	pubBlocks, _ := pubReg["bblocks"].([]any)
	for id, sub := range blocks {
		if !passed[id] {
			t.Errorf("%s failed: %q", id, errs[id])
		}
		var got, want any
		if err := json.Unmarshal(readFile(t, filepath.Join(out, "annotated", "api", "processes", "v1", "schemas", filepath.FromSlash(sub), "schema.json")), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(published, sub, "schema.json")), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: annotated schema %v, the published build's %v", id, got, want)
		}
		var pubSource any
		for _, b := range pubBlocks {
			if m, _ := b.(map[string]any); m["itemIdentifier"] == id {
				pubSource = m["sourceSchema"]
			}
		}
		if e := registerEntry(t, out, id); e["sourceSchema"] != pubSource || pubSource == nil {
			t.Errorf("%s: sourceSchema %v, the published build's %v", id, e["sourceSchema"], pubSource)
		}
	}
	const unmapped = "ogc.api.processes.v1.schemas.common-core.exception"
	if passed[unmapped] || !strings.Contains(strings.Join(errs[unmapped], "\n"), "--map "+urlBase+"exception.yaml=FILE") {
		t.Errorf("%s (its URL unmapped): passed %v, errors %q; want a failure naming the URL and --map", unmapped, passed[unmapped], errs[unmapped])
	}
}
