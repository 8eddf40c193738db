package register

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/internal/openapi"
)

// writeOpenAPI writes the block's OpenAPI document as the tool chain
// resolves it, to annotated/PATH/openapi.yaml (package openapi): every
// reference to another block (bblocks://ID, a path to that block's schema
// or OpenAPI document, or the URL of one) leads to that block's annotated
// schema, or to its resolved OpenAPI document when it has no schema; a
// reference to another file of the sources tree leads to the copy of it
// the build writes; an x-bblocks-ref replaces the $ref beside it.
// It returns the problems found, each naming the file and its line; the
// document is written only when there are none.
func (bd *builder) writeOpenAPI(o *blockOut) []error {
	b := o.b
	data, err := b.ReadFile(b.Files.OpenAPI)
	if err != nil {
		return []error{err}
	}
	from, err := b.TreePath(b.Files.OpenAPI)
	if err != nil {
		return []error{err}
	}
	out := path.Join(o.annotated, "openapi.yaml")
	doc, v, errs := openapi.Resolve(b.Files.OpenAPI, out, data, func(ref string) (string, error) { return bd.openAPIRef(o, ref, from, out) })
	if len(errs) > 0 {
		return errs
	}
	o.openAPI = doc
	bd.put(out, o.openAPI)
	if strings.HasPrefix(v, "3.1") {
		o.warnf("%s: the OpenAPI 3.0 version of this OpenAPI %s document (openapi-oas30.yaml, which the OGC tool chain tries to make) is not written: jrpcld does not downcompile OpenAPI documents", b.Files.OpenAPI, v)
	}
	return nil
}

// openAPIRef returns what the reference ref of the OpenAPI document at the
// tree path from becomes in the output file out.
func (bd *builder) openAPIRef(o *blockOut, ref, from, out string) (string, error) {
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
		if tb := bd.reg.Block(id); tb != nil {
			return bd.blockDocument(tb, out, frag)
		}
		if u, ok := bd.importedDocument(id); ok {
			return u + frag, nil
		}
		return "", bd.unknownRefBlock(ref, id)
	case isURLRef(target):
		if tb := bd.blockOfURL(target); tb != nil {
			return bd.blockDocument(tb, out, frag)
		}
		if id, ok := bd.reg.Imports.BlockOfDocument(target); ok {
			if u, ok := bd.importedDocument(id); ok {
				return u + frag, nil
			}
		}
		return ref, nil
	}
	tp := path.Clean(path.Join(path.Dir(from), target))
	if tp != bblock.SourcesDir && !strings.HasPrefix(tp, bblock.SourcesDir+"/") {
		return "", fmt.Errorf("$ref %q leads outside the register's %s folder", ref, bblock.SourcesDir)
	}
	if tb := bd.blockOfSource(tp); tb != nil {
		return bd.blockDocument(tb, out, frag)
	}
	p, err := bd.copySource(o, tp, "yaml")
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("$ref %q: %s does not exist", ref, tp)
	}
	if err != nil {
		return "", fmt.Errorf("$ref %q: %w", ref, err)
	}
	return bd.layout().SourceLink(out, p) + frag, nil
}

// blockDocument returns the link, from the output file out, to the
// document a reference to block tb leads to: its annotated schema, or, for
// a block without a schema, its resolved OpenAPI document; frag is the
// reference's fragment, with its "#".
func (bd *builder) blockDocument(tb *bblock.Block, out, frag string) (string, error) {
	switch {
	case tb.Files.Schema != "":
		return bd.link(out, path.Join("annotated", tb.OutputPath(), "schema.yaml")) + frag, nil
	case tb.Files.OpenAPI != "":
		return bd.link(out, path.Join("annotated", tb.OutputPath(), "openapi.yaml")) + frag, nil
	}
	return "", fmt.Errorf("a reference to block %s, which has neither a schema nor an OpenAPI document", tb.ID)
}

// importedDocument returns the URL of the document a reference to the
// imported block id leads to: its annotated schema, else its OpenAPI
// document.
func (bd *builder) importedDocument(id string) (string, bool) {
	ib, ok := bd.reg.Imports.Block(id)
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

// unknownRefBlock is the error for a reference to a block that neither the
// register nor a mapped import has.
func (bd *builder) unknownRefBlock(ref, id string) error {
	msg := fmt.Sprintf("$ref %q: %v %q", ref, bblock.ErrUnknownBlock, id)
	if imps := bd.reg.Config.Imports; len(imps) > 0 {
		msg += fmt.Sprintf(" (it may be in the import %s: map that import to a local copy of its built register with --import URL=DIR)", strings.Join(imps, ", "))
	}
	return errors.New(msg)
}

// blockOfSource returns the block whose schema or OpenAPI document is at
// the tree path tp, or at its .yaml/.json twin.
func (bd *builder) blockOfSource(tp string) *bblock.Block {
	switch path.Ext(tp) {
	case ".yaml", ".yml", ".json":
	default:
		return nil
	}
	stem := strings.TrimSuffix(tp, path.Ext(tp))
	for _, b := range bd.reg.Blocks {
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
func (bd *builder) blockOfURL(u string) *bblock.Block {
	if bd.opts.BaseURL == "" || !strings.HasPrefix(u, bd.opts.BaseURL) {
		return nil
	}
	for _, b := range bd.reg.Blocks {
		dir := path.Join("annotated", b.OutputPath())
		var urls []string
		if b.Files.Schema != "" {
			urls = append(urls, bd.link("", path.Join(dir, "schema.yaml")), bd.link("", path.Join(dir, "schema.json")),
				bd.layout().SourceLink("", path.Join(bblock.SourcesDir, b.Path, b.Files.Schema)))
		}
		if b.Files.OpenAPI != "" {
			urls = append(urls, bd.link("", path.Join(dir, "openapi.yaml")),
				bd.layout().SourceLink("", path.Join(bblock.SourcesDir, b.Path, b.Files.OpenAPI)))
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
