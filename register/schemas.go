package register

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// writeSchemas writes the block's annotated schema (as the tool chain
// annotates it) as schema.yaml and schema.json, with every reference to
// another document pointing at the built files: the annotated schema of
// another block (schema.yaml from the YAML form, schema.json from the JSON
// form), or a copy of another file of the sources tree, written under
// _sources/ of the output as in the sources tree (with the files it refers
// to in turn), as the tool chain publishes the repository beside its build.
// A fragment that names an $anchor becomes the JSON pointer of the
// subschema carrying it, and a pointer without its leading slash gets one,
// so that any validator of any draft can follow the references.
func (bd *builder) writeSchemas(o *blockOut) error {
	doc, warns, err := bd.tc.Annotate(o.b)
	for _, w := range warns {
		o.warnf("%s", problemText(w))
	}
	if err != nil {
		return err
	}
	var errs []string
	fail := func(err error) {
		msg := err.Error()
		for _, e := range errs {
			if e == msg {
				return
			}
		}
		errs = append(errs, msg)
	}
	for _, ext := range []string{"yaml", "json"} {
		out := path.Join(o.annotated, "schema."+ext)
		mapped := doc.MapRefs(func(ref string) string {
			nref, err := bd.mapRef(o, doc, ref, ext, out)
			if err != nil {
				fail(err)
				return ref
			}
			return nref
		})
		var buf bytes.Buffer
		if ext == "yaml" {
			err = mapped.WriteYAML(&buf)
		} else {
			err = mapped.WriteJSON(&buf)
		}
		if err != nil {
			fail(fmt.Errorf("writing %s: %w", out, err))
			continue
		}
		data := withNewline(buf.Bytes())
		bd.put(out, data)
		if ext == "yaml" {
			o.schemaYAML = data
		} else {
			o.schemaJSON = data
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// mapRef returns what the $ref ref of block o's annotated schema doc
// becomes in the output file out of the given form ("yaml" or "json").
func (bd *builder) mapRef(o *blockOut, doc *toolchain.Document, ref, ext, out string) (string, error) {
	target, frag, _ := strings.Cut(ref, "#")
	switch {
	case target == "":
		f, err := fragment(doc, frag)
		if err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		if f == "" {
			f = "#"
		}
		return f, nil
	case strings.HasPrefix(target, toolchain.AnnotatedRefPrefix):
		outPath := strings.TrimSuffix(strings.TrimPrefix(target, toolchain.AnnotatedRefPrefix), "/schema.yaml")
		tb := bd.blockByOutputPath(outPath)
		if tb == nil {
			return "", fmt.Errorf("$ref %q: no block is published at annotated/%s", ref, outPath)
		}
		tdoc := doc
		if tb != o.b {
			var err error
			if tdoc, _, err = bd.tc.Annotate(tb); err != nil {
				return "", fmt.Errorf("$ref %q: %w", ref, err)
			}
		}
		f, err := fragment(tdoc, frag)
		if err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		return bd.link(out, path.Join("annotated", tb.OutputPath(), "schema."+ext)) + f, nil
	case strings.HasPrefix(target, toolchain.SourcesRefPrefix):
		p, err := bd.copySource(o, strings.TrimPrefix(target, "/"), ext)
		if err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		f, err := fragment(bd.sourceDocs[p], frag)
		if err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		return bd.layout().SourceLink(out, p) + f, nil
	}
	return ref, nil // a URL: an imported block's schema, or one left as written
}

// fragment returns the fragment frag of a reference into the document doc,
// with its "#", in the form the built files use: a JSON pointer with its
// leading slash. An anchor that the document lacks stays as it is.
func fragment(doc *toolchain.Document, frag string) (string, error) {
	switch {
	case frag == "":
		return "", nil
	case strings.HasPrefix(frag, "/"):
		return "#" + frag, nil
	case strings.Contains(frag, "/"):
		return "#/" + frag, nil
	}
	if doc == nil {
		return "#" + frag, nil
	}
	if ptr, ok := doc.Anchor(frag); ok {
		return "#" + escapeFragment(ptr), nil
	}
	return "#" + frag, nil
}

// blockByOutputPath returns the block published at annotated/p.
func (bd *builder) blockByOutputPath(p string) *bblock.Block {
	for _, b := range bd.reg.Blocks {
		if b.OutputPath() == p {
			return b
		}
	}
	return nil
}

// copySource returns the path, from the repository root, of the file
// that a reference to the sources-tree file p (a path below the tree's
// root, starting with _sources/) leads to in the output: p itself, which
// the output holds as the sources are published beside the build. For the
// JSON form ("json"), a YAML file is written as JSON (name.json, unless
// the sources tree has a file of that name) in the build's _sources/,
// never in the sources, its relative references leading to the JSON
// copies of the YAML files they name, recursively, so that the JSON
// schemas hold together without a YAML parser. The documents read are
// kept in bd.sourceDocs by the path returned.
func (bd *builder) copySource(o *blockOut, p, form string) (string, error) {
	out := p
	yamlFile := strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")
	if form == "json" && yamlFile {
		twin := strings.TrimSuffix(p, path.Ext(p)) + ".json"
		if _, err := bd.reg.ReadSource(twin); err != nil {
			out = bd.repoPath(twin)
		}
	}
	if _, done := bd.sourceDocs[out]; done {
		return out, nil
	}
	data, err := bd.reg.ReadSource(p)
	if err != nil {
		return "", err
	}
	doc, err := toolchain.DecodeDocument(data)
	if err != nil || out == p {
		// Published as it is, with the sources.
		bd.sourceDocs[out] = doc
		return out, nil
	}
	bd.sourceDocs[out] = doc
	mapped := doc.MapRefs(func(r string) string {
		target, frag, _ := strings.Cut(r, "#")
		if target == "" || strings.Contains(target, ":") || strings.HasPrefix(target, "/") {
			return r
		}
		next := path.Clean(path.Join(path.Dir(p), target))
		if !strings.HasPrefix(next, bblock.SourcesDir+"/") {
			o.warnf("%s: $ref %q leads outside the sources tree; it is not copied", p, r)
			return r
		}
		nout, err := bd.copySource(o, next, form)
		if err != nil {
			o.warnf("%s: $ref %q: %v", p, r, err)
			return r
		}
		if frag != "" {
			frag = "#" + frag
		}
		return docs.RelLink(out, nout) + frag
	})
	var buf bytes.Buffer
	if err := mapped.WriteJSON(&buf); err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	bd.putRoot(out, withNewline(buf.Bytes()))
	return out, nil
}

// escapeFragment percent-encodes the characters a URI fragment cannot hold.
func escapeFragment(s string) string {
	const ok = "-._~!$&'()*+,;=:@/?"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(ok, c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
