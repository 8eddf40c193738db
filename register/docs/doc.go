// Package docs writes what a register build publishes about its blocks, in
// the formats of the OGC building-block tool chain: register.json, each
// block's full JSON and Markdown documentation, register-summary.md and the
// copies of imported registers the OGC viewer reads; and it renders the
// Markdown of descriptions as HTML that loads nothing, for jrpcld's pages.
//
// Package register builds the blocks and hands what it made to a Register,
// whose Write method produces the files.
package docs
