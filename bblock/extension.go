package bblock

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
)

// extend applies what the tool chain does with the block's
// extensionPoints before it builds anything: a chain of base blocks that
// comes back to a block is an error; the block takes the itemClass of its
// base (a block of the register or of an import); and what is not built
// of the extension is said in a warning. blocks are the register's
// blocks by id; ends holds the blocks whose chain of bases is known to end,
// which it adds to, so that the blocks of a chain are walked once in all.
func (b *Block) extend(blocks map[string]*Block, im *Imports, ends map[string]bool) {
	ep := b.Meta.ExtensionPoints
	chain := []string{b.ID}
	on := map[string]bool{b.ID: true}
	for cur := ep.Base; ; {
		if on[cur] {
			b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extensionPoints/baseBuildingBlock",
				Message: fmt.Sprintf("extension point cycle: %s -> %s (a block cannot extend itself, through other blocks or not)", strings.Join(chain, " -> "), cur)})
			return
		}
		next := blocks[cur]
		if ends[cur] || next == nil || next.Meta.ExtensionPoints == nil {
			markFree(ends, chain)
			break
		}
		on[cur] = true
		chain = append(chain, cur)
		cur = next.Meta.ExtensionPoints.Base
	}
	var itemClass string
	var openAPIOnly bool // the base has an OpenAPI document and no schema
	if base := blocks[ep.Base]; base != nil {
		itemClass, openAPIOnly = base.Meta.ItemClass, base.Files.Schema == "" && base.Files.OpenAPI != ""
	} else if ib, ok := im.Block(ep.Base); ok {
		itemClass, openAPIOnly = ib.ItemClass, ib.Schema == "" && ib.OpenAPIDocument != ""
	} else {
		return // an unknown dependency, which is an error of its own
	}
	if itemClass != "" && itemClass != b.Meta.ItemClass {
		b.Meta.ItemClass = itemClass
		value, _ := json.Marshal(itemClass)
		for i, f := range b.Meta.Fields {
			if f.Key == "itemClass" {
				b.Meta.Fields[i].Value = value
			}
		}
	}
	if openAPIOnly {
		b.Problems = append(b.Problems, Problem{File: b.Files.Metadata, Pointer: "/extensionPoints", Severity: diag.Warning,
			Message: fmt.Sprintf("the base block %s has an OpenAPI document: its extension points are declarative, and nothing is built from them (as in the OGC tool chain)", ep.Base)})
	}
	// For a base with a schema, the block's schema is built once every
	// block is loaded (buildExtensionSchemas).
}
