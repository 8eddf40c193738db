package ojson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Encode writes v as JSON indented by two spaces, members in their order,
// HTML characters unescaped, followed by a newline. A map[string]any is
// written with its keys sorted.
func Encode(w io.Writer, v any) error {
	var buf bytes.Buffer
	if err := appendJSON(&buf, v, ""); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err := w.Write(buf.Bytes())
	return err
}

// Marshal returns the JSON text Encode writes.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := Encode(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func appendJSON(buf *bytes.Buffer, v any, indent string) error {
	inner := indent + "  "
	switch x := v.(type) {
	case *Object:
		if x.Len() == 0 {
			buf.WriteString("{}")
			return nil
		}
		buf.WriteString("{\n")
		for i, k := range x.keys {
			if i > 0 {
				buf.WriteString(",\n")
			}
			buf.WriteString(inner)
			writeString(buf, k)
			buf.WriteString(": ")
			if err := appendJSON(buf, x.vals[k], inner); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
		buf.WriteString("\n" + indent + "}")
		return nil
	case map[string]any:
		return appendJSON(buf, FromPlain(x), indent)
	case []any:
		if len(x) == 0 {
			buf.WriteString("[]")
			return nil
		}
		buf.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				buf.WriteString(",\n")
			}
			buf.WriteString(inner)
			if err := appendJSON(buf, e, inner); err != nil {
				return err
			}
		}
		buf.WriteString("\n" + indent + "]")
		return nil
	case string:
		writeString(buf, x)
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	buf.Write(data)
	return nil
}

func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	buf.Truncate(buf.Len() - 1)
}

// EncodeYAML writes v as YAML indented by two spaces, mapping keys in their
// order (a map[string]any's sorted), numbers as written.
func EncodeYAML(w io.Writer, v any) error {
	n, err := yamlNode(v)
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

func yamlNode(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case *Object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range x.keys {
			kn := &yaml.Node{}
			if err := kn.Encode(k); err != nil {
				return nil, err
			}
			vn, err := yamlNode(x.vals[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			n.Content = append(n.Content, kn, vn)
		}
		return n, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := NewObject()
		for _, k := range keys {
			o.Set(k, x[k])
		}
		return yamlNode(o)
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
