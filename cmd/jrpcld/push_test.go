package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/internal/rdftest"
	"github.com/jrpcld/jrpcld/jlog"
	"github.com/jrpcld/jrpcld/rdf"
)

// upload is one request a stand-in Graph Store received.
type upload struct {
	method, graph, contentType string
	body                       []byte
}

// graphStore is a stand-in Graph Store endpoint: it records each request
// and answers with the next of statuses (204 once they are used up).
type graphStore struct {
	mu       sync.Mutex
	uploads  []upload
	statuses []int
}

func (g *graphStore) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.uploads = append(g.uploads, upload{r.Method, r.URL.Query().Get("graph"), r.Header.Get("Content-Type"), body})
	status := http.StatusNoContent
	if len(g.statuses) > 0 {
		status, g.statuses = g.statuses[0], g.statuses[1:]
	}
	w.WriteHeader(status)
	if status >= 400 {
		io.WriteString(w, "the store says no")
	}
}

// TestPushLogs: rdf --push uploads each log's graph as the named graph of
// its IRI, the same graph rdf --format ntriples writes; a transient failure
// is retried, a refusal is one clear line with exit 2.
func TestPushLogs(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "session.jsonl")
	code, nt, errOut := jrpcld(t, "", "rdf", "--format", "ntriples", "-q", file)
	if code != exitOK {
		t.Fatalf("rdf: exit %d: %s", code, errOut)
	}
	want, _, err := rdf.Parse([]byte(nt), rdf.NTriples, "")
	if err != nil {
		t.Fatal(err)
	}

	store := &graphStore{statuses: []int{http.StatusServiceUnavailable}}
	srv := httptest.NewServer(store)
	defer srv.Close()
	code, out, errOut := jrpcld(t, "", "rdf", "--push", srv.URL+"/store", file)
	if code != exitOK || errOut != "" || !strings.Contains(out, "pushed as <"+jlog.DefaultLogIRI(file)+">") {
		t.Fatalf("rdf --push: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if len(store.uploads) != 2 {
		t.Fatalf("%d requests, want 2 (one refused with 503, then its retry)", len(store.uploads))
	}
	u := store.uploads[1]
	if u.method != http.MethodPut || u.graph != jlog.DefaultLogIRI(file) || !strings.HasPrefix(u.contentType, "application/n-triples") {
		t.Errorf("request: %s graph=%q %s", u.method, u.graph, u.contentType)
	}
	got, _, err := rdf.Parse(u.body, rdf.NTriples, "")
	if err != nil {
		t.Fatalf("the uploaded graph: %v", err)
	}
	if ok, diff := rdftest.IsomorphicQuads(got, want); !ok {
		t.Errorf("the uploaded graph is not the one rdf writes:\n%s", diff)
	}

	refusing := httptest.NewServer(&graphStore{statuses: []int{http.StatusBadRequest}})
	defer refusing.Close()
	code, _, errOut = jrpcld(t, "", "rdf", "--push", refusing.URL, file)
	if code != exitUsage || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "400") || !strings.Contains(errOut, "the store says no") {
		t.Errorf("refused: exit %d, stderr %q", code, errOut)
	}

	for _, args := range [][]string{
		{"rdf", "--push", srv.URL, "-"},
		{"rdf", "--push", srv.URL, "-o", filepath.Join(t.TempDir(), "x.ttl"), file},
	} {
		if code, _, errOut := jrpcld(t, "", args...); code != exitUsage || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestPushOntologies: build --push uploads each built block's ontology.ttl
// to the graph the OGC tool chain names urn:ogc:bblocks/ID/ontology.
func TestPushOntologies(t *testing.T) {
	store := &graphStore{}
	srv := httptest.NewServer(store)
	defer srv.Close()
	dir := t.TempDir()
	code, out, errOut := jrpcld(t, "", "build", "-o", dir, "--push", srv.URL)
	if code != exitOK || !strings.Contains(out, "pushed to") || !strings.Contains(errOut, "without the entailments") {
		t.Fatalf("build --push: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if len(store.uploads) == 0 {
		t.Fatal("no ontology uploaded")
	}
	for _, u := range store.uploads {
		id := strings.TrimSuffix(strings.TrimPrefix(u.graph, "urn:ogc:bblocks/"), "/ontology")
		if u.method != http.MethodPut || id == u.graph || !strings.HasPrefix(u.contentType, "text/turtle") {
			t.Errorf("request: %s graph=%q %s", u.method, u.graph, u.contentType)
		}
		if _, _, err := rdf.Parse(u.body, rdf.Turtle, ""); err != nil {
			t.Errorf("%s: the uploaded ontology does not parse: %v", u.graph, err)
		}
	}
}
