package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// PrintUsageError prints err, a mistake on cmd's command line, in one line
// and then where to read cmd's usage.
func PrintUsageError(e *Env, cmd *cobra.Command, err error) {
	path := "jrpcld"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintf(e.Stderr, "%s: %s\n", path, EscapeLines(err.Error()))
	if cmd == nil || !cmd.HasParent() {
		fmt.Fprintf(e.Stderr, "see 'jrpcld --help'\n")
		return
	}
	fmt.Fprintf(e.Stderr, "see '%s --help'\n", path)
}

// HelpCommand is "jrpcld help [COMMAND]": the list of commands on standard
// output, or a command's help.
func HelpCommand(root *cobra.Command) *cobra.Command {
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
				return UnknownCommand(root, args[0])
			}
			if len(rest) > 0 {
				return &UsageError{Msg: fmt.Sprintf("%s has no subcommand %q", target.CommandPath(), rest[0])}
			}
			return target.Help()
		},
	}
}

// UnknownCommand is the error for a command name root does not know, with
// the names that come close.
func UnknownCommand(root *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if s := root.SuggestionsFor(name); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	}
	return &UsageError{Msg: msg}
}

// FlagError turns an error of the flags' parser into a usage error, with
// the flag that was probably meant when the name is unknown.
func FlagError(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) || ne.GetSpecifiedName() == "" {
		return &UsageError{Msg: err.Error()}
	}
	name := ne.GetSpecifiedName()
	if ne.GetSpecifiedShortnames() != "" {
		// A one-letter flag: the one that differs only in case, if any.
		if s := closestShorthand(cmd.Flags(), name); s != "" {
			return &UsageError{Msg: fmt.Sprintf("%v; did you mean -%s?", err, s)}
		}
		return &UsageError{Msg: err.Error()}
	}
	if s := closestFlag(cmd.Flags(), name); s != "" {
		return &UsageError{Msg: fmt.Sprintf("%v; did you mean --%s?", err, s)}
	}
	// A flag of jrpcld itself (--version), given after a command.
	if root := cmd.Root(); root != cmd {
		root.InitDefaultVersionFlag()
		if s := closestFlag(root.Flags(), name); s != "" && s != "help" {
			return &UsageError{Msg: fmt.Sprintf("%v; did you mean jrpcld --%s (a flag of jrpcld itself, before any command)?", err, s)}
		}
	}
	return &UsageError{Msg: err.Error()}
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

// CheckDashes finds a long flag written with one dash, as Go's flag
// package took them (-format): GNU-style parsing would read it as short
// flags (-f ormat), so it is an error that names the flag meant.
func CheckDashes(cmd *cobra.Command, args []string) error {
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
			return &UsageError{Msg: fmt.Sprintf("%s: a long flag takes two dashes: --%s", a, a[1:])}
		}
	}
	return nil
}

// ListCommands writes the list of root's commands to w.
func ListCommands(w io.Writer, root *cobra.Command) {
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

// WriteHelp writes the help of cmd to w: its synopsis, description,
// subcommands and flags.
func WriteHelp(w io.Writer, cmd *cobra.Command) {
	if !cmd.HasParent() {
		ListCommands(w, cmd)
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
