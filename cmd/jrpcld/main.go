// Command jrpcld turns JSON-RPC 2.0 and MCP traffic into linked data and
// back, validates messages and logs, and builds building-block registers.
//
// Run "jrpcld help" for the list of commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/fetch"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/gen"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/importcmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/record"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/serve"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/register/transform"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The names below are cli's, under the names the commands still in
// package main use.

// Exit codes shared by every command.
const (
	exitOK      = cli.ExitOK
	exitInvalid = cli.ExitInvalid
	exitUsage   = cli.ExitUsage
)

type (
	env        = cli.Env
	exitError  = cli.ExitError
	failure    = cli.Failure
	usageError = cli.UsageError
	runner     = cli.Runner
)

// errorf prints a message of command cmd on standard error (cli.Errorf).
func errorf(e *env, cmd, format string, args ...any) { cli.Errorf(e, cmd, format, args...) }

// escapeLines applies termsafe.Escape to each line of s.
func escapeLines(s string) string { return cli.EscapeLines(s) }

// fail is cli.Fail.
func fail(err error) error { return cli.Fail(err) }

// failf is cli.Failf.
func failf(format string, args ...any) error { return cli.Failf(format, args...) }

// status is cli.Status.
func status(code int) error { return cli.Status(code) }

// command is one subcommand of jrpcld.
type command struct {
	name    string
	args    string // the synopsis after the name
	summary string // one line for the command list
	help    string // what the command does, for its help and man page
	// setup binds the command's flags on fs to the fields of its options
	// and returns the runner that runs the command with them.
	setup func(c *command, fs *pflag.FlagSet) runner
}

func commands() []command {
	return []command{
		validateCommand(),
		shaclCommand(),
		rdfCommand(),
		turtleCommand(),
		jsonCommand(),
		examplesCommand(),
		statsCommand(),
		queryCommand(),
		contextCommand(),
		annotateCommand(),
		ontologyCommand(),
		fromCLI(gen.NewCmd()),
		fromCLI(record.NewCmd()),
		fromCLI(importcmd.NewCmd()),
		fromCLI(fetch.NewCmd()),
		buildCommand(),
		fromCLI(serve.NewCmd()),
		manCommand(),
		versionCommand(),
	}
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == transform.ChildArg {
		os.Exit(serveTransforms())
	}
	os.Exit(run(os.Args[1:], &env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

// serveTransforms is jrpcld as the child process of the sandbox that runs
// a build's transforms (see transform.Sandbox): no command, no flags.
func serveTransforms() int {
	if err := transform.ServeChild(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "jrpcld: running transforms: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// run runs jrpcld with the command-line arguments args (without the
// program's name) and returns its exit status. Each run builds its own
// command tree: nothing is shared between runs.
func run(args []string, e *env) int {
	root := newRoot(e)
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	root.SetArgs(args)
	if cmd, rest, err := root.Find(args); err == nil && cmd != root {
		if err := checkDashes(cmd, rest); err != nil {
			printUsageError(e, cmd, err)
			return exitUsage
		}
	}
	cmd, err := root.ExecuteC()
	var x exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &x):
		return int(x)
	}
	printUsageError(e, cmd, err)
	return exitUsage
}

// printUsageError prints err, a mistake on cmd's command line, in one line
// and then where to read cmd's usage.
func printUsageError(e *env, cmd *cobra.Command, err error) {
	path := "jrpcld"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintf(e.Stderr, "%s: %s\n", path, escapeLines(err.Error()))
	if cmd == nil || !cmd.HasParent() {
		fmt.Fprintf(e.Stderr, "see 'jrpcld --help'\n")
		return
	}
	fmt.Fprintf(e.Stderr, "see '%s --help'\n", path)
}

// newRoot returns the command tree of jrpcld, writing to e's streams.
func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:                        "jrpcld",
		Short:                      "turn JSON-RPC 2.0 and MCP messages into linked data and back",
		Long:                       "jrpcld turns JSON-RPC 2.0 and MCP messages into linked data and back.",
		Version:                    version(),
		SilenceErrors:              true,
		SuggestionsMinimumDistance: 2,
		SilenceUsage:               true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return nil
		},
		// Without a command: the list of commands on standard output and
		// exit status 0, as cobra does for a command that only groups others.
		RunE: func(cmd *cobra.Command, args []string) error {
			listCommands(e.Stdout, cmd)
			return nil
		},
	}
	root.SetIn(e.Stdin)
	root.SetOut(e.Stdout)
	root.SetErr(e.Stderr)
	root.SetVersionTemplate("jrpcld {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) { writeHelp(cmd.OutOrStdout(), cmd) })
	root.Flags().SortFlags = false
	for _, c := range commands() {
		root.AddCommand(cobraCommand(e, c))
	}
	root.SetHelpCommand(helpCommand(root))
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Short = "print a shell completion script (bash, zsh, fish or powershell)"
			c.Use = "completion bash|zsh|fish|powershell"
			c.DisableFlagsInUseLine = true
			// Without a shell: the help; with another word: an error,
			// rather than the help and exit status 0.
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) == 0 {
					return cmd.Help()
				}
				return &usageError{Msg: fmt.Sprintf("no completion script for %q: give bash, zsh, fish or powershell", args[0])}
			}
		}
	}
	return root
}

// cobraCommand turns c into a cobra command that runs with the streams of e.
func cobraCommand(e *env, c command) *cobra.Command {
	cmd := &cobra.Command{
		Use:                   strings.TrimSpace(c.name + " " + c.args),
		Short:                 c.summary,
		Long:                  strings.TrimSpace(c.help),
		DisableFlagsInUseLine: true,
	}
	cmd.Flags().SortFlags = false
	runner := c.setup(&c, cmd.Flags())
	addCompletions(cmd, c.name)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		// With -q, repeated warnings are folded into one line; with
		// --quiet=all, dropped.
		run := &env{Stdin: e.Stdin, Stdout: e.Stdout, Stderr: e.Stderr}
		if w := cli.FoldWarnings(e.Stderr, cmd.Flags()); w != nil {
			run.Stderr = w
			defer w.Flush()
		}
		err := runner(run, args)
		var f *failure
		if errors.As(err, &f) {
			errorf(run, c.name, "%s", f.Msg)
			err = status(f.Code)
		}
		run.End()
		return err
	}
	return cmd
}

// helpCommand is "jrpcld help [COMMAND]": the list of commands on standard
// output, or a command's help.
func helpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:                   "help [COMMAND]",
		Short:                 "list the commands, or describe one and its flags",
		Long:                  "Lists the commands, or describes COMMAND and its flags (as \"jrpcld COMMAND --help\" does).",
		DisableFlagsInUseLine: true,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			for _, c := range root.Commands() {
				if c.IsAvailableCommand() || c == cmd {
					names = append(names, cobra.CompletionWithDesc(c.Name(), c.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return root.Help()
			}
			target, rest, err := root.Find(args)
			if err != nil || target == root {
				return unknownCommand(root, args[0])
			}
			if len(rest) > 0 {
				return &usageError{Msg: fmt.Sprintf("%s has no subcommand %q", target.CommandPath(), rest[0])}
			}
			return target.Help()
		},
	}
}

// unknownCommand is the error for a command name root does not know, with
// the names that come close.
func unknownCommand(root *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if s := root.SuggestionsFor(name); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	}
	return &usageError{Msg: msg}
}

// flagError turns an error of the flags' parser into a usage error, with
// the flag that was probably meant when the name is unknown.
func flagError(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) || ne.GetSpecifiedName() == "" {
		return &usageError{Msg: err.Error()}
	}
	name := ne.GetSpecifiedName()
	if ne.GetSpecifiedShortnames() != "" {
		// A one-letter flag: the one that differs only in case, if any.
		if s := closestShorthand(cmd.Flags(), name); s != "" {
			return &usageError{Msg: fmt.Sprintf("%v; did you mean -%s?", err, s)}
		}
		return &usageError{Msg: err.Error()}
	}
	if s := closestFlag(cmd.Flags(), name); s != "" {
		return &usageError{Msg: fmt.Sprintf("%v; did you mean --%s?", err, s)}
	}
	// A flag of jrpcld itself (--version), given after a command.
	if root := cmd.Root(); root != cmd {
		root.InitDefaultVersionFlag()
		if s := closestFlag(root.Flags(), name); s != "" && s != "help" {
			return &usageError{Msg: fmt.Sprintf("%v; did you mean jrpcld --%s (a flag of jrpcld itself, before any command)?", err, s)}
		}
	}
	return &usageError{Msg: err.Error()}
}

// closestShorthand returns the one-letter flag of fs that is letter, in the
// other case, or "".
func closestShorthand(fs *pflag.FlagSet, letter string) string {
	best := ""
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Shorthand != "" && f.Shorthand != letter && strings.EqualFold(f.Shorthand, letter) {
			best = f.Shorthand
		}
	})
	return best
}

// closestFlag returns the name of the visible flag of fs nearest to name
// (see suggest.Closest), or "".
func closestFlag(fs *pflag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return suggest.Closest(name, names)
}

// checkDashes finds a long flag written with one dash, as Go's flag
// package took them (-format): GNU-style parsing would read it as short
// flags (-f ormat), so it is an error that names the flag meant.
func checkDashes(cmd *cobra.Command, args []string) error {
	fs := cmd.Flags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if strings.HasPrefix(a, "--") {
			if f := fs.Lookup(strings.TrimPrefix(a, "--")); f != nil && f.NoOptDefVal == "" {
				i++ // the flag's value
			}
			continue
		}
		if len(a) < 3 || a[0] != '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if f := fs.Lookup(name); f != nil && len(name) > 1 {
			return &usageError{Msg: fmt.Sprintf("%s: a long flag takes two dashes: --%s", a, a[1:])}
		}
	}
	return nil
}

// listCommands writes the list of root's commands to w.
func listCommands(w io.Writer, root *cobra.Command) {
	fmt.Fprintf(w, "%s\n\nUsage:\n\n", root.Long)
	cmds := root.Commands()
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name() < cmds[j].Name() })
	for _, c := range cmds {
		if c.IsAvailableCommand() || c.Name() == "help" {
			fmt.Fprintf(w, "  jrpcld %-10s %s\n", c.Name(), c.Short)
		}
	}
	// Cobra adds --help and --version when a command runs: here, where
	// help lists them for the root, they may not be there yet.
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	fmt.Fprintf(w, "\nFlags:\n%s", root.Flags().FlagUsages())
	fmt.Fprintf(w, "\nRun \"jrpcld help COMMAND\" or \"jrpcld COMMAND --help\" for a command's flags.\n")
}

// writeHelp writes the help of cmd to w: its synopsis, description,
// subcommands and flags.
func writeHelp(w io.Writer, cmd *cobra.Command) {
	if !cmd.HasParent() {
		listCommands(w, cmd)
		return
	}
	fmt.Fprintf(w, "Usage: %s\n", cmd.UseLine())
	if long := strings.TrimSpace(cmd.Long); long != "" {
		fmt.Fprintf(w, "\n%s\n", long)
	} else if cmd.Short != "" {
		fmt.Fprintf(w, "\n%s\n", cmd.Short)
	}
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\nCommands:\n")
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() {
				fmt.Fprintf(w, "  %-12s %s\n", c.Name(), c.Short)
			}
		}
	}
	cmd.InitDefaultHelpFlag()
	if cmd.HasAvailableFlags() {
		fmt.Fprintf(w, "\nFlags:\n%s", cmd.Flags().FlagUsages())
	}
}
