// Package jsonptr reads and writes JSON pointers (RFC 6901) over decoded
// JSON values (map[string]any, []any and scalars).
package jsonptr

import (
	"fmt"
	"strconv"
	"strings"
)

// Escape escapes a member name as a pointer token: "~" as "~0", "/" as "~1".
func Escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// Unescape reverses Escape.
func Unescape(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// Get returns the value ptr points at in v. "" is v itself.
func Get(v any, ptr string) (any, error) {
	if ptr == "" {
		return v, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("%q is not a JSON pointer", ptr)
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = Unescape(tok)
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[tok]
			if !ok {
				return nil, fmt.Errorf("no member %q at %s", tok, ptr)
			}
			v = e
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("no item %q at %s", tok, ptr)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("nothing at %s", ptr)
		}
	}
	return v, nil
}
