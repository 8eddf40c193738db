package convert

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/knakk/rdf"
	"github.com/piprate/json-gold/ld"
)

// jsonldSink writes a conversion as one JSON-LD document: in expanded form
// an array of node objects, in compacted form {"@context": ..., "@graph":
// [...]} with the block's context and the prefixes of the output. Each
// message's node objects are made from its triples, so the document reads
// back to the same graph as the Turtle output.
type jsonldSink struct {
	w        *bufio.Writer
	expanded bool
	active   *ld.Context // for compaction
	opts     *ld.JsonLdOptions
	n        int // node objects written
	err      error
}

func newJSONLDSink(w io.Writer, ctx any, prefixes []Prefix, expanded bool) (*jsonldSink, error) {
	s := &jsonldSink{w: bufio.NewWriter(w), expanded: expanded}
	if expanded {
		s.w.WriteString("[")
		return s, nil
	}
	pm := map[string]any{}
	for _, p := range prefixes {
		pm[p.Name] = p.IRI
	}
	full := []any{ctx, pm}
	s.opts = ld.NewJsonLdOptions("")
	s.opts.DocumentLoader = refusingLoader{}
	s.opts.ProcessingMode = ld.JsonLd_1_1
	active, err := ld.NewContext(nil, s.opts).Parse(floatNumbers(full))
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

func (s *jsonldSink) StartLog(string) error { return s.err }
func (s *jsonldSink) EndLog() error         { return s.err }

func (s *jsonldSink) Write(triples []rdf.Triple) error {
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
func (s *jsonldSink) restoreJSON(compacted any, expanded map[string]any) {
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

func (s *jsonldSink) Close() error {
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
		s := termID(t.Subj)
		n, ok := nodes[s]
		if !ok {
			n = map[string]any{"@id": s}
			nodes[s] = n
			order = append(order, s)
		}
		p := t.Pred.(rdf.IRI).String()
		if p == RDFType {
			if o, ok := t.Obj.(rdf.IRI); ok {
				types, _ := n["@type"].([]any)
				n["@type"] = append(types, o.String())
				continue
			}
		}
		v, err := valueObject(t.Obj)
		if err != nil {
			return nil, err
		}
		vals, _ := n[p].([]any)
		n[p] = append(vals, v)
	}
	out := make([]map[string]any, len(order))
	for i, s := range order {
		out[i] = nodes[s]
	}
	return out, nil
}

func termID(t rdf.Term) string {
	if b, ok := t.(rdf.Blank); ok {
		return "_:" + strings.TrimPrefix(b.String(), "_:")
	}
	return t.String()
}

func valueObject(o rdf.Object) (map[string]any, error) {
	switch x := o.(type) {
	case rdf.IRI, rdf.Blank:
		return map[string]any{"@id": termID(x)}, nil
	case rdf.Literal:
		if x.Lang() != "" {
			return map[string]any{"@value": x.String(), "@language": x.Lang()}, nil
		}
		dt := x.DataType.String()
		switch dt {
		case XSDStr:
			return map[string]any{"@value": x.String()}, nil
		case RDFJSON:
			d := json.NewDecoder(strings.NewReader(x.String()))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				return nil, fmt.Errorf("rdf:JSON literal %q: %w", x.String(), err)
			}
			if v == nil {
				// A JSON null is kept as a value object (JSON-LD 1.1, @json).
				return map[string]any{"@value": nil, "@type": "@json"}, nil
			}
			return map[string]any{"@value": v, "@type": "@json"}, nil
		}
		return map[string]any{"@value": x.String(), "@type": dt}, nil
	}
	return nil, fmt.Errorf("unknown RDF term %T", o)
}
