package bblock

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// jsonldPrefix begins the names of the JSON-LD annotations of a schema.
const jsonldPrefix = "x-jsonld-"

// Extends is bblock.json's extends: the block's schema is built on that of
// another block. The tool chain makes the block's schema an allOf of a
// reference to the extended block's schema and of the block's own schema,
// which lands at Path inside it when a path is given (see
// docs/ogc.md, "extends").
type Extends struct {
	ID   string        // the extended block's identifier, without "bblocks://"
	Path []PathSegment // where the block's schema lands; nil for the root
}

// PathSegment is one property of an extends path: "name", or "name[]" for
// the items of an array property.
type PathSegment struct {
	Name  string
	Array bool
}

// Pointer returns the JSON pointer, below the second member of the allOf
// the tool chain builds, of the subschema where the block's own schema
// lands: "" for the root.
func (e *Extends) Pointer() string {
	var b strings.Builder
	for _, s := range e.Path {
		b.WriteString("/properties/")
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s.Name))
		if s.Array {
			b.WriteString("/items")
		}
	}
	return b.String()
}

// parseExtends decodes an extends member as the tool chain reads it: a
// block identifier, or an object with itemIdentifier and an optional path.
func parseExtends(raw json.RawMessage) (*Extends, error) {
	var id string
	if json.Unmarshal(raw, &id) == nil {
		return newExtends(id, nil)
	}
	var obj struct {
		ItemIdentifier *string          `json:"itemIdentifier"`
		Path           *json.RawMessage `json:"path"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	if obj.ItemIdentifier == nil {
		return nil, errors.New("itemIdentifier (the id of the block it extends) is missing")
	}
	var p *string
	if obj.Path != nil && string(*obj.Path) != "null" {
		var s string
		if err := json.Unmarshal(*obj.Path, &s); err != nil {
			return nil, fmt.Errorf("path must be a string (such as \"a.b[].c\"), got %s", *obj.Path)
		}
		p = &s
	}
	return newExtends(*obj.ItemIdentifier, p)
}

func newExtends(id string, p *string) (*Extends, error) {
	id = strings.TrimPrefix(id, BlockRefPrefix)
	if id == "" {
		return nil, errors.New("the id of the block it extends is empty")
	}
	if strings.Contains(id, "#") {
		return nil, fmt.Errorf("%q holds a fragment: a block extends a whole building block, not a part of one", id)
	}
	e := &Extends{ID: id}
	if p == nil {
		return e, nil
	}
	segs, err := ParseExtendsPath(*p)
	if err != nil {
		return nil, err
	}
	e.Path = segs
	return e, nil
}

// ParseExtendsPath splits an extends path as the tool chain does: "", "."
// and "$" stand for the root; otherwise, after surrounding spaces and one
// leading "." or "$", the path is split at each dot that is followed by an
// even number of double quotes (so a quoted name may hold dots), the quotes
// are dropped, and a name ending in "[]" is an array property whose items
// take the rest. An empty name, which the tool chain would make a property
// named "", is an error.
func ParseExtendsPath(p string) ([]PathSegment, error) {
	switch p {
	case "", ".", "$":
		return nil, nil
	}
	s := strings.TrimSpace(p)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "$") {
		s = s[1:]
	}
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' && strings.Count(s[i+1:], `"`)%2 == 0 {
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	parts = append(parts, s[start:])
	segs := make([]PathSegment, 0, len(parts))
	for i, part := range parts {
		name := strings.ReplaceAll(part, `"`, "")
		seg := PathSegment{Name: name}
		if strings.HasSuffix(name, "[]") {
			seg = PathSegment{Name: strings.TrimSuffix(name, "[]"), Array: true}
		}
		if seg.Name == "" {
			return nil, fmt.Errorf("path %q: property %d is empty (write the path as property names separated by dots, such as \"a.b[].c\", a name in double quotes when it holds a dot)", p, i+1)
		}
		segs = append(segs, seg)
	}
	return segs, nil
}

// checkExtends reports a chain of extended blocks that comes back to the
// block: its schema would be built on itself. blocks are the register's
// blocks by id; free holds the blocks known to be on no such cycle, which
// it adds to, so that the blocks of a chain are walked once in all.
func (b *Block) checkExtends(blocks map[string]*Block, free map[string]bool) {
	chain := []string{b.ID}
	at := map[string]int{b.ID: 0}
	for cur := b.Meta.Extends.ID; cur != b.ID; {
		if i, ok := at[cur]; ok {
			// A cycle further on, reported by the blocks on it: those
			// before it are on none.
			markFree(free, chain[:i])
			return
		}
		next := blocks[cur]
		if free[cur] || next == nil || next.Meta.Extends == nil {
			markFree(free, chain)
			return
		}
		at[cur] = len(chain)
		chain = append(chain, cur)
		cur = next.Meta.Extends.ID
	}
	if len(chain) == 1 {
		return // a block that extends itself, reported when it was loaded
	}
	b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extends",
		Message: fmt.Sprintf("extends cycle: %s -> %s (a block cannot be built on itself, through other blocks or not)", strings.Join(chain, " -> "), b.ID)})
}

func markFree(free map[string]bool, ids []string) {
	for _, id := range ids {
		free[id] = true
	}
}

// Schema returns the schema of a block that extends another as the tool
// chain builds it before annotating it (bblocks-postprocess, schema.py
// annotate_schema): an allOf of a reference ref to the extended block's
// annotated schema and of the block's own schema; with a path, the block's
// schema, without $schema
// and x-jsonld-* members, lands at that path of a tree of properties
// ("a[]" is an array property whose items go on). The x-jsonld-* members of
// the block's schema are copied to the root, where its context is read
// from. References into the block's schema (#/...) are moved with it,
// which the tool chain does not do; moved says whether there were any.
func (e *Extends) Schema(schema *ojson.Object, ref string) (out *ojson.Object, moved bool) {
	inserted := schema
	if len(e.Path) > 0 {
		inserted = ojson.NewObject()
		inner := inserted
		for _, seg := range e.Path {
			props := ojson.NewObject()
			inner.Set("properties", props)
			next := ojson.NewObject()
			if seg.Array {
				arr := ojson.NewObject()
				arr.Set("type", "array")
				arr.Set("items", next)
				props.Set(seg.Name, arr)
			} else {
				props.Set(seg.Name, next)
			}
			inner = next
		}
		for _, k := range schema.Keys() {
			if k != "$schema" && !strings.HasPrefix(k, jsonldPrefix) {
				inner.Set(k, schema.Value(k))
			}
		}
	}
	moved = moveLocalRefs(inserted, "/allOf/1"+e.Pointer())
	out = ojson.NewObject()
	out.Set("$schema", "https://json-schema.org/draft/2020-12/schema")
	base := ojson.NewObject()
	base.Set("$ref", ref)
	out.Set("allOf", []any{base, inserted})
	for _, k := range schema.Keys() {
		if strings.HasPrefix(k, jsonldPrefix) {
			out.Set(k, ojson.Clone(schema.Value(k)))
		}
	}
	return out, moved
}

// moveLocalRefs prefixes each "$ref" that is a JSON pointer into the
// document ("#", "#/...") found below v with the pointer prefix, and reports
// whether it met any.
func moveLocalRefs(v any, prefix string) bool {
	moved := false
	switch x := v.(type) {
	case *ojson.Object:
		if ref, ok := x.Value("$ref").(string); ok && strings.HasPrefix(ref, "#") && !strings.Contains(ref[1:], "#") {
			switch frag := ref[1:]; {
			case frag == "" || strings.HasPrefix(frag, "/"):
				x.Set("$ref", "#"+prefix+frag)
				moved = true
			case strings.Contains(frag, "/"):
				// A pointer without its leading slash (#definitions/X),
				// which jrpcld reads as one (docs/ogc.md, departure 4).
				x.Set("$ref", "#"+prefix+"/"+frag)
				moved = true
			}
			// #Name names an $anchor, found wherever it is.
		}
		for _, k := range x.Keys() {
			if moveLocalRefs(x.Value(k), prefix) {
				moved = true
			}
		}
	case []any:
		for _, e := range x {
			if moveLocalRefs(e, prefix) {
				moved = true
			}
		}
	}
	return moved
}
