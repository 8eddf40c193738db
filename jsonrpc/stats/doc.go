// Package stats summarises JSON-RPC 2.0 and MCP message logs, and the graphs
// jrpcld writes for them: messages by kind and direction, requests and
// notifications per method, request/response pairing (answered, unanswered,
// ids reused while a request is open, orphan responses), error responses by
// code and method, MCP tools/call calls and isError results per tool,
// latency percentiles per method, and the problems validation found.
//
// A Collector counts one log record by record with bounded memory; ReadLog
// feeds it a message log and ReadGraph the logs of a graph, whose messages
// wire.Decoder rebuilds with the context of the graph's building block.
// A Report gathers the logs and their total and writes them as text tables,
// one JSON object (documented in docs/stats.md) or a self-contained HTML
// page. The same figures are computed in SPARQL by the queries in
// examples/queries, which "jrpcld stats --sparql" runs (package queries).
package stats
