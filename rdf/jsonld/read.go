package jsonld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
	"github.com/piprate/json-gold/ld"
)

// Read reads one JSON-LD document: json-gold expands it, @json values
// become rdf:JSON literals in RFC 8785 canonical form, as on the way out,
// and json-gold turns the rest into statements. JSON-LD has no order of
// statements; Read orders them by subject, so that the same document gives
// the same order on every run. A document that is not one JSON value (or
// not UTF-8, which encoding/json would read with U+FFFD in place of the
// bytes), or that json-gold refuses, gives a *diag.Diagnostic (with its
// line and column where the JSON is broken).
func Read(data []byte) ([]rdf.Quad, error) {
	if off := jsonparse.InvalidUTF8(data); off >= 0 {
		line, col := lineCol(data, off)
		return nil, &diag.Diagnostic{Line: line, Column: col, Message: fmt.Sprintf("JSON-LD: invalid UTF-8 byte %#02x: JSON text must be UTF-8", data[off])}
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, syntaxError(data, err)
	}
	if _, err := d.Token(); err == nil {
		off := int(d.InputOffset())
		for off > 0 && !isSpace(data[off-1]) {
			off-- // back to the start of the second value's first token
		}
		line, col := lineCol(data, off)
		return nil, &diag.Diagnostic{Line: line, Column: col, Message: "JSON-LD: more than one JSON value"}
	}
	if m, ok := doc.(map[string]any); ok && m["@context"] != nil {
		m["@context"] = gold.FloatNumbers(m["@context"])
	}
	opts := gold.Options("")
	var quads []rdf.Quad
	err := func() (err error) {
		defer func() {
			if e := recover(); e != nil {
				err = fmt.Errorf("JSON-LD processor failed: %v", e)
			}
		}()
		expanded, err := ld.NewJsonLdProcessor().Expand(doc, opts)
		if err != nil {
			return fmt.Errorf("JSON-LD expansion: %w", err)
		}
		if _, err := gold.CanonicalJSONValues(expanded); err != nil {
			return err
		}
		ds, err := ld.NewJsonLdApi().ToRDF(expanded, opts)
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
			var g rdf.Term
			switch {
			case name == "@default":
			case strings.HasPrefix(name, "_:"):
				g = rdf.NewBlank(name[2:])
			default:
				g = rdf.NewIRI(name)
			}
			for _, q := range ds.Graphs[name] {
				t, err := gold.Triple(q, "")
				if err != nil {
					return err
				}
				quads = append(quads, rdf.Quad{Triple: t, G: g})
			}
		}
		return nil
	}()
	if err != nil {
		return nil, &diag.Diagnostic{Message: err.Error()}
	}
	sort.SliceStable(quads, func(i, j int) bool {
		a, b := quads[i].S, quads[j].S
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Value < b.Value
	})
	return quads, nil
}

// maxDepth is encoding/json's bound on nesting, which Read keeps.
const maxDepth = 10000

// syntaxError places a JSON decoding error.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, int(se.Offset)-1) // Offset counts the offending byte
		msg := se.Error()
		if strings.HasSuffix(msg, "exceeded max depth") {
			// encoding/json's bound, which a graph jrpcld wrote from a log
			// read with --max-depth up to it may need.
			msg = fmt.Sprintf("nested more than %d deep", maxDepth)
		}
		return &diag.Diagnostic{Line: line, Column: col, Message: "JSON-LD: " + msg}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		line, col := lineCol(data, int(te.Offset))
		return &diag.Diagnostic{Line: line, Column: col, Message: "JSON-LD: " + te.Error()}
	}
	line, col := lineCol(data, len(data))
	return &diag.Diagnostic{Line: line, Column: col, Message: "JSON-LD: " + err.Error()}
}

// lineCol returns the 1-based line and column (in characters) of byte
// offset off in data.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return 1 + bytes.Count(data[:start], []byte("\n")), 1 + utf8.RuneCount(data[start:off])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
