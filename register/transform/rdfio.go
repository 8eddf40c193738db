package transform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
	"github.com/jrpcld/jrpcld/rdf/rdfxml"
)

// A graph read from a snippet, with the prefixes that abbreviate it.
type graph struct {
	triples  []rdf.Triple
	prefixes map[string]string
}

// readGraph reads a snippet that holds RDF: Turtle (with the example's
// prefixes declared first when withPrefixes, as the tool chain's SPARQL and
// SHACL-AF transforms do), RDF/XML or JSON-LD (whose contexts must be in
// the document: none is fetched).
func readGraph(in Input, withPrefixes bool) (graph, error) {
	switch in.MediaType {
	case "text/turtle":
		data := in.Data
		if withPrefixes && len(in.Prefixes) > 0 {
			var b strings.Builder
			for _, k := range sortedKeys(in.Prefixes) {
				fmt.Fprintf(&b, "@prefix %s: <%s> .\n", k, in.Prefixes[k])
			}
			data = append([]byte(b.String()), in.Data...)
		}
		quads, prefixes, err := rdf.Parse(data, rdf.Turtle, "")
		if err != nil {
			return graph{}, fmt.Errorf("input is not Turtle: %w", err)
		}
		return graph{triples: tripleList(quads), prefixes: prefixes}, nil
	case "application/rdf+xml":
		ts, prefixes, err := rdfxml.Parse(in.Data, "")
		if err != nil {
			return graph{}, fmt.Errorf("input is not RDF/XML: %w", err)
		}
		return graph{triples: ts, prefixes: prefixes}, nil
	case "application/ld+json":
		data, err := inlineContexts(in.Data, in.Contexts)
		if err != nil {
			return graph{}, err
		}
		quads, err := jsonld.Read(data)
		if err != nil {
			return graph{}, fmt.Errorf("input is not JSON-LD: %w", err)
		}
		return graph{triples: tripleList(quads)}, nil
	}
	return graph{}, fmt.Errorf("cannot read %s as RDF", in.MediaType)
}

func tripleList(quads []rdf.Quad) []rdf.Triple {
	ts := make([]rdf.Triple, len(quads))
	for i, q := range quads {
		ts[i] = q.Triple
	}
	return ts
}

// writeGraph writes a graph in the target media type: Turtle or JSON-LD
// (expanded, as rdflib writes a graph without a context). jrpcld does not
// write RDF/XML.
func writeGraph(g graph, target string) ([]byte, error) {
	var buf bytes.Buffer
	prefixes := make([]rdf.Prefix, 0, len(g.prefixes))
	for _, k := range sortedKeys(g.prefixes) {
		if rdf.CheckIRI(g.prefixes[k]) == nil {
			prefixes = append(prefixes, rdf.Prefix{Name: k, IRI: g.prefixes[k]})
		}
	}
	switch target {
	case "text/turtle":
		if len(g.triples) == 0 {
			return []byte("\n"), nil // as rdflib writes an empty graph
		}
		w := rdf.NewTurtleWriter(&buf, prefixes)
		if err := w.WriteGroup(g.triples); err != nil {
			return nil, fmt.Errorf("writing Turtle: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("writing Turtle: %w", err)
		}
	case "application/ld+json":
		w, err := jsonld.NewWriter(&buf, nil, nil, true)
		if err != nil {
			return nil, err
		}
		if err := w.WriteGroup(g.triples); err != nil {
			return nil, fmt.Errorf("writing JSON-LD: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("writing JSON-LD: %w", err)
		}
	default:
		return nil, fmt.Errorf("jrpcld writes graphs as Turtle or JSON-LD, not %s: declare text/turtle or application/ld+json as the transform's first output", target)
	}
	return buf.Bytes(), nil
}

// inlineContexts replaces, in a JSON-LD document, the context references
// that contexts holds (the whole "@context" value, or entries of its list)
// by their values; data comes back as it was when there is none.
func inlineContexts(data []byte, contexts map[string]any) ([]byte, error) {
	if len(contexts) == 0 {
		return data, nil
	}
	doc, err := decodeJSON(data, "input")
	if err != nil {
		return nil, fmt.Errorf("input is not JSON-LD: %w", err)
	}
	if !replaceContexts(doc, contexts) {
		return data, nil
	}
	return json.Marshal(doc)
}

// replaceContexts replaces the known context references of the top-level
// "@context" of a decoded document (or of each object of a top-level
// list) and reports whether it replaced one.
func replaceContexts(doc any, contexts map[string]any) bool {
	switch x := doc.(type) {
	case []any:
		done := false
		for _, e := range x {
			done = replaceContexts(e, contexts) || done
		}
		return done
	case map[string]any:
		switch c := x["@context"].(type) {
		case string:
			if v, ok := contexts[c]; ok {
				x["@context"] = v
				return true
			}
		case []any:
			done := false
			for i, e := range c {
				if s, ok := e.(string); ok {
					if v, ok := contexts[s]; ok {
						c[i] = v
						done = true
					}
				}
			}
			return done
		}
	}
	return false
}
