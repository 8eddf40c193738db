package toolchain

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/register/schemaprops"
)

// This file and annotate.go, build.go and merge.go reproduce what the OGC
// building-block tool chain does to a register (bblocks-postprocess over
// ogc-na-tools' annotate_schema.py, as of 2026-07): each block's schema is
// annotated from the block's own context, and each block's JSON-LD context
// is built from its annotated schema and those its references lead to. The
// results depend on the order of object members and on which subschema
// object a reference reaches, so the documents are ojson values and the
// walks follow the tool chain's own order, quirks included; where the tool
// chain is arguably wrong, jrpcld says so in a warning (see docs/ogc.md).
//
// Documents are named by location: "/_sources/PATH" for a file of the
// register's sources tree, "/build/annotated/OUT/schema.yaml" for the
// annotated schema of the block whose output path is OUT, or an absolute
// URL (an imported register's file).

// Where the references of an annotated schema lead (see Toolchain.Annotate):
// annotated schemas and other files of the sources tree, below the root of
// the register as the tool chain publishes it.
const (
	AnnotatedRefPrefix = "/build/annotated/"
	SourcesRefPrefix   = "/" + bblock.SourcesDir + "/"
)

const annotatedRoot = AnnotatedRefPrefix

// annotatedLoc returns the location of block b's annotated schema.
func annotatedLoc(b *bblock.Block) string {
	return annotatedRoot + b.OutputPath() + "/schema.yaml"
}

// sourceLoc returns the location of file name of block b.
func sourceLoc(b *bblock.Block, name string) (string, error) {
	if bblock.IsURL(name) {
		return name, nil // named by a mapped URL in bblock.json
	}
	tp, err := b.TreePath(name)
	if err != nil {
		return "", err
	}
	if b.Path == "." {
		// A lone block: its folder stands for the sources tree. (A block
		// at the root of a register's _sources has the path "".)
		if !strings.HasPrefix(tp, bblock.SourcesDir+"/") {
			tp = path.Join(bblock.SourcesDir, tp)
		}
	}
	return "/" + tp, nil
}

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// isURL reports whether s is an absolute URL (has a scheme).
func isURL(s string) bool { return schemeRE.MatchString(s) }

// joinLoc resolves the reference ref (no fragment) against the location
// base: an absolute URL stays as it is; against a URL it resolves as URLs
// do; against a tree location it is a path, which may not leave the tree.
func joinLoc(base, ref string) (string, error) {
	switch {
	case isURL(ref):
		return ref, nil
	case isURL(base):
		bu, err := url.Parse(base)
		if err != nil {
			return "", err
		}
		ru, err := url.Parse(ref)
		if err != nil {
			return "", err
		}
		return bu.ResolveReference(ru).String(), nil
	}
	p := ref
	if !strings.HasPrefix(ref, "/") {
		p = path.Dir(base) + "/" + ref
	}
	depth := 0
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return "", fmt.Errorf("%q leads outside the register's %s folder", ref, bblock.SourcesDir)
			}
		default:
			depth++
		}
	}
	return path.Clean(p), nil
}

// splitRef splits a reference at its first '#'. frag is nil when there is
// no '#' (Python's None in the tool chain, which its cache keys spell).
func splitRef(ref string) (loc string, frag *string) {
	loc, f, ok := strings.Cut(ref, "#")
	if !ok {
		return loc, nil
	}
	return loc, &f
}

func fragText(f *string) string {
	if f == nil {
		return "None"
	}
	return *f
}

// toolchain holds what the tool chain's algorithms read for one register,
// and the annotated schemas made so far. It is safe for concurrent use.
type toolchain struct {
	reg     *bblock.Register // nil for a lone block
	lone    *bblock.Block    // the block when reg is nil
	opts    *ldctx.Options
	imports *bblock.Imports

	indexOnce sync.Once
	ix        *blockIndex

	mu        sync.Mutex
	raw       map[string]any             // decoded files by location; never changed
	annotated map[string]*annotateResult // by block id

	// memo holds the walks of referenced schemas that context builds
	// recorded, for the others to replay (memo.go); noMemo turns it off.
	memo   walkMemo
	noMemo bool
	// refNesting, when not 0, bounds the nesting of the context builds'
	// walks through $ref instead of maxRefNesting (tests lower it).
	refNesting int
	// walks counts the subschemas the context builds have walked, which
	// the tests bound, replays the walks replayed and rewalks the builds
	// made again without replays.
	walks, replays, rewalks atomic.Int64
}

// annotateResult is the outcome of annotating one block's schema.
type annotateResult struct {
	doc   *ojson.Object // the annotated schema; refs rewritten to locations
	warns []ldctx.Warning
	err   error
	done  chan struct{}
}

func newToolchain(reg *bblock.Register, lone *bblock.Block, opts *ldctx.Options, imports *bblock.Imports) *toolchain {
	return &toolchain{reg: reg, lone: lone, opts: opts, imports: imports,
		raw: map[string]any{}, annotated: map[string]*annotateResult{}, memo: walkMemo{budget: memoBudget}}
}

// blocks returns the blocks of the toolchain's register.
func (tc *toolchain) blocks() []*bblock.Block {
	if tc.reg == nil {
		return []*bblock.Block{tc.lone}
	}
	return tc.reg.Blocks
}

func (tc *toolchain) block(id string) *bblock.Block {
	return tc.index().byID[id]
}

// blockIndex finds the blocks of a toolchain by id and by the locations
// of their schemas, each map keeping the first block in register order.
type blockIndex struct {
	byID map[string]*bblock.Block
	// annotated maps the location of a block's annotated schema, and of
	// its JSON twin, to the block.
	annotated map[string]*bblock.Block
	// source maps the location of a block's source schema to the block,
	// and stem the same location without its extension.
	source, stem map[string]*bblock.Block
}

// index returns the toolchain's blockIndex, made on first use: a register
// whose blocks refer to one another looks blocks up for every reference.
func (tc *toolchain) index() *blockIndex {
	tc.indexOnce.Do(func() {
		ix := &blockIndex{byID: map[string]*bblock.Block{}, annotated: map[string]*bblock.Block{},
			source: map[string]*bblock.Block{}, stem: map[string]*bblock.Block{}}
		first := func(m map[string]*bblock.Block, k string, b *bblock.Block) {
			if _, ok := m[k]; !ok {
				m[k] = b
			}
		}
		for _, b := range tc.blocks() {
			first(ix.byID, b.ID, b)
			if b.Files.Schema == "" {
				continue
			}
			a := annotatedLoc(b)
			first(ix.annotated, a, b)
			first(ix.annotated, strings.TrimSuffix(a, ".yaml")+".json", b)
			if src, err := sourceLoc(b, b.Files.Schema); err == nil {
				first(ix.source, src, b)
				first(ix.stem, strings.TrimSuffix(src, path.Ext(src)), b)
			}
		}
		tc.ix = ix
	})
	return tc.ix
}

// blockOfLoc returns the block whose schema is at location loc: its
// source schema (or the .json / .yaml twin of it) or its annotated schema.
func (tc *toolchain) blockOfLoc(loc string) *bblock.Block {
	ix := tc.index()
	if b := ix.annotated[loc]; b != nil {
		return b
	}
	switch path.Ext(loc) {
	case ".yaml", ".yml", ".json":
		return ix.stem[strings.TrimSuffix(loc, path.Ext(loc))]
	}
	return nil
}

// readRaw returns the decoded document at loc (a tree location or a URL
// an import maps), read once; callers must not change it. asYAML reports
// that the text was not JSON and was read as YAML.
func (tc *toolchain) readRaw(loc string) (any, error) {
	tc.mu.Lock()
	v, ok := tc.raw[loc]
	tc.mu.Unlock()
	if ok {
		return v, nil
	}
	data, err := tc.readFile(loc)
	if err != nil {
		return nil, err
	}
	v, _, err = ojson.DecodeAny(data)
	if err != nil {
		return nil, fmt.Errorf("%s: neither JSON nor YAML: %w", displayLoc(loc), err)
	}
	tc.mu.Lock()
	tc.raw[loc] = v
	tc.mu.Unlock()
	return v, nil
}

// readContextDoc reads the context document at loc afresh (contexts are
// resolved in place). Like the tool chain, it reads a document that is not
// JSON as YAML, which accepts the trailing commas real contexts have, and
// warns about it: JSON-LD processors refuse such a file.
func (tc *toolchain) readContextDoc(loc string, warns *[]ldctx.Warning) (any, error) {
	data, err := tc.readFile(loc)
	if err != nil {
		return nil, err
	}
	v, asYAML, err := ojson.DecodeAny(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not JSON (nor YAML): %w", displayLoc(loc), err)
	}
	if asYAML && (strings.HasSuffix(loc, ".jsonld") || strings.HasSuffix(loc, ".json")) {
		_, jerr := ojson.DecodeJSON(data)
		*warns = append(*warns, warning(displayLoc(loc), fmt.Sprintf(
			"not valid JSON (%v); read as YAML, as the OGC tool chain reads it (a trailing comma, for instance), but JSON-LD processors refuse the file: fix it", jerr)))
	}
	return v, nil
}

// loadSchema returns a fresh copy of the schema document at loc: the
// annotated schema of the block it is the schema of, or the file as it is.
func (tc *toolchain) loadSchema(loc string) (any, error) {
	if b := tc.schemaBlock(loc); b != nil {
		doc, _, err := tc.annotate(b)
		if err != nil {
			return nil, err
		}
		return ojson.Clone(doc), nil
	}
	v, err := tc.readRaw(loc)
	if err != nil {
		return nil, err
	}
	return ojson.Clone(v), nil
}

// schemaBlock returns the block whose schema, source or annotated (YAML
// or JSON), is at loc.
func (tc *toolchain) schemaBlock(loc string) *bblock.Block {
	ix := tc.index()
	if b := ix.annotated[loc]; b != nil {
		return b
	}
	return ix.source[loc]
}

// readFile reads the bytes at loc.
func (tc *toolchain) readFile(loc string) ([]byte, error) {
	if isURL(loc) {
		data, err := tc.imports.ReadURL(loc)
		if !errors.Is(err, bblock.ErrNotImported) {
			return data, err
		}
		return nil, &RemoteError{URL: loc}
	}
	rel := strings.TrimPrefix(loc, "/")
	if rel != bblock.SourcesDir && !strings.HasPrefix(rel, bblock.SourcesDir+"/") {
		return nil, fmt.Errorf("%s is outside the register's %s folder", rel, bblock.SourcesDir)
	}
	if tc.reg == nil {
		return tc.lone.ReadFile(strings.TrimPrefix(rel, bblock.SourcesDir+"/"))
	}
	return tc.reg.ReadSource(rel)
}

// displayLoc shortens a location for messages.
func displayLoc(loc string) string {
	return strings.TrimPrefix(loc, "/")
}

// rewriteRefs rewrites, in place, the references of block b's source
// schema doc as the tool chain does before annotating it: a reference into
// the same document stays; "bblocks://ID" and a path to another block's
// schema (or its .json/.yaml twin) become the location of that block's
// annotated schema, or the URL of an imported block's schema; another path
// becomes the location of that file; "x-bblocks-ref" replaces "$ref".
func (tc *toolchain) rewriteRefs(b *bblock.Block, schemaLoc string, doc any) error {
	var errs []error
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *ojson.Object:
			if ref, ok := x.Value("$ref").(string); ok {
				if alt, ok := x.Pop("x-bblocks-ref", nil).(string); ok {
					ref = alt
				}
				nref, err := tc.rewriteRef(b, schemaLoc, ref)
				if err != nil {
					errs = append(errs, err)
				} else {
					x.Set("$ref", nref)
				}
			}
			for _, k := range x.Keys() {
				walk(x.Value(k))
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return errors.Join(errs...)
}

func (tc *toolchain) rewriteRef(b *bblock.Block, schemaLoc, ref string) (string, error) {
	if ref == "" || ref[0] == '#' {
		return ref, nil
	}
	target, frag, hasFrag := strings.Cut(ref, "#")
	if hasFrag {
		frag = "#" + frag
	}
	var tb *bblock.Block
	switch {
	case strings.HasPrefix(target, bblock.BlockRefPrefix):
		id := strings.TrimPrefix(target, bblock.BlockRefPrefix)
		if tb = tc.block(id); tb == nil {
			if u, ok := tc.importedSchema(id); ok {
				return u + frag, nil
			}
			return "", tc.unknownBlock(b, id, ref)
		}
	case !isURL(target) && isURL(schemaLoc):
		// In a schema read from a mapped URL: relative to that URL, which
		// the annotated schema then names in full.
		loc, err := joinLoc(schemaLoc, target)
		if err != nil {
			return "", fmt.Errorf("$ref %q in %s: %w", ref, schemaLoc, err)
		}
		if tb = tc.blockOfLoc(loc); tb == nil {
			return loc + frag, nil
		}
	case !isURL(target):
		// Relative to the block's folder, as the tool chain takes it.
		blockDir, err := sourceLoc(b, ".")
		if err != nil {
			return "", err
		}
		loc, err := joinLoc(blockDir+"/x", target)
		if err != nil {
			return "", fmt.Errorf("$ref %q in %s: %w", ref, displayLoc(schemaLoc), err)
		}
		if tb = tc.blockOfLoc(loc); tb == nil {
			return loc + frag, nil
		}
	default:
		// The URL a block of the register names as its schema leads to
		// that block's annotated schema, as in the tool chain.
		if tb = tc.index().source[target]; tb == nil {
			if id, ok := tc.importedBlockOfURL(target); ok {
				if u, ok := tc.importedSchema(id); ok {
					return u + frag, nil
				}
			}
			return ref, nil
		}
	}
	if tb.Files.Schema == "" {
		return "", fmt.Errorf("$ref %q in %s: block %s has no schema", ref, displayLoc(schemaLoc), tb.ID)
	}
	return annotatedLoc(tb) + frag, nil
}

func (tc *toolchain) unknownBlock(b *bblock.Block, id, ref string) error {
	msg := fmt.Sprintf("$ref %q in block %s: %v %q", ref, b.ID, bblock.ErrUnknownBlock, id)
	if tc.reg != nil && len(tc.reg.Config.Imports) > 0 {
		return fmt.Errorf("%s: it may be in the import %s; map that import to a local copy of its built register with --import URL=DIR: %w",
			msg, strings.Join(tc.reg.Config.Imports, ", "), ErrImport)
	}
	return errors.New(msg)
}

func (tc *toolchain) importedSchema(id string) (string, bool) {
	if b, ok := tc.imports.Block(id); ok && b.Schema != "" {
		return b.Schema, true
	}
	return "", false
}

func (tc *toolchain) importedBlockOfURL(u string) (string, bool) {
	return tc.imports.BlockOfURL(u)
}

// Toolchain makes the annotated schemas and the JSON-LD contexts of the
// blocks of one register as the OGC building-block tool chain makes them,
// each once. References into imported registers resolve through the
// register's Imports. A Toolchain is safe for concurrent use.
type Toolchain struct {
	tc *toolchain

	mu    sync.Mutex
	built map[string]*buildResult
}

type buildResult struct {
	ctx   *ojson.Object
	props *schemaprops.Collector
	warns []ldctx.Warning
	err   error
	done  chan struct{}
}

// New returns the tool chain for register reg; opts maps context
// references to local files and may be nil.
func New(reg *bblock.Register, opts *ldctx.Options) *Toolchain {
	return &Toolchain{tc: newToolchain(reg, nil, opts, reg.Imports), built: map[string]*buildResult{}}
}

// For returns the tool chain of block b: that of reg, or, when reg
// is nil, that of a register holding b alone.
func For(b *bblock.Block, reg *bblock.Register, opts *ldctx.Options) *Toolchain {
	if reg != nil {
		return New(reg, opts)
	}
	return &Toolchain{tc: newToolchain(nil, b, opts, nil), built: map[string]*buildResult{}}
}

// Document is a JSON document as the tool chain writes it, members in
// their order.
type Document struct {
	v any
}

// DecodeDocument decodes a JSON or YAML document, keeping the order of its
// members.
func DecodeDocument(data []byte) (*Document, error) {
	v, _, err := ojson.DecodeAny(data)
	if err != nil {
		return nil, err
	}
	return &Document{v: v}, nil
}

// Value returns the document as plain JSON values (map[string]any, []any,
// string, json.Number, bool, nil).
func (d *Document) Value() any { return ojson.Plain(d.v) }

// WriteJSON writes the document as JSON indented by two spaces.
func (d *Document) WriteJSON(w io.Writer) error { return ojson.Encode(w, d.v) }

// WriteYAML writes the document as YAML indented by two spaces.
func (d *Document) WriteYAML(w io.Writer) error { return ojson.EncodeYAML(w, d.v) }

// MapRefs returns a copy of the document in which each "$ref" string is
// replaced by fn's result.
func (d *Document) MapRefs(fn func(ref string) string) *Document {
	c := ojson.Clone(d.v)
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *ojson.Object:
			for _, k := range x.Keys() {
				if s, ok := x.Value(k).(string); ok && k == "$ref" {
					x.Set(k, fn(s))
					continue
				}
				walk(x.Value(k))
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(c)
	return &Document{v: c}
}

// Anchor returns the JSON pointer of the subschema of the document that
// declares the $anchor name (or, as draft-07 does, "$id": "#name").
func (d *Document) Anchor(name string) (string, bool) {
	var walk func(v any, ptr string) (string, bool)
	walk = func(v any, ptr string) (string, bool) {
		switch x := v.(type) {
		case *ojson.Object:
			if a, _ := x.Value("$anchor").(string); a == name {
				return ptr, true
			}
			if id, _ := x.Value("$id").(string); id == "#"+name {
				return ptr, true
			}
			for _, k := range x.Keys() {
				if p, ok := walk(x.Value(k), ptr+"/"+escapePointer(k)); ok {
					return p, true
				}
			}
		case []any:
			for i, e := range x {
				if p, ok := walk(e, fmt.Sprintf("%s/%d", ptr, i)); ok {
					return p, true
				}
			}
		}
		return "", false
	}
	return walk(d.v, "")
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Annotate returns block b's annotated schema: its source schema with the
// x-jsonld-* annotations of the block's own context (see annotate), every
// reference to another document rewritten as the tool chain publishes it,
// relative to the root of the register: "/build/annotated/OUT/schema.yaml"
// for the schema of the block with output path OUT (see
// bblock.Block.OutputPath), "/_sources/PATH" for another file of the
// sources tree, or the URL of an imported block's schema.
func (t *Toolchain) Annotate(b *bblock.Block) (*Document, []ldctx.Warning, error) {
	doc, warns, err := t.tc.annotate(b)
	if err != nil {
		return nil, warns, err
	}
	return &Document{v: ojson.Clone(doc)}, warns, nil
}

// Context returns block b's JSON-LD context document ({"@context": ...}),
// built from its annotated schema and those its references lead to (see
// buildContext); nil when the context is empty, for which the tool chain
// writes no file.
func (t *Toolchain) Context(b *bblock.Block) (*Document, []ldctx.Warning, error) {
	ctx, warns, err := t.context(b)
	if err != nil || ctx == nil {
		return nil, warns, err
	}
	doc := ojson.NewObject()
	doc.Set("@context", ojson.Clone(ctx))
	return &Document{v: doc}, warns, nil
}

func (t *Toolchain) context(b *bblock.Block) (*ojson.Object, []ldctx.Warning, error) {
	r := t.build(b)
	return r.ctx, r.warns, r.err
}

// Properties returns what building block b's context met of the
// properties of its annotated schema, from which the tool chain lists them
// (see package schemaprops); nil when the context could not be built.
func (t *Toolchain) Properties(b *bblock.Block) *schemaprops.Collector {
	r := t.build(b)
	if r.err != nil {
		return nil
	}
	return r.props
}

// build builds block b's context once, for every caller.
func (t *Toolchain) build(b *bblock.Block) *buildResult {
	t.mu.Lock()
	r, ok := t.built[b.ID]
	if !ok {
		r = &buildResult{done: make(chan struct{})}
		t.built[b.ID] = r
	}
	t.mu.Unlock()
	if !ok {
		r.props = &schemaprops.Collector{}
		r.ctx, r.warns, r.err = t.tc.buildContext(b, r.props)
		close(r.done)
	}
	<-r.done
	return r
}

// Release lets go of block b's context and of what its build met, which
// the toolchain holds for Context, Properties and Processed: a register
// build no longer needs them once the block is built, and a register whose
// blocks reach one another has contexts that grow with it. Asked for again,
// they are built again, the same.
func (t *Toolchain) Release(b *bblock.Block) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.built[b.ID]; ok {
		select {
		case <-r.done:
			delete(t.built, b.ID)
		default: // being built
		}
	}
}

// Annotate returns block b's annotated schema (see Toolchain.Annotate);
// reg may be nil for a block on its own.
func Annotate(b *bblock.Block, reg *bblock.Register, opts *ldctx.Options) (*Document, []ldctx.Warning, error) {
	return For(b, reg, opts).Annotate(b)
}

// Build returns block b's JSON-LD context document (see
// Toolchain.Context); reg may be nil for a block on its own.
func Build(b *bblock.Block, reg *bblock.Register, opts *ldctx.Options) (*Document, []ldctx.Warning, error) {
	return For(b, reg, opts).Context(b)
}
