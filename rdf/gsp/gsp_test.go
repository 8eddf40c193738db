package gsp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/fakestore"
	"github.com/jrpcld/jrpcld/rdf"
)

// writeText returns a writer of text, and counts its calls.
func writeText(text string, calls *atomic.Int32) func(io.Writer) error {
	return func(w io.Writer) error {
		if calls != nil {
			calls.Add(1)
		}
		_, err := io.WriteString(w, text)
		return err
	}
}

// fast is a client whose retries wait a millisecond.
func fast() *Client { return &Client{Backoff: time.Millisecond, MaxBackoff: time.Millisecond} }

const triples = "<http://example.com/s> <http://example.com/p> \"o\" .\n"

// TestRequestShape checks each request against the Graph Store Protocol:
// the method, ?graph=IRI (encoded) or ?default, the media type of the
// format, the body as written, sent with its length, not in chunks (which
// Virtuoso answers 201 and stores nothing of); and what Upload says of it.
func TestRequestShape(t *testing.T) {
	const iri = "http://example.com/logs/a%20b?x=1&y=é#frag"
	cases := []struct {
		name      string
		post      bool
		endpoint  string // path and query after the server's URL
		graph     string
		format    rdf.Format
		wantQuery string
		wantType  string
		wantCount int64
	}{
		{"put named turtle", false, "/store", iri, rdf.Turtle, "graph=" + url.QueryEscape(iri), "text/turtle", -1},
		{"post named ntriples", true, "/store", iri, rdf.NTriples, "graph=" + url.QueryEscape(iri), "application/n-triples", 1},
		{"put default", false, "/store", "", rdf.NTriples, "default", "application/n-triples", 1},
		{"post default jsonld", true, "/store", "", rdf.JSONLD, "default", "application/ld+json", -1},
		{"post dataset nquads", true, "/store", "", rdf.NQuads, "", "application/n-quads", 1},
		{"endpoint with a query", false, "/ds/data?key=v", "urn:x:1", rdf.NTriples, "key=v&graph=urn%3Ax%3A1", "application/n-triples", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &fakestore.Store{}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			cl := &Client{Header: http.Header{"Authorization": {"Bearer t"}}}
			put := cl.Put
			if c.post {
				put = cl.Post
			}
			up, err := put(context.Background(), srv.URL+c.endpoint, c.graph, c.format, writeText(triples, nil))
			if err != nil {
				t.Fatal(err)
			}
			seen := rec.Seen()
			if len(seen) != 1 {
				t.Fatalf("%d requests, want 1", len(seen))
			}
			r := seen[0]
			wantMethod := http.MethodPut
			if c.post {
				wantMethod = http.MethodPost
			}
			if r.Method != wantMethod || r.RawQuery != c.wantQuery || r.ContentType != c.wantType || r.Body != triples || r.Chunked || r.ContentLength != int64(len(triples)) || r.Auth != "Bearer t" {
				t.Errorf("got %s ?%s %s chunked=%v length=%d auth=%q %q\nwant %s ?%s %s chunked=false length=%d auth=\"Bearer t\" %q",
					r.Method, r.RawQuery, r.ContentType, r.Chunked, r.ContentLength, r.Auth, r.Body, wantMethod, c.wantQuery, c.wantType, len(triples), triples)
			}
			if c.graph != "" && r.Query.Get("graph") != c.graph {
				t.Errorf("graph parameter %q, want %q", r.Query.Get("graph"), c.graph)
			}
			want := Upload{Statements: c.wantCount, Bytes: int64(len(triples)), MediaType: c.wantType, StatusCode: http.StatusNoContent, Attempts: 1}
			if *up != want {
				t.Errorf("upload %+v, want %+v", *up, want)
			}
		})
	}
}

// TestRefusedBeforeSending: uploads that cannot be right make no request.
func TestRefusedBeforeSending(t *testing.T) {
	rec := &fakestore.Store{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	cases := []struct {
		name     string
		put      bool
		endpoint string
		graph    string
		format   rdf.Format
		want     string
	}{
		{"not http", true, "ftp://example.com/store", "", rdf.NTriples, "not an http or https URL"},
		{"relative", true, "/store", "", rdf.NTriples, "not an http or https URL"},
		{"fragment", true, srv.URL + "/store#x", "", rdf.NTriples, "has a fragment"},
		{"graph not absolute", true, srv.URL, "logs/a", rdf.NTriples, "not an absolute IRI"},
		{"graph with a space", true, srv.URL, "http://example.com/a b", rdf.NTriples, "not an absolute IRI"},
		{"rdfxml", true, srv.URL, "", rdf.RDFXML, "cannot upload"},
		{"nquads to a graph", false, srv.URL, "http://example.com/g", rdf.NQuads, "N-Quads name their own graphs"},
		{"nquads put", true, srv.URL, "", rdf.NQuads, "use Post"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Post
			if c.put {
				f = Put
			}
			var calls atomic.Int32
			_, err := f(context.Background(), c.endpoint, c.graph, c.format, writeText(triples, &calls))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
			if calls.Load() != 0 {
				t.Errorf("the graph was written %d times", calls.Load())
			}
		})
	}
	if n := len(rec.Seen()); n != 0 {
		t.Errorf("%d requests made", n)
	}
}

// TestRetries: 5xx and 429 are retried, with the same body each time (the
// graph is written once), until an answer 2xx or the last attempt.
func TestRetries(t *testing.T) {
	retryAfter0 := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
	}
	cases := []struct {
		name     string
		answers  []http.HandlerFunc
		attempts int
		wantN    int
		wantCode int // 0: success
	}{
		{"503 503 204", []http.HandlerFunc{fakestore.Status(503, ""), fakestore.Status(503, ""), fakestore.Status(204, "")}, 0, 3, 0},
		{"429 then 201", []http.HandlerFunc{retryAfter0, fakestore.Status(201, "")}, 0, 2, 0},
		{"500 always", []http.HandlerFunc{fakestore.Status(500, "store is down")}, 0, DefaultAttempts, 500},
		{"500 always, 2 attempts", []http.HandlerFunc{fakestore.Status(500, "")}, 2, 2, 500},
		{"502 once, no retries", []http.HandlerFunc{fakestore.Status(502, ""), fakestore.Status(204, "")}, 1, 1, 502},
		{"400 not retried", []http.HandlerFunc{fakestore.Status(400, "bad turtle"), fakestore.Status(204, "")}, 0, 1, 400},
		{"404 not retried", []http.HandlerFunc{fakestore.Status(404, ""), fakestore.Status(204, "")}, 0, 1, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &fakestore.Store{Answers: c.answers}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			cl := fast()
			cl.Attempts = c.attempts
			var calls atomic.Int32
			_, err := cl.Put(context.Background(), srv.URL, "http://example.com/g", rdf.NTriples, writeText(triples, &calls))
			seen := rec.Seen()
			if len(seen) != c.wantN || calls.Load() != 1 {
				t.Errorf("%d requests, graph written %d times; want %d requests, 1 write", len(seen), calls.Load(), c.wantN)
			}
			for i, r := range seen {
				if r.Body != triples {
					t.Errorf("request %d: body %q", i+1, r.Body)
				}
			}
			if c.wantCode == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *StatusError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *StatusError", err, err)
			}
			if se.StatusCode != c.wantCode || se.Attempts != c.wantN || se.Method != http.MethodPut || !strings.HasPrefix(se.URL, srv.URL+"?graph=") {
				t.Errorf("got %+v", se)
			}
		})
	}
}

// TestStatusErrorMessage: the server's message is kept, cut short, with
// white space folded and control characters made visible.
func TestStatusErrorMessage(t *testing.T) {
	long := strings.Repeat("é", 400) // 800 bytes
	cases := []struct{ body, want string }{
		{"line 3: unexpected '.'\n", "line 3: unexpected '.'"},
		{"a\n\n  b\tc", "a b c"},
		{"\x1b[31mred", `\x1b[31mred`},
		{long, strings.Repeat("é", 256) + "..."},
		{"x" + long, "x" + strings.Repeat("é", 255) + "..."}, // the cut falls inside a character
	}
	for _, c := range cases {
		srv := httptest.NewServer(&fakestore.Store{Answers: []http.HandlerFunc{fakestore.Status(400, c.body)}})
		_, err := Put(context.Background(), "http://u:secret@"+strings.TrimPrefix(srv.URL, "http://")+"/store", "", rdf.Turtle, writeText("", nil))
		srv.Close()
		var se *StatusError
		if !errors.As(err, &se) {
			t.Fatalf("error %v, want a *StatusError", err)
		}
		if se.Message != c.want {
			t.Errorf("message %q, want %q", se.Message, c.want)
		}
		if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "u:") || !strings.Contains(err.Error(), "400 Bad Request") || !strings.Contains(err.Error(), "PUT "+srv.URL+"/store?default") {
			t.Errorf("error %q: want the status and the URL without the user and password", err)
		}
	}
}

// TestConnectionErrors: a connection closed without an answer is
// retried; a server that is not there fails after the attempts, with an
// error that is not a StatusError.
func TestConnectionErrors(t *testing.T) {
	hangUp := func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}
	rec := &fakestore.Store{Answers: []http.HandlerFunc{hangUp, hangUp, fakestore.Status(204, "")}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	var calls atomic.Int32
	if _, err := fast().Put(context.Background(), srv.URL, "", rdf.NTriples, writeText(triples, &calls)); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Seen()); n != 3 || calls.Load() != 1 {
		t.Errorf("%d requests, %d writes; want 3 and 1", n, calls.Load())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	cl := fast()
	cl.Attempts = 3
	calls.Store(0)
	_, err = cl.Post(context.Background(), "http://"+addr+"/store", "", rdf.NTriples, writeText(triples, &calls))
	var se *StatusError
	if err == nil || errors.As(err, &se) || !strings.Contains(err.Error(), "after 3 attempts") || !strings.Contains(err.Error(), "POST http://"+addr) {
		t.Errorf("error %v, want a connection error after 3 attempts", err)
	}
}

// TestContext: a cancelled context ends the waits between attempts and
// the request in flight.
func TestContext(t *testing.T) {
	srv := httptest.NewServer(&fakestore.Store{Answers: []http.HandlerFunc{fakestore.Status(503, "")}})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	cl := &Client{Backoff: time.Hour, MaxBackoff: time.Hour}
	start := time.Now()
	_, err := cl.Put(ctx, srv.URL, "", rdf.NTriples, writeText(triples, nil))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "503") {
		t.Errorf("error %v, want the deadline and the last status", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}

	// A graph still being written when the context ends.
	block := make(chan struct{})
	defer close(block)
	srv2 := httptest.NewServer(&fakestore.Store{})
	defer srv2.Close()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	_, err = Put(ctx2, srv2.URL, "", rdf.NTriples, func(w io.Writer) error {
		io.WriteString(w, triples)
		select {
		case <-block:
		case <-ctx2.Done():
		}
		return ctx2.Err()
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the deadline", err)
	}
}

// TestWriteError: a write that fails stops the upload before any request:
// the error is the writer's.
func TestWriteError(t *testing.T) {
	rec := &fakestore.Store{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	boom := errors.New("boom")
	var calls atomic.Int32
	_, err := fast().Put(context.Background(), srv.URL, "", rdf.NTriples, func(w io.Writer) error {
		calls.Add(1)
		io.WriteString(w, triples)
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "writing the graph") {
		t.Errorf("error %v, want the writer's", err)
	}
	if calls.Load() != 1 || len(rec.Seen()) != 0 {
		t.Errorf("the graph was written %d times, %d requests made; want 1 and 0", calls.Load(), len(rec.Seen()))
	}
}

// TestSpool: a graph larger than MemoryLimit goes to a temporary file in
// TempDir while it is written, is sent whole with its length, and the file
// is gone when the upload ends.
func TestSpool(t *testing.T) {
	rec := &fakestore.Store{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	dir := t.TempDir()
	cl := &Client{MemoryLimit: 1000, TempDir: dir}
	body := strings.Repeat(triples, 100) // 5,100 bytes
	var spooled bool
	up, err := cl.Put(context.Background(), srv.URL, "", rdf.NTriples, func(w io.Writer) error {
		for i := 0; i < 100; i++ {
			if _, err := io.WriteString(w, triples); err != nil {
				return err
			}
		}
		s := w.(*spool)
		spooled = s.file != nil && len(s.mem) == 0
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !spooled {
		t.Error("the graph stayed in memory past MemoryLimit")
	}
	seen := rec.Seen()
	if len(seen) != 1 || seen[0].Body != body || seen[0].ContentLength != int64(len(body)) || seen[0].Chunked {
		t.Fatalf("%d requests; want one with the %d bytes and their length", len(seen), len(body))
	}
	if up.Statements != 100 || up.Bytes != int64(len(body)) {
		t.Errorf("upload %+v, want 100 statements, %d bytes", *up, len(body))
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in TempDir: %v", left)
	}
}

// TestStatements: the statements of N-Triples and N-Quads are their lines
// that are neither blank nor comments, whatever the line ends.
func TestStatements(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
	}{
		{"", 0},
		{triples, 1},
		{strings.TrimSuffix(triples, "\n"), 1},
		{"# a comment\n\n  \t\n" + triples + "  " + triples, 2},
		{strings.ReplaceAll(triples+triples, "\n", "\r\n"), 2},
		{"<http://a> <http://b> \"#\" .\n   # indented comment\n", 1},
	} {
		s, err := (&Client{MemoryLimit: 7}).spool(rdf.NQuads, func(w io.Writer) error {
			for i := 0; i < len(c.text); i += 3 { // in pieces, across the line ends
				if _, err := io.WriteString(w, c.text[i:min(i+3, len(c.text))]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if s.statements != c.want || s.size != int64(len(c.text)) {
			t.Errorf("%q: %d statements, %d bytes; want %d, %d", c.text, s.statements, s.size, c.want, len(c.text))
		}
		data, _ := io.ReadAll(s.reader())
		if string(data) != c.text {
			t.Errorf("%q: read back %q", c.text, data)
		}
		s.close()
	}
}

// TestEarlyAnswer: a server that refuses a large body before reading it
// (too large) gets asked first (Expect: 100-continue), so the body is not
// sent, and the status is the error.
func TestEarlyAnswer(t *testing.T) {
	var read atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Expect") != "100-continue" {
			n, _ := io.Copy(io.Discard, r.Body)
			read.Add(n)
		}
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		io.WriteString(w, "too large")
	}))
	defer srv.Close()
	line := strings.Repeat(triples, 1000)
	_, err := Put(context.Background(), srv.URL, "", rdf.NTriples, func(w io.Writer) error {
		for i := 0; i < 40; i++ { // some 2 MB
			if _, err := io.WriteString(w, line); err != nil {
				return err
			}
		}
		return nil
	})
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusRequestEntityTooLarge || se.Message != "too large" {
		t.Errorf("error %v, want the 413", err)
	}
	if read.Load() != 0 {
		t.Errorf("the request did not ask before sending %d bytes", read.Load())
	}
}

// TestBackoff: the waits double up to MaxBackoff, each between half and
// all of its step.
func TestBackoff(t *testing.T) {
	c := &Client{Backoff: 100 * time.Millisecond, MaxBackoff: time.Second}
	for n, step := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		step *= time.Millisecond
		for range 50 {
			if d := c.backoff(n + 1); d < step/2 || d > step {
				t.Fatalf("retry %d: wait %v, want within [%v, %v]", n+1, d, step/2, step)
			}
		}
	}
	var zero Client
	if d := zero.backoff(1); d < DefaultBackoff/2 || d > DefaultBackoff {
		t.Errorf("default first wait %v", d)
	}
	if d := zero.backoff(100); d < DefaultMaxBackoff/2 || d > DefaultMaxBackoff {
		t.Errorf("default wait after many retries %v", d)
	}
}

func TestRetryAfter(t *testing.T) {
	for _, c := range []struct {
		v    string
		want time.Duration
	}{{"", 0}, {"3", 3 * time.Second}, {"-1", 0}, {"soon", 0}, {"Mon, 01 Jan 2001 00:00:00 GMT", 0}} {
		if got := retryAfter(c.v); got != c.want {
			t.Errorf("retryAfter(%q) = %v, want %v", c.v, got, c.want)
		}
	}
	future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	if got := retryAfter(future); got < 59*time.Minute || got > time.Hour {
		t.Errorf("retryAfter(an hour from now) = %v", got)
	}
}
