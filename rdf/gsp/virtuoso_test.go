//go:build virtuoso

package gsp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/virtuosotest"
	"github.com/jrpcld/jrpcld/rdf"
)

// TestVirtuoso uploads to Virtuoso, the triple store Debian ships: with
// Digest credentials at /sparql-graph-crud-auth and without at
// /sparql-graph-crud (updates granted to the anonymous user), PUT
// replacing and POST adding, a body past MemoryLimit from a temporary
// file; Count, through /sparql and /sparql-auth (Digest too), says what
// the store holds. Wrong credentials are the 401 naming Digest. It runs
// with the build tag virtuoso, as .ci/run does.
func TestVirtuoso(t *testing.T) {
	v := virtuosotest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	const g1, g2 = "http://example.com/log/1", "http://example.com/log/2"
	digest := &Client{User: virtuosotest.User, Password: virtuosotest.Password, MemoryLimit: 64}
	anonymous := &Client{}
	big := strings.Repeat("<http://a> <http://p> \"é\" .\n<http://a> <http://q> \"2026-11-20T09:00:00.123Z\"^^<http://www.w3.org/2001/XMLSchema#dateTime> .\n", 2) +
		"<http://b> <http://p> \"x\" .\n"
	steps := []struct {
		name     string
		cl       *Client
		endpoint string
		post     bool
		graph    string
		body     string
		want     int64 // statements the graph then holds
	}{
		{"put with Digest, spooled", digest, v.GraphStoreURL(), false, g1, big, 3},
		{"put again replaces", digest, v.GraphStoreURL(), false, g1, "<http://c> <http://p> \"1\" .\n", 1},
		{"post adds", digest, v.GraphStoreURL(), true, g1, "<http://d> <http://p> \"2\" .\n<http://c> <http://p> \"1\" .\n", 2},
		{"put anonymous", anonymous, v.AnonymousGraphStoreURL(), false, g2, "<http://e> <http://p> \"3\" .\n", 1},
	}
	for _, s := range steps {
		up := s.cl.Put
		if s.post {
			up = s.cl.Post
		}
		res, err := up(ctx, s.endpoint, s.graph, rdf.NTriples, text(s.body))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK && res.StatusCode != http.StatusNoContent {
			t.Errorf("%s: %+v", s.name, res)
		}
		for _, q := range []struct {
			cl  *Client
			url string
		}{{anonymous, v.QueryURL()}, {digest, v.URL + "/sparql-auth"}} {
			if n, err := q.cl.Count(ctx, q.url, s.graph); err != nil || n != s.want {
				t.Errorf("%s: Count at %s = %d, %v; want %d", s.name, q.url, n, err, s.want)
			}
		}
	}
	counts, err := v.Counts(ctx, []string{g1, g2})
	if err != nil || counts[g1] != 2 || counts[g2] != 1 {
		t.Errorf("the store holds %v, %v", counts, err)
	}

	wrong := &Client{User: virtuosotest.User, Password: "not-the-password"}
	_, err = wrong.Put(ctx, v.GraphStoreURL(), g1, rdf.NTriples, text("<http://x> <http://p> \"9\" .\n"))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusUnauthorized || !strings.Contains(se.Challenge, `Digest realm=`) || strings.Contains(err.Error(), "not-the-password") {
		t.Errorf("wrong password: %v", err)
	}
	if n, err := anonymous.Count(ctx, v.QueryURL(), g1); err != nil || n != 2 {
		t.Errorf("after a refused upload: %d, %v", n, err)
	}
}
