// Package ontology reads an ontology in Turtle or RDF/XML, lists the classes, properties and named
// individuals it declares, and checks that every IRI a JSON-LD context produces is declared, saying which
// are not.
//
// Parse and ParseFile read a file; Merge joins the ontologies of blocks that build on one another;
// Undeclared is the check; WriteSummary prints a listing with prefixed names.
//
// Turtle is read by rdf.Parse and RDF/XML by package rdf/rdfxml (knakk/rdf's decoders reject the
// published JSON-RPC ontology, which has a number at the end of a line, cannot read nested typed nodes
// such as <rdfs:subClassOf><owl:Restriction>, and panic on some valid input); both resolve relative IRIs
// with rdf.ResolveIRI (RFC 3986). Their tests compare what they read with what rapper reads.
package ontology
