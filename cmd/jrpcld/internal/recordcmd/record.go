// Package recordcmd is "jrpcld record": it stands in for an MCP server (over
// stdio, or as a Streamable HTTP reverse proxy) and writes the traffic that
// passes to a log, with mcp/record doing the recording.
package recordcmd

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
	"sync"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/mcp/record"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld record".
func NewCmd() cli.Command {
	c := cli.Command{Name: "record", Args: "[-o LOG] [--max-message BYTES] [--] CMD [ARG...] | --listen HOST:PORT --upstream URL [-o LOG] [--max-message BYTES]",
		Summary: "record an MCP session (stdio or Streamable HTTP) as a log"}
	c.Help = recordHelp
	c.Setup = runRecord
	return c
}

const recordHelp = `
Records the traffic of an MCP session as it passes, into LOG: one envelope
line {"dir":"c2s"|"s2c","ts":"...","msg":...} per message, "c2s" for what
the client sent, "ts" the time it passed (UTC, milliseconds). Every line is
written to LOG as soon as it passes, before the message reaches the other
side, so that whatever ends jrpcld (a crash, SIGKILL) LOG holds every
message that passed. The other commands read LOG as it is ("jrpcld
validate --mcp LOG").

Over stdio, "jrpcld record -o LOG -- CMD ARG..." runs the server CMD and
stands in its place: configure your MCP client to run jrpcld with these
arguments instead of the server. The client's lines (jrpcld's standard
input) go to the server and the server's lines to jrpcld's standard output,
unchanged; the server's standard error passes through. A line that is not
JSON is kept in LOG as a JSON string, which "validate" reports as not a
JSON-RPC message and "json" gives back. A line that is not UTF-8 (a Latin-1
"é"), which no JSON can hold, is kept as its exact bytes: "bytes" in place
of "msg", in base64; "validate" reports it as not JSON at its first such
byte, and "json" gives back its bytes. INT, TERM, HUP and QUIT are passed
on to the server. The exit status is the server's (128 plus the signal's
number when a signal ended it; 127 when CMD is not found, 126 when it cannot
be run). Put -- before CMD when its arguments look like jrpcld's flags.

Over Streamable HTTP, "jrpcld record --listen 127.0.0.1:PORT --upstream URL"
is a reverse proxy: point the client at http://127.0.0.1:PORT/ (any path;
requests to / and to URL's path go to URL, others to the same path on URL's
host, such as the OAuth metadata). It records the body of each POST (a
message or a batch), each JSON response and each event of the SSE streams
(answers to a POST, and the stream a GET opens), and runs until interrupted
(Ctrl-C). Port 0 picks a free port; the address is printed. SSE streams are
read as the HTML standard says a browser reads them: an event is recorded
when the blank line after it passes, so an event a stream ends in without
one is not (the client does not get it either), and is named on standard
error.

Memory stays bounded whatever the size of a message: a line, a body or an
event longer than --max-message bytes (64 MiB by default, the longest line
the other commands read by default) passes on unchanged, and LOG holds it
cut: {"dir":...,"truncated":LENGTH,"msg":"its first bytes"}, which the
other commands keep and report as a message not in the log. No line of LOG
is longer than --max-message.

Without -o, LOG is jrpcld-record-TIME.jsonl in the current folder, named on
standard error. An existing LOG is left as it is until the first message
passes, then replaced: a server that cannot start, or a session in which no
message passes, leaves it untouched (and creates no LOG).`

// recordOptions are the flags of jrpcld record.
type recordOptions struct {
	output, listen, upstream string
	maxMessage               int
}

func runRecord(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	var o recordOptions
	fs.StringVarP(&o.output, "output", "o", "", "write the log to `LOG` (default jrpcld-record-TIME.jsonl)")
	fs.StringVar(&o.listen, "listen", "", "record Streamable HTTP: listen on `HOST:PORT` (with --upstream)")
	fs.StringVar(&o.upstream, "upstream", "", "the MCP server's Streamable HTTP endpoint `URL` (with --listen)")
	fs.IntVar(&o.maxMessage, "max-message", record.DefaultMax, "longest message held to be logged, and longest line of LOG, in `bytes`; a longer one passes unchanged and is logged cut")
	// CMD's own arguments are not jrpcld's flags.
	fs.SetInterspersed(false)
	return func(e *cli.Env, args []string) error { return o.run(e, c.Name, args) }
}

// check checks the flags and arguments, and returns the upstream's URL in
// HTTP mode (nil over stdio), or the failure of a usage error.
func (o *recordOptions) check(args []string) (*url.URL, error) {
	httpMode := o.listen != "" || o.upstream != ""
	switch {
	case httpMode && (o.listen == "" || o.upstream == ""):
		return nil, cli.Failf("give --listen and --upstream together")
	case httpMode && len(args) > 0:
		return nil, cli.Failf("give a server to run (CMD) or --listen and --upstream, not both")
	case !httpMode && len(args) == 0:
		return nil, cli.Failf("give the server to run (jrpcld record -o LOG -- CMD ARG...), or --listen HOST:PORT --upstream URL")
	case !httpMode && o.output == "-":
		return nil, cli.Failf("-o -: standard output carries the server's messages; give a file")
	case o.maxMessage < minMaxMessage:
		return nil, cli.Failf("--max-message must be at least %d bytes, not %d", minMaxMessage, o.maxMessage)
	case !httpMode:
		return nil, nil
	}
	u, err := url.Parse(o.upstream)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return u, nil
	}
	return nil, cli.Failf("--upstream %q: want an http:// or https:// URL", o.upstream)
}

// minMaxMessage is the least --max-message: room for a cut message's
// envelope line and its first bytes.
const minMaxMessage = 1024

// run records a session as o says.
func (o *recordOptions) run(e *cli.Env, cmd string, args []string) error {
	up, err := o.check(args)
	if err != nil {
		return err
	}
	// The server's standard error, the warnings of the log and those of
	// the proxy's requests come at once.
	e = &cli.Env{Stdin: e.Stdin, Stdout: e.Stdout, Stderr: &lockedWriter{w: e.Stderr}}
	name := o.output
	if name == "" {
		name = "jrpcld-record-" + time.Now().UTC().Format("20060102T150405Z") + ".jsonl"
	}
	var w io.Writer = e.Stdout
	if name != "-" {
		f, err := record.OpenFile(name)
		if err != nil {
			return cli.Fail(err)
		}
		defer f.Close()
		w = f
		if o.output == "" {
			cli.Errorf(e, cmd, "recording to %s", name)
		}
	}
	log := record.NewLog(w)
	log.Max = o.maxMessage
	log.Warn = func(msg string) { cli.Errorf(e, cmd, "%s (--max-message)", msg) }
	if up != nil {
		return cli.Status(recordHTTP(e, cmd, o.listen, up, log, name))
	}
	return cli.Status(recordStdio(e, cmd, args, log))
}

// recordStdio runs the server args and records its session.
func recordStdio(e *cli.Env, cmd string, args []string, log *record.Log) int {
	sigs := make(chan os.Signal, 4)
	cli.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	s := &record.Stdio{Cmd: exec.Command(args[0], args[1:]...), In: e.Stdin, Out: e.Stdout, Stderr: e.Stderr, Log: log, Signals: sigs}
	code, err := s.Run()
	var se *record.StartError
	switch {
	case errors.As(err, &se):
		cli.Errorf(e, cmd, "%v", se)
		if se.NotFound {
			return 127
		}
		return 126
	case err != nil:
		cli.Errorf(e, cmd, "%v", err)
		if code == 0 {
			code = cli.ExitUsage
		}
	}
	return code
}

// recordHTTP runs the recording proxy until an interrupt.
func recordHTTP(e *cli.Env, cmd, addr string, upstream *url.URL, log *record.Log, name string) int {
	ln, err := net.Listen(cli.Network(addr), addr)
	if err != nil {
		cli.Errorf(e, cmd, "%v", err)
		return cli.ExitUsage
	}
	p := &record.Proxy{Upstream: upstream, Log: log, Warn: func(msg string) { cli.Errorf(e, cmd, "%s", msg) }}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	sigs := make(chan os.Signal, 1)
	cli.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	cli.Errorf(e, cmd, "recording http://%s/ -> %s into %s (Ctrl-C stops)", ln.Addr(), upstream, name)
	select {
	case <-sigs:
	case err := <-done:
		cli.Errorf(e, cmd, "%v", err)
		return cli.ExitUsage
	}
	// Open SSE streams end with the recorder: a second is given to the
	// requests under way.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if srv.Shutdown(ctx) != nil {
		srv.Close()
	}
	if err := log.Err(); err != nil {
		cli.Errorf(e, cmd, "log: %v", err)
		return cli.ExitUsage
	}
	return cli.ExitOK
}

// lockedWriter is a writer several goroutines write to, one write at a
// time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
