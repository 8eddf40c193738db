// Package pipeline builds the Apache Beam pipelines of jrpcld-beam: the
// conversion of JSON-RPC and MCP logs to N-Quads, spread over the workers of
// any Beam runner (Prism locally; Dataflow, Flink or Spark on a cluster).
//
// Every step that makes a graph is done by the jrpcld packages themselves:
// a log is read by rpclog and turned into N-Quads by convert's Converter,
// exactly as "jrpcld rdf --format nquads" does, so each log's named graph
// is the one the command line gives for that file. Beam only spreads the
// files over the workers and gathers the lines into output shards. Validate
// checks each log with schema.ValidateLog and gathers the problems and the
// summaries in a combiner; Stats summarises each log with package stats and
// adds them up (stats.Stats.Add) in a combiner; both write what the command
// line prints.
package pipeline
