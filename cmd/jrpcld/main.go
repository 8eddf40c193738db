// Command jrpcld turns JSON-RPC 2.0 and MCP traffic into linked data and
// back, validates messages and logs, and builds building-block registers.
//
// Run "jrpcld help" for the list of commands.
package main

import (
	"fmt"
	"os"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/blockdoc"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/build"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/examples"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/fetchcmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/gen"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/importcmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/json"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/man"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/query"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/rdfcmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/recordcmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/serve"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/shaclcmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/statscmd"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/validate"
	versioncmd "github.com/jrpcld/jrpcld/cmd/jrpcld/internal/version"
	"github.com/jrpcld/jrpcld/register/transform"
	"github.com/spf13/cobra"
)

func commands() []cli.Command {
	return []cli.Command{
		validate.NewCmd(),
		shaclcmd.NewCmd(),
		rdfcmd.NewCmd(),
		rdfcmd.NewTurtleCmd(),
		json.NewCmd(),
		examples.NewCmd(),
		statscmd.NewCmd(),
		query.NewCmd(),
		blockdoc.NewContextCmd(),
		blockdoc.NewAnnotateCmd(),
		blockdoc.NewOntologyCmd(),
		gen.NewCmd(),
		recordcmd.NewCmd(),
		importcmd.NewCmd(),
		fetchcmd.NewCmd(),
		build.NewCmd(),
		serve.NewCmd(),
		man.NewCmd(newRoot),
		versioncmd.NewCmd(),
	}
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == transform.ChildArg {
		os.Exit(serveTransforms())
	}
	os.Exit(run(os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

// serveTransforms is jrpcld as the child process of the sandbox that runs
// a build's transforms (see transform.Sandbox): no command, no flags.
func serveTransforms() int {
	if err := transform.ServeChild(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "jrpcld: running transforms: %v\n", err)
		return cli.ExitUsage
	}
	return cli.ExitOK
}

// run runs jrpcld with the command-line arguments args (without the
// program's name) and returns its exit status. Each run builds its own
// command tree: nothing is shared between runs.
func run(args []string, e *cli.Env) int { return cli.Execute(newRoot(e), args, e) }

// newRoot returns the command tree of jrpcld, writing to e's streams.
func newRoot(e *cli.Env) *cobra.Command {
	root := &cobra.Command{
		Use:                        "jrpcld",
		Short:                      "turn JSON-RPC 2.0 and MCP messages into linked data and back",
		Long:                       "jrpcld turns JSON-RPC 2.0 and MCP messages into linked data and back.",
		Version:                    versioncmd.Version(),
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
		root.AddCommand(cli.Cobra(e, c))
	}
	root.SetHelpCommand(cli.HelpCommand(root))
	cli.SetupCompletion(root)
	return root
}
