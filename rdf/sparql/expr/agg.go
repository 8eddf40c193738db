package expr

import (
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// Aggregator folds the values of one group's solutions into an
// aggregate's value (section 18.5.1). Add takes one solution's evaluated
// arguments: none for COUNT(*), one for the others, the zero rdf.Term
// standing for an unbound variable or an error. Result may be called once
// all solutions are added; an error leaves the aggregate unbound.
type Aggregator interface {
	Add(args []rdf.Term)
	Result() (rdf.Term, error)
}

// NewAggregator returns an Aggregator for the aggregate name (upper case:
// COUNT, SUM, MIN, MAX, AVG, SAMPLE, GROUP_CONCAT); distinct makes it see
// each distinct value once (same terms, see SameTerm), sep is
// GROUP_CONCAT's separator. COUNT counts the values that are bound and
// not errors, and SAMPLE picks one of those; to SUM, AVG, MIN, MAX and
// GROUP_CONCAT an unbound value or an error is an error, as section
// 18.5.1 defines them (only Count removes the error elements of its
// list), and as Jena and Oxigraph do. A value that is not a number makes
// SUM and AVG an error, one that is not a literal GROUP_CONCAT. MIN and
// MAX use ORDER BY's order (see Order). Over no values COUNT, SUM and AVG
// give 0, GROUP_CONCAT "", and MIN, MAX and SAMPLE an error. COUNT(DISTINCT
// *) is the evaluator's to do: it calls Add(nil) once per distinct
// solution.
func NewAggregator(name string, distinct bool, sep string) (Aggregator, error) {
	var a Aggregator
	switch name {
	case "COUNT":
		a = &countAgg{}
	case "SUM":
		a = &sumAgg{sum: intNumber(0)}
	case "AVG":
		a = &sumAgg{sum: intNumber(0), avg: true}
	case "MIN":
		a = &extremeAgg{want: -1}
	case "MAX":
		a = &extremeAgg{want: 1}
	case "SAMPLE":
		a = &sampleAgg{}
	case "GROUP_CONCAT":
		a = &concatAgg{sep: sep}
	default:
		return nil, fmt.Errorf("expr: unknown aggregate %q (known: COUNT, SUM, MIN, MAX, AVG, SAMPLE, GROUP_CONCAT)", name)
	}
	if distinct {
		a = &distinctAgg{Aggregator: a, seen: make(map[rdf.Term]bool)}
	}
	return a, nil
}

// value returns the one argument of an aggregate, and false when it is
// unbound or there is none.
func value(args []rdf.Term) (rdf.Term, bool) {
	if len(args) == 0 || unbound(args[0]) {
		return rdf.Term{}, false
	}
	return norm(args[0]), true
}

// distinctAgg passes on each value the first time it comes.
type distinctAgg struct {
	Aggregator
	seen map[rdf.Term]bool
}

func (d *distinctAgg) Add(args []rdf.Term) {
	if v, ok := value(args); ok {
		key := v
		key.Lang = strings.ToLower(key.Lang)
		if d.seen[key] {
			return
		}
		d.seen[key] = true
	}
	d.Aggregator.Add(args)
}

// addByValue is Add for an aggregator that takes Values: the Value of
// its one argument to AddValue, the zero Value when it is unbound.
func addByValue(a interface{ AddValue(Value) }, args []rdf.Term) {
	if v, ok := value(args); ok {
		a.AddValue(NewValue(v))
	} else {
		a.AddValue(Value{})
	}
}

type countAgg struct{ n int64 }

func (c *countAgg) Add(args []rdf.Term) {
	if _, ok := value(args); ok || len(args) == 0 {
		c.n++
	}
}

func (c *countAgg) AddValue(v Value) {
	if !unbound(v.term) {
		c.n++
	}
}

func (c *countAgg) Result() (rdf.Term, error) { return intNumber(c.n).term(), nil }

// sumAgg is SUM and, with avg, AVG. The xsd:integer values that fit in
// an int64 are summed in small while the sum is exact (no float or double
// has come: those round, so they are added in turn), which spares a
// big.Rat for each.
type sumAgg struct {
	sum   number
	small int64
	n     int64
	avg   bool
	err   error
}

func (s *sumAgg) Add(args []rdf.Term) { addByValue(s, args) }

func (s *sumAgg) AddValue(v Value) {
	if s.err != nil {
		return
	}
	if unbound(v.term) || !v.isNum {
		op := "SUM"
		if s.avg {
			op = "AVG"
		}
		what := "an unbound value or an error"
		if !unbound(v.term) {
			what = "not a number: " + describe(v.term)
		}
		s.err = typeErr(op, what)
		return
	}
	s.n++
	if v.num.kind == kInteger && s.sum.kind < kFloat && v.num.r.Num().IsInt64() {
		x := v.num.r.Num().Int64()
		if sum := s.small + x; (x >= 0) == (sum >= s.small) { // no overflow
			s.small = sum
			return
		}
	}
	if v.num.kind >= kFloat {
		s.flush()
	}
	s.sum, _ = arith("+", s.sum, v.num) // addition cannot fail
}

// flush adds small to sum.
func (s *sumAgg) flush() {
	if s.small != 0 {
		s.sum, _ = arith("+", s.sum, intNumber(s.small))
		s.small = 0
	}
}

func (s *sumAgg) Result() (rdf.Term, error) {
	s.flush()
	switch {
	case s.err != nil:
		return rdf.Term{}, s.err
	case !s.avg || s.n == 0:
		return s.sum.term(), nil
	}
	mean, err := arith("/", s.sum, intNumber(s.n))
	if err != nil {
		return rdf.Term{}, err
	}
	return mean.term(), nil
}

// extremeAgg is MIN (want -1) and MAX (want 1).
type extremeAgg struct {
	best  Value
	some  bool
	want  int
	unset bool // an unbound value or an error came
}

func (e *extremeAgg) Add(args []rdf.Term) { addByValue(e, args) }

func (e *extremeAgg) AddValue(v Value) {
	switch {
	case unbound(v.term):
		e.unset = true
	case !e.some || order(v, e.best) == e.want:
		e.best, e.some = v, true
	}
}

func (e *extremeAgg) Result() (rdf.Term, error) {
	if e.unset {
		return rdf.Term{}, typeErr("MIN/MAX", "an unbound value or an error")
	}
	if !e.some {
		return rdf.Term{}, typeErr("MIN/MAX", "no values")
	}
	return e.best.term, nil
}

type sampleAgg struct {
	v    rdf.Term
	some bool
}

func (s *sampleAgg) Add(args []rdf.Term) {
	if v, ok := value(args); ok && !s.some {
		s.v, s.some = v, true
	}
}

func (s *sampleAgg) Result() (rdf.Term, error) {
	if !s.some {
		return rdf.Term{}, typeErr("SAMPLE", "no values")
	}
	return s.v, nil
}

// concatAgg is GROUP_CONCAT: the lexical forms joined by sep, a simple
// literal whatever the values' language tags.
type concatAgg struct {
	sep  string
	b    strings.Builder
	some bool
	err  error
}

func (c *concatAgg) Add(args []rdf.Term) {
	v, ok := value(args)
	if c.err != nil {
		return
	}
	if !ok {
		c.err = typeErr("GROUP_CONCAT", "an unbound value or an error")
		return
	}
	if v.Kind != rdf.Literal {
		c.err = typeErr("GROUP_CONCAT", "not a literal: "+describe(v))
		return
	}
	if c.some {
		c.b.WriteString(c.sep)
	}
	c.b.WriteString(v.Value)
	c.some = true
}

func (c *concatAgg) Result() (rdf.Term, error) {
	if c.err != nil {
		return rdf.Term{}, c.err
	}
	return simple(c.b.String()), nil
}
