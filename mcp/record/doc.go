// Package record records the traffic of an MCP session as it passes, as a
// log of envelope lines {"dir":"c2s"|"s2c","ts":"...","msg":...}, the form
// package rpclog reads; text that is not UTF-8, which no JSON can hold, is
// kept byte for byte in "bytes" (base64) in place of "msg".
//
// Log writes the lines, one write each, so that a crash loses nothing
// written. Stdio runs a server that speaks over its standard input and
// output and passes the client's lines to it and its lines back, unchanged,
// recording each on the way. Proxy is a reverse proxy for the Streamable
// HTTP transport: it forwards a client's requests to the server and records
// the messages of the request bodies, of JSON responses and of the events
// of SSE streams, which SSEParser reads exactly as the HTML standard's
// event stream interpretation does, as a browser would.
//
// What the log holds is what the peer got: each message is logged before
// its last byte is passed on (so before any answer to it), and an SSE event
// only once its stream has dispatched it. Memory is bounded by the Log's
// Max whatever the size of a line, a body or an event: a longer one passes
// on unchanged, streamed, and is logged cut, as its length and its first
// bytes ({"dir",...,"truncated":N,"msg":"..."}), which jrpcld's readers
// keep and report.
package record
