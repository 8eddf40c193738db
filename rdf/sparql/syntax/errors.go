package syntax

import "fmt"

// SyntaxError is a query or update the grammar, or one of the rules the
// specification adds to it, refuses: Line and Col (1-based, Col counted in
// characters) locate the token where the parser stopped.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

// Error returns "line L, column C: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}
