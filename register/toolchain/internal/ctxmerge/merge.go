// Package ctxmerge is the algebra of JSON-LD contexts as the OGC tool
// chain's Python does it on plain dicts, apart from where the contexts come
// from: merging one context into another (Merge), merging the entries of a
// context array (MergeDicts), the marker of a term whose @id is not known
// yet (Undefined) and its pruning, lifting @nest contexts (FixNest),
// containment (DictContains) and expanding compact IRIs (ExpandCURIE). The
// tool chain's annotation and context building both use it; the results
// must match its own byte for byte, so each rule follows the tool chain's,
// quirks included.
package ctxmerge

import (
	"fmt"
	"strings"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Undefined marks, while a context is built, a term whose property has
// no @id of its own yet; a later definition with one fills it in, and those
// left are removed (PruneUndefined). It is false as a condition.
type Undefined struct{}

// Truthy reports that the marker is false as a condition.
func (Undefined) Truthy() bool { return false }

// Merge merges context b into context a, in place, as the tool
// chain does when it composes the contributions of subschemas: for each
// term of a, b's definition (a string stands for {"@id": s}) sets its
// keywords on a's, @context members merge recursively, and an undefined @id
// in b takes a's; terms only b has are added. Every string definition of a
// becomes an object. It returns a, or b when a is empty.
func Merge(a, b any) (any, error) {
	if !ojson.Truthy(b) {
		return a, nil
	}
	ao, ok := a.(*ojson.Object)
	if !ojson.Truthy(a) {
		if ok && ao != nil {
			ao.Update(b.(*ojson.Object))
			return ao, nil
		}
		return b, nil
	}
	bo, okb := b.(*ojson.Object)
	if !ok || !okb {
		return nil, fmt.Errorf("cannot merge a context that is not an object")
	}
	for _, term := range ao.Keys() {
		va := ao.Value(term)
		vb := bo.Value(term)
		if ldctx.IsKeyword(term) {
			if ojson.Truthy(vb) {
				ao.Set(term, vb)
			}
			continue
		}
		if s, ok := va.(string); ok {
			o := ojson.NewObject()
			o.Set("@id", s)
			va = o
			ao.Set(term, o)
		}
		if s, ok := vb.(string); ok {
			o := ojson.NewObject()
			o.Set("@id", s)
			vb = o
		}
		vbo, _ := vb.(*ojson.Object)
		if !ojson.Truthy(vbo) {
			continue
		}
		vao, ok := va.(*ojson.Object)
		if !ok {
			return nil, fmt.Errorf("term %q: cannot merge definitions of %s and %s", term, TypeName(va), TypeName(vb))
		}
		if vbo.Value("@id") == (Undefined{}) && vao.Has("@id") {
			vbo.Set("@id", vao.Value("@id"))
		}
		for _, k := range vbo.Keys() {
			if k != "@context" {
				vao.Set(k, vbo.Value(k))
			}
		}
		if !vbo.Has("@context") {
			continue
		}
		cb := vbo.Value("@context")
		ca, has := vao.Get("@context")
		switch {
		case !has:
			vao.Set("@context", cb)
		case isList(ca):
			if lb, ok := cb.([]any); ok {
				vao.Set("@context", append(ca.([]any), lb...))
			} else {
				vao.Set("@context", append(ca.([]any), cb))
			}
		case isList(cb):
			vao.Set("@context", append([]any{ca}, cb.([]any)...))
		default:
			m, err := Merge(ca, cb)
			if err != nil {
				return nil, fmt.Errorf("term %q: %w", term, err)
			}
			vao.Set("@context", m)
		}
	}
	for _, t := range bo.Keys() {
		if !ao.Has(t) {
			ao.Set(t, bo.Value(t))
		}
	}
	return ao, nil
}

// MergeInto merges b into the object a (see Merge).
func MergeInto(a *ojson.Object, b any) error {
	_, err := Merge(a, b)
	return err
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// DictContains reports whether every member of smaller is in greater with
// an equal value, objects compared the same way, recursively.
func DictContains(greater, smaller *ojson.Object) bool {
	for _, k := range smaller.Keys() {
		gv, ok := greater.Get(k)
		if !ok {
			return false
		}
		v := smaller.Value(k)
		if vo, ok := v.(*ojson.Object); ok {
			go_, ok := gv.(*ojson.Object)
			if !ok || !DictContains(go_, vo) {
				return false
			}
		} else if !pyEqual(gv, v) {
			return false
		}
	}
	return true
}

// pyEqual compares two values as the tool chain's == does, the undefined
// marker equal only to itself.
func pyEqual(a, b any) bool {
	if a == (Undefined{}) || b == (Undefined{}) {
		return a == b
	}
	return ojson.Equal(a, b)
}

// PruneUndefined removes every "@id" member whose value is the undefined
// marker, at any depth.
func PruneUndefined(v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			PruneUndefined(e)
		}
	case *ojson.Object:
		for _, k := range x.Keys() {
			e := x.Value(k)
			if k == "@id" && e == (Undefined{}) {
				x.Delete(k)
				continue
			}
			PruneUndefined(e)
		}
	}
}

// FixNest moves the scoped context of a term whose @id is @nest into the
// context holding the term, innermost first, as the tool chain does for
// the processors that do not follow it.
func FixNest(ctx *ojson.Object) error {
	for _, term := range ctx.Keys() {
		if len(term) > 0 && term[0] == '@' {
			continue
		}
		tv, ok := ctx.Value(term).(*ojson.Object)
		if !ok || !ojson.Truthy(tv) || !ojson.Truthy(tv.Value("@context")) {
			continue
		}
		if inner, ok := tv.Value("@context").(*ojson.Object); ok {
			if err := FixNest(inner); err != nil {
				return err
			}
		}
		if tv.Value("@id") == "@nest" {
			if err := MergeInto(ctx, tv.Pop("@context", nil)); err != nil {
				return err
			}
		}
	}
	return nil
}

// ExpandCURIE expands "prefix:local" when a context of the stack, innermost
// first, defines prefix, and records the prefix as used.
func ExpandCURIE(s string, stack []*ojson.Object, prefixes *ojson.Object) (string, error) {
	if len(stack) == 0 || s == "" || ldctx.IsKeyword(s) {
		return s, nil
	}
	prefix, local, ok := strings.Cut(s, ":")
	if !ok || local == "" {
		return s, nil
	}
	for i := len(stack) - 1; i >= 0; i-- {
		tv, ok := stack[i].Get(prefix)
		if !ok {
			continue
		}
		var iri string
		switch t := tv.(type) {
		case string:
			iri = t
		case *ojson.Object:
			id, ok := t.Value("@id").(string)
			if !ok {
				return "", fmt.Errorf("%q uses the prefix %q, whose definition has no @id", s, prefix)
			}
			iri = id
		default:
			return "", fmt.Errorf("%q uses the prefix %q, which is not defined by an IRI", s, prefix)
		}
		prefixes.Set(prefix, iri)
		return iri + local, nil
	}
	return s, nil
}

// MergeDicts merges src into dst as the tool chain merges the entries of a
// context array: members of src replace those of dst, objects merged member
// by member. When dst holds a string where src has an object, the object's
// plain members are lost (as in the tool chain); deeper objects cannot be
// merged into a string, which is an error.
func MergeDicts(src, dst *ojson.Object) error {
	for _, k := range src.Keys() {
		v := src.Value(k)
		if vo, ok := v.(*ojson.Object); ok {
			node := dst.SetDefault(k, ojson.NewObject())
			no, ok := node.(*ojson.Object)
			if !ok {
				for _, kk := range vo.Keys() {
					if _, isObj := vo.Value(kk).(*ojson.Object); isObj {
						return fmt.Errorf("term %q is a string in one context of the array and an object in another", k)
					}
				}
				continue
			}
			if err := MergeDicts(vo, no); err != nil {
				return err
			}
			continue
		}
		dst.Set(k, v)
	}
	return nil
}

func TypeName(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case []any:
		return "list"
	case *ojson.Object:
		return "object"
	case nil:
		return "null"
	}
	return "number"
}
