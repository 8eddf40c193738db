// Package ojson holds JSON values whose objects keep their members in the
// order they were written, as the Python dictionaries of the OGC
// building-block tool chain do. The algorithms jrpcld shares with that tool
// chain (annotating a schema from a context, building a context from an
// annotated schema) give results that depend on member order: which prefix
// compacts an IRI, which of two definitions of a term wins.
//
// A value is one of: *Object, []any, string, json.Number, bool, nil.
// Decode reads JSON or YAML into such values; Encode and YAML write them
// back in order; Plain turns them into the map[string]any values the rest
// of jrpcld uses.
package ojson

import (
	"encoding/json"
	"slices"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// Object is a JSON object whose members keep their order: a member set for
// the first time goes last, one set again keeps its place, a deleted one
// leaves the order of the others as it was.
type Object struct {
	keys []string
	vals map[string]any
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{vals: map[string]any{}} }

// Len returns the number of members of o; a nil o has none.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Keys returns the names of o's members in order. The slice is a copy.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return slices.Clone(o.keys)
}

// Get returns the value of member k and whether o has it.
func (o *Object) Get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

// Value returns the value of member k, or nil.
func (o *Object) Value(k string) any {
	v, _ := o.Get(k)
	return v
}

// Has reports whether o has member k.
func (o *Object) Has(k string) bool {
	_, ok := o.Get(k)
	return ok
}

// Set sets member k to v.
func (o *Object) Set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// SetDefault sets member k to v when o does not have it, and returns the
// member's value.
func (o *Object) SetDefault(k string, v any) any {
	if old, ok := o.vals[k]; ok {
		return old
	}
	o.Set(k, v)
	return v
}

// Delete removes member k, if o has it.
func (o *Object) Delete(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
}

// Pop removes member k and returns its value, or def when o does not have it.
func (o *Object) Pop(k string, def any) any {
	v, ok := o.Get(k)
	if !ok {
		return def
	}
	o.Delete(k)
	return v
}

// Object returns member k when it is an object, else nil.
func (o *Object) Object(k string) *Object {
	m, _ := o.Value(k).(*Object)
	return m
}

// String returns member k when it is a string.
func (o *Object) String(k string) (string, bool) {
	s, ok := o.Value(k).(string)
	return s, ok
}

// Update sets the members of p on o, in p's order.
func (o *Object) Update(p *Object) {
	for _, k := range p.Keys() {
		o.Set(k, p.vals[k])
	}
}

// Clone returns a deep copy of v.
func Clone(v any) any {
	switch x := v.(type) {
	case *Object:
		if x == nil {
			return x
		}
		c := &Object{keys: slices.Clone(x.keys), vals: make(map[string]any, len(x.vals))}
		for k, e := range x.vals {
			c.vals[k] = Clone(e)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = Clone(e)
		}
		return c
	}
	return v
}

// A Copier makes deep copies of values that keep what they share: an
// object, or a list, that several of the values copied hold (or one holds
// in several places) is copied once, and the copies hold that one copy.
// Copies made by one Copier share with one another as the originals do.
// A Copier is for one graph of values; its zero value is ready to use.
type Copier struct {
	objs  map[*Object]*Object
	lists map[listID][]any
}

// listID names a list by its elements' array, its length and capacity,
// which together say what an append to it would overwrite.
type listID struct {
	data     *any
	len, cap int
}

// Copy returns a deep copy of v, sharing what it shares with the values
// copied before it.
func (c *Copier) Copy(v any) any {
	switch x := v.(type) {
	case *Object:
		if x == nil {
			return x
		}
		if o, ok := c.objs[x]; ok {
			return o
		}
		if c.objs == nil {
			c.objs = map[*Object]*Object{}
		}
		o := &Object{keys: slices.Clone(x.keys), vals: make(map[string]any, len(x.vals))}
		c.objs[x] = o
		for k, e := range x.vals {
			o.vals[k] = c.Copy(e)
		}
		return o
	case []any:
		if cap(x) == 0 {
			if x == nil {
				return x
			}
			return []any{}
		}
		id := listID{&x[:1][0], len(x), cap(x)}
		if l, ok := c.lists[id]; ok {
			return l
		}
		if c.lists == nil {
			c.lists = map[listID][]any{}
		}
		l := make([]any, len(x), cap(x))
		c.lists[id] = l
		for i, e := range x {
			l[i] = c.Copy(e)
		}
		return l
	}
	return v
}

// Truthy reports whether v is true as a condition in Python: not nil,
// false, zero, an empty string, object or list.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		n, ok := jsonparse.NormalNumber(string(x))
		return !ok || n != "0"
	case *Object:
		return x.Len() > 0
	case []any:
		return len(x) > 0
	case interface{ Truthy() bool }:
		return x.Truthy()
	}
	return true
}

// A Valuer stands for a JSON value it makes only when asked, such as JSON
// text not yet decoded. Equal compares the value JSONValue returns; ok
// false means it stands for no one value, and then it equals nothing.
type Valuer interface {
	JSONValue() (v any, ok bool)
}

// Equal reports whether a and b are equal JSON values: objects (*Object or
// map[string]any) with the same members whatever their order, lists
// element by element, numbers by value, a Valuer by the value it gives.
func Equal(a, b any) bool {
	if v, ok := a.(Valuer); ok {
		if a, ok = v.JSONValue(); !ok {
			return false
		}
	}
	if v, ok := b.(Valuer); ok {
		if b, ok = v.JSONValue(); !ok {
			return false
		}
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			o, isObject := b.(*Object)
			return isObject && Equal(FromPlain(x), o)
		}
		if len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !Equal(e, f) {
				return false
			}
		}
		return true
	case *Object:
		if m, ok := b.(map[string]any); ok {
			b = FromPlain(m)
		}
		y, ok := b.(*Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for _, k := range x.keys {
			yv, ok := y.Get(k)
			if !ok || !Equal(x.vals[k], yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && jsonparse.SameNumber(string(x), string(y))
	}
	return a == b
}

// Plain returns v with every *Object turned into a map[string]any, for the
// parts of jrpcld that do not care about member order.
func Plain(v any) any {
	switch x := v.(type) {
	case *Object:
		if x == nil {
			return map[string]any(nil)
		}
		m := make(map[string]any, len(x.keys))
		for _, k := range x.keys {
			m[k] = Plain(x.vals[k])
		}
		return m
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = Plain(e)
		}
		return c
	}
	return v
}

// FromPlain returns v with every map[string]any turned into an *Object
// whose members are in sorted order.
func FromPlain(v any) any {
	switch x := v.(type) {
	case map[string]any:
		o := NewObject()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			o.Set(k, FromPlain(x[k]))
		}
		return o
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = FromPlain(e)
		}
		return c
	}
	return v
}
