// Package shsparql holds the parts of SHACL-SPARQL (SHACL sections 5 and
// 6) that need no shapes: the query text ($PATH, prefixes), the rules of
// pre-binding, message templates, parameter names and the dataset the
// queries run on. Package shacl compiles and runs the constraints with
// them; keeping these apart keeps shacl a size one can read.
package shsparql

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/store"
)

// The SHACL terms prefix declarations are read with.
const (
	shPrefixes  = "http://www.w3.org/ns/shacl#prefixes"
	shDeclare   = "http://www.w3.org/ns/shacl#declare"
	shPrefix    = "http://www.w3.org/ns/shacl#prefix"
	shNamespace = "http://www.w3.org/ns/shacl#namespace"
	owlImports  = rdf.OWLNS + "imports"
)

// ShapesGraph names the shapes graph in the dataset: $shapesGraph is
// bound to it, so that GRAPH $shapesGraph { ... } reads the shapes graph.
const ShapesGraph = "urn:x-jrpcld:shapes-graph"

// LocalName is SHACL's name of a parameter: the end of its IRI after the
// last character that cannot be in an XML name.
func LocalName(iri string) string {
	i := len(iri)
	for i > 0 {
		c := iri[i-1]
		if c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			i--
			continue
		}
		break
	}
	return iri[i:]
}

// Combinations returns every choice of one value from each list; an
// empty list (an optional parameter without value) gives the zero Term.
func Combinations(lists [][]rdf.Term) [][]rdf.Term {
	out := [][]rdf.Term{{}}
	for _, l := range lists {
		if len(l) == 0 {
			l = []rdf.Term{{}}
		}
		var next [][]rdf.Term
		for _, prefix := range out {
			for _, t := range l {
				next = append(next, append(slices.Clone(prefix), t))
			}
		}
		out = next
	}
	return out
}

// SubstitutePath replaces the variable $PATH (or ?PATH) in a query's text
// by path, a path in SPARQL's syntax ("" leaves $PATH as written), and reports whether the query has it.
// Text in strings, IRIs and comments is left alone.
func SubstitutePath(text, path string) (string, bool) {
	var b strings.Builder
	found := false
	var quote byte
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quote != 0:
			if ch == '\\' && i+1 < len(text) {
				b.WriteByte(ch)
				i++
				ch = text[i]
			} else if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '<' && i+1 < len(text) && !strings.ContainsAny(text[i+1:i+2], " =\t\n"):
			if j := strings.IndexAny(text[i:], "> \n"); j > 0 && text[i+j] == '>' {
				b.WriteString(text[i : i+j+1])
				i += j
				continue
			}
		case ch == '#':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			b.WriteString(text[i : i+j])
			i += j - 1
			continue
		case (ch == '$' || ch == '?') && strings.HasPrefix(text[i+1:], "PATH") &&
			(i+5 >= len(text) || !isNameByte(text[i+5])):
			found = true
			if path != "" {
				b.WriteString(path)
			} else {
				b.WriteString("$PATH")
			}
			i += 4
			continue
		}
		b.WriteByte(ch)
	}
	return b.String(), found
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// CheckPreBinding refuses what SHACL 5.2.1 forbids in a query whose
// variables pre are pre-bound: MINUS, SERVICE, VALUES, AS of a pre-bound
// variable, and subqueries that do not return every pre-bound variable
// but $shapesGraph and $currentShape.
func CheckPreBinding(q *algebra.Query, pre []string) error {
	op := q.Op
	if q.Form == algebra.Select {
		// The query's own projection and modifiers.
		op = algebra.Unmodified(op)
		if p, ok := op.(algebra.Project); ok {
			op = p.Sub
		}
	}
	var err error
	refuse := func(format string, args ...any) {
		if err == nil {
			err = fmt.Errorf("pre-binding (SHACL 5.2.1) does not allow "+format, args...)
		}
	}
	isPre := func(v string) bool { return slices.Contains(pre, v) }
	var walkExpr func(x algebra.Expr)
	var walk func(op algebra.Op)
	walkExpr = func(x algebra.Expr) {
		switch x := x.(type) {
		case algebra.Exists:
			walk(x.Op)
		case algebra.Call:
			for _, a := range x.Args {
				walkExpr(a)
			}
		}
	}
	walk = func(op algebra.Op) {
		switch o := op.(type) {
		case algebra.Minus:
			refuse("MINUS")
		case algebra.Service:
			refuse("SERVICE")
		case algebra.Table:
			if len(o.Vars) > 0 {
				refuse("VALUES")
			}
		case algebra.Join:
			walk(o.Left)
			walk(o.Right)
		case algebra.LeftJoin:
			walk(o.Left)
			walk(o.Right)
			if o.Expr != nil {
				walkExpr(o.Expr)
			}
		case algebra.Union:
			walk(o.Left)
			walk(o.Right)
		case algebra.Filter:
			walk(o.Sub)
			for _, x := range o.Exprs {
				walkExpr(x)
			}
		case algebra.Graph:
			walk(o.Sub)
		case algebra.Extend:
			if isPre(o.Var) {
				refuse("AS ?%s: the variable is pre-bound", o.Var)
			}
			walkExpr(o.Expr)
			walk(o.Sub)
		case algebra.Group:
			for _, k := range o.By {
				if isPre(k.Var) {
					refuse("AS ?%s: the variable is pre-bound", k.Var)
				}
				walkExpr(k.Expr)
			}
			walk(o.Sub)
		case algebra.OrderBy:
			walk(o.Sub)
		case algebra.Distinct:
			walk(o.Sub)
		case algebra.Reduced:
			walk(o.Sub)
		case algebra.Slice:
			walk(o.Sub)
		case algebra.Project:
			for _, v := range pre {
				if v != "shapesGraph" && v != "currentShape" && !slices.Contains(o.Vars, v) {
					refuse("a subquery that does not return ?%s, which is pre-bound", v)
				}
			}
			walk(o.Sub)
		}
	}
	walk(op)
	return err
}

// Data is the dataset SPARQL-based checks run on, made once, the first
// time Get is called: the data graph as its default graph, the shapes
// graph named by ShapesGraph. It is safe for use by several goroutines.
type Data struct {
	once sync.Once
	ds   *sparql.Dataset
	err  error
	// orig maps the literals the store normalizes (language tags in lower
	// case) back to the data graph's own.
	orig map[rdf.Term]rdf.Term
}

// Get returns the dataset, made from the triples graphs returns.
func (d *Data) Get(graphs func() (data, shapes []rdf.Triple)) (*sparql.Dataset, error) {
	d.once.Do(func() {
		d.ds, d.orig = sparql.NewDataset(), map[rdf.Term]rdf.Term{}
		data, shapes := graphs()
		for _, g := range []struct {
			ts   []rdf.Triple
			name rdf.Term
		}{{data, rdf.Term{}}, {shapes, rdf.NewIRI(ShapesGraph)}} {
			ts := g.ts
			qs := make([]rdf.Quad, len(ts))
			for i, t := range ts {
				qs[i] = rdf.Quad{Triple: t, G: g.name}
				if n := store.Normalize(t.O); n != t.O && g.name == (rdf.Term{}) {
					d.orig[n] = t.O
				}
			}
			if err := d.ds.Add(qs...); err != nil {
				d.err = err
				return
			}
		}
	})
	return d.ds, d.err
}

// Original returns the data graph's own form of a term a query returned.
func (d *Data) Original(t rdf.Term) rdf.Term {
	if o, ok := d.orig[t]; ok {
		return o
	}
	return t
}

// FillTemplates returns the messages with each {?name} and {$name}
// replaced by the value of the variable: a solution's (vars and sol, as
// sparql.Result gives them), or a pre-bound one's. A variable without a
// value is left as written.
func FillTemplates(msgs []rdf.Term, bound map[string]rdf.Term, vars []string, sol []rdf.Term) []rdf.Term {
	if len(msgs) == 0 {
		return nil
	}
	value := func(name string) (string, bool) {
		for i, v := range vars {
			if v == name && sol[i] != (rdf.Term{}) {
				return sol[i].Value, true
			}
		}
		if t, ok := bound[name]; ok && t != (rdf.Term{}) {
			return t.Value, true
		}
		return "", false
	}
	out := make([]rdf.Term, len(msgs))
	for i, m := range msgs {
		s := m.Value
		var b strings.Builder
		for {
			j := strings.Index(s, "{")
			if j < 0 || j+2 >= len(s) || s[j+1] != '?' && s[j+1] != '$' {
				if j >= 0 {
					b.WriteString(s[:j+1])
					s = s[j+1:]
					continue
				}
				b.WriteString(s)
				break
			}
			end := strings.IndexByte(s[j:], '}')
			if end < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:j])
			if val, ok := value(s[j+2 : j+end]); ok {
				b.WriteString(val)
			} else {
				b.WriteString(s[j : j+end+1])
			}
			s = s[j+end+1:]
		}
		m.Value, m.Escaped = b.String(), false
		out[i] = m
	}
	return out
}

// defaultPrefixes are declared for every query unless sh:prefixes
// declares them otherwise.
var defaultPrefixes = [][2]string{{"rdf", rdf.RDFNS}, {"rdfs", rdf.RDFSNS}, {"xsd", rdf.XSDNS}, {"owl", rdf.OWLNS}}

// Prefixes returns the PREFIX declarations of a constraint or validator
// n: the sh:declare of its sh:prefixes values, and of what they
// owl:imports, after the defaultPrefixes. values gives the objects of a
// node and predicate in the shapes graph, describe a node for errors.
func Prefixes(n rdf.Term, values func(rdf.Term, string) []rdf.Term, describe func(rdf.Term) string) (string, error) {
	decl := map[string]string{}
	var names []string
	seen := map[rdf.Term]bool{}
	queue := values(n, shPrefixes)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		for _, d := range values(p, shDeclare) {
			pre, ns := values(d, shPrefix), values(d, shNamespace)
			if len(pre) != 1 || len(ns) != 1 || pre[0].Kind != rdf.Literal || ns[0].Kind != rdf.Literal {
				return "", fmt.Errorf("the prefix declaration %s needs one sh:prefix and one sh:namespace, literals", describe(d))
			}
			if old, ok := decl[pre[0].Value]; ok && old != ns[0].Value {
				return "", fmt.Errorf("the prefix %q is declared as both <%s> and <%s>", pre[0].Value, old, ns[0].Value)
			} else if !ok {
				names = append(names, pre[0].Value)
			}
			decl[pre[0].Value] = ns[0].Value
		}
		queue = append(queue, values(p, owlImports)...)
	}
	var b strings.Builder
	// rdf:, rdfs:, xsd: and owl: are declared first, as rdflib (and so
	// pySHACL) declares them: shapes graphs in use write queries that use
	// them without sh:prefixes.
	for _, d := range defaultPrefixes {
		if _, ok := decl[d[0]]; !ok {
			fmt.Fprintf(&b, "PREFIX %s: <%s>\n", d[0], d[1])
		}
	}
	for _, name := range names {
		fmt.Fprintf(&b, "PREFIX %s: <%s>\n", name, decl[name])
	}
	return b.String(), nil
}
