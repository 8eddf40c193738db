package ontology

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/jrpcld/jrpcld/bblock"
	jsonld "github.com/jrpcld/jrpcld/context"
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

// CheckBlock returns, sorted, every IRI that block b's context (built from
// its annotated schema by t, as it is used to make RDF, or its own context
// when it has no schema) can produce and that the ontologies of b and its
// dependencies do not declare. ok is false when there is nothing to check
// against: the block has no context or no ontology. t may be nil.
func CheckBlock(b *bblock.Block, reg *bblock.Register, t *jsonld.Toolchain) (undeclared []string, ok bool, err error) {
	if b.Files.Schema == "" && b.Files.Context == "" {
		return nil, false, nil
	}
	if t == nil {
		t = jsonld.ToolchainFor(b, reg, nil)
	}
	o, err := LoadBlock(b, reg)
	if err != nil || o == nil {
		return nil, false, err
	}
	var ctx *jsonld.Context
	if b.Files.Schema != "" {
		doc, _, err := t.Context(b)
		if err != nil || doc == nil {
			return nil, false, err
		}
		if ctx, _, err = jsonld.Parse(b.ID+" built context", doc.Value(), nil); err != nil {
			return nil, false, err
		}
	} else if ctx, _, err = jsonld.Load(b, nil); err != nil {
		return nil, false, err
	}
	return o.Undeclared(ctx.IRIs()), true, nil
}
