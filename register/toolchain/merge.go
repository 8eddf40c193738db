package toolchain

import (
	"fmt"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// undefinedID marks, while a context is built, a term whose property has
// no @id of its own yet; a later definition with one fills it in, and those
// left are removed (pruneUndefined). It is false as a condition.
type undefinedID struct{}

func (undefinedID) Truthy() bool { return false }

var undefined any = undefinedID{}

// mergeContexts merges context b into context a, in place, as the tool
// chain does when it composes the contributions of subschemas: for each
// term of a, b's definition (a string stands for {"@id": s}) sets its
// keywords on a's, @context members merge recursively, and an undefined @id
// in b takes a's; terms only b has are added. Every string definition of a
// becomes an object. It returns a, or b when a is empty.
func mergeContexts(a, b any) (any, error) {
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
			return nil, fmt.Errorf("term %q: cannot merge definitions of %s and %s", term, typeName(va), typeName(vb))
		}
		if vbo.Value("@id") == undefined && vao.Has("@id") {
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
			m, err := mergeContexts(ca, cb)
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

// mergeInto merges b into the object a (see mergeContexts).
func mergeInto(a *ojson.Object, b any) error {
	_, err := mergeContexts(a, b)
	return err
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// dictContains reports whether every member of smaller is in greater with
// an equal value, objects compared the same way, recursively.
func dictContains(greater, smaller *ojson.Object) bool {
	for _, k := range smaller.Keys() {
		gv, ok := greater.Get(k)
		if !ok {
			return false
		}
		v := smaller.Value(k)
		if vo, ok := v.(*ojson.Object); ok {
			go_, ok := gv.(*ojson.Object)
			if !ok || !dictContains(go_, vo) {
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
	if a == undefined || b == undefined {
		return a == b
	}
	return ojson.Equal(a, b)
}

// pruneUndefined removes every "@id" member whose value is the undefined
// marker, at any depth.
func pruneUndefined(v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			pruneUndefined(e)
		}
	case *ojson.Object:
		for _, k := range x.Keys() {
			e := x.Value(k)
			if k == "@id" && e == undefined {
				x.Delete(k)
				continue
			}
			pruneUndefined(e)
		}
	}
}

// fixNest moves the scoped context of a term whose @id is @nest into the
// context holding the term, innermost first, as the tool chain does for
// the processors that do not follow it.
func fixNest(ctx *ojson.Object) error {
	for _, term := range ctx.Keys() {
		if len(term) > 0 && term[0] == '@' {
			continue
		}
		tv, ok := ctx.Value(term).(*ojson.Object)
		if !ok || !ojson.Truthy(tv) || !ojson.Truthy(tv.Value("@context")) {
			continue
		}
		if inner, ok := tv.Value("@context").(*ojson.Object); ok {
			if err := fixNest(inner); err != nil {
				return err
			}
		}
		if tv.Value("@id") == "@nest" {
			if err := mergeInto(ctx, tv.Pop("@context", nil)); err != nil {
				return err
			}
		}
	}
	return nil
}
