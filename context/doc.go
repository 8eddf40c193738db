// Package context is jrpcld's JSON-LD 1.1 context processor: it turns the
// value of a context's "@context" into term definitions, once, so that
// messages are mapped to RDF and back without processing the context again
// for each one. It knows no building block and no register: package
// register/toolchain builds a block's context and hands it here.
//
// Parse processes a context document: terms, prefixes and compact IRIs,
// @vocab, @base, @import, type coercion, containers, protected terms and
// property-scoped contexts. Nothing is fetched: a string context reference
// resolves only through Options, else the error is an *UnmappedError naming
// it. Process makes the Processed context messages are mapped with, its
// nested scopes kept as they are first met (Scope). WriteJSON writes a
// document with sorted keys, so the same input always gives the same bytes.
//
// Other packages import it as ldctx, leaving "context" to the standard
// library and "jsonld" to rdf/jsonld.
package context
