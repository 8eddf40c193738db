package store

import (
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
)

// QuadError is a quad the store refuses: a term in a position RDF does not
// allow it in (a literal subject or graph name, an empty predicate, a
// missing term).
type QuadError struct {
	Quad rdf.Quad
	Msg  string
}

func (e *QuadError) Error() string {
	return fmt.Sprintf("store: cannot hold %s %s: %s", e.Quad.Triple, graphString(e.Quad.G), e.Msg)
}

func graphString(g rdf.Term) string {
	if g == (rdf.Term{}) {
		return "in the default graph"
	}
	return "in graph " + g.String()
}

// FullError is returned when the dictionary has numbered as many terms as
// an ID can tell apart.
type FullError struct{}

func (FullError) Error() string {
	return "store: the dictionary is full (2^32-1 distinct terms); split the data"
}

func checkQuad(q rdf.Quad) error {
	switch {
	case q.S.Kind == rdf.Literal || q.S == (rdf.Term{}):
		return &QuadError{q, "the subject must be an IRI or a blank node"}
	case q.S.Kind == rdf.IRI && q.S.Value == "":
		return &QuadError{q, "the subject is an empty IRI"}
	case q.P == "":
		return &QuadError{q, "the predicate is empty"}
	case q.O == (rdf.Term{}):
		return &QuadError{q, "the object is missing"}
	}
	if q.InDefaultGraph() {
		return nil
	}
	if err := checkGraphName(q.G); err != nil {
		return &QuadError{q, err.Error()}
	}
	return nil
}

// GraphNameError is a graph name that is not an IRI or a blank node.
type GraphNameError struct{ Name rdf.Term }

func (e *GraphNameError) Error() string {
	return fmt.Sprintf("store: %s cannot name a graph: only an IRI or a blank node can", e.Name)
}

func checkGraphName(g rdf.Term) error {
	if g.Kind == rdf.Literal || g.Value == "" {
		return &GraphNameError{g}
	}
	return nil
}
