package register

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// The OGC viewer (ogcincubator/bblocks-viewer) reads, of a register
// (src/services/bblock.service.js): register.json's bblocks, imports and
// remoteCacheDir (an import it cannot fetch is read from remoteCacheDir/
// SHA-256 of its URL; until every import is loaded, from the web or the
// cache, dependency graphs stay empty), validationReport; of each block in
// register.json, itemIdentifier, name, abstract, itemClass, status, schema,
// sourceSchema, openAPIDocument and documentation.json-full.url, the
// document it shows the block from. Of that document
// (src/components/BuildingBlock.vue and the tabs' components): name,
// itemClass, status, itemIdentifier, abstract, description, sources, tags,
// dateTimeAddition, dateOfLastChange, gitRepository and gitPath,
// validationPassed, testOutputs, sourceFiles, and the members that open its
// tabs: examples (with content or snippets), schema (JSON Schema),
// resolvedSchemaProperties (data structure), openAPIDocument, ontology,
// ldContext (semantic uplift), shaclShapes (validation) and transforms.

// viewerTabs returns the tabs the viewer shows for a block's full JSON
// documentation, by the members that open them.
func viewerTabs(doc map[string]any) []string {
	tabs := []string{"about"}
	nonEmpty := func(k string) bool {
		switch v := doc[k].(type) {
		case nil:
			return false
		case []any:
			return len(v) > 0
		case map[string]any:
			return len(v) > 0
		case string:
			return v != ""
		}
		return true
	}
	examples := false
	if list, ok := doc["examples"].([]any); ok {
		for _, e := range list {
			m, _ := e.(map[string]any)
			if s, _ := m["snippets"].([]any); len(s) > 0 || m["content"] != nil {
				examples = true
			}
		}
	}
	if examples {
		tabs = append(tabs, "examples")
	}
	for _, t := range [][2]string{{"resolvedSchemaProperties", "data-structure"}, {"schema", "json-schema"},
		{"openAPIDocument", "openapi"}, {"ontology", "ontology"}, {"ldContext", "semantic-uplift"},
		{"shaclShapes", "validation"}, {"transforms", "transforms"}} {
		if nonEmpty(t[0]) {
			tabs = append(tabs, t[1])
		}
	}
	return tabs
}

// baselineRE reads a block's line of a viewer baseline: its id and tabs.
var baselineRE = regexp.MustCompile(`^(?:ok|FAIL)\s+(\S+)\s+\[([^\]]*)\]`)

// TestViewerReads builds the OGC tutorial register as its repository
// publishes it (its base URL, git repository, the imported registers from
// the copies its published build caches) and requires what the viewer
// needs to show each block as it shows the tool chain's build
// (../shared/reference/ogc-published/full-builds/viewer-baselines): every
// import cached under remoteCacheDir, every block's full JSON document and
// the files it links to written, and the same tabs as the baseline lists
// for the block (but for the data structure and the semantic uplift of the
// three blocks built on the main OGC register, whose schemas ../shared does
// not hold). Each block's resolvedProperties.json, which the data-structure
// tab shows, must equal the published build's.
func TestViewerReads(t *testing.T) {
	full := shared.Dir(t, "reference", "ogc-published", "full-builds", "bblocks-tutorial")
	pub := readJSON(t, filepath.Join(full, "build", "register.json"))
	imports := cachedImports(t, full, pub)
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src"), &bblock.Options{Imports: imports})
	if err != nil {
		t.Fatal(err)
	}
	base := pub["baseURL"].(string)
	root, _ := buildReg(t, reg, Options{BaseURL: base, BuildPath: "build", GitRepository: pub["gitRepository"].(string),
		GitHubBaseURL: pub["gitHubRepository"].(string)})
	out := filepath.Join(root, "build")
	// local returns the file a URL below the base URL names in the output,
	// laid out as the repository is published: the build in build/, the
	// sources in _sources/.
	local := func(u string) (string, bool) {
		rest, ok := strings.CutPrefix(u, base)
		if !ok {
			return "", false
		}
		return filepath.Join(root, filepath.FromSlash(rest)), true
	}
	exists := func(what, u string) {
		t.Helper()
		p, ok := local(u)
		if !ok {
			t.Errorf("%s: %s is not below the base URL %s", what, u, base)
			return
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %s: %v", what, u, err)
		}
	}

	got := readJSON(t, filepath.Join(out, "register.json"))
	cache, _ := got["remoteCacheDir"].(string)
	for _, u := range got["imports"].([]any) {
		sum := sha256.Sum256([]byte(u.(string)))
		exists("import "+u.(string), cache+"/"+hex.EncodeToString(sum[:]))
	}
	if v, _ := got["validationReport"].(string); v != "" {
		exists("validationReport", v)
	} else {
		t.Error("register.json has no validationReport")
	}
	docs := map[string]map[string]any{}
	for _, x := range got["bblocks"].([]any) {
		b := x.(map[string]any)
		id := b["itemIdentifier"].(string)
		for _, k := range []string{"name", "abstract", "itemClass", "status"} {
			if _, ok := b[k]; !ok {
				t.Errorf("%s: register.json has no %s", id, k)
			}
		}
		u := b["documentation"].(map[string]any)["json-full"].(map[string]any)["url"].(string)
		exists(id+" json-full", u)
		p, _ := local(u)
		doc := readJSON(t, p)
		docs[id] = doc
		for _, k := range []string{"name", "itemIdentifier", "itemClass", "status", "sourceFiles", "validationPassed", "gitRepository", "gitPath"} {
			if _, ok := doc[k]; !ok {
				t.Errorf("%s: the full JSON documentation has no %s", id, k)
			}
		}
		for _, k := range []string{"ldContext", "ontology", "sourceSchema", "sourceLdContext"} {
			if v, ok := doc[k].(string); ok && strings.Contains(v, "://") {
				exists(id+" "+k, v)
			}
			// A relative value is bblock.json's, kept as the tool chain
			// keeps it (exercise10's "ontology.ttl", which the viewer fails
			// to load for the tool chain's build too).
		}
		if s, ok := doc["schema"].(map[string]any); ok {
			for _, v := range s {
				exists(id+" schema", v.(string))
			}
		}
	}

	f, err := os.Open(filepath.Join(full, "..", "viewer-baselines", "bblocks-tutorial.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	compared := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := baselineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		id, want := m[1], strings.Fields(m[2])
		doc, ok := docs[id]
		if !ok {
			t.Errorf("%s: the viewer shows it for the tool chain's build; jrpcld's register.json lacks it", id)
			continue
		}
		want = slices.DeleteFunc(want, func(s string) bool {
			// The blocks that need the main OGC register get no context
			// and no resolved properties: ../shared holds its
			// register.json, not its schemas.
			return (s == "data-structure" || s == "semantic-uplift") && slices.Contains(tutorialNeedsImports, id)
		})
		if tabs := viewerTabs(doc); !slices.Equal(tabs, want) {
			t.Errorf("%s: the viewer would show the tabs %v, with the tool chain's build %v", id, tabs, want)
		}
		compared++
	}
	if compared < 20 {
		t.Errorf("%d blocks compared with the viewer's baseline, want 21", compared)
	}

	// The data structure, as the tool chain resolved it.
	same := 0
	for id, doc := range docs {
		if slices.Contains(tutorialNeedsImports, id) {
			continue
		}
		want := filepath.Join(full, "build", "annotated", filepath.FromSlash(reg.Block(id).OutputPath()), "resolvedProperties.json")
		_, err := os.Stat(want)
		u, _ := doc["resolvedSchemaProperties"].(string)
		switch {
		case u == "" && err != nil:
			// Neither build has one (no schema, or no property).
		case u == "":
			t.Errorf("%s: no resolvedSchemaProperties; the published build has %s", id, want)
		case err != nil:
			t.Errorf("%s: resolvedSchemaProperties %s; the published build has none", id, u)
		default:
			p, _ := local(u)
			if g, w := readJSON(t, p), readJSON(t, want); !reflect.DeepEqual(g, w) {
				t.Errorf("%s: %s differs from the published build's", id, u)
				continue
			}
		}
		same++
	}
	if same < 18 {
		t.Errorf("%d blocks have the published build's resolved properties, want 18", same)
	}
}

// fullBuildImports returns the imports of the published build
// ../shared/reference/ogc-published/full-builds/name, mapped to the copies
// of their register.json its annotated/_cache holds.
func fullBuildImports(t *testing.T, name string) *bblock.Imports {
	t.Helper()
	full := shared.Dir(t, "reference", "ogc-published", "full-builds", name)
	return cachedImports(t, full, readJSON(t, filepath.Join(full, "build", "register.json")))
}

// cachedImports loads the registers a published build (the folder full,
// its register.json pub) imports from the copies it caches in
// annotated/_cache, under the names its bblocks-config.yaml gives them.
func cachedImports(t *testing.T, full string, pub map[string]any) *bblock.Imports {
	t.Helper()
	var maps []bblock.ImportMap
	list, _ := pub["imports"].([]any)
	for _, u := range list {
		sum := sha256.Sum256([]byte(u.(string)))
		data, err := os.ReadFile(filepath.Join(full, "build", "annotated", "_cache", hex.EncodeToString(sum[:])))
		if err != nil {
			t.Fatal(err)
		}
		// Laid out as the published repository, so that the build names
		// the import by the URL the published build lists.
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "build"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "build", "register.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		name := u.(string)
		if name == bblock.DefaultImport {
			name = "default"
		} else {
			name = strings.TrimSuffix(name, "/build/register.json")
		}
		maps = append(maps, bblock.ImportMap{URL: name, Dir: dir})
	}
	imports, err := bblock.LoadImports(maps)
	if err != nil {
		t.Fatal(err)
	}
	return imports
}
