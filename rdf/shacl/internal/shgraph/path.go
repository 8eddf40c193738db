package shgraph

import (
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/rdf"
)

// The SHACL terms paths are written with.
const (
	shNS              = "http://www.w3.org/ns/shacl#"
	shInversePath     = shNS + "inversePath"
	shAlternativePath = shNS + "alternativePath"
	shZeroOrMorePath  = shNS + "zeroOrMorePath"
	shOneOrMorePath   = shNS + "oneOrMorePath"
	shZeroOrOnePath   = shNS + "zeroOrOnePath"
)

// maxParts bounds the parts of one path.
const maxParts = limits.Depth

// Ref names a constant of the shapes, which a validation looks up in the
// data graph: a predicate path's predicate, for one.
type Ref int32

// Reader is what Parse reads a path's description with: the shapes graph
// as the shapes' compiler sees it.
type Reader interface {
	// Values returns the objects of n and pred.
	Values(n rdf.Term, pred string) []rdf.Term
	// List returns the members of the list whose head is n, or an error
	// when it is not a well-formed list.
	List(n rdf.Term) ([]rdf.Term, error)
	// Describe names n for people, in an error message.
	Describe(n rdf.Term) string
	// Ref returns the constant that stands for n.
	Ref(n rdf.Term) Ref
}

// Kind tells what a property path is.
type Kind uint8

const (
	Predicate Kind = iota
	Inverse
	Sequence
	Alternative
	ZeroOrMore
	OneOrMore
	ZeroOrOne
)

// Path is a SHACL property path.
type Path struct {
	kind Kind
	iri  string  // a predicate path's IRI
	ref  Ref     // its constant
	subs []*Path // the paths it is made of
}

// NewPredicate returns the path of one predicate, iri, whose constant is
// ref.
func NewPredicate(iri string, ref Ref) *Path { return &Path{kind: Predicate, iri: iri, ref: ref} }

// KindOf returns what p is.
func KindOf(p *Path) Kind { return p.kind }

// Parts returns the paths p is made of: none for a predicate path, one
// for an inverse path or a path with *, + or ?.
func Parts(p *Path) []*Path { return p.subs }

// PredicateRef returns the constant of a path that is one predicate, and
// false for any other path.
func PredicateRef(p *Path) (Ref, bool) { return p.ref, p.kind == Predicate }

// IRI returns the predicate of a path that is one predicate, and "" for
// any other path.
func (p *Path) IRI() string {
	if p == nil || p.kind != Predicate {
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
	case Predicate:
		b.WriteString("<" + p.iri + ">")
	case Inverse:
		b.WriteByte('^')
		p.subs[0].write(b, true)
	case Sequence, Alternative:
		if nested {
			b.WriteByte('(')
		}
		for i, s := range p.subs {
			if i > 0 {
				if p.kind == Sequence {
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
		b.WriteByte("*+?"[p.kind-ZeroOrMore])
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
		case Predicate:
			return rdf.NewIRI(p.iri)
		case Sequence:
			return list(p.subs)
		case Alternative:
			n := blank()
			ts = append(ts, rdf.T(n, shAlternativePath, list(p.subs)))
			return n
		}
		n := blank()
		pred := map[Kind]string{Inverse: shInversePath, ZeroOrMore: shZeroOrMorePath,
			OneOrMore: shOneOrMorePath, ZeroOrOne: shZeroOrOnePath}[p.kind]
		ts = append(ts, rdf.T(n, pred, node(p.subs[0])))
		return n
	}
	return node(p), ts
}

// Parse reads the path whose node is n in the shapes graph, per the
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
func Parse(n rdf.Term, r Reader) (*Path, error) {
	p := &parser{r: r}
	return p.parse(n, 0)
}

// parser reads one path, counting its parts.
type parser struct {
	r     Reader
	parts int
}

func (c *parser) parse(n rdf.Term, depth int) (*Path, error) {
	if depth > 64 {
		return nil, fmt.Errorf("path nested more than 64 deep (a cycle?)")
	}
	if c.parts++; c.parts > maxParts {
		return nil, fmt.Errorf("path of more than %d parts (a node it holds many times?)", maxParts)
	}
	switch n.Kind {
	case rdf.IRI:
		if n.Value == rdf.RDFNil {
			return nil, fmt.Errorf("rdf:nil is not a path")
		}
		return &Path{kind: Predicate, iri: n.Value, ref: c.r.Ref(n)}, nil
	case rdf.Literal:
		return nil, fmt.Errorf("a literal (%s) is not a path", c.r.Describe(n))
	}
	if len(c.r.Values(n, rdf.RDFFirst)) > 0 {
		items, err := c.r.List(n)
		if err != nil {
			return nil, err
		}
		if len(items) < 2 {
			return nil, fmt.Errorf("a sequence path needs at least two members, %s has %d", c.r.Describe(n), len(items))
		}
		return c.parseAll(Sequence, items, depth)
	}
	for _, k := range []struct {
		pred string
		kind Kind
	}{{shInversePath, Inverse}, {shAlternativePath, Alternative}, {shZeroOrMorePath, ZeroOrMore},
		{shOneOrMorePath, OneOrMore}, {shZeroOrOnePath, ZeroOrOne}} {
		vs := c.r.Values(n, k.pred)
		if len(vs) == 0 {
			continue
		}
		if len(vs) > 1 {
			return nil, fmt.Errorf("a path has more than one %s", "sh:"+k.pred[len(shNS):])
		}
		if k.kind == Alternative {
			items, err := c.r.List(vs[0])
			if err != nil {
				return nil, err
			}
			if len(items) < 2 {
				return nil, fmt.Errorf("an alternative path needs at least two members, has %d", len(items))
			}
			return c.parseAll(Alternative, items, depth)
		}
		sub, err := c.parse(vs[0], depth+1)
		if err != nil {
			return nil, err
		}
		return &Path{kind: k.kind, subs: []*Path{sub}}, nil
	}
	return nil, fmt.Errorf("%s is not a path: it is not a list and has none of sh:inversePath, sh:alternativePath, sh:zeroOrMorePath, sh:oneOrMorePath, sh:zeroOrOnePath", c.r.Describe(n))
}

func (c *parser) parseAll(kind Kind, items []rdf.Term, depth int) (*Path, error) {
	p := &Path{kind: kind}
	for _, it := range items {
		sub, err := c.parse(it, depth+1)
		if err != nil {
			return nil, err
		}
		p.subs = append(p.subs, sub)
	}
	return p, nil
}

// Eval adds to out the nodes the path p reaches from n in g, following it
// backwards when inverse is set; consts gives the number in g of each
// constant (Ref) of the shapes.
func Eval(g *Graph, consts []ID, p *Path, n ID, inverse bool, out *NodeSet) {
	switch p.kind {
	case Predicate:
		pred := consts[p.ref]
		if inverse {
			for _, e := range g.Subjects(pred, n) {
				out.Add(e.B)
			}
		} else {
			for _, e := range g.Objects(n, pred) {
				out.Add(e.B)
			}
		}
	case Inverse:
		Eval(g, consts, p.subs[0], n, !inverse, out)
	case Alternative:
		for _, s := range p.subs {
			Eval(g, consts, s, n, inverse, out)
		}
	case Sequence:
		cur := NewNodeSet(n)
		for i := range p.subs {
			s := p.subs[i]
			if inverse {
				s = p.subs[len(p.subs)-1-i]
			}
			var next NodeSet
			for _, m := range cur.list {
				Eval(g, consts, s, m, inverse, &next)
			}
			cur = next
		}
		for _, m := range cur.list {
			out.Add(m)
		}
	case ZeroOrOne:
		out.Add(n)
		Eval(g, consts, p.subs[0], n, inverse, out)
	case ZeroOrMore, OneOrMore:
		var seen NodeSet
		if p.kind == ZeroOrMore {
			seen.Add(n)
		}
		start := NewNodeSet(n)
		frontier := start.list
		for len(frontier) > 0 {
			var next NodeSet
			for _, m := range frontier {
				Eval(g, consts, p.subs[0], m, inverse, &next)
			}
			frontier = frontier[:0:0]
			for _, m := range next.list {
				if seen.Add(m) {
					frontier = append(frontier, m)
				}
			}
		}
		for _, m := range seen.list {
			out.Add(m)
		}
	}
}

// NodeSet is a set of nodes that keeps the order they were added in; its
// zero value is the empty set.
type NodeSet struct {
	list []ID
	in   map[ID]struct{} // made once the list is long
}

// NewNodeSet returns the set of n.
func NewNodeSet(n ID) NodeSet { return NodeSet{list: []ID{n}} }

// Nodes returns the nodes of the set, in the order they were added; the
// caller must not change them.
func (s *NodeSet) Nodes() []ID { return s.list }

// Add adds n and reports whether it was new.
func (s *NodeSet) Add(n ID) bool {
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
		s.in = make(map[ID]struct{}, 2*len(s.list))
		for _, m := range s.list {
			s.in[m] = struct{}{}
		}
	}
	return true
}
