package transform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/internal/pyjson"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
	"github.com/piprate/json-gold/ld"
)

// frame runs a jsonld-frame transform: the snippet (JSON-LD, or a graph in
// Turtle or RDF/XML) framed with the transform's frame by json-gold, with
// the options the tool chain's JSON-LD processor (pyld) defaults to, and no
// context fetched. For a JSON target, the framed nodes alone: the @graph
// list, or the one node without its @context.
func frame(code string, in Input, target string) ([]byte, error) {
	fr, err := decodeJSON([]byte(code), "the frame")
	if err != nil {
		return nil, err
	}
	var doc any
	if in.MediaType == "application/ld+json" {
		if doc, err = decodeJSON(in.Data, "input"); err != nil {
			return nil, err
		}
		replaceContexts(doc, in.Contexts)
	} else {
		g, err := readGraph(in, false)
		if err != nil {
			return nil, err
		}
		if doc, err = expandedOf(g.triples); err != nil {
			return nil, err
		}
	}
	opts := gold.Options("")
	opts.Embed = ld.EmbedOnce
	opts.Explicit = false
	opts.OmitDefault = false
	opts.RequireAll = false
	var framed map[string]any
	err = func() (err error) {
		defer func() {
			if e := recover(); e != nil {
				err = fmt.Errorf("JSON-LD processor failed: %v", e)
			}
		}()
		framed, err = ld.NewJsonLdProcessor().Frame(gold.FloatNumbers(doc), gold.FloatNumbers(fr), opts)
		return err
	}()
	if err != nil {
		return nil, fmt.Errorf("JSON-LD framing: %w", err)
	}
	if deeper(framed, limits.Depth) {
		// Each node is embedded in the one that refers to it: a chain of
		// nodes is as deep as it is long.
		return nil, fmt.Errorf("the framed document is nested more than %d deep", limits.Depth)
	}
	var out any = framed
	if target == "application/json" {
		if g, ok := framed["@graph"]; ok {
			out = g
		} else {
			delete(framed, "@context")
		}
	}
	return pyjson.Indent(wholeNumbers(out))
}

// expandedOf returns a graph as an expanded JSON-LD document, literals as
// typed strings, as rdflib hands a graph to the JSON-LD processor.
func expandedOf(ts []rdf.Triple) (any, error) {
	var nq bytes.Buffer
	w := rdf.NewNTriplesWriter(&nq)
	if err := w.WriteGroup(ts); err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	opts := gold.Options("")
	opts.Format = "application/n-quads"
	opts.UseNativeTypes = false
	doc, err := ld.NewJsonLdProcessor().FromRDF(nq.String(), opts)
	if err != nil {
		return nil, fmt.Errorf("graph to JSON-LD: %w", err)
	}
	return doc, nil
}

// wholeNumbers turns the float64 values json-gold hands back that hold
// whole numbers into json.Number integers, as the tool chain, which keeps
// JSON integers as integers, writes them.
func wholeNumbers(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return json.Number(fmt.Sprintf("%d", int64(x)))
		}
	case map[string]any:
		for k, e := range x {
			x[k] = wholeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = wholeNumbers(e)
		}
	}
	return v
}
