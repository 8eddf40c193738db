// Package queries is the SPARQL pack: one query per figure of jrpcld stats,
// asked of the graph jrpcld writes for a log (docs/stats.md, "The same
// questions in SPARQL"). The .rq files of this folder are the pack, for a
// user's own triple store; they are embedded here too, so that
// "jrpcld stats --sparql" runs them in jrpcld's own engine (package
// rdf/sparql) from the binary alone, with no checkout and no store.
//
// Pack lists the queries in the pack's order, Run runs them on a dataset,
// and WriteText and WriteJSON print their rows. The queries in mcp/ ask of
// rule findings, not of stats' figures, and are not part of the pack.
package queries
