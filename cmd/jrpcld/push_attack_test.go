package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestPushHostileStore: stores that echo what they were sent in their
// errors, answer with bodies without end, loop on redirects or challenges,
// or cut the connection: each run ends with one clear error and exit 2,
// names the graph not stored, prints no credential (neither the password,
// nor the user, nor Basic's encoding of them, nor a query parameter's
// value of the URL), no stack trace, and in bounded time.
func TestPushHostileStore(t *testing.T) {
	const user = "alice"
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + secret))
	echo := func(status int) http.HandlerFunc {
		// A store that quotes the request in its error, as debugging
		// servers do: its URL, its Authorization field, and its body.
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") == "" {
				w.Header().Set("WWW-Authenticate", `Basic realm="echo"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.WriteHeader(status)
			fmt.Fprintf(w, "cannot %s %s (Authorization: %s; user %s, password %s)", r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"), user, secret)
		}
	}
	endless := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(status)
			chunk := []byte(strings.Repeat("x", 64<<10))
			for {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
	}
	tests := []struct {
		name    string
		handler http.Handler
		query   string // the --push URL's query
		want    string // in stderr
		verify  bool   // count through the server's /query?key=SECRET
	}{
		{"500 echoing the request", echo(http.StatusInternalServerError), "?key=" + secret, "500 Internal Server Error", false},
		{"400 echoing the request", echo(http.StatusBadRequest), "?key=" + secret, "400 Bad Request", false},
		{"403 echoing the request", echo(http.StatusForbidden), "", "403 Forbidden", false},
		{"401 echoing the request", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Basic realm="`+secret+`"`)
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, "bad credentials %s for %s", r.Header.Get("Authorization"), r.URL.RequestURI())
		}), "?token=" + secret, "401 Unauthorized", false},
		{"a count echoing the request", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				io.Copy(io.Discard, r.Body)
				w.WriteHeader(http.StatusNoContent)
				return
			}
			echo(http.StatusInternalServerError)(w, r)
		}), "", "not verified", true},
		{"a count that is the request", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				io.Copy(io.Discard, r.Body)
				w.WriteHeader(http.StatusNoContent)
				return
			}
			fmt.Fprintf(w, `{"results":{"bindings":[{"n":{"value":"%s %s"}}]}}`, r.Header.Get("Authorization"), r.URL.Query().Get("key"))
		}), "", "not verified", true},
		{"an error body without end", endless(http.StatusBadRequest), "", "400 Bad Request", false},
		{"a 202 body without end", endless(http.StatusAccepted), "", "did not say the graph was stored", false},
		{"same-origin redirects for ever", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", r.URL.Path+"?again="+secret)
			w.WriteHeader(http.StatusTemporaryRedirect)
		}), "", "more than 8 redirects or challenges", false},
		{"stale challenges for ever", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Digest realm="r", nonce="n`+fmt.Sprint(time.Now().UnixNano())+`", qop="auth", stale=true`)
			w.WriteHeader(http.StatusUnauthorized)
		}), "", "more than 8 redirects or challenges", false},
		{"a connection cut", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}), "", "(after 4 attempts)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			u, _ := url.Parse(srv.URL + "/store" + tt.query)
			u.User = url.UserPassword(user, secret)
			done := make(chan struct{})
			var code int
			var out, errOut string
			go func() {
				defer close(done)
				args := []string{"rdf", "--push", u.String(), "--push-timeout", "20s", "--verify=false", sessionLog}
				if tt.verify {
					q, _ := url.Parse(srv.URL + "/query?key=" + secret)
					q.User = url.UserPassword(user, secret)
					args = []string{"rdf", "--push", u.String(), "--push-query", q.String(), sessionLog}
				}
				code, out, errOut = jrpcld(t, "", args...)
			}()
			select {
			case <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("the run did not end")
			}
			all := out + errOut
			for _, leak := range []string{secret, basic, user} {
				if strings.Contains(all, leak) {
					t.Errorf("%q is printed:\nstdout %q\nstderr %q", leak, out, errOut)
				}
			}
			if code != cli.ExitUsage || !strings.Contains(errOut, "not stored") && !tt.verify || !strings.Contains(errOut, tt.want) ||
				strings.Contains(errOut, "goroutine") || strings.Count(errOut, "\n") != 1 || len(errOut) > 2000 {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit %d and one line with %q", code, out, errOut, cli.ExitUsage, tt.want)
			}
		})
	}
}

// TestBuildPushHostileStore: build --push to a store that quotes the
// request in its error prints no credential either.
func TestBuildPushHostileStore(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Basic realm="echo"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "cannot %s %s (Authorization: %s)", r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/store?key=" + secret)
	u.User = url.UserPassword("alice", secret)
	code, out, errOut := jrpcld(t, "", "build", "-o", t.TempDir(), "--push", u.String(), "--verify=false")
	basic := base64.StdEncoding.EncodeToString([]byte("alice:" + secret))
	for _, leak := range []string{secret, basic, "alice"} {
		if strings.Contains(out+errOut, leak) {
			t.Errorf("%q is printed:\nstdout %q\nstderr %q", leak, out, errOut)
		}
	}
	if code != cli.ExitUsage || !strings.Contains(errOut, "not stored") || !strings.Contains(errOut, "400 Bad Request") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
}
