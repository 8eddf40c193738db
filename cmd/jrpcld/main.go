// Command jrpcld turns JSON-RPC 2.0 and MCP traffic into linked data and
// back, validates messages and logs, and builds building-block registers.
//
// Run "jrpcld help" for the list of commands.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/blockdoc"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/examples"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/fetch"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/gen"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/importcmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/json"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/man"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/record"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/serve"
	versioncmd "github.com/jrpcld/jrpcld/cmd/jrpcld/internal/version"
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
		fromCLI(json.NewCmd()),
		fromCLI(examples.NewCmd()),
		statsCommand(),
		queryCommand(),
		fromCLI(blockdoc.NewContextCmd()),
		fromCLI(blockdoc.NewAnnotateCmd()),
		fromCLI(blockdoc.NewOntologyCmd()),
		fromCLI(gen.NewCmd()),
		fromCLI(record.NewCmd()),
		fromCLI(importcmd.NewCmd()),
		fromCLI(fetch.NewCmd()),
		buildCommand(),
		fromCLI(serve.NewCmd()),
		fromCLI(man.NewCmd(newRoot)),
		fromCLI(versioncmd.NewCmd()),
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
		if err := cli.CheckDashes(cmd, rest); err != nil {
			cli.PrintUsageError(e, cmd, err)
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
	cli.PrintUsageError(e, cmd, err)
	return exitUsage
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
				return cli.UnknownCommand(cmd, args[0])
			}
			return nil
		},
		// Without a command: the list of commands on standard output and
		// exit status 0, as cobra does for a command that only groups others.
		RunE: func(cmd *cobra.Command, args []string) error {
			cli.ListCommands(e.Stdout, cmd)
			return nil
		},
	}
	root.SetIn(e.Stdin)
	root.SetOut(e.Stdout)
	root.SetErr(e.Stderr)
	root.SetVersionTemplate("jrpcld {{.Version}}\n")
	root.SetFlagErrorFunc(cli.FlagError)
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) { cli.WriteHelp(cmd.OutOrStdout(), cmd) })
	root.Flags().SortFlags = false
	for _, c := range commands() {
		root.AddCommand(cobraCommand(e, c))
	}
	root.SetHelpCommand(cli.HelpCommand(root))
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
	cli.AddCompletions(cmd, c.name)
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
