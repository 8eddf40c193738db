package transform

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
)

// rdflibPrefixes are the prefixes every rdflib graph binds (rdflib 6.3,
// which the tool chain pins: its "core" and "rdflib" namespaces), and so
// the prefixes a SPARQL step or transform may use without declaring them:
// rdflib runs a query or update on a graph with the graph's prefixes in
// scope.
var rdflibPrefixes = map[string]string{
	"owl":      "http://www.w3.org/2002/07/owl#",
	"rdf":      "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
	"rdfs":     "http://www.w3.org/2000/01/rdf-schema#",
	"xsd":      "http://www.w3.org/2001/XMLSchema#",
	"xml":      "http://www.w3.org/XML/1998/namespace",
	"brick":    "https://brickschema.org/schema/Brick#",
	"csvw":     "http://www.w3.org/ns/csvw#",
	"dc":       "http://purl.org/dc/elements/1.1/",
	"dcat":     "http://www.w3.org/ns/dcat#",
	"dcmitype": "http://purl.org/dc/dcmitype/",
	"dcterms":  "http://purl.org/dc/terms/",
	"dcam":     "http://purl.org/dc/dcam/",
	"doap":     "http://usefulinc.com/ns/doap#",
	"foaf":     "http://xmlns.com/foaf/0.1/",
	"geo":      "http://www.opengis.net/ont/geosparql#",
	"odrl":     "http://www.w3.org/ns/odrl/2/",
	"org":      "http://www.w3.org/ns/org#",
	"prof":     "http://www.w3.org/ns/dx/prof/",
	"prov":     "http://www.w3.org/ns/prov#",
	"qb":       "http://purl.org/linked-data/cube#",
	"schema":   "https://schema.org/",
	"sh":       "http://www.w3.org/ns/shacl#",
	"skos":     "http://www.w3.org/2004/02/skos/core#",
	"sosa":     "http://www.w3.org/ns/sosa/",
	"ssn":      "http://www.w3.org/ns/ssn/",
	"time":     "http://www.w3.org/2006/time#",
	"vann":     "http://purl.org/vocab/vann/",
	"void":     "http://rdfs.org/ns/void#",
}

// inScope returns the prefixes a SPARQL step or transform sees on a graph
// read with prefixes: rdflib's, then the graph's own, which override them.
func inScope(prefixes map[string]string) map[string]string {
	out := maps.Clone(rdflibPrefixes)
	maps.Copy(out, prefixes)
	return out
}

// runSPARQL runs a sparql-update or sparql-construct step or transform on
// a graph, as the tool chain runs it with rdflib: an update changes the
// graph (its default graph; no base IRI, relative IRIs stay relative), a
// CONSTRUCT query gives the graph it builds. It returns the graph after.
// Any other form of query is an error, as in the tool chain.
func runSPARQL(ctx context.Context, typ, code string, ts []rdf.Triple, prefixes map[string]string) ([]rdf.Triple, error) {
	scope := inScope(prefixes)
	ds := sparql.NewDataset()
	quads := make([]rdf.Quad, len(ts))
	for i, t := range ts {
		quads[i] = rdf.Quad{Triple: t}
	}
	if err := ds.Add(quads...); err != nil {
		return nil, fmt.Errorf("the graph it runs on: %w", err)
	}
	opts := sparql.Options{Timeout: runLimit}
	switch typ {
	case TypeSPARQLUpdate:
		u, err := sparql.ParseUpdatePrefixed(code, "", scope)
		if err != nil {
			return nil, fmt.Errorf("the SPARQL update does not parse: %w", err)
		}
		if err := ds.Update(ctx, u, opts); err != nil {
			return nil, fmt.Errorf("the SPARQL update: %w", err)
		}
		var out []rdf.Triple
		for q := range ds.Quads() {
			if q.InDefaultGraph() {
				out = append(out, q.Triple)
			}
		}
		return relabel(out), nil
	case TypeSPARQLConstruct:
		q, err := sparql.ParseQueryPrefixed(code, "", scope)
		if err != nil {
			return nil, fmt.Errorf("the SPARQL query does not parse: %w", err)
		}
		if q.Form != sparql.Construct {
			return nil, errors.New("the SPARQL query is not a CONSTRUCT query")
		}
		res, err := ds.Query(ctx, q, opts)
		if err != nil {
			return nil, fmt.Errorf("the SPARQL query: %w", err)
		}
		return relabel(res.Graph), nil
	}
	return nil, fmt.Errorf("%s is not a SPARQL type", typ)
}

// relabel gives the blank nodes of a graph the engine made labels a
// writer takes (the engine's own may not be), the same node the same
// label: b0, b1, ...
func relabel(ts []rdf.Triple) []rdf.Triple {
	labels := map[string]rdf.Term{}
	node := func(t rdf.Term) rdf.Term {
		if t.Kind != rdf.Blank {
			return t
		}
		if n, ok := labels[t.Value]; ok {
			return n
		}
		n := rdf.NewBlank(fmt.Sprintf("b%d", len(labels)))
		labels[t.Value] = n
		return n
	}
	out := make([]rdf.Triple, len(ts))
	for i, t := range ts {
		out[i] = rdf.Triple{S: node(t.S), P: t.P, O: node(t.O)}
	}
	return out
}

// sparqlTransform runs a sparql-update or sparql-construct transform: the
// snippet's graph (a Turtle snippet with the example's prefixes declared
// first, as the tool chain declares them) changed by the update or
// replaced by what the query builds, written with the snippet's prefixes.
// JSON-LD input fails, as it does in the tool chain.
func sparqlTransform(ctx context.Context, typ, code string, in Input, target string) ([]byte, error) {
	if !slices.Contains(rdfTypes, in.MediaType) {
		// The tool chain's RDF transformer reads Turtle and RDF/XML only.
		return nil, fmt.Errorf("unsupported media type for a %s transform: %s (the tool chain's takes text/turtle or application/rdf+xml)", typ, in.MediaType)
	}
	g, err := readGraph(in, true)
	if err != nil {
		return nil, err
	}
	out, err := runSPARQL(ctx, typ, code, g.triples, g.prefixes)
	if err != nil {
		return nil, err
	}
	return writeGraph(graph{triples: out, prefixes: g.prefixes}, target)
}

// isSPARQL reports whether a step or transform type is a SPARQL one.
func isSPARQL(typ string) bool {
	return slices.Contains([]string{TypeSPARQLUpdate, TypeSPARQLConstruct}, typ)
}
