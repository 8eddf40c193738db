package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"sort"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/jcs"
)

// Wire JSON values are what encoding/json decodes into any with UseNumber
// (maps, slices, strings, json.Number, bools and nil), plus two kinds the
// way back makes from a graph:
type (
	// rawJSON is the text of an rdf:JSON literal, already checked to be
	// JSON: written out as it is, decoded only when a patch reaches into it.
	rawJSON string
	// setValue holds the values of a property that has several: RDF does
	// not keep their order, so they never count as equal to anything.
	setValue []any
)

// decodeJSON decodes JSON text with json.Number for numbers.
func decodeJSON(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// messageOrder is the order of the members of a JSON-RPC message on output;
// the others follow, sorted. RDF does not carry the order they were sent in.
var messageOrder = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// appendMessage appends a message (an object, or a batch of objects) as
// compact JSON, its members in messageOrder.
func appendMessage(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case map[string]any:
		dst = append(dst, '{')
		n := 0
		for _, k := range messageOrder {
			if e, ok := x[k]; ok {
				var err error
				if dst, err = appendMember(dst, n, k, e); err != nil {
					return dst, err
				}
				n++
			}
		}
		for _, k := range sortedMapKeys(x) {
			if isMessageMember(k) {
				continue
			}
			var err error
			if dst, err = appendMember(dst, n, k, x[k]); err != nil {
				return dst, err
			}
			n++
		}
		return append(dst, '}'), nil
	case []any:
		return appendArray(dst, x, appendMessage)
	}
	return appendJSON(dst, v)
}

// appendArray appends x as a JSON array, each element written by f.
func appendArray(dst []byte, x []any, f func([]byte, any) ([]byte, error)) ([]byte, error) {
	dst = append(dst, '[')
	for i, e := range x {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = f(dst, e); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

func isMessageMember(k string) bool {
	for _, m := range messageOrder {
		if k == m {
			return true
		}
	}
	return false
}

func appendMember(dst []byte, n int, k string, v any) ([]byte, error) {
	if n > 0 {
		dst = append(dst, ',')
	}
	dst, err := jcs.AppendString(dst, k)
	if err != nil {
		return dst, err
	}
	return appendJSON(append(dst, ':'), v)
}

// appendJSON appends v as compact JSON: numbers exactly as written, object
// members sorted, the values of a set sorted by their text.
func appendJSON(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case string:
		return jcs.AppendString(dst, x)
	case json.Number:
		return append(dst, x...), nil
	case rawJSON:
		return append(dst, x...), nil
	case float64:
		return jcs.AppendNumber(dst, x)
	case map[string]any:
		dst = append(dst, '{')
		for i, k := range sortedMapKeys(x) {
			var err error
			if dst, err = appendMember(dst, i, k, x[k]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		return appendArray(dst, x, appendJSON)
	case setValue:
		texts := make([]string, len(x))
		for i, e := range x {
			b, err := appendJSON(nil, e)
			if err != nil {
				return dst, err
			}
			texts[i] = string(b)
		}
		sort.Strings(texts)
		return append(append(append(dst, '['), strings.Join(texts, ",")...), ']'), nil
	}
	return dst, fmt.Errorf("%T is not a JSON value", v)
}

// equalJSON reports whether two wire values are the same JSON value, numbers
// compared by their exact decimal value. A setValue equals nothing.
func equalJSON(a, b any) bool {
	if r, ok := a.(rawJSON); ok {
		v, err := decodeJSON(string(r))
		if err != nil {
			return false
		}
		a = v
	}
	if r, ok := b.(rawJSON); ok {
		v, err := decodeJSON(string(r))
		if err != nil {
			return false
		}
		b = v
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && jsonrpc.SameNumber(string(x), string(y))
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !equalJSON(e, f) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// A patchOp is one operation of an RFC 6902 JSON Patch: "add", "replace" or
// "remove".
type patchOp struct {
	Op    string
	Path  string // an RFC 6901 JSON pointer
	Value any
}

// diffJSON appends to ops the operations that turn back into orig: nothing
// where they are equal, a recursion into two objects, or two arrays of the
// same length, and else the whole of orig.
func diffJSON(ops []patchOp, ptr string, orig, back any) []patchOp {
	if r, ok := back.(rawJSON); ok {
		if v, err := decodeJSON(string(r)); err == nil {
			back = v
		}
	}
	switch o := orig.(type) {
	case map[string]any:
		if b, ok := back.(map[string]any); ok {
			for _, k := range sortedMapKeys(o) {
				p := ptr + "/" + escapePointer(k)
				if be, ok := b[k]; ok {
					ops = diffJSON(ops, p, o[k], be)
				} else {
					ops = append(ops, patchOp{Op: "add", Path: p, Value: o[k]})
				}
			}
			for _, k := range sortedMapKeys(b) {
				if _, ok := o[k]; !ok {
					ops = append(ops, patchOp{Op: "remove", Path: ptr + "/" + escapePointer(k)})
				}
			}
			return ops
		}
	case []any:
		if b, ok := back.([]any); ok && len(b) == len(o) {
			for i := range o {
				ops = diffJSON(ops, ptr+"/"+strconv.Itoa(i), o[i], b[i])
			}
			return ops
		}
	}
	if equalJSON(orig, back) {
		return ops
	}
	return append(ops, patchOp{Op: "replace", Path: ptr, Value: orig})
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// appendPatch appends ops as the JSON text of a JSON Patch.
func appendPatch(dst []byte, ops []patchOp) ([]byte, error) {
	dst = append(dst, '[')
	for i, op := range ops {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"op":"`...)
		dst = append(dst, op.Op...)
		dst = append(dst, `","path":`...)
		var err error
		if dst, err = jcs.AppendString(dst, op.Path); err != nil {
			return dst, err
		}
		if op.Op != "remove" {
			dst = append(dst, `,"value":`...)
			if dst, err = appendJSON(dst, op.Value); err != nil {
				return dst, err
			}
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), nil
}

// parsePatch reads the JSON text of a JSON Patch made of add, replace and
// remove operations.
func parsePatch(s string) ([]patchOp, error) {
	v, err := decodeJSON(s)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("not a JSON array of operations")
	}
	ops := make([]patchOp, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		op, _ := m["op"].(string)
		path, okPath := m["path"].(string)
		value, hasValue := m["value"]
		if !ok || !okPath || (op != "add" && op != "replace" && op != "remove") || (op != "remove") != hasValue {
			return nil, fmt.Errorf("operation %d is not an add, replace or remove with a path (and a value)", i)
		}
		if path != "" && !strings.HasPrefix(path, "/") {
			return nil, fmt.Errorf("operation %d: path %q is not a JSON pointer", i, path)
		}
		ops[i] = patchOp{Op: op, Path: path, Value: value}
	}
	return ops, nil
}

// applyPatch applies ops to v in order and returns the result.
func applyPatch(v any, ops []patchOp) (any, error) {
	for _, op := range ops {
		var toks []string
		if op.Path != "" {
			toks = strings.Split(op.Path[1:], "/")
			for i, t := range toks {
				toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
			}
		}
		var err error
		if v, err = applyOp(v, toks, op); err != nil {
			return v, fmt.Errorf("%s %s: %w", op.Op, op.Path, err)
		}
	}
	return v, nil
}

// applyOp applies op at the place toks points to under v, and returns v.
func applyOp(v any, toks []string, op patchOp) (any, error) {
	if len(toks) == 0 {
		if op.Op == "remove" {
			return v, errors.New("cannot remove the whole message")
		}
		return op.Value, nil
	}
	if r, ok := v.(rawJSON); ok {
		d, err := decodeJSON(string(r))
		if err != nil {
			return v, err
		}
		v = d
	}
	tok := toks[0]
	switch x := v.(type) {
	case map[string]any:
		e, ok := x[tok]
		if len(toks) > 1 {
			if !ok {
				return v, fmt.Errorf("no member %q", tok)
			}
			ne, err := applyOp(e, toks[1:], op)
			x[tok] = ne
			return x, err
		}
		switch {
		case op.Op == "add":
			x[tok] = op.Value
		case !ok:
			return v, fmt.Errorf("no member %q", tok)
		case op.Op == "replace":
			x[tok] = op.Value
		default:
			delete(x, tok)
		}
		return x, nil
	case []any:
		if len(toks) == 1 && op.Op == "add" && tok == "-" {
			return append(x, op.Value), nil
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i > len(x) || (tok != "0" && strings.HasPrefix(tok, "0")) || (i == len(x) && (len(toks) > 1 || op.Op != "add")) {
			return v, fmt.Errorf("no element %q", tok)
		}
		if len(toks) > 1 {
			ne, err := applyOp(x[i], toks[1:], op)
			x[i] = ne
			return x, err
		}
		switch op.Op {
		case "add":
			x = append(x, nil)
			copy(x[i+1:], x[i:])
			x[i] = op.Value
		case "replace":
			x[i] = op.Value
		default:
			x = append(x[:i], x[i+1:]...)
		}
		return x, nil
	}
	return v, fmt.Errorf("%q leads into a value that is not an object or array", tok)
}

// brief returns v as compact JSON, cut short after 64 bytes, for a message.
func brief(v any) string {
	b, err := appendJSON(nil, v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 64 {
		return string(b[:64]) + "..."
	}
	return string(b)
}
