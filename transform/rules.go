package transform

import (
	"context"

	"github.com/jrpcld/jrpcld/rdf"
)

// rulesAvailable reports whether jrpcld has a SHACL rules engine to run
// shacl-af-rule and shacl transforms and semantic-uplift shacl steps with.
// It is false until package shacl's Infer is part of the build.
const rulesAvailable = false

// rules runs SHACL rules over a snippet's graph.
func rules(ctx context.Context, typ, shapes string, in Input, target string) ([]byte, error) {
	return nil, &NotRunError{Type: typ, Runner: "pySHACL"}
}

// inferGraph adds to a graph what the SHACL rules of shapes (Turtle) infer
// from it.
func inferGraph(ctx context.Context, shapes string, ts []rdf.Triple) ([]rdf.Triple, error) {
	return nil, &NotRunError{Type: TypeSHACL, Runner: "pySHACL"}
}
