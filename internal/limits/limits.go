// Package limits holds the bound on nesting that jrpcld's readers share.
//
// A reader that follows nested input by recursion would let a small hostile
// file exhaust the stack, a fatal error Go cannot recover from, with a stack
// trace; one whose cost grows with the square of the nesting would let it
// run for hours. Each such reader stops at the same depth, Depth, with an
// error naming the file, the line and the limit: Turtle's [] and (),
// RDF/XML's node elements, a block's JSON and YAML, an OpenAPI document, a
// schema's subschemas through $ref, a transform's JSON, the blockquotes and
// lists of Markdown, and SHACL's nested checks and the parts of its paths.
// docs/guarantees.md lists them, each with the test that holds it.
//
// Readers of what jrpcld writes from logs keep encoding/json's 10,000
// instead (JSON-LD graphs): a log read with --max-depth raised past Depth
// makes a graph nested as deep.
package limits

// Depth is the deepest nesting a reader accepts. No real document comes
// near it: OWL files, schemas and shapes nest a few dozen levels at most.
const Depth = 512
