// Package oxitest runs Oxigraph, an RDF store, for tests: its engine as the
// npm package "oxigraph" (compiled to WebAssembly) in node, with two small
// scripts kept in testdata/. Query loads files into a store and runs SPARQL
// queries on it; StartFront serves a store over HTTP through gsp-front.js, a
// test shim around the engine that speaks the SPARQL 1.1 Graph Store
// Protocol and Protocol as far as jrpcld's tests need: it is not Oxigraph's
// own server, which cannot be installed here.
//
// The package is found through NODE_PATH or, when that is unset, in
// jrpcld/npm/node_modules under the user's cache folder, where .ci/run
// installs it. Without node or the package, a test is skipped with a
// message, or fails when JRPCLD_SHARED is set (as in CI).
package oxitest

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/nodetest"
)

//go:embed testdata/query.js testdata/gsp-front.js
var scripts embed.FS

// Install is the command that installs the npm package where the tests
// look for it.
const Install = `npm install --no-save --prefix "${XDG_CACHE_HOME:-$HOME/.cache}/jrpcld/npm" oxigraph@0.5.11`

// node returns the path of node, the environment that finds the package
// and the folder the scripts were written to; it skips or fails t when
// either is missing.
func node(t testing.TB) (string, []string, string) {
	t.Helper()
	bin, env := nodetest.Need(t, Install, "oxigraph")
	dir := t.TempDir()
	for _, name := range []string{"query.js", "gsp-front.js"} {
		data, err := scripts.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return bin, env, dir
}

// Data is a file to load into a store, with its media type:
// "text/turtle" and "application/n-triples" go to the default graph,
// "application/n-quads" to the named graphs the quads name.
type Data struct {
	File      string
	MediaType string
}

// Result is the answer to one query: its rows (each variable bound to its
// value), or the engine's error.
type Result struct {
	Rows []map[string]string
	Err  error
}

// Query loads data into one in-memory store and runs each query file on
// it, in one node process. With union, each query's default graph is the
// union of the store's graphs, as in a store set up that way.
func Query(t testing.TB, ctx context.Context, data []Data, union bool, queries []string) []Result {
	t.Helper()
	bin, env, dir := node(t)
	type datum struct {
		File   string `json:"file"`
		Format string `json:"format"`
	}
	in := struct {
		Data    []datum  `json:"data"`
		Union   bool     `json:"union"`
		Queries []string `json:"queries"`
	}{Union: union, Queries: queries}
	for _, d := range data {
		in.Data = append(in.Data, datum{d.File, d.MediaType})
	}
	req, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, filepath.Join(dir, "query.js"))
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oxitest: query.js: %v\n%s", err, stderr.Bytes())
	}
	var answers []struct {
		Results json.RawMessage `json:"results"`
		Error   *string         `json:"error"`
	}
	if err := json.Unmarshal(out, &answers); err != nil || len(answers) != len(queries) {
		t.Fatalf("oxitest: query.js wrote %d answers for %d queries (%v):\n%s", len(answers), len(queries), err, out)
	}
	res := make([]Result, len(answers))
	for i, a := range answers {
		if a.Error != nil {
			res[i].Err = fmt.Errorf("oxigraph: %s", *a.Error)
			continue
		}
		res[i].Rows, res[i].Err = Rows(a.Results)
	}
	return res
}

// Rows reads SPARQL 1.1 JSON results: one map per solution, from each bound
// variable to its value (an IRI, a blank node label or a literal's lexical
// form).
func Rows(results []byte) ([]map[string]string, error) {
	var res struct {
		Results *struct {
			Bindings []map[string]struct{ Value string } `json:"bindings"`
		} `json:"results"`
	}
	if err := json.Unmarshal(results, &res); err != nil || res.Results == nil {
		return nil, fmt.Errorf("not SPARQL JSON results (%v): %.200s", err, results)
	}
	rows := make([]map[string]string, 0, len(res.Results.Bindings))
	for _, b := range res.Results.Bindings {
		row := make(map[string]string, len(b))
		for k, v := range b {
			row[k] = v.Value
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// FrontOptions set up the test shim.
type FrontOptions struct {
	// UnionDefaultGraph makes each query's default graph the union of all
	// graphs.
	UnionDefaultGraph bool
	// FailFirst is how many uploads (PUT or POST) are answered 503, with
	// Retry-After: 0, before the shim takes any.
	FailFirst int
}

// Front is a running test shim: an in-memory Oxigraph store behind a Graph
// Store endpoint (StoreURL) and a SPARQL query endpoint (QueryURL), on
// loopback.
type Front struct {
	URL string // http://127.0.0.1:PORT
}

// StoreURL is the Graph Store Protocol endpoint: /store.
func (f *Front) StoreURL() string { return f.URL + "/store" }

// QueryURL is the SPARQL query endpoint: /query.
func (f *Front) QueryURL() string { return f.URL + "/query" }

// StartFront starts the shim; it stops when t ends.
func StartFront(t testing.TB, opts FrontOptions) *Front {
	t.Helper()
	bin, env, dir := node(t)
	args := []string{filepath.Join(dir, "gsp-front.js")}
	if opts.UnionDefaultGraph {
		args = append(args, "--union-default-graph")
	}
	if opts.FailFirst > 0 {
		args = append(args, "--fail-first", strconv.Itoa(opts.FailFirst))
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("oxitest: starting gsp-front.js: %v", err)
	}
	t.Cleanup(func() {
		stdin.Close() // the shim exits when its standard input closes
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
		io.Copy(io.Discard, stdout)
	}()
	select {
	case s := <-line:
		url, ok := strings.CutPrefix(strings.TrimSpace(s), "listening ")
		if !ok {
			t.Fatalf("oxitest: gsp-front.js did not start: %q\n%s", s, stderr.Bytes())
		}
		return &Front{URL: url}
	case <-time.After(20 * time.Second):
		t.Fatalf("oxitest: gsp-front.js did not start in 20 s\n%s", stderr.Bytes())
	}
	return nil
}

// Query runs a SPARQL query on the shim's store.
func (f *Front) Query(ctx context.Context, query string) ([]map[string]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.QueryURL(), strings.NewReader(query))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/sparql-query")
	return Select(req)
}

// Select sends a SPARQL query request and returns the rows of its JSON
// results; a status other than 200 is an error that quotes the body.
func Select(req *http.Request) ([]map[string]string, error) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %s: %s", req.Method, req.URL, resp.Status, strings.TrimSpace(string(body)))
	}
	return Rows(body)
}
