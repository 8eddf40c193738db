package shacl

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// Report is the outcome of a validation, as SHACL's validation report
// graph holds it.
type Report struct {
	// Conforms is true when there are no results, whatever their
	// severity.
	Conforms bool
	Results  []Result
	// Warnings are about the validation, not the data: recursive shapes,
	// for one.
	Warnings []string

	shapes, data *Graph // for WriteText's descriptions of blank nodes
}

// Result is one validation result.
type Result struct {
	Focus rdf.Term // sh:focusNode
	// Path is sh:resultPath: the path of a property shape, or the
	// property a closed shape does not allow; nil when there is none.
	Path      *Path
	Value     rdf.Term // sh:value; the zero Term when there is none
	Shape     rdf.Term // sh:sourceShape: the shape's node in the shapes graph
	Component string   // sh:sourceConstraintComponent
	Severity  string   // sh:resultSeverity: sh:Violation unless the shape says otherwise
	// Messages are the shape's sh:message values; when it has none, the
	// report writes Message().
	Messages []rdf.Term
	// Param is the value of the constraint's main parameter (the class of
	// sh:class, the count of sh:minCount...), for messages.
	Param rdf.Term
	// SourceConstraint is sh:sourceConstraint: the SPARQL-based constraint
	// (the value of sh:sparql) the result comes from; the zero Term for
	// the others.
	SourceConstraint rdf.Term
}

// HasValue reports whether the result has a sh:value.
func (r Result) HasValue() bool { return r.Value != rdf.Term{} }

// Message returns the result's message: the shape's sh:message (the one
// without a language tag, or in English, or the first), or one made from
// the constraint.
func (r Result) Message() string {
	if len(r.Messages) > 0 {
		best := r.Messages[0]
		for _, m := range r.Messages {
			if m.Lang == "" || strings.EqualFold(m.Lang, "en") && best.Lang != "" {
				best = m
			}
		}
		return best.Value
	}
	p := termText(r.Param)
	switch strings.TrimSuffix(strings.TrimPrefix(r.Component, NS), "ConstraintComponent") {
	case "Class":
		return "the value is not an instance of " + p
	case "Datatype":
		return "the value is not a well-formed literal of datatype " + p
	case "NodeKind":
		return "the value is not of node kind " + p
	case "MinCount":
		return "fewer than " + r.Param.Value + " values"
	case "MaxCount":
		return "more than " + r.Param.Value + " values"
	case "MinExclusive":
		return "the value is not > " + p
	case "MinInclusive":
		return "the value is not >= " + p
	case "MaxExclusive":
		return "the value is not < " + p
	case "MaxInclusive":
		return "the value is not <= " + p
	case "MinLength":
		return "the value is shorter than " + r.Param.Value + " characters"
	case "MaxLength":
		return "the value is longer than " + r.Param.Value + " characters"
	case "Pattern":
		return "the value does not match the pattern " + strconv.Quote(r.Param.Value)
	case "LanguageIn":
		return "the value's language tag is not one of the allowed ones"
	case "UniqueLang":
		return "a language tag is used by more than one value"
	case "Equals":
		return "the value is not also a value of " + p + ", or the other way round"
	case "Disjoint":
		return "the value is also a value of " + p
	case "LessThan":
		return "the value is not < the values of " + p
	case "LessThanOrEquals":
		return "the value is not <= the values of " + p
	case "Not":
		return "the value conforms to the shape " + p + ", which it must not"
	case "And":
		return "the value does not conform to every shape of sh:and"
	case "Or":
		return "the value conforms to none of the shapes of sh:or"
	case "Xone":
		return "the value does not conform to exactly one shape of sh:xone"
	case "Node":
		return "the value does not conform to the shape " + p
	case "QualifiedMinCount":
		return "fewer than " + r.Param.Value + " values conform to the qualified value shape"
	case "QualifiedMaxCount":
		return "more than " + r.Param.Value + " values conform to the qualified value shape"
	case "Closed":
		return "the property is not allowed by the closed shape"
	case "HasValue":
		return "the value " + p + " is missing"
	case "In":
		return "the value is not one of the allowed values"
	case "SPARQL":
		if r.Param.Kind == rdf.IRI {
			return "the SPARQL-based constraint " + p + " found the value"
		}
		return "a SPARQL-based constraint of the shape found the value"
	}
	return "the constraint component " + termText(rdf.NewIRI(r.Component)) + " failed"
}

// labels gives the blank nodes of the data and shapes graphs that a
// report names labels of its own, n1, n2..., the same wherever they
// appear: the labels the parsers made may not be writable.
type labels map[rdf.Term]rdf.Term

func (l labels) of(t rdf.Term) rdf.Term {
	if t.Kind != rdf.Blank {
		return t
	}
	if n, ok := l[t]; ok {
		return n
	}
	n := rdf.NewBlank("n" + strconv.Itoa(len(l)+1))
	l[t] = n
	return n
}

// describe writes a term for people: an IRI or a literal as termText
// writes it, a blank node of g as its first three triples in Turtle's
// [ ... ] form (the labels the parser gives blank nodes mean nothing to
// the user), or as a label when g is nil or does not hold it.
func describe(g *Graph, t rdf.Term) string {
	if t.Kind != rdf.Blank || g == nil || g.ID(t) == 0 {
		return termText(t)
	}
	var parts []string
	for i, e := range g.Out(g.ID(t)) {
		if i == 3 {
			parts = append(parts, "...")
			break
		}
		o := g.Term(e.B)
		s := "[...]"
		if o.Kind != rdf.Blank {
			s = termText(o)
		}
		if len(s) > 60 {
			s = s[:57] + "..."
		}
		parts = append(parts, short(g.Term(e.A).Value)+" "+s)
	}
	if len(parts) == 0 {
		return "[]"
	}
	return "[ " + strings.Join(parts, " ; ") + " ]"
}

// termText writes a term for people: IRIs in SHACL's, RDF's and XML
// Schema's namespaces by prefix, others in angle brackets, literals in
// quotes with their datatype or language.
func termText(t rdf.Term) string {
	switch t.Kind {
	case rdf.IRI:
		if t.Value == "" {
			return ""
		}
		return short(t.Value)
	case rdf.Blank:
		return "_:" + t.Value
	}
	switch t.Datatype {
	case rdf.XSDInteger, rdf.XSDBoolean:
		if xsd.WellFormed(t) && !strings.HasPrefix(t.Value, "+") {
			return t.Value // as Turtle writes them
		}
	}
	s := strconv.Quote(t.Value)
	switch {
	case t.Lang != "":
		return s + "@" + t.Lang
	case t.Datatype != rdf.XSDString:
		return s + "^^" + short(t.Datatype)
	}
	return s
}

// Triples returns the report as the validation report graph of SHACL 3.6:
// a sh:ValidationReport with sh:conforms and a sh:ValidationResult per
// result. Blank nodes of the data and shapes graphs are given fresh
// labels, the same wherever they appear.
func (r *Report) Triples() []rdf.Triple {
	n := 0
	fresh := func() rdf.Term { n++; return rdf.NewBlank("r" + strconv.Itoa(n)) }
	keep := labels{}.of
	report := fresh()
	ts := []rdf.Triple{
		rdf.T(report, rdf.RDFType, rdf.NewIRI(shValidationReport)),
		rdf.T(report, shConforms, rdf.NewLiteral(strconv.FormatBool(r.Conforms), rdf.XSDBoolean)),
	}
	for _, res := range r.Results {
		x := fresh()
		ts = append(ts,
			rdf.T(report, shResult, x),
			rdf.T(x, rdf.RDFType, rdf.NewIRI(shValidationResult)),
			rdf.T(x, shFocusNode, keep(res.Focus)))
		if res.Path != nil {
			node, pts := res.Path.Triples(fresh)
			ts = append(ts, rdf.T(x, shResultPath, node))
			ts = append(ts, pts...)
		}
		if res.HasValue() {
			ts = append(ts, rdf.T(x, shValue, keep(res.Value)))
		}
		ts = append(ts,
			rdf.T(x, shResultSeverity, rdf.NewIRI(res.Severity)),
			rdf.T(x, shSourceComponent, rdf.NewIRI(res.Component)),
			rdf.T(x, shSourceShape, keep(res.Shape)))
		if res.SourceConstraint != (rdf.Term{}) {
			ts = append(ts, rdf.T(x, shSourceConstraint, keep(res.SourceConstraint)))
		}
		if len(res.Messages) > 0 {
			for _, m := range res.Messages {
				ts = append(ts, rdf.T(x, shResultMessage, m))
			}
		} else {
			ts = append(ts, rdf.T(x, shResultMessage, rdf.NewLiteral(res.Message(), "")))
		}
	}
	// A shape (or SPARQL constraint) that is a blank node is described by
	// its triples, as pySHACL writes it: a label alone would lose it.
	described := map[rdf.Term]bool{}
	for _, res := range r.Results {
		for _, t := range []rdf.Term{res.Shape, res.SourceConstraint} {
			ts = appendDescription(r.shapes, ts, t, keep, described)
		}
	}
	return ts
}

// appendDescription appends the triples of blank node t in g, and of the
// blank nodes they lead to (its concise bounded description), each blank
// node once, relabelled by keep.
func appendDescription(g *Graph, ts []rdf.Triple, t rdf.Term, keep func(rdf.Term) rdf.Term, done map[rdf.Term]bool) []rdf.Triple {
	if g == nil || t.Kind != rdf.Blank || done[t] || g.ID(t) == 0 {
		return ts
	}
	done[t] = true
	for _, e := range g.Out(g.ID(t)) {
		o := g.Term(e.B)
		ts = append(ts, rdf.T(keep(t), g.Term(e.A).Value, keep(o)))
		ts = appendDescription(g, ts, o, keep, done)
	}
	return ts
}

// WriteTurtle writes the report graph in Turtle.
func (r *Report) WriteTurtle(w io.Writer) error {
	tw := rdf.NewTurtleWriter(w, []rdf.Prefix{{Name: "sh", IRI: NS}, {Name: "rdf", IRI: rdf.RDFNS}, {Name: "xsd", IRI: rdf.XSDNS}})
	if err := tw.WriteGroup(r.Triples()); err != nil {
		return err
	}
	return tw.Close()
}

// Describe writes a term of the report for people, as WriteText does: a
// blank node of the data or shapes graph as its first triples.
func (r *Report) Describe(t rdf.Term) string {
	for _, g := range []*Graph{r.data, r.shapes} {
		if g != nil && g.ID(t) != 0 {
			return describe(g, t)
		}
	}
	return termText(t)
}

// WriteText writes the report for people: whether the data conforms,
// then each result with its severity, component, shape, focus node, path,
// value and message; a blank node is shown as its first triples.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Validation Report\n")
	if r.Conforms {
		b.WriteString("Conforms: true\n")
	} else {
		fmt.Fprintf(&b, "Conforms: false\nResults (%d):\n", len(r.Results))
	}
	keep := labels{}.of
	text := func(g *Graph, t rdf.Term) string {
		if g != nil && g.ID(t) != 0 {
			return describe(g, t)
		}
		return termText(keep(t))
	}
	for _, res := range r.Results {
		comp := strings.TrimPrefix(res.Component, NS)
		fmt.Fprintf(&b, "%s in %s:\n", strings.TrimPrefix(res.Severity, NS), comp)
		fmt.Fprintf(&b, "\tSource Shape: %s\n", text(r.shapes, res.Shape))
		fmt.Fprintf(&b, "\tFocus Node: %s\n", text(r.data, res.Focus))
		if res.HasValue() {
			fmt.Fprintf(&b, "\tValue Node: %s\n", text(r.data, res.Value))
		}
		if res.Path != nil {
			fmt.Fprintf(&b, "\tResult Path: %s\n", res.Path)
		}
		fmt.Fprintf(&b, "\tMessage: %s\n", res.Message())
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Object returns a result as a JSON object: the SHACL property names
// (focusNode, resultPath, value, sourceShape, sourceConstraintComponent,
// resultSeverity, resultMessage), terms as N-Triples writes them and the
// path in SPARQL's syntax. Blank nodes keep the labels the parser gave
// them, which may not be valid N-Triples; WriteJSON gives them labels of
// its own.
func (r Result) Object() map[string]any {
	return r.object(func(t rdf.Term) rdf.Term { return t })
}

func (r Result) object(keep func(rdf.Term) rdf.Term) map[string]any {
	m := map[string]any{
		"focusNode":                 keep(r.Focus).String(),
		"sourceShape":               keep(r.Shape).String(),
		"sourceConstraintComponent": r.Component,
		"resultSeverity":            r.Severity,
		"resultMessage":             r.Message(),
	}
	if r.Path != nil {
		m["resultPath"] = r.Path.String()
	}
	if r.HasValue() {
		m["value"] = keep(r.Value).String()
	}
	return m
}

// WriteJSON writes the report as JSON lines: one object per result
// (Result.Object), then a summary object: conforms, results, and the
// count of each severity.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	counts := map[string]int{}
	keep := labels{}.of
	for _, res := range r.Results {
		if err := enc.Encode(res.object(keep)); err != nil {
			return err
		}
		counts[strings.TrimPrefix(res.Severity, NS)]++
	}
	sum := map[string]any{"conforms": r.Conforms, "results": len(r.Results), "severities": counts}
	if len(r.Warnings) > 0 {
		sum["warnings"] = r.Warnings
	}
	return enc.Encode(map[string]any{"summary": sum})
}
