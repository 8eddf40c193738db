package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/push"
	"github.com/jrpcld/jrpcld/internal/testkit/fakestore"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// newStore returns a stand-in Graph Store that keeps what it is sent,
// counted as N-Triples, and answers with answers in turn (204 with none);
// refusals say "the store says no".
func newStore(answers ...int) *fakestore.Store {
	s := &fakestore.Store{Keep: countNTriples}
	for _, code := range answers {
		body := ""
		if code >= 400 {
			body = "the store says no"
		}
		s.Answers = append(s.Answers, fakestore.Status(code, body))
	}
	return s
}

// countNTriples counts the statements of an N-Triples document.
func countNTriples(body []byte) (int, error) {
	quads, _, err := rdf.Parse(body, rdf.NTriples, "")
	return len(quads), err
}

var sessionLog = filepath.Join("..", "..", "examples", "session.jsonl")

// TestPushLogs: rdf --push uploads each log's graph as the named graph of
// its IRI, the same graph rdf --format ntriples writes, with its length; a
// transient failure is retried, a refusal is one clear line with exit 2.
func TestPushLogs(t *testing.T) {
	file := sessionLog
	code, nt, errOut := jrpcld(t, "", "rdf", "--format", "ntriples", "-q", file)
	if code != cli.ExitOK {
		t.Fatalf("rdf: exit %d: %s", code, errOut)
	}
	want, _, err := rdf.Parse([]byte(nt), rdf.NTriples, "")
	if err != nil {
		t.Fatal(err)
	}

	store := newStore(http.StatusServiceUnavailable, http.StatusNoContent)
	srv := httptest.NewServer(store)
	defer srv.Close()
	code, out, errOut := jrpcld(t, "", "rdf", "--push", srv.URL+"/gsp", file)
	wantOut := fmt.Sprintf("%s: pushed as <%s> (graph replaced): %d statements, not verified\n", file, rpclog.DefaultIRI(file), len(want))
	if code != cli.ExitOK || out != wantOut || !strings.Contains(errOut, "not verified: no SPARQL query endpoint is known for "+srv.URL+"/gsp; give it with --push-query URL") {
		t.Fatalf("rdf --push: exit %d, stdout %q, stderr %q; want stdout %q", code, out, errOut, wantOut)
	}
	seen := store.Seen()
	if len(seen) != 2 {
		t.Fatalf("%d requests, want 2 (one refused with 503, then its retry)", len(seen))
	}
	u := seen[1]
	if u.Method != http.MethodPut || u.Graph != rpclog.DefaultIRI(file) || !strings.HasPrefix(u.ContentType, "application/n-triples") {
		t.Errorf("request: %s graph=%q %s", u.Method, u.Graph, u.ContentType)
	}
	got, _, err := rdf.Parse([]byte(u.Body), rdf.NTriples, "")
	if err != nil {
		t.Fatalf("the uploaded graph: %v", err)
	}
	if ok, diff := rdftest.IsomorphicQuads(got, want); !ok {
		t.Errorf("the uploaded graph is not the one rdf writes:\n%s", diff)
	}

	refusing := httptest.NewServer(newStore(http.StatusBadRequest))
	defer refusing.Close()
	code, out, errOut = jrpcld(t, "", "rdf", "--verify=false", "--push", refusing.URL, file)
	if code != cli.ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "graph <"+rpclog.DefaultIRI(file)+"> not stored") ||
		!strings.Contains(errOut, "400") || !strings.Contains(errOut, "the store says no") {
		t.Errorf("refused: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	// Standard input: the graph's name comes from --base.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut = jrpcld(t, string(data), "rdf", "--verify=false", "--push", srv.URL, "--base", "http://example.com/logs/piped", "-")
	if code != cli.ExitOK || !strings.HasPrefix(out, "-: pushed as <http://example.com/logs/piped> (graph replaced): 127 statements") || errOut != "" {
		t.Errorf("standard input: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, args := range [][]string{
		{"rdf", "--push", srv.URL, "-"},
		{"rdf", "--push", srv.URL, "-o", filepath.Join(t.TempDir(), "x.ttl"), file},
		{"rdf", "--push-user", "u", file},
		{"rdf", "--verify=false", file},
		{"rdf", "--push", srv.URL, "--push-method", "patch", file},
		{"rdf", "--push", srv.URL, "--push-timeout", "0s", file},
		{"rdf", "--push", "ftp://example.com/store", file},
	} {
		if code, out, errOut := jrpcld(t, "", args...); code != cli.ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestPushOntologies: build --push uploads each built block's ontology.ttl
// (as N-Triples, to count its statements) to the graph the OGC tool chain
// names urn:ogc:bblocks/ID/ontology.
func TestPushOntologies(t *testing.T) {
	store := newStore()
	srv := httptest.NewServer(store)
	defer srv.Close()
	dir := t.TempDir()
	code, out, errOut := jrpcld(t, "", "build", "-o", dir, "--push", srv.URL+"/gsp", "--push-query", srv.URL+"/count")
	if code != cli.ExitOK || !strings.Contains(out, "1 ontology graph pushed to "+srv.URL+"/gsp\n") || !strings.Contains(errOut, "without the entailments") {
		t.Fatalf("build --push: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	seen := store.Seen()
	if len(seen) != 1 {
		t.Fatalf("%d uploads, want 1", len(seen))
	}
	u := seen[0]
	if u.Method != http.MethodPut || u.Graph != "urn:ogc:bblocks/jrpcld.json-rpc/ontology" || u.ContentType != "application/n-triples" {
		t.Errorf("request: %s graph=%q %s", u.Method, u.Graph, u.ContentType)
	}
	got, _, err := rdf.Parse([]byte(u.Body), rdf.NTriples, "")
	if err != nil {
		t.Fatalf("the uploaded ontology does not parse: %v", err)
	}
	ttl, err := os.ReadFile(filepath.Join(dir, "annotated", "json-rpc", "ontology.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := rdf.Parse(ttl, rdf.Turtle, "")
	if err != nil {
		t.Fatal(err)
	}
	if ok, diff := rdftest.IsomorphicQuads(got, want); !ok {
		t.Errorf("the uploaded graph is not the ontology:\n%s", diff)
	}
	if !strings.Contains(out, fmt.Sprintf("jrpcld.json-rpc: pushed as <urn:ogc:bblocks/jrpcld.json-rpc/ontology> (graph replaced): %d statements, verified\n", len(got))) {
		t.Errorf("stdout %q", out)
	}
}

// TestPushVerify: --verify counts the graph through the query endpoint;
// a store that answers 201 and keeps nothing (as Virtuoso does with a
// chunked body) is an error, exit 2; with post, the graph holds at least
// what was sent.
func TestPushVerify(t *testing.T) {
	file := sessionLog
	iri := rpclog.DefaultIRI(file)
	store := newStore()
	srv := httptest.NewServer(store)
	defer srv.Close()
	for i, method := range []string{"put", "put", "post"} {
		code, out, errOut := jrpcld(t, "", "rdf", "--push", srv.URL+"/gsp", "--push-query", srv.URL+"/count", "--push-method", method, file)
		wantOut := file + ": pushed as <" + iri + "> (graph replaced): 127 statements, verified\n"
		if method == "post" {
			wantOut = file + ": pushed into <" + iri + "> (added to the graph): 127 statements, verified (the graph holds 254)\n"
		}
		if code != cli.ExitOK || out != wantOut || errOut != "" {
			t.Errorf("push %d (%s): exit %d, stdout %q, stderr %q; want %q", i+1, method, code, out, errOut, wantOut)
		}
	}
	if store.Queries() != 3 {
		t.Errorf("%d count queries, want 3", store.Queries())
	}

	lying := &fakestore.Store{Keep: func([]byte) (int, error) { return 0, nil }, Answers: []http.HandlerFunc{fakestore.Status(http.StatusCreated, "")}}
	srv2 := httptest.NewServer(lying)
	defer srv2.Close()
	code, out, errOut := jrpcld(t, "", "rdf", "--push", srv2.URL+"/gsp", "--push-query", srv2.URL+"/count", file)
	if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "graph <"+iri+"> not stored whole: the store answered 201, but the graph holds 0 statements of the 127 sent") {
		t.Errorf("a store that keeps nothing: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A query endpoint that does not answer counts: an error when given,
	// a warning when guessed.
	code, _, errOut = jrpcld(t, "", "rdf", "--push", srv.URL+"/gsp", "--push-query", srv.URL+"/gsp", file)
	if code != cli.ExitUsage || !strings.Contains(errOut, "not verified") {
		t.Errorf("a query endpoint given that does not count: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = jrpcld(t, "", "rdf", "--push", srv.URL+"/ds/data", file)
	if code != cli.ExitOK || !strings.Contains(out, "not verified") || !strings.Contains(errOut, "warning:") || !strings.Contains(errOut, "GET "+srv.URL+"/ds/sparql?query=xxxxx") {
		t.Errorf("a query endpoint guessed that does not count: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// secret is the password of the tests below: it must never be printed.
const secret = "s3cr3t-pw"

// TestPushNoCredentialPrinted: no command prints a password it was given,
// whether the upload succeeds, is refused, or the URL is wrong (issue 23,
// item 3: build --push printed the URL with its password).
func TestPushNoCredentialPrinted(t *testing.T) {
	ok := httptest.NewServer(newStore())
	defer ok.Close()
	refusing := httptest.NewServer(newStore(http.StatusBadRequest))
	defer refusing.Close()
	asking := httptest.NewServer(&fakestore.Store{User: "alice:other", Keep: countNTriples})
	defer asking.Close()
	creds := func(u string) string { return strings.Replace(u, "http://", "http://alice:"+secret+"@", 1) }
	dir := t.TempDir()
	for _, args := range [][]string{
		{"build", "-o", dir, "--push", creds(ok.URL)},
		{"build", "-o", dir, "--push", creds(refusing.URL)},
		{"rdf", "--push", creds(ok.URL) + "/store", sessionLog},
		{"rdf", "--push", creds(refusing.URL) + "/store", sessionLog},
		{"rdf", "--push", creds(asking.URL) + "/store", sessionLog},
		{"rdf", "--push", creds(ok.URL) + "/sparql-graph-crud?key=" + secret, sessionLog},
		{"rdf", "--push", "http://alice:" + secret + "@bad host/store", sessionLog},
		{"rdf", "--push", "ftp://alice:" + secret + "@example.com/store", sessionLog},
		{"rdf", "--push", creds(ok.URL), "--push-query", "http://alice:" + secret + "@%zz/", sessionLog},
	} {
		code, out, errOut := jrpcld(t, "", args...)
		if strings.Contains(out+errOut, secret) || strings.Contains(out+errOut, "alice") {
			t.Errorf("%q: exit %d, the credentials are printed:\nstdout %q\nstderr %q", args, code, out, errOut)
		}
	}
}

// TestPushRedirect: a store that redirects to another host has stored
// nothing: the run says so, sends nothing there and reports nothing
// pushed (issue 23, item 4: a 302 was followed as a GET and reported
// "pushed").
func TestPushRedirect(t *testing.T) {
	other := newStore(http.StatusOK)
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()
	for _, code := range []int{301, 302, 303, 307, 308} {
		build := code == 302 || code == 307 // a build takes a second: two are enough
		redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", otherSrv.URL+"/elsewhere")
			w.WriteHeader(code)
		}))
		runs := [][]string{{"rdf", "--push", strings.Replace(redirecting.URL, "http://", "http://alice:"+secret+"@", 1) + "/gsp", sessionLog}}
		if build {
			runs = append(runs, []string{"build", "-o", t.TempDir(), "--push", redirecting.URL + "/gsp"})
		}
		for _, args := range runs {
			exit, out, errOut := jrpcld(t, "", args...)
			if exit != cli.ExitUsage || strings.Contains(out, "pushed") || !strings.Contains(errOut, "not stored") || !strings.Contains(errOut, "redirecting to "+otherSrv.URL+"/elsewhere") {
				t.Errorf("%d, %s: exit %d, stdout %q, stderr %q", code, args[0], exit, out, errOut)
			}
		}
		redirecting.Close()
	}
	if n := len(other.Seen()); n != 0 {
		t.Errorf("%d requests reached the other host", n)
	}
}

// TestPushTimeout: a store that takes the connection and never answers
// ends the run after --push-timeout, with an error naming the graph not
// stored (issue 23, item 5: --push waited forever).
func TestPushTimeout(t *testing.T) {
	url := "http://" + fakestore.Silent(t) + "/store"
	for _, c := range []struct {
		args  []string
		graph string
	}{
		{[]string{"rdf", "--push", url, "--push-timeout", "300ms", sessionLog}, rpclog.DefaultIRI(sessionLog)},
		{[]string{"build", "-o", t.TempDir(), "--push", url, "--push-timeout", "300ms"}, "urn:ogc:bblocks/jrpcld.json-rpc/ontology"},
	} {
		start := time.Now()
		code, out, errOut := jrpcld(t, "", c.args...)
		if code != cli.ExitUsage || strings.Contains(out, "pushed as") || !strings.Contains(errOut, "graph <"+c.graph+"> not stored: gsp: PUT "+url+"?graph=") ||
			!strings.Contains(errOut, "no answer within 300ms (--push-timeout)") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.args[0], code, out, errOut)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: took %v", c.args[0], d)
		}
	}
}

// TestPushCredentials: the ways to give the store a user and password,
// and the mistakes that are usage errors; the password is never printed.
func TestPushCredentials(t *testing.T) {
	store := newStore()
	store.User = "alice:" + secret
	srv := httptest.NewServer(store)
	defer srv.Close()
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwFile, []byte(secret+"\r\nsecond line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wrongFile := filepath.Join(dir, "wrong")
	if err := os.WriteFile(wrongFile, []byte("wrong\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	emptyFile := filepath.Join(dir, "empty")
	if err := os.WriteFile(emptyFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	netrcFile := filepath.Join(dir, "netrc")
	if err := os.WriteFile(netrcFile, []byte("machine 127.0.0.1 login alice password "+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	userURL := strings.Replace(srv.URL, "http://", "http://alice@", 1) + "/gsp"
	cases := []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		saying string
	}{
		{"userinfo", nil, []string{"--push", strings.Replace(srv.URL, "http://", "http://alice:"+secret+"@", 1) + "/gsp"}, cli.ExitOK, "pushed as"},
		{"--push-user and a file", nil, []string{"--push", srv.URL + "/gsp", "--push-user", "alice", "--push-password-file", pwFile}, cli.ExitOK, "pushed as"},
		{"--push-user and the environment", map[string]string{push.PasswordEnv: secret}, []string{"--push", srv.URL + "/gsp", "--push-user", "alice"}, cli.ExitOK, "pushed as"},
		{"a user in the URL and the environment", map[string]string{push.PasswordEnv: secret}, []string{"--push", userURL}, cli.ExitOK, "pushed as"},
		{"a user in the URL and a file", nil, []string{"--push", userURL, "--push-password-file", pwFile}, cli.ExitOK, "pushed as"},
		{"netrc", map[string]string{"NETRC": netrcFile}, []string{"--push", srv.URL + "/gsp"}, cli.ExitOK, "pushed as"},
		{"wrong password", nil, []string{"--push", srv.URL + "/gsp", "--push-user", "alice", "--push-password-file", wrongFile}, cli.ExitUsage, `401 Unauthorized: the server asks for Basic realm="stand-in"`},
		{"none", map[string]string{"NETRC": filepath.Join(dir, "no-such-file")}, []string{"--push", srv.URL + "/gsp"}, cli.ExitUsage, "(credentials: --push-user"},
		{"no password", nil, []string{"--push", srv.URL + "/gsp", "--push-user", "alice"}, cli.ExitUsage, "needs a password"},
		{"empty password file", nil, []string{"--push", srv.URL + "/gsp", "--push-user", "alice", "--push-password-file", emptyFile}, cli.ExitUsage, "the first line is empty"},
		{"missing password file", nil, []string{"--push", srv.URL + "/gsp", "--push-user", "alice", "--push-password-file", filepath.Join(dir, "nope")}, cli.ExitUsage, "--push-password-file"},
		{"two users", nil, []string{"--push", userURL, "--push-user", "bob", "--push-password-file", pwFile}, cli.ExitUsage, "give one"},
		{"a file without a user", nil, []string{"--push", srv.URL + "/gsp", "--push-password-file", pwFile}, cli.ExitUsage, "goes with --push-user"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(push.PasswordEnv, "")
			os.Unsetenv(push.PasswordEnv)
			t.Setenv("NETRC", filepath.Join(dir, "no-such-file"))
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			args := append([]string{"rdf", "--verify=false"}, append(c.args, sessionLog)...)
			code, out, errOut := jrpcld(t, "", args...)
			if code != c.code || !strings.Contains(out+errOut, c.saying) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d saying %q", code, out, errOut, c.code, c.saying)
			}
			if strings.Contains(out+errOut, secret) {
				t.Errorf("the password is printed: %q %q", out, errOut)
			}
		})
	}
}

// TestPushHelp: the help of rdf and build describes the flags of --push.
func TestPushHelp(t *testing.T) {
	for _, cmd := range []string{"rdf", "build"} {
		_, out, _ := jrpcld(t, "", cmd, "--help")
		for _, flag := range []string{"--push-user", "--push-password-file", "--push-method", "--push-timeout", "--push-connect-timeout", "--verify", "--push-query", push.PasswordEnv, "~/.netrc"} {
			if !strings.Contains(out, flag) {
				t.Errorf("%s --help does not name %s", cmd, flag)
			}
		}
	}
}

// TestPushForbidden: a store that refuses the user updates (403, as
// Virtuoso's /sparql-graph-crud does before the anonymous user is granted
// them) gets an error that says what to do, and nothing is reported pushed.
func TestPushForbidden(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.Error(w, "SECURITY: Permission denied", http.StatusForbidden)
	}))
	defer srv.Close()
	code, out, errOut := jrpcld(t, `{"jsonrpc":"2.0","method":"ping","id":1}`+"\n", "rdf", "--push", srv.URL+"/sparql-graph-crud", "--base", "urn:x:log", "--verify=false")
	if code != cli.ExitUsage || strings.Contains(out+errOut, "pushed") || !strings.Contains(errOut, "403 Forbidden") || !strings.Contains(errOut, "push as one who may") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
