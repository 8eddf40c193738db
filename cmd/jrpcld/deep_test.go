package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeNested writes a file of n copies of open, then n of close, between
// head and tail, streamed: a document nested n deep.
func writeNested(t *testing.T, name, head, open, close, tail string, n int) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(head)
	for range n {
		w.WriteString(open)
	}
	for range n {
		w.WriteString(close)
	}
	w.WriteString(tail)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDeepInput: input nested far past what jrpcld reads (a million deep,
// where a reader that recursed without a bound exhausted the stack: a Go
// fatal error and its stack trace) is one error naming the file, the line
// and the limit, through the commands.
func TestDeepInput(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	const rdfHead = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:e="http://e/">` + "\n"
	// 47 MB on one line: the 513th rdf:Description is on line 2.
	writeNested(t, path("deep.rdf"), rdfHead, "<rdf:Description><e:p>", "</e:p></rdf:Description>", "\n</rdf:RDF>\n", 1_000_000)
	writeNested(t, path("deep-shapes.rdf"), rdfHead, "<rdf:Description><e:p>", "</e:p></rdf:Description>", "\n</rdf:RDF>\n", 513)
	if err := os.WriteFile(path("empty.ttl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // in standard error
	}{
		{"shacl RDF/XML data", []string{"shacl", "--shapes", path("empty.ttl"), path("deep.rdf")}, exitUsage,
			"deep.rdf:2: node elements nested more than 512 deep"},
		{"shacl RDF/XML shapes", []string{"shacl", "--shapes", path("deep-shapes.rdf"), path("empty.ttl")}, exitUsage,
			"deep-shapes.rdf:2: node elements nested more than 512 deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := jrpcld(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
			if strings.Count(errOut, "\n") > 1 || strings.Contains(errOut, "goroutine ") || strings.Contains(errOut, "panic") {
				t.Errorf("more than one line of error:\n%s", errOut)
			}
		})
	}
}
