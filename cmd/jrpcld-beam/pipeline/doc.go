// Package pipeline builds the Apache Beam pipelines of jrpcld-beam: the
// conversion of JSON-RPC and MCP logs to N-Quads, spread over the workers of
// any Beam runner (Prism locally; Dataflow, Flink or Spark on a cluster).
//
// Every step that makes a graph is done by the jrpcld packages themselves:
// a log is read by rpclog and turned into N-Quads by convert's Converter,
// exactly as "jrpcld rdf --format nquads" does, so each log's named graph
// is the one the command line gives for that file. A big JSON lines log is
// read in byte ranges (rpclog.NewRangeReader) by several workers: Beam
// transforms give each record its position and pair requests and
// responses (convert.PairEntries, convert.Pairer), and each range's
// statements are built by convert.LogGraph.Build into a file of its own.
// Validate checks each log with schema.ValidateLog and gathers the problems
// and the summaries in a combiner; Stats summarises each log with package
// stats and adds them up (stats.Stats.Add) in a combiner; both write what
// the command line prints.
package pipeline
