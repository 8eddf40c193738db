package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"
)

// version returns what "jrpcld --version" prints after the name: the
// module's version, the VCS revision and time the binary was built from
// (and whether the work tree had changes), and the Go version.
func version() string {
	info, ok := debug.ReadBuildInfo()
	return versionOf(info, ok)
}

// versionOf returns the version line of a binary built as info says; ok is
// false when the binary carries no build information.
func versionOf(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "(unknown version: the binary carries no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	parts := []string{v}
	var rev, when, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		parts = append(parts, "revision unknown")
	} else {
		r := "revision " + rev
		if when != "" {
			r += " (" + when + ")"
		}
		if modified == "true" {
			r += " with uncommitted changes"
		}
		parts = append(parts, r)
	}
	if info.GoVersion != "" {
		parts = append(parts, "built with "+info.GoVersion)
	}
	return strings.Join(parts, ", ")
}

// versionCommand is "jrpcld version": what "jrpcld --version" prints.
func versionCommand() command {
	return command{name: "version", summary: "print jrpcld's version and the revision it was built from",
		help: `
Prints the version of jrpcld, the revision of its source it was built from
(and whether that had uncommitted changes) and the Go version, as
"jrpcld --version" does.`,
		setup: func(c *command, fs *pflag.FlagSet) func(e *env, args []string) int {
			return func(e *env, args []string) int {
				if len(args) > 0 {
					errorf(e, c.name, "takes no argument, got %q", args[0])
					return exitUsage
				}
				fmt.Fprintf(e.stdout, "jrpcld %s\n", version())
				return exitOK
			}
		}}
}
