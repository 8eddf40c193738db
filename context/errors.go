package context

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoContext is wrapped by the errors for a block that has no context to
// map messages with.
var ErrNoContext = errors.New("no JSON-LD context")

// UnmappedError reports a context reference that no local mapping resolves.
type UnmappedError struct {
	Ref string // the reference as written
	In  string // the document that holds it
}

// Error names the reference, where it is, and how to map it.
func (e *UnmappedError) Error() string {
	if isAbsIRI(e.Ref) && !strings.HasPrefix(e.Ref, "file:") {
		return fmt.Sprintf("%s: context %s is remote; jrpcld does not fetch: save it and map it with --context-map %s=FILE", e.In, e.Ref, e.Ref)
	}
	return fmt.Sprintf("%s: context reference %q is not mapped; jrpcld does not read it by itself: map it with --context-map %s=FILE", e.In, e.Ref, e.Ref)
}
