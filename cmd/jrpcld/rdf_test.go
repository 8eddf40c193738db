package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

func TestTurtleCommand(t *testing.T) {
	code, out, errOut := jrpcld(t, "", "turtle", "--base", "http://example.com/session", "../../examples/session.jsonl")
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	g := rdftest.Rapper(t, []byte(out), "")
	if len(g) < 100 {
		t.Errorf("%d triples", len(g))
	}
	for _, want := range []string{"@prefix log: <http://example.com/session#> .", "log:c2s-1 a jrpc:Request ;", "jlog:answers log:c2s-1", "log:c2s-13 a jlog:UnansweredRequest ."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestRDFCommandErrors(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		code  int
		err   string
	}{
		{[]string{"rdf", "--format", "rdfxml"}, "", cli.ExitUsage, `does not write rdfxml`},
		{[]string{"rdf", "--format", "xml"}, "", cli.ExitUsage, `unknown RDF format "xml"`},
		{[]string{"rdf", "--base", "not an iri"}, "", cli.ExitUsage, "not an absolute IRI"},
		{[]string{"turtle", "nope.jsonl"}, "", cli.ExitUsage, "nope.jsonl"},
		{[]string{"turtle"}, "x\n", cli.ExitInvalid, "stdin:1:1: skipped:"},
		{[]string{"turtle", "--strict"}, "x\n", cli.ExitInvalid, "strict"},
		{[]string{"rdf", "--format", "nt", "-q", "-"}, `{"jsonrpc":"2.0","method":"m"}`, cli.ExitOK, ""},
	}
	for _, tt := range tests {
		code, _, errOut := jrpcld(t, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.err) {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", tt.args, code, errOut, tt.code, tt.err)
		}
		if strings.Contains(errOut, "MB") {
			t.Errorf("%v: progress drawn on a non-terminal: %q", tt.args, errOut)
		}
	}
}

// TestRDFOutputFile: -o replaces the file only when the conversion is
// complete, and leaves no temporary file behind either way.
func TestRDFOutputFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.nt")
	os.WriteFile(out, []byte("previous\n"), 0o644)
	code, _, _ := jrpcld(t, `{"jsonrpc":"2.0","method":"m"}`+"\nbad\n", "rdf", "--format", "ntriples", "--strict", "-o", out)
	if code != cli.ExitInvalid {
		t.Fatalf("exit %d", code)
	}
	if got, _ := os.ReadFile(out); string(got) != "previous\n" {
		t.Errorf("a failed run changed the file: %q", got)
	}
	code, stdout, _ := jrpcld(t, `{"jsonrpc":"2.0","method":"m"}`, "rdf", "--format", "ntriples", "-o", out)
	got, _ := os.ReadFile(out)
	if code != cli.ExitOK || stdout != "" || !strings.Contains(string(got), `"m"`) {
		t.Errorf("exit %d, stdout %q, file %q", code, stdout, got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the folder, want 1", len(entries))
	}
}

// TestSeveralLogs: with several inputs, --base is a prefix for each log's IRI.
func TestSeveralLogs(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.jsonl", "b.jsonl"} {
		os.WriteFile(filepath.Join(dir, n), []byte(`{"jsonrpc":"2.0","method":"m"}`), 0o644)
	}
	code, out, _ := jrpcld(t, "", "rdf", "--format", "nquads", "--base", "http://example.com/logs", filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if code != cli.ExitOK || !strings.Contains(out, "<http://example.com/logs/a.jsonl> .") || !strings.Contains(out, "<http://example.com/logs/b.jsonl> .") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestExamplesCommand(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := jrpcld(t, "", "examples", "-o", dir)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ttls, _ := filepath.Glob(filepath.Join(dir, "example_*_*.ttl"))
	jsonlds, _ := filepath.Glob(filepath.Join(dir, "example_*_*.jsonld"))
	if len(ttls) < 20 || len(ttls) != len(jsonlds) {
		t.Fatalf("%d .ttl and %d .jsonld files", len(ttls), len(jsonlds))
	}
	for _, f := range ttls[:3] {
		data, _ := os.ReadFile(f)
		if g := rdftest.Rapper(t, data, ""); len(g) == 0 {
			t.Errorf("%s: empty graph", f)
		}
	}
	// Each declares only the prefixes its statements use.
	for _, f := range ttls {
		data, _ := os.ReadFile(f)
		head, body, _ := strings.Cut(string(data), "\n\n")
		for _, line := range strings.Split(head, "\n") {
			if name, ok := strings.CutPrefix(line, "@prefix "); ok {
				if name, _, _ = strings.Cut(name, ":"); !strings.Contains(body, name+":") {
					t.Errorf("%s declares %s:, which it does not use", f, name)
				}
			}
		}
	}
}
