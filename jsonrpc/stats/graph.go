package stats

import (
	"errors"
	"fmt"
	"io"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// A GraphDecoder reads back the messages of a graph jrpcld wrote, each as
// the record a log reader would have read for it; *wire.Decoder is one.
// Stats takes the messages through it so that it needs no package that
// maps graphs, only the records of package rpclog.
type GraphDecoder interface {
	// EachRecord reads the logs in the RDF text of r, in format f, and
	// calls emit with each message: the logs one after another in the
	// order they first appear, each in log order, rec.Line the message's
	// jlog:position. When the graph must be read whole, whole is first
	// told why, and the messages emitted until then are emitted again.
	// size is the size of the input when known, 0 otherwise. The problems
	// returned are the nodes that do not read back as messages, without
	// their File; RDF that does not parse is a *diag.Diagnostic error.
	EachRecord(r io.Reader, f rdf.Format, size int64, whole func(reason string) error, emit func(log string, rec *rpclog.Record) error) ([]diag.Diagnostic, error)
}

// GraphOptions say how ReadGraph reads a graph.
type GraphOptions struct {
	// NewCollector is called once per log, with the log's IRI.
	NewCollector func(logIRI string) *Collector
	// Whole, when not nil, is told why the graph must be read whole, before
	// it is (see GraphDecoder).
	Whole func(reason string)
	// Size is the size of the input when known, 0 otherwise.
	Size int64
}

// ReadGraph reads a graph jrpcld wrote, in format f, and computes the Stats
// of each log in it, in the order the logs first appear. rv (a
// *wire.Decoder made with the context of the block the graph was made
// with) rebuilds each message as it was sent, with its direction and
// timestamp; the messages are counted as in a message log, in the order of
// jlog:position.
//
// A graph laid out as jrpcld writes logs is read as a stream, in memory
// that does not grow with its size; any other is read whole, after
// opts.Whole is told why.
//
// A graph that does not parse gives a *diag.Diagnostic and no Stats. Nodes
// that do not read back as messages give a *diag.Diagnostic each, joined
// with errors.Join, and the Stats of the messages that do.
func ReadGraph(r io.Reader, file string, f rdf.Format, rv GraphDecoder, opts GraphOptions) ([]*LogStats, error) {
	var order []string
	collectors := map[string]*Collector{}
	whole := func(reason string) error {
		order, collectors = nil, map[string]*Collector{}
		if opts.Whole != nil {
			opts.Whole(reason)
		}
		return nil
	}
	problems, err := rv.EachRecord(r, f, opts.Size, whole, func(log string, rec *rpclog.Record) error {
		c := collectors[log]
		if c == nil {
			c = opts.NewCollector(log)
			collectors[log] = c
			order = append(order, log)
		}
		c.addAt(rec, rec.Line)
		return nil
	})
	var se *diag.Diagnostic
	if errors.As(err, &se) {
		se.File = file
		return nil, se
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []*LogStats
	for _, log := range order {
		c := collectors[log]
		out = append(out, NewLogStats(file, log, c))
	}
	var errs []error
	for _, p := range problems {
		p.File = file
		errs = append(errs, &p)
	}
	return out, errors.Join(errs...)
}
