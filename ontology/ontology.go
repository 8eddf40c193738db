package ontology

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdfxml"
)

// Well-known namespaces.
const (
	nsRDF  = rdf.RDFNS
	nsRDFS = rdf.RDFSNS
	nsOWL  = rdf.OWLNS
	nsXSD  = rdf.XSDNS
)

// wellKnown lists the vocabularies whose terms are declared elsewhere; Undeclared ignores them.
var wellKnown = []string{nsRDF, nsRDFS, nsOWL, nsXSD}

// propertyKinds maps a property declaration type to the Kind it gives, in order of precedence.
var propertyKinds = []struct{ typ, kind string }{
	{nsOWL + "ObjectProperty", "object"},
	{nsOWL + "DatatypeProperty", "datatype"},
	{nsOWL + "AnnotationProperty", "annotation"},
	{nsRDF + "Property", "property"},
}

// Class is a named class the ontology declares (owl:Class or rdfs:Class).
type Class struct {
	IRI        string
	Label      string   // rdfs:label, preferring one without a language tag, then English
	Comment    string   // rdfs:comment, chosen like Label
	SubClassOf []string // named superclasses, sorted; restrictions and other blank nodes are left out
}

// Property is a property the ontology declares.
type Property struct {
	IRI     string
	Kind    string // "object", "datatype", "annotation" or "property" (rdf:Property)
	Label   string
	Comment string
	Domain  []string // named classes, sorted; an owl:unionOf list in a blank-node domain expands to its members
	Range   []string // likewise (datatypes such as xsd:string included)
}

// Ontology is what an ontology file declares.
type Ontology struct {
	triples     []rdf.Triple
	prefixes    map[string]string
	classes     map[string]*Class
	props       map[string]*Property
	individuals map[string]bool
}

// ParseFile reads the ontology in path, choosing the format from the extension: .ttl is Turtle,
// .owl and .rdf are RDF/XML. Relative IRIs are left unresolved. A syntax error is a *diag.Diagnostic
// naming the file.
func ParseFile(path string) (*Ontology, error) {
	format, gz, ok := rdf.FormatOf(path)
	if !ok || gz || format != rdf.Turtle && format != rdf.RDFXML {
		return nil, fmt.Errorf("ontology %s: unknown extension (want .ttl, .owl or .rdf)", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ontology: %w", err)
	}
	defer f.Close()
	o, err := Parse(f, format, "")
	if err != nil {
		var pe *diag.Diagnostic
		if errors.As(err, &pe) {
			pe.File = path
			return nil, pe
		}
		return nil, fmt.Errorf("ontology %s: %w", path, err)
	}
	return o, nil
}

// Parse reads an ontology in Turtle or RDF/XML, resolving relative IRIs against base (when not empty).
// A syntax error is a *diag.Diagnostic with the line where reading stopped. An empty Turtle document is
// an empty ontology.
func Parse(r io.Reader, format rdf.Format, base string) (*Ontology, error) {
	if format != rdf.Turtle && format != rdf.RDFXML {
		return nil, fmt.Errorf("ontology: unsupported format %v (want Turtle or RDF/XML)", format)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("ontology: read: %w", err)
	}
	if format == rdf.RDFXML {
		ts, prefixes, err := rdfxml.Parse(data, base)
		if err != nil {
			return nil, err
		}
		return build(ts, prefixes), nil
	}
	qs, prefixes, err := rdf.Parse(data, rdf.Turtle, base)
	if err != nil {
		return nil, err
	}
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	return build(ts, prefixes), nil
}

// build indexes the declarations in ts.
func build(ts []rdf.Triple, prefixes map[string]string) *Ontology {
	o := &Ontology{
		triples:     ts,
		prefixes:    prefixes,
		classes:     map[string]*Class{},
		props:       map[string]*Property{},
		individuals: map[string]bool{},
	}
	objects := map[rdf.Term]map[string][]rdf.Term{} // subject -> predicate -> objects, in document order
	for _, t := range ts {
		ps := objects[t.S]
		if ps == nil {
			ps = map[string][]rdf.Term{}
			objects[t.S] = ps
		}
		ps[t.P] = append(ps[t.P], t.O)
	}
	isType := func(s rdf.Term, typ string) bool {
		for _, o := range objects[s][nsRDF+"type"] {
			if o.Kind == rdf.IRI && o.Value == typ {
				return true
			}
		}
		return false
	}
	for s, ps := range objects {
		if s.Kind != rdf.IRI {
			continue
		}
		if isType(s, nsOWL+"Class") || isType(s, nsRDFS+"Class") {
			o.classes[s.Value] = &Class{
				IRI:        s.Value,
				Label:      pickLiteral(ps[nsRDFS+"label"]),
				Comment:    pickLiteral(ps[nsRDFS+"comment"]),
				SubClassOf: named(ps[nsRDFS+"subClassOf"], nil),
			}
		}
		for _, pk := range propertyKinds {
			if isType(s, pk.typ) {
				o.props[s.Value] = &Property{
					IRI:     s.Value,
					Kind:    pk.kind,
					Label:   pickLiteral(ps[nsRDFS+"label"]),
					Comment: pickLiteral(ps[nsRDFS+"comment"]),
					Domain:  named(ps[nsRDFS+"domain"], objects),
					Range:   named(ps[nsRDFS+"range"], objects),
				}
				break
			}
		}
	}
	for s, ps := range objects {
		if s.Kind != rdf.IRI {
			continue
		}
		for _, typ := range ps[nsRDF+"type"] {
			if typ.Kind == rdf.IRI && (typ.Value == nsOWL+"NamedIndividual" || o.classes[typ.Value] != nil) {
				o.individuals[s.Value] = true
			}
		}
	}
	return o
}

// pickLiteral returns the first literal without a language tag, else the first English one, else the
// first one.
func pickLiteral(ts []rdf.Term) string {
	var en, any *rdf.Term
	for i := range ts {
		t := &ts[i]
		if t.Kind != rdf.Literal {
			continue
		}
		if t.Lang == "" {
			return t.Value
		}
		if en == nil && strings.EqualFold(strings.SplitN(t.Lang, "-", 2)[0], "en") {
			en = t
		}
		if any == nil {
			any = t
		}
	}
	if en != nil {
		return en.Value
	}
	if any != nil {
		return any.Value
	}
	return ""
}

// named returns the IRIs among ts, sorted and without duplicates. With objects given, a blank node with
// an owl:unionOf list contributes the IRIs in that list.
func named(ts []rdf.Term, objects map[rdf.Term]map[string][]rdf.Term) []string {
	var out []string
	for _, t := range ts {
		switch {
		case t.Kind == rdf.IRI:
			out = append(out, t.Value)
		case t.Kind == rdf.Blank && objects != nil:
			for _, list := range objects[t][nsOWL+"unionOf"] {
				out = append(out, listIRIs(list, objects)...)
			}
		}
	}
	return sortUnique(out)
}

// listIRIs returns the IRI members of the RDF list starting at head, stopping at a cycle.
func listIRIs(head rdf.Term, objects map[rdf.Term]map[string][]rdf.Term) []string {
	var out []string
	seen := map[rdf.Term]bool{}
	for head.Kind == rdf.Blank && !seen[head] {
		seen[head] = true
		ps := objects[head]
		for _, m := range ps[nsRDF+"first"] {
			if m.Kind == rdf.IRI {
				out = append(out, m.Value)
			}
		}
		rest := ps[nsRDF+"rest"]
		if len(rest) == 0 {
			break
		}
		head = rest[0]
	}
	return out
}

// sortUnique sorts ss and removes duplicates; it returns nil for an empty result.
func sortUnique(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	sort.Strings(ss)
	out := ss[:1]
	for _, s := range ss[1:] {
		if s != out[len(out)-1] {
			out = append(out, s)
		}
	}
	return out
}

// Prefixes returns a copy of the namespace prefixes the ontology file declared (for Turtle, the last
// @prefix or PREFIX for each name, resolved against the base; for RDF/XML, the root element's xmlns
// attributes).
func (o *Ontology) Prefixes() map[string]string {
	out := make(map[string]string, len(o.prefixes))
	for k, v := range o.prefixes {
		out[k] = v
	}
	return out
}

// Classes returns the named classes the ontology declares, sorted by IRI.
func (o *Ontology) Classes() []Class {
	out := make([]Class, 0, len(o.classes))
	for _, c := range o.classes {
		c2 := *c
		c2.SubClassOf = append([]string(nil), c.SubClassOf...)
		out = append(out, c2)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].IRI < out[j].IRI })
	return out
}

// Properties returns the properties the ontology declares, sorted by IRI. A property declared with more
// than one kind gets the first of object, datatype, annotation, property.
func (o *Ontology) Properties() []Property {
	out := make([]Property, 0, len(o.props))
	for _, p := range o.props {
		p2 := *p
		p2.Domain = append([]string(nil), p.Domain...)
		p2.Range = append([]string(nil), p.Range...)
		out = append(out, p2)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].IRI < out[j].IRI })
	return out
}

// Individuals returns the named individuals, sorted: IRIs typed owl:NamedIndividual or typed with a
// class the ontology declares.
func (o *Ontology) Individuals() []string {
	out := make([]string, 0, len(o.individuals))
	for iri := range o.individuals {
		out = append(out, iri)
	}
	sort.Strings(out)
	return out
}

// Declares reports whether iri is declared: a class (owl:Class, rdfs:Class), a property
// (owl:ObjectProperty, owl:DatatypeProperty, owl:AnnotationProperty, rdf:Property), or a named individual.
func (o *Ontology) Declares(iri string) bool {
	return o.classes[iri] != nil || o.props[iri] != nil || o.individuals[iri]
}

// Undeclared returns, sorted and without duplicates, the IRIs in iris that the ontology does not declare,
// ignoring IRIs in the rdf, rdfs, xsd and owl namespaces, which are declared elsewhere.
func (o *Ontology) Undeclared(iris []string) []string {
	var out []string
	for _, iri := range iris {
		if !o.Declares(iri) && !inWellKnown(iri) {
			out = append(out, iri)
		}
	}
	return sortUnique(out)
}

func inWellKnown(iri string) bool {
	for _, ns := range wellKnown {
		if strings.HasPrefix(iri, ns) {
			return true
		}
	}
	return false
}

// Merge returns an ontology with the declarations of all of os (nil ones are skipped). Blank nodes stay
// apart; where two ontologies bind the same prefix, the first one wins.
func Merge(os ...*Ontology) *Ontology {
	var ts []rdf.Triple
	prefixes := map[string]string{}
	for i, o := range os {
		if o == nil {
			continue
		}
		tag := strconv.Itoa(i) + "."
		for _, t := range o.triples {
			if t.S.Kind == rdf.Blank {
				t.S.Value = tag + t.S.Value
			}
			if t.O.Kind == rdf.Blank {
				t.O.Value = tag + t.O.Value
			}
			ts = append(ts, t)
		}
		for k, v := range o.prefixes {
			if _, ok := prefixes[k]; !ok {
				prefixes[k] = v
			}
		}
	}
	return build(ts, prefixes)
}

// localName matches a local part that can follow "prefix:" in Turtle without escapes.
var localName = regexp.MustCompile(`^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?$`)

// compact writes iri as prefix:local with the declared prefix of the longest namespace (a named prefix
// before the empty one, then alphabetically), or as <iri> when no prefix fits.
func (o *Ontology) compact(iri string) string {
	var cands []string
	for p, ns := range o.prefixes {
		if ns != "" && strings.HasPrefix(iri, ns) && localName.MatchString(iri[len(ns):]) {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return "<" + iri + ">"
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if la, lb := len(o.prefixes[a]), len(o.prefixes[b]); la != lb {
			return la > lb
		}
		if (a == "") != (b == "") {
			return b == ""
		}
		return a < b
	})
	return cands[0] + ":" + iri[len(o.prefixes[cands[0]]):]
}

// listed returns "name a b c" with the IRIs compacted, or "" when there are none.
func (o *Ontology) listed(name string, iris []string) string {
	if len(iris) == 0 {
		return ""
	}
	out := make([]string, len(iris))
	for i, iri := range iris {
		out[i] = o.compact(iri)
	}
	return name + " " + strings.Join(out, " ")
}

// WriteSummary writes a readable listing to w: the prefixes, the classes with labels and superclasses,
// the properties with kind, domain and range, and the individuals, using prefixed names where a prefix is
// known.
func (o *Ontology) WriteSummary(w io.Writer) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	var err error
	printf := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(tw, format, args...)
		}
	}
	names := make([]string, 0, len(o.prefixes))
	for p := range o.prefixes {
		names = append(names, p)
	}
	sort.Strings(names)
	printf("Prefixes (%d)\n", len(names))
	for _, p := range names {
		printf("  %s:\t<%s>\n", p, o.prefixes[p])
	}
	classes := o.Classes()
	printf("\nClasses (%d)\n", len(classes))
	for _, c := range classes {
		printf("  %s\t%s\t%s\n", o.compact(c.IRI), quoteLabel(c.Label), o.listed("subClassOf", c.SubClassOf))
	}
	props := o.Properties()
	printf("\nProperties (%d)\n", len(props))
	for _, p := range props {
		printf("  %s\t%s\t%s\t%s\t%s\n", o.compact(p.IRI), p.Kind, quoteLabel(p.Label),
			o.listed("domain", p.Domain), o.listed("range", p.Range))
	}
	inds := o.Individuals()
	printf("\nIndividuals (%d)\n", len(inds))
	for _, iri := range inds {
		printf("  %s\n", o.compact(iri))
	}
	if err == nil {
		err = tw.Flush()
	}
	// Empty trailing cells leave padding behind: trim it.
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if err == nil && line != "" {
			_, err = io.WriteString(w, strings.TrimRight(line, " \n")+"\n")
		}
	}
	if err != nil {
		return fmt.Errorf("ontology summary: %w", err)
	}
	return nil
}

// quoteLabel quotes a label for the summary, or returns "-" when there is none.
func quoteLabel(s string) string {
	if s == "" {
		return "-"
	}
	return strconv.Quote(s)
}
