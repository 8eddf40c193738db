package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
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

// compactJSON writes the JSON text s to b without insignificant white
// space, keeping member order and the spelling of numbers and strings.
func compactJSON(b *strings.Builder, s string) error {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		return err
	}
	b.Write(buf.Bytes())
	return nil
}

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
		for _, k := range slices.Sorted(maps.Keys(x)) {
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
		for i, k := range slices.Sorted(maps.Keys(x)) {
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
	return dst, errors.New("a value that is not JSON")
}

// JSONValue decodes r for ojson.Equal; text that does not decode equals
// nothing.
func (r rawJSON) JSONValue() (any, bool) {
	v, err := decodeJSON(string(r))
	return v, err == nil
}

// JSONValue says a setValue stands for no one value: ojson.Equal finds it
// equal to nothing.
func (setValue) JSONValue() (any, bool) { return nil, false }

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

// maxJSONDepth is how deeply encoding/json lets arrays and objects nest.
const maxJSONDepth = 10000

// validJSON reports whether s is one JSON value with optional white space
// around it, exactly as encoding/json.Valid does (bytes that are not UTF-8
// are accepted inside strings, as there; nesting past maxJSONDepth is
// not), without copying s.
func validJSON(s string) bool {
	i, ok := validValue(s, skipJSONSpace(s, 0), 1)
	return ok && skipJSONSpace(s, i) == len(s)
}

func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// validValue checks the value at s[i:], at nesting depth depth (1 for the
// top level), and returns the offset past it.
func validValue(s string, i, depth int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; c {
	case '{', '[':
		if depth > maxJSONDepth {
			return i, false
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		i = skipJSONSpace(s, i+1)
		if i < len(s) && s[i] == end {
			return i + 1, true
		}
		for {
			var ok bool
			if c == '{' {
				if i >= len(s) || s[i] != '"' {
					return i, false
				}
				if i, ok = validString(s, i); !ok {
					return i, false
				}
				if i = skipJSONSpace(s, i); i >= len(s) || s[i] != ':' {
					return i, false
				}
				i = skipJSONSpace(s, i+1)
			}
			if i, ok = validValue(s, i, depth+1); !ok {
				return i, false
			}
			if i = skipJSONSpace(s, i); i >= len(s) {
				return i, false
			}
			switch s[i] {
			case ',':
				i = skipJSONSpace(s, i+1)
			case end:
				return i + 1, true
			default:
				return i, false
			}
		}
	case '"':
		return validString(s, i)
	case 't':
		return validWord(s, i, "true")
	case 'f':
		return validWord(s, i, "false")
	case 'n':
		return validWord(s, i, "null")
	}
	return validNumber(s, i)
}

func validWord(s string, i int, word string) (int, bool) {
	if !strings.HasPrefix(s[i:], word) {
		return i, false
	}
	return i + len(word), true
}

// validString checks the string whose opening quote is at s[i].
func validString(s string, i int) (int, bool) {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			if i+1 >= len(s) {
				return i, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(s) {
					return i, false
				}
				for _, h := range []byte(s[i+2 : i+6]) {
					if !isHex(h) {
						return i, false
					}
				}
				i += 5
			default:
				return i, false
			}
		}
	}
	return i, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// validNumber checks the number at s[i:]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(s string, i int) (int, bool) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s) || !isDigit(s[i]):
		return i, false
	case s[i] == '0':
		i++
	default:
		i = skipDigits(s, i)
	}
	if i < len(s) && s[i] == '.' {
		if i++; i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		i = skipDigits(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i++; i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		i = skipDigits(s, i)
	}
	return i, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
