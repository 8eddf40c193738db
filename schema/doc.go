// Package schema compiles building-block JSON schemas offline and validates
// messages against them, and it checks the JSON-RPC 2.0 rules that no schema
// can express: message kinds, error codes, ids and batches.
package schema
