// Command jrpcld-beam runs jrpcld's conversion of JSON-RPC 2.0 and MCP logs
// to RDF as an Apache Beam pipeline, on Prism locally or on any runner Beam
// supports (Dataflow, Flink, Spark).
//
// Usage:
//
//	jrpcld-beam rdf --input GLOB --output PREFIX [--split-bytes N] [--base IRI] [--bblock DIR [--bblock-id ID]] [--runner RUNNER] [BEAM FLAGS]
//	jrpcld-beam validate --input GLOB --output FILE [--bblock DIR [--bblock-id ID] | --schema FILE] [--definition NAME] [--formats] [--max-errors N] [--runner RUNNER] [BEAM FLAGS]
//	jrpcld-beam stats --input GLOB --output FILE [--bblock DIR [--bblock-id ID] | --schema FILE] [--formats] [--runner RUNNER] [BEAM FLAGS]
//
// Each file the glob matches is one log and becomes its own named graph, the
// one "jrpcld rdf --format nquads FILE" gives, written in the files
// PREFIX-*.nq, one per part of a log (a big JSON lines log is read in parts).
// validate and stats write what "jrpcld validate --format json" and "jrpcld
// stats --format json" print for the same files given in the byte order of
// their paths. The runner is Prism (in process) unless
// --runner names another; Beam's own flags (--endpoint, --environment_type,
// --project, ...) are accepted too.
// See docs/beam.md.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"

	"github.com/jrpcld/jrpcld/cmd/jrpcld-beam/pipeline"
	"github.com/jrpcld/jrpcld/internal/buildinfo"
	"github.com/jrpcld/jrpcld/internal/suggest"
)

// Exit codes, as jrpcld's.
const (
	exitOK      = 0 // all went well
	exitInvalid = 1 // the input has problems
	exitUsage   = 2 // bad usage, or a failed run
)

const usage = `usage: jrpcld-beam rdf --input GLOB --output PREFIX [--split-bytes N] [--base IRI] [--bblock DIR [--bblock-id ID]] [--context-map URL=FILE] [--import URL=DIR] [--engine compiled|json-gold] [--runner RUNNER] [BEAM FLAGS]
       jrpcld-beam validate --input GLOB --output FILE [--bblock DIR [--bblock-id ID] | --schema FILE] [--definition NAME] [--formats] [--max-errors N] [--runner RUNNER] [BEAM FLAGS]
       jrpcld-beam stats --input GLOB --output FILE [--bblock DIR [--bblock-id ID] | --schema FILE] [--formats] [--runner RUNNER] [BEAM FLAGS]
       jrpcld-beam --version
       jrpcld-beam COMMAND --help    its flags, then Beam's

Turns each log file GLOB matches (on any Beam filesystem: a local path, gs://,
s3://; gzip recognised by content) into N-Quads, each log its own named graph,
exactly as "jrpcld rdf --format nquads FILE" does, and writes it to the files
PREFIX-*.nq: one per log, or, for a JSON lines log bigger than --split-bytes
(64 MiB by default), one per part of about that size, each read by its own
worker. (--shards is gone: a log's statements are written where they are
made, not gathered into shards.)

validate checks every message as "jrpcld validate" does and writes to FILE
what "jrpcld validate --format json" prints: a JSON line per problem (logs in
the byte order of their paths, at most --max-errors), then the summary. It
exits 1 when some messages are invalid.

stats summarises each log as "jrpcld stats --format json" does, and writes to
FILE the JSON object it prints: the logs, in the byte order of their paths,
and their total. It exits 1 when some messages are invalid.

A --schema FILE is read on the workers: it must be at the same path there.

The runner is prism (in process) by default. With --endpoint (the job service
of a Flink, Spark or portable runner), a job service that does not answer
within --endpoint-timeout (30s) ends the run with an error.
`

func main() {
	// A worker started by a runner calls the binary with Beam's own flags
	// and no subcommand: beam.Init takes over there.
	if len(os.Args) > 1 && os.Args[1] == "rdf" {
		os.Exit(runRDF(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "validate" {
		os.Exit(runValidate(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "stats" {
		os.Exit(runStats(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && (os.Args[1] == "help" || os.Args[1] == "-h" || os.Args[1] == "--help") {
		fmt.Fprint(os.Stdout, usage)
		os.Exit(exitOK)
	}
	if len(os.Args) > 1 && (os.Args[1] == "--version" || os.Args[1] == "-version" || os.Args[1] == "version") {
		fmt.Fprintf(os.Stdout, "jrpcld-beam %s\n", buildinfo.Version())
		os.Exit(exitOK)
	}
	// In worker mode (--worker), beam.Init runs the worker and exits;
	// otherwise it returns, and this is a usage error.
	flag.Parse()
	beam.Init()
	fmt.Fprint(os.Stderr, usage)
	os.Exit(exitUsage)
}

// runRDF runs the rdf subcommand with args, Beam's flags among them.
func runRDF(args []string, stderr io.Writer) int {
	fs := flag.CommandLine
	beamFlags := flagNames(fs)
	var opts pipeline.RDFOptions
	fs.StringVar(&opts.Input, "input", "", "log files: a `GLOB` on any Beam filesystem")
	fs.StringVar(&opts.Output, "output", "", "output `PREFIX`: the files are PREFIX-*.nq, one per log or part of a log")
	fs.Int64Var(&opts.SplitBytes, "split-bytes", pipeline.DefaultSplitBytes, "read a JSON lines log bigger than this in parts of about this many `bytes`, each on its own worker")
	fs.StringVar(&opts.BBlock, "bblock", "", "building block `DIR`, or a register source tree (with --bblock-id); default: the embedded JSON-RPC 2.0 block")
	fs.StringVar(&opts.ID, "bblock-id", "", "the block's `ID` within the register given by --bblock (Beam itself owns --id)")
	fs.StringVar(&opts.Engine, "engine", "compiled", "mapping `engine`: compiled, or json-gold")
	fs.StringVar(&opts.Base, "base", "", "the log's `IRI` (one file), or a prefix to which each file's name is added; default: the file's URL")
	fs.Func("context-map", "map a context the block's context names to a local file: `URL=FILE` (repeatable)", func(v string) error {
		url, file, ok := strings.Cut(v, "=")
		if !ok || url == "" || file == "" {
			return fmt.Errorf("want URL=FILE, got %q", v)
		}
		if opts.ContextMap == nil {
			opts.ContextMap = map[string]string{}
		}
		opts.ContextMap[url] = file
		return nil
	})
	fs.Func("import", "map an import of bblocks-config.yaml (its URL, or \"default\") to a local copy of that built register: `URL=DIR` (repeatable)", func(v string) error {
		opts.Imports = append(opts.Imports, v)
		return nil
	})
	timeout := addEndpointTimeout(fs)
	if code, ok := parseFlags("rdf", fs, beamFlags, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "jrpcld-beam rdf: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	res, ok := runPipeline("rdf", stderr, *timeout, func(s beam.Scope) error { return pipeline.RDF(s, opts) })
	if !ok {
		return exitUsage
	}
	skipped, warnings := pipeline.Counts(res)
	if warnings > 0 {
		fmt.Fprintf(stderr, "jrpcld-beam rdf: %d warnings (see the workers' logs)\n", warnings)
	}
	if skipped > 0 {
		fmt.Fprintf(stderr, "jrpcld-beam rdf: %d lines skipped (see the workers' logs)\n", skipped)
		return exitInvalid
	}
	return exitOK
}

// runStats runs the stats subcommand with args, Beam's flags among them.
func runStats(args []string, stderr io.Writer) int {
	fs := flag.CommandLine
	beamFlags := flagNames(fs)
	var opts pipeline.StatsOptions
	fs.StringVar(&opts.Input, "input", "", "log files: a `GLOB` on any Beam filesystem")
	fs.StringVar(&opts.Output, "output", "", "output `FILE`: the logs and their total, one JSON object")
	fs.StringVar(&opts.BBlock, "bblock", "", "validate with building block `DIR`, or a register source tree (with --bblock-id)")
	fs.StringVar(&opts.ID, "bblock-id", "", "the block's `ID` within the register given by --bblock (Beam itself owns --id)")
	fs.StringVar(&opts.Schema, "schema", "", "validate with this schema `FILE` (JSON or YAML), at the same path on the workers")
	fs.BoolVar(&opts.Formats, "formats", false, "assert \"format\" (uri, byte, ...) whatever the schema's draft")
	timeout := addEndpointTimeout(fs)
	if code, ok := parseFlags("stats", fs, beamFlags, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "jrpcld-beam stats: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	res, ok := runPipeline("stats", stderr, *timeout, func(s beam.Scope) error { return pipeline.Stats(s, opts) })
	if !ok {
		return exitUsage
	}
	if n := pipeline.Invalid(res); n > 0 {
		fmt.Fprintf(stderr, "jrpcld-beam stats: %d invalid messages\n", n)
		return exitInvalid
	}
	return exitOK
}

// runValidate runs the validate subcommand with args, Beam's flags among them.
func runValidate(args []string, stderr io.Writer) int {
	fs := flag.CommandLine
	beamFlags := flagNames(fs)
	var opts pipeline.ValidateOptions
	fs.StringVar(&opts.Input, "input", "", "log files: a `GLOB` on any Beam filesystem")
	fs.StringVar(&opts.Output, "output", "", "output `FILE`: a JSON line per problem, then the summary")
	fs.StringVar(&opts.BBlock, "bblock", "", "validate with building block `DIR`, or a register source tree (with --bblock-id); default: the embedded JSON-RPC 2.0 block")
	fs.StringVar(&opts.ID, "bblock-id", "", "the block's `ID` within the register given by --bblock (Beam itself owns --id)")
	fs.StringVar(&opts.Schema, "schema", "", "validate against this schema `FILE` (JSON or YAML), at the same path on the workers")
	fs.StringVar(&opts.Definition, "definition", "", "check every message against this definition `NAME` (e.g. Request, #/$defs/X)")
	fs.BoolVar(&opts.Formats, "formats", false, "assert \"format\" (uri, byte, ...) whatever the schema's draft")
	fs.IntVar(&opts.MaxErrors, "max-errors", pipeline.DefaultMaxErrors, "write at most `N` problems; the rest are only counted")
	timeout := addEndpointTimeout(fs)
	if code, ok := parseFlags("validate", fs, beamFlags, args, stderr); !ok {
		return code
	}
	if opts.MaxErrors <= 0 {
		fmt.Fprintf(stderr, "jrpcld-beam validate: --max-errors must be positive, not %d\n", opts.MaxErrors)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "jrpcld-beam validate: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if _, ok := runPipeline("validate", stderr, *timeout, func(s beam.Scope) error { return pipeline.Validate(s, opts) }); !ok {
		return exitUsage
	}
	data, err := readSummary(opts.Output)
	if err != nil {
		fmt.Fprintf(stderr, "jrpcld-beam validate: %v\n", err)
		return exitUsage
	}
	if data.Summary.Invalid > 0 {
		fmt.Fprintf(stderr, "jrpcld-beam validate: %d invalid messages\n", data.Summary.Invalid)
		return exitInvalid
	}
	return exitOK
}

// runPipeline builds the pipeline of subcommand cmd with build and runs it
// on --runner, Prism by default. With --endpoint, the job service must
// answer within timeout. When either fails it writes why to stderr and
// returns false.
func runPipeline(cmd string, stderr io.Writer, timeout time.Duration, build func(beam.Scope) error) (beam.PipelineResult, bool) {
	if *runners.Runner == "" {
		*runners.Runner = "prism"
	}
	if ep := *jobopts.Endpoint; ep != "" {
		if err := reachable(ep, timeout); err != nil {
			fmt.Fprintf(stderr, "jrpcld-beam %s: the job service at --endpoint %s: %v; start the runner's job server first, or give the endpoint it listens on (docs/beam.md)\n", cmd, ep, err)
			return nil, false
		}
		// Beam dials the job service again, for 2 minutes unless told.
		grpcx.Dial = dialWithin(grpcx.DefaultDial, timeout)
	}
	beam.Init()
	p, s := beam.NewPipelineWithRoot()
	if err := build(s); err != nil {
		fmt.Fprintf(stderr, "jrpcld-beam %s: %s\n", cmd, beamFlagsIn(err.Error()))
		return nil, false
	}
	res, err := beam.Run(context.Background(), *runners.Runner, p)
	if err != nil {
		fmt.Fprintf(stderr, "jrpcld-beam %s: %s\n", cmd, beamFlagsIn(err.Error()))
		return nil, false
	}
	return res, true
}

// beamFlagsIn rewrites a message of jrpcld's packages that names one of
// jrpcld's flags into the flag of jrpcld-beam: --id is --bblock-id here
// (Beam's worker harness owns --id).
func beamFlagsIn(msg string) string {
	return strings.ReplaceAll(msg, "with --id", "with --bblock-id")
}

// addEndpointTimeout adds the flag that bounds the wait for the job service.
func addEndpointTimeout(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("endpoint-timeout", 30*time.Second, "with --endpoint, give up on a job service that does not answer within `DURATION`")
}

// reachable reports why a TCP connection to endpoint (HOST:PORT) cannot be
// made within timeout, or nil.
func reachable(endpoint string, timeout time.Duration) error {
	c, err := net.DialTimeout("tcp", endpoint, timeout)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return fmt.Errorf("no answer within %v (--endpoint-timeout)", timeout)
		}
		var op *net.OpError
		if errors.As(err, &op) {
			return op.Err
		}
		return err
	}
	return c.Close()
}

// dialWithin returns dial with its timeout set to timeout.
func dialWithin[C any](dial func(context.Context, string, time.Duration) (C, error), timeout time.Duration) func(context.Context, string, time.Duration) (C, error) {
	return func(ctx context.Context, endpoint string, _ time.Duration) (C, error) {
		return dial(ctx, endpoint, timeout)
	}
}

// flagNames returns the names of the flags fs holds: before a subcommand
// defines its own, Beam's.
func flagNames(fs *flag.FlagSet) map[string]bool {
	names := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { names[f.Name] = true })
	return names
}

// parseFlags parses args with fs for subcommand cmd, whose own flags are
// those not in beamFlags. --help prints the subcommand's help on standard
// output (its flags, then Beam's) and returns exitOK; a mistake prints one
// line with the flag probably meant, and returns exitUsage. ok is true
// when the subcommand is to run.
func parseFlags(cmd string, fs *flag.FlagSet, beamFlags map[string]bool, args []string, stderr io.Writer) (code int, ok bool) {
	// flag.CommandLine exits on an error: here the error is handled.
	fs.Init("jrpcld-beam "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		writeHelp(os.Stdout, cmd, fs, beamFlags)
		return exitOK, false
	}
	msg := err.Error()
	if name, found := strings.CutPrefix(msg, "flag provided but not defined: -"); found {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		sort.SliceStable(names, func(i, j int) bool { return !beamFlags[names[i]] && beamFlags[names[j]] })
		if s := suggest.Closest(strings.TrimPrefix(name, "-"), names); s != "" {
			msg += "; did you mean --" + s + "?"
		}
	}
	fmt.Fprintf(stderr, "jrpcld-beam %s: %s\nsee 'jrpcld-beam %s --help'\n", cmd, msg, cmd)
	return exitUsage, false
}

// writeHelp writes the help of subcommand cmd: its usage line, its own
// flags, then Beam's.
func writeHelp(w io.Writer, cmd string, fs *flag.FlagSet, beamFlags map[string]bool) {
	for _, line := range strings.Split(usage, "\n") {
		line = strings.TrimPrefix(strings.TrimPrefix(line, "usage: "), "       ")
		if strings.HasPrefix(line, "jrpcld-beam "+cmd+" ") {
			fmt.Fprintf(w, "usage: %s\n", line)
		}
	}
	fmt.Fprintf(w, "\nFlags of jrpcld-beam %s:\n", cmd)
	writeFlags(w, fs, func(name string) bool { return !beamFlags[name] })
	fmt.Fprintf(w, "\nBeam's flags (the runner, its job service, workers, pipeline options; see docs/beam.md):\n")
	writeFlags(w, fs, func(name string) bool { return beamFlags[name] })
}

// writeFlags writes the flags of fs that keep says to keep, as
// flag.PrintDefaults does, with two dashes.
func writeFlags(w io.Writer, fs *flag.FlagSet, keep func(string) bool) {
	fs.VisitAll(func(f *flag.Flag) {
		if !keep(f.Name) {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			line += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintln(w, line)
	})
}

// readSummary reads back the summary a validate run wrote last.
func readSummary(path string) (summary, error) {
	var s summary
	fsys, err := filesystem.New(context.Background(), path)
	if err != nil {
		return s, err
	}
	defer fsys.Close()
	data, err := filesystem.Read(context.Background(), fsys, path)
	if err != nil {
		return s, err
	}
	data = bytes.TrimSuffix(data, []byte("\n"))
	if err := json.Unmarshal(data[bytes.LastIndexByte(data, '\n')+1:], &s); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// summary is the part of validate's output the exit status depends on.
type summary struct {
	Summary struct {
		Invalid int `json:"invalid"`
	} `json:"summary"`
}
