package algebra

import "strings"

// Hidden reports whether name is a variable the syntax made rather than
// one the query wrote: the variables that blank nodes in patterns, the
// steps of path sequences and aggregates become. Their names start with
// '.', which no variable of a query can, so they never clash with the
// query's own; they are never in scope, so SELECT * and results leave them
// out.
func Hidden(name string) bool { return strings.HasPrefix(name, ".") }

// InScope returns the variables in scope in op's solutions, as section
// 18.2.1 of the specification defines them, in the order they first
// appear, leaving out hidden ones.
func InScope(op Op) []string {
	var vars []string
	seen := map[string]bool{}
	add := func(name string) {
		if name != "" && !Hidden(name) && !seen[name] {
			seen[name] = true
			vars = append(vars, name)
		}
	}
	addNode := func(n Node) { add(n.Var) }
	var walk func(op Op)
	walk = func(op Op) {
		switch o := op.(type) {
		case BGP:
			for _, t := range o.Patterns {
				addNode(t.S)
				addNode(t.P)
				addNode(t.O)
			}
		case PathPattern:
			addNode(o.S)
			addNode(o.O)
		case Join:
			walk(o.Left)
			walk(o.Right)
		case LeftJoin:
			walk(o.Left)
			walk(o.Right)
		case Union:
			walk(o.Left)
			walk(o.Right)
		case Minus:
			walk(o.Left)
		case Filter:
			walk(o.Sub)
		case Graph:
			addNode(o.Name)
			walk(o.Sub)
		case Extend:
			walk(o.Sub)
			add(o.Var)
		case Table:
			for _, v := range o.Vars {
				add(v)
			}
		case Group:
			for _, k := range o.By {
				add(k.Var)
			}
		case OrderBy:
			walk(o.Sub)
		case Project:
			for _, v := range o.Vars {
				add(v)
			}
		case Distinct:
			walk(o.Sub)
		case Reduced:
			walk(o.Sub)
		case Slice:
			walk(o.Sub)
		case Service:
			walk(o.Sub)
		}
	}
	walk(op)
	return vars
}

// Unmodified returns op without its outer solution modifiers (OFFSET and
// LIMIT, DISTINCT, REDUCED, ORDER BY): a query's Project, when it has one,
// or the pattern itself.
func Unmodified(op Op) Op {
	for {
		switch o := op.(type) {
		case Slice:
			op = o.Sub
		case Distinct:
			op = o.Sub
		case Reduced:
			op = o.Sub
		case OrderBy:
			op = o.Sub
		default:
			return op
		}
	}
}
