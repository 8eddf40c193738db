// Package syntax parses SPARQL 1.1 queries and updates and translates them
// to the algebra of rdf/sparql/algebra, as section 18.2 of the
// specification says. It is kept apart from the evaluator so that the
// grammar and its static rules (scoping, grouping, blank node labels) are
// checked once, before any data is touched.
package syntax

import (
	"errors"

	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
)

// ParseQuery parses a SPARQL 1.1 query; base resolves relative IRIs when
// the query has no BASE.
func ParseQuery(src, base string) (*algebra.Query, error) {
	return nil, errors.New("sparql: query parser not written yet")
}

// ParseUpdate parses a SPARQL 1.1 update request; base resolves relative
// IRIs when the request has no BASE.
func ParseUpdate(src, base string) (*algebra.Update, error) {
	return nil, errors.New("sparql: update parser not written yet")
}
