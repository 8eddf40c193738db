package register

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
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

// viewerTabOrder is the order in which the viewer shows a block's tabs.
var viewerTabOrder = []string{"about", "examples", "data-structure", "json-schema", "openapi", "ontology",
	"semantic-uplift", "validation", "transforms"}

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
	return tabs // in viewerTabOrder
}

// baselineRE reads a block's line of a viewer baseline: its id and tabs.
var baselineRE = regexp.MustCompile(`^(?:ok|FAIL)\s+(\S+)\s+\[([^\]]*)\]`)

// baselineCountRE reads a viewer baseline's first line: how many blocks
// the published register.json lists.
var baselineCountRE = regexp.MustCompile(`^register: .* \((\d+) blocks\)`)

// viewerBaseline reads ../shared/reference/ogc-published/full-builds/
// viewer-baselines/NAME.txt, the official viewer's run, block by block, on
// the published build NAME: the tabs it showed for each block, and the
// number of blocks the published register.json lists.
func viewerBaseline(t *testing.T, name string) (map[string][]string, int) {
	t.Helper()
	p := filepath.Join(shared.Dir(t, "reference", "ogc-published", "full-builds", "viewer-baselines"), name+".txt")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tabs, listed := map[string][]string{}, -1
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if m := baselineCountRE.FindStringSubmatch(sc.Text()); m != nil {
			listed, _ = strconv.Atoi(m[1])
		}
		if m := baselineRE.FindStringSubmatch(sc.Text()); m != nil {
			if _, dup := tabs[m[1]]; dup {
				t.Fatalf("%s:%d: %s listed twice", p, line, m[1])
			}
			tabs[m[1]] = strings.Fields(m[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if listed < 0 || len(tabs) != listed {
		t.Fatalf("%s: %d blocks with their tabs, and the register lists %d: not a baseline this test can read", p, len(tabs), listed)
	}
	return tabs, listed
}

// viewerBuild is a published register that the official viewer was run
// on, block by block (viewer-baselines/NAME.txt), and that TestViewerReads
// builds again.
type viewerBuild struct {
	name string   // the folder of full-builds and the name of its baseline
	src  []string // its sources, below ../shared/reference
	// needsImports are the blocks built on the main OGC register, whose
	// schemas ../shared does not hold (only its register.json): they get
	// no context and no resolved properties, so no data-structure and no
	// semantic-uplift tab.
	needsImports []string
	// resolvedFrom is the build, below ../shared/reference, whose
	// annotated/PATH/resolvedProperties.json each block's must equal: the
	// published build's, or the current tool chain's when the published
	// build is older than resolved properties. Where the published build
	// has none and that build has one, the data-structure tab is one the
	// viewer shows for jrpcld's build and not for the published one.
	resolvedFrom []string
	resolved     int // how many blocks have a resolvedProperties.json equal to that build's
}

// viewerBuilds are the registers of the done-when of issue 40: the viewer
// shows each block of jrpcld's builds as it shows the tool chain's.
var viewerBuilds = []viewerBuild{
	{name: "bblocks-tutorial", src: []string{"ogc-published", "bblocks-tutorial", "src"},
		needsImports: tutorialNeedsImports,
		resolvedFrom: []string{"ogc-published", "full-builds", "bblocks-tutorial", "build"}, resolved: 18},
	// Published in 2025-09 by bblocks-postprocess cbdf074, which wrote no
	// resolvedProperties.json; the current tool chain's build of the same
	// sources (ogc-full/mcp) has them, for both blocks.
	{name: "ogc-mcp-2025-09", src: []string{"ogc-published", "full-builds", "ogc-mcp-2025-09"},
		resolvedFrom: []string{"ogc-full", "mcp"}, resolved: 2},
}

// TestViewerReads builds the MCP register and the OGC tutorial register
// as their repositories publish them (their base URL, git repository, the
// imported registers from the copies their published builds cache) and
// requires what the official viewer needs to show every block as it shows
// the tool chain's build, block by block
// (../shared/reference/ogc-published/full-builds/viewer-baselines): every
// import cached under remoteCacheDir, every block's full JSON document and
// the files it links to written, the same blocks as the baseline (none
// missing, none more), and for each block the tabs the baseline lists,
// but for those viewerBuild says why (the main OGC register's blocks, the
// data structure the 2025-09 tool chain did not resolve). Each block's
// resolvedProperties.json, which the data-structure tab shows, must equal
// the tool chain's.
func TestViewerReads(t *testing.T) {
	for _, vb := range viewerBuilds {
		t.Run(vb.name, func(t *testing.T) { testViewerReads(t, vb) })
	}
}

func testViewerReads(t *testing.T, vb viewerBuild) {
	full := shared.Dir(t, "reference", "ogc-published", "full-builds", vb.name)
	pub := readJSON(t, filepath.Join(full, "build", "register.json"))
	imports := cachedImports(t, full, pub)
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, append([]string{"reference"}, vb.src...)...), &bblock.Options{Imports: imports})
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
	pubBlocks := map[string]map[string]any{}
	for _, x := range pub["bblocks"].([]any) {
		b := x.(map[string]any)
		pubBlocks[b["itemIdentifier"].(string)] = b
	}
	docs := map[string]map[string]any{}
	for _, x := range got["bblocks"].([]any) {
		b := x.(map[string]any)
		id := b["itemIdentifier"].(string)
		for _, k := range []string{"name", "abstract", "itemClass", "status"} {
			_, published := pubBlocks[id][k] // the MCP blocks have no abstract
			if _, ok := b[k]; !ok && (published || k != "abstract") {
				t.Errorf("%s: register.json has no %s; the published one has", id, k)
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

	// Block by block, tab by tab, as the viewer showed the published build.
	baseline, listed := viewerBaseline(t, vb.name)
	published := filepath.Join(full, "build", "annotated")
	resolvedFrom := shared.Dir(t, append([]string{"reference"}, append(vb.resolvedFrom, "annotated")...)...)
	for id := range docs {
		if _, ok := baseline[id]; !ok {
			t.Errorf("%s: jrpcld's register.json lists it; the viewer showed no such block for the tool chain's build", id)
		}
	}
	compared := 0
	for id, want := range baseline {
		doc, ok := docs[id]
		if !ok {
			t.Errorf("%s: the viewer shows it for the tool chain's build; jrpcld's register.json lacks it", id)
			continue
		}
		want = slices.DeleteFunc(slices.Clone(want), func(s string) bool {
			return (s == "data-structure" || s == "semantic-uplift") && slices.Contains(vb.needsImports, id)
		})
		b := reg.Block(id)
		if b == nil {
			t.Errorf("%s: in register.json, not among the sources' blocks", id)
			continue
		}
		rel := filepath.Join(filepath.FromSlash(b.OutputPath()), "resolvedProperties.json")
		if !slices.Contains(want, "data-structure") && !fileExists(filepath.Join(published, rel)) && fileExists(filepath.Join(resolvedFrom, rel)) {
			// The published build predates resolved properties; the
			// current tool chain resolves them, and the viewer shows them.
			want = append(want, "data-structure")
		}
		if !slices.Contains(want, "ontology") && isDir(filepath.Join(b.Dir, "ontology")) &&
			!fileExists(filepath.Join(b.Dir, "ontology.ttl")) && !fileExists(filepath.Join(b.Dir, "ontology.owl")) {
			// docs/ogc.md, departure 7: an ontology/ folder holding one
			// Turtle file is the block's ontology (mcp.mcp's); the tool
			// chain reads only ontology.ttl or .owl.
			want = append(want, "ontology")
		}
		slices.SortStableFunc(want, func(a, b string) int { return slices.Index(viewerTabOrder, a) - slices.Index(viewerTabOrder, b) })
		if tabs := viewerTabs(doc); !slices.Equal(tabs, want) {
			t.Errorf("%s: the viewer would show the tabs %v, with the tool chain's build %v", id, tabs, want)
		}
		compared++
	}
	if compared != listed {
		t.Errorf("%d blocks compared with the viewer's baseline, which shows %d", compared, listed)
	}

	// The data structure, as the tool chain resolved it.
	same := 0
	for id, doc := range docs {
		if slices.Contains(vb.needsImports, id) {
			continue
		}
		want := filepath.Join(resolvedFrom, filepath.FromSlash(reg.Block(id).OutputPath()), "resolvedProperties.json")
		_, err := os.Stat(want)
		u, _ := doc["resolvedSchemaProperties"].(string)
		switch {
		case u == "" && err != nil:
			// Neither build has one (no schema, or no property).
		case u == "":
			t.Errorf("%s: no resolvedSchemaProperties; the tool chain's build has %s", id, want)
		case err != nil:
			t.Errorf("%s: resolvedSchemaProperties %s; the tool chain's build has none", id, u)
		default:
			p, _ := local(u)
			if g, w := readJSON(t, p), readJSON(t, want); !sameResolved(t, g, w) {
				t.Errorf("%s: %s differs from the tool chain's %s", id, u, want)
				continue
			}
		}
		same++
	}
	if same < vb.resolved {
		t.Errorf("%d blocks have the tool chain's resolved properties, want %d", same, vb.resolved)
	}
}

// sameResolved reports whether two resolvedProperties.json documents are
// the same, the order of their properties aside: the tool chain lifts
// properties out of anyOf/oneOf branches in a Python set's order (the
// mcp block's; TestOGCDifferential lists it, setOrder).
func sameResolved(t *testing.T, got, want map[string]any) bool {
	if reflect.DeepEqual(got, want) {
		return true
	}
	sorted := func(doc map[string]any) map[string]any {
		props, _ := doc["properties"].([]any)
		keys := make([]string, len(props))
		for i, p := range props {
			b, err := json.Marshal(p) // map keys sorted
			if err != nil {
				t.Fatal(err)
			}
			keys[i] = string(b)
		}
		slices.Sort(keys)
		out := maps.Clone(doc)
		out["properties"] = keys
		return out
	}
	return reflect.DeepEqual(sorted(got), sorted(want))
}

// isDir reports whether name is a folder.
func isDir(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.IsDir()
}

// fileExists reports whether name is there.
func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
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
