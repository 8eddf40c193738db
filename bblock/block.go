package bblock

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Block is one building block: its metadata and the files of its folder.
type Block struct {
	ID   string // identifier, e.g. "mcp.json-rpc"
	Path string // slash-separated folder below the register's sources root ("" for its root); "." for a lone block
	Dir  string // the folder on disk, or "" for an embedded block
	FS   fs.FS  // the block's folder

	Meta     *Metadata
	Files    Files
	Examples *Examples // nil when the block has no examples file

	// Deps lists the ids this block depends on: dependsOn, the block it
	// extends, the blocks its extensionPoints name, then the bblocks://
	// references of its schema, without repeats.
	Deps []string

	// Problems found while loading: errors make the block fail, warnings do not.
	Problems Problems

	embedded bool // the block is the embedded default, as Default returns it

	// tree is the register source tree the block belongs to, and dir its
	// folder in it ("_sources/PATH"); tree is nil for a lone block.
	tree fs.FS
	dir  string
	// urls reads the documents the block names by URL (its schema or
	// context, when bblock.json names a mapped URL): the register's
	// URL mappings and imports; nil for none.
	urls *Imports
}

// Embedded reports whether b is the embedded JSON-RPC 2.0 block, loaded by
// Default and therefore unchanged.
func (b *Block) Embedded() bool { return b.embedded }

// Files names a block's files, relative to its folder; "" when absent.
type Files struct {
	Metadata    string   // bblock.json
	Description string   // description.md
	Schema      string   // schema.yaml, schema.yml or schema.json
	OpenAPI     string   // openapi.yaml, or the file bblock.json's openAPIDocument names
	Context     string   // context.jsonld
	Ontology    []string // ontology.ttl or ontology.owl, or the files of an ontology/ folder
	Examples    string   // examples.yaml
	Shapes      string   // shapes.shacl (or the legacy rules.shacl)
	Tests       []string // files in tests/; a name with "-fail." must fail validation
	TestsConfig string   // tests.yaml

	// SchemaBuilt says that Schema names no source file: jrpcld built the
	// schema (ExtensionSchemaFile, for extension points on a base block
	// with a schema) and the block has none of its own.
	SchemaBuilt bool
}

// Err returns the block's errors as a Problems error, or nil when it has none.
func (b *Block) Err() error {
	if errs := b.Problems.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

// ReadFile reads a file of the block by its slash-separated name relative to
// the block's folder. In a register, the name may lead to the folder of
// another block or any other folder of the sources tree ("../other/x.yaml"),
// as building-block authors share files; names that leave the sources tree
// (or, for a lone block, the block's folder) are refused.
//
// A name that is a URL (the block's schema or context, when bblock.json
// names a URL that --map or url-mappings maps) is read from the file it
// is mapped to; nothing is fetched.
func (b *Block) ReadFile(name string) ([]byte, error) {
	if IsURL(name) {
		data, err := b.urls.ReadURL(name)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", b.ID, err)
		}
		return data, nil
	}
	fsys, p, err := b.locate(name)
	if err != nil {
		return nil, err
	}
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	return data, nil
}

// TreePath returns the slash-separated path, below the root of the
// register source tree, of the file name relative to the block's folder;
// for a lone block, the path below the block's folder.
func (b *Block) TreePath(name string) (string, error) {
	_, p, err := b.locate(name)
	return p, err
}

// locate returns the file system and path that file name of the block is at.
func (b *Block) locate(name string) (fs.FS, string, error) {
	if b.tree == nil {
		clean := path.Clean(strings.TrimPrefix(name, "./"))
		if !fs.ValidPath(clean) {
			return nil, "", fmt.Errorf("block %s: %q leaves the block's folder", b.ID, name)
		}
		return b.FS, clean, nil
	}
	p := path.Join(b.dir, name)
	if path.IsAbs(name) || !fs.ValidPath(p) || p != SourcesDir && !strings.HasPrefix(p, SourcesDir+"/") {
		return nil, "", fmt.Errorf("block %s: %q leaves the register's %s folder", b.ID, name, SourcesDir)
	}
	return b.tree, p, nil
}

// OutputPath returns the folder, below annotated/ and tests/ of a built
// register, that the building-block tool chain gives the block: its id
// without the first component ("ogc.geo.feature" -> "geo/feature"), or
// its folder below _sources when the id has a single component.
func (b *Block) OutputPath() string {
	if _, rest, ok := strings.Cut(b.ID, "."); ok && rest != "" {
		return strings.ReplaceAll(rest, ".", "/")
	}
	if b.Path == "" {
		return "."
	}
	return b.Path
}

// SnippetCode returns a snippet's code: its inline code, or the content of
// the file it refers to, relative to the examples file; with a json-path,
// the part of that file the path selects first, as JSON (see
// SelectJSONPath: an error wrapping ErrNoMatch when it selects nothing).
func (b *Block) SnippetCode(s Snippet) ([]byte, error) {
	if s.Ref == "" {
		return []byte(s.Code), nil
	}
	if strings.Contains(s.Ref, "://") {
		return nil, fmt.Errorf("block %s: snippet ref %q is a URL; jrpcld reads only files of the block", b.ID, s.Ref)
	}
	data, err := b.ReadFile(path.Join(path.Dir(b.Files.Examples), s.Ref))
	if err != nil || s.JSONPath == "" {
		return data, err
	}
	if data, err = SelectJSONPath(data, s.JSONPath); err != nil {
		return nil, fmt.Errorf("block %s: %s: %w", b.ID, s.Ref, err)
	}
	return data, nil
}

// SchemaDoc decodes the block's schema file (YAML or JSON) into plain Go
// values: map[string]any, []any, string, float64 or int, bool and nil.
func (b *Block) SchemaDoc() (any, error) {
	if b.Files.Schema == "" {
		return nil, fmt.Errorf("block %s has no schema file", b.ID)
	}
	return b.decodeFile(b.Files.Schema)
}

// DecodeFile decodes a YAML or JSON file of the block (chosen by extension).
func (b *Block) decodeFile(name string) (any, error) {
	data, err := b.ReadFile(name)
	if err != nil {
		return nil, err
	}
	v, err := ojson.DecodePlain(name, data)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	return v, nil
}

// LoadDir loads the block in the folder dir. Its id is the folder's name.
// Nothing outside dir is read (see DirFS).
func LoadDir(dir string) (*Block, error) {
	b, err := Load(DirFS(dir), path.Base(strings.ReplaceAll(dir, `\`, "/")))
	if err != nil {
		return nil, err
	}
	b.Dir = dir
	return b, nil
}

// Load loads the block whose folder is fsys and gives it the id id. Problems
// in its files are recorded in the block's Problems; the error is non-nil
// only when there is no block to speak of (no readable bblock.json).
func Load(fsys fs.FS, id string) (*Block, error) {
	return load(fsys, id, nil, "", nil)
}

// load loads the block whose folder is fsys; tree and dir, when tree is
// not nil, are the register source tree and the block's folder in it; im
// are the register's URL mappings and imports (nil for none).
func load(fsys fs.FS, id string, tree fs.FS, dir string, im *Imports) (*Block, error) {
	b := &Block{ID: id, Path: ".", FS: fsys, tree: tree, dir: dir, urls: im}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", id, err)
	}
	names := map[string]bool{} // name -> is a regular file
	for _, e := range entries {
		names[e.Name()] = !e.IsDir()
	}
	if !names["bblock.json"] {
		return nil, fmt.Errorf("block %s: no bblock.json in its folder", id)
	}
	b.Files.Metadata = "bblock.json"
	data, err := fs.ReadFile(fsys, "bblock.json")
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", id, err)
	}
	meta, probs, err := ParseMetadata("bblock.json", data)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", id, err)
	}
	b.Meta = meta
	b.Problems = append(b.Problems, probs...)

	one := func(role string, candidates ...string) string {
		var found []string
		for _, c := range candidates {
			if names[c] {
				found = append(found, c)
			}
		}
		if len(found) > 1 {
			b.Problems = append(b.Problems, Problem{File: found[0],
				Message: fmt.Sprintf("two %s files (%s): keep one", role, strings.Join(found, " and "))})
		}
		if len(found) == 0 {
			return ""
		}
		return found[0]
	}
	b.Files.Description = one("description", "description.md")
	b.Files.Schema = one("schema", "schema.yaml", "schema.yml", "schema.json")
	b.Files.Context = one("context", "context.jsonld")
	b.Files.OpenAPI = one("OpenAPI document", "openapi.yaml")
	// bblock.json may name the schema and the context; a named file and a
	// default one side by side is the tool chain's error too.
	for _, named := range []struct {
		key, value string
		file       *string
	}{{"schema", meta.Schema, &b.Files.Schema}, {"ldContext", meta.LdContext, &b.Files.Context},
		{"openAPIDocument", meta.OpenAPIDocument, &b.Files.OpenAPI}} {
		switch {
		case named.value == "":
		case strings.Contains(named.value, "://") && named.key != "openAPIDocument" && im.MapsURL(named.value):
			// Read from the file it is mapped to, as the tool chain reads
			// it through its url-mappings (or fetches it).
			*named.file = named.value
		case strings.Contains(named.value, "://"):
			b.Problems = append(b.Problems, Problem{File: "bblock.json", Pointer: "/" + named.key,
				Message: fmt.Sprintf("%q is the URL %s: jrpcld works offline and does not fetch it; map it to a local file with --map %s=FILE (or url-mappings in %s)", named.key, named.value, named.value, ConfigFile)})
		case *named.file != "" && path.Clean(named.value) != *named.file:
			b.Problems = append(b.Problems, Problem{File: "bblock.json", Pointer: "/" + named.key,
				Message: fmt.Sprintf("%q names %s, and the folder also has %s: keep one", named.key, named.value, *named.file)})
		default:
			*named.file = path.Clean(named.value)
		}
	}
	b.Files.Examples = one("examples", "examples.yaml", "examples.yml")
	b.Files.Shapes = one("SHACL shapes", "shapes.shacl", "rules.shacl")
	b.Files.TestsConfig = one("tests", "tests.yaml", "tests.yml")
	if o := one("ontology", "ontology.ttl", "ontology.owl"); o != "" {
		b.Files.Ontology = []string{o}
	} else if isFile, ok := names["ontology"]; ok && !isFile {
		b.Files.Ontology = listFiles(fsys, "ontology", ".ttl", ".owl")
	}
	if isFile, ok := names["tests"]; ok && !isFile {
		b.Files.Tests = listFiles(fsys, "tests", "")
	}

	if b.Files.Examples != "" {
		data, err := fs.ReadFile(fsys, b.Files.Examples)
		if err == nil {
			var probs []Problem
			b.Examples, probs, err = ParseExamples(b.Files.Examples, data)
			b.Problems = append(b.Problems, probs...)
		}
		if err != nil {
			b.Problems = append(b.Problems, Problem{File: b.Files.Examples, Message: err.Error()})
		}
	}

	b.Deps = append(b.Deps, meta.DependsOn...)
	if e := meta.Extends; e != nil {
		// The block's schema is built on the extended block's annotated
		// schema, which must be built first.
		if e.ID == b.ID {
			b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extends",
				Message: fmt.Sprintf("block %s extends itself: name another block", b.ID)})
		} else if !slices.Contains(b.Deps, e.ID) {
			b.Deps = append(b.Deps, e.ID)
		}
	}
	if ep := meta.ExtensionPoints; ep != nil {
		// The tool chain counts the base block and every extension source
		// and target among the block's dependencies.
		for _, id := range ep.Ids() {
			if id != b.ID && !slices.Contains(b.Deps, id) {
				b.Deps = append(b.Deps, id)
			}
		}
	}
	if tree == nil {
		b.addRefDeps(nil, nil)
	}
	return b, nil
}

// addRefDeps adds to the block's dependencies the blocks its schema files
// and its OpenAPI document refer to (see blockRefs); docs maps the tree
// path, without extension, of every block's schema file and OpenAPI
// document to the block's id, and im stands for the imported registers
// (nil for none), whose documents a reference may name by URL.
func (b *Block) addRefDeps(docs map[string]string, im *Imports) {
	for _, file := range []string{b.Files.Schema, b.Files.OpenAPI} {
		if file == "" {
			continue
		}
		refs, err := b.blockRefs(file, docs, im)
		if err != nil {
			b.Problems = append(b.Problems, Problem{File: file, Message: err.Error()})
		}
		for _, r := range refs {
			if !slices.Contains(b.Deps, r) {
				b.Deps = append(b.Deps, r)
			}
		}
	}
}

// listFiles lists the regular files below dir (recursively) whose extension
// is ext, or all when ext is "", sorted.
func listFiles(fsys fs.FS, dir string, exts ...string) []string {
	var out []string
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range exts {
			if e == "" || path.Ext(p) == e {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// BlockRefPrefix starts a $ref that points into another block of the register.
const BlockRefPrefix = "bblocks://"

// blockRefs returns the ids of the blocks that the block's file start (its
// schema or its OpenAPI document) refers to, in order of first appearance:
// bblocks:// references, and paths to another block's schema file or
// OpenAPI document (or its .json/.yaml twin), as the tool chain counts them;
// the URL of a document of an imported block (im); docs maps the tree
// path, without extension, of every block's schema and OpenAPI document to
// the block's id. It follows references to the block's other files in its
// folder.
func (b *Block) blockRefs(start string, docs map[string]string, im *Imports) (ids []string, err error) {
	visited := map[string]bool{}
	var errs []error
	add := func(id string) {
		if id != "" && id != b.ID && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	var visitFile func(name string)
	visitFile = func(name string) {
		if visited[name] {
			return
		}
		visited[name] = true
		doc, err := b.decodeRefs(name)
		if err != nil {
			errs = append(errs, err)
			return
		}
		walkRefs(doc, func(ref string) {
			switch {
			case strings.HasPrefix(ref, BlockRefPrefix):
				id := strings.TrimPrefix(ref, BlockRefPrefix)
				if i := strings.IndexAny(id, "#/"); i >= 0 {
					id = id[:i]
				}
				add(id)
			case strings.Contains(ref, "://"):
				u, _, _ := strings.Cut(ref, "#")
				if id, ok := docs[u]; ok {
					add(id) // the URL a block of the register names as its schema
				} else if id, ok := im.BlockOfDocument(u); ok {
					add(id)
				}
			case strings.HasPrefix(ref, "#") || strings.Contains(ref, ":"):
				// local pointer, anchor, or another scheme: not a file
			case IsURL(name):
				// Relative to a schema named by URL: the URL it resolves to.
				file, _, _ := strings.Cut(ref, "#")
				base, err1 := url.Parse(name)
				rel, err2 := url.Parse(file)
				if err1 != nil || err2 != nil {
					return
				}
				u := base.ResolveReference(rel).String()
				if id, ok := docs[u]; ok {
					add(id)
				} else if id, ok := im.BlockOfDocument(u); ok {
					add(id)
				}
			default:
				file, _, _ := strings.Cut(ref, "#")
				file = path.Join(path.Dir(name), file)
				tp, err := b.TreePath(file)
				if err != nil {
					return
				}
				switch path.Ext(tp) {
				case ".yaml", ".yml", ".json":
					if id, ok := docs[strings.TrimSuffix(tp, path.Ext(tp))]; ok && id != b.ID {
						add(id)
						return
					}
				}
				if b.tree != nil && tp != b.dir && !strings.HasPrefix(tp, b.dir+"/") {
					return // another folder's file, not another block's document
				}
				if _, err := b.stat(file); err == nil {
					visitFile(file)
				}
			}
		})
	}
	visitFile(start)
	return ids, errors.Join(errs...)
}

// decodeRefs decodes a JSON or YAML file of the block to look for its
// references: mapping keys that are not strings (an OpenAPI document's
// response codes, 200:) are read as their text.
func (b *Block) decodeRefs(name string) (any, error) {
	data, err := b.ReadFile(name)
	if err != nil {
		return nil, err
	}
	v, err := ojson.Decode(name, data)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	return ojson.Plain(v), nil
}

// stat returns the file information of file name of the block.
func (b *Block) stat(name string) (fs.FileInfo, error) {
	fsys, p, err := b.locate(name)
	if err != nil {
		return nil, err
	}
	return fs.Stat(fsys, p)
}

// walkRefs calls fn for every "$ref" string in a decoded document, or
// the "x-bblocks-ref" beside it, which the tool chain reads in its place.
func walkRefs(v any, fn func(string)) {
	switch x := v.(type) {
	case map[string]any:
		if r, ok := x["x-bblocks-ref"].(string); ok {
			fn(r)
		} else if r, ok := x["$ref"].(string); ok {
			fn(r)
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkRefs(x[k], fn)
		}
	case []any:
		for _, e := range x {
			walkRefs(e, fn)
		}
	}
}

// Inherits returns the ids of the blocks b takes from: those it depends on,
// then those it is a profile of, in the order the OGC tool chain lists
// them (SHACL shapes, inherited semantic-uplift steps).
func (b *Block) Inherits() []string {
	return append(slices.Clone(b.Deps), b.ProfileOf()...)
}

// ProfileOf returns the ids of the blocks b is a profile of: isProfileOf,
// or the older profileOf, of its bblock.json, without "bblocks://".
func (b *Block) ProfileOf() []string {
	var out []string
	for _, f := range b.Meta.Fields {
		if f.Key == "isProfileOf" || f.Key == "profileOf" {
			for _, id := range stringOrList(f.Value) {
				out = append(out, strings.TrimPrefix(id, BlockRefPrefix))
			}
		}
	}
	return out
}
