// Package pyshacl writes what the OGC tool chain's SHACL step says of a
// validation as pySHACL and rdflib write it: the text report its messages
// quote (Text), the node shapes of a shapes graph in the order pySHACL
// finds them (NodeShapes), and nodes named as the tool chain names them
// (Namer: prefixed names as rdflib's compute_qname splits them, blank
// nodes by the path from the nearest IRI). The reports of a build compare
// with the tool chain's because of it.
package pyshacl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl"
)

// NodeShapes returns the node shapes of a shapes graph as pySHACL finds
// them: the instances of sh:NodeShape, and, when they have no sh:path, the
// subjects of targets, sh:property and sh:node and the values of
// sh:property, sh:node, sh:not, sh:qualifiedValueShape and of the lists of
// sh:and, sh:or and sh:xone; in the order the graph first names them.
func NodeShapes(ts []rdf.Triple) []rdf.Term {
	const sh = shacl.NS
	hasPath := map[rdf.Term]bool{}
	first := map[rdf.Term]rdf.Term{}
	rest := map[rdf.Term]rdf.Term{}
	for _, t := range ts {
		switch t.P {
		case sh + "path":
			hasPath[t.S] = true
		case rdf.RDFFirst:
			first[t.S] = t.O
		case rdf.RDFRest:
			rest[t.S] = t.O
		}
	}
	var out []rdf.Term
	seen := map[rdf.Term]bool{}
	add := func(n rdf.Term, typed bool) {
		if n.Kind == rdf.Literal || seen[n] || !typed && hasPath[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
	}
	for _, t := range ts {
		switch t.P {
		case rdf.RDFType:
			if t.O == rdf.NewIRI(sh+"NodeShape") {
				add(t.S, true)
			}
		case sh + "targetClass", sh + "targetNode", sh + "targetObjectsOf", sh + "targetSubjectsOf":
			add(t.S, false)
		case sh + "property", sh + "node":
			add(t.S, false)
			add(t.O, false)
		case sh + "not", sh + "qualifiedValueShape":
			add(t.O, false)
		case sh + "and", sh + "or", sh + "xone":
			for n, i := t.O, 0; n != rdf.NewIRI(rdf.RDFNil) && i < 1000; i++ {
				m, ok := first[n]
				if !ok {
					break
				}
				add(m, false)
				n = rest[n]
			}
		}
	}
	return out
}

// Namer names nodes as the tool chain's reports do: an IRI by a prefix
// its graph binds (as rdflib's compute_qname splits it) or in angle
// brackets, a blank node by the path from the nearest IRI that points to
// it ("<s>/p/q"), a literal by its lexical form.
type Namer struct {
	prefixes map[string]string // namespace -> prefix
	into     map[rdf.Term][]rdf.Triple
	blanks   map[rdf.Term]string
}

// coreNamespaces are the prefixes every rdflib graph binds.
var coreNamespaces = map[string]string{
	rdf.RDFNS: "rdf", rdf.RDFSNS: "rdfs", rdf.XSDNS: "xsd", rdf.OWLNS: "owl",
	"http://www.w3.org/XML/1998/namespace": "xml",
}

// NewNamer returns the namer of the graph ts whose prefixes (prefix to
// namespace) are those it was read with.
func NewNamer(ts []rdf.Triple, prefixes map[string]string) *Namer {
	n := &Namer{prefixes: map[string]string{}, into: map[rdf.Term][]rdf.Triple{}, blanks: map[rdf.Term]string{}}
	for ns, p := range coreNamespaces {
		n.prefixes[ns] = p
	}
	for p, ns := range prefixes {
		n.prefixes[ns] = p
	}
	for _, t := range ts {
		if t.O.Kind == rdf.Blank {
			n.into[t.O] = append(n.into[t.O], t)
		}
	}
	return n
}

// Name returns the name of t.
func (n *Namer) Name(t rdf.Term) string {
	switch t.Kind {
	case rdf.Literal:
		return t.Value
	case rdf.IRI:
		return n.iri(t.Value)
	}
	if p := n.closest(t, 3); p != nil {
		parts := make([]string, len(p))
		for i, x := range p {
			parts[i] = n.Name(x)
		}
		return strings.Join(parts, "/")
	}
	return n.blank(t)
}

// blank gives a blank node a label of the tool chain's form.
func (n *Namer) blank(t rdf.Term) string {
	if l, ok := n.blanks[t]; ok {
		return l
	}
	l := "_:N" + strconv.Itoa(len(n.blanks)+1)
	n.blanks[t] = l
	return l
}

// closest returns the nearest IRI above a blank node and the predicates
// down to it, depth levels up at most, as find_closest_uri does: a subject
// IRI of a triple pointing at it first, else through blank subjects.
func (n *Namer) closest(t rdf.Term, depth int) []rdf.Term {
	var alt []rdf.Triple
	for _, tr := range n.into[t] {
		if tr.S.Kind == rdf.IRI {
			return []rdf.Term{tr.S, rdf.NewIRI(tr.P)}
		}
		alt = append(alt, tr)
	}
	if depth == 1 {
		return nil
	}
	for _, tr := range alt {
		if p := n.closest(tr.S, depth-1); p != nil {
			return append(p, rdf.NewIRI(tr.P))
		}
	}
	return nil
}

// iri writes an IRI as rdflib's compute_qname with generate=False: split
// where its local name starts, the longest bound namespace between the
// split and the whole IRI, "prefix:local" when a prefix binds it, else
// "<iri>".
func (n *Namer) iri(iri string) string {
	ns, ok := splitIRI(iri)
	if !ok {
		return "<" + iri + ">"
	}
	best := ns
	for bound := range n.prefixes {
		if len(bound) > len(best) && strings.HasPrefix(bound, ns) && strings.HasPrefix(iri, bound) {
			best = bound
		}
	}
	if p, ok := n.prefixes[best]; ok {
		return p + ":" + iri[len(best):]
	}
	return "<" + iri + ">"
}

// splitIRI finds where an IRI's local name starts, as rdflib's split_uri
// does: after the last character that cannot be in a name, at the first
// letter or "_" from there on.
func splitIRI(iri string) (string, bool) {
	r := []rune(iri)
	nameChar := func(c rune) bool {
		return unicode.In(c, unicode.Ll, unicode.Lu, unicode.Lo, unicode.Lt, unicode.Nd) ||
			strings.ContainsRune("\u00B7\u0387-._%()", c)
	}
	for i := len(r) - 1; i >= 0; i-- {
		if nameChar(r[i]) {
			continue
		}
		for j := i; j < len(r); j++ {
			if unicode.In(r[j], unicode.Ll, unicode.Lu, unicode.Lo, unicode.Lt) || r[j] == '_' {
				if j == 0 {
					return "", false
				}
				return string(r[:j]), true
			}
		}
		return "", false
	}
	return "", false
}

// Text writes a report as pySHACL's text report reads: the messages of
// the tool chain's SHACL entries quote it.
func Text(r *shacl.Report) string {
	var b strings.Builder
	b.WriteString("Validation Report\nConforms: ")
	if r.Conforms {
		b.WriteString("True\n")
		return b.String()
	}
	fmt.Fprintf(&b, "False\nResults (%d):\n", len(r.Results))
	for _, res := range r.Results {
		comp := strings.TrimPrefix(res.Component, shacl.NS)
		sev := strings.TrimPrefix(res.Severity, shacl.NS)
		kind := "Constraint Violation"
		if sev != "Violation" {
			kind = "Validation Result"
		}
		fmt.Fprintf(&b, "%s in %s (%s):\n", kind, comp, res.Component)
		fmt.Fprintf(&b, "\tSeverity: sh:%s\n", sev)
		fmt.Fprintf(&b, "\tSource Shape: %s\n", r.Describe(res.Shape))
		fmt.Fprintf(&b, "\tFocus Node: %s\n", r.Describe(res.Focus))
		if res.HasValue() {
			fmt.Fprintf(&b, "\tValue Node: %s\n", r.Describe(res.Value))
		}
		if res.Path != nil {
			fmt.Fprintf(&b, "\tResult Path: %s\n", res.Path)
		}
		fmt.Fprintf(&b, "\tMessage: %s\n", res.Message())
	}
	return b.String()
}
