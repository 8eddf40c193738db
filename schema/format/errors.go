package format

import "errors"

// errInvalid is the error of a value a boolean check refuses.
var errInvalid = errors.New("not as ajv-formats reads it")

// errNotInteger is the error of an int32 or int64 value that is not an
// integer.
var errNotInteger = errors.New("not an integer")
