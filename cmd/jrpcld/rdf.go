package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/spf13/pflag"
)

func rdfCommand() command {
	c := command{name: "rdf", args: "[--format turtle|ntriples|nquads|jsonld|jsonld-expanded] [--bblock DIR [--id ID]] [--base IRI] [--engine compiled|json-gold] [-o FILE | --push URL] [--strict] [-q] [FILE...|-]",
		summary: "turn messages and logs into RDF"}
	c.help = fmt.Sprintf(rdfHelp, rdfOutputHelp) + "\n" + pushHelp + "\n\n" + profileHelp
	c.setup = func(c *command, fs *pflag.FlagSet) func(e *env, args []string) int { return runRDF(c, fs, "") }
	return c
}

func turtleCommand() command {
	c := command{name: "turtle", args: "[--bblock DIR [--id ID]] [--base IRI] [--engine compiled|json-gold] [-o FILE] [--strict] [-q] [FILE...|-]",
		summary: "turn messages and logs into Turtle (rdf --format turtle)"}
	c.help = fmt.Sprintf(rdfHelp, turtleOutputHelp) + "\n" + pushHelp + "\n\n" + profileHelp
	c.setup = func(c *command, fs *pflag.FlagSet) func(e *env, args []string) int { return runRDF(c, fs, "turtle") }
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

func runRDF(c *command, fs *pflag.FlagSet, fixedFormat string) func(e *env, args []string) int {
	format := fixedFormat
	if fixedFormat == "" {
		fs.StringVarP(&format, "format", "f", "turtle", "output `format`: turtle, ntriples, nquads, jsonld (compacted) or jsonld-expanded")
	}
	bf := addBlockFlags(fs)
	base := fs.String("base", "", "the log's `IRI` (default: the file: URL of the file)")
	outPath := fs.StringP("output", "o", "", "write to `FILE` (atomically: replaced only when complete); its extension (.ttl, .nt, .nq, .jsonld or .json, then .gz to compress) gives the format")
	strict := fs.Bool("strict", false, "stop at the first message that cannot be converted")
	quiet := addQuietFlag(fs)
	engineName := fs.String("engine", "compiled", "mapping `engine`: compiled, or json-gold for the reference processor alone")
	push := addPushFlags(fs, pushUsage)
	limits := addLimitFlags(fs)
	prof := addProfileFlags(fs)
	return func(e *env, files []string) int {
		if !prof.start(e, c.name) {
			return exitUsage
		}
		defer prof.stop()
		if len(files) == 0 {
			files = []string{"-"}
		}
		if refuseInput(e, c.name, "-o", *outPath, files) {
			return exitUsage
		}
		if err := limits.check(); err != nil {
			errorf(e, c.name, "%v", err)
			return exitUsage
		}
		f, gz, err := outputFormat(format, fs.Changed("format"), fixedFormat != "", *outPath)
		if err != nil {
			errorf(e, c.name, "%v", err)
			return exitUsage
		}
		engine, err := convert.ParseEngine(*engineName)
		if err != nil {
			errorf(e, c.name, "--engine: %v", err)
			return exitUsage
		}
		if *base != "" {
			if rdf.CheckIRI(*base) != nil {
				errorf(e, c.name, "--base %q is not an absolute IRI", *base)
				return exitUsage
			}
			if err := distinctLogIRIs(*base, files); err != nil {
				errorf(e, c.name, "%v", err)
				return exitUsage
			}
		}
		_, _, ctx, err := bf.openContext(e, c.name)
		if err != nil {
			errorf(e, c.name, "%v", err)
			return exitUsage
		}
		skipped := 0
		printer := &errorPrinter{w: e.stderr, limit: limits.maxErrors}
		defer printer.summary(c.name)
		// newConverter gives a converter that reports its problems, or,
		// quiet, none.
		newConverter := func(quiet bool) *convert.Converter {
			conv := convert.NewConverter(ctx)
			conv.Engine, conv.Strict = engine, *strict
			conv.Report = func(d diag.Diagnostic) {
				if quiet {
					return
				}
				if d.Severity == diag.Error {
					skipped++
				}
				printer.print("%s\n", d)
			}
			return conv
		}
		ps, err := push.pusher(e, c.name, fs)
		if err != nil {
			errorf(e, c.name, "%v", err)
			return exitUsage
		}
		if ps != nil {
			if *outPath != "" {
				errorf(e, c.name, "--push and -o exclude one another: with --push the graphs go to the store")
				return exitUsage
			}
			code := pushLogs(ps, *base, files, limits, newConverter)
			if code == exitOK && skipped > 0 {
				return exitInvalid
			}
			return code
		}
		out, err := openOutput(e, c.name, *outPath)
		if err != nil {
			errorf(e, c.name, "%v", err)
			return exitUsage
		}
		defer tuneGC()()
		conv := newConverter(false)
		var logs []convert.Log
		var sizes []int64
		var closers []io.Closer
		defer func() {
			for _, c := range closers {
				c.Close()
			}
		}()
		for _, name := range files {
			in, display, size, err := openInput(e, name)
			if err != nil {
				out.finish(false)
				errorf(e, c.name, "%v", err)
				return exitUsage
			}
			if cl, ok := in.(io.Closer); ok {
				closers = append(closers, cl)
			}
			br := bufio.NewReaderSize(in, 64<<10)
			head, _ := br.Peek(512)
			if err := notALog(name, display, head); err != nil {
				out.finish(false)
				errorf(e, c.name, "%v", err)
				return exitUsage
			}
			r, err := rpclog.NewReader(br, display, limits.readerOptions())
			if err != nil {
				out.finish(false)
				errorf(e, c.name, "%v", err) // the error names the input
				return exitUsage
			}
			logs = append(logs, convert.Log{Reader: r, File: display, IRI: rpclog.IRI(*base, name, len(files))})
			sizes = append(sizes, size)
		}
		// One progress bar per input: a new one starts when the bytes read
		// fall back, at the start of the next input.
		var bar *progress
		current, lastDone := -1, int64(-1)
		conv.Progress = func(done int64) {
			if bar == nil || done < lastDone {
				if bar != nil {
					bar.done()
				}
				current++
				bar = newProgress(e, *quiet, sizes[min(current, len(sizes)-1)])
			}
			lastDone = done
			bar.update(done)
		}
		var w io.Writer = out
		var zw *gzip.Writer
		if gz {
			zw = gzip.NewWriter(out)
			w = zw
		}
		err = conv.Convert(w, f, logs)
		if err == nil && zw != nil {
			err = zw.Close()
		}
		if bar != nil {
			bar.done()
		}
		if err != nil {
			out.finish(false)
			errorf(e, c.name, "%v", err)
			if errors.Is(err, convert.ErrStrict) {
				return exitInvalid
			}
			return exitUsage
		}
		if err := out.finish(true); err != nil {
			errorf(e, c.name, "%v", err)
			return exitUsage
		}
		if skipped > 0 {
			return exitInvalid
		}
		return exitOK
	}
}

// tuneGC sets the garbage collector for streaming a log: decoded messages
// are short-lived, so collecting when the heap has tripled (at the latest
// when it reaches 40 MiB) rather than whenever it doubles costs less CPU,
// and memory stays flat. GOGC or GOMEMLIMIT in the environment win. It
// returns the function that restores the previous settings.
func tuneGC() func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(200)
	limit := debug.SetMemoryLimit(40 << 20)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// openInput opens a named input: a file, or standard input for "-". It
// returns the reader, the name to show in messages and the size when known.
func openInput(e *env, name string) (io.Reader, string, int64, error) {
	if name == "-" {
		return stdinReader(e), "stdin", 0, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", 0, err
	}
	var size int64
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			f.Close()
			return nil, "", 0, errIsDir(name)
		}
		size = st.Size()
	}
	return f, name, size, nil
}

// distinctLogIRIs returns an error when two of the files would be given
// the same log IRI with --base base: their statements would make one log.
func distinctLogIRIs(base string, files []string) error {
	if a, b, iri, ok := rpclog.SharedIRI(base, files); ok {
		return fmt.Errorf("--base %s gives %s and %s the same IRI, <%s>, which would merge two logs into one: convert them one at a time, each with its own --base", base, a, b, iri)
	}
	return nil
}
