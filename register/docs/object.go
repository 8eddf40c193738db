package docs

import "github.com/jrpcld/jrpcld/internal/ojson"

// fromOJSON turns an ordered JSON value (an ojson.Object, read from a
// file) into one that marshals in order (ojson.Members).
func fromOJSON(v any) any {
	switch x := v.(type) {
	case *ojson.Object:
		o := make(ojson.Members, 0, x.Len())
		for _, k := range x.Keys() {
			o = append(o, ojson.M(k, fromOJSON(x.Value(k))))
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
