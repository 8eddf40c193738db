package stats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// GraphFormat tells whether a file holds a graph rather than a message log,
// and in which RDF format. By its extension: .ttl is Turtle, .nt
// N-Triples, .nq N-Quads and .jsonld JSON-LD; .json, .jsonl, .ndjson and
// .gz are logs. Else by its first bytes (after comment lines): a Turtle
// directive makes it Turtle, an IRI or a blank node N-Quads (of which
// N-Triples is a part), anything else a log. A graph of comments only, as
// far as head goes, is Turtle.
func GraphFormat(name string, head []byte) (convert.Format, bool) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".ttl", ".turtle":
		return convert.Turtle, true
	case ".nt":
		return convert.NTriples, true
	case ".nq":
		return convert.NQuads, true
	case ".jsonld":
		return convert.JSONLD, true
	case ".json", ".jsonl", ".ndjson", ".gz":
		return 0, false
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	comment := false
	for {
		head = bytes.TrimLeft(head, " \t\r\n")
		if len(head) == 0 || head[0] != '#' {
			break
		}
		comment = true
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			return convert.Turtle, true
		}
		head = head[i:]
	}
	switch {
	case len(head) == 0:
		return convert.Turtle, comment
	case head[0] == '@':
		return convert.Turtle, true
	case head[0] == '<', bytes.HasPrefix(head, []byte("_:")):
		return convert.NQuads, true
	}
	for _, kw := range []string{"prefix", "base"} {
		if len(head) > len(kw) && strings.EqualFold(string(head[:len(kw)]), kw) && (head[len(kw)] == ' ' || head[len(kw)] == '\t') {
			return convert.Turtle, true
		}
	}
	return convert.Turtle, comment
}

// GraphError is what keeps part of a graph file from being read as the logs
// jrpcld wrote: a syntax error (at Line and Col when known), or a node that
// does not read back as a message.
type GraphError struct {
	File      string
	Line, Col int    // where the syntax error is; 0 when unknown or not one
	Node      string // the node concerned (an IRI, or _:label), or ""
	Msg       string
}

// Error returns "FILE:LINE:COL: message", "FILE: <node>: message" or
// "FILE: message".
func (e *GraphError) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case strings.HasPrefix(e.Node, "_:"):
		return fmt.Sprintf("%s: %s: %s", e.File, e.Node, e.Msg)
	case e.Node != "":
		return fmt.Sprintf("%s: <%s>: %s", e.File, e.Node, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// ReadGraph reads a graph jrpcld wrote, in format f, and computes the Stats
// of each log in it, in the order the logs first appear. rv, made with the
// context of the block the graph was made with, rebuilds each message as
// it was sent, with its direction and timestamp; the messages are counted
// as in a message log, in the order of jlog:position. The graph is read
// whole: memory grows with its size. newCollector is called once per log,
// with the log's IRI.
//
// A graph that does not parse gives a *GraphError and no Stats. Nodes that
// do not read back as messages give a *GraphError each, joined with
// errors.Join, and the Stats of the messages that do.
func ReadGraph(r io.Reader, file string, f convert.Format, rv *convert.Reverse, newCollector func(logIRI string) *Collector) ([]*LogStats, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	ds, err := convert.ReadRDF(data, f)
	if err != nil {
		var se *convert.SyntaxError
		if errors.As(err, &se) {
			return nil, &GraphError{File: file, Line: se.Line, Col: se.Col, Msg: se.Msg}
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	logs, problems := rv.Logs(ds)
	var out []*LogStats
	for _, l := range logs {
		c := newCollector(l.IRI)
		for _, m := range l.Messages {
			c.addAt(record(m), int(m.Position))
		}
		out = append(out, &LogStats{File: file, Log: l.IRI, Stats: c.Stats(), Events: c.Timeline()})
	}
	var errs []error
	for _, p := range problems {
		errs = append(errs, &GraphError{File: file, Node: p.Node, Msg: p.Message})
	}
	return out, errors.Join(errs...)
}

// record turns a message read back from a graph into the record a log
// reader would have read.
func record(m convert.WireMessage) *convert.Record {
	rec := &convert.Record{Line: int(m.Position), Raw: m.JSON, Dir: m.Dir, TS: m.TS}
	d := json.NewDecoder(bytes.NewReader(m.JSON))
	d.UseNumber()
	if err := d.Decode(&rec.Value); err != nil {
		rec.Value = nil
		rec.Err = &convert.ReadError{Line: rec.Line, Code: jsonrpc.CodeParseError, Msg: err.Error()}
	}
	return rec
}
