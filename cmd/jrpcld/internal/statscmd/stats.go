// Package statscmd is "jrpcld stats": counts, timelines and latencies of
// logs, by package stats. It is named statscmd so that it does not shadow
// the domain package stats its files use.
package statscmd

import (
	"bufio"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/validate"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/jsonrpc/stats"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/toolchain"
	"github.com/jrpcld/jrpcld/schema"
)

// NewCmd returns the command "jrpcld stats".
func NewCmd() cli.Command {
	c := cli.Command{Name: "stats", Args: "[--bblock DIR [--id ID] | --schema FILE | --mcp [--mcp-schemas DIR] [--mcp-version V] [--mcp-rules=false]] [--formats] [--format text|json] [--html FILE] [--sparql] [-q] [LOG...|-]",
		Summary: "count messages, methods, pairing, errors, tools and latency in logs"}
	c.Help = statsHelp + "\n\n" + sparqlHelp + "\n\n" + validate.MCPHelp + " A graph's version is --mcp-version's, or the newest known.\n\n" + cli.ProfileHelp
	c.Setup = runStats
	return c
}

const statsHelp = `
Summarises each LOG (standard input when there is none, or for "-") and all
of them together: messages by kind and direction, requests and notifications
per method, how requests were answered (answered, unanswered, ids reused
while a request was open, orphan responses), error responses by code and
method, MCP tools/call calls and isError results per tool, latency per
method (count, p50, p90, p99, max in milliseconds, nearest rank) when the log
has timestamps, and the problems validation found.

A LOG is a message log in any form validate reads, or a graph jrpcld wrote
(Turtle, N-Triples, N-Quads or JSON-LD: by the extension .ttl, .nt, .nq or
.jsonld, or by its content). A graph's messages are rebuilt with the context
of the building block it was made with: --bblock, or the embedded JSON-RPC
2.0 block. A graph laid out as jrpcld writes it is read as a stream, in
memory that does not grow with it; any other (and JSON-LD) is read whole,
which a line on standard error says. The JSON-RPC 2.0 rules always run; a
schema runs too with --bblock or --schema.

--format json prints one JSON object, described in docs/stats.md. --html
writes a self-contained report page (summary, the problems found, each
with its line, pointer, message and the rule or schema that found it, up
to 1,000 per log, charts, a timeline of each session). Exit status: 0 when every message is valid, 1 when some are not,
2 on a usage or I/O error.`

// timelineLimit is how many messages of each log the HTML timeline shows,
// problemsLimit how many of its problems the HTML report lists.
const timelineLimit, problemsLimit = 2000, 1000

// statsOptions are the flags of stats.
type statsOptions struct {
	cmd, dir, id, schemaFile, format, htmlFile string
	formats, sparql                            bool
	fs                                         *pflag.FlagSet
	quiet                                      *bool
	mcp                                        *validate.MCPFlags
	prof                                       *cli.Profiler
}

func runStats(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &statsOptions{cmd: c.Name, fs: fs}
	fs.StringVar(&o.dir, "bblock", "", "validate with building block `DIR`, or a register source tree (with --id)")
	fs.StringVar(&o.id, "id", "", "the block's `ID` within the register given by --bblock")
	fs.StringVar(&o.schemaFile, "schema", "", "validate with this schema `FILE` (JSON or YAML)")
	fs.StringVarP(&o.format, "format", "f", "text", "output `format`: text or json")
	fs.StringVar(&o.htmlFile, "html", "", "also write an HTML report to `FILE`")
	fs.BoolVar(&o.formats, "formats", false, "assert \"format\" (uri, byte, ...) whatever the schema's draft, as validate --formats")
	fs.BoolVar(&o.sparql, "sparql", false, "run the SPARQL pack in-process on the logs' graph and print each query's rows")
	o.quiet = cli.AddQuietFlag(fs)
	o.mcp = validate.AddMCPFlags(fs)
	o.prof = cli.AddProfileFlags(fs)
	return o.run
}

func (o *statsOptions) run(e *cli.Env, files []string) error {
	if err := o.prof.Start(e, o.cmd); err != nil {
		return err
	}
	if o.format != "text" && o.format != "json" {
		return cli.Failf("--format must be text or json, not %q", o.format)
	}
	if o.htmlFile == "-" {
		return cli.Failf("--html needs a file name: the report goes to standard output")
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if o.id != "" && o.dir == "" {
		return cli.Failf("--id needs --bblock (without --bblock the only block is the embedded %s)", bblock.DefaultID)
	}
	if o.sparql {
		if err := checkSPARQL(o.fs); err != nil {
			return err
		}
		return o.runSPARQL(e, files)
	}
	if err := cli.RefuseInput(e, "--html", o.htmlFile, files); err != nil {
		return err
	}
	if o.schemaFile != "" && (o.dir != "" || o.id != "") {
		return cli.Failf("give --schema or --bblock, not both")
	}
	sr, err := o.schema()
	if err != nil {
		return cli.Fail(err)
	}
	report, ioFailed, read := o.read(e, files, sr)
	if ioFailed && read == 0 {
		// Nothing was read: no report of nothing.
		return cli.ExitError(cli.ExitUsage)
	}
	if o.format == "json" {
		err = report.WriteJSON(e.Stdout)
	} else {
		err = report.WriteText(e.Stdout)
	}
	if err != nil {
		return cli.Fail(err)
	}
	if o.htmlFile != "" {
		if err := writeHTMLReport(e, o.cmd, o.htmlFile, report); err != nil {
			return cli.Fail(err)
		}
	}
	switch {
	case ioFailed:
		return cli.ExitError(cli.ExitUsage)
	case report.Total.InvalidMessages() > 0:
		return cli.ExitError(cli.ExitInvalid)
	}
	return nil
}

// statsSchema is the schema stats validates with, and the block whose
// context reads graphs back.
type statsSchema struct {
	s   *schema.Schema // nil: the JSON-RPC 2.0 rules alone
	b   *bblock.Block
	reg *bblock.Register
	rv  *wire.Decoder // made for the first graph
}

// schema compiles the schema of --schema or --bblock, or gets --mcp ready.
func (o *statsOptions) schema() (*statsSchema, error) {
	sr := &statsSchema{b: bblock.Default()}
	compiler := &schema.Compiler{Formats: o.formats}
	if err := o.mcp.Open(compiler, "--schema or --bblock", o.schemaFile != "" || o.dir != ""); err != nil {
		return nil, err
	}
	var err error
	switch {
	case o.schemaFile != "":
		sr.s, err = compiler.CompileFile(o.schemaFile)
	case o.dir != "":
		if sr.b, sr.reg, err = bblock.Open(o.dir, o.id, nil); err == nil {
			if sr.b.Files.Schema == "" {
				err = fmt.Errorf("block %s has no schema to validate with", sr.b.ID)
			} else {
				sr.s, err = compiler.Compile(sr.b, sr.reg)
			}
		}
	}
	return sr, err
}

// reverse returns the way back from graphs to messages, made for the
// first graph: message logs do not need the block's context.
func (sr *statsSchema) reverse(e *cli.Env, cmd string) (*wire.Decoder, error) {
	if sr.rv != nil {
		return sr.rv, nil
	}
	ctx, warns, err := toolchain.ForBlock(sr.b, sr.reg, nil)
	cli.Warn(e, cmd, warns)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", sr.b.ID, err)
	}
	sr.rv = wire.NewDecoder(ctx)
	return sr.rv, nil
}

// read reads each input into the report, printing the problems of those
// that cannot be read; it returns whether any could not, and how many
// logs were read.
func (o *statsOptions) read(e *cli.Env, files []string, sr *statsSchema) (*stats.Report, bool, int) {
	timeline, problems := 0, 0
	if o.htmlFile != "" {
		timeline, problems = timelineLimit, problemsLimit
	}
	var ml *validate.MCPLog // with --mcp, the log's
	newCollector := func(graph bool) *stats.Collector {
		opts := stats.Options{Timeline: timeline, Problems: problems}
		if sr.s != nil || ml != nil && !graph {
			c, _ := schema.NewChecker(sr.s, "") // cannot fail without a definition
			if !graph {
				ml.Observe(c) // the version of each message, and the rules
			}
			opts.Checker = c
			if sr.s != nil {
				opts.Schema = sr.s.Name()
			}
		}
		return stats.NewCollector(opts)
	}
	reverse := func() (*wire.Decoder, error) { return sr.reverse(e, o.cmd) }
	report := stats.NewReport()
	ioFailed, read := false, 0
	for _, name := range files {
		fe, done := e, func() {}
		if o.mcp.On {
			var err error
			ml, fe, done, err = o.mcp.Prepare(e, o.cmd, name)
			if err == nil {
				sr.s, err = o.mcp.Base(ml)
			}
			if err != nil {
				done()
				cli.Errorf(e, "stats", "%v", err)
				ioFailed = true
				continue
			}
			ml.Notice(e, o.cmd, validate.DisplayName(name))
		}
		logs, err := statsFile(fe, name, *o.quiet, newCollector, reverse)
		done()
		for _, l := range logs {
			report.Add(l)
			read++
		}
		if err != nil {
			errs := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap() // one line per problem of a graph
			}
			for _, err := range errs {
				cli.Errorf(e, "stats", "%v", err)
			}
			ioFailed = true
		}
	}
	return report, ioFailed, read
}

// statsFile reads one LOG: a message log, or a graph whose messages
// reverse rebuilds. A graph jrpcld did not lay out is read whole, and said so.
func statsFile(e *cli.Env, name string, quiet bool, newCollector func(graph bool) *stats.Collector, reverse func() (*wire.Decoder, error)) ([]*stats.LogStats, error) {
	in, display, size, err := cli.OpenInput(e, name)
	if err != nil {
		return nil, err
	}
	if c, ok := in.(io.Closer); ok && name != "-" {
		defer c.Close()
	}
	file := in
	var read atomic.Int64
	bar := cli.WatchBytes(e, quiet, size, &read)
	defer bar.Done()
	in = cli.CountingReader{R: in, N: &read}
	br := bufio.NewReaderSize(in, 64<<10)
	head, _ := br.Peek(512)
	f, ok := rpclog.GraphFormat(display, head)
	if ok && f == rdf.RDFXML {
		return nil, fmt.Errorf("%s is XML (RDF/XML?), which jrpcld stats does not read: convert RDF/XML to N-Triples first (rapper -o ntriples)", display)
	}
	if ok {
		rv, err := reverse()
		if err != nil {
			return nil, err
		}
		var graph io.Reader = br
		if s, ok := file.(io.Seeker); ok && name != "-" {
			// A file is read again from its start rather than from a copy
			// when it must be read whole.
			if _, err := s.Seek(0, io.SeekStart); err == nil {
				read.Store(0)
				graph = in
			}
		}
		defer cli.TuneGC()()
		return stats.ReadGraph(graph, display, f, rv, stats.GraphOptions{
			NewCollector: func(string) *stats.Collector { return newCollector(true) },
			Whole: func(reason string) {
				cli.Errorf(e, "stats", "%s: read whole, so memory grows with its size: %s", display, reason)
			},
			Size: size,
		})
	}
	r, err := rpclog.NewReader(br, display, rpclog.ReaderOptions{})
	if err != nil {
		return nil, err // the error names the input
	}
	c := newCollector(false)
	err = stats.ReadLog(r, c)
	l := stats.NewLogStats(display, "", c)
	if err != nil {
		err = fmt.Errorf("%s: %w", display, err)
	}
	return []*stats.LogStats{l}, err
}

// writeHTMLReport writes r as an HTML page to the file at path, as -o
// writes (atomically, through a symbolic link, dropped on a signal).
func writeHTMLReport(e *cli.Env, cmd, path string, r *stats.Report) error {
	out, err := cli.OpenOutput(e, cmd, path)
	if err != nil {
		return err
	}
	if err := r.WriteHTML(out); err != nil {
		out.Finish(false)
		return fmt.Errorf("%s: %w", path, err)
	}
	return out.Finish(true)
}
