// Package rpclog reads logs of JSON-RPC 2.0 traffic: one message or batch,
// JSON lines, pretty-printed documents one after another, or envelope lines
// {"dir":"c2s"|"s2c","ts":"...","msg":{...}} with the direction and time of
// each message, any of them gzip-compressed. Reader gives the records one at
// a time in memory bounded by the longest line; Reader.Batches decodes them
// on every core and hands them on in log order, and can read ordinary
// messages typed, straight into a jsonrpc.Object with no map. A part of a log that cannot
// be read is a record too, with a diagnostic, and the rest is read on.
// Generator writes large synthetic logs from recorded ones.
package rpclog
