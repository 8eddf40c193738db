package register

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	jsonld "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
)

// writeSchemas writes the block's annotated schema as schema.yaml and
// schema.json, and the other schema files of the block it refers to (not
// annotated) beside them, in both forms. Every $ref is rewritten to point at
// the built files: bblocks://ID references to the built schema of block ID,
// references to other files of the block to their built copies, in the
// same form (YAML files refer to YAML files, JSON to JSON). A fragment that
// names an $anchor becomes the JSON pointer of the subschema carrying it,
// and a pointer without its leading slash gets one, so that any validator
// of any draft can follow the references.
func (bd *builder) writeSchemas(o *blockOut) error {
	b := o.b
	doc, warns, err := jsonld.Annotate(b, bd.reg, bd.opts.Contexts)
	for _, w := range warns {
		o.warnf("%s", problemText(w))
	}
	if err != nil {
		return err
	}
	sources := map[string]any{b.Files.Schema: doc}
	queue := []string{b.Files.Schema}
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
	for i := 0; i < len(queue); i++ {
		file := queue[i]
		for _, ext := range []string{"yaml", "json"} {
			out := path.Join(o.annotated, o.schemaStem(file)+"."+ext)
			rewritten := rewriteRefs(sources[file], func(ref string) string {
				nref, sibling, err := bd.mapRef(o, file, ref, ext, out)
				if err != nil {
					fail(err)
					return ref
				}
				if sibling != "" && sources[sibling] == nil {
					sdoc, err := bd.sourceDoc(b, sibling)
					if err != nil {
						fail(err)
						return ref
					}
					sources[sibling] = sdoc
					queue = append(queue, sibling)
				}
				return nref
			})
			var buf bytes.Buffer
			if ext == "yaml" {
				err = jsonld.WriteYAML(&buf, rewritten)
			} else {
				err = jsonld.WriteJSON(&buf, rewritten)
			}
			if err != nil {
				fail(fmt.Errorf("writing %s: %w", out, err))
				continue
			}
			data := withNewline(buf.Bytes())
			bd.put(out, data)
			if i == 0 {
				if ext == "yaml" {
					o.schemaYAML = data
				} else {
					o.schemaJSON = data
				}
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// schemaStem returns the name, without extension, that the schema file
// file of the block is written under in its annotated folder.
func (o *blockOut) schemaStem(file string) string {
	if file == o.b.Files.Schema {
		return "schema"
	}
	return strings.TrimSuffix(file, path.Ext(file))
}

// mapRef returns what the $ref ref, found in the schema file file of block
// o, becomes in the output file out of the given form ("yaml" or "json").
// sibling is the other file of the block it refers to, if any.
func (bd *builder) mapRef(o *blockOut, file, ref, ext, out string) (nref, sibling string, err error) {
	target, frag, _ := strings.Cut(ref, "#")
	if strings.HasPrefix(ref, bblock.BlockRefPrefix) {
		id := strings.TrimPrefix(target, bblock.BlockRefPrefix)
		tfile := ""
		if i := strings.IndexByte(id, '/'); i >= 0 {
			id, tfile = id[:i], id[i+1:]
		}
		tb := bd.reg.Block(id)
		if tb == nil {
			msg := fmt.Sprintf("$ref %q in %s: %v %q", ref, file, bblock.ErrUnknownBlock, id)
			if imps := bd.reg.Config.Imports; len(imps) > 0 {
				msg += fmt.Sprintf(", which may belong to the import %s that jrpcld cannot resolve offline", strings.Join(quoted(imps), ", "))
			}
			return "", "", errors.New(msg)
		}
		if tfile == "" {
			tfile = tb.Files.Schema
		}
		if tfile == "" {
			return "", "", fmt.Errorf("$ref %q in %s: block %s has no schema", ref, file, id)
		}
		stem := strings.TrimSuffix(tfile, path.Ext(tfile))
		if tfile == tb.Files.Schema {
			stem = "schema"
		}
		f, err := bd.fragment(tb, tfile, frag)
		if err != nil {
			return "", "", fmt.Errorf("$ref %q in %s: %w", ref, file, err)
		}
		return bd.link(out, path.Join("annotated", blockPath(tb), stem+"."+ext)) + f, "", nil
	}
	if u, err := url.Parse(target); err != nil || u.Scheme != "" || strings.HasPrefix(target, "/") {
		return ref, "", nil // another scheme, or not a relative reference: left as written
	}
	b := o.b
	if target == "" {
		f, err := bd.fragment(b, file, frag)
		if err != nil {
			return "", "", fmt.Errorf("$ref %q in %s: %w", ref, file, err)
		}
		if f == "" {
			f = "#"
		}
		return f, "", nil
	}
	sib := path.Clean(path.Join(path.Dir(file), target))
	if !fs.ValidPath(sib) {
		return "", "", fmt.Errorf("$ref %q in %s: the file is outside the block's folder", ref, file)
	}
	f, err := bd.fragment(b, sib, frag)
	if err != nil {
		return "", "", fmt.Errorf("$ref %q in %s: %w", ref, file, err)
	}
	if sib == b.Files.Schema {
		sib = ""
	}
	stem := o.schemaStem(path.Clean(path.Join(path.Dir(file), target)))
	return bd.link(out, path.Join(o.annotated, stem+"."+ext)) + f, sib, nil
}

// fragment returns the fragment frag of a reference into the schema file
// file of block b, with its "#", in the form the built files use: a JSON
// pointer with its leading slash. An anchor that the document lacks stays
// as it is.
func (bd *builder) fragment(b *bblock.Block, file, frag string) (string, error) {
	switch {
	case frag == "":
		return "", nil
	case strings.HasPrefix(frag, "/"):
		return "#" + frag, nil
	case strings.Contains(frag, "/"):
		return "#/" + frag, nil
	}
	doc, err := bd.sourceDoc(b, file)
	if err != nil {
		return "", err
	}
	if ptr, ok := findAnchor(doc, frag); ok {
		return "#" + escapeFragment(ptr), nil
	}
	return "#" + frag, nil
}

// sourceDoc returns the decoded source schema file file of block b.
func (bd *builder) sourceDoc(b *bblock.Block, file string) (any, error) {
	key := b.ID + " " + file
	if d, ok := bd.docs[key]; ok {
		return d, nil
	}
	data, err := b.ReadFile(file)
	if err != nil {
		return nil, err
	}
	d, err := bblock.DecodeDoc(file, data)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	bd.docs[key] = d
	return d, nil
}

// findAnchor returns the JSON pointer of the subschema of doc that carries
// the anchor name: "$anchor": name, or a draft-07 "$id": "#name". Subschemas
// with an $id of their own are other resources, and are not searched. Keys
// are visited in sorted order, so the first anchor found is always the same.
func findAnchor(doc any, name string) (string, bool) {
	var walk func(v any, ptr string, root bool) (string, bool)
	walk = func(v any, ptr string, root bool) (string, bool) {
		switch x := v.(type) {
		case map[string]any:
			if a, _ := x["$anchor"].(string); a == name {
				return ptr, true
			}
			if id, _ := x["$id"].(string); id == "#"+name {
				return ptr, true
			} else if id != "" && !root && !strings.HasPrefix(id, "#") {
				return "", false
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if p, ok := walk(x[k], ptr+"/"+jsonptr.Escape(k), false); ok {
					return p, true
				}
			}
		case []any:
			for i, e := range x {
				if p, ok := walk(e, fmt.Sprintf("%s/%d", ptr, i), false); ok {
					return p, true
				}
			}
		}
		return "", false
	}
	return walk(doc, "", true)
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

// rewriteRefs returns a deep copy of v in which every "$ref" string is
// replaced by fn's result. Members are visited in sorted order.
func rewriteRefs(v any, fn func(string) string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s, ok := x[k].(string); ok && k == "$ref" {
				out[k] = fn(s)
				continue
			}
			out[k] = rewriteRefs(x[k], fn)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rewriteRefs(e, fn)
		}
		return out
	}
	return v
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
