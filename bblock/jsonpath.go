package bblock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ohler55/ojg/jp"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// SelectJSONPath returns, as JSON indented by two spaces, the first value
// that the JSONPath expression expr selects in the JSON (or YAML) document
// data, as the tool chain takes a snippet's "json-path" from the file its
// "ref" names. Members keep their order. An expression that selects
// nothing is an error wrapping ErrNoMatch.
func SelectJSONPath(data []byte, expr string) ([]byte, error) {
	x, err := jp.ParseString(expr)
	if err == nil && len(x) == 0 {
		err = errors.New("empty")
	}
	if err != nil {
		return nil, fmt.Errorf("json-path %q: %w", expr, err)
	}
	doc, _, err := ojson.DecodeAny(data)
	if err != nil {
		return nil, fmt.Errorf("json-path %q: the file is not JSON: %w", expr, err)
	}
	// ojg finds where the first match is in the plain form of the document;
	// the value is taken from the ordered form at that place.
	var locs []jp.Expr
	if _, root := x[0].(jp.Root); root && len(x) == 1 {
		locs = []jp.Expr{x} // "$" itself, which Locate does not list
	} else {
		locs = x.Locate(numbers(ojson.Plain(doc)), 1)
	}
	if len(locs) == 0 {
		return nil, fmt.Errorf("json-path %q %w in the file", expr, ErrNoMatch)
	}
	v := doc
	for _, f := range locs[0] {
		switch f := f.(type) {
		case jp.Root, jp.At:
		case jp.Child:
			o, ok := v.(*ojson.Object)
			if !ok {
				return nil, fmt.Errorf("json-path %q: member %q of a value that is not an object", expr, string(f))
			}
			v = o.Value(string(f))
		case jp.Nth:
			list, ok := v.([]any)
			i := int(f)
			if i < 0 {
				i += len(list)
			}
			if !ok || i < 0 || i >= len(list) {
				return nil, fmt.Errorf("json-path %q: item %d of a value that is not a list that long", expr, int(f))
			}
			v = list[i]
		default:
			return nil, fmt.Errorf("json-path %q: cannot follow %v", expr, f)
		}
	}
	var buf bytes.Buffer
	if err := ojson.Encode(&buf, v); err != nil {
		return nil, fmt.Errorf("json-path %q: %w", expr, err)
	}
	return buf.Bytes(), nil
}

// numbers returns v with its json.Number values as int64 (when integers
// that fit) or float64, which ojg's filters compare with the numbers of an
// expression.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
	}
	return v
}
