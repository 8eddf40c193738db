package register

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// TestSnippetLanguages (issue 21, item 2) builds
// testdata/ogc-registers/snippet-languages and checks each snippet against
// the rules of docs/ogc.md, which its reference build
// (../shared/reference/ogc-pending) showed: a YAML snippet is validated and
// not uplifted, and no JSON is written beside it; a Turtle snippet gets the
// prefixes of examples.yaml (of the file, then of its example, in their
// order), and the file written declares them; json-path snippets are the
// part they select (a filter compares numbers), one that selects nothing is
// skipped; GeoJSON (by name or media type) is checked as JSON under its own
// file name, written indented as Python writes JSON; snippets in other
// languages nothing checks are written under the tool chain's names with no
// verdict; a test resource that must fail and that nothing checks fails.
func TestSnippetLanguages(t *testing.T) {
	dir := filepath.Join("..", "testdata", "ogc-registers", "snippet-languages")
	out, res := buildDir(t, dir, Options{})
	b := res.Blocks[0]
	if b.Examples != (Count{Passed: 4, Failed: 3}) || b.Tests != (Count{Passed: 3, Failed: 1}) {
		t.Errorf("examples %+v, tests %+v; want 4/3 (the YAML without a value and both GeoJSON snippets fail) and 3/1 (odd-fail.xml, which nothing checks, fails)", b.Examples, b.Tests)
	}
	files := tree(t, out)
	const tests = "tests/reading/"
	for _, name := range []string{"example_1_1.jsonld", "example_1_1.ttl", "example_1_1.json", "example_2_1.jsonld", "example_2_1.json",
		"reading.jsonld", "reading.ttl", "reading.json", "no-value-fail.json"} {
		if _, ok := files[tests+name]; ok {
			t.Errorf("%s written: YAML is neither uplifted nor converted", name)
		}
	}
	for name, verdict := range map[string]string{"example_1_1": "passed", "example_2_1": "failed", "example_3_1": "passed", "example_4_1": "passed", "example_5_1": "passed", "odd-fail": "failed",
		"example_8_1": "failed", "example_8_2.application.application": "failed"} {
		if _, ok := files[tests+name+".validation_"+verdict+".txt"]; !ok {
			t.Errorf("no %s.validation_%s.txt", name, verdict)
		}
	}

	ttl := files[tests+"example_3_1.ttl"]
	triples, err := rdftest.ParseTurtle(ttl, "")
	if err != nil || len(triples) != 4 {
		t.Errorf("example_3_1.ttl does not read on its own as 4 triples (%d, %v):\n%s", len(triples), err, ttl)
	}
	rep := readJSON(t, filepath.Join(out, tests+"_report.json"))
	text, _ := json.Marshal(rep)
	for _, want := range []string{"Prefixes are defined for mr, m, ex", "Using example_8_1.geojson from examples",
		"Using example_8_2.application.application.geo+json (example_8_2.application) from examples", "missing properties 'meter', 'value'"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the report does not say %q", want)
		}
	}

	for name, want := range map[string]map[string]any{
		"example_4_1.json": {"meter": "https://example.org/meters/7", "value": 12.5, "unit": "kWh"},
		"example_5_1.json": {"meter": "https://example.org/meters/8", "value": float64(3)},
	} {
		var got map[string]any
		if err := json.Unmarshal(files[tests+name], &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %s (%v), want %v", name, files[tests+name], err, want)
		}
	}
	for name := range files {
		if strings.HasPrefix(name, tests+"example_6_1") {
			t.Errorf("%s written for a json-path that selects nothing", name)
		}
		if strings.HasPrefix(name, tests+"example_7_") && strings.Contains(name, ".validation_") {
			t.Errorf("%s: a snippet nothing checks got a verdict", name)
		}
	}
	for _, name := range []string{"example_7_1.xml", "example_7_2.html", "example_7_3.application.application.xml",
		"example_8_1.jsonld", "example_8_1.ttl", "example_8_2.application.application.jsonld", "example_8_2.application.application.ttl"} {
		if _, ok := files[tests+name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	// The second GeoJSON snippet, although it is not valid GeoJSON, as
	// written: nothing checks GeoJSON itself.
	for name, want := range map[string]string{
		"example_8_1.geojson": "{\n  \"type\": \"Feature\",\n  \"geometry\": {\n    \"type\": \"Point\",\n    \"coordinates\": [\n      4.9,\n      52.4\n    ]\n  },\n" +
			"  \"properties\": {\n    \"meter\": \"https://example.org/meters/7\",\n    \"value\": 12.5\n  }\n}",
		"example_8_2.application.application.geo+json": "{\n  \"type\": \"Point\",\n  \"coordinates\": \"not a position\"\n}",
	} {
		if got := string(files[tests+name]); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
	warns := strings.Join(b.Warnings, "\n")
	for _, w := range []string{`example 6 snippet 1`, `language "xml" is not checked`, `language "application/xml" is not checked`} {
		if !strings.Contains(warns, w) {
			t.Errorf("no warning with %q:\n%s", w, warns)
		}
	}
	if strings.Contains(warns, "geo") {
		t.Errorf("a warning about GeoJSON:\n%s", warns)
	}
	items, _ := rep["items"].([]any)
	if len(items) != 11 {
		t.Errorf("the report has %d items, want 11 (7 examples, 4 tests; not the snippets nothing checks)", len(items))
	}
}

// TestTurtleSnippetPrefixes: the tutorial's exercise10_completed, whose
// Turtle example uses a prefix of examples.yaml, gives the graph the tool
// chain gives.
func TestTurtleSnippetPrefixes(t *testing.T) {
	src := shared.Dir(t, "reference", "ogc-published", "bblocks-tutorial", "src")
	ref := shared.Dir(t, "reference", "ogc-full", "tutorial")
	out, res := buildDir(t, src, Options{Filter: "ogc.bbr.tutorial.exercise10_completed"})
	if len(res.Blocks) != 1 || res.Blocks[0].Examples.Failed != 0 {
		t.Fatalf("%+v", res.Blocks)
	}
	rel := filepath.Join("tests", "bbr", "tutorial", "exercise10_completed", "example_1_1.ttl")
	got, err := rdftest.ParseTurtle(readFile(t, filepath.Join(out, rel)), "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := rdftest.ParseTurtle(readFile(t, filepath.Join(ref, rel)), "")
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := rdftest.Isomorphic(got, want); !ok {
		t.Errorf("%s: not the tool chain's graph: %s", rel, why)
	}
}
