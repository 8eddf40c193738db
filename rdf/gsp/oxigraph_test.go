package gsp

import (
	"context"
	"errors"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/oxitest"
	"github.com/jrpcld/jrpcld/rdf"
)

// graphs asks the store for its triples by graph: "" for the default
// graph, sorted "s p o" lines.
func graphs(t *testing.T, f *oxitest.Front) map[string][]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rows, err := f.Query(ctx, `SELECT ?g ?s ?p ?o WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range rows {
		got[r["g"]] = append(got[r["g"]], r["s"]+" "+r["p"]+" "+r["o"])
	}
	for _, v := range got {
		sort.Strings(v)
	}
	return got
}

func same(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if strings.Join(v, "\n") != strings.Join(b[k], "\n") {
			return false
		}
	}
	return true
}

// TestOxigraph uploads to the Oxigraph engine behind the test shim of
// internal/testkit/oxitest (an HTTP front written for these tests, not Oxigraph's
// own server) and checks what the store then holds: PUT replaces a named
// graph or the default graph, POST adds to it, POST of N-Quads adds to the
// dataset; a body that does not parse is refused (400, the engine's
// message) and changes nothing; 503 answers are retried. After each step,
// Count gives the number of statements of each graph the store holds.
func TestOxigraph(t *testing.T) {
	f := oxitest.StartFront(t, oxitest.FrontOptions{FailFirst: 3})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const g1, g2 = "http://example.com/log/1", "http://example.com/log/2"
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	cl := &Client{Backoff: time.Millisecond, MaxBackoff: time.Millisecond}

	// The shim answers 503 to the first three uploads: two attempts are
	// not enough, the third upload's second attempt gets through.
	two := &Client{Backoff: time.Millisecond, MaxBackoff: time.Millisecond, Attempts: 2}
	_, err := two.Put(ctx, f.StoreURL(), g1, rdf.NTriples, text("<http://z> <http://p> \"0\" .\n"))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 503 || se.Attempts != 2 {
		t.Fatalf("error %v, want 503 after 2 attempts", err)
	}
	steps := []struct {
		name   string
		post   bool
		graph  string
		format rdf.Format
		body   string
		want   map[string][]string
	}{
		{"put g1 (after one more 503)", false, g1, rdf.NTriples, "<http://a> <http://p> \"1\" .\n<http://a> <http://p> \"2\" .\n",
			map[string][]string{g1: {"http://a http://p 1", "http://a http://p 2"}}},
		{"put g1 again replaces it", false, g1, rdf.Turtle, "@prefix x: <http://> .\n<http://b> <http://p> \"3\" .\n",
			map[string][]string{g1: {"http://b http://p 3"}}},
		{"post g1 adds", true, g1, rdf.NTriples, "<http://c> <http://p> \"4\" .\n",
			map[string][]string{g1: {"http://b http://p 3", "http://c http://p 4"}}},
		{"put g2 leaves g1", false, g2, rdf.JSONLD, `{"@id": "http://d", "http://p": "5"}`,
			map[string][]string{g1: {"http://b http://p 3", "http://c http://p 4"}, g2: {"http://d http://p 5"}}},
		{"put default graph", false, "", rdf.NTriples, "<http://e> <http://p> \"6\" .\n",
			map[string][]string{"": {"http://e http://p 6"}, g1: {"http://b http://p 3", "http://c http://p 4"}, g2: {"http://d http://p 5"}}},
		{"post n-quads to the dataset", true, "", rdf.NQuads, "<http://f> <http://p> \"7\" <" + g2 + "> .\n<http://g> <http://p> \"8\" .\n",
			map[string][]string{"": {"http://e http://p 6", "http://g http://p 8"}, g1: {"http://b http://p 3", "http://c http://p 4"}, g2: {"http://d http://p 5", "http://f http://p 7"}}},
	}
	for _, s := range steps {
		up := cl.Put
		if s.post {
			up = cl.Post
		}
		if _, err := up(ctx, f.StoreURL(), s.graph, s.format, text(s.body)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got := graphs(t, f)
		if !same(got, s.want) {
			t.Fatalf("%s: the store holds\n%v\nwant\n%v", s.name, got, s.want)
		}
		// Count, through the query endpoint, says what the store holds.
		for _, g := range []string{g1, g2} {
			if n, err := cl.Count(ctx, f.QueryURL(), g); err != nil || n != int64(len(got[g])) {
				t.Errorf("%s: Count(%s) = %d, %v; the store holds %d", s.name, g, n, err, len(got[g]))
			}
		}
	}

	before := graphs(t, f)
	_, err = cl.Put(ctx, f.StoreURL(), g1, rdf.Turtle, text("<http://a> <http://p> .\n"))
	if !errors.As(err, &se) || se.StatusCode != 400 || se.Attempts != 1 || se.Message == "" {
		t.Errorf("bad Turtle: error %v, want a 400 with the engine's message", err)
	} else {
		t.Logf("bad Turtle: %v", err)
	}
	if got := graphs(t, f); !same(got, before) {
		t.Errorf("a refused upload changed the store:\n%v\nwant\n%v", got, before)
	}
}
