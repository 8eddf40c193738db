// Package fakestore is a stand-in SPARQL 1.1 Graph Store for tests, as
// net/http/httptest is a stand-in server: Store records each request and
// answers with the handler of its turn, keeps a count of each graph's
// statements and answers the count query jrpcld verifies an upload with;
// Silent and Unreachable give the addresses of stores that take a
// connection and never answer, and that never take one. The tests of
// rdf/gsp, cmd/jrpcld and cmd/jrpcld-beam share it, so that a change to
// what a store may do is made once.
package fakestore

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Request is what the store saw of one request.
type Request struct {
	Method, Path, RawQuery string
	Query                  url.Values
	Graph                  string // the graph parameter; "" for the default graph
	ContentType, Auth      string
	Chunked                bool // sent in chunks, without a Content-Length
	ContentLength          int64
	Body                   string
}

// Store is a stand-in Graph Store, an http.Handler. The zero value answers
// every request 204 No Content and keeps nothing.
type Store struct {
	// Answers answer the requests in turn, the last one every request
	// after it; with none, each request is answered 204.
	Answers []http.HandlerFunc
	// User, as "name:password", makes the store answer 401 with a Basic
	// challenge to a request without those credentials, and record nothing
	// of it.
	User string
	// Keep, when set, counts the statements of an upload's body: an error
	// is answered 400, and a request answered 2xx adds its count to the
	// graph's (a PUT replaces it). The store then answers at /count the
	// count query of a graph, and records no request there. Keep returning
	// 0 makes a store that says it stored what it did not.
	Keep func(body []byte) (int, error)

	mu       sync.Mutex
	requests []Request
	graphs   map[string]int
	queries  int
}

// countQuery is the query jrpcld counts a graph's statements with.
var countQuery = regexp.MustCompile(`^SELECT \(COUNT\(\*\) AS \?n\) WHERE \{ GRAPH <([^>]*)> \{ \?s \?p \?o \} \}$`)

// ServeHTTP records the request and answers it.
func (s *Store) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if s.User != "" && r.Header.Get("Authorization") != "Basic "+base64.StdEncoding.EncodeToString([]byte(s.User)) {
		w.Header().Set("WWW-Authenticate", `Basic realm="stand-in"`)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if s.Keep != nil && r.URL.Path == "/count" {
		s.count(w, r)
		return
	}
	q := r.URL.Query()
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{
		Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Query: q, Graph: q.Get("graph"),
		ContentType: r.Header.Get("Content-Type"), Auth: r.Header.Get("Authorization"),
		Chunked:       len(r.TransferEncoding) > 0 && r.TransferEncoding[0] == "chunked",
		ContentLength: r.ContentLength,
		Body:          string(body),
	})
	answer := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }
	if len(s.Answers) > 0 {
		answer = s.Answers[min(n, len(s.Answers)-1)]
	}
	s.mu.Unlock()
	if s.Keep == nil {
		answer(w, r)
		return
	}
	statements, err := s.Keep(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	answer(sw, r)
	if sw.code == 0 || sw.code >= 300 {
		return
	}
	// The response goes out when ServeHTTP returns: a count query that
	// follows it finds the graph kept.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.graphs == nil {
		s.graphs = map[string]int{}
	}
	if r.Method == http.MethodPut {
		s.graphs[q.Get("graph")] = 0
	}
	s.graphs[q.Get("graph")] += statements
}

// count answers a count query with the statements kept in its graph, in
// SPARQL 1.1 Query Results JSON.
func (s *Store) count(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries++
	m := countQuery.FindStringSubmatch(r.URL.Query().Get("query"))
	if m == nil {
		http.Error(w, "not a count", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/sparql-results+json")
	fmt.Fprintf(w, `{"head":{"vars":["n"]},"results":{"bindings":[{"n":{"type":"literal","value":"%d"}}]}}`, s.graphs[m[1]])
}

// Seen returns the requests recorded so far, in the order they came.
func (s *Store) Seen() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Queries returns the number of count queries answered.
func (s *Store) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// Status returns an answer with status code and body.
func Status(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// statusWriter notes the status an answer gives; a connection taken over
// (Hijack) gives none.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Silent returns the address of a server that takes each connection, reads
// what comes and never answers, until the test ends.
func Silent(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				go io.Copy(io.Discard, c)
				<-done
			}()
		}
	}()
	return ln.Addr().String()
}

// Unreachable returns the address of a socket that listens with a full
// queue of connections, on Linux: a new connection is never made (the
// system drops its SYN), as with a host that does not answer. Elsewhere,
// or where the system takes connections past a full queue, the test is
// skipped.
func Unreachable(t testing.TB) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("a listening socket whose queue drops connections: Linux only")
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := (&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: sa.(*syscall.SockaddrInet4).Port}).String()
	for range 4 { // fill the queue
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			t.Cleanup(func() { c.Close() })
		}
	}
	if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
		c.Close()
		t.Skip("the system accepts connections past a full queue")
	}
	return addr
}
