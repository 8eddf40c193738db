package openapi

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/docs"
)

// Refs says where the references of a block's OpenAPI document lead in a
// build of the register Reg published as Layout says: every reference to
// another block (bblocks://ID, a path to that block's schema or OpenAPI
// document, or the URL of one) leads to that block's annotated schema, or
// to its resolved OpenAPI document when it has no schema; a reference to
// another file of the sources tree leads to the copy of it that Copy
// writes.
type Refs struct {
	Reg    *bblock.Register
	Layout docs.Layout
	// Copy writes the build's copy of the file tp of the sources tree (a
	// path from the repository root) and returns the copy's path from the
	// repository root; an error wrapping fs.ErrNotExist when there is no
	// such file.
	Copy func(tp string) (string, error)
}

// Ref returns what the reference ref of the OpenAPI document at the tree
// path from becomes in the output file out.
func (r *Refs) Ref(ref, from, out string) (string, error) {
	if ref == "" || ref[0] == '#' {
		return ref, nil
	}
	target, frag, hasFrag := strings.Cut(ref, "#")
	if hasFrag {
		frag = "#" + frag
	}
	switch {
	case strings.HasPrefix(target, bblock.BlockRefPrefix):
		id := strings.TrimPrefix(target, bblock.BlockRefPrefix)
		if tb := r.Reg.Block(id); tb != nil {
			return r.blockDocument(tb, out, frag)
		}
		if u, ok := r.importedDocument(id); ok {
			return u + frag, nil
		}
		return "", r.unknownBlock(ref, id)
	case isURLRef(target):
		if tb := r.blockOfURL(target); tb != nil {
			return r.blockDocument(tb, out, frag)
		}
		if id, ok := r.Reg.Imports.BlockOfDocument(target); ok {
			if u, ok := r.importedDocument(id); ok {
				return u + frag, nil
			}
		}
		return ref, nil
	}
	tp := path.Clean(path.Join(path.Dir(from), target))
	if tp != bblock.SourcesDir && !strings.HasPrefix(tp, bblock.SourcesDir+"/") {
		return "", fmt.Errorf("$ref %q leads outside the register's %s folder", ref, bblock.SourcesDir)
	}
	if tb := r.blockOfSource(tp); tb != nil {
		return r.blockDocument(tb, out, frag)
	}
	p, err := r.Copy(tp)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("$ref %q: %s does not exist", ref, tp)
	}
	if err != nil {
		return "", fmt.Errorf("$ref %q: %w", ref, err)
	}
	return r.Layout.SourceLink(out, p) + frag, nil
}

// blockDocument returns the link, from the output file out, to the
// document a reference to block tb leads to: its annotated schema, or, for
// a block without a schema, its resolved OpenAPI document; frag is the
// reference's fragment, with its "#".
func (r *Refs) blockDocument(tb *bblock.Block, out, frag string) (string, error) {
	switch {
	case tb.Files.Schema != "":
		return r.Layout.Link(out, path.Join("annotated", tb.OutputPath(), "schema.yaml")) + frag, nil
	case tb.Files.OpenAPI != "":
		return r.Layout.Link(out, path.Join("annotated", tb.OutputPath(), "openapi.yaml")) + frag, nil
	}
	return "", fmt.Errorf("a reference to block %s, which has neither a schema nor an OpenAPI document", tb.ID)
}

// importedDocument returns the URL of the document a reference to the
// imported block id leads to: its annotated schema, else its OpenAPI
// document.
func (r *Refs) importedDocument(id string) (string, bool) {
	ib, ok := r.Reg.Imports.Block(id)
	switch {
	case !ok:
		return "", false
	case ib.Schema != "":
		return ib.Schema, true
	case ib.OpenAPIDocument != "":
		return ib.OpenAPIDocument, true
	}
	return "", false
}

// unknownBlock is the error for a reference to a block that neither the
// register nor a mapped import has.
func (r *Refs) unknownBlock(ref, id string) error {
	err := fmt.Errorf("$ref %q: %w %q", ref, bblock.ErrUnknownBlock, id)
	if imps := r.Reg.Config.Imports; len(imps) > 0 {
		err = fmt.Errorf("%w (it may be in the import %s: map that import to a local copy of its built register with --import URL=DIR)", err, strings.Join(imps, ", "))
	}
	return err
}

// blockOfSource returns the block whose schema or OpenAPI document is at
// the tree path tp, or at its .yaml/.json twin.
func (r *Refs) blockOfSource(tp string) *bblock.Block {
	switch path.Ext(tp) {
	case ".yaml", ".yml", ".json":
	default:
		return nil
	}
	stem := strings.TrimSuffix(tp, path.Ext(tp))
	for _, b := range r.Reg.Blocks {
		for _, f := range []string{b.Files.Schema, b.Files.OpenAPI} {
			if f == "" {
				continue
			}
			if p, err := b.TreePath(f); err == nil && strings.TrimSuffix(p, path.Ext(p)) == stem {
				return b
			}
		}
	}
	return nil
}

// blockOfURL returns the block of the register one of whose documents, as
// the build publishes them below the base URL, is at u: its annotated
// schema (YAML or JSON), its resolved OpenAPI document, or their sources.
func (r *Refs) blockOfURL(u string) *bblock.Block {
	l := r.Layout
	if l.BaseURL == "" || !strings.HasPrefix(u, l.BaseURL) {
		return nil
	}
	for _, b := range r.Reg.Blocks {
		dir := path.Join("annotated", b.OutputPath())
		var urls []string
		if b.Files.Schema != "" {
			urls = append(urls, l.Link("", path.Join(dir, "schema.yaml")), l.Link("", path.Join(dir, "schema.json")),
				l.SourceLink("", path.Join(bblock.SourcesDir, b.Path, b.Files.Schema)))
		}
		if b.Files.OpenAPI != "" {
			urls = append(urls, l.Link("", path.Join(dir, "openapi.yaml")),
				l.SourceLink("", path.Join(bblock.SourcesDir, b.Path, b.Files.OpenAPI)))
		}
		for _, v := range urls {
			if v == u {
				return b
			}
		}
	}
	return nil
}

// isURLRef reports whether a reference is an absolute URL.
func isURLRef(ref string) bool {
	i := strings.Index(ref, ":")
	if i <= 0 {
		return false
	}
	for j, c := range ref[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}
