package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// jsonLines decodes JSON lines for comparison by value.
func jsonLines(t *testing.T, s string) []any {
	t.Helper()
	var out []any
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, v)
	}
	return out
}

// TestJSONCommand: the example session goes to each RDF format and back
// with the json command to the same envelopes.
func TestJSONCommand(t *testing.T) {
	src, err := os.ReadFile("../../examples/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := jsonLines(t, string(src))
	dir := t.TempDir()
	for _, f := range []struct{ format, ext string }{{"turtle", ".ttl"}, {"ntriples", ".nt"}, {"nquads", ".nq"}, {"jsonld", ".jsonld"}} {
		rdfFile := filepath.Join(dir, "s"+f.ext)
		if code, _, errOut := jrpcld(t, "", "rdf", "--format", f.format, "-o", rdfFile, "../../examples/session.jsonl"); code != cli.ExitOK {
			t.Fatalf("rdf %s: exit %d: %s", f.format, code, errOut)
		}
		code, out, errOut := jrpcld(t, "", "json", "--envelope", rdfFile)
		if code != cli.ExitOK || errOut != "" {
			t.Fatalf("json %s: exit %d: %s", f.ext, code, errOut)
		}
		if got := jsonLines(t, out); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: messages differ:\n%s", f.format, out)
		}
	}
	// Without --envelope: the messages alone; standard input is Turtle.
	_, ttl, _ := jrpcld(t, "", "turtle", "../../examples/session.jsonl")
	code, out, _ := jrpcld(t, ttl, "json")
	if code != cli.ExitOK {
		t.Fatalf("json from stdin: exit %d", code)
	}
	got := jsonLines(t, out)
	for i, w := range want {
		if !reflect.DeepEqual(got[i], w.(map[string]any)["msg"]) {
			t.Errorf("message %d: %v, want %v", i+1, got[i], w)
		}
	}
}

// TestJSONGraphs: several logs in one N-Quads file come back one after
// another, or one of them with --graph.
func TestJSONGraphs(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(`{"jsonrpc":"2.0","method":"from-a"}`+"\n"), 0o644)
	os.WriteFile(b, []byte(`{"jsonrpc":"2.0","method":"from-b","params":[1]}`+"\n"+`{"jsonrpc":"2.0","method":"b2"}`+"\n"), 0o644)
	nq := filepath.Join(dir, "both.nq")
	if code, _, errOut := jrpcld(t, "", "rdf", "--format", "nquads", "--base", "http://example.com/logs/", "-o", nq, a, b); code != cli.ExitOK {
		t.Fatalf("rdf: %d %s", code, errOut)
	}
	code, out, _ := jrpcld(t, "", "json", nq)
	if code != cli.ExitOK || out != `{"jsonrpc":"2.0","method":"from-a"}`+"\n"+`{"jsonrpc":"2.0","method":"from-b","params":[1]}`+"\n"+`{"jsonrpc":"2.0","method":"b2"}`+"\n" {
		t.Errorf("all logs: exit %d\n%s", code, out)
	}
	code, out, _ = jrpcld(t, "", "json", "--graph", "http://example.com/logs/b.jsonl", nq)
	if code != cli.ExitOK || strings.Contains(out, "from-a") || !strings.Contains(out, "from-b") {
		t.Errorf("--graph: exit %d\n%s", code, out)
	}
	code, _, errOut := jrpcld(t, "", "json", "--graph", "http://example.com/none", nq)
	if code != cli.ExitUsage || !strings.Contains(errOut, "no log <http://example.com/none> in the input; it has <http://example.com/logs/a.jsonl>, <http://example.com/logs/b.jsonl>") {
		t.Errorf("--graph of no log: exit %d, %q", code, errOut)
	}
}

func TestJSONCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ttl")
	os.WriteFile(bad, []byte("@prefix jlog: <https://jrpcld.github.io/ns/log#> .\n<http://e/m1> jlog:position 1 ;\n  jlog:id \"x .\n"), 0o644)
	notLog := filepath.Join(dir, "notlog.ttl")
	os.WriteFile(notLog, []byte("@prefix jlog: <https://jrpcld.github.io/ns/log#> .\n@prefix jrpc: <http://json-rpc.org/ontology#> .\n"+
		"<http://e/l#m1> jlog:position 1 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"ok\" .\n<http://e/l#m2> jlog:position 2 ; jrpc:version \"2.0\" .\n"), 0o644)
	rdfxml := filepath.Join(dir, "x.rdf")
	os.WriteFile(rdfxml, []byte("<?xml version=\"1.0\"?>\n<rdf:RDF/>\n"), 0o644)
	log := filepath.Join(dir, "session.json")
	os.WriteFile(log, []byte(`{"jsonrpc":"2.0","method":"a","params":{"@id":"x"},"id":1}`+"\n"), 0o644)
	gz := filepath.Join(dir, "out.ttl.gz")
	os.WriteFile(gz, []byte{0x1f, 0x8b, 8, 0}, 0o644)
	ld := filepath.Join(dir, "graph.json")
	os.WriteFile(ld, []byte(`{"@id":"http://e/l#m1","https://jrpcld.github.io/ns/log#position":1,"http://json-rpc.org/ontology#version":"2.0","http://json-rpc.org/ontology#hasMethod":"ok"}`), 0o644)
	tests := []struct {
		args     []string
		stdin    string
		code     int
		out, err string
	}{
		{[]string{"json", log}, "", cli.ExitUsage, "", log + ` is a JSON-RPC log, not RDF: "jrpcld json" turns RDF back into messages; to turn a log into RDF, use "jrpcld turtle"`},
		{[]string{"json"}, `{"jsonrpc":"2.0","method":"a"}`, cli.ExitUsage, "", `stdin is a JSON-RPC log, not RDF`},
		{[]string{"json", gz}, "", cli.ExitUsage, "", "is gzip-compressed"},
		{[]string{"json"}, "hello\n", cli.ExitUsage, "", "stdin: cannot tell the RDF format from the name or the content: use --from"},
		// Read by their content: JSON-LD under another name, N-Triples
		// and Turtle on standard input.
		{[]string{"json", ld}, "", cli.ExitOK, `{"jsonrpc":"2.0","method":"ok"}`, ""},
		{[]string{"json"}, "<http://e/l#m1> <https://jrpcld.github.io/ns/log#position> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n" +
			"<http://e/l#m1> <http://json-rpc.org/ontology#version> \"2.0\" .\n<http://e/l#m1> <http://json-rpc.org/ontology#hasMethod> \"ok\" .\n",
			cli.ExitOK, `{"jsonrpc":"2.0","method":"ok"}`, ""},
		{[]string{"json"}, "PREFIX jrpc: <http://json-rpc.org/ontology#>\n<http://e/l#m1> <https://jrpcld.github.io/ns/log#position> 1 ; jrpc:version \"2.0\" ; jrpc:hasMethod \"ok\" .\n",
			cli.ExitOK, `{"jsonrpc":"2.0","method":"ok"}`, ""},
		{[]string{"json", bad}, "", cli.ExitInvalid, "", bad + ":3:15: line break in a short string"},
		{[]string{"json", notLog}, "", cli.ExitInvalid, `{"jsonrpc":"2.0","method":"ok"}`, notLog + ": <http://e/l#m2>: not a JSON-RPC 2.0 message"},
		{[]string{"json", "--from", "ntriples"}, "<http://e/s> <http://e/p> 1 .\n", cli.ExitInvalid, "", "stdin:1:27: expected an object"},
		{[]string{"json", rdfxml}, "", cli.ExitUsage, "", "x.rdf is RDF/XML, which jrpcld json does not read"},
		{[]string{"json", "--from", "rdfxml"}, "", cli.ExitUsage, "", "--from must be"},
		{[]string{"json", "--from", "jsonld-expanded"}, "", cli.ExitUsage, "", "--from must be"},
		{[]string{"json", "nope.ttl"}, "", cli.ExitUsage, "", "nope.ttl"},
		{[]string{"json", "-h"}, "", cli.ExitOK, "--graph IRI", ""},
	}
	for _, tt := range tests {
		code, out, errOut := jrpcld(t, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tt.args, code, out, errOut, tt.code, tt.out, tt.err)
		}
	}
}

// TestJSONReadWhole: RDF that is not laid out as jrpcld writes it (here
// jrpcld's N-Triples with the lines in reverse order) comes back as the
// messages of jrpcld's own layout, from a file and from standard input
// that cannot seek (read again from its temporary copy).
func TestJSONReadWhole(t *testing.T) {
	dir := t.TempDir()
	nt := filepath.Join(dir, "s.nt")
	if code, _, errOut := jrpcld(t, "", "rdf", "--format", "ntriples", "-o", nt, "../../examples/session.jsonl"); code != cli.ExitOK {
		t.Fatalf("rdf: exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(nt)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var rev strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		rev.WriteString(lines[i])
	}
	reversed := filepath.Join(dir, "r.nt")
	if err := os.WriteFile(reversed, []byte(rev.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, want, errOut := jrpcld(t, "", "json", "--envelope", nt)
	if code != cli.ExitOK || errOut != "" || len(jsonLines(t, want)) < 10 {
		t.Fatalf("json: exit %d: %s\n%s", code, errOut, want)
	}
	// Read whole, and said so in one line.
	notice := func(errOut, name string) bool {
		return strings.Count(errOut, "\n") == 1 && strings.HasPrefix(errOut, "jrpcld json: "+name+": read whole, so memory grows with its size: RDF not grouped")
	}
	code, out, errOut := jrpcld(t, "", "json", "--envelope", reversed)
	if code != cli.ExitOK || !notice(errOut, reversed) || out != want {
		t.Errorf("reversed file: exit %d: %s\n%s", code, errOut, out)
	}
	var stdout, stderr strings.Builder
	stdin := struct{ io.Reader }{strings.NewReader(rev.String())} // cannot seek
	code = run([]string{"json", "--envelope", "--from", "ntriples"}, &cli.Env{Stdin: stdin, Stdout: &stdout, Stderr: &stderr})
	if code != cli.ExitOK || !notice(stderr.String(), "stdin") || stdout.String() != want {
		t.Errorf("reversed stdin: exit %d: %s\n%s", code, stderr.String(), stdout.String())
	}
}

// TestHostileLog: a log with ids that are JSON-LD keywords, invalid
// messages, timestamps that are no xsd:dateTime and a line that is not
// JSON goes to every RDF format and back: every message that is JSON comes
// back exactly, with its envelope; only the line that is not JSON is left
// out, reported with its line, and the exit status says so (1).
func TestHostileLog(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":"@id","method":"a"}`,
		`{"jsonrpc":"2.0","id":"@context","result":{"@type":"@vocab"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":null}`,
		`{"jsonrpc":"2.0","id":1,"result":"ok"}`,
		`{"dir":"c2s","ts":"2026-13-45T99:99:99Z","msg":{"jsonrpc":"2.0","method":"n"}}`,
		`{"dir":"s2c","ts":1732300000000,"msg":{"jsonrpc":"2.0","method":"n"}}`,
		`{"ts":null,"msg":{"jsonrpc":"2.0","method":"n"}}`,
		`{"dir":"sideways","msg":{"jsonrpc":"2.0","id":"@type","method":"x"}}`,
		`[{"jsonrpc":"2.0","id":"@none","method":"b"},5]`,
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "h.jsonl")
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := jsonLines(t, strings.Join(lines, "\n"))
	for _, f := range []struct{ format, ext string }{{"turtle", ".ttl"}, {"ntriples", ".nt"}, {"nquads", ".nq"}, {"jsonld", ".jsonld"}} {
		out := filepath.Join(dir, "h"+f.ext)
		code, _, errOut := jrpcld(t, "", "rdf", "--format", f.format, "-o", out, log)
		if code != cli.ExitInvalid || !strings.Contains(errOut, "h.jsonl:10:") || strings.Contains(errOut, "panic") {
			t.Errorf("rdf %s: exit %d, want 1 for the line that is not JSON:\n%s", f.format, code, errOut)
		}
		code, back, errOut := jrpcld(t, "", "json", "--envelope", out)
		if code != cli.ExitOK || errOut != "" {
			t.Errorf("json %s: exit %d: %s", f.ext, code, errOut)
		}
		// Bare messages come back bare: the envelope writes them as {"msg":...}.
		got := jsonLines(t, back)
		for i, v := range got {
			if m, ok := v.(map[string]any); ok && len(m) == 1 && m["msg"] != nil {
				if w, ok := want[min(i, len(want)-1)].(map[string]any); !ok || w["msg"] == nil {
					got[i] = m["msg"]
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: messages differ:\n%s", f.format, back)
		}
	}
}
