// Package ontology reads an ontology in Turtle, lists its classes and
// properties, and checks that every IRI a context produces is declared.
package ontology
