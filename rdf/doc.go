// Package rdf is jrpcld's one model of RDF: terms, triples and quads as
// plain comparable values, the IRIs of the vocabularies jrpcld writes, the
// formats it reads and writes, and the Turtle, N-Triples and N-Quads syntax
// family: a reader (Parse) and writers (TurtleWriter, NTriplesWriter,
// NQuadsWriter) that refuse what they cannot write correctly instead of
// writing invalid text.
//
// Every package of jrpcld uses these types, from the mapping of messages to
// the way back and the statistics; JSON-LD (package rdf/jsonld) and RDF/XML
// (package rdf/rdfxml) read into them and write from them too.
//
// Parse makes one pass over the bytes, reports errors with their line and
// column, starts no goroutines and never panics on any input (the
// third-party decoders tried before did not meet these points; see the
// README's architecture section); ParseLines reads large N-Triples and
// N-Quads documents on several cores.
package rdf
