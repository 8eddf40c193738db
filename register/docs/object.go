package docs

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// object is a JSON object that keeps its members in order.
type object []member

type member struct {
	Key   string
	Value any
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.Value); err != nil {
			return nil, fmt.Errorf("member %q: %w", m.Key, err)
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// has reports whether the object has a member key.
func (o object) has(key string) bool {
	for _, m := range o {
		if m.Key == key {
			return true
		}
	}
	return false
}

// set replaces the value of key, or appends it.
func (o object) set(key string, v any) object {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, member{key, v})
}

// marshalIndent encodes v as JSON indented by two spaces, without escaping
// HTML characters, with a final newline.
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fromOJSON turns an ordered JSON value (package ojson's) into one that
// marshals in order.
func fromOJSON(v any) any {
	switch x := v.(type) {
	case *ojson.Object:
		o := make(object, 0, x.Len())
		for _, k := range x.Keys() {
			o = append(o, member{k, fromOJSON(x.Value(k))})
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fromOJSON(e)
		}
		return out
	}
	return v
}
