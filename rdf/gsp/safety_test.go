package gsp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/fakestore"
	"github.com/jrpcld/jrpcld/rdf"
)

// TestRedirects: an upload is done only when the store answers 200, 201 or
// 204 to the PUT or POST itself. A 307 or 308 to the same origin is
// followed with the same method and body; any other redirect is an error
// that says nothing is known to be stored, and a redirect to another
// origin sends it nothing (issue 23, item 4).
func TestRedirects(t *testing.T) {
	other := &fakestore.Store{Answers: []http.HandlerFunc{fakestore.Status(200, "a page")}}
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()
	redirect := func(code int, to string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", to)
			w.WriteHeader(code)
		}
	}
	cases := []struct {
		name     string
		code     int
		to       string // "" for a path of the same server
		stored   bool
		errWants []string
	}{
		{"302 to another host", 302, otherSrv.URL + "/elsewhere", false, []string{"302 Found", "another origin", "nothing is known to be stored"}},
		{"307 to another host", 307, otherSrv.URL + "/elsewhere", false, []string{"307 Temporary Redirect", "another origin"}},
		{"308 to another host", 308, otherSrv.URL + "/elsewhere", false, []string{"308 Permanent Redirect", "another origin"}},
		{"301 on the same host", 301, "", false, []string{"301 Moved Permanently", "into a GET"}},
		{"302 on the same host", 302, "", false, []string{"302 Found", "into a GET"}},
		{"303 on the same host", 303, "", false, []string{"303 See Other", "into a GET"}},
		{"307 on the same host", 307, "", true, nil},
		{"308 on the same host", 308, "", true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(other.Seen())
			rec := &fakestore.Store{}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			to := c.to
			if to == "" {
				to = "/moved/store?graph=http%3A%2F%2Fexample.com%2Fg"
			}
			rec.Answers = []http.HandlerFunc{redirect(c.code, to), fakestore.Status(201, "")}
			cl := fast()
			cl.User, cl.Password = "alice", "s3cret"
			up, err := cl.Put(context.Background(), srv.URL+"/store", "http://example.com/g", rdf.NTriples, writeText(triples, nil))
			seen := rec.Seen()
			if c.stored {
				if err != nil {
					t.Fatal(err)
				}
				if len(seen) != 2 || seen[1].Method != http.MethodPut || seen[1].Body != triples || seen[1].RawQuery != "graph=http%3A%2F%2Fexample.com%2Fg" || up.StatusCode != 201 {
					t.Errorf("requests %+v; want the PUT again at the new place", seen)
				}
				return
			}
			var re *RedirectError
			if !errors.As(err, &re) || up != nil {
				t.Fatalf("error %v (%T), upload %v; want a *RedirectError", err, err, up)
			}
			for _, w := range c.errWants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "alice") {
				t.Errorf("error %q shows the credentials", err)
			}
			if len(seen) != 1 {
				t.Errorf("%d requests to the store, want 1", len(seen))
			}
			if n := len(other.Seen()) - before; n != 0 {
				t.Errorf("%d requests went to the other host", n)
			}
		})
	}
}

// TestNotStoredAnswers: a 2xx other than 200, 201 and 204 (such as 202
// Accepted) does not say the graph was stored: an error, not retried.
func TestNotStoredAnswers(t *testing.T) {
	for _, code := range []int{202, 203, 205, 206} {
		rec := &fakestore.Store{Answers: []http.HandlerFunc{fakestore.Status(code, "")}}
		srv := httptest.NewServer(rec)
		up, err := fast().Put(context.Background(), srv.URL, "http://example.com/g", rdf.NTriples, writeText(triples, nil))
		srv.Close()
		var se *StatusError
		if !errors.As(err, &se) || se.StatusCode != code || up != nil || !strings.Contains(err.Error(), "did not say the graph was stored") {
			t.Errorf("%d: error %v, upload %v; want a StatusError", code, err, up)
		}
		if n := len(rec.Seen()); n != 1 {
			t.Errorf("%d: %d requests, want 1", code, n)
		}
	}
}

// TestTimeouts: a store that takes the connection and never answers ends
// the upload after Timeout, without a retry; a connection that cannot be
// made ends after ConnectTimeout, retried (issue 23, item 5). Count is
// bounded the same way.
func TestTimeouts(t *testing.T) {
	addr := fakestore.Silent(t)
	cl := fast()
	cl.Timeout = 300 * time.Millisecond
	start := time.Now()
	up, err := cl.Put(context.Background(), "http://"+addr+"/store", "http://example.com/g", rdf.NTriples, writeText(triples, nil))
	var te *TimeoutError
	if !errors.As(err, &te) || te.Connect || te.After != 300*time.Millisecond || up != nil || !strings.Contains(err.Error(), "no answer within 300ms") {
		t.Errorf("error %v (%T), want a TimeoutError after 300ms", err, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if strings.Contains(err.Error(), "attempts") {
		t.Errorf("error %q: a request that timed out was retried", err)
	}
	_, err = cl.Count(context.Background(), "http://"+addr+"/query", "http://example.com/g")
	if !errors.As(err, &te) || te.Connect {
		t.Errorf("Count: error %v, want a TimeoutError", err)
	}

	full := fakestore.Unreachable(t)
	cl = fast()
	cl.ConnectTimeout, cl.Attempts = 200*time.Millisecond, 2
	start = time.Now()
	_, err = cl.Put(context.Background(), "http://"+full+"/store", "http://example.com/g", rdf.NTriples, writeText(triples, nil))
	if !errors.As(err, &te) || !te.Connect || !strings.Contains(err.Error(), "no connection within 200ms") || !strings.Contains(err.Error(), "after 2 attempts") {
		t.Errorf("error %v (%T), want a connection TimeoutError after 2 attempts", err, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestNoUnsolicitedLog: a server that sends more after its answer (as
// Virtuoso does when it answers a challenge before reading the body, then
// reads the body as a request) makes net/http log "Unsolicited response
// received on idle HTTP channel" on a kept-alive connection: the package's
// client keeps none, and nothing is logged (issue 23, item 19).
func TestNoUnsolicitedLog(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
					return
				}
				io.WriteString(c, "HTTP/1.1 204 No Content\r\n\r\n")
				time.Sleep(50 * time.Millisecond)
				io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
				time.Sleep(200 * time.Millisecond)
			}()
		}
	}()
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	for i := 0; i < 3; i++ {
		if _, err := Put(context.Background(), "http://"+ln.Addr().String()+"/store", "http://example.com/g", rdf.NTriples, writeText(triples, nil)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond)
	if logged.Len() > 0 {
		t.Errorf("net/http logged: %s", logged.String())
	}
}

// TestMediaTypeFallback: a store that answers 415 to N-Triples gets the
// same body as Turtle (N-Triples is Turtle), and the client remembers it.
func TestMediaTypeFallback(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("Content-Type") != "text/turtle" {
			w.WriteHeader(http.StatusUnsupportedMediaType)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	cl := fast()
	for i, want := range []int32{2, 3} {
		up, err := cl.Put(context.Background(), srv.URL, "http://example.com/g", rdf.NTriples, writeText(triples, nil))
		if err != nil || up.MediaType != "text/turtle" || requests.Load() != want {
			t.Errorf("upload %d: %+v, %v, %d requests in all; want text/turtle after %d", i+1, up, err, requests.Load(), want)
		}
	}
	// JSON-LD has nothing to fall back on: the 415 is the error.
	_, err := cl.Put(context.Background(), srv.URL, "http://example.com/g", rdf.JSONLD, writeText("{}", nil))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("JSON-LD: error %v, want the 415", err)
	}
}

// TestRedact: printed URLs hold no user, password or parameter value of
// the endpoint's own, and a URL that does not parse is not quoted.
func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://u:secret@h:8/s?key=secret&graph=g", "http://h:8/s?key=xxxxx&graph=g"},
		{"https://token@h/s", "https://h/s"},
		{"http://h/s?default", "http://h/s?default"},
		{"http://u:secret@h o/s", "http://..."},
		{"u:secret@[", "u:..."},
		{"%zz://u:secret@h", "%zz://..."},
		{":secret@x", "(a URL that does not parse)"},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, endpoint := range []string{"http://u:secret@h o/s", "ftp://u:secret@h/s", "http://u:secret@h/s#f", "http://u:secret@%zz/"} {
		_, err := Put(context.Background(), endpoint, "", rdf.NTriples, writeText(triples, nil))
		if err == nil || strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "u:") {
			t.Errorf("%q: error %v; want one without the credentials", endpoint, err)
		}
	}
}

// TestCount: Count reads the one solution of SPARQL JSON results; other
// answers are errors.
func TestCount(t *testing.T) {
	cases := []struct {
		name   string
		answer func(http.ResponseWriter, *http.Request)
		want   int64
		errHas string
	}{
		{"virtuoso's", fakestore.Status(200, `{ "head": { "link": [], "vars": ["n"] }, "results": { "distinct": false, "ordered": true, "bindings": [ { "n": { "type": "typed-literal", "datatype": "http://www.w3.org/2001/XMLSchema#integer", "value": "722" }} ] } }`), 722, ""},
		{"no solution", fakestore.Status(200, `{"head":{"vars":["n"]},"results":{"bindings":[]}}`), 0, "0 solutions"},
		{"not a number", fakestore.Status(200, `{"results":{"bindings":[{"n":{"value":"x"}}]}}`), 0, "not a number"},
		{"not JSON", fakestore.Status(200, `<html>`), 0, "not SPARQL JSON results"},
		{"refused", fakestore.Status(400, "bad query"), 0, "400 Bad Request: bad query"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &fakestore.Store{Answers: []http.HandlerFunc{c.answer}}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			n, err := fast().Count(context.Background(), srv.URL+"/sparql", "http://example.com/g")
			if c.errHas == "" && (err != nil || n != c.want) || c.errHas != "" && (err == nil || !strings.Contains(err.Error(), c.errHas)) {
				t.Errorf("got %d, %v; want %d, error %q", n, err, c.want, c.errHas)
			}
			seen := rec.Seen()
			if len(seen) != 1 || seen[0].Method != http.MethodGet || seen[0].Query.Get("query") != "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://example.com/g> { ?s ?p ?o } }" {
				t.Errorf("requests %+v", seen)
			}
		})
	}
}
