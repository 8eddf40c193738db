// Package convert moves data: it reads message logs, turns messages into RDF
// and writes Turtle, N-Triples, N-Quads and JSON-LD, and turns RDF back into
// wire JSON.
package convert
