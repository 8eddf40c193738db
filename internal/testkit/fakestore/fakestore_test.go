package fakestore

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// lines counts the non-empty lines of body, and refuses "bad".
func lines(body []byte) (int, error) {
	if string(body) == "bad" {
		return 0, errors.New("not statements")
	}
	return len(bytes.Fields(body)), nil
}

// send makes a request to the store and returns its status and body.
func send(t *testing.T, method, u, body, user string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		name, pw, _ := strings.Cut(user, ":")
		req.SetBasicAuth(name, pw)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// TestStore: answers in turn, the last one repeated; what is recorded of
// each request; a graph kept only from 2xx answers, replaced by PUT and
// added to by POST, as the count query says; a body Keep refuses is a 400;
// with User, a request without the credentials is a 401 not recorded.
func TestStore(t *testing.T) {
	s := &Store{Keep: lines, User: "u:p", Answers: []http.HandlerFunc{Status(503, "busy"), Status(204, ""), Status(201, "")}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	g := srv.URL + "/gsp?graph=" + url.QueryEscape("http://example.com/g")
	count := srv.URL + "/count?query=" + url.QueryEscape("SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://example.com/g> { ?s ?p ?o } }")
	steps := []struct {
		method, url, body, user string
		code                    int
		text                    string // in the answer
	}{
		{"PUT", g, "a b", "", 401, ""},
		{"PUT", g, "a b", "u:p", 503, "busy"},
		{"GET", count, "", "u:p", 200, `"value":"0"`},
		{"PUT", g, "a b c", "u:p", 204, ""},
		{"GET", count, "", "u:p", 200, `"value":"3"`},
		{"POST", g, "d e", "u:p", 201, ""},
		{"PUT", g, "bad", "u:p", 400, "not statements"},
		{"GET", count, "", "u:p", 200, `"value":"5"`},
		{"PUT", g, "f", "u:p", 201, ""},
		{"GET", count, "", "u:p", 200, `"value":"1"`},
		{"GET", srv.URL + "/count?query=SELECT", "", "u:p", 400, "not a count"},
	}
	for i, st := range steps {
		code, text := send(t, st.method, st.url, st.body, st.user)
		if code != st.code || !strings.Contains(text, st.text) {
			t.Errorf("step %d, %s %s: %d %q; want %d with %q", i+1, st.method, st.url, code, text, st.code, st.text)
		}
	}
	seen := s.Seen()
	if len(seen) != 5 || s.Queries() != 5 {
		t.Fatalf("%d requests recorded, %d count queries; want 5 and 5", len(seen), s.Queries())
	}
	r := seen[3]
	if r.Method != "PUT" || r.Path != "/gsp" || r.Graph != "http://example.com/g" || r.Body != "bad" || r.ContentLength != 3 || r.Chunked ||
		r.Auth == "" || r.Query.Get("graph") != r.Graph || !strings.HasPrefix(r.RawQuery, "graph=http%3A") {
		t.Errorf("request 4 recorded as %+v", r)
	}
}

// TestStoreZero: the zero Store answers 204 and keeps nothing: /count is
// a request like any other.
func TestStoreZero(t *testing.T) {
	s := &Store{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, u := range []string{srv.URL + "/gsp", srv.URL + "/count"} {
		if code, _ := send(t, "PUT", u, "x", ""); code != 204 {
			t.Errorf("%s: %d, want 204", u, code)
		}
	}
	if n := len(s.Seen()); n != 2 || s.Queries() != 0 {
		t.Errorf("%d requests, %d queries; want 2 and 0", n, s.Queries())
	}
}

// TestStoreHijack: an answer may take the connection over (to cut it)
// when the store keeps graphs too; nothing is kept of it.
func TestStoreHijack(t *testing.T) {
	hangUp := func(w http.ResponseWriter, r *http.Request) {
		if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
			c.Close()
		}
	}
	s := &Store{Keep: lines, Answers: []http.HandlerFunc{hangUp, Status(204, "")}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	if _, err := http.Post(srv.URL+"/gsp", "text/plain", strings.NewReader("a")); err == nil {
		t.Error("a cut connection gave an answer")
	}
	if n := len(s.Seen()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestSilentAndUnreachable: Silent takes a connection and never answers;
// Unreachable never takes one.
func TestSilentAndUnreachable(t *testing.T) {
	c, err := net.DialTimeout("tcp", Silent(t), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	var ne net.Error
	if _, err := c.Read(make([]byte, 1)); !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("Silent: read gave %v, want a timeout", err)
	}
	if c, err := net.DialTimeout("tcp", Unreachable(t), 200*time.Millisecond); err == nil {
		c.Close()
		t.Error("Unreachable: a connection was made")
	}
}
