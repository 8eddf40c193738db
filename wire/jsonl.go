package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
)

// JSONLOptions say what Decoder.WriteJSONL writes.
type JSONLOptions struct {
	// Envelope writes {"dir","ts","msg"} lines instead of bare messages.
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
	// Problems are the diagnostics of the input: a syntax error (then
	// nothing was written), or nodes that do not read back as messages (the
	// other messages were written). Their File is empty.
	Problems []diag.Diagnostic
}

// WriteJSONL reads the logs in the RDF text of r, in format f, and writes
// their messages to w as JSON lines: the logs one after another in the
// order they first appear, each in log order (see Message.AppendJSONL).
//
// RDF laid out as jrpcld writes logs (Turtle, N-Triples or N-Quads, each
// message's statements together, in log order) is read as a stream, in
// memory that does not grow with the input; its lines wait in a temporary
// file until the input has been read to its end, so that nothing of a
// stream that turns out not to be laid out so is written. Any other RDF,
// and JSON-LD, is read whole as one graph: r is read again from where it
// started when it can seek, or else from a temporary copy.
//
// The returned error is one of reading r, writing w or a temporary file;
// problems with the RDF itself are in the result.
func (d *Decoder) WriteJSONL(w io.Writer, r io.Reader, f rdf.Format, opts JSONLOptions) (JSONLResult, error) {
	var res JSONLResult
	data, err := d.streamJSONL(w, r, f, opts, &res)
	if err != nil || data == nil {
		return res, err
	}
	quads, err := ReadRDF(data, f)
	if err != nil {
		var se *diag.Diagnostic
		if !errors.As(err, &se) {
			se = &diag.Diagnostic{Severity: diag.Error, Message: err.Error()}
		}
		res.Problems = append(res.Problems, *se)
		return res, nil
	}
	logs, problems := d.Logs(quads)
	res.Problems = append(res.Problems, problems...)
	for _, l := range logs {
		if opts.Graph != "" && l.IRI != opts.Graph {
			continue
		}
		res.Found = true
		if err := WriteJSONL(w, l.Messages, opts.Envelope); err != nil {
			return res, err
		}
	}
	return res, nil
}

// streamJSONL writes the messages of r as Stream reads them and returns
// nil when the input is laid out as jrpcld writes logs. Otherwise it
// returns the whole input, to be read as one graph: what the stream wrote
// went to a temporary file and is dropped.
func (d *Decoder) streamJSONL(w io.Writer, r io.Reader, f rdf.Format, opts JSONLOptions, res *JSONLResult) ([]byte, error) {
	if f == rdf.JSONLD || f == rdf.JSONLDExpanded {
		return readAll(r, opts.Size)
	}
	start, canSeek := seekable(r)
	spool, err := tempFile()
	if err != nil {
		return nil, err
	}
	defer closeTemp(spool)
	src := r
	var copied *os.File
	if !canSeek {
		if copied, err = tempFile(); err != nil {
			return nil, err
		}
		defer closeTemp(copied)
		src = io.TeeReader(r, copied)
	}
	bw := bufio.NewWriterSize(spool, 64<<10)
	found := false
	var line []byte
	err = d.Stream(src, f, func(log string, m *Message) error {
		if opts.Graph != "" && log != opts.Graph {
			return nil
		}
		found = true
		line = m.AppendJSONL(line[:0], opts.Envelope)
		_, err := bw.Write(line)
		return err
	})
	switch {
	case err == nil:
		res.Found = res.Found || found
		if err = bw.Flush(); err == nil {
			_, err = spool.Seek(0, io.SeekStart)
		}
		if err == nil {
			_, err = io.Copy(w, spool)
		}
		return nil, err
	case !errors.Is(err, ErrUngrouped):
		return nil, err
	case copied != nil:
		if _, err := copied.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return readAll(io.MultiReader(copied, r), 0)
	}
	if _, err := r.(io.Seeker).Seek(start, io.SeekStart); err != nil {
		return nil, err
	}
	return readAll(r, opts.Size-start)
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
