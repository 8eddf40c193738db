package context

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
)

// Build builds the JSON-LD context document ({"@context": {...}}) of block b
// from its annotated schema (see Annotate), as the building-block tool chain
// does. Each subschema level contributes the terms of its properties; $ref
// (into other blocks too, annotated with their own context stacks), allOf,
// anyOf, oneOf, items, additionalProperties, patternProperties and then/else
// merge into the same level, a later one winning per keyword; the subschema
// of a property with an @id gives its property-scoped @context, that of a
// property without one is flattened into the current level. Then prefixes
// are added, id-less terms and scoped terms identical to the nearest
// ancestor's definition are dropped, IRIs are compacted with the prefixes,
// {"@id": x} is written "x", and "@version": 1.1 is added. reg may be nil.
//
// The document is made of plain maps; WriteJSON writes it deterministically.
func Build(b *bblock.Block, reg *bblock.Register, opts *Options) (map[string]any, []Warning, error) {
	a, err := newAnnotator(b, reg, opts)
	if err != nil {
		return nil, nil, err
	}
	root, err := a.doc(a.docs.RootURL())
	if err != nil {
		return nil, a.warnings, err
	}
	bl := &builder{a: a, memo: map[string]bool{}, warned: map[string]bool{}}
	bl.visit(root)
	ctx := map[string]any{}
	if err := bl.subschema(root, root.out, root.src, ctx, "", nil); err != nil {
		return nil, a.warnings, err
	}

	// Prefixes: the entry block's first, then those of the documents the
	// references led to.
	prefixes := map[string]string{}
	for _, d := range bl.visited {
		m, _ := d.out.(map[string]any)
		pm, _ := m[annPrefixes].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(pm)) {
			if iri, ok := pm[name].(string); ok {
				if _, seen := prefixes[name]; !seen {
					prefixes[name] = iri
				}
			}
		}
	}
	for name, iri := range prefixes {
		if _, ok := ctx[name]; ok {
			delete(prefixes, name) // a term of the same name wins
			continue
		}
		ctx[name] = iri
	}

	prune(ctx)
	dropInherited(ctx, nil)
	compactLevel(ctx, prefixes)
	ctx["@version"] = 1.1
	return map[string]any{"@context": ctx}, a.warnings, nil
}

// builder holds the state of one Build.
type builder struct {
	a       *annotator
	memo    map[string]bool // level and reference already merged
	visited []*adoc         // documents the walk entered, in order
	warned  map[string]bool
}

func (bl *builder) visit(d *adoc) {
	for _, v := range bl.visited {
		if v == d {
			return
		}
	}
	bl.visited = append(bl.visited, d)
}

// subschema merges the terms of the subschema out of document d (src is its
// Docs form) into the context level onto. level names the level (the
// property path of scoped contexts) and path lists the references being
// followed, against cycles.
func (bl *builder) subschema(d *adoc, out, src any, onto map[string]any, level string, path []string) error {
	o, ok := out.(map[string]any)
	if !ok {
		return nil
	}
	s, _ := src.(map[string]any)
	if v, ok := o[annBase].(string); ok {
		onto["@base"] = v
	}
	if v, ok := o[annVocab].(string); ok {
		onto["@vocab"] = v
	}
	if ref, ok := s["$ref"].(string); ok && !slices.Contains(path, ref) && !bl.memo[level+"\x00"+ref] {
		bl.memo[level+"\x00"+ref] = true
		if u, frag, _ := strings.Cut(ref, "#"); strings.HasPrefix(u, bblock.BlockRefPrefix) {
			td, err := bl.a.doc(u)
			if err != nil {
				return err
			}
			bl.visit(td)
			tOut, err := jsonptr.Get(td.out, frag)
			if err != nil {
				return err
			}
			tSrc, _ := jsonptr.Get(td.src, frag)
			if err := bl.subschema(td, tOut, tSrc, onto, level, append(path[:len(path):len(path)], ref)); err != nil {
				return err
			}
		}
	}
	each := func(o, s any) error { return bl.subschema(d, o, s, onto, level, path) }
	eachList := func(o, s any) error {
		list, _ := o.([]any)
		slist, _ := s.([]any)
		for i, e := range list {
			var se any
			if i < len(slist) {
				se = slist[i]
			}
			if err := each(e, se); err != nil {
				return err
			}
		}
		return nil
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		if err := eachList(o[kw], s[kw]); err != nil {
			return err
		}
	}
	if _, isList := o["items"].([]any); isList {
		if err := eachList(o["items"], s["items"]); err != nil {
			return err
		}
	} else if err := each(o["items"], s["items"]); err != nil {
		return err
	}
	for _, kw := range []string{"contains", "then", "else", "additionalProperties"} {
		if err := each(o[kw], s[kw]); err != nil {
			return err
		}
	}
	pp, _ := o["patternProperties"].(map[string]any)
	spp, _ := s["patternProperties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(pp)) {
		if err := each(pp[name], spp[name]); err != nil {
			return err
		}
	}
	if extra, ok := o[annExtraTerms].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(extra)) {
			if _, defined := onto[name]; !defined && name != "" {
				onto[name] = fromAnnotations(extra[name])
			}
		}
	}
	return bl.properties(d, o, s, onto, level, path)
}

// properties merges the terms of the properties of subschema o.
func (bl *builder) properties(d *adoc, o, s map[string]any, onto map[string]any, level string, path []string) error {
	props, _ := o["properties"].(map[string]any)
	sprops, _ := s["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		pv, ok := props[name].(map[string]any)
		if !ok || name == "" || strings.HasPrefix(name, "@") {
			continue
		}
		def := map[string]any{}
		for _, k := range slices.Sorted(maps.Keys(pv)) {
			if !strings.HasPrefix(k, annPrefix) {
				continue
			}
			switch k {
			case annBase, annVocab, annExtraTerms, annPrefixes, annContext:
				continue
			}
			kw := "@" + strings.TrimPrefix(k, annPrefix)
			if !termKeywords[kw] || kw == "@context" {
				if msg := k + " is not the annotation of a term keyword; ignored"; !bl.warned[msg] {
					bl.warned[msg] = true
					bl.a.warnings = append(bl.a.warnings, warning(d.file, msg))
				}
				continue
			}
			def[kw] = deepCopy(pv[k])
		}
		id, _ := def["@id"].(string)
		rev, _ := def["@reverse"].(string)
		if id == "" && rev == "" {
			if err := bl.subschema(d, pv, sprops[name], onto, level, path); err != nil {
				return err
			}
			continue
		}
		if id == "@nest" || id == "@graph" {
			if err := bl.subschema(d, pv, sprops[name], onto, level, path); err != nil {
				return err
			}
		} else {
			sub := map[string]any{}
			if err := bl.subschema(d, pv, sprops[name], sub, level+"/"+jsonptr.Escape(name), path); err != nil {
				return err
			}
			if len(sub) > 0 {
				def["@context"] = sub
			}
		}
		if existing, ok := onto[name]; ok {
			onto[name] = mergeTerm(existing, def)
		} else {
			onto[name] = def
		}
	}
	return nil
}

// termMap returns a term's definition as an object.
func termMap(v any) map[string]any {
	switch x := v.(type) {
	case string:
		return map[string]any{"@id": x}
	case map[string]any:
		return x
	}
	return map[string]any{}
}

// mergeTerm merges definition def into existing, def winning per keyword;
// scoped contexts merge term by term.
func mergeTerm(existing any, def map[string]any) map[string]any {
	e := termMap(existing)
	for k, v := range def {
		if k == "@context" {
			ec, ok1 := e["@context"].(map[string]any)
			vc, ok2 := v.(map[string]any)
			if ok1 && ok2 {
				mergeLevel(ec, vc)
				continue
			}
		}
		e[k] = v
	}
	return e
}

func mergeLevel(dst, src map[string]any) {
	for k, v := range src {
		if dv, ok := dst[k]; ok && !strings.HasPrefix(k, "@") {
			dst[k] = mergeTerm(dv, termMap(v))
		} else {
			dst[k] = v
		}
	}
}

// fromAnnotations turns an extra term's annotations (x-jsonld-*) into a
// JSON-LD term definition; a string stays as it is.
func fromAnnotations(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return deepCopy(v)
	}
	def := map[string]any{}
	for k, e := range m {
		switch {
		case strings.HasPrefix(k, annPrefix):
			def["@"+strings.TrimPrefix(k, annPrefix)] = deepCopy(e)
		case strings.HasPrefix(k, "@"):
			def[k] = deepCopy(e)
		}
	}
	return def
}

// prune drops terms without @id or @reverse and empty scoped contexts.
func prune(level map[string]any) {
	for name, v := range level {
		if strings.HasPrefix(name, "@") {
			continue
		}
		switch d := v.(type) {
		case string:
			if d == "" {
				delete(level, name)
			}
		case map[string]any:
			if sc, ok := d["@context"].(map[string]any); ok {
				prune(sc)
				if len(sc) == 0 {
					delete(d, "@context")
				}
			}
			id, _ := d["@id"].(string)
			rev, _ := d["@reverse"].(string)
			if id == "" && rev == "" {
				delete(level, name)
			}
		default:
			delete(level, name)
		}
	}
}

// dropInherited drops, in the scoped contexts under level, the terms whose
// definition equals the one of the nearest enclosing level that defines them.
func dropInherited(level map[string]any, ancestors []map[string]any) {
	for _, name := range slices.Sorted(maps.Keys(level)) {
		if strings.HasPrefix(name, "@") {
			continue
		}
		for i := len(ancestors) - 1; i >= 0; i-- {
			if av, ok := ancestors[i][name]; ok {
				if reflect.DeepEqual(termMap(av), termMap(level[name])) {
					delete(level, name)
				}
				break
			}
		}
		d, ok := level[name].(map[string]any)
		if !ok {
			continue
		}
		if sc, ok := d["@context"].(map[string]any); ok {
			dropInherited(sc, append(ancestors[:len(ancestors):len(ancestors)], level))
			if len(sc) == 0 {
				delete(d, "@context")
			}
		}
	}
}

// compactLevel compacts the IRIs of the terms of level with the prefixes
// visible there, and writes {"@id": x} as "x".
func compactLevel(level map[string]any, prefixes map[string]string) {
	for name, v := range level {
		if strings.HasPrefix(name, "@") {
			continue
		}
		switch d := v.(type) {
		case string:
			if _, isPrefix := prefixes[name]; !isPrefix {
				level[name] = compactIRI(d, prefixes)
			}
		case map[string]any:
			for _, kw := range []string{"@id", "@reverse", "@type"} {
				if s, ok := d[kw].(string); ok && !isKeyword(s) {
					d[kw] = compactIRI(s, prefixes)
				}
			}
			if sc, ok := d["@context"].(map[string]any); ok {
				visible := prefixes
				for n := range sc {
					if _, shadowed := prefixes[n]; shadowed {
						visible = map[string]string{}
						for pn, pi := range prefixes {
							if _, ok := sc[pn]; !ok {
								visible[pn] = pi
							}
						}
						break
					}
				}
				compactLevel(sc, visible)
			}
			if id, ok := d["@id"].(string); ok && len(d) == 1 {
				level[name] = id
			}
		}
	}
}

// compactIRI writes iri as a compact IRI with the prefix whose IRI is the
// longest start of it; ties go to the first prefix name in sort order.
func compactIRI(iri string, prefixes map[string]string) string {
	best, bestName := "", ""
	names := slices.Sorted(maps.Keys(prefixes))
	for _, name := range names {
		p := prefixes[name]
		if p == "" || len(iri) <= len(p) || !strings.HasPrefix(iri, p) || strings.HasPrefix(iri[len(p):], "//") {
			continue
		}
		if len(p) > len(best) {
			best, bestName = p, name
		}
	}
	if bestName == "" {
		return iri
	}
	return bestName + ":" + iri[len(best):]
}

// deepCopy copies maps and slices of a decoded JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}
