package jsonrpc

import (
	"encoding/json"
	"reflect"
	"testing"
)

// objectOf returns the Object of a decoded message object, as a reader
// fills it, or false when a reader would not read it typed (a member
// Object has no field for, or of a type it does not hold).
func objectOf(v any) (*Object, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	var o Object
	text := func(x any) []byte {
		switch x.(type) {
		case map[string]any:
			return []byte("{}")
		case []any:
			return []byte("[]")
		}
		b, _ := json.Marshal(x)
		return b
	}
	for k, x := range obj {
		switch k {
		case "jsonrpc":
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			o.Version, o.HasVersion = s, true
		case "method":
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			o.Method, o.HasMethod = s, true
		case "id":
			switch x.(type) {
			case nil, string, json.Number:
			default:
				return nil, false
			}
			o.ID, o.HasID = x, true
		case "params":
			o.Params = text(x)
		case "result":
			o.Result = text(x)
		default:
			return nil, false
		}
	}
	return &o, true
}

// checkObject holds Object.Classify to Classify of the decoded object:
// when it answers, it answers the same.
func checkObject(t *testing.T, v any) bool {
	t.Helper()
	o, ok := objectOf(v)
	if !ok {
		return false
	}
	m, ok := o.Classify()
	if !ok {
		return false
	}
	if want := Classify(v); !reflect.DeepEqual(m, want) {
		t.Fatalf("Object.Classify of %#v: %+v, Classify: %+v", v, m, want)
	}
	return true
}

func TestObjectClassify(t *testing.T) {
	for text, typed := range map[string]bool{
		`{"jsonrpc":"2.0","method":"tools/call","params":{"a":1},"id":1}`: true,
		`{"jsonrpc":"2.0","method":"notifications/x"}`:                    true,
		`{"jsonrpc":"2.0","method":"m","params":[],"id":"a"}`:             true,
		`{"jsonrpc":"2.0","result":{},"id":12345678901234567890123}`:      true,
		`{"jsonrpc":"2.0","result":null,"id":"x"}`:                        true,
		`{"jsonrpc":"2.0","result":5,"id":1.0}`:                           true,
		`{"jsonrpc":"2.0","result":5,"id":1.5}`:                           false, // a warning
		`{"jsonrpc":"2.0","result":5,"id":null}`:                          false,
		`{"jsonrpc":"2.0","result":5}`:                                    false,
		`{"jsonrpc":"2.0","method":"m","id":null}`:                        false,
		`{"jsonrpc":"2.0","method":"rpc.m","id":1}`:                       false,
		`{"jsonrpc":"2.0","method":"m","params":3}`:                       false,
		`{"jsonrpc":"2.0","method":"m","result":{},"id":1}`:               false,
		`{"jsonrpc":"1.0","method":"m","id":1}`:                           false,
		`{"method":"m","id":1}`:                                           false,
		`{"jsonrpc":"2.0"}`:                                               false,
		`{"jsonrpc":"2.0","id":1}`:                                        false,
	} {
		v, err := Decode([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := checkObject(t, v); got != typed {
			t.Errorf("%s: classified typed %v, want %v", text, got, typed)
		}
	}
}

// TestIDOf: two ids have the same ID exactly when they have the same
// IDKey.
func TestIDOf(t *testing.T) {
	ids := []any{nil, "1", "", "a", "n1e1", json.Number("1"), json.Number("1.0"), json.Number("10e-1"),
		json.Number("-0"), json.Number("0"), json.Number("0.0e5"), json.Number("-1"), json.Number("-1.00"),
		json.Number("100"), json.Number("1e2"), json.Number("1E+2"), json.Number("1000e-1"),
		json.Number("1234567890123456789"), json.Number("1.234567890123456789e18"),
		json.Number("12345678901234567890"), json.Number("1.234567890123456789e19"),
		json.Number("1e19"), json.Number("10000000000000000000"), json.Number("1e18"),
		json.Number("1000000000000000000"), json.Number("0.5"), json.Number("5e-1"), json.Number("1e400"),
		json.Number("1e-400"), json.Number("x1"), json.Number("01"), 1.0, 2.5, 1, int64(100), true, []any{},
	}
	for _, a := range ids {
		for _, b := range ids {
			if same, want := IDOf(a) == IDOf(b), IDKey(a) == IDKey(b); same != want {
				t.Errorf("%#v and %#v: same ID %v (%+v, %+v), same IDKey %v", a, b, same, IDOf(a), IDOf(b), want)
			}
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { IDOf(json.Number("12345")); IDOf("abc") }); allocs != 0 {
		t.Errorf("IDOf allocates %v times for an integer and a string", allocs)
	}
}
