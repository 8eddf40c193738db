package syntax_test

// The W3C SPARQL 1.0 and 1.1 syntax tests, read from ../shared: every
// positive test must parse and every negative one be refused with a
// *SyntaxError. The manifests are read with rdf.Parse, following
// mf:include from the suites' top manifests.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

const (
	mfNS = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	qtNS = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#"
	utNS = "http://www.w3.org/2009/sparql/tests/test-update#"
)

// syntaxKinds are the manifests' syntax test types: whether the test is
// positive and whether its text is an update request.
var syntaxKinds = map[string]struct{ positive, update bool }{
	"PositiveSyntaxTest":         {true, false},
	"PositiveSyntaxTest11":       {true, false},
	"NegativeSyntaxTest":         {false, false},
	"NegativeSyntaxTest11":       {false, false},
	"PositiveUpdateSyntaxTest11": {true, true},
	"NegativeUpdateSyntaxTest11": {false, true},
}

// wantSyntax and wantEval are the numbers of tests of each type the
// manifests list, counted with grep over the manifests (a test type
// written once per test; dawg-optional-filter-005-simplified is defined
// but left out of its mf:entries), so that a manifest reader that lost
// entries cannot pass for one that ran them all.
var (
	wantSyntax = map[string]int{
		"PositiveSyntaxTest": 149, "PositiveSyntaxTest11": 66, "PositiveUpdateSyntaxTest11": 42,
		"NegativeSyntaxTest": 50, "NegativeSyntaxTest11": 48, "NegativeUpdateSyntaxTest11": 13,
	}
	wantEval = map[string]int{"QueryEvaluationTest": 592, "UpdateEvaluationTest": 94, "CSVResultFormatTest": 3}
)

// w3cTest is one entry of a manifest.
type w3cTest struct {
	name string // the action's path relative to the suites' folder
	kind string // local name of its mf: type
	file string // the action's file (syntax tests) or query/request file
}

// collect reads the manifest at path and those it includes and returns
// their entries.
func collect(t *testing.T, root, path string) []w3cTest {
	m := rdftest.ReadManifest(t, path)
	self := m.Self(t)
	var tests []w3cTest
	for _, inc := range m.Props[self][mfNS+"include"] {
		for _, sub := range m.List(t, inc) {
			tests = append(tests, collect(t, root, rdftest.URLPath(t, sub.Value))...)
		}
	}
	for _, l := range m.Props[self][mfNS+"entries"] {
		for _, e := range m.List(t, l) {
			var kind string
			for _, ty := range m.Props[e][rdf.RDFType] {
				if k, ok := strings.CutPrefix(ty.Value, mfNS); ok {
					kind = k
				}
			}
			actions := m.Props[e][mfNS+"action"]
			_, isSyntax := syntaxKinds[kind]
			if len(actions) != 1 {
				if isSyntax {
					t.Fatalf("%s: %s has %d mf:action", m.URL, e, len(actions))
				}
				continue
			}
			a := actions[0]
			tt := w3cTest{kind: kind}
			if a.Kind == rdf.IRI {
				tt.file = rdftest.URLPath(t, a.Value)
			} else {
				for _, p := range []string{qtNS + "query", utNS + "request"} {
					if q := m.Props[a][p]; len(q) == 1 {
						tt.file = rdftest.URLPath(t, q[0].Value)
					}
				}
			}
			rel, err := filepath.Rel(root, tt.file)
			if err != nil || tt.file == "" {
				rel = e.Value
			}
			tt.name = filepath.ToSlash(rel)
			tests = append(tests, tt)
		}
	}
	return tests
}

// safe runs f and turns a panic into an error.
func safe(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC: %v", r)
		}
	}()
	return f()
}

func parse(text, base string, update bool) error {
	return safe(func() error {
		var err error
		if update {
			_, err = syntax.ParseUpdate(text, base)
		} else {
			_, err = syntax.ParseQuery(text, base)
		}
		return err
	})
}

// TestW3CSyntax runs every syntax test of the SPARQL 1.0 and 1.1 suites.
func TestW3CSyntax(t *testing.T) {
	root := shared.Dir(t, "reference", "w3c-rdf-tests", "sparql")
	var tests []w3cTest
	tests = append(tests, collect(t, root, filepath.Join(root, "sparql10", "manifest.ttl"))...)
	tests = append(tests, collect(t, root, filepath.Join(root, "sparql11", "manifest-all.ttl"))...)
	counts := map[string]int{}
	passed := map[string]int{}
	for _, tt := range tests {
		k, ok := syntaxKinds[tt.kind]
		if !ok {
			continue
		}
		counts[tt.kind]++
		ok = t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			// Some update tests are typed as query syntax tests (the
			// delete-insert ones): the extension .ru tells.
			err = parse(string(data), rdftest.FileURL(tt.file), k.update || strings.HasSuffix(tt.file, ".ru"))
			var se *syntax.SyntaxError
			switch {
			case err != nil && strings.HasPrefix(err.Error(), "PANIC"):
				t.Fatalf("%v\n%s", err, data)
			case k.positive && err != nil:
				t.Fatalf("refused: %v\n%s", err, data)
			case !k.positive && err == nil:
				t.Fatalf("accepted:\n%s", data)
			case !k.positive && !errors.As(err, &se):
				t.Fatalf("refused with %T, not a *SyntaxError: %v", err, err)
			case !k.positive && (se.Line < 1 || se.Col < 1):
				t.Fatalf("refused at line %d, column %d: %v", se.Line, se.Col, err)
			}
		})
		if ok {
			passed[tt.kind]++
		}
	}
	t.Logf("syntax tests by type: %v; passed: %v", counts, passed)
	if !reflect.DeepEqual(counts, wantSyntax) {
		t.Errorf("the manifests list %v, want %v", counts, wantSyntax)
	}
}

// TestW3CEvalParse parses the query or update request of every evaluation
// test of the suites (all must parse: evaluation tests are positive), so
// that the evaluator's harness finds none refused by the syntax.
func TestW3CEvalParse(t *testing.T) {
	root := shared.Dir(t, "reference", "w3c-rdf-tests", "sparql")
	var tests []w3cTest
	tests = append(tests, collect(t, root, filepath.Join(root, "sparql10", "manifest.ttl"))...)
	tests = append(tests, collect(t, root, filepath.Join(root, "sparql11", "manifest-all.ttl"))...)
	counts := map[string]int{}
	for _, tt := range tests {
		if _, ok := syntaxKinds[tt.kind]; ok || tt.file == "" || !strings.HasSuffix(tt.file, ".rq") && !strings.HasSuffix(tt.file, ".ru") {
			continue
		}
		counts[tt.kind]++
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if err := parse(string(data), rdftest.FileURL(tt.file), strings.HasSuffix(tt.file, ".ru")); err != nil {
				t.Fatalf("refused: %v\n%s", err, data)
			}
		})
	}
	t.Logf("evaluation tests parsed, by type: %v", counts)
	if !reflect.DeepEqual(counts, wantEval) {
		t.Errorf("the manifests list %v, want %v", counts, wantEval)
	}
}
