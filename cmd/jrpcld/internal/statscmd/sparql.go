package statscmd

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/query"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/examples/queries"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

const sparqlHelp = `--sparql runs the SPARQL pack instead (the queries of examples/queries,
embedded in jrpcld; docs/stats.md) in jrpcld's own engine: each LOG is
turned into its graph in-process, in a named graph of its own, as jrpcld
query does with a log INPUT (an RDF file is read as it is), and each
query's rows are printed in the pack's order: a titled table per query, or
with --format json one object {"queries": [...]} holding for each query its
name, title and SPARQL 1.1 JSON results. It is much slower than stats' own
figures on a large log: latency.rq grows with the square of a method's
answered requests (docs/stats.md). Nothing is validated, and nothing
is reached over the network: to run the pack on a remote store, push the
graphs there with jrpcld push and use the store's own tools.`

// notWithSPARQL are the flags of stats that --sparql has no use for: they
// concern validation or the HTML report.
var notWithSPARQL = []string{"schema", "formats", "html", "mcp", "mcp-schemas", "mcp-version", "mcp-rules"}

// checkSPARQL refuses the flags --sparql has no use for.
func checkSPARQL(fs *pflag.FlagSet) error {
	for _, name := range notWithSPARQL {
		if fs.Changed(name) {
			return cli.Failf("--sparql validates nothing and writes no HTML: drop --%s", name)
		}
	}
	return nil
}

// runSPARQL runs the SPARQL pack on the graph of the logs and prints the
// rows of each query. The exit status is 1 when a log line could not be
// converted (printed on standard error), as for jrpcld query.
func (o *statsOptions) runSPARQL(e *cli.Env, files []string) error {
	b, reg := bblock.Default(), (*bblock.Register)(nil)
	if o.dir != "" {
		var err error
		if b, reg, err = bblock.Open(o.dir, o.id, nil); err != nil {
			return cli.Fail(err)
		}
	}
	openContext := func() (*ldctx.Processed, error) {
		ctx, warns, err := toolchain.ForBlock(b, reg, nil)
		cli.Warn(e, o.cmd, warns)
		return ctx, err
	}
	ds, problems, err := query.Dataset(e, o.cmd, "", openContext, files)
	if err != nil {
		return cli.Fail(err)
	}
	answers, err := queries.Run(context.Background(), ds, sparql.Options{})
	if err != nil {
		return cli.Fail(err)
	}
	if o.format == "json" {
		err = queries.WriteJSON(e.Stdout, answers)
	} else {
		err = queries.WriteText(e.Stdout, answers)
	}
	if err != nil {
		return cli.Fail(err)
	}
	if problems > 0 {
		return cli.ExitError(cli.ExitInvalid)
	}
	return nil
}
