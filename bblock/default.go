package bblock

import (
	"embed"
	"io/fs"
)

//go:embed jsonrpc
var defaultFS embed.FS

// DefaultID is the identifier of the embedded JSON-RPC 2.0 block.
const DefaultID = "jrpcld.json-rpc"

// DefaultFS returns the files of the embedded JSON-RPC 2.0 block, a plain
// block folder that can be copied as a template for a new block.
func DefaultFS() fs.FS {
	sub, err := fs.Sub(defaultFS, "jsonrpc")
	if err != nil {
		panic(err) // the folder is embedded at build time
	}
	return sub
}

// Default returns the embedded JSON-RPC 2.0 building block, loaded afresh.
func Default() *Block {
	b, err := Load(DefaultFS(), DefaultID)
	if err != nil {
		panic("bblock: embedded default block: " + err.Error())
	}
	b.embedded = true
	return b
}
