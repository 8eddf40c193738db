package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

func manCommand() command {
	c := command{name: "man", args: "-o DIR",
		summary: "write the manual pages of jrpcld and its commands"}
	c.help = manHelp
	c.setup = runMan
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
func runMan(c *command, fs *pflag.FlagSet) runner {
	o := &manOptions{}
	fs.StringVarP(&o.dir, "output", "o", "", "write the pages into `DIR` (created if need be)")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return failf("unexpected argument %q", args[0])
		}
		if o.dir == "" {
			return failf("give the folder to write the pages into: -o DIR")
		}
		if err := os.MkdirAll(o.dir, 0o755); err != nil {
			return fail(err)
		}
		root := newRoot(e)
		header := &doc.GenManHeader{Title: "JRPCLD", Section: "1", Source: "jrpcld", Manual: "jrpcld manual"}
		if err := doc.GenManTree(root, header, o.dir); err != nil {
			return fail(err)
		}
		fmt.Fprintf(e.Stderr, "jrpcld man: pages written into %s\n", o.dir)
		return nil
	}
}
