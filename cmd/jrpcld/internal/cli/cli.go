// Package cli is what every command of jrpcld shares, as gh's cmdutil is
// for its commands: the streams a command may touch (Env), how a command
// is declared (Command) and how it fails (errors.go). Each command lives in
// a package of its own under cmd/jrpcld/internal and knows only this one;
// package main builds the command tree from them.
package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// Exit codes shared by every command.
const (
	ExitOK      = 0 // all went well
	ExitInvalid = 1 // the input has problems
	ExitUsage   = 2 // bad usage, or an I/O error
)

// Env is what a command may touch: its streams. Commands never use os.Std*
// directly, so tests can run them in-process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	ends           []func() // see AtEnd
}

// AtEnd has f run when the command has ended, after the message of its
// failure, if any, is printed: a last line such as the count of problems
// not printed comes after it.
func (e *Env) AtEnd(f func()) { e.ends = append(e.ends, f) }

// End runs the functions given to AtEnd, the last given first.
func (e *Env) End() {
	for i := len(e.ends) - 1; i >= 0; i-- {
		e.ends[i]()
	}
}

// Errorf prints a message of command cmd on standard error, as
// "jrpcld CMD: MESSAGE". Messages quote what the input holds (names, values,
// the text of errors), so each line of the message is escaped with
// termsafe.Escape: no control or bidirectional character reaches the
// terminal. Only the line breaks between joined errors stay; a diagnostic
// has its own line breaks escaped already (diag.Diagnostic.String).
func Errorf(e *Env, cmd, format string, args ...any) {
	fmt.Fprintf(e.Stderr, "jrpcld %s: %s\n", cmd, EscapeLines(fmt.Sprintf(format, args...)))
}

// EscapeLines applies termsafe.Escape to each line of s.
func EscapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termsafe.Escape(l)
	}
	return strings.Join(lines, "\n")
}

// Command is one subcommand of jrpcld.
type Command struct {
	Name    string
	Args    string // the synopsis after the name
	Summary string // one line for the command list
	Help    string // what the command does, for its help and man page
	// Setup binds the command's flags on fs to the fields of its options
	// and returns the runner that runs the command with them.
	Setup func(c *Command, fs *pflag.FlagSet) Runner
}

// Runner runs a command, once its flags are parsed, with the positional
// arguments. It returns nil, or how the command failed: a *Failure, whose
// message is printed, or an ExitError, when the command has printed what
// it had to say.
type Runner func(e *Env, args []string) error

// Plural is "s" unless n is 1, for counts in messages ("3 blocks").
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
