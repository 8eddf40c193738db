// Package man is "jrpcld man": the manual pages of jrpcld and its commands,
// made from the same descriptions and flags as the help.
package man

import (
	"fmt"
	"os"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/spf13/cobra"

	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld man"; newRoot builds the command tree
// the pages describe.
func NewCmd(newRoot func(*cli.Env) *cobra.Command) cli.Command {
	c := cli.Command{Name: "man", Args: "-o DIR",
		Summary: "write the manual pages of jrpcld and its commands"}
	c.Help = manHelp
	c.Setup = func(c *cli.Command, fs *pflag.FlagSet) cli.Runner { return runMan(c, fs, newRoot) }
	return c
}

const manHelp = `
Writes a manual page (section 1, roff) for jrpcld and for each of its
commands into DIR, made from the same descriptions and flags as the help:
jrpcld.1, jrpcld-validate.1, ... Read one with "man DIR/jrpcld-validate.1",
or install them where man looks (e.g. /usr/local/share/man/man1).`

// manOptions are the flags of man.
type manOptions struct {
	dir string
}

// runMan needs the whole command tree, which it reaches through the
// command it runs under: see cobraCommand.
func runMan(c *cli.Command, fs *pflag.FlagSet, newRoot func(*cli.Env) *cobra.Command) cli.Runner {
	o := &manOptions{}
	fs.StringVarP(&o.dir, "output", "o", "", "write the pages into `DIR` (created if need be)")
	return func(e *cli.Env, args []string) error {
		if len(args) > 0 {
			return cli.Failf("unexpected argument %q", args[0])
		}
		if o.dir == "" {
			return cli.Failf("give the folder to write the pages into: -o DIR")
		}
		if err := os.MkdirAll(o.dir, 0o755); err != nil {
			return cli.Fail(err)
		}
		root := newRoot(e)
		header := &doc.GenManHeader{Title: "JRPCLD", Section: "1", Source: "jrpcld", Manual: "jrpcld manual"}
		if err := doc.GenManTree(root, header, o.dir); err != nil {
			return cli.Fail(err)
		}
		fmt.Fprintf(e.Stderr, "jrpcld man: pages written into %s\n", o.dir)
		return nil
	}
}
