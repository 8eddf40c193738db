package schemaprops

import (
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// node is one entry of the resolved properties: a property, or a node the
// tool chain adds for an anyOf or oneOf (keyword "anyOf", "oneOf"), one of
// its branches ("branch") or a then or else ("then", "else"). Values are
// nil where the tool chain has None.
type node struct {
	path                  []string
	id, jsonldType, vocab any
	title, description    any
	required              bool
	schemaType, format    any
	enum, constant        any
	deprecated, readOnly  bool
	writeOnly             bool
	sources               []Source
	keyword               string
	ref                   string // the key of the definition the node's content is in
}

// sep joins the parts of a path into a key, as the tool chain does.
const sep = "\x00"

func (n *node) key() string { return strings.Join(n.path, sep) }

func (n *node) parentKey() string { return strings.Join(n.path[:len(n.path)-1], sep) }

func (n *node) clone() *node {
	c := *n
	c.path = slices.Clone(n.path)
	c.sources = slices.Clone(n.sources)
	c.enum = ojson.Clone(n.enum)
	c.constant = ojson.Clone(n.constant)
	return &c
}

// merge merges another occurrence of the same path into n, as the tool
// chain's ResolvedProperty.merge does: what n lacks comes from o, the
// types and enum values are those both allow, a flag set in either is
// set, and o's sources are added.
func (n *node) merge(o *node) {
	for _, f := range []struct{ mine, theirs *any }{
		{&n.id, &o.id}, {&n.jsonldType, &o.jsonldType}, {&n.vocab, &o.vocab},
		{&n.title, &o.title}, {&n.description, &o.description}, {&n.format, &o.format},
	} {
		if *f.mine == nil {
			*f.mine = *f.theirs
		}
	}
	a, b := typeSet(n.schemaType), typeSet(o.schemaType)
	switch {
	case a == nil:
		n.schemaType = o.schemaType
	case b != nil:
		var both []any
		for _, t := range a {
			if slices.ContainsFunc(b, func(u any) bool { return ojson.Equal(t, u) }) {
				both = append(both, t)
			}
		}
		n.schemaType = packTypes(both)
	}
	if n.enum == nil {
		n.enum = o.enum
	} else if o.enum != nil {
		mine, _ := n.enum.([]any)
		theirs, _ := o.enum.([]any)
		kept := []any{}
		for _, v := range mine {
			if slices.ContainsFunc(theirs, func(u any) bool { return ojson.Equal(v, u) }) {
				kept = append(kept, v)
			}
		}
		n.enum = kept
	}
	if n.constant == nil {
		n.constant = o.constant
	}
	n.required = n.required || o.required
	n.deprecated = n.deprecated || o.deprecated
	n.readOnly = n.readOnly || o.readOnly
	n.writeOnly = n.writeOnly || o.writeOnly
	for _, s := range o.sources {
		if !slices.Contains(n.sources, s) {
			n.sources = append(n.sources, s)
		}
	}
}

// typeSet returns a schema's type as a set (a list without repeats), nil
// for none.
func typeSet(t any) []any {
	switch x := t.(type) {
	case nil:
		return nil
	case []any:
		var out []any
		for _, e := range x {
			if !slices.ContainsFunc(out, func(u any) bool { return ojson.Equal(e, u) }) {
				out = append(out, e)
			}
		}
		return out
	}
	return []any{t}
}

// packTypes writes a set of types as the tool chain does: nil when empty
// (the types are incompatible), the type alone, or the sorted list.
func packTypes(s []any) any {
	switch len(s) {
	case 0:
		return nil
	case 1:
		return s[0]
	}
	out := slices.Clone(s)
	slices.SortFunc(out, func(a, b any) int {
		as, _ := a.(string)
		bs, _ := b.(string)
		return strings.Compare(as, bs)
	})
	return out
}

// sameDefinition reports whether two occurrences of a property in
// branches may be lifted out of them: the same type, id, enum and const.
func sameDefinition(a, b *node) bool {
	return ojson.Equal(a.schemaType, b.schemaType) && ojson.Equal(a.id, b.id) &&
		ojson.Equal(a.enum, b.enum) && ojson.Equal(a.constant, b.constant)
}

// effectiveID is the IRI the property maps to: its @id, else the @vocab in
// effect followed by its name; nil for none.
func (n *node) effectiveID() any {
	if ojson.Truthy(n.id) {
		return n.id
	}
	if v, ok := n.vocab.(string); ok && v != "" && len(n.path) > 0 {
		return v + n.path[len(n.path)-1]
	}
	return nil
}

// nodeMap holds nodes by key in the order they were put, as a Python dict
// does: a key deleted and put again goes to the end.
type nodeMap struct {
	order []*node // nil where a node was deleted
	index map[string]int
}

func (m *nodeMap) get(k string) *node {
	if i, ok := m.index[k]; ok {
		return m.order[i]
	}
	return nil
}

func (m *nodeMap) put(n *node) {
	if m.index == nil {
		m.index = map[string]int{}
	}
	k := n.key()
	if i, ok := m.index[k]; ok {
		m.order[i] = n
		return
	}
	m.index[k] = len(m.order)
	m.order = append(m.order, n)
}

func (m *nodeMap) del(k string) *node {
	i, ok := m.index[k]
	if !ok {
		return nil
	}
	n := m.order[i]
	m.order[i] = nil
	delete(m.index, k)
	return n
}

func (m *nodeMap) has(k string) bool {
	_, ok := m.index[k]
	return ok
}

// all returns the nodes in order.
func (m *nodeMap) all() []*node {
	out := make([]*node, 0, len(m.index))
	for _, n := range m.order {
		if n != nil {
			out = append(out, n)
		}
	}
	return out
}
