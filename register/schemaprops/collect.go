// Package schemaprops lists the properties of a block's annotated schema as
// the OGC tool chain lists them while it builds the block's JSON-LD context
// (ogc-na-tools' ContextBuilder): resolvedProperties.json, which the OGC
// viewer shows as the block's data structure, and the traces the tool chain
// leaves beside the context (_visited_properties.tsv and
// _unbound_local_properties.tsv).
//
// Package context walks the schema and tells a Collector what it meets; the
// Collector then resolves what it was told as the tool chain does: the
// occurrences of a property path merged, the properties every branch of an
// anyOf or oneOf shares lifted out of the branches, a subtree the walk met
// again through the same reference kept once, as a definition the others
// point to.
package schemaprops

import (
	"slices"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Source is a schema document the walk read a property from.
type Source struct {
	Loc string // its location, as package context names documents
	// Entry reports that it is the walk's entry document, the block's own
	// annotated schema (a part of it reached through a local reference
	// included).
	Entry bool
}

// Property is what the walk knows of one property of an object schema.
type Property struct {
	Path     []string      // the property's path: names, and the nodes of anyOf, oneOf, then and else
	Schema   *ojson.Object // the property's subschema
	Required bool          // the enclosing object requires it
	// Bound reports that the property maps to an IRI (x-jsonld-id or
	// x-jsonld-reverse is a string), ID being that @id (or @reverse).
	Bound bool
	ID    any
	// Annotated reports that the subschema has an x-jsonld-id, whatever
	// its value, AnnotatedID being it.
	Annotated   bool
	AnnotatedID any
	Type        any // its x-jsonld-type; nil for none
	Vocab       any // the @vocab in effect; nil for none
	Source      Source
}

// Collector records what a context build meets, in the order it meets it.
// The zero value is ready to use; the methods of a nil Collector do
// nothing.
type Collector struct {
	nodes   nodeMap
	reuses  []reuse
	visited []visit
	seen    map[string]int // index in visited by path text
	missed  []string       // paths of the entry document, in order of first visit
	unbound map[string]bool
}

// reuse is a reference the walk met again at path dst, having walked its
// target first at path src: the tool chain's cache hit.
type reuse struct {
	src, dst []string
	key      string
}

// visit is a row of _visited_properties.tsv.
type visit struct {
	path string
	id   any
	src  Source
}

func pathText(path []string) string { return "/" + strings.Join(path, "/") }

// Visit records that the walk read the property at path of an object
// schema in src, before it looks at the property's subschema; root
// reports that src is the entry document itself, not a part of it a
// reference led to (the tool chain lists only its properties as unbound).
func (c *Collector) Visit(path []string, src Source, root bool) {
	if c == nil {
		return
	}
	p := pathText(path)
	if c.seen == nil {
		c.seen = map[string]int{}
		c.unbound = map[string]bool{}
	}
	if _, ok := c.seen[p]; !ok {
		c.seen[p] = len(c.visited)
		c.visited = append(c.visited, visit{path: p, src: src})
	}
	if root {
		if _, ok := c.unbound[p]; !ok {
			c.unbound[p] = true
			c.missed = append(c.missed, p)
		}
	}
}

// Property records a property whose subschema is an object, after Visit.
func (c *Collector) Property(p Property) {
	if c == nil {
		return
	}
	text := pathText(p.Path)
	for _, set := range []struct {
		ok bool
		id any
	}{{p.Annotated, p.AnnotatedID}, {p.Bound, p.ID}} {
		if !set.ok {
			continue
		}
		if i, ok := c.seen[text]; ok {
			c.visited[i].id, c.visited[i].src = set.id, p.Source
		}
		if c.unbound == nil {
			c.unbound = map[string]bool{}
		}
		c.unbound[text] = false
	}
	s := p.Schema
	n := &node{path: slices.Clone(p.Path), vocab: p.Vocab, jsonldType: p.Type,
		title: s.Value("title"), description: s.Value("description"), required: p.Required,
		schemaType: s.Value("type"), format: s.Value("format"), enum: s.Value("enum"), constant: s.Value("const"),
		deprecated: ojson.Truthy(s.Value("deprecated")), readOnly: ojson.Truthy(s.Value("readOnly")),
		writeOnly: ojson.Truthy(s.Value("writeOnly")), sources: []Source{p.Source}}
	if p.Bound {
		n.id = p.ID
	}
	if cur := c.nodes.get(n.key()); cur != nil {
		cur.merge(n)
	} else {
		c.nodes.put(n)
	}
}

// Group records the node of an anyOf or oneOf (keyword) of more than one
// branch, at path (ending in "_anyOf" or "_oneOf"), unless there is one.
func (c *Collector) Group(path []string, keyword string, src Source) {
	c.virtual(path, keyword, nil, src)
}

// Branch records the node of branch i of the anyOf or oneOf at group,
// unless there is one; title is the branch's title, nil for none.
func (c *Collector) Branch(path []string, i int, title any, src Source) {
	if !ojson.Truthy(title) {
		title = letter(i)
	}
	c.virtual(path, "branch", title, src)
}

// Condition records the node of a then or else (keyword) subschema at
// path (ending in "_then" or "_else"), unless there is one; title is its
// title, nil for none.
func (c *Collector) Condition(path []string, keyword string, title any, src Source) {
	c.virtual(path, keyword, title, src)
}

func (c *Collector) virtual(path []string, keyword string, title any, src Source) {
	if c == nil {
		return
	}
	n := &node{path: slices.Clone(path), keyword: keyword, title: title, sources: []Source{src}}
	if c.nodes.get(n.key()) == nil {
		c.nodes.put(n)
	}
}

// Reuse records that the walk met a reference again at path dst whose
// target it first walked at path src, which it does not walk again; key
// names the target (the tool chain's cache key).
func (c *Collector) Reuse(src, dst []string, key string) {
	if c == nil || len(src) == 0 || len(dst) == 0 {
		return
	}
	c.reuses = append(c.reuses, reuse{slices.Clone(src), slices.Clone(dst), key})
}

// letter is the label of the branch i the tool chain gives a branch
// without a title: a, b, c... then the number.
func letter(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return strconv.Itoa(i)
}
