package owlimports

import "fmt"

// MapError is a --map pair that cannot be used.
type MapError struct {
	Pair, Reason string
}

func (e *MapError) Error() string {
	return fmt.Sprintf("--map %q: %s (give --map URL=FILE, the URL an owl:imports names)", e.Pair, e.Reason)
}

// ImportError is a mapped file of an owl:imports that could not be read.
type ImportError struct {
	IRI, File string
	Err       error
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("owl:imports <%s>, mapped to %s: %v", e.IRI, e.File, e.Err)
}

func (e *ImportError) Unwrap() error { return e.Err }
