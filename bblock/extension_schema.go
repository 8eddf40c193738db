package bblock

import (
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/bblock/internal/extpoints"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// ExtensionSchemaFile is the name jrpcld gives the schema it builds for a
// block with extension points on a base block that has a schema, when the
// block has no schema file of its own (see docs/ogc.md, "Extension
// points"). The file exists only in the register as loaded.
const ExtensionSchemaFile = "extension-points.schema.json"

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

// SchemaOf returns the location of the schema of block id (a tree path,
// or a URL) and whether the block is known and has a schema.
func (x *extensionBuilder) SchemaOf(id string) (string, bool) {
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

// Key returns the identity the tool chain matches references by: the
// block whose schema the document is, else its location, with the
// fragment.
func (x *extensionBuilder) Key(loc, frag string) string {
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

// Resolve resolves reference ref found in the document at from: the
// location of the document it leads to and the fragment.
func (x *extensionBuilder) Resolve(ref, from string) (loc, frag string, err error) {
	target, frag, _ := strings.Cut(ref, "#")
	switch {
	case target == "":
		return from, frag, nil
	case strings.HasPrefix(target, BlockRefPrefix):
		id := strings.TrimPrefix(target, BlockRefPrefix)
		l, ok := x.SchemaOf(id)
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

// Subschema returns the part of the document at loc that JSON pointer frag
// selects ("" for the whole).
func (x *extensionBuilder) Subschema(loc, frag string) (any, error) {
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

// BlockRef returns bblocks://id. With SchemaOf, Subschema, Resolve, Key
// and OutRef, it makes the builder the extpoints.Documents of the register.
func (x *extensionBuilder) BlockRef(id string) string { return BlockRefPrefix + id }

// schema builds the schema of block b, whose extension points name a base
// block with a schema (extpoints.Build); where it departs from the tool
// chain's on purpose, b gets a warning.
func (x *extensionBuilder) schema(b *Block) (*ojson.Object, error) {
	ep := b.Meta.ExtensionPoints
	dir, err := b.TreePath(".")
	if err != nil {
		return nil, err
	}
	out, departs, err := extpoints.Build(x, dir, ep.Base, ep.Extensions)
	if err != nil {
		return nil, err
	}
	if len(departs) > 0 {
		b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extensionPoints", Severity: diag.Warning,
			Message: "the schema built from the base block " + ep.Base + " departs from the OGC tool chain's on purpose (docs/ogc.md, departure 19): " + strings.Join(departs, "; ")})
	}
	return out, nil
}

// OutRef returns what reference ref of the document at doc becomes in a
// schema built in the folder at tree path dir: a URL stays; a reference
// to a block's schema becomes bblocks://ID (with its fragment); one into
// another file of the sources tree becomes a path relative to dir.
func (x *extensionBuilder) OutRef(ref, doc, dir string) (string, bool, error) {
	if IsURL(ref) {
		return ref, false, nil
	}
	loc, frag, err := x.Resolve(ref, doc)
	if err != nil {
		return "", false, err
	}
	if frag != "" {
		frag = "#" + frag
	}
	id := x.blockOfLoc(loc)
	departs := frag != "" || id == ""
	if id != "" {
		return BlockRefPrefix + id + frag, departs, nil
	}
	if IsURL(loc) {
		return loc + frag, departs, nil
	}
	rel, err := relPath(dir, loc)
	if err != nil {
		return "", departs, err
	}
	return rel + frag, departs, nil
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
