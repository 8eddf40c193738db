package jsonparse

// SyntaxError is a parse failure at byte Offset of the text. EOF tells that
// the text ended inside a value (not inside a string): more text could
// complete it.
type SyntaxError struct {
	Offset int
	Msg    string
	EOF    bool
}

// Error returns Msg.
func (e *SyntaxError) Error() string { return e.Msg }
