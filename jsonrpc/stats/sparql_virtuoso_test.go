//go:build virtuoso

package stats

import (
	"context"
	"os"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/virtuosotest"
	"github.com/jrpcld/jrpcld/rdf/gsp"
)

// virtuosoEngines returns Virtuoso among the engines of TestSPARQLEngines:
// the build tag virtuoso is set.
func virtuosoEngines() []sparqlEngine { return []sparqlEngine{{"virtuoso", runVirtuoso}} }

// runVirtuoso starts Virtuoso, pushes the logs with Digest credentials to
// /sparql-graph-crud-auth and runs the queries at /sparql, whose default
// graph is the union of all graphs.
func runVirtuoso(t *testing.T, ctx context.Context, f *sparqlFixture) {
	v := virtuosotest.Start(t)
	f.push(t, ctx, &gsp.Client{User: virtuosotest.User, Password: virtuosotest.Password}, v.GraphStoreURL())
	a := newAnswers()
	for i, file := range queryFiles() {
		q, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		a.rows[i], a.errs[i] = v.Query(ctx, string(q))
	}
	f.check(t, a.rows, a.errs)
}
