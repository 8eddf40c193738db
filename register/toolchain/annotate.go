package toolchain

import (
	"errors"
	"fmt"
	"strings"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/register/toolchain/internal/ctxmerge"
)

// Annotation keywords written into and read from annotated schemas.
const (
	annPrefix     = "x-jsonld-"
	annID         = "x-jsonld-id"
	annBase       = "x-jsonld-base"
	annVocab      = "x-jsonld-vocab"
	annExtraTerms = "x-jsonld-extra-terms"
	annPrefixes   = "x-jsonld-prefixes"
	annContext    = "x-jsonld-context"
)

// annotate annotates block b's schema as the tool chain does: its
// references rewritten (see rewriteRefs), then each property whose name is
// a term of the block's own context (its context.jsonld, or the file
// bblock.json names, merged with any x-jsonld-context of the schema) gets
// the term's keywords as x-jsonld-*; terms no property reachable from the
// root uses go to x-jsonld-extra-terms, or x-jsonld-prefixes when they end
// in '#', '/' or ':'; the context's @base and @vocab become x-jsonld-base and
// x-jsonld-vocab at the root. The contexts of other blocks play no part.
func (tc *toolchain) annotate(b *bblock.Block) (*ojson.Object, []ldctx.Warning, error) {
	tc.mu.Lock()
	r, ok := tc.annotated[b.ID]
	if !ok {
		r = &annotateResult{done: make(chan struct{})}
		tc.annotated[b.ID] = r
	}
	tc.mu.Unlock()
	if ok {
		<-r.done
		return r.doc, r.warns, r.err
	}
	r.doc, r.warns, r.err = tc.doAnnotate(b)
	close(r.done)
	return r.doc, r.warns, r.err
}

func (tc *toolchain) doAnnotate(b *bblock.Block) (*ojson.Object, []ldctx.Warning, error) {
	if b.Files.Schema == "" {
		return nil, nil, fmt.Errorf("block %s: %w", b.ID, ErrNoSchema)
	}
	var warns []ldctx.Warning
	loc, err := sourceLoc(b, b.Files.Schema)
	if err != nil {
		return nil, nil, err
	}
	raw, err := tc.readRaw(loc)
	if err != nil {
		return nil, nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	schema, ok := ojson.Clone(raw).(*ojson.Object)
	if !ok {
		return nil, nil, fmt.Errorf("block %s: %s is not a schema object", b.ID, b.Files.Schema)
	}
	if err := tc.rewriteRefs(b, loc, schema); err != nil {
		return nil, nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	if e := b.Meta.Extends; e != nil {
		ref, err := tc.rewriteRef(b, loc, bblock.BlockRefPrefix+e.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("block %s: %s /extends: %w", b.ID, b.Files.Metadata, err)
		}
		var moved bool
		schema, moved = e.Schema(schema, ref)
		if moved {
			warns = append(warns, warning(b.ID+"/"+b.Files.Schema, fmt.Sprintf("extends %s: the schema's references into itself (#/...) are moved with it into the allOf the schema becomes; the OGC tool chain leaves them as written, where they lead nowhere, and cannot annotate the schema", e.ID)))
		}
	}

	res := &contextResolver{tc: tc, warns: &warns}
	ctx, prefixes := ojson.NewObject(), ojson.NewObject()
	own := schema.Pop(annContext, nil)
	if b.Files.Context != "" {
		cloc, err := sourceLoc(b, b.Files.Context)
		if err != nil {
			return nil, warns, err
		}
		doc, err := tc.readContextDoc(cloc, &warns)
		if err != nil {
			return nil, warns, fmt.Errorf("block %s: %w", b.ID, err)
		}
		if o, ok := doc.(*ojson.Object); !ok || !o.Has("@context") {
			// A file holding the term definitions alone stands for them.
			w := ojson.NewObject()
			w.Set("@context", doc)
			doc = w
		}
		rc, err := res.resolve(doc, cloc)
		if err != nil {
			return nil, warns, fmt.Errorf("block %s: %s: %w", b.ID, b.Files.Context, err)
		}
		ctx, prefixes = rc.ctx, rc.prefixes
	}
	if ojson.Truthy(own) {
		rc, err := res.resolve(own, loc)
		if err != nil {
			return nil, warns, fmt.Errorf("block %s: x-jsonld-context: %w", b.ID, err)
		}
		m, err := ctxmerge.Merge(ctx, rc.ctx)
		if err != nil {
			return nil, warns, fmt.Errorf("block %s: x-jsonld-context: %w", b.ID, err)
		}
		ctx = m.(*ojson.Object)
		merged := ojson.Clone(prefixes).(*ojson.Object)
		merged.Update(rc.prefixes)
		prefixes = merged
	}

	a := &annotator{prefixes: prefixes, updated: map[*ojson.Object]bool{}}
	a.refs = schemaRefs{load: tc.loadSchema, walk: &walkStack{}, warn: func(m string) { warns = appendOnce(warns, warning(b.ID+"/"+b.Files.Schema, m)) }}
	root := rootSchema(loc, schema)
	a.refs.walk.push(root)
	if _, err := a.subschema(schema, []*ojson.Object{ctx}, root, 1, false); err != nil {
		return nil, warns, fmt.Errorf("block %s: annotating %s: %w", b.ID, b.Files.Schema, err)
	}
	for _, k := range []string{"@base", "@vocab"} {
		if v := ctx.Value(k); ojson.Truthy(v) {
			schema.Set(annPrefix+k[1:], v)
		}
	}
	if a.prefixes.Len() > 0 {
		schema.Set(annPrefixes, a.prefixes)
	}
	return schema, warns, nil
}

// annotator holds the state of one annotation.
type annotator struct {
	prefixes *ojson.Object
	updated  map[*ojson.Object]bool // objects whose $ref has been followed
	refs     schemaRefs
	depth    nesting
}

// propContext returns the definition of term prop in the context stack,
// innermost first, as x-jsonld-able keywords: a string is {"@id": s}; a
// definition without @id (or @reverse) gets the IRI its compact name
// "prefix:local" expands to, else it is an error (as in the tool chain).
// A name that no context defines but that is a compact IRI of a known
// prefix is mapped to that IRI. nil when prop means nothing.
func (a *annotator) propContext(prop string, stack []*ojson.Object) (*ojson.Object, error) {
	expand := func(name string) (string, bool) {
		pfx, local, ok := strings.Cut(name, ":")
		if !ok {
			return "", false
		}
		if iri, ok := a.prefixes.Value(pfx).(string); ok {
			return iri + local, true
		}
		for i := len(stack) - 1; i >= 0; i-- {
			pv, ok := stack[i].Get(pfx)
			if !ok {
				continue
			}
			switch x := pv.(type) {
			case string:
				return x + local, true
			case *ojson.Object:
				if id, ok := x.Value("@id").(string); ok {
					return id + local, true
				}
			}
			return "", false
		}
		return "", false
	}
	keywordsOf := func(def *ojson.Object) *ojson.Object {
		out := ojson.NewObject()
		for _, k := range def.Keys() {
			if ldctx.IsKeyword(k) {
				out.Set(k, def.Value(k))
			}
		}
		return out
	}
	for i := len(stack) - 1; i >= 0; i-- {
		v, ok := stack[i].Get(prop)
		if !ok {
			continue
		}
		switch def := v.(type) {
		case string:
			o := ojson.NewObject()
			o.Set("@id", def)
			return o, nil
		case *ojson.Object:
			if !def.Has("@id") && !def.Has("@reverse") {
				if iri, ok := expand(prop); ok {
					out := keywordsOf(def)
					out.Set("@id", iri)
					return out, nil
				}
				return nil, fmt.Errorf("the context's term %q has no @id (the OGC tool chain needs one)", prop)
			}
			return keywordsOf(def), nil
		case nil:
			return nil, nil
		default:
			return nil, fmt.Errorf("the context's term %q is a %s, not a definition", prop, ctxmerge.TypeName(v))
		}
	}
	if iri, ok := expand(prop); ok {
		o := ojson.NewObject()
		o.Set("@id", iri)
		return o, nil
	}
	return nil, nil
}

// properties annotates the properties of obj and returns the terms they
// used.
func (a *annotator) properties(obj *ojson.Object, stack []*ojson.Object, from *refSchema, level int) (map[string]bool, error) {
	pv := obj.Value("properties")
	if !ojson.Truthy(pv) {
		return nil, nil
	}
	props, ok := pv.(*ojson.Object)
	if !ok {
		return nil, errors.New(`"properties" must be an object`)
	}
	used := map[string]bool{}
	for _, prop := range props.Keys() {
		if ldctx.IsKeyword(prop) {
			continue
		}
		var value *ojson.Object
		switch x := props.Value(prop).(type) {
		case bool:
			value = ojson.NewObject()
			if !x {
				value.Set("not", true)
			}
			props.Set(prop, value)
		case *ojson.Object:
			value = x
		default:
			continue
		}
		pctx, err := a.propContext(prop, stack)
		if err != nil {
			return nil, err
		}
		next := stack
		if pctx != nil {
			used[prop] = true
			ann := ojson.NewObject()
			for _, k := range pctx.Keys() {
				if ldctx.IsKeyword(k) && k != "@context" {
					ann.Set(annPrefix+k[1:], pctx.Value(k))
				}
			}
			inner, _ := pctx.Value("@context").(*ojson.Object)
			if v := inner.Value("@base"); ojson.Truthy(v) {
				ann.Set(annBase, v)
			}
			if v, ok := inner.Get("@vocab"); ok {
				ann.Set(annVocab, v)
			}
			if value.Len() == 0 {
				props.Set(prop, ann)
			} else {
				for _, k := range ann.Keys() {
					value.SetDefault(k, ann.Value(k))
				}
			}
			if pctx.Has("@context") {
				sc, ok := pctx.Value("@context").(*ojson.Object)
				if !ok {
					return nil, fmt.Errorf("the scoped context of term %q is not an object", prop)
				}
				next = append(stack[:len(stack):len(stack)], sc)
			}
		}
		u, err := a.subschema(value, next, from, level, false)
		if err != nil {
			return nil, err
		}
		for t := range u {
			used[t] = true
		}
	}
	return used, nil
}

// subschema annotates a subschema and returns the terms used below it
// (none inside definitions). level counts the nesting the tool chain
// counts; where it equals the depth of the context stack, the terms of the
// innermost context that nothing used become extra terms of the subschema.
func (a *annotator) subschema(v any, stack []*ojson.Object, from *refSchema, level int, inDefs bool) (map[string]bool, error) {
	s, ok := v.(*ojson.Object)
	if !ok || s.Len() == 0 {
		return nil, nil
	}
	saved, err := a.depth.enter(from)
	if err != nil {
		return nil, err
	}
	defer a.depth.leave(saved)
	used := map[string]bool{}
	add := func(u map[string]bool) {
		if !inDefs {
			for t := range u {
				used[t] = true
			}
		}
	}
	for _, kw := range []string{"definitions", "$defs"} {
		defs, ok := s.Value(kw).(*ojson.Object)
		if !ok {
			continue
		}
		for _, name := range defs.Keys() {
			if _, err := a.subschema(defs.Value(name), stack, from, level+1, true); err != nil {
				return nil, err
			}
		}
	}
	if ref, ok := s.Value("$ref").(string); ok && !a.updated[s] {
		if strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, from.loc+"#") {
			target, err := resolveSchema(ref, from, a.refs)
			if err != nil {
				return nil, err
			}
			if target != nil {
				a.refs.walk.push(target)
				u, err := a.subschema(target.sub, stack, target, level+1, inDefs)
				a.refs.walk.pop(target)
				if err != nil {
					return nil, err
				}
				add(u)
			}
		}
		a.updated[s] = true
	}
	for _, kw := range []string{"oneOf", "allOf", "anyOf"} {
		list, _ := s.Value(kw).([]any)
		for _, e := range list {
			u, err := a.subschema(e, stack, from, level+1, inDefs)
			if err != nil {
				return nil, err
			}
			add(u)
		}
	}
	for _, kw := range []string{"then", "else", "additionalProperties", "unevaluatedProperties"} {
		if br, ok := s.Value(kw).(*ojson.Object); ok && br.Len() > 0 {
			u, err := a.subschema(br, stack, from, level, inDefs)
			if err != nil {
				return nil, err
			}
			add(u)
		}
	}
	if pp, ok := s.Value("patternProperties").(*ojson.Object); ok {
		for _, k := range pp.Keys() {
			if br, ok := pp.Value(k).(*ojson.Object); ok && br.Len() > 0 {
				u, err := a.subschema(br, stack, from, level+1, inDefs)
				if err != nil {
					return nil, err
				}
				add(u)
			}
		}
	}
	typ := s.Value("type")
	if !ojson.Truthy(typ) && s.Has("properties") {
		typ = "object"
	}
	switch typ {
	case "object":
		u, err := a.properties(s, stack, from, level+1)
		if err != nil {
			return nil, err
		}
		add(u)
	case "array":
		for _, kw := range []string{"prefixItems", "items", "contains"} {
			u, err := a.subschema(s.Value(kw), stack, from, level+1, inDefs)
			if err != nil {
				return nil, err
			}
			add(u)
		}
	}
	if sp, ok := s.Value(annPrefixes).(*ojson.Object); ok {
		for _, p := range sp.Keys() {
			if !a.prefixes.Has(p) {
				a.prefixes.Set(p, sp.Value(p))
			}
		}
	}
	if top := stack[len(stack)-1]; len(stack) == level && top.Len() > 0 {
		extra := ojson.NewObject()
		for _, k := range top.Keys() {
			if ldctx.IsKeyword(k) || a.prefixes.Has(k) || used[k] {
				continue
			}
			v := top.Value(k)
			if def, ok := v.(*ojson.Object); ok {
				if def.Len() == 1 && def.Has("@id") {
					v = def.Value("@id")
				} else {
					ann := ojson.NewObject()
					for _, dk := range def.Keys() {
						if ldctx.IsKeyword(dk) {
							ann.Set(annPrefix+dk[1:], def.Value(dk))
						}
					}
					v = ann
				}
			}
			if str, ok := v.(string); ok && str != "" && strings.ContainsRune("#/:", rune(str[len(str)-1])) {
				a.prefixes.Set(k, str)
			} else {
				extra.Set(k, v)
			}
		}
		if extra.Len() > 0 {
			et, ok := s.SetDefault(annExtraTerms, ojson.NewObject()).(*ojson.Object)
			if !ok {
				return nil, fmt.Errorf("%s is not an object", annExtraTerms)
			}
			et.Update(extra)
		}
	}
	return used, nil
}
