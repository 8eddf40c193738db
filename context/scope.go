package context

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/jrpcld/jrpcld/rdf"
)

// Scope is the term definitions in effect for one level of a message: the
// block's context at the top, and under a term with a property-scoped
// context that context over the enclosing one. Both directions use it: the
// mapping to know which values are @json (opaque data) and which objects
// become nodes, the way back to name a node's properties. It is safe for
// concurrent use.
type Scope struct {
	terms map[string]*Term
	inv   map[string][]string // property IRI -> the terms for it, shortest first
	reg   *scopes

	mu       sync.Mutex
	children map[string]*Scope // by term name
}

// maxScopes bounds the distinct scopes one Processed context keeps: the
// scopes of objects nested beyond are made afresh each time, so that no
// stream of messages, however nested, grows them without end.
const maxScopes = 256

// scopes holds the distinct scopes of one context: objects nested under
// terms with scoped contexts reuse the scope of an equal set of terms, and
// at most maxScopes are kept.
type scopes struct {
	mu    sync.Mutex
	byKey map[string]*Scope
	ids   map[*Term]int
}

func newScope(terms map[string]*Term, reg *scopes) *Scope {
	s := &Scope{terms: terms, inv: map[string][]string{}, reg: reg}
	for name, t := range terms {
		if t.ID == "" || t.Reverse || strings.HasPrefix(t.ID, "@") || strings.HasPrefix(t.ID, "_:") {
			continue
		}
		s.inv[t.ID] = append(s.inv[t.ID], name)
	}
	for _, names := range s.inv {
		sort.Slice(names, func(i, j int) bool {
			if len(names[i]) != len(names[j]) {
				return len(names[i]) < len(names[j])
			}
			return names[i] < names[j]
		})
	}
	return s
}

// Terms returns the term definitions of the scope, by name, including
// terms mapped to null. The map must not be changed.
func (s *Scope) Terms() map[string]*Term { return s.terms }

// TermsFor returns the names of the terms that map the property IRI iri,
// shortest first. The slice must not be changed.
func (s *Scope) TermsFor(iri string) []string { return s.inv[iri] }

// Term returns the definition of member name, or nil when the context has
// none (or maps it to null).
func (s *Scope) Term(name string) *Term {
	t := s.terms[name]
	if t == nil || t.ID == "" {
		return nil
	}
	return t
}

// Child returns the scope of an object that is the value of member name:
// the term's scoped context over this one, or this one when it has none.
func (s *Scope) Child(name string) *Scope {
	t := s.Term(name)
	if t == nil || t.Scoped == nil {
		return s
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.children[name]; ok {
		return c
	}
	terms := map[string]*Term{}
	if !t.Scoped.Reset {
		for k, v := range s.terms {
			terms[k] = v
		}
	}
	for k, v := range t.Scoped.Terms {
		terms[k] = v
	}
	c, keep := s.reg.intern(terms)
	if keep {
		if s.children == nil {
			s.children = map[string]*Scope{}
		}
		s.children[name] = c
	}
	return c
}

// intern returns the scope of terms: the one already made for the same
// terms, or a new one, which it keeps (and reports so) while there are
// fewer than maxScopes.
func (r *scopes) intern(terms map[string]*Term) (*Scope, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(terms))
	for n := range terms {
		names = append(names, n)
	}
	sort.Strings(names)
	var key strings.Builder
	for _, n := range names {
		id, ok := r.ids[terms[n]]
		if !ok && len(r.ids) < 1<<16 {
			id = len(r.ids) + 1
			r.ids[terms[n]] = id
		}
		if !ok && id == 0 {
			return newScope(terms, r), false
		}
		fmt.Fprintf(&key, "%s\x00%d\x00", n, id)
	}
	if c, ok := r.byKey[key.String()]; ok {
		return c, true
	}
	c := newScope(terms, r)
	if len(r.byKey) >= maxScopes {
		return c, false
	}
	r.byKey[key.String()] = c
	return c, true
}

// Name returns the member name for a property with object o: among the
// terms for the property, the first whose type fits o, else the first.
// It returns "" when no term maps the property.
func (s *Scope) Name(prop string, o rdf.Term) string {
	names := s.inv[prop]
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	for _, n := range names {
		if typeFits(s.terms[n].Type, o) {
			return n
		}
	}
	return names[0]
}

// typeFits reports whether a term with type coercion typ makes values like o.
func typeFits(typ string, o rdf.Term) bool {
	switch o.Kind {
	case rdf.IRI, rdf.Blank:
		return typ == "@id" || typ == "@vocab"
	}
	switch typ {
	case "@json":
		return o.Datatype == rdf.RDFJSON
	case "", "@none":
		return o.Datatype == rdf.XSDString || o.Datatype == rdf.XSDInteger || o.Datatype == rdf.XSDDouble || o.Datatype == rdf.XSDBoolean || o.Lang != ""
	}
	return typ == o.Datatype
}
