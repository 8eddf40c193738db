// Package wire turns the graphs jrpcld writes from logs back into the
// messages they came from, as they went over the wire: Decoder reads a
// dataset (or streams Turtle, N-Triples and N-Quads laid out as jrpcld
// writes them) and rebuilds each log's messages in order with their
// directions and times. It is the inverse of a block's context: each
// property a term maps becomes the term's member, an rdf:JSON literal the
// JSON value it holds, a blank node an object read with the term's scoped
// context; jlog:id gives back the id as sent and jlog:patch, a JSON Patch,
// whatever the context could not carry, so that each message comes back
// equal to the one sent, as a JSON value. Patch makes that patch for the
// mapping.
package wire
