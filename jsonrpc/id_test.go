package jsonrpc

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

func TestIDKey(t *testing.T) {
	same := [][2]any{{json.Number("1"), json.Number("1.0")}, {json.Number("1"), 1.0}, {json.Number("10"), json.Number("1e1")}, {"a", "a"}, {nil, nil},
		{json.Number("1"), 1}, {json.Number("-7"), int64(-7)}, {json.Number("0.5"), 0.5}, {json.Number("-0"), json.Number("0e5")},
		{json.Number("123456789012345678901234567890"), json.Number("1.2345678901234567890123456789e29")},
		{json.Number("1e99999999999999999999"), json.Number("10e99999999999999999998")}}
	for _, p := range same {
		if IDKey(p[0]) != IDKey(p[1]) {
			t.Errorf("IDKey(%#v) != IDKey(%#v)", p[0], p[1])
		}
	}
	differ := [][2]any{{"1", json.Number("1")}, {"", nil}, {json.Number("1"), json.Number("2")}, {"a", "A"},
		{json.Number("0.1"), json.Number("0.10000000000000001")}, {json.Number("1e99999999999999999999"), json.Number("1e99999999999999999998")},
		{json.Number("9007199254740993"), json.Number("9007199254740992")}}
	for _, p := range differ {
		if IDKey(p[0]) == IDKey(p[1]) {
			t.Errorf("IDKey(%#v) == IDKey(%#v)", p[0], p[1])
		}
	}
}

// TestIntegerKey: the short way to the key of an integer id gives exactly
// the key of jsonparse.NormalNumber's form, and takes nothing that is not an integer
// as JSON writes one.
func TestIntegerKey(t *testing.T) {
	ints := []string{"0", "-0", "1", "-1", "7", "10", "100", "120", "-1200", "999999999999999999", "123456789012345678"}
	for n := int64(1); n < 1e18; n = n*7 + 3 {
		ints = append(ints, strconv.FormatInt(n, 10), "-"+strconv.FormatInt(n, 10))
		if n < 1e16 {
			ints = append(ints, strconv.FormatInt(n*100, 10))
		}
	}
	for _, s := range ints {
		k, ok := integerKey(s)
		norm, _ := jsonparse.NormalNumber(s)
		if !ok || k != "n"+norm {
			t.Errorf("integerKey(%q) = %q, %v; want %q", s, k, ok, "n"+norm)
		}
	}
	for _, s := range []string{"", "-", "01", "-01", "1.0", "1e3", "1E3", "+1", "1a", "1234567890123456789"} {
		if k, ok := integerKey(s); ok {
			t.Errorf("integerKey(%q) = %q, want none", s, k)
		}
	}
}
