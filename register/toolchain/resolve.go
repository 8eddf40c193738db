package toolchain

import (
	"fmt"
	"os"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/register/toolchain/internal/ctxmerge"
)

// curieKeys are the members of a term definition whose compact IRIs the
// tool chain expands and compacts.
var curieKeys = []string{"@id", "@type", "@index"}

// resolvedCtx is a context as the tool chain resolves it: its terms with
// compact IRIs expanded where a prefix of the context defines them, and the
// prefixes that expansion used, in order of first use.
type resolvedCtx struct {
	ctx      *ojson.Object
	prefixes *ojson.Object // name -> IRI
}

// contextResolver resolves contexts as the tool chain does before
// annotating a schema: references to other contexts are loaded, arrays are
// merged entry by entry, @import is applied, and "prefix:local" values of
// @id, @type and @index (and plain string definitions) are expanded with
// the innermost context that defines the prefix. Only the top-level
// prefixes used are reported.
//
// Unlike the tool chain, which reads whatever file or URL a context names,
// a reference found inside a context resolves only through Options (the
// --context-map of the command line): no file is read because a context
// says so.
type contextResolver struct {
	tc    *toolchain
	warns *[]ldctx.Warning
}

// resolve resolves ctx (an object, a list, or the location of a context
// document the block itself names) found in the document at base.
func (r *contextResolver) resolve(ctx any, base string) (*resolvedCtx, error) {
	if s, ok := ctx.(string); ok && !isURL(s) {
		loc, err := joinLoc(base, s)
		if err != nil {
			return nil, fmt.Errorf("context %q in %s: %w", s, displayLoc(base), err)
		}
		doc, err := r.tc.readContextDoc(loc, r.warns)
		if err != nil {
			return nil, err
		}
		o, ok := doc.(*ojson.Object)
		if !ok {
			return nil, fmt.Errorf("%s: a context document must be an object", displayLoc(loc))
		}
		return r.resolveRefs(o.Value("@context"), loc)
	}
	return r.resolveRefs(ctx, base)
}

// resolveRefs resolves ctx, in whose references only mapped ones resolve.
func (r *contextResolver) resolveRefs(ctx any, base string) (*resolvedCtx, error) {
	if !ojson.Truthy(ctx) {
		return &resolvedCtx{ctx: ojson.NewObject(), prefixes: ojson.NewObject()}, nil
	}
	prefixes := ojson.NewObject()
	inner, err := r.inner(ctx, nil, base, prefixes)
	if err != nil {
		return nil, err
	}
	if inner == nil {
		return &resolvedCtx{ctx: ojson.NewObject(), prefixes: ojson.NewObject()}, nil
	}
	for _, k := range inner.prefixes.Keys() {
		if !prefixes.Has(k) {
			prefixes.Set(k, inner.prefixes.Value(k))
		}
	}
	return &resolvedCtx{ctx: inner.ctx, prefixes: prefixes}, nil
}

// load returns the "@context" of the context that the reference ref, found
// in the document at base, is mapped to by Options, and the name of the
// file it came from.
func (r *contextResolver) load(ref, base string) (any, string, error) {
	var file string
	if r.tc.opts != nil {
		file = r.tc.opts.Files[ref]
	}
	if file == "" {
		return nil, "", &ldctx.UnmappedError{Ref: ref, In: displayLoc(base)}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, "", fmt.Errorf("%s: context %s mapped to %s: %w", displayLoc(base), ref, file, err)
	}
	doc, _, err := ojson.DecodeAny(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: context %s mapped to %s: not JSON: %w", displayLoc(base), ref, file, err)
	}
	o, ok := doc.(*ojson.Object)
	if !ok {
		return nil, "", fmt.Errorf("%s: context %s mapped to %s: a context document must be an object", displayLoc(base), ref, file)
	}
	return o.Value("@context"), file, nil
}

func (r *contextResolver) inner(v any, stack []*ojson.Object, base string, prefixes *ojson.Object) (*resolvedCtx, error) {
	var res *resolvedCtx
	switch x := v.(type) {
	case string:
		content, file, err := r.load(x, base)
		if err != nil {
			return nil, err
		}
		if res, err = r.resolveRefs(content, file); err != nil {
			return nil, err
		}
	case []any:
		merged := ojson.NewObject()
		innerPrefixes := ojson.NewObject()
		for _, e := range x {
			var entry *resolvedCtx
			var err error
			if o, ok := e.(*ojson.Object); ok {
				w := ojson.NewObject()
				w.Set("@context", o)
				entry, err = r.resolveRefs(w, base)
			} else {
				entry, err = r.resolveRefs(e, base)
			}
			if err != nil {
				return nil, err
			}
			innerPrefixes.Update(entry.prefixes)
			if err := ctxmerge.MergeDicts(entry.ctx, merged); err != nil {
				return nil, err
			}
		}
		res = &resolvedCtx{ctx: merged, prefixes: innerPrefixes}
	case *ojson.Object:
		if x.Has("@context") {
			c, ok := x.Value("@context").(*ojson.Object)
			if !ok {
				return r.inner(x.Value("@context"), stack, base, prefixes)
			}
			x = c
		}
		if imp := x.Value("@import"); ojson.Truthy(imp) {
			ref, ok := imp.(string)
			if !ok {
				return nil, fmt.Errorf("@import in %s is not a string", displayLoc(base))
			}
			content, loc, err := r.load(ref, base)
			if err != nil {
				return nil, err
			}
			entries := []any{content}
			if l, ok := content.([]any); ok {
				entries = l
			}
			for _, e := range entries {
				if o, ok := e.(*ojson.Object); ok && o.Has("@import") {
					return nil, fmt.Errorf("%s: a context that @import names may not itself hold @import", displayLoc(loc))
				}
			}
			imported, err := r.resolveRefs(content, loc)
			if err != nil {
				return nil, err
			}
			c := ojson.Clone(imported.ctx).(*ojson.Object)
			for _, k := range x.Keys() {
				if k != "@import" {
					c.Set(k, x.Value(k))
				}
			}
			res = &resolvedCtx{ctx: c, prefixes: imported.prefixes}
		} else {
			res = &resolvedCtx{ctx: x, prefixes: ojson.NewObject()}
		}
	case nil:
		return nil, nil
	default:
		return nil, fmt.Errorf("context in %s is a %s, not an object, a list or a reference", displayLoc(base), ctxmerge.TypeName(v))
	}
	if res == nil || res.ctx.Len() == 0 {
		return res, nil
	}
	stack = append(stack[:len(stack):len(stack)], res.ctx)
	for _, term := range res.ctx.Keys() {
		nv, err := r.prop(res.ctx.Value(term), stack, base, prefixes)
		if err != nil {
			return nil, fmt.Errorf("term %q: %w", term, err)
		}
		res.ctx.Set(term, nv)
	}
	return res, nil
}

// prop resolves one term definition in place.
func (r *contextResolver) prop(v any, stack []*ojson.Object, base string, prefixes *ojson.Object) (any, error) {
	switch x := v.(type) {
	case string:
		return ctxmerge.ExpandCURIE(x, stack, prefixes)
	case *ojson.Object:
		for _, k := range curieKeys {
			if s, ok := x.Value(k).(string); ok {
				e, err := ctxmerge.ExpandCURIE(s, stack, prefixes)
				if err != nil {
					return nil, err
				}
				x.Set(k, e)
			}
		}
		if sc := x.Value("@context"); ojson.Truthy(sc) {
			res, err := r.inner(sc, stack, base, prefixes)
			if err != nil {
				return nil, err
			}
			if res == nil {
				x.Set("@context", nil)
			} else {
				x.Set("@context", res.ctx)
			}
		}
		return x, nil
	}
	return v, nil
}
