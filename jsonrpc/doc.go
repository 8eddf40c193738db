// Package jsonrpc holds JSON-RPC 2.0 itself (https://www.jsonrpc.org/specification):
// what kind of message a decoded value is and what is wrong with it
// (Classify; Object, a message read typed from its text, classified
// without a map), the error codes, message ids and their exact comparison
// (IDKey, and ID as a comparable key), the
// direction a message travels in, and the Tracker that pairs responses with
// the requests they answer as a log goes by. It knows nothing of JSON
// Schema, JSON-LD or RDF; everything that reads a log builds on it.
package jsonrpc
