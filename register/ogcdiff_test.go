package register

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/register/catalog"
	"github.com/jrpcld/jrpcld/register/internal/ogcdiff"
)

// dumpDiffs prints every difference the differential test finds, listed or
// not, with its owner: go test -v ./register -run TestOGCDifferential -ogcdiff.dump
var dumpDiffs = flag.Bool("ogcdiff.dump", false, "print every difference TestOGCDifferential finds")

// ogcRegister is a register the OGC tool chain built whole and offline
// (../shared/reference/SET/NAME), and how jrpcld builds the same sources to
// compare: at the tool chain's paths ("build" below the repository root),
// with its base URL and date, relative IRIs of examples resolved against
// its working folder.
type ogcRegister struct {
	set, name string
	src       string
	opts      Options
}

func (r ogcRegister) String() string { return r.set + "/" + r.name }

// load loads the register's sources: the embedded block's register when
// src is empty.
func (r ogcRegister) load() (*bblock.Register, error) {
	if r.src == "" {
		return DefaultRegister()
	}
	return bblock.LoadRegisterDir(r.src, nil)
}

// commitDateRE finds the date of the commit a SOURCE.md names.
var commitDateRE = regexp.MustCompile(`Commit: [0-9a-f]+ \((\d{4}-\d{2}-\d{2})T`)

// workspaceURL is the working folder of the OGC GitHub Action, which the
// tool chain resolves relative IRIs of examples against.
const workspaceURL = "file:///github/workspace/"

// ogcRegisters lists the registers of ../shared/reference/ogc-full and
// ogc-full-current with their sources.
func ogcRegisters(t *testing.T) []ogcRegister {
	t.Helper()
	var out []ogcRegister
	common := Options{BuildPath: "build", Date: "2000-01-01", RelativeBase: workspaceURL, Sandbox: testSandbox}
	regs := filepath.Join("..", "testdata", "ogc-registers")
	for _, set := range []string{"ogc-full", "ogc-pending"} {
		entries, err := os.ReadDir(shared.Dir(t, "reference", set))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			r := ogcRegister{set: set, name: e.Name(), opts: common}
			r.opts.BaseURL = "https://ogc-oracle.invalid/register/"
			switch {
			case e.Name() == "jsonrpc":
				r.src = ""
			case e.Name() == "mcp":
				r.src = shared.Dir(t, "reference", "ogc-mcp-bblocks")
			case e.Name() == "tutorial":
				r.src = shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src")
			case strings.HasPrefix(e.Name(), "testdata-"):
				r.src = filepath.Join(regs, strings.TrimPrefix(e.Name(), "testdata-"))
			default:
				t.Fatalf("ogc-full/%s: no sources known for this reference", e.Name())
			}
			if e.Name() == "testdata-context-syntax" {
				// A reference inside a context, mapped as a user would.
				abs, err := filepath.Abs(filepath.Join(r.src, "_sources", "import-context", "shared-terms.jsonld"))
				if err != nil {
					t.Fatal(err)
				}
				r.opts.Contexts = &ldctx.Options{Files: map[string]string{"shared-terms.jsonld": abs}}
			}
			out = append(out, r)
		}
	}
	current := shared.Dir(t, "reference", "ogc-full-current")
	entries, err := os.ReadDir(current)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		r := ogcRegister{set: "ogc-full-current", name: e.Name(), opts: common}
		var reg struct {
			BaseURL          string `json:"baseURL"`
			GitRepository    string `json:"gitRepository"`
			GitHubRepository string `json:"gitHubRepository"`
		}
		data, err := os.ReadFile(filepath.Join(current, e.Name(), "register.json"))
		if err == nil {
			err = json.Unmarshal(data, &reg)
		}
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		r.opts.BaseURL = reg.BaseURL
		r.opts.GitRepository, r.opts.GitHubBaseURL = reg.GitRepository, reg.GitHubRepository
		repo := "bblocks-" + strings.TrimSuffix(e.Name(), "-h")
		for _, set := range []string{"ogc-registers", "ogc-registers-2"} {
			found, _ := filepath.Glob(shared.Dir(t, "reference", set, "*+"+repo))
			if len(found) == 1 {
				r.src = filepath.Join(found[0], "src")
			}
		}
		if r.src == "" {
			t.Fatalf("%s: no sources found for %s", r, repo)
		}
		// The date of the commit the tool chain built, as its SOURCE.md
		// gives it: the blocks' dateOfLastChange comes from git.
		source, err := os.ReadFile(filepath.Join(filepath.Dir(r.src), "SOURCE.md"))
		if err != nil {
			t.Fatal(err)
		}
		if m := commitDateRE.FindSubmatch(source); m != nil {
			r.opts.CommitDate = string(m[1])
		}
		out = append(out, r)
	}
	return out
}

// jrpcldOwn are the files jrpcld writes that are not the tool chain's:
// its HTML site, and copies of the test resources beside their reports.
var jrpcldOwn = []string{"index.html", "bblock/*.html"}

// refBlockIDs returns the ids of the blocks the reference build ref lists
// in its register.json.
func refBlockIDs(t *testing.T, ref string) map[string]bool {
	t.Helper()
	var refReg struct {
		BBlocks []struct {
			ID string `json:"itemIdentifier"`
		} `json:"bblocks"`
	}
	data, err := os.ReadFile(filepath.Join(ref, "register.json"))
	if err == nil {
		err = json.Unmarshal(data, &refReg)
	}
	if err != nil {
		t.Fatalf("%s: %v", ref, err)
	}
	ids := map[string]bool{}
	for _, b := range refReg.BBlocks {
		ids[b.ID] = true
	}
	return ids
}

// referenceGaps marks the differences that come from what the reference
// builds lack, not from jrpcld: the blocks the tool chain skipped because
// they need an imported register it could not fetch offline (jrpcld lists
// them, failing with an error that names the import) or could not load
// (jrpcld builds them, as docs/ogc.md says), and, in
// ogc-full-current, the generated documentation and the test folders the
// stored builds left out. It returns the others; the marked ones are
// counted under the owner "reference".
func referenceGaps(t *testing.T, r ogcRegister, reg *bblock.Register, ref string, diffs []ogcdiff.Diff) []ogcdiff.Diff {
	inRef := refBlockIDs(t, ref)
	// The output folders of each block, to find whose a file is.
	owner := map[string]string{}
	for _, b := range reg.Blocks {
		owner[b.OutputPath()] = b.ID
	}
	blockOf := func(p string) string {
		for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
			for _, top := range []string{"annotated/", "tests/", "generateddocs/markdown/", "generateddocs/json-full/"} {
				if rest, ok := strings.CutPrefix(dir, top); ok {
					if id, ok := owner[rest]; ok {
						return id
					}
					if id, ok := owner[strings.TrimSuffix(rest, "/transforms")]; ok {
						return id
					}
				}
			}
		}
		return ""
	}
	// Why the reference lacks a block, by its summary where it has one
	// (ogc-full-current's builds have none).
	unloaded := map[string]bool{}
	if shared.HasOGCFull(t, r.set, r.name) {
		for _, rb := range shared.OGCFull(t, r.set, r.name).Blocks {
			unloaded[rb.ID] = rb.Status == "error"
		}
	}
	why := func(id string) string {
		if unloaded[id] {
			return "the tool chain could not load " + id + " (docs/ogc.md lists why jrpcld does)"
		}
		return "the tool chain skipped " + id + ", which needs an imported register it could not fetch offline"
	}
	var out []ogcdiff.Diff
	for _, d := range diffs {
		gap := ""
		if id := blockOf(d.Path); id != "" && !inRef[id] {
			gap = why(id)
		}
		for _, b := range reg.Blocks {
			if !inRef[b.ID] && strings.Contains(d.Where, "["+b.ID+"]") {
				gap = why(b.ID)
			}
		}
		if r.set == "ogc-full-current" && d.Kind == ogcdiff.Extra && d.Where == "" {
			if strings.HasPrefix(d.Path, "generateddocs/") {
				gap = "the stored build leaves the generated documentation out"
			} else if _, err := os.Stat(filepath.Join(ref, filepath.FromSlash(path.Dir(d.Path)))); strings.HasPrefix(d.Path, "tests/") && err != nil {
				gap = "the stored build leaves this test folder out"
			}
		}
		if gap == "" {
			out = append(out, d)
		} else if *dumpDiffs {
			fmt.Printf("  %s: [reference: %s] %s\n", r, gap, d)
		}
	}
	return out
}

// summaryGaps takes out of jrpcld's register-summary.md (in files) the
// sections ("### `ID` — name" up to the next) of the blocks the reference
// skipped because they need an imported register it could not fetch
// offline, so that the summaries compare on the blocks both built. It
// returns 1 when it took any out (a difference the reference causes, in
// one file), else 0.
func summaryGaps(t *testing.T, ref string, files map[string][]byte) int {
	inRef := refBlockIDs(t, ref)
	var kept []string
	n, keep := 0, true
	for _, line := range strings.SplitAfter(string(files["register-summary.md"]), "\n") {
		if rest, ok := strings.CutPrefix(line, "### `"); ok {
			id, _, _ := strings.Cut(rest, "`")
			keep = inRef[id]
			if !keep {
				n++
			}
		}
		if keep {
			kept = append(kept, line)
		}
	}
	if n == 0 {
		return 0
	}
	files["register-summary.md"] = []byte(strings.Join(kept, ""))
	return 1
}

// knownDiff is a difference between jrpcld's build and the tool chain's
// that is known: which item of the issue (or helper) removes it, or why it
// stays. Registers, Path and Where are patterns ("*" matches anything,
// slashes included); Where may also match the place with the detail
// ("line 12: jrpcld \"...\", the tool chain \"...\""), to name a
// difference by its content. Kind is "" for any kind.
type knownDiff struct {
	Registers, Path, Where string
	Kind                   ogcdiff.Kind
	Owner                  string // who removes it: a helper's name, or "departure" / "reference" for what stays
	Why                    string
}

func (k knownDiff) matches(reg string, d ogcdiff.Diff) bool {
	return ogcdiff.Match(k.Registers, reg) && ogcdiff.Match(k.Path, d.Path) &&
		(ogcdiff.Match(k.Where, d.Where) || ogcdiff.Match(k.Where, d.Where+": "+d.Detail)) && (k.Kind == "" || k.Kind == d.Kind)
}

// setOrder is why the properties lifted out of the branches of an anyOf or
// oneOf come in another order: the tool chain takes them from a Python set
// of strings, whose order changes from run to run with hash randomisation
// (the reference's is that of PYTHONHASHSEED=0); jrpcld lists them in the
// order of the first branch.
const setOrder = "the order of properties lifted out of anyOf/oneOf branches: a Python set's, which hash randomisation changes from run to run"

// knownDiffs is the list of differences that remain, each with its owner.
// It must shrink: an entry that matches no difference fails the test, so
// that whoever removes a difference removes its entry.
var knownDiffs = []knownDiff{
	// reg-outputs (issue 21, item 4): what the build writes beside the checks.
	{"ogc-full/mcp", "annotated/mcp/resolvedProperties.json", "/properties/*", ogcdiff.Differs, "reference", setOrder},
	{"ogc-full-current/cwl", "annotated/cwl/v1_2_1/SoftwareRequirement/resolvedProperties.json", "/properties/*", "", "reference", setOrder},
	{"ogc-full-current/croissant", "annotated/croissant/resolvedProperties.json", "/properties/*", "", "reference", setOrder},
	{"*", "register-summary.md", "line *", ogcdiff.Differs, "reg-outputs",
		"follows the order of register.json (see bblocks order); the sections of the blocks the reference skipped are taken out before (summaryGaps)"},
	{"*", "register.json", "bblocks order", ogcdiff.Differs, "reg-outputs",
		"networkx's topological sort over dependencies the tool chain finds in a Python set (the blocks a block depends on enter the graph in that set's order): jrpcld follows it but for that order"},
	{"*", "register.json", "imports", ogcdiff.Extra, "reference",
		"jrpcld lists each import's register.json URL, which the viewer needs; the reference, run offline, could fetch none and lists none"},
	{"ogc-full/testdata-nested-folders", "tests/fleet/*/_report.json", "", ogcdiff.Extra, "departure",
		"the tool chain empties a block's tests folder before writing it, which deletes the reports of the blocks nested in it; jrpcld keeps them"},
	{"ogc-full/mcp", "annotated/mcp/ontology.ttl", "", ogcdiff.Extra, "departure",
		"jrpcld reads an ontology/ folder holding one Turtle file as the block's ontology; the tool chain takes only ontology.ttl or .owl"},
	{"ogc-full/mcp", "*", "*/ontology", ogcdiff.Extra, "departure", "as above, the links to it"},

	// departures on purpose (docs/ogc.md, "Where jrpcld differs").
	{"ogc-full/testdata-oracle-errors", "*self-ref*", "*", "", "departure",
		"$ref: '#' (the whole document): jrpcld builds the block, where the tool chain recurses until Python gives up (item 4)"},
	{"ogc-full/testdata-oracle-errors", "*", "*self-ref*", "", "departure", "as above, in register.json and the reports"},
	{"*", "annotated/*/schema.*", "*$ref", ogcdiff.Differs, "departure",
		"a reference to an $anchor is written as the JSON pointer of the subschema carrying it (#Request becomes #/$defs/Request), so that any validator of any draft follows it"},
	{"*", "generateddocs/json-full/*", "/annotatedSchema/*$ref", ogcdiff.Differs, "departure", "as above, in the annotated schema the documentation embeds"},
	{"ogc-full/mcp", "generateddocs/markdown/mcp/index.md", "line *: jrpcld \"```yaml block:*", ogcdiff.Differs, "departure", "as above, in the annotated schema of the Markdown page"},
	{"ogc-full/testdata-local-refs", "generateddocs/markdown/tree/index.md", "line *: jrpcld \"```yaml block:*", ogcdiff.Differs, "departure", "as above"},
	{"*", "generateddocs/markdown/*/index.md", "line *: jrpcld \"* YAML version: [schema.yaml](*/schema.yaml)\", the tool chain \"* YAML version: [schema.yaml](*/schema.json)\"", ogcdiff.Differs, "departure",
		"the tool chain's Markdown page links schema.json as the YAML version and schema.yaml as the JSON version; jrpcld links each label to its file"},
	{"*", "generateddocs/markdown/*/index.md", "line *: jrpcld \"* JSON version: [schema.json](*/schema.json)\", the tool chain \"* JSON version: [schema.json](*/schema.yaml)\"", ogcdiff.Differs, "departure", "as above"},
	{"*", "tests/*_report.json", "*.JSON_LD", ogcdiff.Extra, "departure",
		"jrpcld's notes (op jrpcld-note): the base IRI a test resource is uplifted with, relative IRIs resolved"},
	{"*", "tests/report.json", "*.JSON_LD", ogcdiff.Extra, "departure", "as above, in the register's report"},

	// shacl (issue 22): SHACL in the checks.
	{"*tutorial*", "tests/*exercise11/_report.json", "*.SHACL", ogcdiff.Differs, "reference",
		"the focus nodes of two node shapes in another order: pySHACL lists the shapes of a file in the order of a Python set, which changes from run to run"},
	{"*tutorial*", "tests/report.json", "*exercise11*.SHACL", ogcdiff.Differs, "reference", "as above"},
	{"*", "tests/*/example-fail.validation_passed.txt", "", ogcdiff.Extra, "departure",
		"a Turtle test resource that must fail and that SHACL fails: the tool chain leaves it out of its report (its RDF validator then says it did not run); jrpcld reports it, with a note (docs/ogc.md, departure 11)"},
	{"*", "tests/*_report.json", "*item[_sources/*/tests/example-fail.ttl]", ogcdiff.Extra, "departure", "as above"},
	{"*", "tests/report.json", "*item[_sources/*/tests/example-fail.ttl]", ogcdiff.Extra, "departure", "as above"},
	{"*tutorial*", "tests/*_report.json", "*counts", ogcdiff.Differs, "departure", "as above, the counts"},
	{"*tutorial*", "tests/report.json", "*counts", ogcdiff.Differs, "departure", "as above"},
	{"*tutorial*", "tests/report.html", "bblock[*exercise1*]", ogcdiff.Differs, "departure", "as above"},
	{"*", "tests/report.json", "summary", ogcdiff.Differs, "reference", "the summary counts the blocks the reference skipped (they need an import)"},

	// transform (issue 21, item 3): transforms and semantic uplift.
	{"ogc-full-current/examples", "tests/*/transforms/*", "", "", "transform", "python, node, xslt and plugin transforms the reference ran"},
	{"ogc-full-current/examples", "register.json", "bblocks[*transforms-example]/transforms", ogcdiff.Differs, "transform", "a transform's code in register.json"},
	{"ogc-full-current/wf4ever", "tests/bbr/wf4ever/wfprov/example_1_1.ttl", "graph", ogcdiff.Differs, "reference",
		"the JSON number 20.0: pyld types it xsd:double (a Python float); the JSON-LD 1.1 toRDF algorithm, jsonld.js and json-gold give xsd:integer 20, its fractional part being zero (docs/ogc.md)"},

	// reg-build (issue 21, item 2): validation features.
	{"ogc-full-current/examples", "tests/bbr/examples/linkeddata/forestStandProperties/example_1_1.ttl", "graph", ogcdiff.Differs, "reference",
		"rdflib writes an xsd:double with six significant digits (1224.24963 becomes 1.22425e+03): the tool chain's Turtle loses the value; jrpcld's keeps it (docs/ogc.md)"},
	{"ogc-full-current/cco", "*bbr/cco/all/*", "*", "", "departure",
		"a JSON snippet whose code is not JSON (code: complete-example.json): the tool chain writes a JSON-LD document whose @graph is that text and an empty Turtle file, reported as an error; jrpcld writes neither (docs/ogc.md, departure 18)"},
	{"ogc-full-current/cco", "tests/report.json", "*.FILES", ogcdiff.Missing, "departure", "as above, in each block whose example is not JSON"},
	{"ogc-full/testdata-oracle-errors", "*vocab-term*", "*", "", "departure",
		"a block whose schema the tool chain cannot annotate: it publishes the block as passed, without its schema, the source context as ldContext; jrpcld fails it, naming the term (docs/ogc.md, departure 17)"},
	{"ogc-full/testdata-oracle-errors", "register.json", "bblocks[t.vocab-term]*", "", "departure", "as above"},

	{"*", catalog.JSONLDFile, "", ogcdiff.Extra, "departure",
		"the register's own uplift: the tool chain, run offline, writes none (its context for links is fetched from the web); jrpcld's context ships in the binary. TestRegisterUplift compares it with the published builds (docs/ogc.md, departure 15)"},
	{"*", catalog.TurtleFile, "", ogcdiff.Extra, "departure", "as above"},

	{"*", "tests/*.validation_*.txt", "sections", ogcdiff.Differs, "departure", "jrpcld's notes in the JSON-LD section (op jrpcld-note, under departures) are a section of the text file too"},

	// ogc-pending (issue 40, item 3): the references built on 2026-12-07.
	{"ogc-pending/jsonrpc", "register.json", "name", ogcdiff.Differs, "reference",
		"the bblocks-config.yaml the reference was built from names the register otherwise than jrpcld's embedded register (DefaultRegister)"},
	{"ogc-pending/jsonrpc", "register.json", "abstract", ogcdiff.Differs, "reference", "as above"},
	{"ogc-pending/jsonrpc", "generateddocs/markdown/json-rpc/index.md", "line *: jrpcld \"```yaml block:*", ogcdiff.Differs, "departure",
		"a reference to an $anchor is written as the JSON pointer of the subschema carrying it (departure 5), in the annotated schema of the Markdown page"},
	{"ogc-pending/jsonrpc", "tests/*", "*invalid-json-fail.json*", "", "departure",
		"a .json test resource that is not JSON: the tool chain reads it with its YAML parser, reports the YAML scanner's error and position, and its RDF validator then fails on it too (Unknown errors); jrpcld reports the JSON parse error, where it is (docs/ogc.md, departure 20)"},

	{"ogc-pending/testdata-extends", "*detailed*", "*", "", "departure",
		"references into the schema of a block that extends another: the tool chain leaves #/$defs/Link as written, its annotator fails, and the block has no annotated schema, no context and unchecked resources; jrpcld moves them with the schema (docs/ogc.md, departure 16)"},
	{"ogc-pending/testdata-extends", "*", "*t.detailed*", "", "departure", "as above, in register.json and the register's report"},
	{"ogc-pending/testdata-extends", "*tagged*", "*", "", "departure",
		"extends: the tool chain (6a10405) leaves the reference to the extended block as bblocks://t.place in the annotated schema, does not count t.place among the dependencies, builds no context and fails every resource; jrpcld writes the extended block's annotated schema and the dependency, as the published build of bblock-extends-example does (docs/ogc.md, departure 21)"},
	{"ogc-pending/testdata-extends", "*", "*t.tagged*", "", "departure", "as above, in register.json and the register's report"},

	{"ogc-pending/testdata-extension-points", "*mountain-trip*", "*", "", "departure",
		"the schema built for extension points (docs/ogc.md, departure 19): the tool chain copies what a reference in a oneOf entry leads to (items: {type: number}), so meeting-place-fail.json passes where it must fail; it refers to the base's annotated schema by a relative path, which its walk of properties counts as the base block's file (resolvedProperties sources, _visited_properties.tsv); it names a sourceSchema that does not exist (BASE/schema.yaml)"},
	{"ogc-pending/testdata-extension-points", "*walk*", "*", "", "departure", "as above"},
	{"ogc-pending/testdata-extension-points", "*", "*t.mountain-trip*", "", "departure", "as above, in register.json and the register's report"},

	{"ogc-pending/testdata-shacl-checks", "tests/*", "*too-old-fail.ttl*", "", "departure",
		"a Turtle test resource that must fail and that SHACL fails: the tool chain leaves it out of its report; jrpcld reports it (docs/ogc.md, departure 11)"},
	{"ogc-pending/testdata-shacl-checks", "tests/*", "*bblock*[t.person]*", "", "departure", "as above, the counts and the register's page"},
	{"ogc-pending/testdata-shacl-checks", "tests/person/_report.json", "counts", ogcdiff.Differs, "departure", "as above"},
	{"ogc-pending/testdata-shacl-checks", "tests/person/too-old-fail.validation_passed.txt", "", ogcdiff.Extra, "departure", "as above"},
	{"ogc-pending/testdata-shacl-checks", "tests/*", "*globalErrors.SHACL: jrpcld error \"Error processing outside.shacl*", ogcdiff.Differs, "departure",
		"a SHACL file outside _sources/: an error of the block in both, the tool chain's naming the file it did not find in its working folder, jrpcld's that it reads nothing outside the sources (docs/ogc.md, departure 12)"},
	{"ogc-pending/testdata-shacl-checks", "tests/*", "*globalErrors.SHACL: jrpcld error \"Error processing https://shapes.example.org/remote.shacl*", ogcdiff.Differs, "reference",
		"shapes named by a URL nothing maps: an error of the block in both; the tool chain's message is Python's failed download (offline), jrpcld's says it fetches nothing and how to map the URL"},

	{"ogc-pending/testdata-transforms-uplift", "*construct*", "*uplift-definition*", "", "transform",
		"t.construct's semantic-uplift transform, which the tool chain runs with ogc-na-tools (Python); jrpcld does not run it"},
	{"ogc-pending/testdata-transforms-uplift", "tests/construct/transforms/*uplift-definition*", "", ogcdiff.Missing, "transform", "as above, its output"},
	{"*", "register.json", "bblocks[*]/semanticUplift", ogcdiff.Extra, "reference",
		"the steps of semantic-uplift.yaml, published since the tool chain lets blocks inherit them (bblocks-postprocess 3573501, models.py published_semantic_uplift); the reference's 6a10405 does not publish them in register.json (docs/ogc.md, \"Inherited steps\")"},
	{"ogc-pending/*", "generateddocs/json-full/*/index.json", "/semanticUplift*", "", "reference",
		"6a10405 writes semantic-uplift.yaml as it read it into the documentation (stage, ref, inheritedPostSteps); jrpcld writes the steps as the later version publishes them, code read from ref (docs/ogc.md, \"Inherited steps\")"},
	{"ogc-pending/testdata-transforms-uplift", "*", "*shaclShapes*", ogcdiff.Differs, "departure",
		"the shapes of a block that has no example or test resource: the tool chain lists them by their path from the repository root (_sources/profile/shapes.shacl), which as a link of register.json leads nowhere; jrpcld gives their URL, as for every block (docs/ogc.md, departure 22)"},
	{"ogc-pending/testdata-transforms-uplift", "*profile*to-turtle*", "", "", "departure",
		"a Turtle transform output checked against a profile: the tool chain's check fails on it (a Python TypeError) and counts the output as failing the profile; jrpcld checks it, its SHACL shapes included (docs/ogc.md, departure 23)"},
	{"ogc-pending/testdata-transforms-uplift", "*profile*", "*to-turtle*", "", "departure",
		"a Turtle transform output checked against a profile: the tool chain's check fails on it (a Python TypeError, Unknown errors) and counts the output as failing the profile; jrpcld checks it, its SHACL shapes included (docs/ogc.md, departure 23)"},
	{"ogc-pending/testdata-transforms-uplift", "tests/profiled/transforms/t.profile/_report.json", "counts", ogcdiff.Differs, "departure", "as above"},
	{"ogc-pending/testdata-transforms-uplift", "tests/profiled/transforms/t.profile/_report.json", "item[*].source/language", ogcdiff.Differs, "departure",
		"the language of a transform output in a profile's report: 6a10405 writes its media type object (id, mimeType, extensions...); jrpcld the media type, as every other item of a report (docs/ogc.md, departure 23)"},

	{"ogc-pending/testdata-uplift-steps", "*", "*", "", "reference",
		"inherited uplift steps (inheritable, inheritedPostSteps): 6a10405 knows neither (they came with bblocks-postprocess 3573501), so no block runs another's steps and construct-user, whose inherited step is SPARQL, passes there; jrpcld follows the later version (docs/ogc.md, \"Inherited steps\")"},
}

// TestOGCDifferential builds every register the OGC tool chain built whole
// (../shared/reference/ogc-full, ogc-full-current and ogc-pending) with jrpcld, at the
// tool chain's paths, and compares every file both write (see
// register/internal/ogcdiff for what "equal" means for each kind of file). Every
// difference must be in knownDiffs, and every entry of knownDiffs must
// still match one.
func TestOGCDifferential(t *testing.T) {
	regs := ogcRegisters(t)
	type found struct {
		reg   string
		diffs []ogcdiff.Diff
		gaps  int // differences that come from what the reference lacks
	}
	results := make([]found, len(regs))
	t.Run("registers", func(t *testing.T) {
		for i, r := range regs {
			t.Run(r.String(), func(t *testing.T) {
				t.Parallel()
				reg, err := r.load()
				if err != nil {
					t.Fatal(err)
				}
				files, _, err := build(reg, r.opts)
				if err != nil {
					t.Fatal(err)
				}
				ref := shared.Dir(t, "reference", r.set, r.name)
				skipped := summaryGaps(t, ref, files)
				got := fstest.MapFS{}
				for p, data := range files {
					got[p] = &fstest.MapFile{Data: data}
				}
				diffs := ogcdiff.Compare(t, got, os.DirFS(ref), nil, jrpcldOwn)
				kept := referenceGaps(t, r, reg, ref, diffs)
				results[i] = found{r.String(), kept, len(diffs) - len(kept) + skipped}
			})
		}
	})
	used := make([]int, len(knownDiffs))
	total, unlisted := 0, 0
	byOwner := map[string]int{}
	for _, f := range results {
		total += f.gaps
		byOwner["reference"] += f.gaps
		for _, d := range f.diffs {
			total++
			listed, owner := false, ""
			for i, k := range knownDiffs {
				if k.matches(f.reg, d) {
					used[i]++
					byOwner[k.Owner]++
					listed, owner = true, k.Owner
					break
				}
			}
			if *dumpDiffs {
				mark := "! "
				if listed {
					mark = "  [" + owner + "] "
				}
				fmt.Printf("%s%s: %s\n", mark, f.reg, d)
			}
			if !listed {
				unlisted++
				if unlisted <= 200 {
					t.Errorf("%s: %s", f.reg, d)
				}
			}
		}
	}
	if unlisted > 200 {
		t.Errorf("... and %d more differences not in knownDiffs", unlisted-200)
	}
	for i, k := range knownDiffs {
		if used[i] == 0 {
			t.Errorf("knownDiffs entry matches no difference any more: remove it (%s: %s %s %s)", k.Owner, k.Registers, k.Path, k.Where)
		}
	}
	owners := make([]string, 0, len(byOwner))
	for o := range byOwner {
		owners = append(owners, o)
	}
	sort.Strings(owners)
	var counts []string
	for _, o := range owners {
		counts = append(counts, fmt.Sprintf("%s %d", o, byOwner[o]))
	}
	t.Logf("%d differences in %d registers, %d not listed; listed by owner: %s", total, len(regs), unlisted, strings.Join(counts, ", "))
}
