package ontology

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
)

// LoadBlock reads the ontology files of block b and of the blocks it depends
// on in reg (which may be nil), merged. It returns nil, and no error, when
// none of them has an ontology.
func LoadBlock(b *bblock.Block, reg *bblock.Register) (*Ontology, error) {
	var parts []*Ontology
	seen := map[string]bool{}
	var visit func(b *bblock.Block) error
	visit = func(b *bblock.Block) error {
		if seen[b.ID] {
			return nil
		}
		seen[b.ID] = true
		if reg != nil {
			for _, d := range b.Deps {
				if db := reg.Block(d); db != nil {
					if err := visit(db); err != nil {
						return err
					}
				}
			}
		}
		for _, name := range b.Files.Ontology {
			data, err := b.ReadFile(name)
			if err != nil {
				return err
			}
			format := rdf.Turtle
			if f, _, ok := rdf.FormatOf(name); ok && f == rdf.RDFXML {
				format = rdf.RDFXML
			}
			o, err := Parse(bytes.NewReader(data), format, "")
			if d := (*diag.Diagnostic)(nil); errors.As(err, &d) && d.File == "" {
				d.File = name // the diagnostic names the file and line as FILE:LINE
				return fmt.Errorf("block %s: %w", b.ID, err)
			}
			if err != nil {
				return fmt.Errorf("block %s: %s: %w", b.ID, name, err)
			}
			parts = append(parts, o)
		}
		return nil
	}
	if err := visit(b); err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return Merge(parts...), nil
}

// CheckBlock returns, sorted, every IRI that block b's context can produce
// and that the ontologies of b and its dependencies do not declare. terms
// gives the context: built from its annotated schema, as it is used to make
// RDF, or its own when it has no schema (see toolchain.Toolchain.Terms); it
// is called only when there is an ontology to check against, and may give
// nil. ok is false when there is nothing to check against: the block has no
// context or no ontology.
func CheckBlock(b *bblock.Block, reg *bblock.Register, terms func(*bblock.Block) (*ldctx.Context, error)) (undeclared []string, ok bool, err error) {
	if b.Files.Schema == "" && b.Files.Context == "" {
		return nil, false, nil
	}
	o, err := LoadBlock(b, reg)
	if err != nil || o == nil {
		return nil, false, err
	}
	ctx, err := terms(b)
	if err != nil || ctx == nil {
		return nil, false, err
	}
	return o.Undeclared(ctx.IRIs()), true, nil
}
