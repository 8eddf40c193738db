package transform

import (
	"errors"
	"fmt"
)

// NotRunError is the error of a transform or uplift step that jrpcld does
// not run.
type NotRunError struct {
	ID     string // the transform's id; "" for an uplift step
	Type   string
	Runner string // what runs it in the tool chain, as Runner says it
	// Why is set when the type is one jrpcld runs but cannot here.
	Why string
}

// Error names the transform or step and why it was not run.
func (e *NotRunError) Error() string {
	what, kind := fmt.Sprintf("transform %q (%s)", e.ID, e.Type), "transforms"
	if e.ID == "" {
		what, kind = fmt.Sprintf("%s step", e.Type), "steps"
	}
	if e.Why != "" {
		return fmt.Sprintf("%s not run: %s", what, e.Why)
	}
	return fmt.Sprintf("%s not run: jrpcld does not run %s %s; %s", what, e.Type, kind, e.Runner)
}

// ErrNotRun is wrapped by every *NotRunError, for errors.Is.
var ErrNotRun = errors.New("transform not run")

// Is reports whether target is ErrNotRun.
func (e *NotRunError) Is(target error) bool { return target == ErrNotRun }

// MemoryError is the error of a step a Sandbox stopped past its memory
// limit.
type MemoryError struct {
	Limit int64  // the limit, in bytes
	Hint  string // how to raise it, or ""
	// Output is set when the step ran within the limit but its output was
	// larger than a quarter of it, which is all the sandbox takes back.
	Output bool
}

// Error says which limit the step passed and how to raise it.
func (e *MemoryError) Error() string {
	msg := "stopped: past the memory limit of " + mebibytes(e.Limit)
	if e.Output {
		msg = fmt.Sprintf("stopped: its output is larger than %s, a quarter of the memory limit of %s", mebibytes(outputLimit(e.Limit)), mebibytes(e.Limit))
	}
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

// StepError is the error of a step that failed or was not run: the tool
// chain stops the uplift there.
type StepError struct {
	Step *Step
	Err  error
}

// Error names the step, where it comes from, and its error.
func (e *StepError) Error() string {
	from := ""
	if e.Step.From != "" {
		from = " (inherited from " + e.Step.From + ")"
	}
	return fmt.Sprintf("%s-uplift %s step from %s%s: %v", e.Step.Stage(), e.Step.Type, e.Step.Source(), from, e.Err)
}

// Unwrap returns Err.
func (e *StepError) Unwrap() error { return e.Err }
