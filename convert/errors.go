package convert

import "errors"

// ErrStrict is wrapped by the error that stops a strict conversion at the
// first message it cannot convert.
var ErrStrict = errors.New("stopped at a message that cannot be converted (strict mode)")
