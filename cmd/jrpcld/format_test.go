package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestOutputFormatFromExtension: -o's extension chooses the format, .gz
// compresses, and an extension that disagrees with --format (or with
// turtle) is a usage error that leaves no file. Each output's format is
// checked by its first bytes: N-Quads and N-Triples start with an IRI, Turtle
// with its prefixes, JSON-LD with an object.
func TestOutputFormatFromExtension(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.jsonl")
	if err := os.WriteFile(log, []byte(`{"jsonrpc":"2.0","method":"a","id":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		out    string
		code   int
		gz     bool
		prefix string // of the (decompressed) output
		err    string
	}{
		{[]string{"rdf"}, "out.nt", cli.ExitOK, false, "<", ""},
		{[]string{"rdf"}, "out.nq", cli.ExitOK, false, "<", ""},
		{[]string{"rdf"}, "out.jsonld", cli.ExitOK, false, "{", ""},
		{[]string{"rdf"}, "out.ttl", cli.ExitOK, false, "@prefix", ""},
		{[]string{"rdf"}, "out.nq.gz", cli.ExitOK, true, "<", ""},
		{[]string{"turtle"}, "out.ttl.gz", cli.ExitOK, true, "@prefix", ""},
		{[]string{"rdf"}, "out.txt", cli.ExitOK, false, "@prefix", ""},
		{[]string{"rdf", "-f", "nquads"}, "out.txt", cli.ExitOK, false, "<", ""},
		{[]string{"rdf", "-f", "nquads"}, "out.gz", cli.ExitOK, true, "<", ""},
		{[]string{"rdf", "--format", "nquads"}, "out.nq", cli.ExitOK, false, "<", ""},
		{[]string{"rdf", "--format", "jsonld-expanded"}, "out.jsonld", cli.ExitOK, false, "[", ""},
		{[]string{"rdf", "--format", "turtle"}, "bad.nt", cli.ExitUsage, false, "", "--format turtle and -o " + filepath.Join(dir, "bad.nt") + " (ntriples) disagree"},
		{[]string{"turtle"}, "bad.nq", cli.ExitUsage, false, "", `names nquads, but this command writes turtle: use "jrpcld rdf -o`},
		{[]string{"rdf"}, "bad.rdf", cli.ExitUsage, false, "", "jrpcld does not write rdfxml"},
		// Issue 23, item 18: .json is JSON-LD; TriG and the like are not
		// written, and never Turtle under their name.
		{[]string{"rdf"}, "out.json", cli.ExitOK, false, "{", ""},
		{[]string{"rdf"}, "out.JSON.gz", cli.ExitOK, true, "{", ""},
		{[]string{"rdf", "--format", "jsonld-expanded"}, "out.json", cli.ExitOK, false, "[", ""},
		{[]string{"turtle"}, "bad.json", cli.ExitUsage, false, "", `names jsonld, but this command writes turtle: use "jrpcld rdf -o`},
		{[]string{"rdf"}, "bad.trig", cli.ExitUsage, false, "", "jrpcld does not write TriG: use .ttl, .nt, .nq (each log its own named graph) or .jsonld (.json)"},
		{[]string{"turtle"}, "bad.trig", cli.ExitUsage, false, "", "jrpcld does not write TriG"},
		{[]string{"rdf", "--format", "nquads"}, "bad.trig.gz", cli.ExitUsage, false, "", "jrpcld does not write TriG"},
		{[]string{"rdf"}, "bad.n3", cli.ExitUsage, false, "", "jrpcld does not write Notation3"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.out)
		args := append(append([]string{}, tt.args...), "-q", "-o", path, log)
		code, _, errOut := jrpcld(t, "", args...)
		if code != tt.code || !strings.Contains(errOut, tt.err) {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", args, code, errOut, tt.code, tt.err)
			continue
		}
		data, err := os.ReadFile(path)
		if tt.code != cli.ExitOK {
			if err == nil {
				t.Errorf("%q: wrote %s", args, tt.out)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if tt.gz {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Errorf("%q: not gzip: %v", args, err)
				continue
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Errorf("%q: %v", args, err)
				continue
			}
		} else if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			t.Errorf("%q: compressed", args)
		}
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte(tt.prefix)) {
			t.Errorf("%q: output starts %.40q, want %q", args, data, tt.prefix)
		}
	}
}

// TestStatsSniffsJSONLD: JSON-LD on standard input is read as a graph, and
// a log whose params hold JSON-LD stays a log.
func TestStatsSniffsJSONLD(t *testing.T) {
	ld := `{"@id":"http://e/l#m1","https://jrpcld.github.io/ns/log#position":1,"http://json-rpc.org/ontology#version":"2.0","http://json-rpc.org/ontology#hasMethod":"ok"}`
	log := `{"jsonrpc":"2.0","method":"a","params":{"@id":"x"}}` + "\n"
	for _, tt := range []struct{ in, method string }{{ld, "ok"}, {log, "a"}} {
		code, out, errOut := jrpcld(t, tt.in, "stats", "--format", "json")
		if code != cli.ExitOK || !strings.Contains(out, `"`+tt.method+`"`) {
			t.Errorf("stats of %s: exit %d, %s %s", tt.in, code, out, errOut)
		}
	}
}

// TestNotALog: RDF, or a folder, given where a log is read is one line that
// says what to do (exit 2), not an error per line; no error repeats the
// input's name.
func TestNotALog(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.jsonl")
	if err := os.WriteFile(log, []byte(`{"jsonrpc":"2.0","method":"a","id":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	graphs := map[string]string{}
	for _, ext := range []string{".ttl", ".nt", ".nq", ".jsonld"} {
		graphs[ext] = filepath.Join(dir, "out"+ext)
		if code, _, errOut := jrpcld(t, "", "rdf", "-q", "-o", graphs[ext], log); code != cli.ExitOK {
			t.Fatalf("rdf -o %s: %s", graphs[ext], errOut)
		}
	}
	ttl, err := os.ReadFile(graphs[".ttl"])
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args  []string
		stdin string
		err   string
	}{
		{[]string{"turtle", graphs[".ttl"]}, "", graphs[".ttl"] + ` is RDF (turtle), not a JSON-RPC log: to turn it back into messages, use "jrpcld json ` + graphs[".ttl"] + `"`},
		{[]string{"rdf", graphs[".nt"]}, "", graphs[".nt"] + " is RDF (ntriples)"},
		{[]string{"validate", graphs[".nq"]}, "", graphs[".nq"] + " is RDF (nquads)"},
		{[]string{"validate", graphs[".jsonld"]}, "", graphs[".jsonld"] + " is RDF (jsonld)"},
		{[]string{"gen", graphs[".ttl"]}, "", "is RDF (turtle)"},
		{[]string{"turtle"}, string(ttl), `stdin is RDF (turtle), not a JSON-RPC log: to turn it back into messages, use "jrpcld json --from turtle"`},
		{[]string{"turtle", dir}, "", dir + " is a folder, not a file: give the files in it"},
		{[]string{"validate", dir}, "", dir + " is a folder, not a file"},
		{[]string{"stats", dir}, "", dir + " is a folder, not a file"},
		{[]string{"json", dir}, "", dir + " is a folder, not a file"},
		{[]string{"gen", dir}, "", dir + " is a folder, not a file"},
	}
	for _, tt := range tests {
		code, _, errOut := jrpcld(t, tt.stdin, tt.args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != cli.ExitUsage || len(lines) != 1 || !strings.Contains(errOut, tt.err) {
			t.Errorf("%q: exit %d, stderr %q; want %d and one line with %q", tt.args, code, errOut, cli.ExitUsage, tt.err)
		}
		// The input is named at most twice (the message and its hint);
		// counted by its whole path: a base name such as "001" may also
		// occur inside the random name of the temporary folder.
		if len(tt.args) > 1 && strings.Count(errOut, tt.args[len(tt.args)-1]) > 2 {
			t.Errorf("%q: the name repeats: %q", tt.args, errOut)
		}
	}
}
