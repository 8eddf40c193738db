package expr

import "errors"

// ErrType is the error an expression evaluates to when its value is an
// error in the sense of section 17 of SPARQL 1.1 (an operand of the wrong
// type, an unbound variable, a cast that fails...). Every error the
// package returns from evaluating matches it with errors.Is; the
// evaluator treats them all alike (a FILTER drops the solution, BIND
// leaves the variable unbound).
var ErrType = errors.New("type error")

// TypeError tells why an expression's value is an error. It matches
// ErrType with errors.Is.
type TypeError struct {
	Op  string // the operator or function, as Call or Compare takes it
	Msg string // what was wrong
}

func (e *TypeError) Error() string {
	if e.Op == "" {
		return "type error: " + e.Msg
	}
	return e.Op + ": type error: " + e.Msg
}

// Is reports whether target is ErrType.
func (e *TypeError) Is(target error) bool { return target == ErrType }

// typeErr returns a *TypeError for op.
func typeErr(op, msg string) error { return &TypeError{Op: op, Msg: msg} }
