package eval

import (
	"fmt"
	"strconv"

	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
)

// errUnbound is the error of an unbound variable's value.
var errUnbound = &expr.TypeError{Msg: "unbound variable"}

// LimitError stops a query that holds more solutions at once than
// Options.MaxSolutions allows.
type LimitError struct{ Max int }

func (e *LimitError) Error() string {
	return "sparql: the query holds more than " + strconv.Itoa(e.Max) +
		" solutions at once; narrow it (more selective patterns, LIMIT) or raise the limit"
}

// CanceledError stops a query whose context is done: canceled, or past
// its deadline (the timeout).
type CanceledError struct{ Err error }

func (e *CanceledError) Error() string { return "sparql: evaluation stopped: " + e.Err.Error() }

// Unwrap returns the context's error.
func (e *CanceledError) Unwrap() error { return e.Err }

// RefusedError is something the engine will not do, and why: SERVICE
// (the network), LOAD without a loader, an operator it does not know.
type RefusedError struct{ What, Why string }

func (e *RefusedError) Error() string { return fmt.Sprintf("sparql: %s refused: %s", e.What, e.Why) }

// UpdateError is an update operation that failed (a graph that does not
// exist, one that exists already), naming the operation.
type UpdateError struct {
	Op  string // CREATE, DROP, ...
	Msg string
}

func (e *UpdateError) Error() string { return "sparql: " + e.Op + ": " + e.Msg }
