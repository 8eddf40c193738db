//go:build virtuoso

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/push"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/internal/testkit/virtuosotest"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// TestPushVirtuoso pushes the recorded MCP sessions and the build of the
// MCP register to Virtuoso (Debian's virtuoso-opensource, started for the
// test): the logs with Digest credentials (--push-user dba and a password
// file) to /sparql-graph-crud-auth, the ontologies without any to
// /sparql-graph-crud. Each graph must then hold as many statements as
// "jrpcld rdf -f nquads" (or the ontology) has in it; pushing everything
// again must leave the same counts (PUT replaces), and --push-method post
// must add the blank-node statements again and nothing else. Each run
// verifies its uploads through /sparql-auth and /sparql.
//
// It runs with the build tag virtuoso (.ci/run does): starting Virtuoso
// takes from a few seconds to a quarter of a minute on a busy machine.
func TestPushVirtuoso(t *testing.T) {
	v := virtuosotest.Start(t)
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	logs, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if len(logs) == 0 {
		t.Fatalf("no logs in %s", corpus)
	}
	register := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	dir := t.TempDir()
	pw := filepath.Join(dir, "password")
	if err := os.WriteFile(pw, []byte(virtuosotest.Password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// What each graph must hold: the N-Quads of the logs, the ontologies
	// of the build.
	code, nq, errOut := jrpcld(t, "", append([]string{"rdf", "-f", "nquads", "-q"}, logs...)...)
	if code != cli.ExitOK {
		t.Fatalf("rdf -f nquads: exit %d: %s", code, errOut)
	}
	quads, _, err := rdf.Parse([]byte(nq), rdf.NQuads, "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	blank := map[string]int64{} // statements with a blank node
	for _, q := range quads {
		want[q.G.Value]++
		if q.S.Kind == rdf.Blank || q.O.Kind == rdf.Blank {
			blank[q.G.Value]++
		}
	}
	if len(want) != len(logs) {
		t.Fatalf("%d graphs in the N-Quads of %d logs", len(want), len(logs))
	}
	// The register imports the main OGC register: its copy as the
	// published build cached it stands in for "jrpcld fetch".
	readmeFetched(t, shared.Dir(t))
	out := filepath.Join(dir, "build")
	if code, _, errOut := jrpcld(t, "", "build", "-o", out, register); code != cli.ExitOK {
		t.Fatalf("build: exit %d: %s", code, errOut)
	}
	for _, id := range []string{"mcp.json-rpc", "mcp.mcp"} {
		path := filepath.Join(out, "annotated", strings.TrimPrefix(id, "mcp."), "ontology.ttl")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		triples, err := push.DistinctTriples(data)
		if err != nil {
			t.Fatal(err)
		}
		want[push.OntologyGraph(id)] = int64(len(triples))
		for _, tr := range triples {
			if tr.S.Kind == rdf.Blank || tr.O.Kind == rdf.Blank {
				blank[push.OntologyGraph(id)]++
			}
		}
	}
	if blank[rpclog.DefaultIRI(filepath.Join(corpus, "everything-stdio.jsonl"))] == 0 {
		t.Fatal("no statement with a blank node in everything-stdio.jsonl: the check of post would check less than it says")
	}
	graphs := make([]string, 0, len(want))
	for g := range want {
		graphs = append(graphs, g)
	}

	push := func(method string) {
		t.Helper()
		args := append([]string{"rdf", "--push", v.GraphStoreURL(), "--push-user", virtuosotest.User, "--push-password-file", pw, "--push-method", method}, logs...)
		code, out, errOut := jrpcld(t, "", args...)
		if code != cli.ExitOK || strings.Count(out, ", verified") != len(logs) {
			t.Fatalf("rdf --push (%s): exit %d\nstdout %s\nstderr %s", method, code, out, errOut)
		}
		code, out, errOut = jrpcld(t, "", "build", "-o", filepath.Join(dir, "build-"+method), "--push", v.AnonymousGraphStoreURL(), "--push-method", method, register)
		if code != cli.ExitOK || strings.Count(out, ", verified") != 2 {
			t.Fatalf("build --push (%s): exit %d\nstdout %s\nstderr %s", method, code, out, errOut)
		}
	}
	check := func(step string, want map[string]int64) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		got, err := v.Counts(ctx, graphs)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range graphs {
			if got[g] != want[g] {
				t.Errorf("%s: <%s> holds %d statements, want %d", step, g, got[g], want[g])
			}
		}
	}
	push("put")
	check("first push", want)
	push("put")
	check("second push", want)
	push("post")
	added := map[string]int64{}
	for g, n := range want {
		added[g] = n + blank[g]
	}
	check("post after put", added)
}
