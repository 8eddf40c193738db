package bblock

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// ExtensionSchemaFile is the name jrpcld gives the schema it builds for a
// block with extension points on a base block that has a schema, when the
// block has no schema file of its own (see docs/ogc.md, "Extension
// points"). The file exists only in the register as loaded.
const ExtensionSchemaFile = "extension-points.schema.json"

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

// extensionBuilder builds the schemas of the blocks with extension points
// of one register.
type extensionBuilder struct {
	tree   fs.FS
	blocks []*Block
	byID   map[string]*Block
	im     *Imports
	built  map[string][]byte // by tree path: the schemas built so far
	docs   map[string]any    // decoded documents by location
	active map[string]bool   // blocks being built (a chain of bases)
}

// blockLoc returns the location of the schema of block id (a tree path,
// or a URL) and whether the block is known and has a schema.
func (x *extensionBuilder) blockLoc(id string) (string, bool) {
	if b := x.byID[id]; b != nil {
		if b.Files.Schema == "" {
			return "", false
		}
		if IsURL(b.Files.Schema) {
			return b.Files.Schema, true
		}
		tp, err := b.TreePath(b.Files.Schema)
		return tp, err == nil
	}
	if ib, ok := x.im.Block(id); ok && ib.Schema != "" {
		return ib.Schema, true
	}
	return "", false
}

// blockOfLoc returns the id of the block whose schema is at loc: a local
// block's schema file (or its .json/.yaml twin), the URL a local block
// names as its schema, or the URL of an imported block's schema.
func (x *extensionBuilder) blockOfLoc(loc string) string {
	for _, b := range x.blocks {
		id := b.ID
		switch {
		case b.Files.Schema == "":
		case IsURL(b.Files.Schema):
			if b.Files.Schema == loc {
				return id
			}
		default:
			tp, err := b.TreePath(b.Files.Schema)
			if err == nil && (tp == loc || twin(tp, loc)) {
				return id
			}
		}
	}
	if IsURL(loc) {
		if id, ok := x.im.BlockOfURL(loc); ok {
			return id
		}
	}
	return ""
}

// twin reports whether a and b name the same document but for a .json,
// .yaml or .yml extension.
func twin(a, b string) bool {
	ext := func(s string) bool {
		e := path.Ext(s)
		return e == ".json" || e == ".yaml" || e == ".yml"
	}
	return ext(a) && ext(b) && strings.TrimSuffix(a, path.Ext(a)) == strings.TrimSuffix(b, path.Ext(b))
}

// key returns the identity the tool chain matches references by: the
// block whose schema the document is, else its location, with the
// fragment.
func (x *extensionBuilder) key(loc, frag string) string {
	k := loc
	if id := x.blockOfLoc(loc); id != "" {
		k = BlockRefPrefix + id
	}
	if frag != "" {
		k += "#" + frag
	}
	return k
}

// read returns the decoded document at loc.
func (x *extensionBuilder) read(loc string) (any, error) {
	if v, ok := x.docs[loc]; ok {
		return v, nil
	}
	var data []byte
	var err error
	switch {
	case x.built[loc] != nil:
		data = x.built[loc]
	case IsURL(loc):
		data, err = x.im.ReadURL(loc)
	default:
		data, err = fs.ReadFile(x.tree, loc)
	}
	if err != nil {
		return nil, err
	}
	v, _, err := ojson.DecodeAny(data)
	if err != nil {
		return nil, fmt.Errorf("%s: neither JSON nor YAML: %w", loc, err)
	}
	x.docs[loc] = v
	return v, nil
}

// resolve resolves reference ref found in the document at from: the
// location of the document it leads to and the fragment.
func (x *extensionBuilder) resolve(ref, from string) (loc, frag string, err error) {
	target, frag, _ := strings.Cut(ref, "#")
	switch {
	case target == "":
		return from, frag, nil
	case strings.HasPrefix(target, BlockRefPrefix):
		id := strings.TrimPrefix(target, BlockRefPrefix)
		l, ok := x.blockLoc(id)
		if !ok {
			return "", "", fmt.Errorf("$ref %q: block %s is not in the register nor in a mapped import, or has no schema", ref, id)
		}
		return l, frag, nil
	case IsURL(target):
		return target, frag, nil
	case IsURL(from):
		base, err := url.Parse(from)
		if err != nil {
			return "", "", err
		}
		rel, err := url.Parse(target)
		if err != nil {
			return "", "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		return base.ResolveReference(rel).String(), frag, nil
	}
	p := path.Join(path.Dir(from), target)
	if !strings.HasPrefix(p, SourcesDir+"/") {
		return "", "", fmt.Errorf("$ref %q in %s leaves the register's %s folder", ref, from, SourcesDir)
	}
	return p, frag, nil
}

// subschema returns the part of the document at loc that JSON pointer frag
// selects ("" for the whole).
func (x *extensionBuilder) subschema(loc, frag string) (any, error) {
	doc, err := x.read(loc)
	if err != nil {
		return nil, err
	}
	if frag == "" {
		return doc, nil
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("%s#%s: only JSON pointers (#/...) are followed in a base block's schema", loc, frag)
	}
	cur := doc
	for _, tok := range strings.Split(frag[1:], "/") {
		if t, err := url.PathUnescape(tok); err == nil {
			tok = t
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := cur.(type) {
		case *ojson.Object:
			v, ok := c.Get(tok)
			if !ok {
				return nil, fmt.Errorf("%s#%s: no member %q", loc, frag, tok)
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%s#%s: no item %q", loc, frag, tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("%s#%s: %q leads into a value that is not an object or array", loc, frag, tok)
		}
	}
	return cur, nil
}

// buildExtensionSchemas builds the schema of every block whose extension
// points name a base block with a schema, as the tool chain builds it
// (docs/ogc.md, "Extension points"), and returns the tree the register is
// then read from: the original with those schemas added, and whether
// there are any. A block whose schema cannot be built gets an error.
func buildExtensionSchemas(tree fs.FS, blocks []*Block, byID map[string]*Block, im *Imports) (fs.FS, bool) {
	x := &extensionBuilder{tree: tree, blocks: blocks, byID: byID, im: im, built: map[string][]byte{},
		docs: map[string]any{}, active: map[string]bool{}}
	done := map[string]bool{}
	var build func(b *Block)
	build = func(b *Block) {
		ep := b.Meta.ExtensionPoints
		if done[b.ID] || x.active[b.ID] || ep == nil || b.Err() != nil {
			return
		}
		x.active[b.ID] = true
		defer func() { x.active[b.ID] = false; done[b.ID] = true }()
		if base := byID[ep.Base]; base != nil {
			build(base) // its schema, when built, is the one the block extends
			if base.Files.Schema == "" {
				return // declarative (an OpenAPI base), or nothing to extend
			}
		} else if ib, ok := im.Block(ep.Base); !ok || ib.Schema == "" {
			return // unknown (an error of its own), or declarative
		}
		schema, err := x.schema(b)
		if err != nil {
			b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extensionPoints",
				Message: fmt.Sprintf("building the schema of its extension points: %v", err)})
			return
		}
		data, err := ojson.Marshal(schema)
		if err != nil {
			b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extensionPoints", Message: err.Error()})
			return
		}
		name := b.Files.Schema
		if name == "" || IsURL(name) {
			name = ExtensionSchemaFile
			b.Files.SchemaBuilt = true
		}
		tp, err := b.TreePath(name)
		if err != nil {
			b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extensionPoints", Message: err.Error()})
			return
		}
		b.Files.Schema = name
		x.built[tp] = data
		delete(x.docs, tp)
	}
	for _, b := range blocks {
		build(b)
	}
	if len(x.built) == 0 {
		return tree, false
	}
	return overlayFS{FS: tree, files: x.built}, true
}

// schema builds the schema of block b, whose extension points name a base
// block with a schema: the tool chain's Extender._process_schema.
func (x *extensionBuilder) schema(b *Block) (*ojson.Object, error) {
	ep := b.Meta.ExtensionPoints
	mappings := map[string]epTarget{}
	for i := 0; i+1 < len(ep.Extensions); i += 2 {
		source, target := ep.Extensions[i], ep.Extensions[i+1]
		if _, ok := x.blockLoc(target); !ok {
			return nil, fmt.Errorf("no schema was found for extension target %s: only building blocks with schemas are supported for extensions (as in the OGC tool chain)", target)
		}
		sloc, ok := x.blockLoc(source)
		if !ok {
			return nil, fmt.Errorf("no schema was found for extension source %s: only building blocks with schemas are supported for extensions (as in the OGC tool chain)", source)
		}
		t := epTarget{source: source, target: target, ref: BlockRefPrefix + target}
		mappings[BlockRefPrefix+source] = t
		if err := x.aliases(sloc, "", t, mappings, 0); err != nil {
			return nil, fmt.Errorf("extension source %s: %w", source, err)
		}
	}
	baseLoc, _ := x.blockLoc(ep.Base)
	root, err := x.subschema(baseLoc, "")
	if err != nil {
		return nil, fmt.Errorf("base block %s: %w", ep.Base, err)
	}
	w := &epWalk{x: x, mappings: mappings, visited: map[string]bool{}, departs: map[string]bool{}}
	if err := w.walk(root, baseLoc, nil); err != nil {
		return nil, fmt.Errorf("base block %s: %w", ep.Base, err)
	}
	dir, err := b.TreePath(".")
	if err != nil {
		return nil, err
	}
	w.dir = dir
	overlay := ojson.NewObject()
	for i, top := range w.tops {
		if top.preserve && i < len(w.tops)-1 {
			w.departs["every branch at the root of the base's schema that leads to an extension source is kept, where the tool chain keeps the last only (here: "+top.tag+")"] = true
		}
		if err := w.branch(top, overlay, false); err != nil {
			return nil, err
		}
	}
	out := ojson.NewObject()
	out.Set("$schema", "https://json-schema.org/draft/2020-12/schema")
	out.Set("x-bblocks-extends", ep.Base)
	exts := ojson.NewObject()
	for i := 0; i+1 < len(ep.Extensions); i += 2 {
		exts.Set(ep.Extensions[i], ep.Extensions[i+1])
	}
	out.Set("x-bblocks-extensions", exts)
	baseRef := ojson.NewObject()
	baseRef.Set("$ref", BlockRefPrefix+ep.Base)
	allOf := []any{baseRef}
	if overlay.Len() > 0 {
		allOf = append(allOf, overlay)
	}
	out.Set("allOf", allOf)
	if len(w.departs) > 0 {
		var ds []string
		for d := range w.departs {
			ds = append(ds, d)
		}
		sort.Strings(ds)
		b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extensionPoints", Severity: diag.Warning,
			Message: "the schema built from the base block " + ep.Base + " departs from the OGC tool chain's on purpose (docs/ogc.md, departure 19): " + strings.Join(ds, "; ")})
	}
	return out, nil
}

// aliases adds to mappings the schemas that the extension source's schema
// (at loc#frag) is only another name for, as the tool chain's
// extract_aliases does: a schema with no keyword but metadata and exactly
// one $ref, or one allOf, anyOf or oneOf of a single $ref, stands for what
// that reference leads to, and so on.
func (x *extensionBuilder) aliases(loc, frag string, t epTarget, mappings map[string]epTarget, depth int) error {
	if depth > 64 {
		return errors.New("a chain of more than 64 schemas that only refer to one another")
	}
	v, err := x.subschema(loc, frag)
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
	l, f, err := x.resolve(ref, loc)
	if err != nil {
		return err
	}
	k := x.key(l, f)
	if _, seen := mappings[k]; seen {
		return nil
	}
	mappings[k] = t
	return x.aliases(l, f, t, mappings, depth+1)
}

// epWalk is one walk of a base block's schema.
type epWalk struct {
	x        *extensionBuilder
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
		loc, frag, err := w.x.resolve(ref, doc)
		if err != nil {
			return err
		}
		t, subst := w.mappings[w.x.key(loc, frag)]
		skip := false
		if subst {
			// Up through compositions of one entry: a reference that is
			// only another name for the source is replaced, not kept.
			for pn := parent; pn != nil; pn = pn.parent {
				if pn.kind == epRef {
					if pn.subst {
						skip = true
					} else if l, f, err := w.x.resolve(pn.ref, pn.doc); err == nil {
						w.mappings[w.x.key(l, f)] = t
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
		target, err := w.x.subschema(loc, frag)
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
	if IsURL(ref) {
		return ref, nil
	}
	loc, frag, err := w.x.resolve(ref, doc)
	if err != nil {
		return "", err
	}
	if frag != "" {
		frag = "#" + frag
	}
	id := w.x.blockOfLoc(loc)
	if frag != "" || id == "" {
		// With a base URL, the tool chain's annotated schemas name other
		// blocks' schemas by URL, which it keeps; these it does not.
		w.departs["the references copied from the base's schema (and the schemas it leads to) are written so that they lead where they led, where the tool chain writes \"\" for a file and fails on a reference with a fragment (#/$defs/X)"] = true
	}
	if id != "" {
		return BlockRefPrefix + id + frag, nil
	}
	if IsURL(loc) {
		return loc + frag, nil
	}
	rel, err := relPath(w.dir, loc)
	if err != nil {
		return "", err
	}
	return rel + frag, nil
}

// relPath returns the slash-separated path of target relative to folder dir.
func relPath(dir, target string) (string, error) {
	d, t := strings.Split(dir, "/"), strings.Split(target, "/")
	i := 0
	for i < len(d) && i < len(t)-1 && d[i] == t[i] {
		i++
	}
	parts := make([]string, 0, len(d)-i+len(t)-i)
	for range d[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[i:]...)
	return strings.Join(parts, "/"), nil
}

// overlayFS is a file system with some files added (or replaced).
type overlayFS struct {
	fs.FS
	files map[string][]byte
}

// Open implements fs.FS.
func (o overlayFS) Open(name string) (fs.File, error) {
	if data, ok := o.files[name]; ok {
		return &memFile{name: path.Base(name), data: data}, nil
	}
	return o.FS.Open(name)
}

// memFile is an open file of an overlayFS.
type memFile struct {
	name string
	data []byte
	off  int
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f}, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Read(p []byte) (int, error) {
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += n
	return n, nil
}

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return i.f.name }
func (i memInfo) Size() int64        { return int64(len(i.f.data)) }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
