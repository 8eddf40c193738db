// Package ontology reads an ontology in Turtle or RDF/XML, lists the classes, properties and named
// individuals it declares, and checks that every IRI a JSON-LD context produces is declared, saying which
// are not.
//
// Parse and ParseFile read a file; Merge joins the ontologies of blocks that build on one another;
// Undeclared is the check; WriteSummary prints a listing with prefixed names.
//
// Both readers are the package's own, on the standard library: knakk/rdf's Turtle decoder rejects a
// number at the end of a line (the published JSON-RPC ontology has one) and panics, in a goroutine no
// caller can recover, on valid input such as """""a""", and its RDF/XML decoder cannot read nested typed
// nodes such as <rdfs:subClassOf><owl:Restriction>. The tests compare both readers with rapper.
package ontology
