package shacl

import (
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/internal/shgraph"
)

// Graph is an RDF graph indexed for validation: its terms are numbered,
// and its triples are sorted by subject, by object and by predicate. A
// Graph is read-only once made and safe for use by several goroutines.
type Graph = shgraph.Graph

// Builder makes a Graph from triples added in any number of calls.
type Builder = shgraph.Builder

// Path is a SHACL property path.
type Path = shgraph.Path

// The graph's parts, as the validator names them.
type (
	id      = shgraph.ID
	edge    = shgraph.Edge
	nodeSet = shgraph.NodeSet
	ref     = shgraph.Ref // a constant of the shapes: an index into Shapes.consts
)

// NewBuilder returns an empty Builder; size, when known, is about the
// number of triples to come.
func NewBuilder(size int) *Builder { return shgraph.NewBuilder(size) }

// NewGraph returns the graph of triples, duplicates counted once.
func NewGraph(triples []rdf.Triple) *Graph { return shgraph.New(triples) }

// NewGraphFromQuads returns the graph of the quads' triples, whatever
// graph each quad is in.
func NewGraphFromQuads(quads []rdf.Quad) *Graph { return shgraph.FromQuads(quads) }

// pathReader is the shapes graph as shgraph.Parse reads a path from it.
type pathReader struct{ c *compiler }

func (r pathReader) Values(n rdf.Term, pred string) []rdf.Term { return r.c.values(n, pred) }
func (r pathReader) List(n rdf.Term) ([]rdf.Term, error)       { return r.c.list(n) }
func (r pathReader) Describe(n rdf.Term) string                { return r.c.describe(n) }
func (r pathReader) Ref(n rdf.Term) ref                        { return r.c.ref(n) }

// parsePath reads the path whose node is n in the shapes graph (see
// shgraph.Parse).
func (c *compiler) parsePath(n rdf.Term) (*Path, error) { return shgraph.Parse(n, pathReader{c}) }

// eval adds to out the nodes the path reaches from n, following it
// backwards when inverse is set.
func (v *validator) eval(p *Path, n id, inverse bool, out *nodeSet) {
	shgraph.Eval(v.g, v.bind, p, n, inverse, out)
}
