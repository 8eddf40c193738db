package expr

import (
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// Value is a term with what the operators read from its lexical form,
// read once: its class of values, whether it is well-formed, and its
// number. Compare, Arith and Order read their terms each call; a caller
// that applies operators to the same terms many times (the evaluator keeps
// one Value per term ID, so a query ranking each number among thousands
// parses each once) gives Values to CompareValues, ArithValues,
// OrderValues and ValueAggregator.AddValue instead. A Value is
// immutable; the zero Value is the zero Term's (unbound).
type Value struct {
	term  rdf.Term // normalised (norm)
	class valueClass
	wf    bool // a literal of a class, well-formed
	isNum bool // a well-formed numeric literal: num is its value
	num   number
}

// NewValue reads t's value.
func NewValue(t rdf.Term) Value {
	v := Value{term: norm(t)}
	if v.term.Kind != rdf.Literal {
		return v
	}
	v.class = classOf(v.term.Datatype)
	if v.class == classNone {
		return v
	}
	v.wf = xsd.WellFormed(v.term)
	if v.class == classNumber {
		v.num, v.isNum = numberOf(v.term)
	}
	return v
}

// Term returns the term of v, its datatype filled in when it had none.
func (v Value) Term() rdf.Term { return v.term }

// CompareValues is Compare on Values.
func CompareValues(op string, a, b Value) (rdf.Term, error) { return compare(op, a, b) }

// ArithValues is Arith on Values.
func ArithValues(op string, a, b Value) (rdf.Term, error) { return arithValues(op, a, b) }

// OrderValues is Order on Values.
func OrderValues(a, b Value) int { return order(a, b) }

// ValueAggregator is an Aggregator that also takes a one-argument
// solution's value as a Value (the zero Value for an unbound variable or
// an error), as Add takes its term, so that a caller keeping Values spares
// it a parse. MIN, MAX, SUM, AVG and COUNT of one argument are
// ValueAggregators.
type ValueAggregator interface {
	Aggregator
	AddValue(v Value)
}
