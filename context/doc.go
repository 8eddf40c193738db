// Package context loads and merges JSON-LD contexts, annotates a JSON schema
// from a context and builds a context back from an annotated schema, as the
// OGC building-block tool chain does.
//
// Contexts are processed by the package's own JSON-LD 1.1 context processor
// (Parse, Load, Stack): terms, prefixes and compact IRIs, @vocab, @base,
// @import, type coercion, containers, protected terms and property-scoped
// contexts. Nothing is fetched: a string context reference resolves only
// through Options, else the error is an *UnmappedError naming it.
//
// A block's effective context is its Stack: the contexts of the blocks it
// depends on, then its own. Annotate writes that context into a copy of the
// block's schema as x-jsonld-* annotations; Build turns the annotated schema,
// and those of the blocks it refers to, into the block's JSON-LD context.
// WriteJSON and WriteYAML write the results with sorted keys, so the same
// input always gives the same bytes.
package context
