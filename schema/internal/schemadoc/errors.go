package schemadoc

import "errors"

// ErrNotLocal is wrapped by errors for references jrpcld will not follow
// because they point to the network or outside the schema's own files.
var ErrNotLocal = errors.New("not a local reference")
