package register

import (
	"errors"
	"fmt"
)

// ErrUsage is wrapped by the errors of Build for options it cannot use.
var ErrUsage = errors.New("bad build options")

// jsonSyntaxError is a JSON document that does not parse, where.
type jsonSyntaxError struct {
	msg       string
	line, col int
}

func (e *jsonSyntaxError) Error() string {
	return fmt.Sprintf("%s (line %d column %d)", e.msg, e.line, e.col)
}
