package wire

// JSON Patch (RFC 6902), the add, replace and remove operations that
// jlog:patch carries.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// A patchOp is one operation of an RFC 6902 JSON Patch: "add", "replace" or
// "remove".
type patchOp struct {
	Op    string
	Path  string // an RFC 6901 JSON pointer
	Value any
}

// diffJSON appends to ops the operations that turn back into orig: nothing
// where they are equal, a recursion into two objects, or two arrays of the
// same length, and else the whole of orig. ptr is the JSON pointer of orig.
func diffJSON(ops []patchOp, ptr string, orig, back any) []patchOp {
	d := differ{ops: ops, base: ptr}
	d.diff(orig, back, 0)
	return d.ops
}

// differ is the state of diffJSON. The JSON pointer of a place is made
// only for an operation: most places of a message are equal, and the walk
// keeps their reference tokens instead.
type differ struct {
	ops  []patchOp
	base string
	path []string   // the escaped reference tokens below base
	keys [][]string // scratch per depth: the sorted member names
}

func (d *differ) diff(orig, back any, depth int) {
	if r, ok := back.(rawJSON); ok {
		if v, err := decodeJSON(string(r)); err == nil {
			back = v
		}
	}
	switch o := orig.(type) {
	case map[string]any:
		if b, ok := back.(map[string]any); ok {
			for _, k := range d.sorted(o, depth) {
				d.path = append(d.path, jsonptr.Escape(k))
				if be, ok := b[k]; ok {
					d.diff(o[k], be, depth+1)
				} else {
					d.ops = append(d.ops, patchOp{Op: "add", Path: d.pointer(), Value: o[k]})
				}
				d.path = d.path[:len(d.path)-1]
			}
			for _, k := range d.sorted(b, depth) {
				if _, ok := o[k]; !ok {
					d.path = append(d.path, jsonptr.Escape(k))
					d.ops = append(d.ops, patchOp{Op: "remove", Path: d.pointer()})
					d.path = d.path[:len(d.path)-1]
				}
			}
			return
		}
	case []any:
		if b, ok := back.([]any); ok && len(b) == len(o) {
			for i := range o {
				d.path = append(d.path, strconv.Itoa(i))
				d.diff(o[i], b[i], depth+1)
				d.path = d.path[:len(d.path)-1]
			}
			return
		}
	}
	if ojson.Equal(orig, back) {
		return
	}
	d.ops = append(d.ops, patchOp{Op: "replace", Path: d.pointer(), Value: orig})
}

// sorted returns the member names of m in order, in the scratch of depth.
func (d *differ) sorted(m map[string]any, depth int) []string {
	for depth >= len(d.keys) {
		d.keys = append(d.keys, nil)
	}
	keys := d.keys[depth][:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	d.keys[depth] = keys
	return keys
}

// pointer returns the JSON pointer of the current place.
func (d *differ) pointer() string {
	var b strings.Builder
	b.WriteString(d.base)
	for _, t := range d.path {
		b.WriteByte('/')
		b.WriteString(t)
	}
	return b.String()
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
				toks[i] = jsonptr.Unescape(t)
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
