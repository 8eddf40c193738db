package convert

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	jsonld "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/internal/turtle"
)

// scope is the term definitions in effect for one level of a message: the
// block's context at the top, and under a term with a property-scoped
// context that context over the enclosing one. Both directions use it: the
// uplift to know which values are @json (opaque data) and which objects
// become nodes, the way back to name a node's properties. It is safe for
// concurrent use.
type scope struct {
	terms map[string]*jsonld.Term
	inv   map[string][]string // property IRI -> the terms for it, shortest first

	mu       sync.Mutex
	children map[string]*scope // by term name
}

// newRootScope processes ctx, the value of a block's "@context".
func newRootScope(ctx any) (*scope, error) {
	c, _, err := jsonld.Parse("block context", map[string]any{"@context": ctx}, nil)
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	return newScope(c.Terms), nil
}

func newScope(terms map[string]*jsonld.Term) *scope {
	s := &scope{terms: terms, inv: map[string][]string{}}
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

// term returns the definition of member name, or nil when the context has
// none (or maps it to null).
func (s *scope) term(name string) *jsonld.Term {
	t := s.terms[name]
	if t == nil || t.ID == "" {
		return nil
	}
	return t
}

// child returns the scope of an object that is the value of member name:
// the term's scoped context over this one, or this one when it has none.
func (s *scope) child(name string) *scope {
	t := s.term(name)
	if t == nil || t.Scoped == nil {
		return s
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.children[name]; ok {
		return c
	}
	terms := map[string]*jsonld.Term{}
	if !t.Scoped.Reset {
		for k, v := range s.terms {
			terms[k] = v
		}
	}
	for k, v := range t.Scoped.Terms {
		terms[k] = v
	}
	c := newScope(terms)
	if s.children == nil {
		s.children = map[string]*scope{}
	}
	s.children[name] = c
	return c
}

// name returns the member name for a property with object o: among the
// terms for the property, the first whose type fits o, else the first.
// It returns "" when no term maps the property.
func (s *scope) name(prop string, o turtle.Term) string {
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
func typeFits(typ string, o turtle.Term) bool {
	switch o.Kind {
	case turtle.IRI, turtle.Blank:
		return typ == "@id" || typ == "@vocab"
	}
	switch typ {
	case "@json":
		return o.Datatype == RDFJSON
	case "", "@none":
		return o.Datatype == XSDStr || o.Datatype == XSDInt || o.Datatype == XSDDbl || o.Datatype == XSDBool || o.Lang != ""
	}
	return typ == o.Datatype
}
