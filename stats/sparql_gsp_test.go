package stats

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/bblock"
	jsonld "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/gsp"
	"github.com/jrpcld/jrpcld/internal/oxitest"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rpclog"
)

// TestSPARQLOverGSP pushes the logs of the fixture, each converted as it is
// sent, to a Graph Store endpoint with package gsp (PUT, each log its named
// graph, N-Triples and Turtle in turn), then runs every query of
// examples/queries through the SPARQL endpoint beside it: the rows must be
// the figures of stats, which TestSPARQLInJena holds ARQ's rows on the
// files to as well. The endpoint is the Oxigraph engine behind the test
// shim of internal/oxitest, not Oxigraph's own server.
func TestSPARQLOverGSP(t *testing.T) {
	front := oxitest.StartFront(t, oxitest.FrontOptions{})
	f := newSPARQLFixture(t)
	bctx, _, err := jsonld.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	for i, file := range f.logs {
		format := []rdf.Format{rdf.NTriples, rdf.Turtle}[i%2]
		iri := f.iris[i]
		write := func(w io.Writer) error {
			in, err := os.Open(file)
			if err != nil {
				return err
			}
			defer in.Close()
			r, err := rpclog.NewReader(in, file, rpclog.ReaderOptions{})
			if err != nil {
				return err
			}
			return convert.NewConverter(bctx).Convert(w, format, []convert.Log{{Reader: r, File: file, IRI: iri}})
		}
		if _, err := gsp.Put(ctx, front.StoreURL(), iri, format, write); err != nil {
			t.Fatalf("pushing %s: %v", file, err)
		}
	}
	rows := make([][]map[string]string, len(sparqlQueries))
	errs := make([]error, len(sparqlQueries))
	for i, file := range queryFiles() {
		q, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rows[i], errs[i] = front.Query(ctx, string(q))
	}
	t.Logf("%d logs pushed and %d queries run over HTTP: %v", len(f.logs), len(sparqlQueries), time.Since(start).Round(time.Millisecond))
	f.check(t, rows, errs)
}
