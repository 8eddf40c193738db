package eval

import (
	"slices"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/expr"
)

// group is one group of a GROUP BY: its key's values and its aggregates.
type group struct {
	key  row // the key values, by position in By
	aggs []expr.Aggregator
	// seen holds the solutions already counted by COUNT(DISTINCT *), per
	// aggregate.
	seen []map[string]bool
}

func (e *evaluator) newGroup(o algebra.Group, key row) (*group, bool) {
	gr := &group{key: append(row(nil), key...), aggs: make([]expr.Aggregator, len(o.Aggs)), seen: make([]map[string]bool, len(o.Aggs))}
	for i, a := range o.Aggs {
		distinctRows := a.Distinct && len(a.Args) == 0
		ag, err := expr.NewAggregator(a.Name, a.Distinct && !distinctRows, a.Separator)
		if err != nil {
			e.fail(&RefusedError{What: "the aggregate " + a.Name, Why: err.Error()})
			return nil, false
		}
		gr.aggs[i] = ag
		if distinctRows {
			gr.seen[i] = map[string]bool{}
		}
	}
	return gr, e.hold(1)
}

// evalGroup groups the solutions of o.Sub and yields one solution per
// group: the key variables and the aggregates' values (an aggregate that is
// an error leaves its variable unbound).
func (e *evaluator) evalGroup(o algebra.Group, g active, seed row) seq {
	sub := e.eval(o.Sub, g, seed)
	keySlots := make([]int, len(o.By))
	for i, k := range o.By {
		keySlots[i] = -1
		if k.Var != "" {
			keySlots[i] = e.slot(k.Var)
		}
	}
	keyVars := make([]int, len(o.By))
	for i, k := range o.By {
		keyVars[i] = -1
		if v, ok := k.Expr.(algebra.VarExpr); ok {
			if s, ok := e.slots[v.Name]; ok {
				keyVars[i] = s
			}
		}
	}
	aggSlots := make([]int, len(o.Aggs))
	for i, a := range o.Aggs {
		aggSlots[i] = e.slot(a.Var)
	}
	return func(yield func(row) bool) {
		groups := map[string]*group{}
		var order []*group
		defer func() { e.release(len(order)) }()
		key := make(row, len(o.By))
		var buf []byte
		var args []rdf.Term
		sub(func(r row) bool {
			if !e.tick() {
				return false
			}
			e.solution++
			for i, k := range o.By {
				key[i] = 0
				if s := keyVars[i]; s >= 0 {
					key[i] = r[s] // a plain variable: its ID as it is
				} else if t, err := e.evalExpr(k.Expr, r, g); err == nil {
					key[i] = e.id(t)
				}
			}
			buf = rowKey(buf, key)
			gr := groups[string(buf)]
			if gr == nil {
				var ok bool
				if gr, ok = e.newGroup(o, key); !ok {
					return false
				}
				groups[string(buf)] = gr
				order = append(order, gr)
			}
			for i, a := range o.Aggs {
				if gr.seen[i] != nil {
					k := string(rowKey(nil, r))
					if gr.seen[i][k] {
						continue
					}
					gr.seen[i][k] = true
				}
				if len(a.Args) == 0 {
					gr.aggs[i].Add(nil)
					continue
				}
				if va, ok := gr.aggs[i].(expr.ValueAggregator); ok && len(a.Args) == 1 {
					v, _ := e.value(a.Args[0], r, g) // an error is passed as the zero Value
					va.AddValue(v)
					continue
				}
				args = args[:0]
				for _, x := range a.Args {
					t, _ := e.evalExpr(x, r, g) // an error is passed as the zero Term
					args = append(args, t)
				}
				gr.aggs[i].Add(args)
			}
			return e.err == nil
		})
		if e.err != nil {
			return
		}
		if len(order) == 0 && len(o.By) == 0 {
			gr, ok := e.newGroup(o, nil)
			if !ok {
				return
			}
			order = append(order, gr)
		}
		out := e.newRow()
		for _, gr := range order {
			clear(out)
			copy(out, seed)
			for i, s := range keySlots {
				if s >= 0 {
					out[s] = gr.key[i]
				}
			}
			for i, ag := range gr.aggs {
				if t, err := ag.Result(); err == nil && t != (rdf.Term{}) {
					out[aggSlots[i]] = e.id(t)
				}
			}
			if !yield(out) {
				return
			}
		}
	}
}

// evalOrderBy sorts the solutions of o.Sub, stably, by the conditions: an
// unbound value or an error first, then as expr.Order says.
func (e *evaluator) evalOrderBy(o algebra.OrderBy, g active, seed row) seq {
	sub := e.eval(o.Sub, g, seed)
	return func(yield func(row) bool) {
		type item struct {
			r    row
			keys []rdf.Term
		}
		var items []item
		defer func() { e.release(len(items)) }()
		sub(func(r row) bool {
			if !e.hold(1) || !e.tick() {
				return false
			}
			it := item{r: append(row(nil), r...), keys: make([]rdf.Term, len(o.Conds))}
			e.solution++
			for i, c := range o.Conds {
				if t, err := e.evalExpr(c.Expr, r, g); err == nil {
					it.keys[i] = t
				}
			}
			items = append(items, it)
			return e.err == nil
		})
		if e.err != nil {
			return
		}
		slices.SortStableFunc(items, func(a, b item) int {
			for i, c := range o.Conds {
				n := orderTerms(a.keys[i], b.keys[i])
				if c.Desc {
					n = -n
				}
				if n != 0 {
					return n
				}
			}
			return 0
		})
		for _, it := range items {
			if !yield(it.r) {
				return
			}
		}
	}
}

// orderTerms orders two values of an ORDER BY condition: unbound first.
func orderTerms(a, b rdf.Term) int {
	switch az, bz := a == (rdf.Term{}), b == (rdf.Term{}); {
	case az && bz:
		return 0
	case az:
		return -1
	case bz:
		return 1
	}
	return expr.Order(a, b)
}
