package sparql_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/results"
)

// packGraph returns the N-Triples the SPARQL pack is measured on: the file
// JRPCLD_SPARQL_BENCH names, else the graph bench/sparql.sh generates
// (bench/out/sparql/log.nt, from "jrpcld gen" and "jrpcld rdf"). Without
// either the benchmark is skipped, for the generator is a command's.
func packGraph(b *testing.B) []byte {
	b.Helper()
	path := os.Getenv("JRPCLD_SPARQL_BENCH")
	if path == "" {
		path = filepath.Join("..", "..", "bench", "out", "sparql", "log.nt")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("no N-Triples to measure (%v): run bench/sparql.sh once, or set JRPCLD_SPARQL_BENCH to a .nt file", err)
	}
	return data
}

// loadPack loads N-Triples as "jrpcld query" does: read a piece at a time
// by rdf.ReadLines, each piece added to the dataset.
func loadPack(b *testing.B, nt []byte) *sparql.Dataset {
	ds := sparql.NewDataset()
	err := rdf.ReadLines(bytes.NewReader(nt), rdf.NTriples, func(qs []rdf.Quad) error { return ds.Add(qs...) })
	if err != nil {
		b.Fatal(err)
	}
	return ds
}

// BenchmarkPack is what bench/sparql.sh times in a process of its own for
// each query of examples/queries: load the graph, run the query, write the
// answer as SPARQL JSON. "load" is the load alone, with ASK {} to make the
// indexes.
func BenchmarkPack(b *testing.B) {
	nt := packGraph(b)
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "queries", "*.rq"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no queries in examples/queries: %v", err)
	}
	run := func(b *testing.B, src string) {
		q, err := sparql.ParseQuery(src, "http://example.com/q.rq")
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			res, err := loadPack(b, nt).Query(context.Background(), q, sparql.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if err := res.Write(io.Discard, results.JSON); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("load", func(b *testing.B) { run(b, "ASK {}") })
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(f), ".rq"), func(b *testing.B) { run(b, string(src)) })
	}
}
