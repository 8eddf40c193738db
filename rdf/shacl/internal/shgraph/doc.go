// Package shgraph holds the graph a SHACL validation walks and the
// property paths it walks it by: Graph numbers an RDF graph's terms and
// sorts its triples three ways, and Path is a SHACL property path, read
// from the shapes graph (Parse), evaluated over a Graph (Eval) and written
// back as SPARQL or as triples.
//
// They are apart from package shacl because they need nothing of shapes,
// constraints or reports: the shapes' compiler reaches the shapes graph
// for Parse through the small Reader interface, and the validator passes
// the numbers of the shapes' constants to Eval. Keeping them here keeps
// shacl a size one can read, and this package imports nothing of shacl.
package shgraph
