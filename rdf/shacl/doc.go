// Package shacl validates RDF graphs against SHACL shapes (the W3C Shapes
// Constraint Language, https://www.w3.org/TR/shacl/, SHACL-SPARQL included)
// and runs SHACL-AF rules (https://www.w3.org/TR/shacl-af/).
//
// Compile reads a shapes graph once; Shapes.Validate checks any number of
// data graphs (Graph, made by NewGraph from jrpcld's rdf.Triple values) and
// returns a Report, which writes itself as SHACL's validation report graph
// in Turtle, as text for people or as JSON lines; Shapes.Infer returns the
// triples the shapes' rules infer.
//
// SHACL Core is complete: every target (node, class with rdfs:subClassOf,
// implicit class targets, subjects-of, objects-of), every constraint
// component and every property path, sh:deactivated, severities and
// sh:message. SHACL-SPARQL runs on jrpcld's SPARQL engine (package
// rdf/sparql): sh:sparql constraints and constraint components with SPARQL
// validators, with $this and the other variables pre-bound as the
// specification says. Of SHACL-AF, triple rules and SPARQL rules with
// conditions and sh:order run, SPARQL targets, and the node expressions
// sh:this, constants, paths, unions, intersections and filter shapes.
// SHACL-JS, SHACL-AF expression constraints and functions, other custom
// targets, constraint components without a SPARQL validator and DASH's
// own constraints are not supported: Compile refuses a shapes graph where
// a shape in use needs them (ErrUnsupported), naming the shape, so that
// nothing passes because it was not checked. A deactivated shape, and what
// only it refers to, is never a reason to refuse.
//
// sh:pattern follows SPARQL's REGEX, whose syntax is XPath's: patterns
// are translated to Go's RE2, character class subtraction and XPath's
// escapes included; back-references, which RE2 cannot run, are an error.
// Recursive shapes, whose meaning SHACL leaves undefined, never hang: a
// node met again while it is being checked against the same shape is
// taken to conform, and the report warns.
package shacl
