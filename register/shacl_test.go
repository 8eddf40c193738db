package register

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
)

const shaclChecks = "../testdata/ogc-registers/shacl-checks"

// shaclEntries returns the SHACL entries of a report item.
func shaclEntries(item map[string]any) []map[string]any {
	var out []map[string]any
	secs, _ := item["sections"].([]any)
	for _, s := range secs {
		sec := s.(map[string]any)
		if sec["name"] != "SHACL" {
			continue
		}
		for _, e := range sec["entries"].([]any) {
			out = append(out, e.(map[string]any))
		}
	}
	return out
}

// shaclReport returns the shacl-report entry of item for the SHACL file
// named file, or nil.
func shaclReport(item map[string]any, file string) map[string]any {
	for _, e := range shaclEntries(item) {
		if e["op"] == "shacl-report" && e["shaclFile"] == file {
			return e
		}
	}
	return nil
}

// toJSON writes v as compact JSON, for looking into a report item.
func toJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func blockResult(t *testing.T, res *Result, id string) BlockResult {
	t.Helper()
	for _, b := range res.Blocks {
		if b.ID == id {
			return b
		}
	}
	t.Fatalf("no block %s in %+v", id, res.Blocks)
	return BlockResult{}
}

// TestSHACLChecks (issue 22, item 4) builds testdata/ogc-registers/
// shacl-checks, whose data is made to conform or not to its shapes, and
// checks the SHACL step of the checks: the verdicts, the reports' SHACL
// entries, the rules of the blocks a block depends on, the closures of
// bblock.json and of a snippet, a Turtle test resource the tool chain
// leaves out of its report (departure 11), shapes named by a URL or
// outside the sources (a failure of the block, never a silent pass) and
// SHACL-SPARQL (said, not run).
func TestSHACLChecks(t *testing.T) {
	out, res := buildDir(t, shaclChecks, Options{})
	rep := func(block string) map[string]map[string]any {
		return reportItems(t, readJSON(t, filepath.Join(out, "tests", block, "_report.json")))
	}
	const personRules = "_sources/person/rules.shacl"

	person := blockResult(t, res, "t.person")
	if !person.Passed || person.Examples.Passed != 1 || person.Tests.Passed != 3 {
		t.Errorf("t.person: %+v", person)
	}
	items := rep("person")
	for name, conforms := range map[string]bool{"example_1_1.json": true, "grace.ttl": true, "nameless-fail.json": false, "too-old-fail.ttl": false} {
		it := items[name]
		if it == nil {
			t.Errorf("t.person: no report item for %s", name)
			continue
		}
		if it["result"] != true {
			t.Errorf("t.person: %s does not give the expected result", name)
		}
		e := shaclReport(it, personRules)
		if e == nil {
			t.Errorf("t.person: %s has no SHACL report for %s: %v", name, personRules, shaclEntries(it))
			continue
		}
		if e["isError"] != !conforms || !strings.Contains(e["graph"].(string), "sh:conforms "+map[bool]string{true: "true", false: "false"}[conforms]) {
			t.Errorf("t.person: %s: the SHACL report says conforms=%v, want %v:\n%v", name, !e["isError"].(bool), conforms, e["graph"])
		}
	}
	if e := shaclReport(items["nameless-fail.json"], personRules); e != nil && !strings.Contains(e["graph"].(string), "MinCountConstraintComponent") {
		t.Errorf("nameless-fail.json: the missing name is not the violation:\n%v", e["graph"])
	}
	if e := shaclReport(items["too-old-fail.ttl"], personRules); e != nil && !strings.Contains(e["graph"].(string), "MaxInclusiveConstraintComponent") {
		t.Errorf("too-old-fail.ttl: the age is not the violation:\n%v", e["graph"])
	}
	// The focus nodes of each node shape, named with the shapes' prefixes.
	var focus map[string]any
	for _, e := range shaclEntries(items["grace.ttl"]) {
		if f, ok := e["focusNodes"].(map[string]any); ok {
			focus = f
		}
	}
	if nodes := focus["shapes:Person"]; nodes == nil || !strings.Contains(toJSON(t, nodes), "https://example.org/people/grace") {
		t.Errorf("grace.ttl: focus nodes %v", focus)
	}
	// Departure 11: the tool chain leaves too-old-fail.ttl out; jrpcld
	// reports it, with a note and a warning.
	if !strings.Contains(toJSON(t, items["too-old-fail.ttl"]), `"op":"jrpcld-note"`) {
		t.Errorf("too-old-fail.ttl: no jrpcld-note: %v", items["too-old-fail.ttl"])
	}
	if !strings.Contains(strings.Join(person.Warnings, "\n"), "too-old-fail.ttl: the OGC tool chain leaves this Turtle test resource out") {
		t.Errorf("t.person: no warning about too-old-fail.ttl: %q", person.Warnings)
	}

	// t.member: its own shapes and those of t.person, on a graph with the
	// closure of bblock.json (example 1) and of the snippet (example 2).
	member := blockResult(t, res, "t.member")
	if !member.Passed || member.Examples.Passed != 2 || member.Tests.Passed != 1 {
		t.Errorf("t.member: %+v", member)
	}
	items = rep("member")
	for _, name := range []string{"example_1_1.json", "example_2_1.json", "guild-fail.json"} {
		for _, file := range []string{"_sources/member/shapes/member.ttl", personRules} {
			if shaclReport(items[name], file) == nil {
				t.Errorf("t.member: %s has no SHACL report for %s", name, file)
			}
		}
	}
	if e := shaclReport(items["guild-fail.json"], "_sources/member/shapes/member.ttl"); e == nil || e["isError"] != true {
		t.Errorf("t.member: guild-fail.json (the guild is only in example 2's closure) conforms: %v", e)
	}

	// Shapes the build cannot read fail the block, naming the file.
	for id, want := range map[string]string{
		"t.remote":  "Error processing https://shapes.example.org/remote.shacl: not fetched",
		"t.outside": "leaves the register's _sources folder",
	} {
		b := blockResult(t, res, id)
		if b.Passed || !strings.Contains(strings.Join(b.Errors, "\n"), want) {
			t.Errorf("%s: passed=%v, errors %q, want one with %q", id, b.Passed, b.Errors, want)
		}
	}
	// The tool chain lists an error of the whole block once, in
	// globalErrors.
	if s := toJSON(t, readJSON(t, filepath.Join(out, "tests", "remote", "_report.json"))["globalErrors"]); !strings.Contains(s, "--import URL=DIR") {
		t.Errorf("t.remote: the report's global errors do not say how to map the shapes: %s", s)
	}

	// SHACL-SPARQL runs: the test resource that must fail does, with the
	// report pySHACL gives (one sh:SPARQLConstraintComponent result).
	sparql := blockResult(t, res, "t.sparql")
	if !sparql.Passed || sparql.Tests.Passed != 1 {
		t.Errorf("t.sparql: %+v", sparql)
	}
	e := shaclReport(rep("sparql")["self-fail.json"], "_sources/sparql/rules.shacl")
	if e == nil || e["isError"] != true || !strings.Contains(toJSON(t, e), "SPARQLConstraintComponent") {
		t.Errorf("t.sparql: self-fail.json has no failing SHACL-SPARQL report: %v", e)
	}
}

// TestSHACLProfileOf builds t.profile of shacl-checks, a profile of
// t.person (isProfileOf, with no dependsOn and no reference to it): the
// shapes of the block it is a profile of apply to its resources after its
// own, as those of the blocks it depends on do, and register.json and the
// full JSON documentation list them, the block's own first.
func TestSHACLProfileOf(t *testing.T) {
	out, res := buildDir(t, shaclChecks, Options{})
	const own, inherited = "_sources/profile/shapes.shacl", "_sources/person/rules.shacl"

	b := blockResult(t, res, "t.profile")
	if !b.Passed || b.Examples.Passed != 1 || b.Tests.Passed != 2 {
		t.Errorf("t.profile: %+v", b)
	}
	items := reportItems(t, readJSON(t, filepath.Join(out, "tests", "profile", "_report.json")))
	// Which file finds each resource not conforming, and by which
	// constraint: the missing name only t.person's rules see, the age
	// below 18 only the profile's own shapes.
	for name, want := range map[string]struct {
		failedBy, component string
	}{
		"example_1_1.json":   {},
		"nameless-fail.json": {inherited, "MinCountConstraintComponent"},
		"child-fail.json":    {own, "MinInclusiveConstraintComponent"},
	} {
		it := items[name]
		if it == nil {
			t.Errorf("t.profile: no report item for %s", name)
			continue
		}
		for _, file := range []string{own, inherited} {
			e := shaclReport(it, file)
			if e == nil {
				t.Errorf("t.profile: %s has no SHACL report for %s: %v", name, file, shaclEntries(it))
				continue
			}
			failed := file == want.failedBy
			if e["isError"] != failed {
				t.Errorf("t.profile: %s: %s finds it not conforming: %v, want %v:\n%v", name, file, e["isError"], failed, e["graph"])
			}
			if failed && !strings.Contains(e["graph"].(string), want.component) {
				t.Errorf("t.profile: %s: %s: the violation is not %s:\n%v", name, file, want.component, e["graph"])
			}
		}
	}

	// register.json and json-full: the block's own shapes, then those of
	// the block it is a profile of.
	wantShapes := map[string]any{"t.profile": []any{own}, "t.person": []any{inherited}}
	reg := readJSON(t, filepath.Join(out, "register.json"))
	var entry map[string]any
	for _, e := range reg["bblocks"].([]any) {
		if e := e.(map[string]any); e["itemIdentifier"] == "t.profile" {
			entry = e
		}
	}
	full := readJSON(t, filepath.Join(out, "generateddocs", "json-full", "profile", "index.json"))
	// isProfileOf, written as one bblocks:// URI: so in register.json, by
	// its id in the documentation, as the tool chain's reference build.
	if entry["isProfileOf"] != "bblocks://t.person" || full["isProfileOf"] != "t.person" {
		t.Errorf("isProfileOf %v in register.json, %v in the documentation; want bblocks://t.person and t.person", entry["isProfileOf"], full["isProfileOf"])
	}
	// Without a base URL the links are relative to the file that holds
	// them, and lead to the copy of the sources in the output.
	up := "../../../"
	for _, d := range []struct {
		file string
		doc  map[string]any
		want map[string]any
	}{
		{"register.json", entry, wantShapes},
		{"generateddocs/json-full/profile/index.json", full, map[string]any{"t.profile": []any{up + own}, "t.person": []any{up + inherited}}},
	} {
		if got := toJSON(t, d.doc["shaclShapes"]); got != toJSON(t, d.want) {
			t.Errorf("%s: t.profile's shaclShapes %s, want %s", d.file, got, toJSON(t, d.want))
		}
		for _, files := range d.want {
			for _, f := range files.([]any) {
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(path.Join(path.Dir(d.file), f.(string))))); err != nil {
					t.Errorf("%s: %s leads nowhere: %v", d.file, f, err)
				}
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "generateddocs", "json-full", "profile", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if i, j := strings.Index(text, `"t.profile": [`), strings.Index(text, `"t.person": [`); i < 0 || j < i {
		t.Errorf("json-full: t.profile's own shapes are not listed before t.person's (at %d and %d)", i, j)
	}
}

// TestSHACLClosuresMatter builds t.member without its closures: the
// organisations are then untyped, and the examples fail, so that the
// closures are what makes them pass in TestSHACLChecks.
func TestSHACLClosuresMatter(t *testing.T) {
	fsys := fstest.MapFS{}
	err := filepath.WalkDir(shaclChecks, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(shaclChecks, p)
		data, err := os.ReadFile(p)
		rel = filepath.ToSlash(rel)
		switch rel {
		case "_sources/member/bblock.json":
			data = []byte(strings.Replace(string(data), `"shaclClosures": ["closure.ttl"]`, `"shaclClosures": []`, 1))
		case "_sources/member/examples.yaml":
			data = []byte(strings.Replace(string(data), "shacl-closure: guild.ttl", "shacl-closure: []", 1))
		}
		fsys[rel] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := bblock.LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, res := buildReg(t, reg, Options{Filter: "t.member"})
	if b := blockResult(t, res, "t.member"); b.Passed || b.Examples.Failed != 2 {
		t.Errorf("t.member without closures: %+v", b)
	}
}

// TestSHACLImportedShapes maps the URL of t.remote's shapes to a local
// copy with an import: they are read from it, and the block passes.
func TestSHACLImportedShapes(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"register.json": `{"bblocks": []}`,
		"remote.shacl":  "@prefix sh: <http://www.w3.org/ns/shacl#> .\n<https://example.org/shapes/Named> a sh:NodeShape ; sh:targetClass <https://example.org/ns#Person> ; sh:property [ sh:path <https://example.org/ns#name> ; sh:minCount 1 ] .\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	im, err := bblock.LoadImports([]bblock.ImportMap{{URL: "https://shapes.example.org/", Dir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := bblock.LoadRegisterDir(shaclChecks, &bblock.Options{Imports: im})
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{Filter: "t.remote"})
	if b := blockResult(t, res, "t.remote"); !b.Passed {
		t.Errorf("t.remote with its shapes mapped: %+v", b)
	}
	items := reportItems(t, readJSON(t, filepath.Join(out, "tests", "remote", "_report.json")))
	if e := shaclReport(items["example_1_1.json"], "https://shapes.example.org/remote.shacl"); e == nil || e["isError"] != false {
		t.Errorf("t.remote: no conforming report for the mapped shapes: %v", shaclEntries(items["example_1_1.json"]))
	}
}

// TestSHACLImportedBlockShapes: a block that depends on a block of a
// mapped import is checked against the shapes the import's register.json
// lists for it, here by a path relative to that register.json (as jrpcld
// links them in a build without a base URL): read from the copy.
func TestSHACLImportedBlockShapes(t *testing.T) {
	const importURL = "https://x.example/reg/"
	dir := t.TempDir()
	for name, data := range map[string]string{
		"register.json":              `{"bblocks": [{"itemIdentifier": "x.named", "shaclShapes": {"x.named": ["_sources/named/rules.shacl"]}}]}`,
		"_sources/named/rules.shacl": "@prefix sh: <http://www.w3.org/ns/shacl#> .\n<https://x.example/shapes/Named> a sh:NodeShape ; sh:targetClass <https://example.org/ns#Person> ; sh:property [ sh:path <https://example.org/ns#name> ; sh:minCount 1 ] .\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	im, err := bblock.LoadImports([]bblock.ImportMap{{URL: importURL, Dir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := readFile(t, filepath.Join(shaclChecks, "_sources", "person", "context.jsonld"))
	fsys := fstest.MapFS{
		"bblocks-config.yaml":             {Data: []byte("name: Y\nidentifier-prefix: y.\nimports:\n  - " + importURL + "\n")},
		"_sources/who/bblock.json":        {Data: []byte(`{"name": "Who", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1", "dependsOn": ["x.named"]}`)},
		"_sources/who/schema.yaml":        {Data: readFile(t, filepath.Join(shaclChecks, "_sources", "person", "schema.yaml"))},
		"_sources/who/context.jsonld":     {Data: ctx},
		"_sources/who/examples.yaml":      {Data: []byte("examples:\n  - title: Nameless\n    snippets:\n      - language: json\n        code: '{\"id\": \"https://example.org/people/n\", \"type\": \"Person\"}'\n")},
		"_sources/who/tests/ok-fail.json": {Data: []byte(`{"id": "https://example.org/people/m", "type": "Person"}`)},
	}
	reg, err := bblock.LoadRegister(fsys, &bblock.Options{Imports: im})
	if err != nil {
		t.Fatal(err)
	}
	out, res := buildReg(t, reg, Options{})
	b := blockResult(t, res, "y.who")
	// The example has no name: the imported shapes fail it; the test
	// resource, the same, fails as it must.
	if b.Passed || b.Examples.Failed != 1 || b.Tests.Passed != 1 {
		t.Errorf("y.who: %+v", b)
	}
	items := reportItems(t, readJSON(t, filepath.Join(out, "tests", "who", "_report.json")))
	if e := shaclReport(items["example_1_1.json"], importURL+"_sources/named/rules.shacl"); e == nil || e["isError"] != true {
		t.Errorf("y.who: no failing report for the imported shapes: %v", shaclEntries(items["example_1_1.json"]))
	}
}
