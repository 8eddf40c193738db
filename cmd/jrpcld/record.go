package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/record"
	"github.com/spf13/pflag"
)

func recordCommand() command {
	c := command{name: "record", args: "[-o LOG] [--] CMD [ARG...] | --listen HOST:PORT --upstream URL [-o LOG]",
		summary: "record an MCP session (stdio or Streamable HTTP) as a log"}
	c.help = recordHelp
	c.setup = runRecord
	return c
}

const recordHelp = `
Records the traffic of an MCP session as it passes, into LOG: one envelope
line {"dir":"c2s"|"s2c","ts":"...","msg":...} per message, "c2s" for what
the client sent, "ts" the time it passed (UTC, milliseconds). Every line is
written to LOG as soon as it passes, so a crash loses nothing recorded. The
other commands read LOG as it is ("jrpcld validate --mcp LOG").

Over stdio, "jrpcld record -o LOG -- CMD ARG..." runs the server CMD and
stands in its place: configure your MCP client to run jrpcld with these
arguments instead of the server. The client's lines (jrpcld's standard
input) go to the server and the server's lines to jrpcld's standard output,
unchanged; the server's standard error passes through. A line that is not
JSON is kept in LOG as a JSON string, which "validate" reports as not a
JSON-RPC message and "json" gives back. INT, TERM, HUP and QUIT are passed
on to the server. The exit status is the server's (128 plus the signal's
number when a signal ended it; 127 when CMD is not found, 126 when it cannot
be run). Put -- before CMD when its arguments look like jrpcld's flags.

Over Streamable HTTP, "jrpcld record --listen 127.0.0.1:PORT --upstream URL"
is a reverse proxy: point the client at http://127.0.0.1:PORT/ (any path;
requests to / and to URL's path go to URL, others to the same path on URL's
host, such as the OAuth metadata). It records the body of each POST (a
message or a batch), each JSON response and each event of the SSE streams
(answers to a POST, and the stream a GET opens), and runs until interrupted
(Ctrl-C). Port 0 picks a free port; the address is printed.

Without -o, LOG is jrpcld-record-TIME.jsonl in the current folder, named on
standard error. An existing LOG is replaced.`

func runRecord(c *command, fs *pflag.FlagSet) func(e *env, args []string) int {
	output := fs.StringP("output", "o", "", "write the log to `LOG` (default jrpcld-record-TIME.jsonl)")
	listen := fs.String("listen", "", "record Streamable HTTP: listen on `HOST:PORT` (with --upstream)")
	upstream := fs.String("upstream", "", "the MCP server's Streamable HTTP endpoint `URL` (with --listen)")
	// CMD's own arguments are not jrpcld's flags.
	fs.SetInterspersed(false)
	return func(e *env, args []string) int {
		httpMode := *listen != "" || *upstream != ""
		switch {
		case httpMode && (*listen == "" || *upstream == ""):
			errorf(e, c.name, "give --listen and --upstream together")
			return exitUsage
		case httpMode && len(args) > 0:
			errorf(e, c.name, "give a server to run (CMD) or --listen and --upstream, not both")
			return exitUsage
		case !httpMode && len(args) == 0:
			errorf(e, c.name, "give the server to run (jrpcld record -o LOG -- CMD ARG...), or --listen HOST:PORT --upstream URL")
			return exitUsage
		case !httpMode && *output == "-":
			errorf(e, c.name, "-o -: standard output carries the server's messages; give a file")
			return exitUsage
		}
		var up *url.URL
		if httpMode {
			u, err := url.Parse(*upstream)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				errorf(e, c.name, "--upstream %q: want an http:// or https:// URL", *upstream)
				return exitUsage
			}
			up = u
		}
		name := *output
		if name == "" {
			name = "jrpcld-record-" + time.Now().UTC().Format("20060102T150405Z") + ".jsonl"
		}
		var w io.Writer = e.stdout
		if name != "-" {
			f, err := os.Create(name)
			if err != nil {
				errorf(e, c.name, "%v", err)
				return exitUsage
			}
			defer f.Close()
			w = f
			if *output == "" {
				errorf(e, c.name, "recording to %s", name)
			}
		}
		log := record.NewLog(w)
		if httpMode {
			return recordHTTP(e, c.name, *listen, up, log, name)
		}
		return recordStdio(e, c.name, args, log)
	}
}

// recordStdio runs the server args and records its session.
func recordStdio(e *env, cmd string, args []string, log *record.Log) int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	s := &record.Stdio{Cmd: exec.Command(args[0], args[1:]...), In: e.stdin, Out: e.stdout, Stderr: e.stderr, Log: log, Signals: sigs}
	code, err := s.Run()
	var se *record.StartError
	switch {
	case errors.As(err, &se):
		errorf(e, cmd, "%v", se)
		if se.NotFound {
			return 127
		}
		return 126
	case err != nil:
		errorf(e, cmd, "%v", err)
		if code == 0 {
			code = exitUsage
		}
	}
	return code
}

// recordHTTP runs the recording proxy until an interrupt.
func recordHTTP(e *env, cmd, addr string, upstream *url.URL, log *record.Log, name string) int {
	ln, err := net.Listen(network(addr), addr)
	if err != nil {
		errorf(e, cmd, "%v", err)
		return exitUsage
	}
	p := &record.Proxy{Upstream: upstream, Log: log, Warn: func(msg string) { errorf(e, cmd, "%s", msg) }}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	errorf(e, cmd, "recording http://%s/ -> %s into %s (Ctrl-C stops)", ln.Addr(), upstream, name)
	select {
	case <-sigs:
	case err := <-done:
		errorf(e, cmd, "%v", err)
		return exitUsage
	}
	// Open SSE streams end with the recorder: a second is given to the
	// requests under way.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if srv.Shutdown(ctx) != nil {
		srv.Close()
	}
	if err := log.Err(); err != nil {
		errorf(e, cmd, "log: %v", err)
		return exitUsage
	}
	return exitOK
}
