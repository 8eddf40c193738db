package register

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/register/docs"
)

const importMeta = `{"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`

// importedTree is register A: a block whose schema and context define a
// place with a name and a position.
var importedTree = fstest.MapFS{
	"bblocks-config.yaml":           {Data: []byte("name: A\nidentifier-prefix: a.\nimports: []\n")},
	"_sources/place/bblock.json":    {Data: []byte(importMeta)},
	"_sources/place/schema.yaml":    {Data: []byte("type: object\nproperties:\n  name: {type: string}\n  position: {$ref: '#/$defs/Position'}\n$defs:\n  Position:\n    type: object\n    properties:\n      lat: {type: number}\n      lon: {type: number}\n")},
	"_sources/place/context.jsonld": {Data: []byte(`{"@context": {"pl": "https://a.example/ns/place#", "name": "pl:name", "position": {"@id": "pl:position", "@context": {"lat": {"@id": "pl:lat", "@type": "http://www.w3.org/2001/XMLSchema#double"}, "lon": {"@id": "pl:lon", "@type": "http://www.w3.org/2001/XMLSchema#double"}}}, "unusedHere": "pl:unused"}}`)},
}

// importingTree is register B, which imports A by URL: a block that
// depends on A's place and uses it for a property, with an example.
func importingTree(importURL string) fstest.MapFS {
	return fstest.MapFS{
		"bblocks-config.yaml":           {Data: []byte("name: B\nidentifier-prefix: b.\nimports:\n  - " + importURL + "\n")},
		"_sources/visit/bblock.json":    {Data: []byte(`{"name": "Visit", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1", "dependsOn": ["bblocks://a.place"]}`)},
		"_sources/visit/schema.yaml":    {Data: []byte("type: object\nproperties:\n  where: {$ref: 'bblocks://a.place'}\n  when: {type: string}\n")},
		"_sources/visit/context.jsonld": {Data: []byte(`{"@context": {"vi": "https://b.example/ns/visit#", "where": {"@id": "vi:where", "@type": "@id"}, "when": "vi:when"}}`)},
		"_sources/visit/examples.yaml":  {Data: []byte("examples:\n  - title: A visit\n    base-uri: https://b.example/visits/\n    snippets:\n      - language: json\n        code: '{\"when\": \"2026-05-01\", \"where\": {\"name\": \"Harbour\", \"position\": {\"lat\": 1.5, \"lon\": 2.5}}}'\n")},
	}
}

// TestBuildImport builds register A, then register B, which imports A, with
// --import mapping A's URL to A's build: B's block refers to A's block,
// its context holds A's terms (scoped under the property that refers to
// it, and A's extra terms at the top, as the tool chain adds them), and its
// example's graph says so. Without the mapping the block fails with an
// error that names the import and the flag.
func TestBuildImport(t *testing.T) {
	const aURL = "https://a.example/reg/"
	regA, err := bblock.LoadRegister(importedTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{aURL, ""} {
		name := "published at its URL"
		if base == "" {
			name = "relative links"
		}
		t.Run(name, func(t *testing.T) {
			outA, resA := buildReg(t, regA, Options{BaseURL: base})
			if resA.Failed() {
				t.Fatalf("register A: %+v", resA)
			}
			im, err := bblock.LoadImports([]bblock.ImportMap{{URL: aURL, Dir: outA}})
			if err != nil {
				t.Fatal(err)
			}
			regB, err := bblock.LoadRegister(importingTree(aURL), &bblock.Options{Imports: im})
			if err != nil {
				t.Fatal(err)
			}
			outB, resB := buildReg(t, regB, Options{})
			if resB.Failed() {
				t.Fatalf("register B: %+v", resB)
			}
			ctx := readJSON(t, filepath.Join(outB, "annotated", "visit", "context.jsonld"))["@context"].(map[string]any)
			where, _ := ctx["where"].(map[string]any)
			scoped, _ := where["@context"].(map[string]any)
			if scoped["name"] == nil || scoped["position"] == nil {
				t.Errorf("the imported block's terms are not under where: %v", where)
			}
			if ctx["unusedHere"] == nil {
				t.Errorf("the imported block's extra term is not at the top: %v", ctx)
			}
			got, err := rdftest.ParseTurtle(readFile(t, filepath.Join(outB, "tests", "visit", "example_1_1.ttl")), "")
			if err != nil {
				t.Fatal(err)
			}
			want, err := rdftest.ParseTurtle([]byte(strings.Join([]string{
				`_:v <https://b.example/ns/visit#when> "2026-05-01" .`,
				`_:v <https://b.example/ns/visit#where> _:p .`,
				`_:p <https://a.example/ns/place#name> "Harbour" .`,
				`_:p <https://a.example/ns/place#position> _:pos .`,
				`_:pos <https://a.example/ns/place#lat> "1.5E0"^^<http://www.w3.org/2001/XMLSchema#double> .`,
				`_:pos <https://a.example/ns/place#lon> "2.5E0"^^<http://www.w3.org/2001/XMLSchema#double> .`,
			}, "\n")+"\n"), "")
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := rdftest.Isomorphic(got, want); !ok {
				t.Errorf("the example's graph: %s", why)
			}
		})
	}

	regB, err := bblock.LoadRegister(importingTree(aURL), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, res := buildReg(t, regB, Options{})
	if !res.Failed() || len(res.Blocks) != 1 {
		t.Fatalf("without --import the block should fail: %+v", res)
	}
	msg := strings.Join(res.Blocks[0].Errors, "\n")
	if !strings.Contains(msg, aURL) || !strings.Contains(msg, "--import") {
		t.Errorf("the error does not name the import and the flag:\n%s", msg)
	}

	if _, err := bblock.LoadImports([]bblock.ImportMap{{URL: aURL, Dir: t.TempDir()}}); err == nil || !strings.Contains(err.Error(), "register.json") {
		t.Errorf("an import mapped to a folder without register.json: %v", err)
	}
	if _, err := bblock.ParseImportMap("nodir"); err == nil {
		t.Error("--import without =DIR accepted")
	}
	var pe *os.PathError
	if _, err := bblock.LoadImports([]bblock.ImportMap{{URL: aURL, Dir: filepath.Join(t.TempDir(), "missing")}}); err == nil || errors.As(err, &pe) && pe == nil {
		t.Errorf("an import mapped to a missing folder: %v", err)
	}
}

// TestBuildImportFromCopy builds register A, then register B, which
// imports A, finding A's build as "jrpcld build" finds a copy that "jrpcld
// fetch" keeps (bblock.Options.FindImport), under the URL of the
// register.json it was fetched from. B's block, which depends on A's,
// gets what the viewer shows: its annotated schema, its context holding
// A's terms, and its data structure (resolvedProperties.json with A's
// properties), each linked from register.json; A's register.json is copied
// to annotated/_cache, named by the SHA-256 of that URL, which register.json
// lists among its imports.
func TestBuildImportFromCopy(t *testing.T) {
	const aName = "https://a.example/reg"
	const aRegisterURL = aName + "/build/register.json"
	regA, err := bblock.LoadRegister(importedTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A published as the OGC GitHub Action publishes it: build/ below the
	// repository, which the copy mirrors.
	copyA, resA := buildReg(t, regA, Options{BaseURL: aName + "/", BuildPath: "build"})
	if resA.Failed() {
		t.Fatalf("register A: %+v", resA)
	}
	asked := []string{}
	find := func(name string) (bblock.ImportMap, bool) {
		asked = append(asked, name)
		return bblock.ImportMap{URL: name, Dir: copyA, RegisterURL: aRegisterURL}, name == aName
	}
	regB, err := bblock.LoadRegister(importingTree(aName), &bblock.Options{FindImport: find})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(asked, []string{aName}) {
		t.Errorf("FindImport was asked for %q, want the import", asked)
	}
	const base = "https://b.example/reg/"
	files, resB := buildTree(t, regB, Options{BaseURL: base})
	if resB.Failed() {
		t.Fatalf("register B: %+v", resB)
	}
	var reg struct {
		Imports        []string `json:"imports"`
		RemoteCacheDir string   `json:"remoteCacheDir"`
		Blocks         []struct {
			ID                       string            `json:"itemIdentifier"`
			Schema                   map[string]string `json:"schema"`
			LdContext                string            `json:"ldContext"`
			ResolvedSchemaProperties string            `json:"resolvedSchemaProperties"`
			DependsOn                []string          `json:"dependsOn"`
		} `json:"bblocks"`
	}
	if err := json.Unmarshal(files["register.json"], &reg); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reg.Imports, []string{aRegisterURL}) {
		t.Errorf("imports %q, want %q", reg.Imports, aRegisterURL)
	}
	sum := sha256.Sum256([]byte(aRegisterURL))
	cached := path.Join(docs.CacheDir, hex.EncodeToString(sum[:]))
	if want := readFile(t, filepath.Join(copyA, "build", "register.json")); !bytes.Equal(files[cached], want) {
		t.Errorf("%s holds %q, want A's register.json", cached, files[cached])
	}
	if reg.RemoteCacheDir != base+docs.CacheDir {
		t.Errorf("remoteCacheDir %q", reg.RemoteCacheDir)
	}
	if len(reg.Blocks) != 1 {
		t.Fatalf("blocks %+v", reg.Blocks)
	}
	visit := reg.Blocks[0]
	if !slices.Equal(visit.DependsOn, []string{"bblocks://a.place"}) {
		t.Errorf("dependsOn %q", visit.DependsOn)
	}
	for what, u := range map[string]string{"schema": visit.Schema["application/yaml"], "ldContext": visit.LdContext, "resolvedSchemaProperties": visit.ResolvedSchemaProperties} {
		if rest, ok := strings.CutPrefix(u, base); !ok || files[rest] == nil {
			t.Errorf("%s %q: no such file in the build", what, u)
		}
	}
	ctx := map[string]any{}
	if err := json.Unmarshal(files["annotated/visit/context.jsonld"], &ctx); err != nil {
		t.Fatal(err)
	}
	where, _ := ctx["@context"].(map[string]any)["where"].(map[string]any)
	if scoped, _ := where["@context"].(map[string]any); scoped["name"] == nil || scoped["position"] == nil {
		t.Errorf("the imported block's terms are not under where: %v", where)
	}
	var props struct {
		Properties []struct {
			Path []string `json:"path"`
			ID   string   `json:"id"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(files["annotated/visit/resolvedProperties.json"], &props); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, p := range props.Properties {
		ids[strings.Join(p.Path, "/")] = p.ID
	}
	for p, id := range map[string]string{"where/name": "https://a.example/ns/place#name", "where/position/lat": "https://a.example/ns/place#lat", "when": "https://b.example/ns/visit#when"} {
		if ids[p] != id {
			t.Errorf("resolvedProperties.json: %s is %q, want %q", p, ids[p], id)
		}
	}
}

// TestRelativeIRIs: a relative IRI in an example is never dropped. It is
// resolved against the example's base-uri; else, with --base-url, against
// the URL the example is published at; else it is written relative in the
// Turtle, so that it resolves against the URL the file is read from, and the
// report says so.
func TestRelativeIRIs(t *testing.T) {
	tree := func(baseURI string) fstest.MapFS {
		ex := "examples:\n  - title: With a manifest\n"
		if baseURI != "" {
			ex += "    base-uri: " + baseURI + "\n"
		}
		ex += "    snippets:\n      - language: json\n        code: '{\"title\": \"T\", \"manifest\": \"metadata/manifest.json\"}'\n"
		return fstest.MapFS{
			"bblocks-config.yaml":         {Data: []byte("name: R\nidentifier-prefix: r.\nimports: []\n")},
			"_sources/pkg/bblock.json":    {Data: []byte(importMeta)},
			"_sources/pkg/schema.yaml":    {Data: []byte("type: object\nproperties:\n  title: {type: string}\n  manifest: {type: string}\n")},
			"_sources/pkg/context.jsonld": {Data: []byte(`{"@context": {"dc": "http://purl.org/dc/terms/", "title": "dc:title", "manifest": {"@id": "https://example.org/ns#manifest", "@type": "@id"}}}`)},
			"_sources/pkg/examples.yaml":  {Data: []byte(ex)},
		}
	}
	const manifest = "https://example.org/ns#manifest"
	for _, tt := range []struct {
		name, baseURI, baseURL string
		relativeBase           string // Options.RelativeBase
		readAt                 string // the URL the Turtle is read from
		want                   string // the manifest's IRI
	}{
		{"base-uri", "https://data.example/packages/", "", "", "", "https://data.example/packages/metadata/manifest.json"},
		{"base-url", "", "https://reg.example/build/", "", "", "https://reg.example/build/tests/pkg/metadata/manifest.json"},
		{"neither", "", "", "", "https://wherever.example/x/tests/pkg/example_1_1.ttl", "https://wherever.example/x/tests/pkg/metadata/manifest.json"},
		// As the tool chain resolves it, against its working folder.
		{"relative base", "", "https://reg.example/build/", "file:///github/workspace/", "", "file:///github/workspace/metadata/manifest.json"},
		{"base-uri wins", "https://data.example/packages/", "", "file:///github/workspace/", "", "https://data.example/packages/metadata/manifest.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := bblock.LoadRegister(tree(tt.baseURI), nil)
			if err != nil {
				t.Fatal(err)
			}
			out, res := buildReg(t, reg, Options{BaseURL: tt.baseURL, RelativeBase: tt.relativeBase})
			if res.Failed() {
				t.Fatalf("%+v", res)
			}
			ttl := readFile(t, filepath.Join(out, "tests", "pkg", "example_1_1.ttl"))
			for _, tool := range []string{"rapper", "serdi"} {
				found := ""
				for _, q := range rdftest.ParseWith(t, tool, "turtle", ttl, tt.readAt) {
					if q.P == manifest {
						found = q.O.Value
					}
				}
				if found != tt.want {
					t.Errorf("%s: manifest %q, want %q\n%s", tool, found, tt.want, ttl)
				}
			}
			report := string(readFile(t, filepath.Join(out, "tests", "pkg", "example_1_1.validation_passed.txt")))
			if tt.baseURI == "" && !strings.Contains(report, "relative IRI") {
				t.Errorf("the report does not mention the relative IRI:\n%s", report)
			}
		})
	}
}
