package shacl

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
)

const (
	mfNS  = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	shtNS = "http://www.w3.org/ns/shacl-test#"
)

// w3cTest is one sht:Validate entry of the W3C SHACL test suite.
type w3cTest struct {
	name          string
	file          string // the test's file
	data, shapes  string // the files of the data and shapes graphs
	conforms      bool
	results       []string // the expected results, as resultKey writes them
	triples       []rdf.Triple
	expectedError bool
}

// loadFile parses a Turtle file of the suite with its file: URL as base.
func loadFile(t testing.TB, path string) []rdf.Triple {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	qs, _, err := rdf.Parse(data, rdf.Turtle, fileURL(path))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	return ts
}

func fileURL(path string) string { return (&url.URL{Scheme: "file", Path: path}).String() }

func fileOf(iri string) string {
	u, err := url.Parse(iri)
	if err != nil {
		return ""
	}
	return u.Path
}

// w3cTests reads the manifests under dir, following mf:include, and
// returns the tests in the order the manifests list them.
func w3cTests(t testing.TB, manifest string) []*w3cTest {
	t.Helper()
	var tests []*w3cTest
	ts := loadFile(t, manifest)
	g := NewGraph(ts)
	c := &compiler{g: g, s: &Shapes{}, byNode: map[rdf.Term]*shape{}, consts: map[rdf.Term]ref{}}
	self := rdf.NewIRI(fileURL(manifest))
	for _, inc := range c.values(self, mfNS+"include") {
		tests = append(tests, w3cTests(t, fileOf(inc.Value))...)
	}
	var entries []rdf.Term
	for _, l := range c.values(self, mfNS+"entries") {
		items, err := c.list(l)
		if err != nil {
			t.Fatalf("%s: %v", manifest, err)
		}
		entries = append(entries, items...)
	}
	for _, e := range entries {
		if !slices.Contains(c.values(e, rdf.RDFType), rdf.NewIRI(shtNS+"Validate")) {
			continue
		}
		tc := &w3cTest{name: filepath.Base(filepath.Dir(manifest)) + "/" + filepath.Base(fileOf(e.Value)), file: manifest, triples: ts}
		action := c.values(e, mfNS+"action")[0]
		tc.data = fileOf(c.values(action, shtNS+"dataGraph")[0].Value)
		tc.shapes = fileOf(c.values(action, shtNS+"shapesGraph")[0].Value)
		res := c.values(e, mfNS+"result")[0]
		if res.Kind == rdf.IRI && res.Value == shtNS+"Failure" {
			tc.expectedError = true
		} else {
			tc.conforms = isTrue(c.values(res, shConforms)[0])
			for _, r := range c.values(res, shResult) {
				tc.results = append(tc.results, expectedKey(t, c, r))
			}
		}
		tests = append(tests, tc)
	}
	return tests
}

// resultKey writes what the suite compares of a result: focus node, path,
// value, source shape, constraint component and severity.
func resultKey(focus rdf.Term, path string, value, shape rdf.Term, comp, severity string) string {
	return fmt.Sprintf("focus=%s path=%s value=%s shape=%s component=%s severity=%s",
		focus, path, value, shape, strings.TrimPrefix(comp, NS), strings.TrimPrefix(severity, NS))
}

func expectedKey(t testing.TB, c *compiler, r rdf.Term) string {
	one := func(pred string) rdf.Term {
		vs := c.values(r, pred)
		if len(vs) > 1 {
			t.Fatalf("result %s has %d %s", r, len(vs), pred)
		}
		if len(vs) == 0 {
			return rdf.Term{}
		}
		return vs[0]
	}
	path := ""
	if p := one(shResultPath); p != (rdf.Term{}) {
		pp, err := c.parsePath(p)
		if err != nil {
			t.Fatalf("expected result path: %v", err)
		}
		path = pp.String()
	}
	return resultKey(one(shFocusNode), path, one(shValue), one(shSourceShape), one(shSourceComponent).Value, one(shResultSeverity).Value)
}

func gotKey(r Result) string {
	path := ""
	if r.Path != nil {
		path = r.Path.String()
	}
	return resultKey(r.Focus, path, r.Value, r.Shape, r.Component, r.Severity)
}

// TestW3C runs the core and SHACL-SPARQL tests of the W3C SHACL test
// suite and compares each report as the suite says: sh:conforms, and the
// results as a multiset of (focus node, path, value, source shape,
// constraint component, severity); messages are not compared. Blank nodes
// compare by identity: the suite's expected results name blank nodes of
// the same document as the data and shapes.
func TestW3C(t *testing.T) {
	for _, suite := range []struct {
		dir  string
		want int
	}{{"core", 98}, {"sparql", 23}} {
		t.Run(suite.dir, func(t *testing.T) {
			dir := shared.Dir(t, "reference", "w3c-shacl-tests", suite.dir)
			tests := w3cTests(t, filepath.Join(dir, "manifest.ttl"))
			tests = append(tests, unlisted(t, dir, tests)...)
			if len(tests) != suite.want {
				t.Errorf("found %d tests in the %s manifests, want %d", len(tests), suite.dir, suite.want)
			}
			passed := 0
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					runW3C(t, tc)
					passed++
				})
			}
			t.Logf("W3C SHACL %s: %d of %d tests pass", suite.dir, passed, len(tests))
		})
	}
}

// unlisted returns the tests of the files under dir that no manifest
// includes: the sparql folder holds component/nodeValidator-001.ttl, which
// its manifest leaves out.
func unlisted(t *testing.T, dir string, listed []*w3cTest) []*w3cTest {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*w3cTest
	for _, f := range files {
		if filepath.Base(f) == "manifest.ttl" || slices.ContainsFunc(listed, func(tc *w3cTest) bool { return tc.file == f }) {
			continue
		}
		out = append(out, w3cTests(t, f)...)
	}
	return out
}

// runW3C runs one test of the suite; it returns only when the test passes.
func runW3C(t *testing.T, tc *w3cTest) {
	graphOf := func(path string) []rdf.Triple {
		if path == tc.file {
			return tc.triples
		}
		return loadFile(t, path)
	}
	shapes, err := Compile(graphOf(tc.shapes))
	if tc.expectedError {
		if err == nil {
			t.Fatal("Compile accepted shapes the suite says are invalid")
		}
		t.Logf("refused, as the suite expects: %v", err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	rep := validate(t, shapes, NewGraph(graphOf(tc.data)))
	var got []string
	for _, r := range rep.Results {
		got = append(got, gotKey(r))
	}
	want := slices.Clone(tc.results)
	slices.Sort(got)
	slices.Sort(want)
	if rep.Conforms != tc.conforms || !slices.Equal(got, want) {
		t.Fatalf("conforms %v, want %v\ngot:\n  %s\nwant:\n  %s", rep.Conforms, tc.conforms,
			strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
