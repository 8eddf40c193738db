// Package extpoints builds the schema of a building block with extension
// points as the OGC tool chain's Extender does (docs/ogc.md, "Extension
// points"): it walks the base block's schema, following references, to
// the references to each extension source, and writes the branches that
// lead there with those references replaced by their targets. Where the
// schemas are and how references resolve is the caller's (package bblock:
// the register's tree and its imports), through Documents; this package
// knows schemas only.
package extpoints

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Documents is where the schemas are and how their references resolve.
type Documents interface {
	// Resolve resolves the reference ref found in the document at from:
	// the location of the document it leads to, and the fragment.
	Resolve(ref, from string) (loc, frag string, err error)
	// Subschema returns the part of the document at loc that the JSON
	// pointer frag selects ("" for the whole), decoded as ojson values.
	Subschema(loc, frag string) (any, error)
	// Key returns the identity references are matched by.
	Key(loc, frag string) string
	// SchemaOf returns the location of block id's schema, and whether the
	// block is known and has one.
	SchemaOf(id string) (loc string, ok bool)
	// BlockRef returns the reference to block id's schema (bblocks://ID).
	BlockRef(id string) string
	// OutRef returns what the reference ref of the document at doc becomes
	// in the built schema, written in the folder at tree path dir, and
	// whether that departs from what the tool chain writes.
	OutRef(ref, doc, dir string) (out string, departs bool, err error)
}

// aliasAbort lists the keywords that make a schema more than another name
// for the schema it refers to (the tool chain's JSON_SCHEMA_ALIAS_ABORT:
// every JSON Schema keyword but the metadata ones and $ref, allOf, anyOf,
// oneOf; "else" counts among the metadata there, and stays so here).
var aliasAbort = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`additionalProperties const contains contentEncoding contentMediaType
		contentSchema default dependentRequired dependentSchemas deprecated enum exclusiveMaximum
		exclusiveMinimum format if items maxContains maximum maxItems maxLength maxProperties minContains
		minimum minItems minLength minProperties multipleOf not pattern patternProperties prefixItems
		properties propertyNames required then type unevaluatedItems unevaluatedProperties uniqueItems`) {
		aliasAbort[k] = true
	}
}

// epKind says what an extension node stands for.
type epKind int

const (
	epRef      epKind = iota // a $ref
	epColl                   // oneOf, allOf or anyOf
	epEntry                  // an entry of a oneOf, allOf or anyOf
	epKeyword                // items, additionalProperties, properties, ...
	epProperty               // a property (or pattern) below properties or patternProperties
)

// epNode is a node of the tree the tool chain walks in the base block's
// schema, following references, to find those to extension sources.
type epNode struct {
	kind     epKind
	tag      string // the keyword, or the property's name
	doc      string // location of the document the node's schema is in
	parent   *epNode
	children []*epNode
	preserve bool
	sub      any           // the node's schema: for a $ref node, {$ref: ...} or the substitution
	view     *ojson.Object // sub without the keywords the walk took apart, once walked
	ref      string        // for a $ref node, the reference as written
	subst    bool          // a $ref node replaced by an extension target
}

func (n *epNode) markPreserve() {
	for p := n; p != nil && !p.preserve; p = p.parent {
		p.preserve = true
	}
}

// epTarget is what a reference to an extension source becomes.
type epTarget struct{ source, target, ref string }

// Build builds the schema of the block in the folder at tree path dir,
// whose extension points extend the block base (which has a schema) with
// extensions, pairs of source and target block ids: the tool chain's
// Extender._process_schema. departs says, sorted, where the schema departs
// from the tool chain's on purpose (docs/ogc.md, departure 19).
func Build(docs Documents, dir, base string, extensions []string) (schema *ojson.Object, departs []string, err error) {
	mappings := map[string]epTarget{}
	for i := 0; i+1 < len(extensions); i += 2 {
		source, target := extensions[i], extensions[i+1]
		if _, ok := docs.SchemaOf(target); !ok {
			return nil, nil, fmt.Errorf("no schema was found for extension target %s: only building blocks with schemas are supported for extensions (as in the OGC tool chain)", target)
		}
		sloc, ok := docs.SchemaOf(source)
		if !ok {
			return nil, nil, fmt.Errorf("no schema was found for extension source %s: only building blocks with schemas are supported for extensions (as in the OGC tool chain)", source)
		}
		t := epTarget{source: source, target: target, ref: docs.BlockRef(target)}
		mappings[docs.BlockRef(source)] = t
		if err := aliases(docs, sloc, "", t, mappings, 0); err != nil {
			return nil, nil, fmt.Errorf("extension source %s: %w", source, err)
		}
	}
	baseLoc, _ := docs.SchemaOf(base)
	root, err := docs.Subschema(baseLoc, "")
	if err != nil {
		return nil, nil, fmt.Errorf("base block %s: %w", base, err)
	}
	w := &epWalk{docs: docs, dir: dir, mappings: mappings, visited: map[string]bool{}, departs: map[string]bool{}}
	if err := w.walk(root, baseLoc, nil); err != nil {
		return nil, nil, fmt.Errorf("base block %s: %w", base, err)
	}
	overlay := ojson.NewObject()
	for i, top := range w.tops {
		if top.preserve && i < len(w.tops)-1 {
			w.departs["every branch at the root of the base's schema that leads to an extension source is kept, where the tool chain keeps the last only (here: "+top.tag+")"] = true
		}
		if err := w.branch(top, overlay, false); err != nil {
			return nil, nil, err
		}
	}
	out := ojson.NewObject()
	out.Set("$schema", "https://json-schema.org/draft/2020-12/schema")
	out.Set("x-bblocks-extends", base)
	exts := ojson.NewObject()
	for i := 0; i+1 < len(extensions); i += 2 {
		exts.Set(extensions[i], extensions[i+1])
	}
	out.Set("x-bblocks-extensions", exts)
	baseRef := ojson.NewObject()
	baseRef.Set("$ref", docs.BlockRef(base))
	allOf := []any{baseRef}
	if overlay.Len() > 0 {
		allOf = append(allOf, overlay)
	}
	out.Set("allOf", allOf)
	for d := range w.departs {
		departs = append(departs, d)
	}
	sort.Strings(departs)
	return out, departs, nil
}

// aliases adds to mappings the schemas that the extension source's schema
// (at loc#frag) is only another name for, as the tool chain's
// extract_aliases does: a schema with no keyword but metadata and exactly
// one $ref, or one allOf, anyOf or oneOf of a single $ref, stands for what
// that reference leads to, and so on.
func aliases(docs Documents, loc, frag string, t epTarget, mappings map[string]epTarget, depth int) error {
	if depth > 64 {
		return errors.New("a chain of more than 64 schemas that only refer to one another")
	}
	v, err := docs.Subschema(loc, frag)
	if err != nil {
		return err
	}
	o, ok := v.(*ojson.Object)
	if !ok {
		return nil
	}
	var ref string
	n := 0
	for _, k := range o.Keys() {
		if aliasAbort[k] {
			return nil
		}
		switch k {
		case "$ref", "allOf", "anyOf", "oneOf":
			n++
		}
	}
	if n != 1 {
		return nil
	}
	if r, ok := o.Value("$ref").(string); ok {
		ref = r
	} else {
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if coll, ok := o.Value(k).([]any); ok {
				if len(coll) != 1 {
					return nil
				}
				e, _ := coll[0].(*ojson.Object)
				ref, _ = e.Value("$ref").(string)
			}
		}
	}
	if ref == "" {
		return nil
	}
	l, f, err := docs.Resolve(ref, loc)
	if err != nil {
		return err
	}
	k := docs.Key(l, f)
	if _, seen := mappings[k]; seen {
		return nil
	}
	mappings[k] = t
	return aliases(docs, l, f, t, mappings, depth+1)
}

// epWalk is one walk of a base block's schema.
type epWalk struct {
	docs     Documents
	mappings map[string]epTarget
	visited  map[string]bool
	tops     []*epNode
	dir      string // the tree path of the extending block's folder
	depth    int
	// departs holds what the schema built differs in from the tool
	// chain's (docs/ogc.md, departure 19), for a warning.
	departs map[string]bool
}

func (w *epWalk) node(parent *epNode, kind epKind, tag, doc string, sub any) *epNode {
	n := &epNode{kind: kind, tag: tag, doc: doc, parent: parent, sub: sub}
	if parent == nil {
		w.tops = append(w.tops, n)
	} else {
		parent.children = append(parent.children, n)
	}
	return n
}

// walk is the tool chain's walk_subschema: it makes a node for each
// reference, composition, subschema keyword and property of sub (found in
// the document at doc), following references into the documents they lead
// to, and marks the branches that lead to a reference to an extension
// source, which is replaced by its target.
func (w *epWalk) walk(sub any, doc string, parent *epNode) error {
	o, ok := sub.(*ojson.Object)
	if !ok || o.Len() == 0 {
		return nil
	}
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > 256 {
		return errors.New("schemas nested more than 256 deep")
	}
	view := ojson.Clone(o).(*ojson.Object)
	if parent != nil && parent.sub == sub {
		parent.view = view
	}
	if ref, ok := o.Value("$ref").(string); ok {
		view.Delete("$ref")
		loc, frag, err := w.docs.Resolve(ref, doc)
		if err != nil {
			return err
		}
		t, subst := w.mappings[w.docs.Key(loc, frag)]
		skip := false
		if subst {
			// Up through compositions of one entry: a reference that is
			// only another name for the source is replaced, not kept.
			for pn := parent; pn != nil; pn = pn.parent {
				if pn.kind == epRef {
					if pn.subst {
						skip = true
					} else if l, f, err := w.docs.Resolve(pn.ref, pn.doc); err == nil {
						w.mappings[w.docs.Key(l, f)] = t
					}
				} else if pn.kind != epEntry && (pn.kind != epColl || len(pn.children) > 1) {
					break
				}
			}
		}
		refNode := parent
		if !skip {
			var s *ojson.Object
			if subst {
				s = ojson.NewObject()
				s.Set("$ref", t.ref)
				s.Set("x-bblocks-extension-source", t.source)
				s.Set("x-bblocks-extension-target", t.target)
			} else {
				s = ojson.NewObject()
				s.Set("$ref", ref)
			}
			refNode = w.node(parent, epRef, "$ref", doc, s)
			refNode.ref, refNode.subst = ref, subst
			if subst {
				refNode.markPreserve()
			}
		}
		vk := loc
		if frag != "" {
			vk += "#" + frag
		}
		if w.visited[vk] {
			return nil
		}
		w.visited[vk] = true
		target, err := w.docs.Subschema(loc, frag)
		if err != nil {
			return err
		}
		if err := w.walk(target, loc, refNode); err != nil {
			return err
		}
	}
	for _, k := range []string{"oneOf", "allOf", "anyOf"} {
		coll, _ := o.Value(k).([]any)
		view.Delete(k)
		if len(coll) == 0 {
			continue
		}
		cn := w.node(parent, epColl, k, doc, coll)
		for _, e := range coll {
			en := w.node(cn, epEntry, "[]", doc, e)
			if err := w.walk(e, doc, en); err != nil {
				return err
			}
		}
	}
	for _, k := range []string{"prefixItems", "items", "contains", "then", "else", "additionalProperties"} {
		v, has := o.Get(k)
		view.Delete(k)
		if _, ok := v.(*ojson.Object); has && ok {
			n := w.node(parent, epKeyword, k, doc, v)
			if err := w.walk(v, doc, n); err != nil {
				return err
			}
		}
	}
	if props, has := o.Get("properties"); has {
		view.Delete("properties")
		pn := w.node(parent, epKeyword, "properties", doc, nil)
		if po, ok := props.(*ojson.Object); ok {
			for _, name := range po.Keys() {
				n := w.node(pn, epProperty, name, doc, po.Value(name))
				if err := w.walk(po.Value(name), doc, n); err != nil {
					return err
				}
			}
		}
	}
	pp, _ := o.Value("patternProperties").(*ojson.Object)
	view.Delete("patternProperties")
	if pp.Len() > 0 {
		pn := w.node(parent, epKeyword, "patternProperties", doc, nil)
		for _, name := range pp.Keys() {
			if _, ok := pp.Value(name).(*ojson.Object); ok {
				n := w.node(pn, epProperty, name, doc, pp.Value(name))
				if err := w.walk(pp.Value(name), doc, n); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// content returns what the node's schema contributes to the overlay: its
// schema without the keywords the walk took apart.
func (n *epNode) content() any {
	if n.view != nil {
		return n.view
	}
	return n.sub
}

// branch is the tool chain's walk_branch: it writes into parent the part
// of the walked tree below n that leads to a replaced reference (every
// entry of a oneOf or anyOf on the way, whole), references rewritten.
func (w *epWalk) branch(n *epNode, parent *ojson.Object, force bool) error {
	if !force && !n.preserve {
		return nil
	}
	switch {
	case n.kind == epRef && (len(n.children) == 0 || !n.preserve):
		// A reference that leads to no extension source (on an entry of
		// a oneOf or anyOf) stays a reference; the tool chain inlines
		// what it leads to without that schema's own keywords.
		if len(n.children) > 0 {
			w.departs["a reference in an entry of a oneOf or anyOf that leads to no extension source is kept as a reference, where the tool chain copies the structure it leads to without that schema's other keywords (type, minItems...), which accepts more than the base block does"] = true
		}
		v, err := w.refs(n.sub, n.doc, false)
		if err != nil {
			return err
		}
		if parent.Len() > 0 {
			allOf, _ := parent.Value("allOf").([]any)
			parent.Set("allOf", append(allOf, v))
		} else {
			parent.Update(v.(*ojson.Object))
		}
	case n.kind == epColl:
		coll, _ := parent.Value(n.tag).([]any)
		for _, c := range n.children {
			cs := ojson.NewObject()
			coll = append(coll, cs)
			if err := w.branch(c, cs, force || n.tag != "allOf"); err != nil {
				return err
			}
		}
		parent.Set(n.tag, coll)
	case n.kind != epEntry && n.kind != epRef && len(n.children) == 0:
		// End of the line: the whole subschema.
		v, err := w.refs(n.content(), n.doc, false)
		if err != nil {
			return err
		}
		if n.kind == epProperty && n.parent != nil && n.parent.tag == "patternProperties" {
			w.departs["a pattern of patternProperties on the way is written with its schema, where the tool chain writes null"] = true
		}
		if v == nil {
			v = ojson.NewObject()
		}
		parent.Set(n.tag, v)
	default:
		into := parent
		switch {
		case n.kind == epEntry || n.subst:
			if o, ok := n.content().(*ojson.Object); ok {
				v, err := w.refs(o, n.doc, false)
				if err != nil {
					return err
				}
				parent.Update(v.(*ojson.Object))
			}
		case n.kind != epRef:
			into = ojson.NewObject()
			parent.Set(n.tag, into)
		}
		for _, c := range n.children {
			if err := w.branch(c, into, force); err != nil {
				return err
			}
		}
	}
	return nil
}

// refs returns a copy of schema v (found in the document at doc) whose
// references lead where they led from doc: a URL stays; a reference to a
// block's schema becomes bblocks://ID (with its fragment); one into
// another file of the sources tree becomes a path relative to the
// extending block's folder. A replaced reference stays as it is. The tool
// chain writes the location of the document instead, which for a file is
// "" without a fragment and an error with one (docs/ogc.md, departure 19).
func (w *epWalk) refs(v any, doc string, inProps bool) (any, error) {
	switch x := v.(type) {
	case *ojson.Object:
		if !inProps && x.Has("x-bblocks-extension-source") {
			return ojson.Clone(x), nil
		}
		out := ojson.NewObject()
		for _, k := range x.Keys() {
			val := x.Value(k)
			if ref, ok := val.(string); ok && k == "$ref" && !inProps {
				r, err := w.outRef(ref, doc)
				if err != nil {
					return nil, err
				}
				out.Set(k, r)
				continue
			}
			c, err := w.refs(val, doc, !inProps && k == "properties")
			if err != nil {
				return nil, err
			}
			out.Set(k, c)
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := w.refs(e, doc, false)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

func (w *epWalk) outRef(ref, doc string) (string, error) {
	out, departs, err := w.docs.OutRef(ref, doc, w.dir)
	if departs {
		// With a base URL, the tool chain's annotated schemas name other
		// blocks' schemas by URL, which it keeps; these it does not.
		w.departs["the references copied from the base's schema (and the schemas it leads to) are written so that they lead where they led, where the tool chain writes \"\" for a file and fails on a reference with a fragment (#/$defs/X)"] = true
	}
	return out, err
}
