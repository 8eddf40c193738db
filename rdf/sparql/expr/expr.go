// Package expr computes the values of SPARQL 1.1 expressions on RDF
// terms: the operators, the built-in functions of section 17.4, the XML
// Schema casts, the effective boolean value, the order ORDER BY gives and
// the aggregates. It knows nothing of the algebra or of solutions, so that
// the evaluator hands it evaluated arguments and it hands back a term or
// an error (ErrType): the forms that need unevaluated arguments (BOUND,
// IF, COALESCE, IN, &&, ||, EXISTS) stay with the evaluator.
package expr

import (
	"math/rand"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
)

// Env is what the functions that are not pure need, fixed for the whole
// of one query: the time NOW returns, the base IRI IRI() resolves
// against, the source RAND draws from, and the maker of BNODE()'s fresh
// blank nodes.
type Env struct {
	Now      time.Time
	Base     string
	Rand     *rand.Rand
	NewBNode func() rdf.Term
}

// EBV returns the effective boolean value of t (section 17.2.2).
func EBV(t rdf.Term) (bool, error) { return false, typeErr("EBV", "not implemented") }

// Compare applies the comparison operator op ("=", "!=", "<", ">", "<=",
// ">=") to a and b and returns an xsd:boolean.
func Compare(op string, a, b rdf.Term) (rdf.Term, error) {
	return rdf.Term{}, typeErr(op, "not implemented")
}

// SameTerm reports whether a and b are the same RDF term.
func SameTerm(a, b rdf.Term) bool { return a == b }

// Arith applies the arithmetic operator op ("+", "-", "*", "/") to a and b.
func Arith(op string, a, b rdf.Term) (rdf.Term, error) {
	return rdf.Term{}, typeErr(op, "not implemented")
}

// Unary applies "UMINUS", "UPLUS" or "!" to a.
func Unary(op string, a rdf.Term) (rdf.Term, error) {
	return rdf.Term{}, typeErr(op, "not implemented")
}

// Order returns -1, 0 or 1 as a sorts before, with or after b under ORDER
// BY.
func Order(a, b rdf.Term) int { return 0 }

// Call calls the built-in function or cast name on args.
func Call(name string, args []rdf.Term, env *Env) (rdf.Term, error) {
	return rdf.Term{}, typeErr(name, "not implemented")
}

// Aggregator folds the values of one group into an aggregate's value.
type Aggregator interface {
	Add(args []rdf.Term)
	Result() (rdf.Term, error)
}

// NewAggregator returns an Aggregator for the aggregate name.
func NewAggregator(name string, distinct bool, sep string) (Aggregator, error) {
	return nil, typeErr(name, "not implemented")
}
