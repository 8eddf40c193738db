package transform

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
)

// writePyJSON writes v as the tool chain writes a transform's JSON output
// (Python's json.dumps with indent=2): members on their own lines indented
// by two spaces, ", " never at a line end, every character outside ASCII
// escaped, floats as Python writes them (1.0, 1e-05, 1e+16). v holds what
// encoding/json or gojq decode: nil, bool, string, float64, int, *big.Int,
// json.Number, []any and map[string]any (written with sorted keys).
func writePyJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := appendPy(&buf, v, ""); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func appendPy(buf *bytes.Buffer, v any, indent string) error {
	inner := indent + "  "
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
		buf.WriteString(pyFloat(x))
	case json.Number:
		buf.WriteString(pyNumber(x))
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
		buf.WriteString("{\n")
		for i, k := range keys {
			if i > 0 {
				buf.WriteString(",\n")
			}
			buf.WriteString(inner)
			pyString(buf, k)
			buf.WriteString(": ")
			if err := appendPy(buf, x[k], inner); err != nil {
				return err
			}
		}
		buf.WriteString("\n" + indent + "}")
	case []any:
		if len(x) == 0 {
			buf.WriteString("[]")
			return nil
		}
		buf.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				buf.WriteString(",\n")
			}
			buf.WriteString(inner)
			if err := appendPy(buf, e, inner); err != nil {
				return err
			}
		}
		buf.WriteString("\n" + indent + "]")
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

// pyNumber writes a JSON number as Python does once it has read it: an
// integer as its digits, anything else as a float.
func pyNumber(n json.Number) string {
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
	return pyFloat(f)
}

// pyFloat writes f as Python's repr does: the shortest digits that read
// back as f, in positional form with ".0" for a whole number when the
// decimal exponent is from -4 to 15, else as d.ddde±XX.
func pyFloat(f float64) string {
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
