// Package mcp holds what jrpcld knows of the Model Context Protocol beyond
// JSON-RPC 2.0: which official schema a log is to be checked against, and
// how recordings made by other tools become the log jrpcld reads. Both sit
// between the protocol (package jsonrpc and its log reader) and the command
// line; live recording is package record, below this one.
//
// Schemas. Negotiated finds the version a log's initialize handshake agreed
// on; Set finds that version's schema.json in a folder laid out
// VERSION/schema.json, such as the cache "jrpcld fetch mcp-schemas" fills
// (CacheDir). The package knows the released versions, where the
// specification publishes their schemas and the sha256 of each one's
// content (Released, ContentSHA256), and uses no network.
//
// Recordings. ReadRecording and ConvertRecording turn MCP Inspector's
// exports (its request history, and its network log of Streamable HTTP
// traffic), mcp-recorder's cassettes and agent-vcr's .vcr files, as those
// tools publish them, into envelope lines {"dir","ts","msg"}; WriteLog
// writes them. Messages keep their JSON text (member order, number
// spelling); each gets the direction the recording gives it and the time it
// records, where it records one. A time the recording gives only as a delay
// after a request (a response's latency) is added to the request's, to the
// nanosecond: a recording of a fast local server answers within
// microseconds, and an answer's time cut to the millisecond would come
// before its request's. The order is the recording's: its entries as it
// lists them, and what each holds after its request, merged by time with
// the entries after it.
package mcp
