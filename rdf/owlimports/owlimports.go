// Package owlimports follows the owl:imports of a graph to local files, and
// only to them: jrpcld reads nothing from the network, so an ontology or a
// shapes graph that imports another by its URL gets it only when the user
// maps that URL to a file (jrpcld shacl --map URL=FILE), as pySHACL's
// --imports would fetch it. An import nobody mapped is returned, for the
// caller to say it was not followed.
package owlimports

import (
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// Imports is the predicate followed.
const Imports = rdf.OWLNS + "imports"

const ontology = rdf.OWLNS + "Ontology"

// Map maps the IRIs of owl:imports to the local files read in their place.
type Map map[string]string

// ParseMap reads URL=FILE pairs, as --map gives them: URL an absolute IRI,
// FILE not empty, each URL once.
func ParseMap(pairs []string) (Map, error) {
	m := Map{}
	for _, p := range pairs {
		iri, file, ok := strings.Cut(p, "=")
		switch {
		case !ok || file == "":
			return nil, &MapError{Pair: p, Reason: "it is not URL=FILE"}
		case rdf.CheckIRI(iri) != nil:
			return nil, &MapError{Pair: p, Reason: "the URL is not an absolute IRI"}
		case m[iri] != "":
			return nil, &MapError{Pair: p, Reason: "the URL is mapped twice"}
		}
		m[iri] = file
	}
	return m, nil
}

// Loader reads the file mapped to iri into triples, the blank nodes of
// each file its own.
type Loader func(iri, file string) ([]rdf.Triple, error)

// Follow returns the triples of the files that the owl:imports of the graph
// of triples lead to through m, and those of their own owl:imports in turn,
// each IRI read once, in the order found (the IRIs of the graph's own
// ontologies, subjects of owl:imports or typed owl:Ontology, are not read:
// they are the graph); and the imported IRIs m does not
// map, each once, in the order found. The objects of owl:imports that are
// not IRIs are left alone. A file that cannot be read stops it with an
// *ImportError naming the IRI and the file.
func Follow(triples []rdf.Triple, m Map, load Loader) (added []rdf.Triple, unmapped []string, err error) {
	seen := map[string]bool{}
	var queue []string
	scan := func(ts []rdf.Triple) {
		for _, t := range ts {
			if t.P == Imports && t.O.Kind == rdf.IRI && !seen[t.O.Value] {
				seen[t.O.Value] = true
				queue = append(queue, t.O.Value)
			}
		}
	}
	for _, t := range triples {
		// The graph's own ontology is there already.
		if t.S.Kind == rdf.IRI && (t.P == Imports || t.P == rdf.RDFType && t.O == rdf.NewIRI(ontology)) {
			seen[t.S.Value] = true
		}
	}
	scan(triples)
	for len(queue) > 0 {
		iri := queue[0]
		queue = queue[1:]
		file, ok := m[iri]
		if !ok {
			unmapped = append(unmapped, iri)
			continue
		}
		ts, err := load(iri, file)
		if err != nil {
			return added, unmapped, &ImportError{IRI: iri, File: file, Err: err}
		}
		added = append(added, ts...)
		scan(ts)
	}
	return added, unmapped, nil
}
