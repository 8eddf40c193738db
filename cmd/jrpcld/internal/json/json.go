// Package json is "jrpcld json": RDF back to JSON-RPC messages (the other
// direction of "jrpcld rdf"), through convert/wire.
package json

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld json".
func NewCmd() cli.Command {
	c := cli.Command{Name: "json", Args: "[--bblock DIR [--id ID]] [--from turtle|ntriples|nquads|jsonld] [--envelope] [--graph IRI] [-o FILE] [-q] [FILE...|-]",
		Summary: "turn RDF made by jrpcld back into the JSON-RPC messages it came from"}
	c.Help = jsonHelp + "\n\n" + cli.ProfileHelp
	c.Setup = runJSON
	return c
}

const jsonHelp = `
Reads the RDF that "jrpcld rdf" (or "jrpcld turtle") wrote from message logs and
writes the messages back as JSON lines, each log in its order (jlog:position; a
batch as one array, its members in jlog:memberIndex order). With --envelope each
line is {"dir","ts","msg"}, with the direction and timestamp the log recorded.

The format comes from --from, else from each FILE's extension (.ttl, .nt,
.nq, .jsonld), else from its first bytes (standard input too): JSON with
"@context", "@graph" or "@id" is JSON-LD, a line that starts with an IRI
N-Quads (which includes N-Triples), "@prefix" or "PREFIX" Turtle. A JSON-RPC
log is an error that points to "jrpcld turtle". Use the building block the RDF was made with (--bblock;
the embedded JSON-RPC 2.0 block by default): its context is inverted to name
the members, jlog:id gives back each id as sent and jlog:patch whatever the
context could not carry, so the messages come back equal to those sent, as JSON
values. Object member order and white space are not kept.

Several logs in one input (one named graph per log in N-Quads, or several logs
in one Turtle file) come back one after another, in the order they first
appear (JSON-LD has no order: there, by IRI); --graph IRI writes only the log
with that IRI (its named graph in N-Quads). An input with no log of that IRI
is a usage error (exit 2) that lists the logs it has; -o FILE is then left
as it was.

RDF laid out as jrpcld writes it (each message's statements together, in log
order) is read as a stream, in memory that does not grow with the input; the
messages are kept in a temporary file until the input has been read to its end.
Other RDF is read whole, as one graph, which a line on standard error says
(with the reason); JSON-LD always is.

RDF that does not parse is reported as FILE:LINE:COL. A graph that parses but
is not a JSON-RPC log as jrpcld writes one (a message node without a method,
result or error, two messages at one position, ...) is reported node by node;
the other messages still come back, and the exit status is 1.`

// jsonOptions are the flags of json.
type jsonOptions struct {
	bf       *cli.BlockFlags
	from     string
	envelope bool
	graph    string
	outPath  string
	quiet    *bool
	prof     *cli.Profiler
}

func runJSON(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &jsonOptions{}
	o.bf = cli.AddBlockFlags(fs)
	fs.StringVar(&o.from, "from", "", "input `format`: turtle, ntriples, nquads or jsonld (default: from the file extension)")
	fs.BoolVar(&o.envelope, "envelope", false, `write {"dir","ts","msg"} lines`)
	fs.StringVar(&o.graph, "graph", "", "write only the log with this `IRI`")
	fs.StringVarP(&o.outPath, "output", "o", "", "write to `FILE` (atomically: replaced only when complete)")
	o.quiet = cli.AddQuietFlag(fs)
	o.prof = cli.AddProfileFlags(fs)
	return func(e *cli.Env, files []string) error {
		if err := o.prof.Start(e, c.Name); err != nil {
			return err
		}
		var fixed *rdf.Format
		if o.from != "" {
			f, err := rdf.ParseFormat(o.from)
			if err != nil || f == rdf.JSONLDExpanded || f == rdf.RDFXML {
				return cli.Failf("--from must be turtle, ntriples, nquads or jsonld, not %q", o.from)
			}
			fixed = &f
		}
		if len(files) == 0 {
			files = []string{"-"}
		}
		if err := cli.RefuseInput(e, "-o", o.outPath, files); err != nil {
			return err
		}
		_, _, ctx, err := o.bf.OpenContext(e, c.Name)
		if err == nil {
			return writeJSON(e, c, wire.NewDecoder(ctx), files, fixed, o.graph, o.envelope, *o.quiet, o.outPath)
		}
		return cli.Fail(err)
	}
}

// inputFormat returns the RDF format of the input display names: fixed
// when given, else from the name's extension, else from head, the input's
// first bytes. An input that is a JSON-RPC log, or whose format cannot be
// told, is an error that says what to do.
func inputFormat(name, display string, head []byte, fixed *rdf.Format) (rdf.Format, error) {
	if fixed != nil {
		return *fixed, nil
	}
	f, gz, ok := rdf.FormatOf(name)
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if ok && f == rdf.RDFXML || bytes.HasPrefix(trimmed, []byte("<?xml")) || bytes.HasPrefix(trimmed, []byte("<rdf:RDF")) {
		return 0, fmt.Errorf("%s is RDF/XML, which jrpcld json does not read: convert it to N-Triples first (rapper -o ntriples)", display)
	}
	if ok && !gz {
		return f, nil
	}
	hint := "use --from turtle|ntriples|nquads|jsonld"
	switch rpclog.Sniff(head) {
	case rpclog.JSONLD, rpclog.JSONUnknown:
		return rdf.JSONLD, nil
	case rpclog.JSONLog:
		return 0, fmt.Errorf("%s is a JSON-RPC log, not RDF: \"jrpcld json\" turns RDF back into messages; to turn a log into RDF, use \"jrpcld turtle\" or \"jrpcld rdf\"", display)
	case rpclog.Gzip:
		return 0, fmt.Errorf("%s is gzip-compressed: decompress it first (gzip -dc %s | jrpcld json --from FORMAT)", display, name)
	}
	if f, ok := rpclog.GraphFormat(display, head); ok {
		return f, nil
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return rdf.Turtle, nil // nothing to read: no log
	}
	return 0, fmt.Errorf("%s: cannot tell the RDF format from the name or the content: %s", display, hint)
}

// writeJSON reads each input and writes its logs' messages.
func writeJSON(e *cli.Env, c *cli.Command, rv *wire.Decoder, files []string, fixed *rdf.Format, graph string, envelope, quiet bool, outPath string) error {
	out, err := cli.OpenOutput(e, c.Name, outPath)
	if err != nil {
		return cli.Fail(err)
	}
	j := &jsonRun{e: e, rv: rv, graph: graph, envelope: envelope, quiet: quiet, out: out, status: cli.ExitOK}
	for _, name := range files {
		if err := j.input(name, fixed); err != nil {
			out.Finish(false)
			return cli.Fail(err)
		}
	}
	if graph != "" && !j.found {
		out.Finish(false)
		var has []string
		for _, o := range j.others {
			has = append(has, "<"+o+">")
		}
		return cli.Failf("no log <%s> in the input%s", graph, suggest.Have("<"+graph+">", has, 20))
	}
	if err := out.Finish(true); err != nil {
		return cli.Fail(err)
	}
	return cli.Status(j.status)
}

// jsonRun is the state of one json command.
type jsonRun struct {
	e        *cli.Env
	rv       *wire.Decoder
	graph    string
	envelope bool
	quiet    bool // no progress bar
	out      io.Writer
	status   int
	found    bool     // a log with the --graph IRI was written
	others   []string // the IRIs of the other logs
}

// input writes the messages of one input. Problems with the input are
// printed and make the status cli.ExitInvalid; the error returned ends the run.
func (j *jsonRun) input(name string, fixed *rdf.Format) error {
	in, display, size, err := cli.OpenInput(j.e, name)
	if err != nil {
		return err
	}
	if cl, ok := in.(io.Closer); ok && name != "-" {
		defer cl.Close()
	}
	var read atomic.Int64
	bar := cli.WatchBytes(j.e, j.quiet, size, &read)
	defer bar.Done()
	br := bufio.NewReaderSize(cli.CountingReader{R: in, N: &read}, 64<<10)
	head, _ := br.Peek(512)
	f, err := inputFormat(name, display, head, fixed)
	if err != nil {
		return err
	}
	restore := cli.TuneGC()
	res, err := j.rv.WriteJSONL(j.out, br, f, wire.JSONLOptions{Envelope: j.envelope, Graph: j.graph, Size: size})
	restore()
	if err != nil {
		return err
	}
	j.found = j.found || res.Found
	j.others = append(j.others, res.Others...)
	if res.Whole != "" {
		cli.Errorf(j.e, "json", "%s: read whole, so memory grows with its size: %s", display, res.Whole)
	}
	for _, p := range res.Problems {
		p.File = display
		fmt.Fprintln(j.e.Stderr, p)
		j.status = cli.ExitInvalid
	}
	return nil
}
