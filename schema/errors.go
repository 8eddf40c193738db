package schema

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/dlclark/regexp2/v2"

	"github.com/jrpcld/jrpcld/schema/internal/bignum"
	"github.com/jrpcld/jrpcld/schema/internal/schemadoc"
)

// errGaveUp is the error of a pattern's match given up at once because the
// same pattern already timed out on the same string.
var errGaveUp = errors.New("match timeout")

// PatternError is a match of a pattern that could not be completed in
// time (MatchTimeout) or within the backtracking stack regexp2 allows.
type PatternError struct {
	Pattern, Subject string
	Err              error
}

// Error names the pattern, the string, and why the match did not complete.
func (e *PatternError) Error() string {
	what := "did not complete within " + MatchTimeout.String()
	if errors.Is(e.Err, regexp2.ErrBacktrackingStackLimit) {
		what = "needs more backtracking than allowed"
	}
	return fmt.Sprintf("the pattern %s %s on %s", strconv.Quote(bignum.Abbreviate(e.Pattern)), what, strconv.Quote(bignum.Abbreviate(e.Subject)))
}

// Unwrap returns Err.
func (e *PatternError) Unwrap() error { return e.Err }

// errUnplanned is returned for a schema that uses a keyword plans do not
// implement: its messages go to jsonschema.
var errUnplanned = errors.New("keyword not planned")

// ErrNotLocal is wrapped by errors for references jrpcld will not follow
// because they point to the network or outside the schema's own files.
var ErrNotLocal = schemadoc.ErrNotLocal

// ErrNoDefinition is wrapped by errors for a definition the schema lacks.
var ErrNoDefinition = errors.New("no such definition")
