package jsonld

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
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
			v = s.compact(n)
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

// compact returns the compacted form of the node object n. The values of
// @json literals are held out of json-gold's compaction, which would change
// them (an array of one element becomes the element, a member named
// "jrpc:x" is read as an IRI and can fail). A node the context cannot
// express, such as one with the IRI jrpc:x while jrpc is a prefix (it
// would read back as another IRI), is written in expanded form with
// "@context": null, which reads back exactly.
func (s *Writer) compact(n map[string]any) any {
	held := holdJSON(n)
	c, err := ld.NewJsonLdApi().Compact(s.active, "", n, true)
	for _, h := range held {
		h.obj["@value"] = h.value
	}
	if err != nil {
		n["@context"] = nil
		return n
	}
	if len(held) > 0 {
		byMark := make(map[string]any, len(held))
		for _, h := range held {
			byMark[h.mark] = h.value
		}
		c = putBack(c, byMark)
	}
	return c
}

// heldJSON is the value of a @json literal, replaced by mark while its
// node object is compacted.
type heldJSON struct {
	obj   map[string]any // the value object
	value any
	mark  string
}

// holdJSON replaces the value of each @json literal of n by a mark, a
// string that no other string of n holds.
func holdJSON(n map[string]any) []heldJSON {
	var held []heldJSON
	for _, vals := range n {
		vs, _ := vals.([]any)
		for _, v := range vs {
			if vo, ok := v.(map[string]any); ok && vo["@type"] == "@json" {
				held = append(held, heldJSON{obj: vo, value: vo["@value"]})
			}
		}
	}
	if len(held) == 0 {
		return nil
	}
	prefix := "\x00json"
	for containsString(n, prefix, held) {
		prefix += "\x00"
	}
	for i := range held {
		held[i].mark = prefix + strconv.Itoa(i)
		held[i].obj["@value"] = held[i].mark
	}
	return held
}

// containsString reports whether a string of the node object n other than
// the held @json values (its @id, its types, its literals) holds sub.
func containsString(n map[string]any, sub string, held []heldJSON) bool {
	for _, vals := range n {
		switch vs := vals.(type) {
		case string:
			if strings.Contains(vs, sub) {
				return true
			}
		case []any:
			for _, v := range vs {
				switch x := v.(type) {
				case string:
					if strings.Contains(x, sub) {
						return true
					}
				case map[string]any:
					if x["@type"] == "@json" {
						continue
					}
					for _, e := range x {
						if str, ok := e.(string); ok && strings.Contains(str, sub) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// putBack returns v with each mark replaced by the value it holds the
// place of.
func putBack(v any, byMark map[string]any) any {
	switch x := v.(type) {
	case string:
		if orig, ok := byMark[x]; ok {
			return orig
		}
	case map[string]any:
		for k, e := range x {
			x[k] = putBack(e, byMark)
		}
	case []any:
		for i, e := range x {
			x[i] = putBack(e, byMark)
		}
	}
	return v
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
		if o.Escaped {
			return nil, fmt.Errorf("literal %.80q: its lexical form is escaped for N-Triples and Turtle", o.Value)
		}
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
