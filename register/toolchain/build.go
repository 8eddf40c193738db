package toolchain

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/register/schemaprops"
	"github.com/jrpcld/jrpcld/register/toolchain/internal/ctxmerge"
)

// buildContext builds block b's JSON-LD context from its annotated schema
// as the tool chain does, and returns the value of "@context": nil when the
// context is empty (the tool chain then writes none).
//
// Each subschema contributes a level: x-jsonld-base/-vocab, what its $ref
// (into any annotated schema or file), allOf, anyOf, oneOf, items,
// additionalProperties, patternProperties and then/else contribute, its
// x-jsonld-extra-terms, then its properties: a property with an @id (or
// under @vocab) maps to a term whose scoped @context holds its subschema's
// level; one without, in the entry document, has its subschema's level
// merged into the current one. Afterwards the extra terms of every document
// reached are added at the top (the first wins), prefixes are declared, @id
// left undefined is dropped, @nest contexts are lifted, a scoped term that
// any enclosing context already defines the same way is removed, and IRIs
// are compacted with the prefixes (see compact for where jrpcld differs).
//
// The walk tells props what it meets (see package schemaprops).
func (tc *toolchain) buildContext(b *bblock.Block, props *schemaprops.Collector) (*ojson.Object, []ldctx.Warning, error) {
	doc, warns, err := tc.annotate(b)
	if err != nil {
		return nil, warns, err
	}
	bd, c, err := tc.walkContext(b, doc, props, warns, true)
	if errors.Is(err, errReplayed) {
		tc.rewalks.Add(1)
		*props = schemaprops.Collector{}
		bd, c, err = tc.walkContext(b, doc, props, warns, false)
	}
	warns = bd.warns
	if err != nil {
		return nil, warns, fmt.Errorf("block %s: building its context: %w", b.ID, err)
	}
	own := ojson.NewObject()
	if err := ctxmerge.MergeInto(own, c); err != nil {
		return nil, warns, fmt.Errorf("block %s: building its context: %w", b.ID, err)
	}
	for _, k := range bd.importedExtra.Keys() {
		et := bd.importedExtra.Value(k).(*ojson.Object)
		for _, term := range et.Keys() {
			if own.Has(term) {
				continue
			}
			own.Set(term, fromAnnotations(et.Value(term)))
		}
	}
	for _, k := range bd.importedPfx.Keys() {
		pm := bd.importedPfx.Value(k).(*ojson.Object)
		for _, p := range pm.Keys() {
			if !bd.prefixes.Has(p) {
				bd.prefixes.Set(p, pm.Value(p))
			}
		}
	}
	for _, p := range bd.prefixes.Keys() {
		if own.Has(p) {
			bd.prefixes.Delete(p)
			continue
		}
		def := ojson.NewObject()
		def.Set("@id", bd.prefixes.Value(p))
		own.Set(p, def)
	}
	ctxmerge.PruneUndefined(own)
	if err := ctxmerge.FixNest(own); err != nil {
		return nil, warns, fmt.Errorf("block %s: building its context: %w", b.ID, err)
	}
	// The tool chain's compaction and the one that keeps each term's
	// meaning: the build gives one and warns where the other differs.
	keep := tc.opts != nil && tc.opts.KeepMeaning
	theirs := ojson.Clone(own).(*ojson.Object)
	tcp := &compactor{prefixes: bd.prefixes, asToolchain: true, explain: !keep}
	if err := tcp.all(theirs); err != nil {
		return nil, warns, fmt.Errorf("block %s: building its context: %w", b.ID, err)
	}
	cp := &compactor{prefixes: bd.prefixes}
	if err := cp.all(own); err != nil {
		return nil, warns, fmt.Errorf("block %s: building its context: %w", b.ID, err)
	}
	if keep {
		keptTerms(own, theirs, cp.warn)
		for _, m := range cp.warnings {
			warns = append(warns, warning(b.ID+" context", m))
		}
	} else {
		droppedTerms(own, theirs, tcp.warn)
		for _, m := range tcp.warnings {
			warns = append(warns, warning(b.ID+" context", m))
		}
		own = theirs
	}
	if own.Len() == 0 {
		return nil, warns, nil
	}
	own.Set("@version", json.Number("1.1"))
	return own, warns, nil
}

// walkContext walks the annotated schema doc of block b, as the first step
// of buildContext, and returns the builder and the level it gave. With
// replay, the walks of referenced schemas that earlier builds recorded are
// replayed where they can be; errReplayed says to walk again without.
func (tc *toolchain) walkContext(b *bblock.Block, doc *ojson.Object, props *schemaprops.Collector, warns []ldctx.Warning, replay bool) (*ctxBuilder, *ojson.Object, error) {
	root := rootSchema(annotatedLoc(b), ojson.Clone(doc))
	bd := &ctxBuilder{
		tc:            tc,
		root:          root,
		prefixes:      ojson.NewObject(),
		cache:         map[string]*ojson.Object{},
		importedPfx:   ojson.NewObject(),
		importedExtra: ojson.NewObject(),
		props:         props,
		refPaths:      map[string][]string{},
		warns:         slices.Clone(warns),
	}
	bd.depth.max = tc.refNesting
	bd.report = func(m string) { bd.warns = appendOnce(bd.warns, warning(b.ID+" context", m)) }
	bd.refs = schemaRefs{load: tc.loadSchema, walk: &walkStack{}, warn: bd.warn, resolved: bd.resolved}
	bd.refs.walk.push(root)
	if !tc.noMemo {
		bd.memoState = memoState{memo: &tc.memo, replay: replay,
			keySeq: map[string]int{}, virtual: map[string]bool{}}
	}
	c, err := bd.subschema(root.sub, root, nil, false, false, nil, nil)
	return bd, c, err
}

// fromAnnotations turns an extra term's x-jsonld-* keys into keywords
// ("x-jsonld-type" is "@type"); like the tool chain, it cuts the length of
// "x-jsonld-" off whatever the key.
func fromAnnotations(v any) any {
	o, ok := v.(*ojson.Object)
	if !ok {
		return v
	}
	out := ojson.NewObject()
	for _, k := range o.Keys() {
		out.Set("@"+k[min(len(annPrefix), len(k)):], o.Value(k))
	}
	return out
}

// ctxBuilder holds the state of one context build.
type ctxBuilder struct {
	tc *toolchain
	// warns are the build's warnings; report adds one.
	warns  []ldctx.Warning
	report func(string)
	memoState
	root     *refSchema
	refs     schemaRefs
	prefixes *ojson.Object
	// cache holds the level each document part gave, by refSchema.key.
	cache map[string]*ojson.Object
	// importedPfx and importedExtra hold the x-jsonld-prefixes and
	// x-jsonld-extra-terms of each document reached, in the order the
	// tool chain records them.
	importedPfx, importedExtra *ojson.Object
	// props is told what the walk meets; refPaths holds the path at which
	// the target of each reference (by refSchema.key) was first walked.
	props    *schemaprops.Collector
	refPaths map[string][]string
	// depth is how deep the walk is; high the deepest it went, counting
	// what replayed walks went (see memo.go).
	depth nesting
	high  int
}

// source names the document of from for props.
func (bd *ctxBuilder) source(from *refSchema) schemaprops.Source {
	return schemaprops.Source{Loc: from.loc, Entry: from.id == bd.root.id}
}

// under returns path followed by names, in a new slice.
func under(path []string, names ...string) []string {
	return append(path[:len(path):len(path)], names...)
}

// subschema returns the context level of a subschema of from, whose
// properties are at path (names, and the nodes of anyOf, oneOf, then and
// else, as the tool chain lists them).
func (bd *ctxBuilder) subschema(v any, from *refSchema, path []string, isVocab, localRefsOnly bool, currentVocab any, sibling *ojson.Object) (*ojson.Object, error) {
	bd.tc.walks.Add(1)
	onto := ojson.NewObject()
	s, ok := v.(*ojson.Object)
	if !ok {
		return onto, nil
	}
	saved, err := bd.depth.enter(from)
	if err != nil {
		return nil, err
	}
	defer bd.depth.leave(saved)
	bd.high = max(bd.high, bd.depth.total)
	for _, kw := range []string{annBase, annVocab} {
		if val := s.Value(kw); ojson.Truthy(val) {
			onto.Set("@"+strings.TrimPrefix(kw, annPrefix), val)
		}
	}
	if s.Has(annVocab) {
		isVocab = s.Value(annVocab) != nil
		currentVocab = s.Value(annVocab)
	} else {
		isVocab = isVocab || ojson.Truthy(onto.Value("@vocab"))
	}
	if isVocab {
		localRefsOnly = false
	}

	merge := func(c *ojson.Object) error { return ctxmerge.MergeInto(onto, c) }

	if ref, ok := s.Value("$ref").(string); ok {
		target, err := resolveSchema(ref, from, bd.refs)
		if err != nil {
			return nil, err
		}
		if target != nil {
			if !localRefsOnly || strings.HasPrefix(ref, "#") {
				key := target.key()
				refCtx, err := bd.cached(key)
				if err != nil {
					return nil, err
				}
				if refCtx != nil {
					refCtx = ojson.Clone(refCtx).(*ojson.Object)
					if first, ok := bd.refPaths[key]; ok {
						bd.reuse(first, path, key)
					}
				} else if refCtx, err = bd.walkRef(from, target, path, isVocab, localRefsOnly, currentVocab, true); err != nil {
					return nil, err
				}
				if err := merge(refCtx); err != nil {
					return nil, err
				}
			} else if _, err := bd.walkRef(from, target, path, isVocab, false, currentVocab, false); err != nil {
				// Walked for what it records, not for its terms.
				return nil, err
			}
		}
	}

	if list, ok := s.Value("allOf").([]any); ok {
		for _, e := range list {
			c, err := bd.subschema(e, from, path, isVocab, localRefsOnly, currentVocab, onto)
			if err != nil {
				return nil, err
			}
			if err := merge(c); err != nil {
				return nil, err
			}
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		list, ok := s.Value(kw).([]any)
		if !ok {
			continue
		}
		branches := flattenBranches(list, kw)
		// More than one branch: a node for the keyword and one per
		// branch, which the branch's properties are below.
		group := under(path, "_"+kw)
		if len(branches) > 1 {
			bd.group(group, kw, bd.source(from))
		}
		for i, e := range branches {
			at := path
			if len(branches) > 1 {
				at = under(group, strconv.Itoa(i))
				var title any
				if o, ok := e.(*ojson.Object); ok {
					title = o.Value("title")
				}
				bd.branch(at, i, title, bd.source(from))
			}
			c, err := bd.subschema(e, from, at, isVocab, localRefsOnly, currentVocab, onto)
			if err != nil {
				return nil, err
			}
			if err := merge(c); err != nil {
				return nil, err
			}
		}
	}
	for _, kw := range []string{"prefixItems", "items", "contains", "additionalProperties", "unevaluatedProperties", "then", "else"} {
		if sub, ok := s.Value(kw).(*ojson.Object); ok {
			at := path
			if kw == "then" || kw == "else" {
				at = under(path, "_"+kw)
				bd.condition(at, kw, sub.Value("title"), bd.source(from))
			}
			c, err := bd.subschema(sub, from, at, isVocab, localRefsOnly, currentVocab, nil)
			if err != nil {
				return nil, err
			}
			if err := merge(c); err != nil {
				return nil, err
			}
		}
	}
	if pp, ok := s.Value("patternProperties").(*ojson.Object); ok {
		for _, k := range pp.Keys() {
			if sub, ok := pp.Value(k).(*ojson.Object); ok {
				c, err := bd.subschema(sub, from, under(path, k), isVocab, localRefsOnly, currentVocab, nil)
				if err != nil {
					return nil, err
				}
				if err := merge(c); err != nil {
					return nil, err
				}
			}
		}
	}

	if et, ok := s.Value(annExtraTerms).(*ojson.Object); ok {
		for _, term := range et.Keys() {
			cur, has := onto.Get(term)
			curObj, _ := cur.(*ojson.Object)
			if !has || cur == (ctxmerge.Undefined{}) || curObj != nil && curObj.Value("@id") == (ctxmerge.Undefined{}) {
				onto.Set(term, fromAnnotations(et.Value(term)))
			}
		}
	}

	if err := bd.properties(s, from, path, onto, isVocab, currentVocab, sibling); err != nil {
		return nil, err
	}

	ref := from.refText()
	if !bd.importedPfx.Has(ref) {
		sub := ojson.NewObject()
		if sp, ok := s.Value(annPrefixes).(*ojson.Object); ok {
			sub = sp
		}
		if full, ok := from.full.(*ojson.Object); ok {
			if fp, ok := full.Value(annPrefixes).(*ojson.Object); ok {
				sub.Update(fp)
			}
		}
		if sub.Len() > 0 {
			bd.importedPfx.Set(ref, sub)
		}
	}
	if !bd.importedExtra.Has(ref) {
		if full, ok := from.full.(*ojson.Object); ok {
			if fe, ok := full.Value(annExtraTerms).(*ojson.Object); ok && fe.Len() > 0 {
				bd.importedExtra.Set(ref, fe)
			}
		}
	}
	if err := bd.setCached(from.key(), onto); err != nil {
		return nil, err
	}
	return onto, nil
}

// flattenBranches lifts the branches of a branch that is nothing but the
// same keyword (anyOf: [anyOf: [a, b], c] is anyOf: [a, b, c]).
func flattenBranches(list []any, kw string) []any {
	var out []any
	for _, b := range list {
		if o, ok := b.(*ojson.Object); ok && o.Len() == 1 {
			if inner, ok := o.Value(kw).([]any); ok {
				out = append(out, flattenBranches(inner, kw)...)
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

// properties adds the terms of the properties of s, at path, to onto.
func (bd *ctxBuilder) properties(s *ojson.Object, from *refSchema, path []string, onto *ojson.Object, isVocab bool, currentVocab any, sibling *ojson.Object) error {
	switch t := s.Value("type").(type) {
	case nil:
	case string:
		if t != "object" && t != "" {
			return nil
		}
	case []any:
		if !slices.ContainsFunc(t, func(e any) bool { return e == "object" }) && len(t) > 0 {
			return nil
		}
	default:
		if ojson.Truthy(t) {
			return nil
		}
	}
	props, ok := s.Value("properties").(*ojson.Object)
	if !ok {
		return nil
	}
	required, _ := s.Value("required").([]any)
	for _, prop := range props.Keys() {
		if ldctx.IsKeyword(prop) {
			continue
		}
		at := under(path, prop)
		bd.visit(at, bd.source(from), from == bd.root)
		pv, ok := props.Value(prop).(*ojson.Object)
		if !ok {
			continue
		}
		pc := ojson.NewObject()
		pc.Set("@context", ojson.NewObject())
		scoped := func() *ojson.Object {
			c, ok := pc.Value("@context").(*ojson.Object)
			if !ok {
				c = ojson.NewObject()
				pc.Set("@context", c)
			}
			return c
		}
		newVocab := isVocab
		for _, k := range pv.Keys() {
			val := pv.Value(k)
			switch {
			case k == annBase:
				scoped().Set("@base", val)
			case k == annVocab:
				newVocab = val != nil
				scoped().Set("@vocab", val)
			case strings.HasPrefix(k, annPrefix) && k != annContext && k != annExtraTerms && k != annPrefixes:
				pc.Set("@"+strings.TrimPrefix(k, annPrefix), val)
			}
		}
		var idValue any
		_, idOK := pc.Value("@id").(string)
		rev, revOK := pc.Value("@reverse").(string)
		switch {
		case idOK || revOK && pc.Has("@id"):
			idValue = pc.Value("@id")
		case revOK:
			idValue = rev
		default:
			pc.Set("@id", ctxmerge.Undefined{})
			idValue = ctxmerge.Undefined{}
		}
		xid, annotated := pv.Get(annID)
		p := schemaprops.Property{Path: at, Schema: pv, Required: slices.Contains(required, any(prop)),
			Annotated: annotated, AnnotatedID: xid, Type: pc.Value("@type"), Vocab: currentVocab, Source: bd.source(from)}
		if idValue != (ctxmerge.Undefined{}) {
			p.Bound, p.ID = true, idValue
		}
		bd.property(p)

		if strings.Contains(prop, ":") {
			// A compact IRI names the property: its @id is implied, and
			// the terms of its subschema go to the current level.
			child, err := bd.subschema(pv, from, at, newVocab, false, currentVocab, nil)
			if err != nil {
				return err
			}
			pc.Delete("@id")
			nested, ok := pc.Pop("@context", ojson.NewObject()).(*ojson.Object)
			if !ok {
				nested = ojson.NewObject()
			}
			if err := ctxmerge.MergeInto(nested, child); err != nil {
				return err
			}
			if err := ctxmerge.MergeInto(onto, nested); err != nil {
				return err
			}
			if pc.Len() > 0 {
				if !onto.Has(prop) {
					onto.Set(prop, pc)
				} else if err := ctxmerge.MergeInto(asObject(onto, prop), pc); err != nil {
					return err
				}
			}
			continue
		}

		if idValue == "@nest" || idValue == "@graph" || idValue == (ctxmerge.Undefined{}) && from == bd.root || !ojson.Truthy(idValue) && isVocab {
			if idValue == (ctxmerge.Undefined{}) || !ojson.Truthy(idValue) && isVocab {
				pc.Delete("@id")
			}
			existing := onto.Value(prop)
			if existing == nil && sibling != nil {
				existing = sibling.Value(prop)
			}
			bound := false
			switch e := existing.(type) {
			case string:
				bound = e != ""
			case *ojson.Object:
				bound = ojson.Truthy(e.Value("@id"))
			}
			// The tool chain does not pass the @vocab in effect on below a
			// property (but for a compact IRI): its resolved properties have
			// none there.
			child, err := bd.subschema(pv, from, at, newVocab, !bound && !pc.Has("@id") && !isVocab, nil, nil)
			if err != nil {
				return err
			}
			target := onto
			if isVocab {
				target = scoped()
			}
			if err := ctxmerge.MergeInto(target, child); err != nil {
				return err
			}
		} else {
			child, err := bd.subschema(pv, from, at, newVocab, !pc.Has("@id"), nil, nil)
			if err != nil {
				return err
			}
			if err := ctxmerge.MergeInto(scoped(), child); err != nil {
				return err
			}
		}
		sc, hasSC := pc.Get("@context")
		if pc.Len() > 0 && (!hasSC || pc.Len() > 1 || ojson.Truthy(sc)) {
			cur, has := onto.Get(prop)
			switch c := cur.(type) {
			case nil:
				// A term mapped to null stays so (the tool chain's merge
				// into null gives nothing).
				if !has {
					onto.Set(prop, pc)
				}
			case string:
				def := ojson.NewObject()
				var idv any = c
				if ojson.Truthy(idValue) {
					idv = idValue
				}
				if pc.Has("@id") {
					idv = pc.Pop("@id", nil)
				}
				def.Set("@id", idv)
				def.Update(pc)
				onto.Set(prop, def)
			case *ojson.Object:
				if err := ctxmerge.MergeInto(c, pc); err != nil {
					return err
				}
			default:
				return fmt.Errorf("term %q: cannot merge a definition into a %s", prop, ctxmerge.TypeName(cur))
			}
		}
	}
	return nil
}

// asObject returns onto's definition of term as an object, turning a
// missing one into an empty object.
func asObject(onto *ojson.Object, term string) *ojson.Object {
	o, ok := onto.Value(term).(*ojson.Object)
	if !ok {
		o = ojson.NewObject()
		onto.Set(term, o)
	}
	return o
}

// compactBranch removes, in place, what a context needs not say, as the
// tool chain does: empty definitions, empty scoped contexts, scoped
// contexts of terms without an @id (outside @vocab), and a scoped term that
// an enclosing context already defines. It reports whether it changed
// anything.
//
// The tool chain removes a scoped term when ANY enclosing context holds a
// definition containing it. When the nearest enclosing definition differs
// (an intermediate scope redefines the term, or the outer one says more,
// such as a @type), the removal changes what the term means in that scope;
// jrpcld removes it only when the nearest enclosing definition is the same,
// and warns where it keeps one the tool chain drops.
func (c *compactor) branch(branch *ojson.Object, stack []*ojson.Object, isVocab bool) (bool, error) {
	isVocab = isVocab || ojson.Truthy(branch.Value("@vocab"))
	child := append(stack[:len(stack):len(stack)], branch)
	changed := false
	for _, term := range branch.Keys() {
		if ldctx.IsKeyword(term) {
			continue
		}
		tv := branch.Value(term)
		if o, ok := tv.(*ojson.Object); ok && o.Len() == 0 {
			branch.Delete(term)
			changed = true
			continue
		}
		if o, ok := tv.(*ojson.Object); ok && o.Has("@context") {
			sc := o.Value("@context")
			idish := o.Value("@id")
			if !o.Has("@id") {
				idish = o.Value("@reverse")
			}
			switch {
			case !ojson.Truthy(sc):
				o.Delete("@context")
				changed = true
			case isVocab || ojson.Truthy(idish) || strings.Contains(term, ":"):
				sco, ok := sc.(*ojson.Object)
				if !ok {
					return false, fmt.Errorf("term %q: a scoped context that is not an object", term)
				}
				termVocab := isVocab && (!sco.Has("@vocab") || sco.Value("@vocab") != nil)
				for {
					ch, err := c.branch(sco, child, termVocab)
					if err != nil {
						return false, err
					}
					if !ch {
						break
					}
					changed = true
				}
			default:
				branch.Delete(term)
				changed = true
				continue
			}
		}
		mine := asDefinition(tv)
		if len(stack) == 0 || mine == nil {
			continue
		}
		if c.asToolchain {
			for _, ctx := range stack {
				if other := asDefinition(ctx.Value(term)); other != nil && ctxmerge.DictContains(other, mine) {
					branch.Delete(term)
					changed = true
					break
				}
			}
			continue
		}
		for i := len(stack) - 1; i >= 0; i-- {
			if v, ok := stack[i].Get(term); ok {
				if ojson.Equal(asDefinition(v), mine) {
					branch.Delete(term)
					changed = true
				}
				break
			}
		}
	}
	return changed, nil
}

// asDefinition returns a term definition as an object: a string s is
// {"@id": s}. It returns nil for anything else.
func asDefinition(v any) *ojson.Object {
	switch x := v.(type) {
	case string:
		o := ojson.NewObject()
		o.Set("@id", x)
		return o
	case *ojson.Object:
		return x
	}
	return nil
}

// compactor compacts a built context: its definitions (branch) and its
// IRIs (uris).
type compactor struct {
	prefixes *ojson.Object
	// asToolchain compacts exactly as the tool chain does, where jrpcld
	// would keep the meaning; with explain, it warns where that changes a
	// compact IRI's meaning.
	asToolchain, explain bool
	warnings             []string // where jrpcld does not do as the tool chain does, once each
}

// all compacts ctx: definitions until nothing changes, then IRIs.
func (c *compactor) all(ctx *ojson.Object) error {
	for {
		changed, err := c.branch(ctx, nil, false)
		if err != nil {
			return err
		}
		if !changed {
			break
		}
	}
	c.uris(ctx, nil)
	return nil
}

// scopedDrops calls f for each term of a scoped context of mine (the
// context that keeps meaning) that theirs, the same context compacted as
// the tool chain compacts it, leaves out: with its definition in mine, the
// chain of terms whose scoped contexts lead to it, and the contexts of
// theirs that enclose it (stack, the outermost first, theirs last).
func scopedDrops(mine, theirs *ojson.Object, path []string, stack []*ojson.Object, f func(term string, def any, path []string, stack []*ojson.Object)) {
	for _, term := range mine.Keys() {
		if ldctx.IsKeyword(term) {
			continue
		}
		tv, has := theirs.Get(term)
		if !has {
			if len(path) > 0 {
				f(term, mine.Value(term), path, stack)
			}
			continue
		}
		mo, _ := mine.Value(term).(*ojson.Object)
		to, _ := tv.(*ojson.Object)
		msc, _ := mo.Value("@context").(*ojson.Object)
		tsc, _ := to.Value("@context").(*ojson.Object)
		if msc != nil {
			if tsc == nil {
				tsc = ojson.NewObject()
			}
			scopedDrops(msc, tsc, append(path[:len(path):len(path)], term), append(stack[:len(stack):len(stack)], tsc), f)
		}
	}
}

// droppedTerms warns about each scoped term of mine that theirs drops,
// saying what the term means there instead: the nearest definition of it
// in the enclosing contexts of theirs.
func droppedTerms(mine, theirs *ojson.Object, warn func(string)) {
	scopedDrops(mine, theirs, nil, []*ojson.Object{theirs}, func(term string, def any, path []string, stack []*ojson.Object) {
		var outer any
		for i := len(stack) - 2; i >= 0; i-- {
			if v, ok := stack[i].Get(term); ok {
				outer = v
				break
			}
		}
		now, was := describeDef(outer), describeDef(def)
		if now == was {
			// The same IRI and type: say where they differ.
			was += " (they differ in " + strings.Join(defDiff(outer, def), ", ") + ")"
		}
		warn(fmt.Sprintf("term %q of the context scoped to %s is dropped, as the OGC tool chain drops it (an outer context's definition contains it), but the nearest enclosing definition differs: there %q now means %s instead of %s; jrpcld build --keep-meaning keeps it in the block's context",
			term, strings.Join(path, " > "), term, now, was))
	})
}

// defDiff returns the members in which two term definitions differ, in
// order ("@id" for definitions that are not objects alike).
func defDiff(a, b any) []string {
	da, db := asDefinition(a), asDefinition(b)
	if da == nil || db == nil {
		return []string{"@id"}
	}
	var out []string
	for _, k := range da.Keys() {
		if !ojson.Equal(da.Value(k), db.Value(k)) || !db.Has(k) {
			out = append(out, k)
		}
	}
	for _, k := range db.Keys() {
		if !da.Has(k) {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		out = []string{"nothing that prints"}
	}
	return out
}

// describeDef renders a term definition for a message: its IRI, and its type
// or language when it has one.
func describeDef(v any) string {
	d := asDefinition(v)
	if d == nil {
		return "nothing"
	}
	s := fmt.Sprint(d.Value("@id"))
	if d.Value("@id") == nil {
		s = "an undefined IRI"
	}
	for _, k := range []string{"@type", "@language", "@container"} {
		if x, ok := d.Get(k); ok {
			s += fmt.Sprintf(" (%s %v)", k, x)
		}
	}
	return s
}

// keptTerms warns about each scoped term of mine that theirs drops and
// mine keeps.
func keptTerms(mine, theirs *ojson.Object, warn func(string)) {
	scopedDrops(mine, theirs, nil, []*ojson.Object{theirs}, func(term string, _ any, path []string, _ []*ojson.Object) {
		warn(fmt.Sprintf("term %q of the context scoped to %s is kept: the OGC tool chain drops it because an outer context's definition contains it, but the nearest enclosing definition, which would apply there instead, differs, so the term could change meaning",
			term, strings.Join(path, " > ")))
	})
}

func (c *compactor) warn(msg string) {
	if !slices.Contains(c.warnings, msg) {
		c.warnings = append(c.warnings, msg)
	}
}

// compact returns uri as "prefix:local" with the first prefix, in order,
// whose IRI starts uri and is shorter; a local part starting with "//"
// leaves uri as it is. In a scope where a term redefines that prefix's
// name, the compact IRI would mean something else: the tool chain writes
// it anyway, jrpcld keeps the full IRI and says so.
func (c *compactor) compact(uri string, stack []*ojson.Object) string {
	if ldctx.IsKeyword(uri) {
		return uri
	}
	for _, p := range c.prefixes.Keys() {
		iri, _ := c.prefixes.Value(p).(string)
		if iri == "" || !strings.HasPrefix(uri, iri) || len(iri) >= len(uri) {
			continue
		}
		local := uri[len(iri):]
		if strings.HasPrefix(local, "//") {
			return uri
		}
		for i := len(stack) - 1; i > 0 && (!c.asToolchain || c.explain); i-- {
			def, ok := stack[i].Get(p)
			if !ok {
				continue
			}
			if d := asDefinition(def); d == nil || d.Value("@id") != iri {
				if c.asToolchain {
					c.warn(fmt.Sprintf("%s is written %s:%s, as the OGC tool chain writes it, but a scoped context there defines %q as %s, so that compact IRI means something else there; build with --keep-meaning to write it in full", uri, p, local, p, describeDef(def)))
					break
				}
				c.warn(fmt.Sprintf("%s is written in full (--keep-meaning): the OGC tool chain writes %s:%s, but a scoped context there defines %q otherwise, so that compact IRI would mean something else", uri, p, local, p))
				return uri
			}
			break
		}
		return p + ":" + local
	}
	return uri
}

// uris compacts the IRIs of a context's definitions in place, and writes
// a definition that is only an @id as a string.
func (c *compactor) uris(branch *ojson.Object, stack []*ojson.Object) {
	child := append(stack[:len(stack):len(stack)], branch)
	for _, term := range branch.Keys() {
		if ldctx.IsKeyword(term) {
			continue
		}
		switch tv := branch.Value(term).(type) {
		case string:
			branch.Set(term, c.compact(tv, child))
		case *ojson.Object:
			for _, k := range curieKeys {
				if s, ok := tv.Value(k).(string); ok {
					tv.Set(k, c.compact(s, child))
				}
			}
			if tv.Len() == 1 && tv.Has("@id") {
				branch.Set(term, tv.Value("@id"))
			} else if sc, ok := tv.Value("@context").(*ojson.Object); ok {
				c.uris(sc, child)
			}
		}
	}
}
