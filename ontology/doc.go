// Package ontology reads an ontology in Turtle or RDF/XML, lists the classes, properties and named
// individuals it declares, and checks that every IRI a JSON-LD context produces is declared, saying which
// are not.
//
// Parse and ParseFile read a file; Merge joins the ontologies of blocks that build on one another;
// Undeclared is the check; WriteSummary prints a listing with prefixed names.
//
// Turtle is read by internal/turtle, jrpcld's one reader of Turtle, N-Triples and N-Quads (knakk/rdf's
// rejects the published JSON-RPC ontology, which has a number at the end of a line, and panics on some
// valid input). RDF/XML is read by this package's own reader, on encoding/xml: knakk/rdf's
// RDF/XML decoder cannot read nested typed nodes such as <rdfs:subClassOf><owl:Restriction>. Both
// resolve relative IRIs with internal/turtle's RFC 3986 resolution. The tests compare what both read with
// what rapper reads.
package ontology
