// Package version is "jrpcld version" and what "jrpcld --version" prints.
package version

import (
	"fmt"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/internal/buildinfo"
	"github.com/spf13/pflag"
)

// version returns what "jrpcld --version" prints after the name (see
// buildinfo.Version).
// Version is jrpcld's version, its revision and the Go version.
func Version() string { return buildinfo.Version() }

// versionCommand is "jrpcld version": what "jrpcld --version" prints.
// NewCmd returns the command "jrpcld version".
func NewCmd() cli.Command {
	return cli.Command{Name: "version", Summary: "print jrpcld's version and the revision it was built from",
		Help: `
Prints the version of jrpcld, the revision of its source it was built from
(and whether that had uncommitted changes) and the Go version, as
"jrpcld --version" does.`,
		Setup: func(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
			return func(e *cli.Env, args []string) error {
				if len(args) > 0 {
					return cli.Failf("takes no argument, got %q", args[0])
				}
				fmt.Fprintf(e.Stdout, "jrpcld %s\n", Version())
				return nil
			}
		}}
}
