package rdf_test

// The W3C RDF 1.1 test suites (https://w3c.github.io/rdf-tests/) for
// Turtle, N-Triples, N-Quads and RDF/XML, read from ../shared. The
// manifests are read with rdf.Parse itself; every test they list runs.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/rdf/rdfxml"
)

const (
	// w3cBase is where the suites are published; the manifests' relative
	// IRIs, and so every test's base IRI, resolve against it.
	w3cBase = "https://w3c.github.io/rdf-tests/rdf/rdf11/"
	mfNS    = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	rdftNS  = "http://www.w3.org/ns/rdftest#"
)

// w3cSuites are the suites run, with the number of tests each manifest
// lists in mf:entries (counted with awk; the RDF/XML manifest comments out
// 7 more, which are not run), so that a manifest reader that lost entries
// cannot pass for one that ran them all.
var w3cSuites = []struct {
	dir   string
	tests int
	parse func(data []byte, base string) ([]rdf.Quad, map[string]string, error)
}{
	{"rdf-turtle", 313, func(d []byte, b string) ([]rdf.Quad, map[string]string, error) { return rdf.Parse(d, rdf.Turtle, b) }},
	{"rdf-n-triples", 70, func(d []byte, b string) ([]rdf.Quad, map[string]string, error) { return rdf.Parse(d, rdf.NTriples, b) }},
	{"rdf-n-quads", 87, func(d []byte, b string) ([]rdf.Quad, map[string]string, error) { return rdf.Parse(d, rdf.NQuads, b) }},
	{"rdf-xml", 166, func(d []byte, b string) ([]rdf.Quad, map[string]string, error) {
		ts, prefixes, err := rdfxml.Parse(d, b)
		qs := make([]rdf.Quad, len(ts))
		for i, t := range ts {
			qs[i].Triple = t
		}
		return qs, prefixes, err
	}},
}

// w3cSkip names the W3C tests that are not run, each with the reason.
// It is empty: every test of the four suites passes.
var w3cSkip = map[string]string{}

// w3cTest is one entry of a manifest.
type w3cTest struct {
	name   string // mf:name
	kind   string // the local name of its rdft: type, e.g. TestTurtleEval
	action string // the input's IRI, also its base IRI
	result string // the expected N-Triples' IRI (evaluation tests)
}

// readManifest reads the manifest of the suite in dir, published at
// w3cBase+suite+"/manifest.ttl", and returns its entries in order.
func readManifest(t *testing.T, dir, suite string) []w3cTest {
	t.Helper()
	url := w3cBase + suite + "/manifest.ttl"
	data, err := os.ReadFile(filepath.Join(dir, "manifest.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	qs, _, err := rdf.Parse(data, rdf.Turtle, url)
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	props := map[rdf.Term]map[string][]rdf.Term{}
	for _, q := range qs {
		if props[q.S] == nil {
			props[q.S] = map[string][]rdf.Term{}
		}
		props[q.S][q.P] = append(props[q.S][q.P], q.O)
	}
	one := func(s rdf.Term, p string, want rdf.Kind, optional bool) string {
		os := props[s][p]
		if optional && len(os) == 0 {
			return ""
		}
		if len(os) != 1 || os[0].Kind != want {
			t.Fatalf("%s: %s has %v for <%s>, want one term of kind %d", url, s, os, p, want)
		}
		return os[0].Value
	}
	entries := props[rdf.NewIRI(url)][mfNS+"entries"]
	if len(entries) != 1 {
		t.Fatalf("%s: %d mf:entries lists", url, len(entries))
	}
	var tests []w3cTest
	for l := entries[0]; l != rdf.NewIRI(rdf.RDFNil); {
		e := props[l][rdf.RDFFirst]
		r := props[l][rdf.RDFRest]
		if len(e) != 1 || len(r) != 1 || len(tests) > 10000 {
			t.Fatalf("%s: malformed mf:entries list at %s", url, l)
		}
		var kind string
		for _, ty := range props[e[0]][rdf.RDFType] {
			if k, ok := strings.CutPrefix(ty.Value, rdftNS); ok {
				kind = k
			}
		}
		tests = append(tests, w3cTest{
			name:   one(e[0], mfNS+"name", rdf.Literal, false),
			kind:   kind,
			action: one(e[0], mfNS+"action", rdf.IRI, false),
			result: one(e[0], mfNS+"result", rdf.IRI, true),
		})
		l = r[0]
	}
	return tests
}

// w3cFile reads the file published at iri from the local copy under root.
func w3cFile(t *testing.T, root, iri string) []byte {
	t.Helper()
	rel, ok := strings.CutPrefix(iri, w3cBase)
	if !ok {
		t.Fatalf("%s is not under %s", iri, w3cBase)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// safeParse runs parse and turns a panic into an error, so that a panic on
// one test is reported as that test's failure.
func safeParse(parse func([]byte, string) ([]rdf.Quad, map[string]string, error), data []byte, base string) (qs []rdf.Quad, prefixes map[string]string, err error) {
	defer func() {
		if e := recover(); e != nil {
			qs, prefixes, err = nil, nil, fmt.Errorf("PANIC: %v", e)
		}
	}()
	return parse(data, base)
}

// TestW3C runs every test of the W3C RDF 1.1 suites: positive syntax tests
// must parse, negative ones must be refused with an error, and evaluation
// tests must give a graph isomorphic to the expected N-Triples (read by
// rdf.Parse and, independently, by knakk/rdf, which must agree). Every graph
// read is then written as Turtle, N-Triples and N-Quads and must read back
// isomorphic.
func TestW3C(t *testing.T) {
	root := shared.Dir(t, "reference", "w3c-rdf-tests", "rdf", "rdf11")
	for _, suite := range w3cSuites {
		t.Run(suite.dir, func(t *testing.T) {
			tests := readManifest(t, filepath.Join(root, suite.dir), suite.dir)
			if len(tests) != suite.tests {
				t.Errorf("the manifest lists %d tests, want %d", len(tests), suite.tests)
			}
			counts := map[string]int{}
			passed, skipped := 0, 0
			for _, tt := range tests {
				counts[tt.kind]++
				if why, skip := w3cSkip[suite.dir+"/"+tt.name]; skip {
					skipped++
					t.Logf("%s skipped: %s", tt.name, why)
					continue
				}
				if t.Run(tt.name, func(t *testing.T) { runW3C(t, root, suite.parse, tt) }) {
					passed++
				}
			}
			t.Logf("%s: %d tests %v, %d passed, %d skipped", suite.dir, len(tests), counts, passed, skipped)
		})
	}
}

func runW3C(t *testing.T, root string, parse func([]byte, string) ([]rdf.Quad, map[string]string, error), tt w3cTest) {
	data := w3cFile(t, root, tt.action)
	got, prefixes, err := safeParse(parse, data, tt.action)
	switch {
	case strings.HasSuffix(tt.kind, "NegativeSyntax") || strings.HasSuffix(tt.kind, "NegativeEval"):
		if err == nil {
			t.Fatalf("accepted (%d statements):\n%s", len(got), data)
		}
		if strings.HasPrefix(err.Error(), "PANIC") {
			t.Fatalf("%v\n%s", err, data)
		}
		return
	case strings.HasSuffix(tt.kind, "PositiveSyntax"):
		if err != nil {
			t.Fatalf("refused: %v\n%s", err, data)
		}
	case strings.HasSuffix(tt.kind, "Eval"):
		if err != nil {
			t.Fatalf("refused: %v\n%s", err, data)
		}
		if tt.result == "" {
			t.Fatal("evaluation test without mf:result")
		}
		nt := w3cFile(t, root, tt.result)
		want, _, err := rdf.Parse(nt, rdf.NTriples, "")
		if err != nil {
			t.Fatalf("expected N-Triples: %v", err)
		}
		other, err := rdftest.ParseNTriples(nt)
		if err != nil {
			t.Fatalf("expected N-Triples: %v", err)
		}
		if ok, diff := rdftest.Isomorphic(quadTriples(want), other); !ok {
			t.Fatalf("rdf.Parse and knakk/rdf read the expected N-Triples differently:\n%s", diff)
		}
		if ok, diff := rdftest.IsomorphicQuads(got, want); !ok {
			t.Fatalf("not the expected graph:\n%s\ninput:\n%s", diff, data)
		}
	default:
		t.Fatalf("unknown test type rdft:%s", tt.kind)
	}
	checkWriters(t, got, prefixes)
}

// checkWriters writes qs with each writer and reads the text back: the
// Turtle (with the document's own prefixes) and N-Triples of the default
// graph, and the N-Quads of the whole dataset.
func checkWriters(t *testing.T, qs []rdf.Quad, prefixes map[string]string) {
	t.Helper()
	qs = relabel(qs)
	var graphs []rdf.Term // in order of first appearance
	byGraph := map[rdf.Term][]rdf.Triple{}
	for _, q := range qs {
		if _, ok := byGraph[q.G]; !ok {
			graphs = append(graphs, q.G)
		}
		byGraph[q.G] = append(byGraph[q.G], q.Triple)
	}
	var nq bytes.Buffer
	w := rdf.NewNQuadsWriter(&nq)
	for _, g := range graphs {
		if err := w.WriteGroup(g, byGraph[g]); err != nil {
			t.Fatalf("NQuadsWriter: %v", err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	back, _, err := rdf.Parse(nq.Bytes(), rdf.NQuads, "")
	if err != nil {
		t.Fatalf("N-Quads written do not read back: %v\n%s", err, nq.Bytes())
	}
	if ok, diff := rdftest.IsomorphicQuads(back, qs); !ok {
		t.Fatalf("N-Quads written read back as another dataset:\n%s\n%s", diff, nq.Bytes())
	}
	if slices.ContainsFunc(qs, func(q rdf.Quad) bool { return !q.InDefaultGraph() }) {
		return // Turtle and N-Triples hold one graph
	}
	ts := quadTriples(qs)

	var nt bytes.Buffer
	ntw := rdf.NewNTriplesWriter(&nt)
	if err := ntw.WriteGroup(ts); err != nil {
		t.Fatalf("NTriplesWriter: %v", err)
	}
	if err := ntw.Close(); err != nil {
		t.Fatal(err)
	}
	backNT, _, err := rdf.Parse(nt.Bytes(), rdf.NTriples, "")
	if err != nil {
		t.Fatalf("N-Triples written do not read back: %v\n%s", err, nt.Bytes())
	}
	if ok, diff := rdftest.Isomorphic(quadTriples(backNT), ts); !ok {
		t.Fatalf("N-Triples written read back as another graph:\n%s\n%s", diff, nt.Bytes())
	}

	var ps []rdf.Prefix
	for name, iri := range prefixes {
		ps = append(ps, rdf.Prefix{Name: name, IRI: iri})
	}
	slices.SortFunc(ps, func(a, b rdf.Prefix) int { return strings.Compare(a.Name, b.Name) })
	var ttl bytes.Buffer
	tw := rdf.NewTurtleWriter(&ttl, ps)
	if err := tw.WriteGroup(ts); err != nil {
		t.Fatalf("TurtleWriter: %v", err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	backTTL, _, err := rdf.Parse(ttl.Bytes(), rdf.Turtle, "")
	if err != nil {
		t.Fatalf("Turtle written does not read back: %v\n%s", err, ttl.Bytes())
	}
	if ok, diff := rdftest.Isomorphic(quadTriples(backTTL), ts); !ok {
		t.Fatalf("Turtle written reads back as another graph:\n%s\n%s", diff, ttl.Bytes())
	}
}

// relabel gives the blank nodes of qs labels the writers accept (those the
// readers make start with '#'), one label per node.
func relabel(qs []rdf.Quad) []rdf.Quad {
	labels := map[string]string{}
	term := func(x rdf.Term) rdf.Term {
		if x.Kind != rdf.Blank || x.Value == "" {
			return x
		}
		l, ok := labels[x.Value]
		if !ok {
			l = fmt.Sprintf("n%d", len(labels))
			labels[x.Value] = l
		}
		return rdf.NewBlank(l)
	}
	out := make([]rdf.Quad, len(qs))
	for i, q := range qs {
		out[i] = rdf.Quad{Triple: rdf.Triple{S: term(q.S), P: q.P, O: term(q.O)}, G: term(q.G)}
	}
	return out
}
