package toolchain

import (
	"fmt"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// ForBlock returns the context that maps the messages of block b (see
// Toolchain.Processed). reg and opts (which maps remote context references
// to local files) may be nil.
func ForBlock(b *bblock.Block, reg *bblock.Register, opts *ldctx.Options) (*ldctx.Processed, []ldctx.Warning, error) {
	return For(b, reg, opts).Processed(b)
}

// Processed returns the context that maps the messages of block b: the
// context built from its annotated schema, as the building-block tool chain
// builds it (the schema of a block without a context.jsonld of its own may
// bring in other blocks' terms), or, for a block without a schema, its own
// context.jsonld.
func (t *Toolchain) Processed(b *bblock.Block) (*ldctx.Processed, []ldctx.Warning, error) {
	var value any
	var warns []ldctx.Warning
	switch {
	case b.Files.Schema != "":
		doc, w, err := t.context(b)
		warns = w
		if err != nil {
			return nil, warns, err
		}
		if doc == nil {
			return nil, warns, fmt.Errorf("block %s: the context built from its schema is empty: %w", b.ID, ldctx.ErrNoContext)
		}
		value = ojson.Plain(doc)
	case b.Files.Context != "":
		loc, err := sourceLoc(b, b.Files.Context)
		if err != nil {
			return nil, nil, err
		}
		doc, err := t.tc.readContextDoc(loc, &warns)
		if err != nil {
			return nil, warns, fmt.Errorf("block %s: %w", b.ID, err)
		}
		o, ok := doc.(*ojson.Object)
		if !ok || o.Value("@context") == nil {
			return nil, warns, fmt.Errorf("block %s: %s has no \"@context\"", b.ID, b.Files.Context)
		}
		value = ojson.Plain(o.Value("@context"))
	default:
		return nil, nil, fmt.Errorf("block %s has neither a schema nor a context.jsonld: %w", b.ID, ldctx.ErrNoContext)
	}
	p, err := ldctx.Process(value)
	if err != nil {
		return nil, warns, fmt.Errorf("block %s: %w", b.ID, err)
	}
	return p, warns, nil
}

// Terms returns the processed context whose IRIs block b's messages can
// have: the context built from its annotated schema, or, for a block
// without a schema, its own context.jsonld. It is nil, with no error, when
// the build gives no context. An error wraps ldctx.ErrNoContext when the
// block has neither.
func (t *Toolchain) Terms(b *bblock.Block) (*ldctx.Context, error) {
	if b.Files.Schema != "" {
		doc, _, err := t.Context(b)
		if err != nil || doc == nil {
			return nil, err
		}
		c, _, err := ldctx.Parse(b.ID+" built context", doc.Value(), nil)
		return c, err
	}
	c, _, err := ownContext(b, nil)
	return c, err
}

// ownContext reads and processes block b's own context.jsonld. An error
// wraps ldctx.ErrNoContext when the block has none.
func ownContext(b *bblock.Block, opts *ldctx.Options) (*ldctx.Context, []ldctx.Warning, error) {
	if b.Files.Context == "" {
		return nil, nil, fmt.Errorf("block %s: %w", b.ID, ldctx.ErrNoContext)
	}
	data, err := b.ReadFile(b.Files.Context)
	if err != nil {
		return nil, nil, err
	}
	doc, err := ojson.DecodePlain(b.Files.Context, data)
	if err != nil {
		return nil, nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	return ldctx.Parse(b.ID+"/"+b.Files.Context, doc, opts)
}

// warning returns a warning about file.
func warning(file, message string) ldctx.Warning {
	return ldctx.Warning{File: file, Severity: diag.Warning, Message: message}
}

// appendOnce appends w to ws unless ws holds it already.
func appendOnce(ws []ldctx.Warning, w ldctx.Warning) []ldctx.Warning {
	for _, e := range ws {
		if e == w {
			return ws
		}
	}
	return append(ws, w)
}
