package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/jrpcld/jrpcld/convert"
)

func jsonCommand() command {
	c := command{name: "json", args: "[--bblock DIR [--id ID]] [--from turtle|ntriples|nquads|jsonld] [--envelope] [--graph IRI] [-o FILE] [FILE...|-]",
		summary: "turn RDF made by jrpcld back into the JSON-RPC messages it came from"}
	c.run = func(e *env, args []string) int { return runJSON(e, &c, args) }
	return c
}

const jsonHelp = `
Reads the RDF that "jrpcld rdf" (or "jrpcld turtle") wrote from message logs and
writes the messages back as JSON lines, each log in its order (jlog:position; a
batch as one array, its members in jlog:memberIndex order). With --envelope each
line is {"dir","ts","msg"}, with the direction and timestamp the log recorded.

The format comes from each FILE's extension (.ttl, .nt, .nq, .jsonld) or from
--from; standard input is read as Turtle (which includes N-Triples) unless
--from says otherwise. Use the building block the RDF was made with (--bblock;
the embedded JSON-RPC 2.0 block by default): its context is inverted to name
the members, jlog:id gives back each id as sent and jlog:patch whatever the
context could not carry, so the messages come back equal to those sent, as JSON
values. Object member order and white space are not kept.

Several logs in one input (one named graph per log in N-Quads, or several logs
in one Turtle file) come back one after another, in the order they first
appear (JSON-LD has no order: there, by IRI); --graph IRI writes only the log
with that IRI (its named graph in N-Quads).

RDF that does not parse is reported as FILE:LINE:COL. A graph that parses but
is not a JSON-RPC log as jrpcld writes one (a message node without a method,
result or error, two messages at one position, ...) is reported node by node;
the other messages still come back, and the exit status is 1.`

func runJSON(e *env, c *command, args []string) int {
	fs := newFlags(e, c, jsonHelp)
	bf := addBlockFlags(fs)
	from := fs.String("from", "", "input `format`: turtle, ntriples, nquads or jsonld (default: from the file extension)")
	envelope := fs.Bool("envelope", false, `write {"dir","ts","msg"} lines`)
	graph := fs.String("graph", "", "write only the log with this `IRI`")
	outPath := fs.String("o", "", "write to `FILE` (atomically: replaced only when complete)")
	files, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	var fixed *convert.Format
	if *from != "" {
		f, err := convert.ParseFormat(*from)
		if err != nil || f == convert.JSONLDExpanded {
			fmt.Fprintf(e.stderr, "jrpcld %s: --from must be turtle, ntriples, nquads or jsonld, not %q\n", c.name, *from)
			return exitUsage
		}
		fixed = &f
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	formats := make([]convert.Format, len(files))
	for i, name := range files {
		f, err := inputFormat(name, fixed)
		if err != nil {
			fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
			return exitUsage
		}
		formats[i] = f
	}
	_, _, ctx, err := bf.openContext(e, c.name)
	if err == nil {
		var rv *convert.Reverse
		if rv, err = convert.NewReverse(ctx); err == nil {
			return writeJSON(e, c, rv, files, formats, *graph, *envelope, *outPath)
		}
	}
	fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
	return exitUsage
}

// inputFormat returns the RDF format of the named input: fixed when given,
// else from the extension; standard input is Turtle.
func inputFormat(name string, fixed *convert.Format) (convert.Format, error) {
	if fixed != nil {
		return *fixed, nil
	}
	if name == "-" {
		return convert.Turtle, nil
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".ttl":
		return convert.Turtle, nil
	case ".nt":
		return convert.NTriples, nil
	case ".nq":
		return convert.NQuads, nil
	case ".jsonld":
		return convert.JSONLD, nil
	}
	return 0, fmt.Errorf("%s: cannot tell the RDF format from the extension (.ttl, .nt, .nq or .jsonld): use --from", name)
}

// writeJSON reads each input and writes its logs' messages.
func writeJSON(e *env, c *command, rv *convert.Reverse, files []string, formats []convert.Format, graph string, envelope bool, outPath string) int {
	out, err := openOutput(e, outPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
		return exitUsage
	}
	status, found := exitOK, false
	for i, name := range files {
		in, display, _, err := openInput(e, name)
		var data []byte
		if err == nil {
			data, err = io.ReadAll(in)
			if cl, ok := in.(io.Closer); ok {
				cl.Close()
			}
		}
		if err != nil {
			out.finish(false)
			fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
			return exitUsage
		}
		ds, err := convert.ReadRDF(data, formats[i])
		if err != nil {
			var se *convert.SyntaxError
			if errors.As(err, &se) && se.Line > 0 {
				fmt.Fprintf(e.stderr, "%s:%s\n", display, se)
			} else {
				fmt.Fprintf(e.stderr, "%s: %v\n", display, err)
			}
			status = exitInvalid
			continue
		}
		logs, problems := rv.Logs(ds)
		for _, p := range problems {
			fmt.Fprintf(e.stderr, "%s: %s\n", display, p)
			status = exitInvalid
		}
		for _, l := range logs {
			if graph != "" && l.IRI != graph {
				continue
			}
			found = true
			if err := convert.WriteJSONL(out, l.Messages, envelope); err != nil {
				out.finish(false)
				fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
				return exitUsage
			}
		}
	}
	if graph != "" && !found {
		fmt.Fprintf(e.stderr, "jrpcld %s: no log <%s> in the input\n", c.name, graph)
		status = exitInvalid
	}
	if err := out.finish(true); err != nil {
		fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
		return exitUsage
	}
	return status
}
