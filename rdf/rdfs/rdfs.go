// Package rdfs computes the RDFS entailment of a graph as pySHACL's
// "--inference rdfs" (-i rdfs) does before it validates: the closure of the
// graph under the RDFS entailment rules rdf1 and rdfs2 to rdfs13, as the
// Python library owlrl (RDFS_Semantics) applies them, with what pySHACL
// leaves out left out too. jrpcld shacl --inference rdfs validates a copy of
// the data graph expanded by Infer, so that a shape's sh:targetClass or
// sh:class finds the nodes a schema's rdfs:subClassOf, rdfs:domain,
// rdfs:range and rdfs:subPropertyOf make instances of a class.
//
// What is inferred, for triples (s p o) of the graph:
//   - rdf1: p rdf:type rdf:Property;
//   - rdfs2, rdfs3: s rdf:type C when p rdfs:domain C, o rdf:type C when
//     p rdfs:range C (o may be a literal: the triple is kept, as owlrl keeps
//     it, and a literal typed so is a focus node of sh:targetClass C);
//   - rdfs4a, rdfs4b: s and o rdf:type rdfs:Resource, for the triples of the
//     graph as given only (owlrl applies them in its first cycle only);
//   - rdfs5, rdfs11: rdfs:subPropertyOf and rdfs:subClassOf are transitive;
//   - rdfs6, rdfs10: every rdf:Property is its own sub-property, every
//     rdfs:Class its own subclass; rdfs8: every rdfs:Class a subclass of
//     rdfs:Resource;
//   - rdfs7: s q o when p rdfs:subPropertyOf q (q an IRI: a predicate that is
//     not an IRI cannot be stated);
//   - rdfs9: s rdf:type D when s rdf:type C and C rdfs:subClassOf D;
//   - rdfs12: a rdfs:ContainerMembershipProperty is a sub-property of
//     rdfs:member; rdfs13: an rdfs:Datatype a subclass of rdfs:Literal.
//
// Not inferred, as pySHACL does not: the axiomatic triples of RDF and RDFS
// (owlrl's axioms, off in pySHACL), the datatype axioms (a literal typed
// with its datatype), and owlrl's "one-time" rule copying a triple to every
// literal of the same value (pySHACL turns it off).
package rdfs

import "github.com/jrpcld/jrpcld/rdf"

// The vocabulary of the rules.
const (
	subClassOf    = rdf.RDFSNS + "subClassOf"
	subPropertyOf = rdf.RDFSNS + "subPropertyOf"
	domain        = rdf.RDFSNS + "domain"
	rangeIRI      = rdf.RDFSNS + "range"
	resource      = rdf.RDFSNS + "Resource"
	class         = rdf.RDFSNS + "Class"
	literal       = rdf.RDFSNS + "Literal"
	datatype      = rdf.RDFSNS + "Datatype"
	member        = rdf.RDFSNS + "member"
	containerMP   = rdf.RDFSNS + "ContainerMembershipProperty"
	property      = rdf.RDFNS + "Property"
)

// closure holds the graph as it grows, indexed for the rules' joins.
type closure struct {
	have     map[rdf.Triple]bool
	added    []rdf.Triple            // what Infer returns, in the order found
	queue    []rdf.Triple            // triples whose consequences are to be drawn
	byPred   map[string][]rdf.Triple // triples by predicate
	domains  map[string][]rdf.Term   // p -> C of p rdfs:domain C
	ranges   map[string][]rdf.Term   // p -> C of p rdfs:range C
	supProp  map[rdf.Term][]rdf.Term // p -> q of p rdfs:subPropertyOf q
	subProp  map[rdf.Term][]rdf.Term // q -> p of p rdfs:subPropertyOf q
	supClass map[rdf.Term][]rdf.Term // C -> D of C rdfs:subClassOf D
	subClass map[rdf.Term][]rdf.Term // D -> C of C rdfs:subClassOf D
	members  map[rdf.Term][]rdf.Term // C -> s of s rdf:type C
}

// Infer returns the triples the RDFS entailment rules add to the graph of
// triples, each once and none of the graph's own, in the order they are
// found. The graph itself is not changed: validate the triples and these
// together.
func Infer(triples []rdf.Triple) []rdf.Triple {
	c := &closure{
		have:     make(map[rdf.Triple]bool, len(triples)),
		byPred:   map[string][]rdf.Triple{},
		domains:  map[string][]rdf.Term{},
		ranges:   map[string][]rdf.Term{},
		supProp:  map[rdf.Term][]rdf.Term{},
		subProp:  map[rdf.Term][]rdf.Term{},
		supClass: map[rdf.Term][]rdf.Term{},
		subClass: map[rdf.Term][]rdf.Term{},
		members:  map[rdf.Term][]rdf.Term{},
	}
	for _, t := range triples {
		c.put(t, false)
	}
	res := rdf.NewIRI(resource)
	for _, t := range triples {
		c.put(rdf.T(t.S, rdf.RDFType, res), true) // rdfs4a
		c.put(rdf.T(t.O, rdf.RDFType, res), true) // rdfs4b
	}
	for len(c.queue) > 0 {
		t := c.queue[0]
		c.queue = c.queue[1:]
		c.draw(t)
	}
	return c.added
}

// put adds t to the graph, indexed and queued, unless it is there already;
// inferred says whether Infer returns it.
func (c *closure) put(t rdf.Triple, inferred bool) {
	if c.have[t] {
		return
	}
	c.have[t] = true
	if inferred {
		c.added = append(c.added, t)
	}
	c.queue = append(c.queue, t)
	c.byPred[t.P] = append(c.byPred[t.P], t)
	switch t.P {
	case domain:
		if t.S.Kind == rdf.IRI {
			c.domains[t.S.Value] = append(c.domains[t.S.Value], t.O)
		}
	case rangeIRI:
		if t.S.Kind == rdf.IRI {
			c.ranges[t.S.Value] = append(c.ranges[t.S.Value], t.O)
		}
	case subPropertyOf:
		c.supProp[t.S] = append(c.supProp[t.S], t.O)
		c.subProp[t.O] = append(c.subProp[t.O], t.S)
	case subClassOf:
		c.supClass[t.S] = append(c.supClass[t.S], t.O)
		c.subClass[t.O] = append(c.subClass[t.O], t.S)
	case rdf.RDFType:
		c.members[t.O] = append(c.members[t.O], t.S)
	}
}

// draw adds what the rules conclude from t with the triples of the graph.
// Every pair of premises meets: when the later of the two is drawn, the
// earlier is indexed already.
func (c *closure) draw(t rdf.Triple) {
	typ := func(s rdf.Term, class rdf.Term) { c.put(rdf.T(s, rdf.RDFType, class), true) }
	p := rdf.NewIRI(t.P)
	typ(p, rdf.NewIRI(property)) // rdf1
	for _, cl := range c.domains[t.P] {
		typ(t.S, cl) // rdfs2
	}
	for _, cl := range c.ranges[t.P] {
		typ(t.O, cl) // rdfs3
	}
	for _, q := range c.supProp[p] {
		if q.Kind == rdf.IRI {
			c.put(rdf.T(t.S, q.Value, t.O), true) // rdfs7
		}
	}
	switch t.P {
	case domain, rangeIRI:
		if t.S.Kind == rdf.IRI {
			for _, u := range snapshot(c.byPred[t.S.Value]) {
				if t.P == domain {
					typ(u.S, t.O) // rdfs2
				} else {
					typ(u.O, t.O) // rdfs3
				}
			}
		}
	case subPropertyOf:
		c.transitive(t, subPropertyOf, c.supProp, c.subProp) // rdfs5
		if t.S.Kind == rdf.IRI && t.O.Kind == rdf.IRI {
			for _, u := range snapshot(c.byPred[t.S.Value]) {
				c.put(rdf.T(u.S, t.O.Value, u.O), true) // rdfs7
			}
		}
	case subClassOf:
		c.transitive(t, subClassOf, c.supClass, c.subClass) // rdfs11
		for _, x := range snapshot(c.members[t.S]) {
			typ(x, t.O) // rdfs9
		}
	case rdf.RDFType:
		c.typed(t)
	}
}

// typed draws the conclusions of t, an rdf:type triple.
func (c *closure) typed(t rdf.Triple) {
	for _, d := range snapshot(c.supClass[t.O]) {
		c.put(rdf.T(t.S, rdf.RDFType, d), true) // rdfs9
	}
	if t.O.Kind != rdf.IRI {
		return
	}
	switch t.O.Value {
	case property:
		c.put(rdf.T(t.S, subPropertyOf, t.S), true) // rdfs6
	case class:
		c.put(rdf.T(t.S, subClassOf, rdf.NewIRI(resource)), true) // rdfs8
		c.put(rdf.T(t.S, subClassOf, t.S), true)                  // rdfs10
	case containerMP:
		c.put(rdf.T(t.S, subPropertyOf, rdf.NewIRI(member)), true) // rdfs12
	case datatype:
		c.put(rdf.T(t.S, subClassOf, rdf.NewIRI(literal)), true) // rdfs13
	}
}

// transitive draws rdfs5 or rdfs11 for t, a triple a pred b: a pred c for
// every b pred c, and x pred b for every x pred a.
func (c *closure) transitive(t rdf.Triple, pred string, up, down map[rdf.Term][]rdf.Term) {
	for _, o := range snapshot(up[t.O]) {
		c.put(rdf.T(t.S, pred, o), true)
	}
	for _, s := range snapshot(down[t.S]) {
		c.put(rdf.T(s, pred, t.O), true)
	}
}

// snapshot returns a copy of s, which put may grow while it is walked.
func snapshot[T any](s []T) []T { return append([]T(nil), s...) }
