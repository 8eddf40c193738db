// Package limits holds the bound on nesting that jrpcld's readers share.
//
// A reader that follows nested input by recursion would let a small hostile
// file exhaust the stack, a fatal error Go cannot recover from, with a stack
// trace; one whose cost grows with the square of the nesting would let it
// run for hours. Each such reader stops at the same depth, Depth, with an
// error naming the file, the line and the limit. docs/guarantees.md lists
// them, each with the test that holds it.
package limits

// Depth is the deepest nesting a reader accepts: Turtle's [] and (),
// RDF/XML's node elements. No real document comes near it: OWL files and
// shapes nest a few dozen levels at most.
const Depth = 512
