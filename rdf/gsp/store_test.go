package gsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/fakestore"
	"github.com/jrpcld/jrpcld/rdf"
)

// TestQueryBeside: the query endpoints known beside Graph Store endpoints.
func TestQueryBeside(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://h:8890/sparql-graph-crud", "http://h:8890/sparql"},
		{"http://u:p@h:8890/sparql-graph-crud-auth/", "http://u:p@h:8890/sparql-auth"},
		{"http://h:7878/store", "http://h:7878/query"},
		{"http://h/x/store", ""},
		{"http://h:3030/ds/data?x=1", "http://h:3030/ds/sparql"},
		{"http://h/data", ""},
		{"http://h/gsp", ""},
	} {
		u, err := url.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := QueryBeside(u); got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
	}
}

// TestQueryLogin: the query endpoint gets the store's credentials on the
// store's origin only; elsewhere those of ~/.netrc, and none besides its
// own when its URL holds a user.
func TestQueryLogin(t *testing.T) {
	rc := filepath.Join(t.TempDir(), "netrc")
	if err := os.WriteFile(rc, []byte("machine other.example login nu password np\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NETRC", rc)
	store, _ := url.Parse("http://h.example:8890/sparql-graph-crud-auth")
	for _, c := range []struct{ query, user, password string }{
		{"http://h.example:8890/sparql-auth", "u", "p"},
		{"HTTP://H.EXAMPLE:8890/sparql", "u", "p"},
		{"http://h.example:8891/sparql", "", ""},
		{"https://h.example:8890/sparql", "", ""},
		{"http://other.example/sparql", "nu", "np"},
		{"http://q:w@h.example:8890/sparql", "", ""},
	} {
		q, _ := url.Parse(c.query)
		if user, password := QueryLogin(q, store, "u", "p"); user != c.user || password != c.password {
			t.Errorf("%s: %q, %q; want %q, %q", c.query, user, password, c.user, c.password)
		}
	}
}

// TestStoreUpload: an upload is done when the store holds what was sent;
// each way it is not gives its own error type, and a guessed query
// endpoint that fails leaves the upload unverified.
func TestStoreUpload(t *testing.T) {
	const nt = "<http://a> <http://b> <http://c> .\n<http://a> <http://b> <http://d> .\n"
	write := func(w io.Writer) error { _, err := io.WriteString(w, nt); return err }
	lines := func(body []byte) (int, error) { return bytes.Count(body, []byte("\n")), nil }
	tests := []struct {
		name    string
		store   *fakestore.Store
		post    bool
		query   string // "" none, "count" the store's count, "bad" a failing one
		guessed bool
		check   func(*Stored, error) error
	}{
		{"verified", &fakestore.Store{Keep: lines}, false, "count", false, func(st *Stored, err error) error {
			if err != nil || !st.Verified || st.Held != 2 || st.Statements != 2 {
				return fmt.Errorf("%+v, %v", st, err)
			}
			return nil
		}},
		{"not verified", &fakestore.Store{}, false, "", false, func(st *Stored, err error) error {
			if err != nil || st.Verified || st.Unverified != nil {
				return fmt.Errorf("%+v, %v", st, err)
			}
			return nil
		}},
		{"refused", &fakestore.Store{Answers: []http.HandlerFunc{fakestore.Status(400, "no")}}, false, "count", false, func(st *Stored, err error) error {
			var ns *NotStoredError
			var se *StatusError
			if !errors.As(err, &ns) || !errors.As(err, &se) || se.StatusCode != 400 {
				return fmt.Errorf("%+v, %v", st, err)
			}
			return nil
		}},
		{"stored none", &fakestore.Store{Keep: func([]byte) (int, error) { return 0, nil }}, false, "count", false, func(st *Stored, err error) error {
			var ie *IncompleteError
			if !errors.As(err, &ie) || ie.Held != 0 || ie.Sent != 2 || ie.Post {
				return fmt.Errorf("%+v, %v", st, err)
			}
			return nil
		}},
		{"count fails", &fakestore.Store{Keep: lines}, false, "bad", false, func(st *Stored, err error) error {
			var nv *NotVerifiedError
			if !errors.As(err, &nv) {
				return fmt.Errorf("%+v, %v", st, err)
			}
			return nil
		}},
		{"guessed count fails", &fakestore.Store{Keep: lines}, false, "bad", true, func(st *Stored, err error) error {
			if err != nil || st.Verified || st.Unverified == nil {
				return fmt.Errorf("%+v, %v", st, err)
			}
			return nil
		}},
		{"post", &fakestore.Store{Keep: lines}, true, "count", false, func(st *Stored, err error) error {
			if err != nil || !st.Verified || st.Held != 2 {
				return fmt.Errorf("%+v, %v", st, err)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.store)
			defer srv.Close()
			s := &Store{Endpoint: srv.URL + "/store", Post: tt.post, Client: &Client{}, Queries: &Client{}, Guessed: tt.guessed}
			switch tt.query {
			case "count":
				s.Query = srv.URL + "/count"
			case "bad":
				s.Query = srv.URL + "/nowhere"
				tt.store.Answers = []http.HandlerFunc{fakestore.Status(204, ""), fakestore.Status(404, "no such endpoint")}
			}
			st, err := s.Upload(context.Background(), "http://g", rdf.NTriples, write)
			if e := tt.check(st, err); e != nil {
				t.Error(e)
			}
		})
	}
}
