// Package convert maps JSON-RPC messages and logs to RDF with a building
// block's JSON-LD context (see toolchain.ForBlock).
//
// A Mapping turns one message into triples: a plan compiled once from the
// context goes straight from the decoded message to triples, and json-gold,
// the reference JSON-LD processor, maps what the plan does not cover; both
// give the same graph (EngineJSONGold uses json-gold alone). A LogGraph
// adds the log layer of jlog terms: each message a node named after the
// log, its direction and position, typed by its kind, with its time and
// exact id, responses linked to the requests they answer. A Converter
// writes whole logs as Turtle, N-Triples, N-Quads or JSON-LD, reading,
// mapping and formatting on every core and writing in order. UpliftSnippet
// does the semantic uplift of a block's example snippets as the OGC tool
// chain does. Package wire is the way back.
package convert
