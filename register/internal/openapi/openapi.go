// Package openapi writes a building block's OpenAPI document as the OGC
// tool chain writes it resolved: each $ref rewritten (an x-bblocks-ref
// replacing the $ref beside it) by a function the caller gives (Refs.Ref:
// where the reference leads in the build), the document
// otherwise as written (its keys in order, their types kept), as YAML in
// block style without comments, also when the source is JSON. Its nesting
// is bounded as every reader's is (internal/limits).
package openapi

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/jrpcld/jrpcld/internal/limits"
)

// maxDepth bounds the nesting of an OpenAPI document, which is walked by
// recursion and written back by the YAML encoder's.
const maxDepth = limits.Depth

// Resolve returns the OpenAPI document data (YAML or JSON, from the file
// name) with each reference rewritten by ref, and its "openapi" version
// ("" when it has none). It returns the problems found instead, each
// naming the file and its line; out names the file written, for an error
// of the encoder.
func Resolve(name, out string, data []byte, ref func(ref string) (string, error)) (resolved []byte, openapi string, errs []error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, "", []error{fmt.Errorf("%s: not YAML (nor JSON): %w", name, err)}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, "", []error{fmt.Errorf("%s: not an OpenAPI document (an object)", name)}
	}
	tooDeep := false
	// walk visits n, inside depth mappings and sequences.
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if tooDeep {
			return
		}
		if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && depth >= maxDepth {
			errs = append(errs, fmt.Errorf("%s line %d: nested more than %d deep", name, n.Line, maxDepth))
			tooDeep = true
			return
		}
		n.HeadComment, n.LineComment, n.FootComment = "", "", ""
		switch n.Kind {
		case yaml.MappingNode, yaml.SequenceNode:
			n.Style &^= yaml.FlowStyle
		case yaml.ScalarNode:
			// The encoder chooses how to write each value (and quotes a
			// string that would read as something else), as the tool
			// chain's does; it would write a folded scalar with
			// more-indented lines wrongly (a blank line too many).
			n.Style = 0
		}
		if n.Kind == yaml.MappingNode {
			if err := resolveRef(n, ref); err != nil {
				errs = append(errs, fmt.Errorf("%s line %d: %w", name, n.Line, err))
			}
		}
		if n.Kind == yaml.AliasNode {
			return // walked where its anchor is
		}
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			depth++
		}
		for _, c := range n.Content {
			walk(c, depth)
		}
	}
	walk(&doc, 0)
	if tooDeep {
		return nil, "", errs
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		errs = append(errs, fmt.Errorf("writing %s: %w", out, err))
	} else if err := enc.Close(); err != nil {
		errs = append(errs, fmt.Errorf("writing %s: %w", out, err))
	}
	if len(errs) > 0 {
		return nil, "", errs
	}
	return buf.Bytes(), versionOf(doc.Content[0]), nil
}

// versionOf returns the "openapi" member of an OpenAPI document's
// root mapping, or "".
func versionOf(root *yaml.Node) string {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "openapi" && root.Content[i+1].Kind == yaml.ScalarNode {
			return root.Content[i+1].Value
		}
	}
	return ""
}

// resolveRef rewrites the $ref of the mapping n by ref, the x-bblocks-ref
// beside it, if any, in its place.
func resolveRef(n *yaml.Node, ref func(string) (string, error)) error {
	refAt, altAt := -1, -1
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			continue
		}
		switch k.Value {
		case "$ref":
			refAt = i + 1
		case "x-bblocks-ref":
			altAt = i + 1
		}
	}
	if refAt < 0 {
		return nil
	}
	target := n.Content[refAt].Value
	if altAt >= 0 {
		target = n.Content[altAt].Value
		n.Content = append(n.Content[:altAt-1], n.Content[altAt+1:]...)
		if altAt < refAt {
			refAt -= 2
		}
	}
	resolved, err := ref(target)
	if err != nil {
		return err
	}
	v := n.Content[refAt]
	v.Value, v.Tag, v.Style = resolved, "!!str", 0
	return nil
}
