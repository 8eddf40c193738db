package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// JSONLOptions say what Decoder.WriteJSONL writes.
type JSONLOptions struct {
	// Envelope writes {"dir","ts","msg"} lines instead of bare messages
	// ({"dir","ts","bytes"} for a message that is no JSON text).
	Envelope bool
	// Graph, when not empty, writes only the log with this IRI.
	Graph string
	// Size is the size of the input when known, 0 otherwise; it only saves
	// copying when the input is read whole.
	Size int64
}

// JSONLResult is what Decoder.WriteJSONL found in one input.
type JSONLResult struct {
	// Found reports that a log with the IRI of JSONLOptions.Graph was
	// written (or, without one, any log).
	Found bool
	// Others are, with JSONLOptions.Graph, the IRIs of the other logs the
	// input holds (the first 100), in the order they appear.
	Others []string
	// Whole, when not empty, says why RDF text was read whole rather than
	// as a stream (see Decoder.EachMessage); JSON-LD always is.
	Whole string
	// Problems are the diagnostics of the input: a syntax error (then
	// nothing was written), or nodes that do not read back as messages (the
	// other messages were written). Their File is empty.
	Problems []diag.Diagnostic
}

// WriteJSONL reads the logs in the RDF text of r, in format f, and writes
// their messages to w as JSON lines: the logs one after another in the
// order they first appear, each in log order (see Message.AppendJSONL).
//
// The input is read as EachMessage reads it. While it is read as a stream
// the lines wait in a temporary file until the input has been read to its
// end, so that nothing of a stream that turns out not to be laid out as
// jrpcld writes logs is written.
//
// The returned error is one of reading r, writing w or a temporary file;
// problems with the RDF itself are in the result.
func (d *Decoder) WriteJSONL(w io.Writer, r io.Reader, f rdf.Format, opts JSONLOptions) (JSONLResult, error) {
	var res JSONLResult
	spool, err := tempFile()
	if err != nil {
		return res, err
	}
	defer closeTemp(spool)
	bw := bufio.NewWriterSize(spool, 64<<10)
	// JSON-LD is read whole: its lines are final at once.
	direct := f == rdf.JSONLD || f == rdf.JSONLDExpanded
	var out io.Writer = bw
	if direct {
		out = w
	}
	var line []byte
	whole := func(reason string) error {
		// What the stream wrote is dropped: from here on the lines are final.
		res.Whole, res.Found, out, direct = reason, false, w, true
		return nil
	}
	others := map[string]bool{}
	res.Problems, err = d.EachMessage(r, f, opts.Size, whole, func(log string, m *Message) error {
		if opts.Graph != "" && log != opts.Graph {
			if !others[log] && len(others) < 100 {
				others[log] = true
				res.Others = append(res.Others, log)
			}
			return nil
		}
		res.Found = true
		line = m.AppendJSONL(line[:0], opts.Envelope)
		_, err := out.Write(line)
		return err
	})
	var se *diag.Diagnostic
	if errors.As(err, &se) {
		res.Problems = append(res.Problems, *se)
		return res, nil
	}
	if err != nil || direct {
		return res, err
	}
	if err = bw.Flush(); err == nil {
		_, err = spool.Seek(0, io.SeekStart)
	}
	if err == nil {
		_, err = io.Copy(w, spool)
	}
	return res, err
}

// EachMessage reads the logs in the RDF text of r, in format f, and calls
// emit with each message: the logs one after another in the order they
// first appear, each in log order, as Logs gives them.
//
// RDF laid out as jrpcld writes logs (Turtle, N-Triples or N-Quads, each
// message's statements together, in log order) is read as a stream (see
// Stream), in memory that does not grow with the input. Any other RDF is
// read whole as one graph: r is read again from where it started when it
// can seek, or else from a temporary copy. Before it is, whole (when not
// nil) is called with the reason: the messages emit was given until then
// are to be discarded, as they are all emitted again. JSON-LD is always
// read whole, without a call to whole.
// size is the size of the input when known, 0 otherwise; it only saves
// copying when the input is read whole.
//
// The problems returned are the nodes that do not read back as messages
// (the other messages were emitted); their File is empty. RDF that does not
// parse returns a *diag.Diagnostic error, with its place, and no message
// after whole; any other error is one of reading r, a temporary file,
// whole or emit.
func (d *Decoder) EachMessage(r io.Reader, f rdf.Format, size int64, whole func(reason string) error, emit func(log string, m *Message) error) ([]diag.Diagnostic, error) {
	var data []byte
	var reason string
	var err error
	if f == rdf.JSONLD || f == rdf.JSONLDExpanded {
		data, err = readAll(r, size)
	} else {
		data, reason, err = d.tryStream(r, f, size, emit)
	}
	if err != nil || data == nil {
		return nil, err
	}
	if whole != nil && reason != "" {
		if err := whole(reason); err != nil {
			return nil, err
		}
	}
	quads, err := ReadRDF(data, f)
	if err != nil {
		var se *diag.Diagnostic
		if !errors.As(err, &se) {
			se = &diag.Diagnostic{Severity: diag.Error, Message: err.Error()}
		}
		return nil, se
	}
	data = nil
	logs, problems := d.Logs(quads)
	quads = nil
	for _, l := range logs {
		for i := range l.Messages {
			if err := emit(l.IRI, &l.Messages[i]); err != nil {
				return problems, err
			}
		}
	}
	return problems, nil
}

// tryStream emits the messages of r as Stream reads them and returns an
// empty reason when the input is laid out as jrpcld writes logs. Otherwise
// it returns the whole input, to be read as one graph, and why.
func (d *Decoder) tryStream(r io.Reader, f rdf.Format, size int64, emit func(string, *Message) error) ([]byte, string, error) {
	start, canSeek := seekable(r)
	src := r
	var copied *os.File
	if !canSeek {
		var err error
		if copied, err = tempFile(); err != nil {
			return nil, "", err
		}
		defer closeTemp(copied)
		src = io.TeeReader(r, copied)
	}
	err := d.Stream(src, f, emit)
	switch {
	case err == nil:
		return nil, "", nil
	case !errors.Is(err, ErrUngrouped):
		return nil, "", err
	}
	reason := err.Error()
	if copied != nil {
		if _, err := copied.Seek(0, io.SeekStart); err != nil {
			return nil, "", err
		}
		data, err := readAll(io.MultiReader(copied, r), 0)
		return data, reason, err
	}
	if _, err := r.(io.Seeker).Seek(start, io.SeekStart); err != nil {
		return nil, "", err
	}
	data, err := readAll(r, size-start)
	return data, reason, err
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

// EachRecord is EachMessage with each message given as the record a log
// reader would have read for it (see Message.Record): it makes a Decoder a
// stats.GraphDecoder.
func (d *Decoder) EachRecord(r io.Reader, f rdf.Format, size int64, whole func(reason string) error, emit func(log string, rec *rpclog.Record) error) ([]diag.Diagnostic, error) {
	return d.EachMessage(r, f, size, whole, func(log string, m *Message) error {
		return emit(log, m.Record())
	})
}

// Record returns the record a log reader would have read for the message:
// its line is the message's jlog:position, with its direction and
// timestamp.
func (m *Message) Record() *rpclog.Record {
	var rec *rpclog.Record
	if m.Bytes != nil {
		rec = rpclog.BytesRecord(m.Bytes, int(m.Position))
	} else {
		rec = rpclog.MessageRecord(m.JSON, int(m.Position))
	}
	rec.Dir, rec.TS = m.Dir, m.TS
	return rec
}
