// Package bblock reads building blocks: a block's metadata (bblock.json),
// its files (schema, JSON-LD context, ontology, examples, tests) and a whole
// register source tree with its dependency order.
//
// The default block, JSON-RPC 2.0, is embedded; Default returns it.
package bblock
