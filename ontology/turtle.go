package ontology

// Turtle is read by internal/turtle, jrpcld's own reader (knakk/rdf's rejects the published json-rpc
// ontology and panics on some valid input; see that package).

import (
	"errors"

	"github.com/jrpcld/jrpcld/internal/turtle"
)

// parseTurtle reads a Turtle document and returns its triples and the prefixes it declares. Blank node
// labels written in the document get the prefix "l" and those made for [] and () the prefix "g", as the
// RDF/XML reader makes its own.
func parseTurtle(data []byte, base string) ([]triple, map[string]string, error) {
	qs, prefixes, err := turtle.Parse(data, turtle.Turtle, base)
	if err != nil {
		var se *turtle.SyntaxError
		if errors.As(err, &se) {
			return nil, nil, &ParseError{Line: se.Line, Msg: se.Msg}
		}
		return nil, nil, err
	}
	ts := make([]triple, len(qs))
	for i, q := range qs {
		ts[i] = triple{s: fromTurtle(q.S), p: q.P, o: fromTurtle(q.O)}
	}
	return ts, prefixes, nil
}

func fromTurtle(t turtle.Term) term {
	switch t.Kind {
	case turtle.Blank:
		if t.Value[0] == '#' {
			return term{kind: blankTerm, value: "g" + t.Value[1:]}
		}
		return term{kind: blankTerm, value: "l" + t.Value}
	case turtle.Literal:
		return term{kind: literalTerm, value: t.Value, lang: t.Lang}
	}
	return term{kind: iriTerm, value: t.Value}
}
