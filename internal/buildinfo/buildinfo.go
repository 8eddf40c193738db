// Package buildinfo says which version of jrpcld a binary is: what the
// --version of jrpcld and of jrpcld-beam prints.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Version returns what a command's --version prints after its name: the
// module's version, the VCS revision and time the binary was built from
// (and whether the work tree had changes), and the Go version.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	return Of(info, ok)
}

// Of returns the version line of a binary built as info says; ok is false
// when the binary carries no build information.
func Of(info *debug.BuildInfo, ok bool) string {
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
