package shacl

import (
	"errors"
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
)

// Error is a shapes graph that cannot be compiled: the shape (its IRI, or
// a blank node shape's first triples in Turtle's [ ... ] form) and what is
// wrong.
type Error struct {
	Shape string
	Err   error
}

// Error names the shape and what is wrong with it.
func (e *Error) Error() string {
	if e.Shape == "" {
		return "shapes: " + e.Err.Error()
	}
	return "shape " + e.Shape + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// ErrUnsupported is wrapped by the errors of shapes that use what the
// package does not implement: SHACL-JS, targets of a target type,
// constraint components without a SPARQL validator, DASH constraints,
// SHACL-AF expressions and functions. A shapes graph whose shapes in use
// need them is refused, never validated in part.
var ErrUnsupported = errors.New("not supported")

// NestingError is a validation that failed (as SHACL calls a validation it
// cannot complete) because checking a focus node nested the checks of
// nodes against shapes more than the limit deep.
type NestingError struct {
	Focus, Shape rdf.Term // the focus node and shape whose check went too deep
	At, AtShape  rdf.Term // the node and shape checked past the limit
	Limit        int
	shapes       *Graph // for descriptions of blank node shapes
}

// Error names the check that went too deep and the one past the limit.
func (e *NestingError) Error() string {
	return fmt.Sprintf("validation failed: checking %s against shape %s nests checks of nodes against shapes more than %d deep "+
		"(%s against shape %s is one too many): shapes that refer to shapes through a long chain of data?",
		termText(e.Focus), describe(e.shapes, e.Shape), e.Limit, termText(e.At), describe(e.shapes, e.AtShape))
}

// QueryError is a validation that failed because a SPARQL-based
// constraint's query failed (a limit, a time-out, ?failure bound to true).
type QueryError struct {
	Shape, Constraint string // as an error message describes them
	Err               error
}

// Error names the shape and the constraint whose query failed.
func (e *QueryError) Error() string {
	return "validation failed: shape " + e.Shape + ", SPARQL constraint " + e.Constraint + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *QueryError) Unwrap() error { return e.Err }
