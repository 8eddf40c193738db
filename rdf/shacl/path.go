package shacl

import (
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// pathKind tells what a property path is.
type pathKind uint8

const (
	pathPredicate pathKind = iota
	pathInverse
	pathSequence
	pathAlternative
	pathZeroOrMore
	pathOneOrMore
	pathZeroOrOne
)

// Path is a SHACL property path.
type Path struct {
	kind pathKind
	iri  string  // a predicate path's IRI
	ref  ref     // its constant
	subs []*Path // the paths it is made of
}

// IRI returns the predicate of a path that is one predicate, and "" for
// any other path.
func (p *Path) IRI() string {
	if p == nil || p.kind != pathPredicate {
		return ""
	}
	return p.iri
}

// String returns the path in SPARQL's property path syntax, IRIs in
// angle brackets: <p>/^<q>, (<a>|<b>)*.
func (p *Path) String() string {
	var b strings.Builder
	p.write(&b, false)
	return b.String()
}

func (p *Path) write(b *strings.Builder, nested bool) {
	switch p.kind {
	case pathPredicate:
		b.WriteString("<" + p.iri + ">")
	case pathInverse:
		b.WriteByte('^')
		p.subs[0].write(b, true)
	case pathSequence, pathAlternative:
		if nested {
			b.WriteByte('(')
		}
		for i, s := range p.subs {
			if i > 0 {
				if p.kind == pathSequence {
					b.WriteByte('/')
				} else {
					b.WriteByte('|')
				}
			}
			s.write(b, true)
		}
		if nested {
			b.WriteByte(')')
		}
	default:
		p.subs[0].write(b, true)
		b.WriteByte("*+?"[p.kind-pathZeroOrMore])
	}
}

// Triples returns the path as the SHACL path syntax writes it: its node
// (an IRI, or a blank node made by blank) and the triples that describe
// it.
func (p *Path) Triples(blank func() rdf.Term) (rdf.Term, []rdf.Triple) {
	var ts []rdf.Triple
	var node func(p *Path) rdf.Term
	list := func(items []*Path) rdf.Term {
		head := rdf.NewIRI(rdf.RDFNil)
		for i := len(items) - 1; i >= 0; i-- {
			n := blank()
			ts = append(ts, rdf.T(n, rdf.RDFFirst, node(items[i])), rdf.T(n, rdf.RDFRest, head))
			head = n
		}
		return head
	}
	node = func(p *Path) rdf.Term {
		switch p.kind {
		case pathPredicate:
			return rdf.NewIRI(p.iri)
		case pathSequence:
			return list(p.subs)
		case pathAlternative:
			n := blank()
			ts = append(ts, rdf.T(n, shAlternativePath, list(p.subs)))
			return n
		}
		n := blank()
		pred := map[pathKind]string{pathInverse: shInversePath, pathZeroOrMore: shZeroOrMorePath,
			pathOneOrMore: shOneOrMorePath, pathZeroOrOne: shZeroOrOnePath}[p.kind]
		ts = append(ts, rdf.T(n, pred, node(p.subs[0])))
		return n
	}
	return node(p), ts
}

// parsePath reads the path whose node is n in the shapes graph, per the
// syntax rules of SHACL 2.3.1: an IRI, a list of two or more paths (a
// sequence), or a blank node with exactly one of sh:inversePath,
// sh:alternativePath (a list of two or more), sh:zeroOrMorePath,
// sh:oneOrMorePath or sh:zeroOrOnePath. A blank node that is a list and
// has one of these too is read as the list.
//
// A path nested more than 64 deep (a cycle, say) is an error, and so is
// one of more than 512 parts in all: a node the path holds twice is read
// twice, and nodes that each hold the next twice made a path of 2^60 parts
// from 60 of them.
func (c *compiler) parsePath(n rdf.Term, depth int) (*Path, error) {
	if depth == 0 {
		c.pathParts = 0
	}
	if depth > 64 {
		return nil, fmt.Errorf("path nested more than 64 deep (a cycle?)")
	}
	if c.pathParts++; c.pathParts > maxParts {
		return nil, fmt.Errorf("path of more than %d parts (a node it holds many times?)", maxParts)
	}
	switch n.Kind {
	case rdf.IRI:
		if n.Value == rdf.RDFNil {
			return nil, fmt.Errorf("rdf:nil is not a path")
		}
		return &Path{kind: pathPredicate, iri: n.Value, ref: c.ref(n)}, nil
	case rdf.Literal:
		return nil, fmt.Errorf("a literal (%s) is not a path", c.describe(n))
	}
	if c.has(n, rdf.RDFFirst) {
		items, err := c.list(n)
		if err != nil {
			return nil, err
		}
		if len(items) < 2 {
			return nil, fmt.Errorf("a sequence path needs at least two members, %s has %d", c.describe(n), len(items))
		}
		return c.parsePaths(pathSequence, items, depth)
	}
	for _, k := range []struct {
		pred string
		kind pathKind
	}{{shInversePath, pathInverse}, {shAlternativePath, pathAlternative}, {shZeroOrMorePath, pathZeroOrMore},
		{shOneOrMorePath, pathOneOrMore}, {shZeroOrOnePath, pathZeroOrOne}} {
		vs := c.values(n, k.pred)
		if len(vs) == 0 {
			continue
		}
		if len(vs) > 1 {
			return nil, fmt.Errorf("a path has more than one %s", short(k.pred))
		}
		if k.kind == pathAlternative {
			items, err := c.list(vs[0])
			if err != nil {
				return nil, err
			}
			if len(items) < 2 {
				return nil, fmt.Errorf("an alternative path needs at least two members, has %d", len(items))
			}
			return c.parsePaths(pathAlternative, items, depth)
		}
		sub, err := c.parsePath(vs[0], depth+1)
		if err != nil {
			return nil, err
		}
		return &Path{kind: k.kind, subs: []*Path{sub}}, nil
	}
	return nil, fmt.Errorf("%s is not a path: it is not a list and has none of sh:inversePath, sh:alternativePath, sh:zeroOrMorePath, sh:oneOrMorePath, sh:zeroOrOnePath", c.describe(n))
}

func (c *compiler) parsePaths(kind pathKind, items []rdf.Term, depth int) (*Path, error) {
	p := &Path{kind: kind}
	for _, it := range items {
		sub, err := c.parsePath(it, depth+1)
		if err != nil {
			return nil, err
		}
		p.subs = append(p.subs, sub)
	}
	return p, nil
}

// eval adds to out the nodes the path reaches from n, following it
// backwards when inverse is set.
func (v *validator) eval(p *Path, n id, inverse bool, out *nodeSet) {
	g := v.g
	switch p.kind {
	case pathPredicate:
		pred := v.bind[p.ref]
		if inverse {
			for _, e := range g.subjects(pred, n) {
				out.add(e.b)
			}
		} else {
			for _, e := range g.objects(n, pred) {
				out.add(e.b)
			}
		}
	case pathInverse:
		v.eval(p.subs[0], n, !inverse, out)
	case pathAlternative:
		for _, s := range p.subs {
			v.eval(s, n, inverse, out)
		}
	case pathSequence:
		cur := newNodeSet(n)
		for i := range p.subs {
			s := p.subs[i]
			if inverse {
				s = p.subs[len(p.subs)-1-i]
			}
			var next nodeSet
			for _, m := range cur.list {
				v.eval(s, m, inverse, &next)
			}
			cur = next
		}
		for _, m := range cur.list {
			out.add(m)
		}
	case pathZeroOrOne:
		out.add(n)
		v.eval(p.subs[0], n, inverse, out)
	case pathZeroOrMore, pathOneOrMore:
		var seen nodeSet
		if p.kind == pathZeroOrMore {
			seen.add(n)
		}
		start := newNodeSet(n)
		frontier := start.list
		for len(frontier) > 0 {
			var next nodeSet
			for _, m := range frontier {
				v.eval(p.subs[0], m, inverse, &next)
			}
			frontier = frontier[:0:0]
			for _, m := range next.list {
				if seen.add(m) {
					frontier = append(frontier, m)
				}
			}
		}
		for _, m := range seen.list {
			out.add(m)
		}
	}
}

// nodeSet is a set of nodes that keeps the order they were added in.
type nodeSet struct {
	list []id
	in   map[id]struct{} // made once the list is long
}

func newNodeSet(n id) nodeSet { return nodeSet{list: []id{n}} }

// add adds n and reports whether it was new.
func (s *nodeSet) add(n id) bool {
	if s.in != nil {
		if _, ok := s.in[n]; ok {
			return false
		}
		s.in[n] = struct{}{}
		s.list = append(s.list, n)
		return true
	}
	for _, m := range s.list {
		if m == n {
			return false
		}
	}
	s.list = append(s.list, n)
	if len(s.list) > 16 {
		s.in = make(map[id]struct{}, 2*len(s.list))
		for _, m := range s.list {
			s.in[m] = struct{}{}
		}
	}
	return true
}
