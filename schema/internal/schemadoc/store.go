// Package schemadoc serves the JSON schema documents of building blocks
// offline, to the validator (package schema) and to the tools that walk
// schemas (the context annotator): a block's own files, the other blocks of
// its register through bblocks:// ids, and a plain schema file's siblings.
// References are rewritten where a validator would not resolve them as
// building-block authors mean them; nothing is fetched.
package schemadoc

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Store loads and rewrites schema documents by URL. Block documents have
// URLs bblocks://ID/FILE; other files of a register's sources tree
// bblocks:///_sources/PATH; the schemas of imported registers their own URLs,
// read from the local copies the register's Imports map. Plain files have
// file:// URLs and may refer only to files in their own folder and below.
type Store struct {
	blocks  map[string]*bblock.Block
	reg     *bblock.Register // the register, or nil
	imports []string         // register imports, named in errors
	fileDir string           // folder a plain schema file may read below, or ""

	mu   sync.Mutex
	docs map[string]any // URL without fragment -> rewritten document
}

// NewFileStore returns a store serving the plain schema file at the
// absolute path file, which may refer to files in its folder and below,
// and the file's URL.
func NewFileStore(file string) (*Store, string) {
	st := newStore()
	st.fileDir = filepath.Dir(file)
	return st, FileURL(file)
}

func newStore() *Store {
	return &Store{blocks: map[string]*bblock.Block{}, docs: map[string]any{}}
}

// NewBlockStore returns a store serving block b and, when reg is not nil,
// the other blocks of its register.
func NewBlockStore(b *bblock.Block, reg *bblock.Register) *Store {
	st := newStore()
	st.blocks[b.ID] = b
	if reg != nil {
		for _, rb := range reg.Blocks {
			if _, ok := st.blocks[rb.ID]; !ok {
				st.blocks[rb.ID] = rb
			}
		}
		st.imports = reg.Config.Imports
		st.reg = reg
	}
	return st
}

// treeURL is the URL of a file of the sources tree that belongs to no block.
func treeURL(treePath string) string { return bblock.BlockRefPrefix + "/" + treePath }

// fileURL returns the URL of the file at treePath, a path below the root of
// the register's sources tree: that of the block whose folder holds it, or
// a tree URL.
func (s *Store) treeFileURL(treePath string) string {
	var owner *bblock.Block
	best := -1
	for _, b := range s.blocks {
		dir, err := b.TreePath(".")
		if err != nil || !strings.HasPrefix(treePath, dir+"/") || len(dir) <= best {
			continue
		}
		owner, best = b, len(dir)
	}
	if owner == nil {
		return treeURL(treePath)
	}
	return BlockURL(owner.ID, treePath[best+1:])
}

// BlockURL returns the URL of file in block id.
func BlockURL(id, file string) string {
	if bblock.IsURL(file) {
		return file // a schema bblock.json names by a mapped URL
	}
	return bblock.BlockRefPrefix + id + "/" + file
}

// Load implements jsonschema.URLLoader.
func (s *Store) Load(u string) (any, error) {
	return s.Doc(u)
}

// Doc returns the rewritten document at u (a URL without fragment).
func (s *Store) Doc(u string) (any, error) {
	s.mu.Lock()
	d, ok := s.docs[u]
	s.mu.Unlock()
	if ok {
		return d, nil
	}
	raw, err := s.read(u)
	if err != nil {
		return nil, err
	}
	if err := s.rewrite(u, raw); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.docs[u] = raw
	s.mu.Unlock()
	return raw, nil
}

// read decodes the document at u without rewriting it.
func (s *Store) read(u string) (any, error) {
	switch {
	case strings.HasPrefix(u, bblock.BlockRefPrefix+"/"):
		if s.reg == nil {
			return nil, fmt.Errorf("%s: not in a register", u)
		}
		p := strings.TrimPrefix(u, bblock.BlockRefPrefix+"/")
		data, err := s.reg.ReadSource(p)
		if err != nil {
			return nil, err
		}
		return ojson.DecodePlain(p, data)
	case strings.HasPrefix(u, bblock.BlockRefPrefix):
		rest := strings.TrimPrefix(u, bblock.BlockRefPrefix)
		id, file, _ := strings.Cut(rest, "/")
		b := s.blocks[id]
		if b == nil {
			return nil, s.unknownBlock(id)
		}
		if file == "" {
			if b.Files.Schema == "" {
				return nil, fmt.Errorf("block %s has no schema", id)
			}
			file = b.Files.Schema
		}
		data, err := b.ReadFile(file)
		if err != nil {
			return nil, err
		}
		doc, err := ojson.DecodePlain(file, data)
		if err != nil || b.Meta == nil || b.Meta.Extends == nil || file != b.Files.Schema {
			return doc, err
		}
		// The schema of a block that extends another, as the tool chain
		// builds and publishes it (bblock.Extends.Schema).
		o, ok := ojson.FromPlain(doc).(*ojson.Object)
		if !ok {
			return nil, fmt.Errorf("%s: not a schema object", file)
		}
		ext, _ := b.Meta.Extends.Schema(o, bblock.BlockRefPrefix+b.Meta.Extends.ID)
		return ojson.Plain(ext), nil
	case strings.HasPrefix(u, "file://") && s.fileDir != "":
		p, err := fileURLPath(u)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(s.fileDir, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s is outside the schema's folder %s: %w", p, s.fileDir, ErrNotLocal)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return ojson.DecodePlain(p, data)
	}
	if s.reg != nil && s.reg.Imports != nil {
		data, err := s.reg.Imports.ReadURL(u)
		if err == nil {
			return ojson.DecodePlain(u, data)
		}
		if !errors.Is(err, bblock.ErrNotImported) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%s: jrpcld does not fetch schemas; map the URL to a local file with --map URL=FILE (or url-mappings in bblocks-config.yaml), or save it locally and refer to the file instead: %w", u, ErrNotLocal)
}

// resolvePath resolves the relative reference pu found in the document at
// u. In a register it may lead to another block's files or any file of the
// sources tree; a lone block's references stay in its folder.
func (s *Store) resolvePath(u string, pu *url.URL) (string, error) {
	bu, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	if bu.Scheme != "bblocks" {
		if p := path.Join(path.Dir(strings.TrimPrefix(bu.Path, "/")), pu.Path); bu.Scheme == "file" && (p == ".." || strings.HasPrefix(p, "../")) {
			return "", fmt.Errorf("it leaves the schema's folder: %w", ErrNotLocal)
		}
		return bu.ResolveReference(pu).String(), nil
	}
	file := strings.TrimPrefix(bu.Path, "/")
	var tp string
	if bu.Host == "" { // a file of the tree
		tp = path.Join(path.Dir(file), pu.Path)
		if tp != bblock.SourcesDir && !strings.HasPrefix(tp, bblock.SourcesDir+"/") {
			return "", fmt.Errorf("it leaves the register's %s folder: %w", bblock.SourcesDir, ErrNotLocal)
		}
		return s.treeFileURL(tp), nil
	}
	b := s.blocks[bu.Host]
	if b == nil {
		return "", s.unknownBlock(bu.Host)
	}
	if tp, err = b.TreePath(path.Join(path.Dir(file), pu.Path)); err != nil {
		return "", fmt.Errorf("%v: %w", err, ErrNotLocal)
	}
	if s.reg == nil {
		return BlockURL(b.ID, tp), nil
	}
	return s.treeFileURL(tp), nil
}

// imported returns the URL of the schema of imported block id.
func (s *Store) imported(id string) (string, bool) {
	if s.reg == nil {
		return "", false
	}
	if b, ok := s.reg.Imports.Block(id); ok && b.Schema != "" {
		return b.Schema, true
	}
	return "", false
}

func (s *Store) unknownBlock(id string) error {
	msg := fmt.Sprintf("bblocks://%s: %v %q", id, bblock.ErrUnknownBlock, id)
	if len(s.imports) > 0 {
		msg += fmt.Sprintf(" (it may be in the import %s: map it to a local copy of that register with --import URL=DIR)", strings.Join(s.imports, ", "))
	}
	return errors.New(msg)
}

// FileURL returns the file: URL of the absolute path p.
func FileURL(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func fileURLPath(u string) (string, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	return filepath.FromSlash(pu.Path), nil
}

// isMetaSchema reports whether u is one of the JSON Schema meta-schemas,
// which the validator carries with it.
func isMetaSchema(u string) bool {
	return strings.HasPrefix(u, "http://json-schema.org/") || strings.HasPrefix(u, "https://json-schema.org/")
}

// rewrite rewrites, in place, the references of the document doc at u:
//   - "#definitions/X" (no leading slash) becomes "#/definitions/X";
//   - "#Name" becomes a JSON pointer to the subschema with $anchor Name (or a
//     draft-07 "$id": "#Name"), since draft-07 validators ignore $anchor;
//   - "bblocks://ID#frag" becomes the URL of block ID's schema file;
//   - a reference to the network or outside the local files is an error.
func (s *Store) rewrite(u string, doc any) error {
	var errs []error
	walkSchemas(doc, func(m map[string]any) {
		ref, ok := m["$ref"].(string)
		if !ok {
			return
		}
		target, err := s.ResolveRef(u, doc, ref)
		if err != nil {
			errs = append(errs, err)
			return
		}
		m["$ref"] = target
	})
	return errors.Join(errs...)
}

// resolveRef returns the absolute URL with a JSON-pointer fragment that ref,
// found in the document doc at u, means.
func (s *Store) ResolveRef(u string, doc any, ref string) (string, error) {
	base, frag, _ := strings.Cut(ref, "#")
	var docURL string
	var target any
	switch {
	case base == "":
		docURL, target = u, doc
	case strings.HasPrefix(base, bblock.BlockRefPrefix):
		id := strings.TrimPrefix(base, bblock.BlockRefPrefix)
		id, file, _ := strings.Cut(id, "/")
		b := s.blocks[id]
		if b == nil {
			imp, ok := s.imported(id)
			if !ok {
				return "", fmt.Errorf("$ref %q: %w", ref, s.unknownBlock(id))
			}
			docURL = imp
			break
		}
		if file == "" {
			file = b.Files.Schema
		}
		docURL = BlockURL(id, file)
	case isMetaSchema(base):
		return ref, nil
	default:
		pu, err := url.Parse(base)
		if err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		if pu.Scheme != "" && s.reg != nil && s.reg.Imports != nil {
			docURL = base // read from a mapped import, or refused then
			break
		}
		if pu.Scheme != "" || strings.HasPrefix(base, "/") {
			return "", fmt.Errorf("$ref %q: jrpcld does not fetch schemas from outside the register; save the schema in the sources tree and refer to it by a relative path: %w", ref, ErrNotLocal)
		}
		if docURL, err = s.resolvePath(u, pu); err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
	}
	if frag == "" || strings.HasPrefix(frag, "/") {
		return docURL + "#" + frag, nil
	}
	if strings.Contains(frag, "/") {
		// "#definitions/X": a pointer missing its leading slash.
		return docURL + "#/" + frag, nil
	}
	if target == nil {
		d, err := s.Doc(docURL)
		if err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		target = d
	}
	ptr, ok := FindAnchor(target, frag)
	if !ok {
		return "", fmt.Errorf("$ref %q: no $anchor %q in %s", ref, frag, s.Display(docURL))
	}
	return docURL + "#" + ptr, nil
}

// findAnchor returns the JSON pointer of the subschema of doc that declares
// the anchor name, with "$anchor" or a draft-07 "$id": "#name".
func FindAnchor(doc any, name string) (string, bool) {
	var found string
	var ok bool
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		if ok {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if a, _ := x["$anchor"].(string); a == name {
				found, ok = ptr, true
				return
			}
			if id, _ := x["$id"].(string); id == "#"+name {
				found, ok = ptr, true
				return
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if isDataKeyword(k) {
					continue
				}
				walk(x[k], ptr+"/"+jsonptr.Escape(k))
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(doc, "")
	return found, ok
}

// isDataKeyword reports whether the value of keyword k is instance data
// rather than schemas, so references inside it are not references.
func isDataKeyword(k string) bool {
	switch k {
	case "const", "enum", "examples", "default":
		return true
	}
	return false
}

// walkSchemas calls fn for every object of a schema document, skipping
// instance data (const, enum, examples, default).
func walkSchemas(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(x)
		for k, e := range x {
			if !isDataKeyword(k) {
				walkSchemas(e, fn)
			}
		}
	case []any:
		for _, e := range x {
			walkSchemas(e, fn)
		}
	}
}

// display shortens a document URL for messages: a block's file shows as
// ID/FILE, a local file as its path relative to the schema's folder.
func (s *Store) Display(u string) string {
	doc, frag, hasFrag := strings.Cut(u, "#")
	switch {
	case strings.HasPrefix(doc, bblock.BlockRefPrefix):
		doc = strings.TrimPrefix(doc, bblock.BlockRefPrefix)
	case strings.HasPrefix(doc, "file://"):
		if p, err := fileURLPath(doc); err == nil {
			doc = p
			if rel, err := filepath.Rel(s.fileDir, p); err == nil && s.fileDir != "" {
				doc = filepath.ToSlash(rel)
			}
		}
	}
	if hasFrag {
		return doc + "#" + frag
	}
	return doc
}
