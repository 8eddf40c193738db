package main

import (
	"fmt"

	"github.com/jrpcld/jrpcld/internal/buildinfo"
	"github.com/spf13/pflag"
)

// version returns what "jrpcld --version" prints after the name (see
// buildinfo.Version).
func version() string { return buildinfo.Version() }

// versionCommand is "jrpcld version": what "jrpcld --version" prints.
func versionCommand() command {
	return command{name: "version", summary: "print jrpcld's version and the revision it was built from",
		help: `
Prints the version of jrpcld, the revision of its source it was built from
(and whether that had uncommitted changes) and the Go version, as
"jrpcld --version" does.`,
		setup: func(c *command, fs *pflag.FlagSet) runner {
			return func(e *env, args []string) error {
				if len(args) > 0 {
					return failf("takes no argument, got %q", args[0])
				}
				fmt.Fprintf(e.Stdout, "jrpcld %s\n", version())
				return nil
			}
		}}
}
