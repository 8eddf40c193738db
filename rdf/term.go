package rdf

import "strings"

// Kind tells what an RDF term is.
type Kind uint8

// The kinds of terms.
const (
	IRI     Kind = iota // an IRI
	Blank               // a blank node
	Literal             // a literal
)

// Term is an RDF term. Terms are values: two terms made the same way (see
// Escaped) are the same term exactly when they are ==, so they can be map
// keys.
type Term struct {
	Kind Kind
	// Escaped reports that Value, a literal's lexical form, is already as
	// N-Triples and Turtle write it between double quotes: valid UTF-8,
	// with '"', '\\', control characters and DEL escaped. Code that writes
	// the text straight in that form sets it to spare the writers a second
	// pass; only the N-Triples, N-Quads and Turtle writers take such a term.
	Escaped bool
	// Value is the IRI, the blank node label (without "_:"), or the
	// literal's lexical form. The blank nodes Parse makes for [] and ()
	// get labels starting with '#', which no written label can.
	Value string
	// Datatype is a literal's datatype IRI: XSDString for a plain string,
	// RDFLangString for one with a language tag.
	Datatype string
	// Lang is a literal's language tag.
	Lang string
}

// NewIRI returns the IRI term iri. Nothing is checked: the writers refuse
// an IRI they cannot write.
func NewIRI(iri string) Term { return Term{Kind: IRI, Value: iri} }

// NewBlank returns the blank node labelled label (without "_:").
func NewBlank(label string) Term { return Term{Kind: Blank, Value: label} }

// NewLiteral returns the literal with lexical form lex and datatype IRI
// datatype; an empty datatype means XSDString.
func NewLiteral(lex, datatype string) Term {
	if datatype == "" {
		datatype = XSDString
	}
	return Term{Kind: Literal, Value: lex, Datatype: datatype}
}

// NewLangLiteral returns the literal lex with language tag lang (an
// rdf:langString).
func NewLangLiteral(lex, lang string) Term {
	return Term{Kind: Literal, Value: lex, Datatype: RDFLangString, Lang: lang}
}

// String returns the term much as N-Triples writes it, for messages and
// tests: <iri>, _:label, or "lex" with @lang or ^^<datatype> (none for
// xsd:string). Nothing is escaped but '"' and '\' in a literal; use a
// writer for output.
func (t Term) String() string {
	switch t.Kind {
	case IRI:
		return "<" + t.Value + ">"
	case Blank:
		return "_:" + t.Value
	}
	lex := t.Value
	if !t.Escaped {
		lex = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(lex)
	}
	s := `"` + lex + `"`
	switch {
	case t.Lang != "":
		return s + "@" + t.Lang
	case t.Datatype != "" && t.Datatype != XSDString:
		return s + "^^<" + t.Datatype + ">"
	}
	return s
}

// Triple is a statement: subject, predicate (always an IRI) and object.
type Triple struct {
	S Term
	P string
	O Term
}

// T returns the triple (s, p, o), for brevity where many are made.
func T(s Term, p string, o Term) Triple { return Triple{S: s, P: p, O: o} }

// String returns the triple as "s <p> o .".
func (t Triple) String() string { return t.S.String() + " <" + t.P + "> " + t.O.String() + " ." }

// Quad is a statement and the graph it is in.
type Quad struct {
	Triple
	G Term // the graph: an IRI or a blank node; the zero Term is the default graph
}

// InDefaultGraph reports whether the quad is in the default graph.
func (q Quad) InDefaultGraph() bool { return q.G.Value == "" }
