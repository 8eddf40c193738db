// Command jrpcld turns JSON-RPC 2.0 and MCP traffic into linked data and
// back, validates messages and logs, and builds building-block registers.
//
// Run "jrpcld help" for the list of commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// Exit codes shared by every command.
const (
	exitOK      = 0 // all went well
	exitInvalid = 1 // the input has problems
	exitUsage   = 2 // bad usage, or an I/O error
)

// env is what a command may touch: its streams. Commands never use os.Std*
// directly, so tests can run them in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// errorf prints a message of command cmd on standard error, as
// "jrpcld CMD: MESSAGE". Messages quote what the input holds (names, values,
// the text of errors), so each line of the message is escaped with
// termsafe.Escape: no control or bidirectional character reaches the
// terminal. Only the line breaks between joined errors stay; a diagnostic
// has its own line breaks escaped already (diag.Diagnostic.String).
func errorf(e *env, cmd, format string, args ...any) {
	fmt.Fprintf(e.stderr, "jrpcld %s: %s\n", cmd, escapeLines(fmt.Sprintf(format, args...)))
}

// escapeLines applies termsafe.Escape to each line of s.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termsafe.Escape(l)
	}
	return strings.Join(lines, "\n")
}

// command is one subcommand.
type command struct {
	name    string
	args    string // the synopsis after the name
	summary string // one line for the command list
	run     func(e *env, args []string) int
}

func commands() []command {
	return []command{
		validateCommand(),
		rdfCommand(),
		turtleCommand(),
		jsonCommand(),
		examplesCommand(),
		statsCommand(),
		contextCommand(),
		annotateCommand(),
		ontologyCommand(),
		genCommand(),
		buildCommand(),
		serveCommand(),
	}
}

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

func run(args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return run([]string{args[1], "-h"}, e)
		}
		usage(e.stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "jrpcld: unknown command %q\n\n", name)
	usage(e.stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "jrpcld turns JSON-RPC 2.0 and MCP messages into linked data and back.\n\nUsage:\n\n")
	cmds := commands()
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, c := range cmds {
		fmt.Fprintf(w, "  jrpcld %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"jrpcld help COMMAND\" for a command's flags.\n")
}

// newFlags returns a flag set for command c whose usage text lists the
// synopsis, a description and the flags.
func newFlags(e *env, c *command, description string) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: jrpcld %s %s\n\n%s\n", c.name, c.args, strings.TrimSpace(description))
		fmt.Fprintf(w, "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses flags that may come before, between or after the
// positional arguments, which it returns. "-" is a positional argument and
// "--" ends the flags. It reports errHelp for -h.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parse runs parseArgs and turns its errors into an exit code: 0 with ok
// false for -h (the usage was printed), 2 for other errors.
func parse(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, exitOK, false
	}
	if err != nil {
		return nil, exitUsage, false
	}
	return pos, exitOK, true
}
