package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/wire"
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

RDF laid out as jrpcld writes it (each message's statements together, in log
order) is read as a stream, in memory that does not grow with the input; the
messages are kept in a temporary file until the input has been read to its end.
Other RDF, and JSON-LD, is read whole, as one graph.

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
	var fixed *rdf.Format
	if *from != "" {
		f, err := rdf.ParseFormat(*from)
		if err != nil || f == rdf.JSONLDExpanded || f == rdf.RDFXML {
			fmt.Fprintf(e.stderr, "jrpcld %s: --from must be turtle, ntriples, nquads or jsonld, not %q\n", c.name, *from)
			return exitUsage
		}
		fixed = &f
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	formats := make([]rdf.Format, len(files))
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
		return writeJSON(e, c, wire.NewDecoder(ctx), files, formats, *graph, *envelope, *outPath)
	}
	fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
	return exitUsage
}

// inputFormat returns the RDF format of the named input: fixed when given,
// else from the extension; standard input is Turtle.
func inputFormat(name string, fixed *rdf.Format) (rdf.Format, error) {
	if fixed != nil {
		return *fixed, nil
	}
	if name == "-" {
		return rdf.Turtle, nil
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".ttl":
		return rdf.Turtle, nil
	case ".nt":
		return rdf.NTriples, nil
	case ".nq":
		return rdf.NQuads, nil
	case ".jsonld":
		return rdf.JSONLD, nil
	}
	return 0, fmt.Errorf("%s: cannot tell the RDF format from the extension (.ttl, .nt, .nq or .jsonld): use --from", name)
}

// writeJSON reads each input and writes its logs' messages.
func writeJSON(e *env, c *command, rv *wire.Decoder, files []string, formats []rdf.Format, graph string, envelope bool, outPath string) int {
	out, err := openOutput(e, outPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
		return exitUsage
	}
	j := &jsonRun{e: e, rv: rv, graph: graph, envelope: envelope, out: out, status: exitOK}
	for i, name := range files {
		if err := j.input(name, formats[i]); err != nil {
			out.finish(false)
			fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
			return exitUsage
		}
	}
	if graph != "" && !j.found {
		fmt.Fprintf(e.stderr, "jrpcld %s: no log <%s> in the input\n", c.name, graph)
		j.status = exitInvalid
	}
	if err := out.finish(true); err != nil {
		fmt.Fprintf(e.stderr, "jrpcld %s: %v\n", c.name, err)
		return exitUsage
	}
	return j.status
}

// jsonRun is the state of one json command.
type jsonRun struct {
	e        *env
	rv       *wire.Decoder
	graph    string
	envelope bool
	out      io.Writer
	status   int
	found    bool // a log with the --graph IRI was written
}

// input writes the messages of one input. Problems with the input are
// printed and make the status exitInvalid; the error returned ends the run.
func (j *jsonRun) input(name string, f rdf.Format) error {
	in, display, size, err := openInput(j.e, name)
	if err != nil {
		return err
	}
	if cl, ok := in.(io.Closer); ok && name != "-" {
		defer cl.Close()
	}
	data, err := j.stream(in, f, size)
	if err != nil || data == nil {
		return err
	}
	quads, err := wire.ReadRDF(data, f)
	if err != nil {
		var se *diag.Diagnostic
		if errors.As(err, &se) {
			se.File = display
			fmt.Fprintln(j.e.stderr, se)
		} else {
			fmt.Fprintf(j.e.stderr, "%s: %v\n", display, err)
		}
		j.status = exitInvalid
		return nil
	}
	logs, problems := j.rv.Logs(quads)
	for _, p := range problems {
		p.File = display
		fmt.Fprintln(j.e.stderr, p)
		j.status = exitInvalid
	}
	for _, l := range logs {
		if j.graph != "" && l.IRI != j.graph {
			continue
		}
		j.found = true
		if err := wire.WriteJSONL(j.out, l.Messages, j.envelope); err != nil {
			return err
		}
	}
	return nil
}

// stream writes the messages of in as they come when the input is laid
// out as jrpcld writes logs (see wire.Decoder.Stream), in memory that does
// not grow with the input, and returns nil. Otherwise it returns the whole
// input, to be read as one graph: what the stream wrote went to a
// temporary file and is dropped, and what it read is read again (from a
// temporary copy when in cannot seek).
func (j *jsonRun) stream(in io.Reader, f rdf.Format, size int64) ([]byte, error) {
	if f == rdf.JSONLD {
		return readAll(in, size)
	}
	start, canSeek := seekable(in)
	spool, err := tempFile()
	if err != nil {
		return nil, err
	}
	defer closeTemp(spool)
	src := in
	var copied *os.File
	if !canSeek {
		if copied, err = tempFile(); err != nil {
			return nil, err
		}
		defer closeTemp(copied)
		src = io.TeeReader(in, copied)
	}
	w := bufio.NewWriterSize(spool, 64<<10)
	found := false
	var line []byte
	restore := tuneGC()
	err = j.rv.Stream(src, f, func(log string, m *wire.Message) error {
		if j.graph != "" && log != j.graph {
			return nil
		}
		found = true
		line = m.AppendJSONL(line[:0], j.envelope)
		_, err := w.Write(line)
		return err
	})
	restore()
	switch {
	case err == nil:
		j.found = j.found || found
		if err = w.Flush(); err == nil {
			_, err = spool.Seek(0, io.SeekStart)
		}
		if err == nil {
			_, err = io.Copy(j.out, spool)
		}
		return nil, err
	case !errors.Is(err, wire.ErrUngrouped):
		return nil, err
	case copied != nil:
		if _, err := copied.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return readAll(io.MultiReader(copied, in), 0)
	}
	if _, err := in.(io.Seeker).Seek(start, io.SeekStart); err != nil {
		return nil, err
	}
	return readAll(in, size-start)
}

// seekable reports whether r can seek, and where it is.
func seekable(r io.Reader) (int64, bool) {
	s, ok := r.(io.Seeker)
	if !ok {
		return 0, false
	}
	pos, err := s.Seek(0, io.SeekCurrent)
	return pos, err == nil
}

// tempFile creates a temporary file, removed when closed with closeTemp
// (on Unix at once: it goes away with the process).
func tempFile() (*os.File, error) {
	f, err := os.CreateTemp("", "jrpcld-json-*")
	if err == nil {
		os.Remove(f.Name())
	}
	return f, err
}

func closeTemp(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// readAll reads r to its end; size, when known, is what it holds.
func readAll(r io.Reader, size int64) ([]byte, error) {
	var b bytes.Buffer
	if size > 0 && size < 1<<40 {
		b.Grow(int(size) + bytes.MinRead)
	}
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}
