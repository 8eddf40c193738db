// Package ontology reads an ontology (Turtle through knakk/rdf, or RDF/XML through its own reader), lists
// the classes, properties and named individuals it declares, and checks that every IRI a JSON-LD context
// produces is declared, saying which are not.
//
// Parse and ParseFile read a file; Merge joins the ontologies of blocks that build on one another;
// Undeclared is the check; WriteSummary prints a listing with prefixed names.
package ontology
