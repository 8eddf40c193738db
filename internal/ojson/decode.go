package ojson

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/jrpcld/jrpcld/internal/limits"
)

// maxDepth bounds the nesting of decoded documents: the decoders recurse,
// and what they make is walked by recursion.
const maxDepth = limits.Depth

// DecodeJSON decodes one JSON document, keeping the order of object
// members. Numbers are json.Number; a member named twice keeps its first
// place and its last value.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeJSONValue(dec, 0)
	if err == errTooDeep {
		// The decoder stopped past the bracket that went too deep.
		line := 1 + bytes.Count(data[:min(dec.InputOffset(), int64(len(data)))], []byte("\n"))
		return nil, fmt.Errorf("line %d: %w", line, err)
	}
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
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, errTooDeep
		}
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
// of mapping keys. Integers and floats are json.Number (an integer with a
// leading 0 is octal, as YAML 1.1, which the OGC tool chain reads, has it);
// timestamps and binary values are strings as written; aliases are followed
// and merge keys ("<<") applied, within a bound on what aliases may add.
// Keys that are not strings are written as strings.
func DecodeYAML(data []byte) (any, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	if n.Kind == 0 {
		return nil, nil // an empty document
	}
	d := &yamlDecoder{budget: aliasBudget(&n)}
	return d.value(&n, 0)
}

// yamlDecoder decodes a YAML node tree, counting the values it makes.
type yamlDecoder struct {
	budget int // values it may still make
}

// aliasBudget returns how many values a document may decode to: those its
// nodes hold, and as many again tenfold through aliases, but never more than
// a few million, so that a small document of nested aliases cannot expand
// without bound.
func aliasBudget(n *yaml.Node) int {
	count := 0
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		count++
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return min(10*count+10000, 4_000_000)
}

// value decodes n, inside depth sequences and mappings.
func (d *yamlDecoder) value(n *yaml.Node, depth int) (any, error) {
	if (n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode) && depth >= maxDepth {
		return nil, fmt.Errorf("line %d: nested more than %d deep (counting what aliases stand for)", n.Line, maxDepth)
	}
	if d.budget--; d.budget < 0 {
		return nil, errAliasing
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return d.value(n.Content[0], depth)
	case yaml.AliasNode:
		return d.value(n.Alias, depth)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := d.value(c, depth+1)
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
				merged, err := d.value(vn, depth+1)
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
			k, err := d.value(kn, depth+1)
			if err != nil {
				return nil, err
			}
			v, err := d.value(vn, depth+1)
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
		return yamlInt(n.Value), nil
	case "!!float":
		if intForm.MatchString(n.Value) {
			// An integer too large for 64 bits, which yaml.v3 calls a float.
			return yamlInt(n.Value), nil
		}
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

// intForm matches a decimal integer, as YAML writes one.
var intForm = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)

// yamlInt returns the YAML integer text s as a decimal json.Number: with
// underscores, in hexadecimal (0x), binary (0b) or octal (0o, or a leading
// 0 as in YAML 1.1), of any size. Text it cannot read stays a string.
func yamlInt(text string) any {
	s := strings.ReplaceAll(text, "_", "")
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
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	var i big.Int
	if _, ok := i.SetString(s, base); !ok {
		return text
	}
	if neg {
		i.Neg(&i)
	}
	return json.Number(i.String())
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
