package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
)

// Docs serves the schema documents of a block, and of the blocks of its
// register, as decoded JSON values for tools that walk schemas (the context
// annotator, the register build). In every document it returns, each $ref
// has been rewritten to an absolute URL with a JSON-pointer fragment
// ("bblocks://ID/FILE#/pointer"), so Get resolves any of them.
type Docs struct {
	st   *store
	root string
}

// NewDocs returns the documents of block b; reg, which may be nil, serves
// bblocks:// references.
func NewDocs(b *bblock.Block, reg *bblock.Register) (*Docs, error) {
	if b.Files.Schema == "" {
		return nil, fmt.Errorf("block %s has no schema file", b.ID)
	}
	st := newStore()
	st.blocks[b.ID] = b
	if reg != nil {
		for _, rb := range reg.Blocks {
			if _, ok := st.blocks[rb.ID]; !ok {
				st.blocks[rb.ID] = rb
			}
		}
		st.imports = reg.Config.Imports
	}
	return &Docs{st: st, root: blockURL(b.ID, b.Files.Schema)}, nil
}

// RootURL returns the URL of the block's own schema document.
func (d *Docs) RootURL() string { return d.root }

// Get returns the value a reference names: a document URL, optionally with a
// JSON-pointer fragment. The returned value is shared: do not modify it.
func (d *Docs) Get(ref string) (any, error) {
	u, frag, _ := strings.Cut(ref, "#")
	doc, err := d.st.doc(u)
	if err != nil {
		return nil, err
	}
	return pointerGet(doc, frag)
}

// Display shortens a URL for messages (ID/FILE#/pointer).
func (d *Docs) Display(u string) string { return d.st.display(u) }

// pointerGet follows a JSON pointer (RFC 6901) into v.
func pointerGet(v any, ptr string) (any, error) {
	if ptr == "" {
		return v, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("%q is not a JSON pointer", ptr)
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[tok]
			if !ok {
				return nil, fmt.Errorf("no member %q at %s", tok, ptr)
			}
			v = e
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("no item %q at %s", tok, ptr)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("nothing at %s", ptr)
		}
	}
	return v, nil
}
