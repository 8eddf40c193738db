package main

import (
	"syscall"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/serve"
	"github.com/spf13/pflag"
)

// The names below are those of the packages under internal/, as the
// commands still in package main use them.

// defaultAddr is where serve and build --serve listen by default.
const defaultAddr = serve.DefaultAddr

// serveDir is serve.Dir.
func serveDir(e *env, dir, addr string, stop <-chan struct{}, ready func(url string)) error {
	return serve.Dir(e, dir, addr, stop, ready)
}

// signalName is cli.SignalName.
func signalName(sig syscall.Signal) string { return cli.SignalName(sig) }

// fromCLI is c, a command of a package under internal/, as package main
// declares its commands.
func fromCLI(c cli.Command) command {
	return command{name: c.Name, args: c.Args, summary: c.Summary, help: c.Help,
		setup: func(_ *command, fs *pflag.FlagSet) runner { return c.Setup(&c, fs) }}
}
