// Package rdfcmd is "jrpcld rdf" and "jrpcld turtle": JSON-RPC messages
// and logs turned into RDF, written or pushed to a Graph Store. It is named
// rdfcmd so that it does not shadow the domain package rdf its files use.
package rdfcmd

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/push"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/validate"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld rdf".
func NewCmd() cli.Command {
	c := cli.Command{Name: "rdf", Args: "[--format turtle|ntriples|nquads|jsonld|jsonld-expanded] [--bblock DIR [--id ID]] [--base IRI] [--engine compiled|json-gold] [--mcp [--mcp-version V] [--mcp-schemas DIR]] [-o FILE | --push URL] [--strict] [-q] [FILE...|-]",
		Summary: "turn messages and logs into RDF"}
	c.Help = fmt.Sprintf(rdfHelp, rdfOutputHelp) + "\n\n" + validate.MCPGraphHelp + "\n" + push.Help + "\n\n" + cli.ProfileHelp
	c.Setup = func(c *cli.Command, fs *pflag.FlagSet) cli.Runner { return newRDFOptions(c, fs, "").run }
	return c
}

// NewTurtleCmd returns the command "jrpcld turtle" (rdf --format turtle).
func NewTurtleCmd() cli.Command {
	c := cli.Command{Name: "turtle", Args: "[--bblock DIR [--id ID]] [--base IRI] [--engine compiled|json-gold] [--mcp [--mcp-version V] [--mcp-schemas DIR]] [-o FILE] [--strict] [-q] [FILE...|-]",
		Summary: "turn messages and logs into Turtle (rdf --format turtle)"}
	c.Help = fmt.Sprintf(rdfHelp, turtleOutputHelp) + "\n\n" + validate.MCPGraphHelp + "\n" + push.Help + "\n\n" + cli.ProfileHelp
	c.Setup = func(c *cli.Command, fs *pflag.FlagSet) cli.Runner { return newRDFOptions(c, fs, "turtle").run }
	return c
}

// rdfOutputHelp and turtleOutputHelp are the paragraph of rdfHelp on -o of
// rdf and of turtle (which has no --format).
const (
	rdfOutputHelp = `With -o FILE, the extension of FILE gives the format (.ttl Turtle, .nt
N-Triples, .nq N-Quads, .jsonld or .json JSON-LD) unless --format says
otherwise, and a further .gz compresses it with gzip (out.nq.gz); an extension
that says another format than --format is an error, and so is one of a format
jrpcld does not write (.trig, .n3, .trix, .rdf, .owl, .xml).
`
	turtleOutputHelp = `With -o FILE, FILE is written in Turtle: an extension that says another
format (.nt, .nq, .jsonld, .json) is an error ("jrpcld rdf -o FILE" writes
those), and so is one of a format jrpcld does not write (.trig, .rdf, ...);
and a further .gz compresses it with gzip (out.ttl.gz).
`
)

const rdfHelp = `
Turns each FILE (standard input when there is none, or for "-") into RDF: every
message is expanded with the building block's JSON-LD context (the embedded
JSON-RPC 2.0 block by default), and each log becomes one connected graph.

A message is a node with a stable IRI made of the log's IRI, its direction and
its position (LOG#c2s-5); it is typed jrpc:Request, jrpc:Notification,
jrpc:Response or jrpc:ErrorResponse and carries its position, direction,
timestamp and id with the log terms of https://jrpcld.github.io/ns/log#. Each
response is linked to the request it answers (jlog:answers); requests nobody
answered and responses that answer nothing are typed jlog:UnansweredRequest and
jlog:OrphanResponse.

%s
The log's IRI is the file: URL of the file unless --base gives one; with several
files, --base is a prefix to which each file's name is added: two files of the
same name (a/session.jsonl, b/session.jsonl) would be one log, which is an
error (convert them one at a time, each with its own --base).

A message that breaks the JSON-RPC 2.0 rules is kept, typed jlog:InvalidMessage
with its exact text (jlog:json) and its problems (jlog:problem), and reported as
a warning; a value the writers cannot write (an id "@id" read as an IRI) is left
out of the mapping, reported and kept in jlog:patch. Text that is not UTF-8,
which a log envelope holds as "bytes", is kept too, typed jlog:InvalidMessage
with its exact bytes (jlog:bytes) and its problem. Only a line that is not
JSON is skipped, reported on standard error with its line (exit 1); with
--strict it stops the run, and what was written before stays complete.

Keys of a message that start with "@" are data, never JSON-LD instructions:
they are reported, left out of the mapping and kept, with whatever else the
block's context cannot carry, in jlog:patch (a JSON Patch) so that "jrpcld
json" gives the message back. Nothing is fetched.

Messages are mapped by a plan compiled from the context, which gives the graph
json-gold (the reference JSON-LD processor) gives; a message that uses a context
feature the plan does not cover goes to json-gold. --engine json-gold sends every
message there. Lines are decoded, mapped and written on every core, in order.`

// rdfOptions are the flags of rdf and turtle.
type rdfOptions struct {
	cmd         string
	fs          *pflag.FlagSet // to tell the flags given
	format      string
	fixedFormat string // turtle's; "" for rdf
	block       *cli.BlockFlags
	base        string
	outPath     string
	strict      bool
	quiet       *bool
	engineName  string
	push        *push.Flags
	limits      *cli.LimitFlags
	prof        *cli.Profiler
	mcp         *validate.MCPFlags
}

// newRDFOptions binds the flags of c on fs; fixedFormat is the one format
// the command writes (turtle), or "" for --format.
func newRDFOptions(c *cli.Command, fs *pflag.FlagSet, fixedFormat string) *rdfOptions {
	o := &rdfOptions{cmd: c.Name, fs: fs, format: fixedFormat, fixedFormat: fixedFormat}
	if fixedFormat == "" {
		fs.StringVarP(&o.format, "format", "f", "turtle", "output `format`: turtle, ntriples, nquads, jsonld (compacted) or jsonld-expanded")
	}
	o.block = cli.AddBlockFlags(fs)
	fs.StringVar(&o.base, "base", "", "the log's `IRI` (default: the file: URL of the file)")
	fs.StringVarP(&o.outPath, "output", "o", "", "write to `FILE` (atomically: replaced only when complete); its extension (.ttl, .nt, .nq, .jsonld or .json, then .gz to compress) gives the format")
	fs.BoolVar(&o.strict, "strict", false, "stop at the first message that cannot be converted")
	o.quiet = cli.AddQuietFlag(fs)
	fs.StringVar(&o.engineName, "engine", "compiled", "mapping `engine`: compiled, or json-gold for the reference processor alone")
	o.push = push.AddFlags(fs, push.Usage)
	o.limits = cli.AddLimitFlags(fs)
	o.prof = cli.AddProfileFlags(fs)
	o.mcp = validate.AddMCPGraphFlags(fs)
	return o
}

// rdfRun is what one run of rdf or turtle works with, once its flags are
// checked.
type rdfRun struct {
	*rdfOptions
	e       *cli.Env
	files   []string
	format  rdf.Format
	gz      bool
	engine  convert.Engine
	ctx     *ldctx.Processed
	printer *cli.ErrorPrinter
	skipped int // messages reported as errors
	// With --mcp, by file: the env to read it with (nil: e), and the MCP
	// rules' findings to write into its graph.
	envs     []*cli.Env
	findings []map[int][]diag.Diagnostic
}

func (o *rdfOptions) run(e *cli.Env, files []string) error {
	if err := o.prof.Start(e, o.cmd); err != nil {
		return err
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	r, err := o.check(e, files)
	if err != nil {
		return err
	}
	r.printer = cli.NewErrorPrinter(e.Stderr, o.limits.MaxErrors)
	e.AtEnd(func() { r.printer.Summary(o.cmd) })
	ps, err := o.push.Pusher(e, o.cmd, o.fs)
	if err != nil {
		return cli.Fail(err)
	}
	if ps != nil {
		if o.mcp.On {
			return cli.Failf("--mcp and --push exclude one another: write the graph with -o, then push it")
		}
		if o.outPath != "" {
			return cli.Failf("--push and -o exclude one another: with --push the graphs go to the store")
		}
		err = push.Logs(ps, o.base, files, o.limits.ReaderOptions(), r.newConverter)
	} else {
		err = r.convert()
	}
	if err == nil && r.skipped > 0 {
		return cli.ExitError(cli.ExitInvalid)
	}
	return err
}

// check checks the flags, in the order they are reported, and opens the
// block's context.
func (o *rdfOptions) check(e *cli.Env, files []string) (*rdfRun, error) {
	if err := cli.RefuseInput(e, "-o", o.outPath, files); err != nil {
		return nil, err
	}
	if err := o.limits.Check(); err != nil {
		return nil, cli.Fail(err)
	}
	r := &rdfRun{rdfOptions: o, e: e, files: files}
	var err error
	r.format, r.gz, err = cli.OutputFormat(o.format, o.fs.Changed("format"), o.fixedFormat != "", o.outPath)
	if err != nil {
		return nil, cli.Fail(err)
	}
	if r.engine, err = convert.ParseEngine(o.engineName); err != nil {
		return nil, cli.Failf("--engine: %v", err)
	}
	if o.base != "" {
		if rdf.CheckIRI(o.base) != nil {
			return nil, cli.Failf("--base %q is not an absolute IRI", o.base)
		}
		if err := cli.DistinctLogIRIs(o.base, files); err != nil {
			return nil, cli.Fail(err)
		}
	}
	if err := o.mcp.Open(&schema.Compiler{}, "", false); err != nil {
		return nil, cli.Fail(err)
	}
	if _, _, r.ctx, err = o.block.OpenContext(e, o.cmd); err != nil {
		return nil, cli.Fail(err)
	}
	return r, nil
}

// newConverter gives a converter that reports its problems, or, quiet,
// none.
func (r *rdfRun) newConverter(quiet bool) *convert.Converter {
	conv := convert.NewConverter(r.ctx)
	conv.Engine, conv.Strict = r.engine, r.strict
	conv.Report = func(d diag.Diagnostic) {
		if quiet {
			return
		}
		if d.Severity == diag.Error {
			r.skipped++
		}
		r.printer.Print("%s\n", d)
	}
	return conv
}

// convert writes the graphs of the logs to the output, as one stream.
func (r *rdfRun) convert() error {
	out, err := cli.OpenOutput(r.e, r.cmd, r.outPath)
	if err != nil {
		return cli.Fail(err)
	}
	defer cli.TuneGC()()
	if r.mcp.On {
		for _, name := range r.files {
			findings, le, done, err := r.mcp.GraphFindings(r.e, r.cmd, name, *r.quiet, r.limits.ReaderOptions())
			defer done()
			if err != nil {
				out.Finish(false)
				return cli.Fail(err)
			}
			r.envs, r.findings = append(r.envs, le), append(r.findings, findings)
		}
	}
	logs, sizes, closers, err := r.openLogs()
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	if err != nil {
		out.Finish(false)
		return cli.Fail(err)
	}
	conv := r.newConverter(false)
	bars := &progressBars{e: r.e, quiet: *r.quiet, sizes: sizes}
	conv.Progress = bars.update
	var w io.Writer = out
	var zw *gzip.Writer
	if r.gz {
		zw = gzip.NewWriter(out)
		w = zw
	}
	err = conv.Convert(w, r.format, logs)
	if err == nil && zw != nil {
		err = zw.Close()
	}
	bars.done()
	if err != nil {
		out.Finish(false)
		if errors.Is(err, convert.ErrStrict) {
			return &cli.Failure{Code: cli.ExitInvalid, Msg: err.Error()}
		}
		return cli.Fail(err)
	}
	if err := out.Finish(true); err != nil {
		return cli.Fail(err)
	}
	return nil
}

// openLogs opens each input as a log, refusing a graph, with its size
// when known and what is to be closed once it is read.
func (r *rdfRun) openLogs() ([]convert.Log, []int64, []io.Closer, error) {
	var logs []convert.Log
	var sizes []int64
	var closers []io.Closer
	for i, name := range r.files {
		e := r.e
		if i < len(r.envs) {
			e = r.envs[i]
		}
		in, display, size, err := cli.OpenInput(e, name)
		if err != nil {
			return nil, nil, closers, err
		}
		if cl, ok := in.(io.Closer); ok {
			closers = append(closers, cl)
		}
		br := bufio.NewReaderSize(in, 64<<10)
		head, _ := br.Peek(512)
		if err := cli.NotALog(name, display, head); err != nil {
			return nil, nil, closers, err
		}
		lr, err := rpclog.NewReader(br, display, r.limits.ReaderOptions())
		if err != nil {
			return nil, nil, closers, err // the error names the input
		}
		l := convert.Log{Reader: lr, File: display, IRI: rpclog.IRI(r.base, name, len(r.files))}
		if i < len(r.findings) {
			l.Findings = r.findings[i]
		}
		logs = append(logs, l)
		sizes = append(sizes, size)
	}
	return logs, sizes, closers, nil
}

// progressBars draws one progress bar per input: a new one starts when the
// bytes read fall back, at the start of the next input.
type progressBars struct {
	e        *cli.Env
	quiet    bool
	sizes    []int64
	bar      *cli.Progress
	current  int
	lastDone int64
	started  bool
}

// update records that done bytes of the current input are read.
func (p *progressBars) update(done int64) {
	if p.bar == nil || done < p.lastDone {
		if p.bar != nil {
			p.bar.Done()
		}
		if p.started {
			p.current++
		}
		p.started = true
		p.bar = cli.NewProgress(p.e, p.quiet, p.sizes[min(p.current, len(p.sizes)-1)])
	}
	p.lastDone = done
	p.bar.Update(done)
}

// done clears the last bar.
func (p *progressBars) done() {
	if p.bar != nil {
		p.bar.Done()
	}
}
