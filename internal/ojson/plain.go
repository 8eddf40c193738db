package ojson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"

	"go.yaml.in/yaml/v3"
)

// DecodePlain decodes a schema or context document into plain Go values
// (map[string]any, []any, ...): JSON when name ends in .json or .jsonld,
// YAML otherwise. JSON numbers are kept as json.Number. Errors name name.
func DecodePlain(name string, data []byte) (any, error) {
	var v any
	switch path.Ext(name) {
	case ".json", ".jsonld":
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: not JSON: %w", name, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s: not JSON: data after the document", name)
		}
	default:
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("%s: not YAML: %w", name, err)
		}
		var err error
		if v, err = plainYAML(v); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return v, nil
}

// plainYAML turns what yaml.v3 decodes into JSON-shaped values: maps with
// non-string keys are refused.
func plainYAML(v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p, err := plainYAML(e)
			if err != nil {
				return nil, err
			}
			x[k] = p
		}
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("map key %v is not a string", k)
			}
			p, err := plainYAML(e)
			if err != nil {
				return nil, err
			}
			m[ks] = p
		}
		return m, nil
	case []any:
		for i, e := range x {
			p, err := plainYAML(e)
			if err != nil {
				return nil, err
			}
			x[i] = p
		}
	}
	return v, nil
}
