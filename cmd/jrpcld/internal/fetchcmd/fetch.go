// Package fetchcmd is "jrpcld fetch", the one command that uses the network:
// it fills the cache with the MCP schemas and published registers, through
// the top-level fetch package, so that every other command works offline.
package fetchcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/fetch"
	"github.com/jrpcld/jrpcld/fetch/regcache"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/mcp"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld fetch".
func NewCmd() cli.Command {
	c := cli.Command{Name: "fetch", Args: "[--max-files N] [--max-bytes BYTES] [--max-ref-depth N] [--max-yaml-bytes BYTES] [--timeout DURATION] [-q] mcp-schemas | URL...",
		Summary: "download the MCP schemas or published registers into the cache (the only command that uses the network)"}
	c.Help = fetchHelp
	c.Setup = runFetch
	return c
}

const fetchHelp = `
The only jrpcld command that uses the network. It downloads into the user's
cache (jrpcld/ under the folder os.UserCacheDir gives: $XDG_CACHE_HOME or
~/.cache on Linux) what the other commands then read offline.

"jrpcld fetch mcp-schemas" downloads the schema.json of each released MCP
version from the specification's repository at a pinned commit, checks each
against the sha256 jrpcld pins (of the schema's content: its RFC 8785
canonical form, so white space and the order of members do not count), and
only when all are right writes them as downloaded, each
atomically, to jrpcld/mcp-schema/VERSION/schema.json; "validate --mcp" and
"stats --mcp" read them from there.

"jrpcld fetch URL" downloads a published building-block register: its
register.json and, for each block, what a register that imports it reads:
the annotated schemas, the context, the ontology, and the files of the
register these name. It follows no URL outside that register. Then --bblock
URL --id ID uses a block of it, and --import URL (without =DIR) maps an
import of bblocks-config.yaml to it.

A fetch is all or nothing. Files go to disk as they arrive, into a new
folder of the cache, which becomes the register's copy in one rename only
once every file is there. Any failure (a file that cannot be downloaded, a
file not downloaded within --timeout, a limit passed, INT, TERM or HUP)
removes it: the cache is as it was, an earlier copy of the register still
the one read. A copy cut short (the process killed) is never read, and a
later fetch removes it. The limits (--max-files, --max-bytes,
--max-ref-depth, --max-yaml-bytes) are far beyond what a register needs;
one passed is an error naming the file and the flag that raises it. JSON
files are read as a stream; a YAML file is read whole, for its references,
in about 25 times its size of memory.

With JRPCLD_FETCH_MIRROR=BASE, https://HOST/PATH is downloaded from
BASE/HOST/PATH instead (a local mirror; the cache keeps the original URLs).
Exit status: 0; 1 when a file was refused or could not be downloaded, or a
limit was passed (the cache keeps what it had); 2 on a usage error (an
argument that is neither mcp-schemas nor an http:// or https:// URL:
nothing is fetched); 130, 143 or 129 when INT, TERM or HUP stopped it (the
cache keeps what it had of what was being fetched).`

// fetchOptions are the flags of jrpcld fetch.
type fetchOptions struct {
	quiet   bool
	timeout time.Duration
	limits  fetch.Limits
}

func runFetch(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &fetchOptions{}
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "say nothing of each file fetched")
	fs.DurationVar(&o.timeout, "timeout", fetch.DefaultTimeout, "longest one file may take to download, from the request to its last byte (`DURATION`, such as 30s)")
	fs.IntVar(&o.limits.Files, "max-files", fetch.DefaultMaxFiles, "most files of a register, register.json included (`N`)")
	fs.Int64Var(&o.limits.Bytes, "max-bytes", fetch.DefaultMaxBytes, "most bytes of a register's files together (`BYTES`), 512 MiB by default")
	fs.IntVar(&o.limits.RefDepth, "max-ref-depth", fetch.DefaultMaxRefDepth, "most references ($ref, @context, @import) from the register to a file (`N`): its blocks' schemas are 1 away")
	fs.Int64Var(&o.limits.YAMLBytes, "max-yaml-bytes", fetch.DefaultMaxYAMLBytes, "largest YAML file read for its references (`BYTES`), 1 MiB by default: YAML is read whole")
	return func(e *cli.Env, args []string) error {
		if len(args) == 0 {
			return cli.Failf("give mcp-schemas or the URL of a register.json")
		}
		if err := o.check(args); err != nil {
			return cli.Fail(err)
		}
		return o.run(e, c.Name, args)
	}
}

// check reports a flag that is not positive, and an argument that is
// neither mcp-schemas nor a URL, before anything is fetched.
func (o *fetchOptions) check(args []string) error {
	for name, v := range map[string]int64{"--timeout": int64(o.timeout), "--max-files": int64(o.limits.Files), "--max-bytes": o.limits.Bytes,
		"--max-ref-depth": int64(o.limits.RefDepth), "--max-yaml-bytes": o.limits.YAMLBytes} {
		if v <= 0 {
			return fmt.Errorf("%s must be positive", name)
		}
	}
	for _, a := range args {
		if a != "mcp-schemas" && !regcache.IsURL(regcache.Normalize(a)) {
			hint := "give mcp-schemas or the URL of a register.json"
			if suggest.Closest(a, []string{"mcp-schemas"}) != "" {
				hint = "did you mean mcp-schemas?"
			}
			return fmt.Errorf("%q is not an http:// or https:// URL: %s", a, hint)
		}
	}
	return nil
}

// run fetches each argument in turn. INT, TERM or HUP stops it: the fetch
// under way installs nothing.
func (o *fetchOptions) run(e *cli.Env, cmd string, args []string) error {
	ctx, stop := signalContext()
	defer stop()
	f := &fetch.Fetcher{Mirror: os.Getenv(fetch.MirrorEnv), Timeout: o.timeout, Limits: o.limits}
	if !o.quiet {
		f.Progress = func(u string, n int64) { cli.Errorf(e, cmd, "%s (%d bytes)", u, n) }
	}
	code, done := cli.ExitOK, 0
	for _, a := range args {
		msg, err := fetchOne(ctx, e, cmd, f, a)
		if err == nil {
			done++
			fmt.Fprint(e.Stdout, msg)
		}
		if sig := stoppedBy(ctx); sig != 0 {
			state := "the cache is unchanged"
			if done > 0 {
				state = "the cache holds only what is reported above as fetched"
			}
			return &cli.Failure{Code: 128 + int(sig), Msg: fmt.Sprintf("stopped by %s; %s", cli.SignalName(sig), state)}
		}
		if errors.Is(err, errNoCache) {
			return cli.Fail(err)
		}
		if err != nil {
			// The next arguments are fetched all the same.
			cli.Errorf(e, cmd, "%v", err)
			code = cli.ExitInvalid
		}
	}
	return cli.Status(code)
}

// errNoCache wraps the error of a fetch that finds no cache folder.
var errNoCache = errors.New("no cache folder")

// fetchOne fetches the MCP schemas (for "mcp-schemas") or the register at
// a, printing its warnings, and returns the line that says what it fetched.
func fetchOne(ctx context.Context, e *cli.Env, cmd string, f *fetch.Fetcher, a string) (string, error) {
	if a == "mcp-schemas" {
		dir, err := mcp.CacheDir()
		if err != nil {
			return "", fmt.Errorf("%w: %w", errNoCache, err)
		}
		vs, err := f.MCPSchemas(ctx, dir)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("MCP schemas %v (commit %s, sha256 checked) in %s\n", vs, mcp.Commit, termsafe.Escape(dir)), nil
	}
	res, err := f.Register(ctx, a)
	if err != nil {
		return "", err
	}
	for _, w := range res.Warnings {
		cli.Errorf(e, cmd, "warning: %s", w)
	}
	return fmt.Sprintf("register %s: %d blocks, %d files in %s\n", termsafe.Escape(res.URL), res.Blocks, len(res.Files), termsafe.Escape(res.Dir)), nil
}

// fetchSignals are the signals that stop a fetch.
var fetchSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// signalContext returns a context that INT, TERM or HUP cancels, with the
// signal as its cause (see stoppedBy); a signal the process was started
// ignoring (nohup) stays ignored. stop ends the catching.
func signalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	cli.Notify(sigs, fetchSignals...)
	go func() {
		if sig, ok := <-sigs; ok {
			cancel(signalError{sig.(syscall.Signal)})
		}
	}()
	return ctx, func() {
		signal.Stop(sigs) // after which nothing is sent on sigs
		close(sigs)
		cancel(nil)
	}
}

// signalError is the cause of a context a signal cancelled.
type signalError struct{ sig syscall.Signal }

func (e signalError) Error() string { return "stopped by " + cli.SignalName(e.sig) }

// stoppedBy returns the signal that cancelled ctx, or 0.
func stoppedBy(ctx context.Context) syscall.Signal {
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		return se.sig
	}
	return 0
}
