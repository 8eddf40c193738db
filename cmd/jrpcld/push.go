package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/gsp"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register"
	"github.com/jrpcld/jrpcld/rpclog"
)

const pushUsage = "upload each log's graph to the SPARQL 1.1 Graph Store endpoint `URL`, as the named graph of the log's IRI (replacing it), instead of writing it"

// pushLogs converts each file and uploads its graph, as N-Triples, to the
// Graph Store endpoint as the named graph of the log's IRI, replacing what
// the store held under that name. A failed upload is retried by reading the
// file again, so standard input is refused. newConverter gives a converter
// that reports its problems, or none when quiet (a retry, which would
// report them twice).
func pushLogs(e *env, cmd, endpoint, base string, files []string, limits *limitFlags, newConverter func(quiet bool) *convert.Converter) int {
	for _, name := range files {
		if name == "-" {
			errorf(e, cmd, "--push reads each log again when an upload must be retried, so it needs files, not standard input")
			return exitUsage
		}
	}
	for _, name := range files {
		iri := logIRI(base, name, len(files))
		attempts := 0
		write := func(w io.Writer) error {
			attempts++
			in, display, _, err := openInput(e, name)
			if err != nil {
				return err
			}
			defer in.(io.Closer).Close()
			br := bufio.NewReaderSize(in, 64<<10)
			head, _ := br.Peek(512)
			if err := notALog(name, display, head); err != nil {
				return err
			}
			r, err := rpclog.NewReader(br, display, limits.readerOptions())
			if err != nil {
				return err
			}
			return newConverter(attempts > 1).Convert(w, rdf.NTriples, []convert.Log{{Reader: r, File: display, IRI: iri}})
		}
		if err := gsp.Put(context.Background(), endpoint, iri, rdf.NTriples, write); err != nil {
			errorf(e, cmd, "%s: %v", name, err)
			return exitUsage
		}
		fmt.Fprintf(e.stdout, "%s: pushed as <%s>\n", termsafe.Escape(name), termsafe.Escape(iri))
	}
	return exitOK
}

// ontologyGraph is the named graph the OGC tool chain uploads a block's
// ontology to.
func ontologyGraph(id string) string { return "urn:ogc:bblocks/" + id + "/ontology" }

// pushOntologies uploads the ontology.ttl of each built block to the Graph
// Store endpoint, as the OGC tool chain does when bblocks-config.yaml sets
// sparql.push: one named graph per block, urn:ogc:bblocks/ID/ontology,
// replaced. The tool chain first adds the entailments of SKOS profiles it
// fetches; jrpcld uploads the ontology as written, offline.
func pushOntologies(e *env, endpoint, out string, res *register.Result) int {
	errorf(e, "build", "warning: --push uploads the ontologies as written, without the entailments of the SKOS profiles the OGC tool chain fetches and adds first (docs/ogc.md)")
	pushed := 0
	for _, b := range res.Blocks {
		if b.Ontology == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(b.Ontology)))
		if err != nil {
			errorf(e, "build", "--push: %v", err)
			return exitUsage
		}
		write := func(w io.Writer) error {
			_, err := io.Copy(w, bytes.NewReader(data))
			return err
		}
		if err := gsp.Put(context.Background(), endpoint, ontologyGraph(b.ID), rdf.Turtle, write); err != nil {
			errorf(e, "build", "--push %s: %v", termsafe.Escape(b.ID), err)
			return exitUsage
		}
		pushed++
	}
	fmt.Fprintf(e.stdout, "%d ontology graph%s pushed to %s\n", pushed, plural(pushed), termsafe.Escape(endpoint))
	return exitOK
}
