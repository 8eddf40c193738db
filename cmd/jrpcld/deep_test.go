package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
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
	const shPrefixes = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix e: <http://e/> .\n"
	var chain, dag strings.Builder
	chain.WriteString(shPrefixes)
	for i := range 1000 {
		fmt.Fprintf(&chain, "e:n%d e:next e:n%d .\n", i, i+1)
	}
	dag.WriteString(shPrefixes + "e:S sh:targetNode e:x ; sh:property [ sh:path _:p0 ; sh:minCount 1 ] .\n")
	for i := range 60 {
		fmt.Fprintf(&dag, "_:p%d sh:alternativePath ( _:p%d _:p%d ) .\n", i, i+1, i+1)
	}
	dag.WriteString("_:p60 sh:inversePath e:q .\n")
	// Blocks: an OWL ontology nested 600 deep, a schema whose definitions
	// chain 5,000 $ref deep.
	const meta = `{"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`
	var refs strings.Builder
	refs.WriteString(`{"$ref": "#/$defs/d0", "$defs": {`)
	for i := range 5000 {
		fmt.Fprintf(&refs, `"d%d": {"type": "object", "properties": {"p": {"$ref": "#/$defs/d%d"}}}, `, i, i+1)
	}
	refs.WriteString(`"d5000": {"type": "number"}}}`)
	for _, d := range []string{"owl", "chain"} {
		if err := os.Mkdir(path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeNested(t, path("owl/ontology.owl"), rdfHead, "<rdf:Description><e:p>", "</e:p></rdf:Description>", "\n</rdf:RDF>\n", 600)
	for name, text := range map[string]string{
		"owl/bblock.json":      meta,
		"chain/bblock.json":    meta,
		"chain/schema.json":    refs.String(),
		"chain/context.jsonld": `{"@context": {"@vocab": "http://e/"}}`,
		"empty.ttl":            "",
		"targets.ttl":          shPrefixes + "e:S sh:targetNode e:x ; sh:nodeKind sh:IRI .\n",
		"chain.ttl":            chain.String(),
		"dag.ttl":              dag.String(),
		// A property shape that holds itself: over a loop of two nodes,
		// it recursed without end.
		"self.ttl": shPrefixes + "e:S sh:targetNode e:n0 ; sh:property e:P .\ne:P sh:path e:next ; sh:property e:P .\n",
		"loop.ttl": shPrefixes + "e:n0 e:next e:n1 . e:n1 e:next e:n0 .\n",
		// A recursive shape over a chain of a thousand nodes.
		"recursive.ttl": shPrefixes + "e:S sh:targetNode e:n0 ; sh:property [ sh:path e:next ; sh:node e:S ] .\n",
	} {
		if err := os.WriteFile(path(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // in standard error
	}{
		{"shacl RDF/XML data", []string{"shacl", "--shapes", path("targets.ttl"), path("deep.rdf")}, cli.ExitUsage,
			"deep.rdf:2: node elements nested more than 512 deep"},
		{"shacl RDF/XML shapes", []string{"shacl", "--shapes", path("deep-shapes.rdf"), path("empty.ttl")}, cli.ExitUsage,
			"deep-shapes.rdf:2: node elements nested more than 512 deep"},
		{"shacl path of 2^61 parts", []string{"shacl", "--shapes", path("dag.ttl"), path("empty.ttl")}, cli.ExitUsage,
			"dag.ttl: shape [ sh:path [...] ; sh:minCount 1 ]: sh:path: path of more than 512 parts"},
		{"shacl shapes nested through a chain", []string{"shacl", "--shapes", path("recursive.ttl"), path("chain.ttl")}, cli.ExitUsage,
			"jrpcld shacl: validation failed: checking <http://e/n0> against shape <http://e/S> nests checks of nodes against shapes more than 512 deep"},
		{"ontology in RDF/XML", []string{"ontology", "--bblock", path("owl")}, cli.ExitUsage,
			"ontology.owl:2: node elements nested more than 512 deep"},
		{"context of a chain of $ref", []string{"context", "--bblock", path("chain")}, cli.ExitUsage,
			"schema.json: subschemas nested more than 512 deep"},
		{"shacl property shape in itself", []string{"shacl", "--shapes", path("self.ttl"), path("loop.ttl")}, cli.ExitOK, ""},
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
