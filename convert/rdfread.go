package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/turtle"
	"github.com/piprate/json-gold/ld"
)

// Dataset is RDF read by ReadRDF: its statements, each in its graph.
type Dataset struct {
	quads []turtle.Quad
}

// SyntaxError is RDF that does not parse: where (1-based line and column,
// in characters; 0 when unknown) and what is wrong.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

// Error returns "line:col: message", or the message alone when the place
// is unknown.
func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// ReadRDF reads an RDF document in format f: Turtle, N-Triples, N-Quads,
// or JSON-LD (compacted or expanded; read with json-gold, which fetches
// nothing). A document that does not parse gives a *SyntaxError.
func ReadRDF(data []byte, f Format) (*Dataset, error) {
	switch f {
	case Turtle, NTriples, NQuads:
		syntax := map[Format]turtle.Syntax{Turtle: turtle.Turtle, NTriples: turtle.NTriples, NQuads: turtle.NQuads}[f]
		var qs []turtle.Quad
		var err error
		if f == Turtle || len(data) < parallelParse || workers() == 1 {
			qs, _, err = turtle.Parse(data, syntax, "")
		} else {
			qs, err = parseLines(data, syntax)
		}
		if err != nil {
			var se *turtle.SyntaxError
			if errors.As(err, &se) {
				return nil, &SyntaxError{Line: se.Line, Col: se.Col, Msg: se.Msg}
			}
			return nil, err
		}
		return &Dataset{quads: qs}, nil
	case JSONLD, JSONLDExpanded:
		return readJSONLD(data)
	}
	return nil, fmt.Errorf("cannot read RDF format %v", f)
}

// parallelParse is the size from which N-Triples and N-Quads are parsed in
// pieces on every core.
const parallelParse = 1 << 20

// parseLines parses N-Triples or N-Quads in pieces, one per worker, cut at
// line ends: a statement never spans lines, and blank node labels are the
// document's whatever the piece. A syntax error is the first in the
// document, its line counted from the document's start.
func parseLines(data []byte, syntax turtle.Syntax) ([]turtle.Quad, error) {
	n := workers() * 4
	type piece struct {
		data  []byte
		line  int // lines before the piece
		quads []turtle.Quad
		err   error
	}
	var pieces []piece
	line := 0
	for start := 0; start < len(data); {
		end := min(start+len(data)/n+1, len(data))
		if i := bytes.IndexByte(data[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(data)
		}
		pieces = append(pieces, piece{data: data[start:end], line: line})
		line += bytes.Count(data[start:end], []byte{'\n'})
		start = end
	}
	var wg sync.WaitGroup
	for i := range pieces {
		wg.Add(1)
		go func(p *piece) {
			defer wg.Done()
			p.quads, _, p.err = turtle.Parse(p.data, syntax, "")
		}(&pieces[i])
	}
	wg.Wait()
	total := 0
	for _, p := range pieces {
		if p.err != nil {
			var se *turtle.SyntaxError
			if errors.As(p.err, &se) {
				e := *se
				e.Line += p.line
				return nil, &e
			}
			return nil, p.err
		}
		total += len(p.quads)
	}
	qs := make([]turtle.Quad, 0, total)
	for _, p := range pieces {
		qs = append(qs, p.quads...)
	}
	return qs, nil
}

// readJSONLD reads JSON-LD: json-gold expands it (with a document loader
// that loads nothing), @json values become rdf:JSON literals in RFC 8785
// canonical form as on the way out, and json-gold turns the rest into
// statements.
func readJSONLD(data []byte) (*Dataset, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, jsonLDSyntaxError(data, err)
	}
	if _, err := d.Token(); err == nil {
		off := int(d.InputOffset())
		for off > 0 && !isSpace(data[off-1]) {
			off-- // back to the start of the second value's first token
		}
		line, col := lineCol(data, off)
		return nil, &SyntaxError{Line: line, Col: col, Msg: "JSON-LD: more than one JSON value"}
	}
	if m, ok := doc.(map[string]any); ok && m["@context"] != nil {
		m["@context"] = floatNumbers(m["@context"])
	}
	opts := ld.NewJsonLdOptions("")
	opts.DocumentLoader = refusingLoader{}
	opts.ProcessingMode = ld.JsonLd_1_1
	var quads []turtle.Quad
	err := func() (err error) {
		defer func() {
			if e := recover(); e != nil {
				err = fmt.Errorf("JSON-LD processor failed: %v", e)
			}
		}()
		api := ld.NewJsonLdApi()
		expanded, err := ld.NewJsonLdProcessor().Expand(doc, opts)
		if err != nil {
			return fmt.Errorf("JSON-LD expansion: %w", err)
		}
		if _, err := canonicalJSONValues(expanded, ""); err != nil {
			return err
		}
		ds, err := api.ToRDF(expanded, opts)
		if err != nil {
			return fmt.Errorf("JSON-LD to RDF: %w", err)
		}
		names := make([]string, 0, len(ds.Graphs))
		for name := range ds.Graphs {
			if name != "@default" {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for _, name := range append([]string{"@default"}, names...) {
			for _, q := range ds.Graphs[name] {
				tq, err := quadOf(q, name)
				if err != nil {
					return err
				}
				quads = append(quads, tq)
			}
		}
		return nil
	}()
	if err != nil {
		return nil, &SyntaxError{Msg: err.Error()}
	}
	// JSON-LD has no order of statements: json-gold's depends on its maps.
	// Statements ordered by subject IRI make the order of logs (that of
	// their first message) the same on every run.
	sort.SliceStable(quads, func(i, j int) bool {
		a, b := quads[i].S, quads[j].S
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Value < b.Value
	})
	return &Dataset{quads: quads}, nil
}

// quadOf turns one of json-gold's statements into the reader's terms.
func quadOf(q *ld.Quad, graph string) (turtle.Quad, error) {
	var out turtle.Quad
	var err error
	if out.S, err = ldTerm(q.Subject); err != nil {
		return out, err
	}
	p, err := ldTerm(q.Predicate)
	if err != nil {
		return out, err
	}
	out.P = p.Value
	if out.O, err = ldTerm(q.Object); err != nil {
		return out, err
	}
	if graph != "@default" {
		out.G = turtle.Term{Kind: turtle.IRI, Value: graph}
		if strings.HasPrefix(graph, "_:") {
			out.G = turtle.Term{Kind: turtle.Blank, Value: graph[2:]}
		}
	}
	return out, nil
}

func ldTerm(n ld.Node) (turtle.Term, error) {
	switch x := n.(type) {
	case ld.IRI:
		return turtle.Term{Kind: turtle.IRI, Value: x.Value}, nil
	case ld.BlankNode:
		return turtle.Term{Kind: turtle.Blank, Value: strings.TrimPrefix(x.Attribute, "_:")}, nil
	case ld.Literal:
		t := turtle.Term{Kind: turtle.Literal, Value: x.Value, Datatype: x.Datatype, Lang: x.Language}
		switch {
		case x.Language != "":
			t.Datatype = RDFNS + "langString"
		case x.Datatype == "":
			t.Datatype = XSDStr
		case x.Datatype == jsonMarker:
			t.Datatype = RDFJSON
		}
		return t, nil
	}
	return turtle.Term{}, fmt.Errorf("unknown RDF term %T", n)
}

// jsonLDSyntaxError places a JSON decoding error.
func jsonLDSyntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, int(se.Offset)-1) // Offset counts the offending byte
		return &SyntaxError{Line: line, Col: col, Msg: "JSON-LD: " + se.Error()}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		line, col := lineCol(data, int(te.Offset))
		return &SyntaxError{Line: line, Col: col, Msg: "JSON-LD: " + te.Error()}
	}
	line, col := lineCol(data, len(data))
	return &SyntaxError{Line: line, Col: col, Msg: "JSON-LD: " + err.Error()}
}

// lineCol returns the 1-based line and column (in characters) of byte
// offset off in data.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return 1 + bytes.Count(data[:start], []byte("\n")), 1 + utf8.RuneCount(data[start:off])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
