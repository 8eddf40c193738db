package jcs

import "errors"

// ErrNumber is wrapped by errors for a number that has no canonical form
// (beyond the range of a double).
var ErrNumber = errors.New("number out of the range of a double")
