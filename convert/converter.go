package convert

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
)

// Converter turns message logs into RDF with one block's context.
type Converter struct {
	ctx *ldctx.Processed

	// Engine maps the messages: EngineCompiled (the default) or
	// EngineJSONGold.
	Engine Engine
	// Strict stops a conversion at the first message it cannot convert,
	// instead of reporting and skipping it.
	Strict bool
	// Report, when set, receives what a conversion tells about the
	// messages, in log order: a warning about data the mapping cannot carry
	// or changes it makes (with a pointer into the message), or an error
	// for a message, or part of one, left out of the output (its message
	// starts with "skipped: ").
	Report func(diag.Diagnostic)
	// Progress, when set, is called after each message with the bytes of
	// the current log read so far.
	Progress func(bytesRead int64)

	untyped bool // read no record typed (for tests: the map path only)
}

// NewConverter returns a Converter that maps messages with ctx.
func NewConverter(ctx *ldctx.Processed) *Converter {
	return &Converter{ctx: ctx}
}

// Log is one input of a conversion.
type Log struct {
	Reader *rpclog.Reader
	File   string // for messages
	IRI    string // the log's IRI; see rpclog.DefaultIRI
	// Findings are the rules broken by the log's messages that a check
	// across them found (package mcp/rules), by the position of the
	// message in the log, from 1; see LogGraph.SetFindings. Nil for none:
	// the graph is then as without checks.
	Findings map[int][]diag.Diagnostic
}

// Convert writes the RDF of logs to w in format f, log after log. Messages
// that cannot be converted are reported and skipped (or stop the run with
// an error wrapping ErrStrict). Whatever was written before an error is
// complete: no statement is ever cut in half.
func (c *Converter) Convert(w io.Writer, f rdf.Format, logs []Log) error {
	prefixes := slices.Clone(c.ctx.Prefixes())
	if hasFindings(logs) && !slices.ContainsFunc(prefixes, func(p rdf.Prefix) bool { return p.Name == "sh" }) {
		// The findings' severities are SHACL's.
		prefixes = append(prefixes, rdf.Prefix{Name: "sh", IRI: shNS})
	}
	for i, l := range logs {
		if rdf.CheckIRI(l.IRI) != nil {
			return fmt.Errorf("%s: log IRI %q is not an absolute IRI", l.File, l.IRI)
		}
		name := "log"
		if len(logs) > 1 {
			name += strconv.Itoa(i + 1)
		}
		prefixes = append(prefixes, rdf.Prefix{Name: name, IRI: l.IRI + "#"})
	}
	out, err := c.newSink(w, f, prefixes)
	if err != nil {
		return err
	}
	for _, l := range logs {
		if err := c.convertLog(out, l); err != nil {
			out.Close()
			return err
		}
	}
	return out.Close()
}

// shNS is SHACL's namespace, whose severities findings take.
const shNS = "http://www.w3.org/ns/shacl#"

// hasFindings reports whether a log of logs has findings to write.
func hasFindings(logs []Log) bool {
	for _, l := range logs {
		for _, fs := range l.Findings {
			if len(fs) > 0 {
				return true
			}
		}
	}
	return false
}

func (c *Converter) report(d diag.Diagnostic) {
	if c.Report != nil {
		c.Report(d)
	}
}

func (c *Converter) convertLog(out sink, l Log) error {
	g, err := c.NewLogGraph(l.IRI)
	if err != nil {
		return err
	}
	g.SetFindings(l.Findings)
	if err := out.StartLog(l.IRI); err != nil {
		return err
	}
	if err := c.convertRecords(out, l, g); err != nil {
		return err
	}
	if err := out.Write(g.Close()); err != nil {
		return err
	}
	return out.EndLog()
}

// NewLogGraph returns the LogGraph Convert turns the log with the given IRI
// into a graph with: its messages mapped with c's context and engine,
// relative ids read against the log's IRI.
func (c *Converter) NewLogGraph(logIRI string) (*LogGraph, error) {
	m, err := NewMapping(c.ctx, docBase(logIRI))
	if err != nil {
		return nil, err
	}
	m.Engine = c.Engine
	return NewLogGraph(logIRI, m), nil
}

// docBase is the base IRI a log's messages are read against: the log IRI
// as a folder, so that a relative id "a" becomes LOG/a and the ids of
// different logs stay apart.
func docBase(logIRI string) string {
	if strings.HasSuffix(logIRI, "/") {
		return logIRI
	}
	return logIRI + "/"
}

// sink is where a conversion writes the triples of each message.
type sink interface {
	StartLog(iri string) error
	Write(triples []rdf.Triple) error
	EndLog() error
	Close() error
}

func (c *Converter) newSink(w io.Writer, f rdf.Format, prefixes []rdf.Prefix) (sink, error) {
	switch f {
	case rdf.Turtle:
		return &groupSink{w: rdf.NewTurtleWriter(w, prefixes)}, nil
	case rdf.NTriples:
		return &groupSink{w: rdf.NewNTriplesWriter(w)}, nil
	case rdf.NQuads:
		return &quadSink{w: rdf.NewNQuadsWriter(w)}, nil
	case rdf.JSONLD, rdf.JSONLDExpanded:
		jw, err := jsonld.NewWriter(w, c.ctx.Value(), prefixes, f == rdf.JSONLDExpanded)
		if err != nil {
			return nil, err
		}
		return &jsonldSink{jw}, nil
	}
	return nil, fmt.Errorf("cannot write RDF as %v", f)
}

// groupWriter is a writer of Turtle or N-Triples.
type groupWriter interface {
	WriteGroup([]rdf.Triple) error
	Formatter() rdf.Formatter
	WriteFormatted([]byte) error
	Close() error
}

type groupSink struct{ w groupWriter }

func (s *groupSink) StartLog(string) error { return nil }
func (s *groupSink) EndLog() error         { return nil }
func (s *groupSink) Close() error          { return s.w.Close() }
func (s *groupSink) Write(t []rdf.Triple) error {
	if len(t) == 0 {
		return nil
	}
	return s.w.WriteGroup(t)
}

type quadSink struct {
	w     *rdf.NQuadsWriter
	graph rdf.Term
}

func (s *quadSink) StartLog(g string) error {
	s.graph = rdf.NewIRI(g)
	return nil
}
func (s *quadSink) EndLog() error { return nil }
func (s *quadSink) Close() error  { return s.w.Close() }
func (s *quadSink) Write(t []rdf.Triple) error {
	if len(t) == 0 {
		return nil
	}
	return s.w.WriteGroup(s.graph, t)
}

type jsonldSink struct{ w *jsonld.Writer }

func (s *jsonldSink) StartLog(string) error      { return nil }
func (s *jsonldSink) EndLog() error              { return nil }
func (s *jsonldSink) Close() error               { return s.w.Close() }
func (s *jsonldSink) Write(t []rdf.Triple) error { return s.w.WriteGroup(t) }
