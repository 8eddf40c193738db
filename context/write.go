package context

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// WriteJSON writes doc as JSON indented by two spaces, object members in
// sorted order (so "@"-keywords come first), HTML characters unescaped and
// numbers as written: the same document always gives the same bytes.
func WriteJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// WriteYAML writes doc (an annotated schema) as YAML indented by two
// spaces, mapping keys in sorted order and numbers as written, so the same
// document always gives the same bytes.
func WriteYAML(w io.Writer, doc any) error {
	n, err := yamlNode(doc)
	if err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return fmt.Errorf("writing YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("writing YAML: %w", err)
	}
	return nil
}

// yamlNode turns a decoded JSON or YAML value into a YAML node.
func yamlNode(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			kn, err := yamlNode(k)
			if err != nil {
				return nil, err
			}
			vn, err := yamlNode(x[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			n.Content = append(n.Content, kn, vn)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			en, err := yamlNode(e)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, en)
		}
		return n, nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(string(x), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(x)}, nil
	case nil, string, bool, int, int64, uint64, float64:
		n := &yaml.Node{}
		if err := n.Encode(x); err != nil {
			return nil, fmt.Errorf("writing YAML: %w", err)
		}
		return n, nil
	}
	return nil, fmt.Errorf("writing YAML: unsupported value of type %T", v)
}
