package register

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/register/transform"
)

// transformOutput is the name of a transform's output: the example and
// snippet, the transform's id, the extension.
var transformOutput = regexp.MustCompile(`^(example_\d+_\d+)\.([a-zA-Z][a-zA-Z0-9-]*)(\.[a-z]+)?$`)

// transformRefs are the registers in ../shared whose blocks declare
// transforms, with what the tool chain built for them.
var transformRefs = []struct {
	name, src, set, ref, base string
	fullDocs                  bool // the reference has generateddocs/json-full
}{
	{"tutorial", "ogc-published/bblocks-tutorial/src", "ogc-full", "tutorial", "https://ogc-oracle.invalid/register/", true},
	{"examples", "ogc-registers-2/ogcincubator+bblocks-examples/src", "ogc-full-current", "examples", "https://ogcincubator.github.io/bblocks-examples/", false},
}

// TestTransformsAsTheToolChain builds the registers of ../shared that
// declare transforms and compares with what the tool chain built: every
// output of a transform jrpcld runs, at the same path, equal as JSON (a
// Turtle one as a graph); no
// output of a transform it does not run, and no output the tool chain did
// not write; the transforms of register.json equal; and, in the full JSON
// documentation, the same transforms on each snippet, with the tool chain's
// results for those jrpcld runs and failed results for the others.
func TestTransformsAsTheToolChain(t *testing.T) {
	for _, c := range transformRefs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			refDir := shared.Dir(t, "reference", c.set, c.ref)
			reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", c.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := buildReg(t, reg, Options{BaseURL: c.base})

			types := map[string]map[string]string{} // block path -> transform id -> type
			built := map[string]bool{}              // the paths of the blocks the tool chain built
			refBlocks := registerBlocks(t, filepath.Join(refDir, "register.json"))
			ourBlocks := registerBlocks(t, filepath.Join(out, "register.json"))
			compared := 0
			for id, rb := range refBlocks {
				p := strings.ReplaceAll(strings.SplitN(id, ".", 2)[1], ".", "/")
				built[p] = true
				list, _ := rb["transforms"].([]any)
				if len(list) == 0 {
					continue
				}
				types[p] = map[string]string{}
				for _, e := range list {
					m := e.(map[string]any)
					types[p][m["id"].(string)] = m["type"].(string)
				}
				ours, _ := ourBlocks[id]["transforms"].([]any)
				if !ojson.Equal(ojson.FromPlain(list), ojson.FromPlain(ours)) {
					w, _ := json.MarshalIndent(list, "", " ")
					g, _ := json.MarshalIndent(ours, "", " ")
					if !sameExceptMissingCode(list, ours) {
						t.Errorf("%s: register.json transforms differ:\n got %s\nwant %s", id, g, w)
					}
				}
				compared++
			}
			if compared == 0 {
				t.Fatal("no block with transforms in the reference")
			}

			refOut := transformFiles(t, filepath.Join(refDir, "tests"))
			ourOut := transformFiles(t, filepath.Join(out, "tests"))
			for rel, want := range refOut {
				dir := filepath.ToSlash(filepath.Dir(filepath.Dir(rel)))
				m := transformOutput.FindStringSubmatch(filepath.Base(rel))
				if m == nil || types[dir] == nil {
					t.Errorf("%s: not a transform output the test knows", rel)
					continue
				}
				typ := types[dir][m[2]]
				got, ok := ourOut[rel]
				switch {
				case !transform.Runs(typ):
					if ok {
						t.Errorf("%s: jrpcld does not run %s transforms, yet wrote it", rel, typ)
					}
				case !ok:
					t.Errorf("%s: the tool chain wrote it, jrpcld did not", rel)
				case strings.HasSuffix(rel, ".ttl"):
					g, err1 := rdftest.ParseTurtle(got, "")
					w, err2 := rdftest.ParseTurtle(want, "")
					if ok, diff := rdftest.Isomorphic(g, w); err1 != nil || err2 != nil || !ok {
						t.Errorf("%s differs from the tool chain's graph (%v, %v):\n%s\n%s", rel, err1, err2, diff, got)
					}
				default:
					g, err1 := ojson.DecodeJSON(got)
					w, err2 := ojson.DecodeJSON(want)
					if err1 != nil || err2 != nil || !ojson.Equal(g, w) {
						t.Errorf("%s differs from the tool chain's:\n%s", rel, got)
					}
				}
			}
			for rel := range ourOut {
				// Blocks that need an imported register are not in the
				// reference: the tool chain's offline run skipped them.
				if !built[filepath.ToSlash(filepath.Dir(filepath.Dir(rel)))] {
					continue
				}
				if _, ok := refOut[rel]; !ok && !missingSource(rel) {
					t.Errorf("%s: jrpcld wrote it, the tool chain did not", rel)
				}
			}

			if !c.fullDocs {
				return
			}
			for p := range types {
				want := snippetResults(t, filepath.Join(refDir, "generateddocs", "json-full", p, "index.json"))
				got := snippetResults(t, filepath.Join(out, "generateddocs", "json-full", p, "index.json"))
				for file, wr := range want {
					gr, ok := got[file]
					if !ok {
						t.Errorf("%s/%s: the tool chain ran transforms on it, jrpcld did not", p, file)
						continue
					}
					for id, w := range wr {
						g, ok := gr[id]
						switch {
						case !ok:
							t.Errorf("%s/%s: transform %s did not run", p, file, id)
						case transform.Runs(types[p][id]):
							// A Turtle output is compared as a graph above:
							// rdflib's bytes are not jrpcld's.
							sameSize := g.SizeBytes == w.SizeBytes || strings.HasSuffix(w.URL, ".ttl")
							if g.Success != w.Success || !sameSize || urlPath(g.URL) != urlPath(w.URL) {
								t.Errorf("%s/%s: transform %s: %+v, the tool chain's %+v", p, file, id, g, w)
							}
						default:
							if g.Success || g.Stderr == "" || g.URL != "" {
								t.Errorf("%s/%s: transform %s, which jrpcld does not run: %+v, want a failed result", p, file, id, g)
							}
						}
					}
					if len(gr) != len(wr) {
						t.Errorf("%s/%s: transforms %v ran, the tool chain ran %v", p, file, gr, wr)
					}
				}
			}
		})
	}
}

// registerBlocks reads the blocks of a register.json by id.
func registerBlocks(t *testing.T, file string) map[string]map[string]any {
	t.Helper()
	reg := readJSON(t, file)
	out := map[string]map[string]any{}
	for _, b := range reg["bblocks"].([]any) {
		m := b.(map[string]any)
		out[m["itemIdentifier"].(string)] = m
	}
	return out
}

// sameExceptMissingCode reports whether two lists of transforms differ only
// in the code of those whose file the sources in ../shared lack.
func sameExceptMissingCode(want, got []any) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		w, g := want[i].(map[string]any), got[i].(map[string]any)
		if _, has := g["code"]; !has && missingSource(w["id"].(string)) {
			w = copyMap(w)
			delete(w, "code")
		}
		if !ojson.Equal(ojson.FromPlain(w), ojson.FromPlain(g)) {
			return false
		}
	}
	return true
}

// missingSource reports whether a transform output or id is that of the
// transform whose code the sources in ../shared lack (the tool chain read
// python-geojson.py, which the examples register's archive does not hold).
func missingSource(s string) bool { return strings.Contains(s, "python-geojson") }

// transformFiles returns the files of the transforms/ folders below dir,
// by slash path below it.
func transformFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) != "transforms" {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type snippetResult struct {
	Success   bool   `json:"success"`
	Stderr    string `json:"stderr"`
	SizeBytes int    `json:"sizeBytes"`
	URL       string `json:"url"`
}

// snippetResults returns the transformResults of a full JSON
// documentation's snippets, by snippet file name.
func snippetResults(t *testing.T, file string) map[string]map[string]snippetResult {
	t.Helper()
	var doc struct {
		Examples []struct {
			Snippets []struct {
				URL     string                   `json:"url"`
				Results map[string]snippetResult `json:"transformResults"`
			} `json:"snippets"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(readFile(t, file), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]snippetResult{}
	for _, ex := range doc.Examples {
		for _, sn := range ex.Snippets {
			if len(sn.Results) > 0 {
				out[filepath.Base(sn.URL)] = sn.Results
			}
		}
	}
	return out
}

// urlPath returns the part of an output's URL from tests/ on: the tool
// chain's URLs have the build folder's name before it.
func urlPath(u string) string {
	if i := strings.Index(u, "/tests/"); i >= 0 {
		return u[i:]
	}
	return u
}

// TestTransformsTestdata builds testdata/ogc-registers/transforms-uplift,
// whose transform types and uplift steps no register in ../shared
// exercises, and checks the outputs against what the tool chain's rules
// (docs/ogc.md) and the specifications give; TestOGCDifferential compares
// it with the tool chain's build (../shared/reference/ogc-pending).
func TestTransformsTestdata(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(filepath.Join("..", "testdata", "ogc-registers", "transforms-uplift"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{BaseURL: "https://example.org/tu/"})
	warnings := map[string]string{}
	for _, b := range res.Blocks {
		warnings[b.ID] = strings.Join(b.Warnings, "\n")
	}
	tests := filepath.Join(out, "tests")
	sameJSONFile := func(file, want string) {
		t.Helper()
		got, err := ojson.DecodeJSON(readFile(t, filepath.Join(tests, file)))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		w, err := ojson.DecodeJSON([]byte(want))
		if err != nil {
			t.Fatal(err)
		}
		if !ojson.Equal(got, w) {
			t.Errorf("%s:\n%s\nwant %s", file, readFile(t, filepath.Join(tests, file)), want)
		}
	}

	// jsonld-frame (JSON-LD 1.1 Framing, the defaults of the tool chain's
	// processor): the uplifted JSON-LD and Turtle of example 1 give Alice
	// with the node reference she knows; example 2's graph gives Bob with
	// Carol embedded, and Carol, who knows nobody (null, as @omitDefault is
	// false); an application/json output drops the context and unwraps
	// @graph; @explicit keeps only the framed property.
	ctx := `{"ex": "http://example.org/", "name": "ex:name", "knows": {"@id": "ex:knows", "@type": "@id"}}`
	alice := `{"@context": ` + ctx + `, "@id": "ex:alice", "@type": "ex:Person", "knows": "ex:bob", "name": "Alice"}`
	sameJSONFile("frame/transforms/example_1_2.people.jsonld", alice)
	sameJSONFile("frame/transforms/example_1_3.people.jsonld", alice)
	bobCarol := `{"@context": ` + ctx + `, "@graph": [
	  {"@id": "ex:bob", "@type": "ex:Person", "name": "Bob",
	   "knows": {"@id": "ex:carol", "@type": "ex:Person", "name": "Carol"}},
	  {"@id": "ex:carol", "@type": "ex:Person", "name": "Carol", "knows": null}]}`
	sameJSONFile("frame/transforms/example_2_1.people.jsonld", bobCarol)
	sameJSONFile("frame/transforms/example_2_2.people.jsonld", bobCarol)
	sameJSONFile("frame/transforms/example_1_2.people-json.json", `{"@id": "ex:alice", "@type": "ex:Person", "name": "Alice"}`)
	sameJSONFile("frame/transforms/example_2_1.people-json.json", `[{"@id": "ex:bob", "@type": "ex:Person", "name": "Bob"}, {"@id": "ex:carol", "@type": "ex:Person", "name": "Carol"}]`)
	if !strings.Contains(warnings["t.frame"], `"frame-alias" (json-ld-frame) takes no media type`) {
		t.Errorf("no warning about json-ld-frame: %s", warnings["t.frame"])
	}

	// shacl-af-rule: the example's graph with the labels the rule infers;
	// on the Turtle snippet, with the prefixes of examples.yaml declared.
	// A shacl transform has no media types unless transforms.yaml names
	// them, as in the tool chain's reference build: it runs on nothing.
	label := "http://www.w3.org/2000/01/rdf-schema#label"
	for file, subject := range map[string]string{"rules/transforms/example_1_3.labels.ttl": "http://example.org/alice",
		"rules/transforms/example_2_1.labels.ttl": "http://example.org/carol"} {
		ts := rdftest.Rapper(t, readFile(t, filepath.Join(tests, file)), "")
		found := false
		for _, tr := range ts {
			found = found || tr.S.Value == subject && tr.P == label
		}
		if !found || len(ts) < 3 {
			t.Errorf("%s: no rdfs:label of %s in %v", file, subject, ts)
		}
	}
	docs := filepath.Join(out, "generateddocs", "json-full")
	// The shapes of t.profile, which has neither example nor test
	// resource, are linked below the base URL as every block's
	// (docs/ogc.md, departure 22).
	if shapes := registerEntry(t, out, "t.profile")["shaclShapes"]; !reflect.DeepEqual(shapes, map[string]any{"t.profile": []any{"https://example.org/tu/_sources/profile/shapes.shacl"}}) {
		t.Errorf("t.profile's shaclShapes: %v", shapes)
	}
	rules := snippetResults(t, filepath.Join(docs, "rules", "index.json"))
	for file, results := range rules {
		if r, ok := results["labels-shacl"]; ok {
			t.Errorf("labels-shacl ran on %s: %+v", file, r)
		}
	}

	// sparql-construct runs, as the tool chain runs it (its build of this
	// register, ../shared/reference/ogc-pending/testdata-transforms-uplift):
	// on the uplifted Turtle of example 1, which the block's own CONSTRUCT
	// step left without ex:name, it builds an empty graph (a file of one
	// line break, as rdflib writes it); on example 2's Turtle, Erin's label.
	// A type jrpcld does not run gives a failed result naming what runs it.
	construct := snippetResults(t, filepath.Join(docs, "construct", "index.json"))
	if r := construct["example_1_1.ttl"]["labels"]; !r.Success || r.SizeBytes != 1 {
		t.Errorf("construct: labels on example 1's Turtle: %+v, want an empty graph", r)
	}
	if r := construct["example_2_1.ttl"]["labels"]; !r.Success {
		t.Errorf("construct: labels on example 2: %+v", r)
	}
	erin := rdftest.Rapper(t, readFile(t, filepath.Join(tests, "construct", "transforms", "example_2_1.labels.ttl")), "")
	if len(erin) != 1 || erin[0].S.Value != "http://example.org/erin" || erin[0].P != "http://example.org/label" || erin[0].O.Value != "Erin" {
		t.Errorf("construct: labels on example 2 gives %v", erin)
	}
	found := false
	for _, rs := range construct {
		if r, ok := rs["uplift-definition"]; ok {
			found = true
			if r.Success || !strings.Contains(r.Stderr, "ogc-na-tools") || r.URL != "" {
				t.Errorf("construct: uplift-definition: %+v", r)
			}
		}
	}
	if !found {
		t.Error("construct: no result of uplift-definition")
	}

	// semantic-uplift.yaml: the jq step before the uplift (the .jsonld
	// holds what it gives, the .json what was written), the SHACL step
	// after, each named in the report's Semantic Uplift section.
	jsonld := readJSON(t, filepath.Join(tests, "rules", "example_1_1.jsonld"))
	written := readJSON(t, filepath.Join(tests, "rules", "example_1_1.json"))
	if jsonld["adult"] != true || written["adult"] != nil {
		t.Errorf("the jq step: .jsonld %v, .json %v", jsonld, written)
	}
	agent := false
	for _, tr := range rdftest.Rapper(t, readFile(t, filepath.Join(tests, "rules", "example_1_1.ttl")), "") {
		agent = agent || tr.S.Value == "http://example.org/alice" && tr.O.Value == "http://example.org/Agent"
	}
	if !agent {
		t.Error("the shacl step: example_1_1.ttl does not type alice ex:Agent")
	}
	entries := reportEntries(t, filepath.Join(tests, "rules", "_report.json"), 0, "SEMANTIC_UPLIFT")
	if strings.Join(entries, "\n") != "Running pre-uplift jq transform step from inline code\nRunning post-uplift shacl transform step from uplift/agents.shacl" {
		t.Errorf("rules: Semantic Uplift entries %q", entries)
	}
	// The block's sparql-construct step replaces the uplifted graph with
	// what it builds, as in the tool chain: Dave's label only.
	dave := rdftest.Rapper(t, readFile(t, filepath.Join(tests, "construct", "example_1_1.ttl")), "")
	if len(dave) != 1 || dave[0].S.Value != "http://example.org/dave" || dave[0].P != "http://example.org/label" {
		t.Errorf("construct: example_1_1.ttl holds %v, want Dave's label only", dave)
	}
	if e := reportEntries(t, filepath.Join(tests, "construct", "_report.json"), 0, "SEMANTIC_UPLIFT"); strings.Join(e, "\n") != "Running post-uplift sparql-construct transform step from inline code" {
		t.Errorf("construct: Semantic Uplift entries %q", e)
	}
	if e := reportEntries(t, filepath.Join(tests, "construct", "_report.json"), 0, "UNKNOWN"); len(e) != 0 {
		t.Errorf("construct: Unknown errors %q", e)
	}
	if strings.Contains(warnings["t.construct"], "step") {
		t.Errorf("construct: a warning about the step: %s", warnings["t.construct"])
	}

	// base-output-filename names the output; the transforms the tool
	// chain skips for their Node.js or Python version get no result, keep
	// their media types as declared and are warned about.
	sameJSONFile("versions/transforms/named.upper.json", `{"AGE": 41, "NAME": "Erin"}`)
	versions := snippetResults(t, filepath.Join(docs, "versions", "index.json"))
	if len(versions["named.json"]) != 1 {
		t.Errorf("versions: results %v, want upper's only", versions)
	}
	for _, id := range []string{"future-node", "old-python"} {
		if !strings.Contains(warnings["t.versions"], id) {
			t.Errorf("no warning about %s", id)
		}
	}
	for _, e := range registerBlocks(t, filepath.Join(out, "register.json"))["t.versions"]["transforms"].([]any) {
		m := e.(map[string]any)
		if m["id"] == "old-python" {
			if mt := m["inputs"].(map[string]any)["mediaTypes"].([]any); mt[0] != "application/json" {
				t.Errorf("old-python's inputs: %v, want them as declared", mt)
			}
		}
	}
}

// reportEntries returns the messages of a section of item i of a block's
// _report.json.
func reportEntries(t *testing.T, file string, i int, section string) []string {
	t.Helper()
	var rep struct {
		Items []struct {
			Sections []struct {
				Name    string `json:"name"`
				Entries []struct {
					Message string `json:"message"`
				} `json:"entries"`
			} `json:"sections"`
		} `json:"items"`
	}
	if err := json.Unmarshal(readFile(t, file), &rep); err != nil {
		t.Fatal(err)
	}
	if i >= len(rep.Items) {
		t.Fatalf("%s has %d items", file, len(rep.Items))
	}
	var out []string
	for _, s := range rep.Items[i].Sections {
		if s.Name == section {
			for _, e := range s.Entries {
				out = append(out, e.Message)
			}
		}
	}
	return out
}

// TestTransformProfiles: the outputs of t.profiled's transforms are checked
// against the profile their transform declares (outputs.profiles), as the
// tool chain's validate_transform_output checks them: as resources of the
// profile block (its schema, its context, its SHACL shapes), written below
// tests/PATH/transforms/PROFILE/ with one _report.json for the profile and
// each output's verdict, report and uplifted files in the documentation's
// profilesValidation. A profile the register does not have is skipped with
// a warning, as there.
func TestTransformProfiles(t *testing.T) {
	reg, err := bblock.LoadRegisterDir(filepath.Join("..", "testdata", "ogc-registers", "transforms-uplift"), nil)
	if err != nil {
		t.Fatal(err)
	}
	const base = "https://example.org/tu/"
	out, res := buildReg(t, reg, Options{BaseURL: base})
	dir := filepath.Join(out, "tests", "profiled", "transforms", "t.profile")
	var rep struct {
		BblockID string `json:"bblockId"`
		Result   bool   `json:"result"`
		Items    []struct {
			Source struct {
				Type        string `json:"type"`
				Filename    string `json:"filename"`
				TransformID string `json:"transformId"`
				Language    string `json:"language"`
			} `json:"source"`
			Result   bool `json:"result"`
			Sections []struct {
				Name    string `json:"name"`
				Entries []struct {
					IsError bool `json:"isError"`
				} `json:"entries"`
			} `json:"sections"`
		} `json:"items"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "_report.json")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.BblockID != "t.profile" || rep.Result || len(rep.Items) != 3 {
		t.Fatalf("the profile's report: block %s, result %v, %d items; want t.profile, false, 3", rep.BblockID, rep.Result, len(rep.Items))
	}
	// keep-name meets the schema (a name) and the shape (an ex:name);
	// drop-name fails both; to-turtle, Turtle, meets the shape.
	want := map[string]struct {
		passed bool
		errors []string // sections with an error
	}{
		"keep-name": {true, nil},
		"drop-name": {false, []string{"JSON_SCHEMA", "SHACL"}},
		"to-turtle": {true, nil},
	}
	for _, it := range rep.Items {
		w, ok := want[it.Source.TransformID]
		if !ok || it.Source.Type != "TRANSFORM_OUTPUT" || !strings.HasPrefix(it.Source.Filename, "tests/profiled/transforms/example_1_") {
			t.Errorf("item %+v", it.Source)
			continue
		}
		var errs []string
		for _, s := range it.Sections {
			for _, e := range s.Entries {
				if e.IsError && !slices.Contains(errs, s.Name) {
					errs = append(errs, s.Name)
				}
			}
		}
		if it.Result != w.passed || !slices.Equal(errs, w.errors) {
			t.Errorf("%s: passed %v with errors in %v; want %v, %v", it.Source.TransformID, it.Result, errs, w.passed, w.errors)
		}
	}
	for _, f := range []string{"example_1_1.keep-name.validation_passed.txt", "example_1_1.drop-name.validation_failed.txt", "example_1_3.to-turtle.validation_passed.txt"} {
		readFile(t, filepath.Join(dir, f))
	}
	// The output uplifted with the profile's context: its Turtle, read by
	// rapper, names Alice.
	found := false
	for _, tr := range rdftest.Rapper(t, readFile(t, filepath.Join(dir, "example_1_1.keep-name.ttl")), "") {
		found = found || tr.S.Value == "http://example.org/alice" && tr.P == "http://example.org/name" && tr.O.Value == "Alice"
	}
	if !found {
		t.Error("example_1_1.keep-name.ttl: no ex:name of ex:alice")
	}
	// The documentation's transformResults.
	var doc struct {
		Examples []struct {
			Snippets []struct {
				Results map[string]struct {
					Profiles map[string]struct {
						Result   bool              `json:"result"`
						Report   string            `json:"report"`
						Uplifted map[string]string `json:"upliftedFiles"`
					} `json:"profilesValidation"`
				} `json:"transformResults"`
			} `json:"snippets"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "generateddocs", "json-full", "profiled", "index.json")), &doc); err != nil {
		t.Fatal(err)
	}
	sn := doc.Examples[0].Snippets
	keep, drop := sn[0].Results["keep-name"].Profiles, sn[0].Results["drop-name"].Profiles
	reportURL := base + "tests/profiled/transforms/t.profile/_report.json"
	if len(keep) != 1 || !keep["t.profile"].Result || keep["t.profile"].Report != reportURL ||
		keep["t.profile"].Uplifted["ttl"] != base+"tests/profiled/transforms/t.profile/example_1_1.keep-name.ttl" || keep["t.profile"].Uplifted["jsonld"] == "" {
		t.Errorf("keep-name's profilesValidation: %+v", keep)
	}
	if drop["t.profile"].Result || drop["t.profile"].Report != reportURL {
		t.Errorf("drop-name's profilesValidation: %+v", drop)
	}
	if p := sn[len(sn)-1].Results["to-turtle"].Profiles["t.profile"]; !p.Result || len(p.Uplifted) != 0 {
		t.Errorf("to-turtle's profilesValidation: %+v", p)
	}
	var warnings string
	for _, b := range res.Blocks {
		if b.ID == "t.profiled" {
			warnings = strings.Join(b.Warnings, "\n")
			if !b.Passed {
				t.Error("t.profiled failed: an output that fails its profile does not fail the block, as in the tool chain")
			}
		}
	}
	if !strings.Contains(warnings, "not validated against profile t.nowhere") {
		t.Errorf("no warning about t.nowhere: %s", warnings)
	}
}
