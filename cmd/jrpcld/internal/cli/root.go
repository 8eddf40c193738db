package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// Execute runs the command tree root with the command-line arguments args
// (without the program's name) and returns the exit status.
func Execute(root *cobra.Command, args []string, e *Env) int {
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	root.SetArgs(args)
	if cmd, rest, err := root.Find(args); err == nil && cmd != root {
		if err := CheckDashes(cmd, rest); err != nil {
			PrintUsageError(e, cmd, err)
			return ExitUsage
		}
	}
	cmd, err := root.ExecuteC()
	var x ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &x):
		return int(x)
	}
	PrintUsageError(e, cmd, err)
	return ExitUsage
}

// SetupCompletion gives the completion command cobra adds to root jrpcld's
// words and an error for an unknown shell.
func SetupCompletion(root *cobra.Command) {
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
				return &UsageError{Msg: fmt.Sprintf("no completion script for %q: give bash, zsh, fish or powershell", args[0])}
			}
		}
	}
}

// Cobra turns c into a cobra command that runs with the streams of e.
func Cobra(e *Env, c Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:                   strings.TrimSpace(c.Name + " " + c.Args),
		Short:                 c.Summary,
		Long:                  strings.TrimSpace(c.Help),
		DisableFlagsInUseLine: true,
	}
	cmd.Flags().SortFlags = false
	runner := c.Setup(&c, cmd.Flags())
	AddCompletions(cmd, c.Name)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		// With -q, repeated warnings are folded into one line; with
		// --quiet=all, dropped.
		run := &Env{Stdin: e.Stdin, Stdout: e.Stdout, Stderr: e.Stderr}
		if w := FoldWarnings(e.Stderr, cmd.Flags()); w != nil {
			run.Stderr = w
			defer w.Flush()
		}
		err := runner(run, args)
		var f *Failure
		if errors.As(err, &f) {
			Errorf(run, c.Name, "%s", f.Msg)
			err = Status(f.Code)
		}
		run.End()
		return err
	}
	return cmd
}
