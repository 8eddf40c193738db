package cli

import "fmt"

// ExitError carries a command's exit status through cobra: the command
// has printed what it had to say.
type ExitError int

func (x ExitError) Error() string { return fmt.Sprintf("exit status %d", int(x)) }

// Failure is a command's failure with a message: printed on standard error
// as "jrpcld CMD: MESSAGE", and the process exits with status Code.
type Failure struct {
	Code int
	Msg  string
}

func (f *Failure) Error() string { return f.Msg }

// Fail is the failure with exit status 2 (a usage or I/O error) and the
// text of err.
func Fail(err error) error { return &Failure{ExitUsage, err.Error()} }

// Failf is the failure with exit status 2 and a formatted message.
func Failf(format string, args ...any) error {
	return &Failure{ExitUsage, fmt.Sprintf(format, args...)}
}

// Status is the error of a command that ends with exit status code, having
// printed what it had to say: nil for ExitOK.
func Status(code int) error {
	if code == ExitOK {
		return nil
	}
	return ExitError(code)
}

// UsageError is a mistake on the command line, printed as one line
// followed by where to find the command's usage.
type UsageError struct{ Msg string }

func (u *UsageError) Error() string { return u.Msg }
