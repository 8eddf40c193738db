package jsonld

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/jrpcld/jrpcld/internal/gold"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/piprate/json-gold/ld"
)

// Writer writes groups of statements as one JSON-LD document: in expanded
// form an array of node objects, in compacted form {"@context": ...,
// "@graph": [...]} with the given context and prefixes. The node objects of
// each group are made from its statements alone, so the document reads back
// to the same graph as the Turtle of the same groups.
type Writer struct {
	w        *bufio.Writer
	expanded bool
	active   *ld.Context // for compaction
	n        int         // node objects written
	err      error
}

// NewWriter returns a Writer to w. context, the value of a block's
// "@context", and prefixes make the context of a compacted document; with
// expanded, both are ignored and the document is written in expanded form.
func NewWriter(w io.Writer, context any, prefixes []rdf.Prefix, expanded bool) (*Writer, error) {
	s := &Writer{w: bufio.NewWriter(w), expanded: expanded}
	if expanded {
		s.w.WriteString("[")
		return s, nil
	}
	pm := map[string]any{}
	for _, p := range prefixes {
		pm[p.Name] = p.IRI
	}
	full := []any{context, pm}
	active, err := ld.NewContext(nil, gold.Options("")).Parse(gold.FloatNumbers(full))
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	active.GetInverse()
	s.active = active
	head, err := json.Marshal(map[string]any{"@context": full})
	if err != nil {
		return nil, err
	}
	s.w.Write(head[:len(head)-1])
	s.w.WriteString(`,"@graph":[`)
	return s, nil
}

// WriteGroup writes the node objects of one group of statements.
func (s *Writer) WriteGroup(triples []rdf.Triple) error {
	if s.err != nil || len(triples) == 0 {
		return s.err
	}
	nodes, err := nodeObjects(triples)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, n := range nodes {
		var v any = n
		if !s.expanded {
			c, err := ld.NewJsonLdApi().Compact(s.active, "", n, true)
			if err != nil {
				return fmt.Errorf("JSON-LD compaction: %w", err)
			}
			s.restoreJSON(c, n)
			v = c
		}
		if s.n > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // the encoder's newline
		s.n++
	}
	_, s.err = s.w.Write(buf.Bytes())
	return s.err
}

// restoreJSON puts back, in a compacted node object, the JSON values of @json
// terms: json-gold's compaction turns a value that is an array of one
// element into that element, changing the value.
func (s *Writer) restoreJSON(compacted any, expanded map[string]any) {
	m, ok := compacted.(map[string]any)
	if !ok {
		return
	}
	for k := range m {
		td := s.active.GetTermDefinition(k)
		if td == nil || td.Type != "@json" {
			continue
		}
		vals, _ := expanded[td.ID].([]any)
		if len(vals) != 1 {
			continue
		}
		if vo, ok := vals[0].(map[string]any); ok {
			m[k] = vo["@value"]
		}
	}
}

// Close ends the document and flushes it; it does not close the underlying
// writer.
func (s *Writer) Close() error {
	if s.err != nil {
		return s.err
	}
	if s.expanded {
		s.w.WriteString("\n]\n")
	} else {
		s.w.WriteString("\n]}\n")
	}
	return s.w.Flush()
}

// nodeObjects turns triples into expanded JSON-LD node objects, one per
// subject in order of first appearance.
func nodeObjects(triples []rdf.Triple) ([]map[string]any, error) {
	var order []string
	nodes := map[string]map[string]any{}
	for _, t := range triples {
		s := nodeID(t.S)
		n, ok := nodes[s]
		if !ok {
			n = map[string]any{"@id": s}
			nodes[s] = n
			order = append(order, s)
		}
		if t.P == rdf.RDFType && t.O.Kind == rdf.IRI {
			types, _ := n["@type"].([]any)
			n["@type"] = append(types, t.O.Value)
			continue
		}
		v, err := valueObject(t.O)
		if err != nil {
			return nil, err
		}
		vals, _ := n[t.P].([]any)
		n[t.P] = append(vals, v)
	}
	out := make([]map[string]any, len(order))
	for i, s := range order {
		out[i] = nodes[s]
	}
	return out, nil
}

// nodeID returns the @id of a node: its IRI, or _:label.
func nodeID(t rdf.Term) string {
	if t.Kind == rdf.Blank {
		return "_:" + t.Value
	}
	return t.Value
}

func valueObject(o rdf.Term) (map[string]any, error) {
	switch o.Kind {
	case rdf.IRI, rdf.Blank:
		return map[string]any{"@id": nodeID(o)}, nil
	case rdf.Literal:
		if o.Lang != "" {
			return map[string]any{"@value": o.Value, "@language": o.Lang}, nil
		}
		switch o.Datatype {
		case rdf.XSDString, "":
			return map[string]any{"@value": o.Value}, nil
		case rdf.RDFJSON:
			d := json.NewDecoder(strings.NewReader(o.Value))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				return nil, fmt.Errorf("rdf:JSON literal %q: %w", o.Value, err)
			}
			if v == nil {
				// A JSON null is kept as a value object (JSON-LD 1.1, @json).
				return map[string]any{"@value": nil, "@type": "@json"}, nil
			}
			return map[string]any{"@value": v, "@type": "@json"}, nil
		}
		return map[string]any{"@value": o.Value, "@type": o.Datatype}, nil
	}
	return nil, fmt.Errorf("term of unknown kind %d", o.Kind)
}
