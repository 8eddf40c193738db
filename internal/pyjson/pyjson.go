// Package pyjson writes JSON as Python's json module writes it, for the
// files the OGC tool chain writes with it: json.dumps(v, indent=2) (Indent)
// and json.dumps(v, separators=(",", ":")) (Compact), every character
// outside ASCII escaped, numbers as Python holds them once read.
package pyjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Indent returns v as Python's json.dumps(v, indent=2) writes it: members
// on their own lines indented by two spaces, ", " never at a line end,
// every character outside ASCII escaped, floats as Python writes them (1.0,
// 1e-05, 1e+16). v holds nil, bool, string, float64, int, *big.Int,
// json.Number, []any, map[string]any (written with sorted keys) and
// *ojson.Object (in its order).
func Indent(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := appendPy(&buf, v, "", true); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Compact returns v as Python's json.dumps(v, separators=(",", ":"))
// writes it: on one line, without spaces. v holds what Indent takes.
func Compact(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := appendPy(&buf, v, "", false); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func appendPy(buf *bytes.Buffer, v any, indent string, pretty bool) error {
	inner := indent + "  "
	// open, comma, colon and end write the punctuation of the layout.
	open := func(c byte) {
		buf.WriteByte(c)
		if pretty {
			buf.WriteString("\n" + inner)
		}
	}
	comma := func() {
		buf.WriteByte(',')
		if pretty {
			buf.WriteString("\n" + inner)
		}
	}
	end := func(c byte) {
		if pretty {
			buf.WriteString("\n" + indent)
		}
		buf.WriteByte(c)
	}
	colon := ":"
	if pretty {
		colon = ": "
	}
	member := func(i int, k string, val any) error {
		if i > 0 {
			comma()
		}
		pyString(buf, k)
		buf.WriteString(colon)
		return appendPy(buf, val, inner, pretty)
	}
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case string:
		pyString(buf, x)
	case int:
		buf.WriteString(strconv.Itoa(x))
	case *big.Int:
		buf.WriteString(x.String())
	case float64:
		buf.WriteString(Float(x))
	case json.Number:
		buf.WriteString(Number(x))
	case map[string]any:
		if len(x) == 0 {
			buf.WriteString("{}")
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		open('{')
		for i, k := range keys {
			if err := member(i, k, x[k]); err != nil {
				return err
			}
		}
		end('}')
	case *ojson.Object:
		if x.Len() == 0 {
			buf.WriteString("{}")
			return nil
		}
		open('{')
		for i, k := range x.Keys() {
			if err := member(i, k, x.Value(k)); err != nil {
				return err
			}
		}
		end('}')
	case []any:
		if len(x) == 0 {
			buf.WriteString("[]")
			return nil
		}
		open('[')
		for i, e := range x {
			if i > 0 {
				comma()
			}
			if err := appendPy(buf, e, inner, pretty); err != nil {
				return err
			}
		}
		end(']')
	default:
		return fmt.Errorf("cannot write a %T as JSON", v)
	}
	return nil
}

// pyString writes s as a JSON string with every character outside
// printable ASCII escaped, as Python's json.dumps does by default.
func pyString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || r >= 0x7f && r < 0x10000:
				fmt.Fprintf(buf, `\u%04x`, r)
			case r >= 0x10000:
				a, b := utf16.EncodeRune(r)
				fmt.Fprintf(buf, `\u%04x\u%04x`, a, b)
			default:
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
}

// Number writes a JSON number as Python does once it has read it: an
// integer as its digits, anything else as a float.
func Number(n json.Number) string {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		var i big.Int
		if _, ok := i.SetString(s, 10); ok {
			return i.String()
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s
	}
	return Float(f)
}

// Float writes f as Python's repr does: the shortest digits that read
// back as f, in positional form with ".0" for a whole number when the
// decimal exponent is from -4 to 15, else as d.ddde±XX.
func Float(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
