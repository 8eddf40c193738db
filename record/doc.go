// Package record records the traffic of an MCP session as it passes, as a
// log of envelope lines {"dir":"c2s"|"s2c","ts":"...","msg":...}, the form
// package rpclog reads.
//
// Log writes the lines, one write each, so that a crash loses nothing
// written. Stdio runs a server that speaks over its standard input and
// output and passes the client's lines to it and its lines back, unchanged,
// recording each on the way. Proxy is a reverse proxy for the Streamable
// HTTP transport: it forwards a client's requests to the server and records
// the messages of the request bodies, of JSON responses and of the events
// of SSE streams.
package record
