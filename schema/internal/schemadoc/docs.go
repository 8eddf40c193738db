package schemadoc

import (
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
)

// Docs serves the schema documents of a block, and of the blocks of its
// register, as decoded JSON values for tools that walk schemas (the context
// annotator, the register build). In every document it returns, each $ref
// has been rewritten to an absolute URL with a JSON-pointer fragment
// ("bblocks://ID/FILE#/pointer"), so Get resolves any of them.
type Docs struct {
	st   *Store
	root string
}

// NewDocs returns the documents of block b; reg, which may be nil, serves
// bblocks:// references.
func NewDocs(b *bblock.Block, reg *bblock.Register) (*Docs, error) {
	if b.Files.Schema == "" {
		return nil, fmt.Errorf("block %s has no schema file", b.ID)
	}
	return &Docs{st: NewBlockStore(b, reg), root: BlockURL(b.ID, b.Files.Schema)}, nil
}

// RootURL returns the URL of the block's own schema document.
func (d *Docs) RootURL() string { return d.root }

// Get returns the value a reference names: a document URL, optionally with a
// JSON-pointer fragment. The returned value is shared: do not modify it.
func (d *Docs) Get(ref string) (any, error) {
	u, frag, _ := strings.Cut(ref, "#")
	doc, err := d.st.Doc(u)
	if err != nil {
		return nil, err
	}
	return jsonptr.Get(doc, frag)
}

// Display shortens a URL for messages (ID/FILE#/pointer).
func (d *Docs) Display(u string) string { return d.st.Display(u) }
