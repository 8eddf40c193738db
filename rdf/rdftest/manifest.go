package rdftest

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

// mfManifest is the class of a W3C test manifest.
const mfManifest = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#Manifest"

// Manifest is a W3C test manifest (Turtle) read whole, its statements by
// subject and predicate, for the readers of the suites in ../shared.
type Manifest struct {
	// URL is the manifest's file URL, the base of its relative IRIs.
	URL string
	// Props holds the objects of each subject's predicates, in order.
	Props map[rdf.Term]map[string][]rdf.Term
}

// ReadManifest reads the manifest at path, failing the test when it cannot.
func ReadManifest(t testing.TB, path string) Manifest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := Manifest{URL: FileURL(path), Props: map[rdf.Term]map[string][]rdf.Term{}}
	qs, _, err := rdf.Parse(data, rdf.Turtle, m.URL)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, q := range qs {
		if m.Props[q.S] == nil {
			m.Props[q.S] = map[string][]rdf.Term{}
		}
		m.Props[q.S][q.P] = append(m.Props[q.S][q.P], q.O)
	}
	return m
}

// Self returns the node typed mf:Manifest: <> in most files, a blank node
// ([]) in a few (sparql10's construct and bnode-coreference), which a
// reader looking only at the file's own IRI would miss. Two such nodes
// fail the test; none gives the file's IRI.
func (m Manifest) Self(t testing.TB) rdf.Term {
	t.Helper()
	self := rdf.NewIRI(m.URL)
	found := false
	for s, props := range m.Props {
		for _, ty := range props[rdf.RDFType] {
			if ty != rdf.NewIRI(mfManifest) {
				continue
			}
			if found && s != self {
				t.Fatalf("%s: two manifests, %s and %s", m.URL, self, s)
			}
			self, found = s, true
		}
	}
	return self
}

// List returns the members of the RDF list starting at head.
func (m Manifest) List(t testing.TB, head rdf.Term) []rdf.Term {
	t.Helper()
	var out []rdf.Term
	for head != rdf.NewIRI(rdf.RDFNil) {
		first, rest := m.Props[head][rdf.RDFFirst], m.Props[head][rdf.RDFRest]
		if len(first) != 1 || len(rest) != 1 || len(out) > 10000 {
			t.Fatalf("%s: malformed list at %s", m.URL, head)
		}
		out = append(out, first[0])
		head = rest[0]
	}
	return out
}

// FileURL returns the file URL of path, made absolute.
func FileURL(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// URLPath returns the path a file URL names, failing the test for any
// other IRI.
func URLPath(t testing.TB, iri string) string {
	t.Helper()
	u, err := url.Parse(iri)
	if err != nil || u.Scheme != "file" {
		t.Fatalf("%s is not a file URL", iri)
	}
	return filepath.FromSlash(u.Path)
}
