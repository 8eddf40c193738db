package shacl

import (
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
)

// dashNS is the namespace of DASH (http://datashapes.org/dash), whose
// constraint components TopBraid runs.
const dashNS = "http://datashapes.org/dash#"

// dashParams are the parameters of DASH's constraint components. A shape
// that uses one is refused unless the shapes graph declares the component
// (with dash.ttl, whose validators are SPARQL): jrpcld does not run DASH
// on its own, and what is not checked must not pass.
var dashParams = []string{
	"closedByTypes", "coExistsWith", "hasValueIn", "hasValueWithClass", "indexed", "nonRecursive",
	"reifiableBy", "rootClass", "singleLine", "stem", "subSetOf", "symmetric", "uniqueValueForClass",
	"uriStart", "expression",
}

// refuse returns the error (wrapping ErrUnsupported) of a shape that uses
// a constraint jrpcld does not evaluate: SHACL-JS, SHACL-AF's expression
// constraints, DASH constraints whose components the shapes graph does not
// declare.
func (c *compiler) refuse(sh *shape) error {
	n := sh.node
	for _, p := range []struct{ pred, what string }{
		{shJS, "SHACL-JS constraints (sh:js)"},
		{shExpression, "SHACL-AF expression constraints (sh:expression)"},
	} {
		if c.has(n, p.pred) {
			return fmt.Errorf("%s: %w", p.what, ErrUnsupported)
		}
	}
	for _, name := range dashParams {
		pred := dashNS + name
		if !c.has(n, pred) || c.declares(pred) {
			continue
		}
		return fmt.Errorf("the DASH constraint dash:%s, whose component the shapes graph does not declare (jrpcld runs SPARQL-based components the shapes graph declares, not DASH's own): %w", name, ErrUnsupported)
	}
	return nil
}

// declares reports whether pred is a parameter of a constraint component
// the shapes graph declares.
func (c *compiler) declares(pred string) bool {
	for _, dc := range c.comps {
		for _, p := range dc.params {
			if p.path == pred {
				return true
			}
		}
	}
	return false
}

// targetPreds are the predicates that give a shape focus nodes.
var targetPreds = []string{shTargetNode, shTargetClass, shTargetSubjectsOf, shTargetObjectsOf, shTarget}

// hasTargetTriples reports whether the shapes graph gives node n targets,
// whether or not the shape could be compiled.
func (c *compiler) hasTargetTriples(n rdf.Term) bool {
	for _, p := range targetPreds {
		if c.has(n, p) {
			return true
		}
	}
	return n.Kind == rdf.IRI && c.isInstance(n, rdfsClass)
}

// inUse returns the error of the first shape in use that uses what jrpcld
// does not run: a shape that has targets and is not deactivated, or one
// such a shape refers to (through its constraints, rules, conditions and
// filter shapes), at any depth. Shapes that nothing uses are left alone,
// so that a deactivated shape, and what only it refers to, never keeps a
// shapes graph from compiling.
func (s *Shapes) inUse() error {
	var roots []*shape
	for _, sh := range s.shapes {
		if sh.targetTriples && !sh.deactivated {
			roots = append(roots, sh)
		}
	}
	return reachUnsupported(roots)
}

// reachUnsupported returns the error of the first shape reached from
// roots that is unsupported.
func reachUnsupported(roots []*shape) error {
	seen := map[*shape]bool{}
	queue := roots
	for len(queue) > 0 {
		sh := queue[0]
		queue = queue[1:]
		if sh == nil || seen[sh] || sh.deactivated {
			continue
		}
		seen[sh] = true
		if sh.unsupported != nil {
			return sh.unsupported
		}
		for _, k := range sh.constraints {
			queue = append(queue, k.shapes...)
			queue = append(queue, k.others...)
		}
		for _, r := range sh.rules {
			queue = append(queue, r.conditions...)
			for _, e := range []*expr{r.s, r.p, r.o} {
				queue = append(queue, exprShapes(e)...)
			}
		}
	}
	return nil
}

// exprShapes returns the filter shapes of a node expression.
func exprShapes(e *expr) []*shape {
	if e == nil {
		return nil
	}
	var out []*shape
	if e.filter != nil {
		out = append(out, e.filter)
	}
	for _, sub := range e.subs {
		out = append(out, exprShapes(sub)...)
	}
	return out
}
