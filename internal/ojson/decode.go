package ojson

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxDepth bounds the nesting of decoded documents.
const maxDepth = 1000

// DecodeJSON decodes one JSON document, keeping the order of object
// members. Numbers are json.Number; a member named twice keeps its first
// place and its last value.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeJSONValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the document")
		}
		return nil, err
	}
	return v, nil
}

func decodeJSONValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	}
	return tok, nil
}

// DecodeYAML decodes one YAML document into JSON values, keeping the order
// of mapping keys. Integers and floats are json.Number; timestamps and
// binary values are strings as written; aliases are followed and merge
// keys ("<<") applied. Keys that are not strings are written as strings.
func DecodeYAML(data []byte) (any, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	if n.Kind == 0 {
		return nil, nil // an empty document
	}
	return yamlValue(&n, 0)
}

func yamlValue(n *yaml.Node, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("nested too deeply (or an alias loops)")
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], depth+1)
	case yaml.AliasNode:
		return yamlValue(n.Alias, depth+1)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		o := NewObject()
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			if kn.Kind == yaml.ScalarNode && kn.Tag == "!!merge" {
				merged, err := yamlValue(vn, depth+1)
				if err != nil {
					return nil, err
				}
				for _, m := range mergeSources(merged) {
					for _, k := range m.Keys() {
						if !o.Has(k) {
							o.Set(k, m.Value(k))
						}
					}
				}
				continue
			}
			k, err := yamlValue(kn, depth+1)
			if err != nil {
				return nil, err
			}
			v, err := yamlValue(vn, depth+1)
			if err != nil {
				return nil, err
			}
			o.Set(keyString(k), v)
		}
		return o, nil
	case yaml.ScalarNode:
		return yamlScalar(n)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// mergeSources returns the mappings a merge key names: one, or a list.
func mergeSources(v any) []*Object {
	switch x := v.(type) {
	case *Object:
		return []*Object{x}
	case []any:
		var out []*Object
		for _, e := range x {
			if o, ok := e.(*Object); ok {
				out = append(out, o)
			}
		}
		return out
	}
	return nil
}

func keyString(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	}
	return fmt.Sprint(k)
}

func yamlScalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return b, nil
	case "!!int":
		var i big.Int
		s := strings.ReplaceAll(n.Value, "_", "")
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimLeft(s, "+-")
		base := 10
		switch {
		case strings.HasPrefix(s, "0x"):
			base, s = 16, s[2:]
		case strings.HasPrefix(s, "0o"):
			base, s = 8, s[2:]
		case strings.HasPrefix(s, "0b"):
			base, s = 2, s[2:]
		}
		if _, ok := i.SetString(s, base); !ok {
			return n.Value, nil
		}
		if neg {
			i.Neg(&i)
		}
		return json.Number(i.String()), nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		if s := strings.ToLower(n.Value); strings.Contains(s, "inf") || strings.Contains(s, "nan") {
			return n.Value, nil // no JSON number holds it
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case "!!timestamp":
		return n.Value, nil // as the text says; JSON has no dates
	case "!!binary":
		if _, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(n.Value), "")); err != nil {
			return nil, fmt.Errorf("line %d: bad !!binary value", n.Line)
		}
		return n.Value, nil
	}
	return n.Value, nil
}

// DecodeAny decodes data as JSON or, when it is not JSON, as YAML, as the
// tool chain loads schemas and contexts; asYAML reports that the text was
// not JSON. A JSON document with a trailing comma, which real contexts
// have, reads as YAML.
func DecodeAny(data []byte) (v any, asYAML bool, err error) {
	if v, err := DecodeJSON(data); err == nil {
		return v, false, nil
	}
	v, err = DecodeYAML(data)
	if err != nil {
		return nil, true, err
	}
	return v, true, nil
}

// Decode decodes a document by the extension of its name: JSON for .json
// and .jsonld, YAML otherwise (JSON is YAML too).
func Decode(name string, data []byte) (any, error) {
	if strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonld") {
		v, err := DecodeJSON(data)
		if err != nil {
			return nil, fmt.Errorf("%s: not JSON: %w", name, err)
		}
		return v, nil
	}
	v, err := DecodeYAML(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not YAML: %w", name, err)
	}
	return v, nil
}
