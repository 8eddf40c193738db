package schema

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/schema/kind"
)

// TestViolationKinds: each violation carries the kind of the keyword the
// value fails (or jrpcld's own kind), set where it is made, with the
// message unchanged; a caller branches on the kinds alone.
func TestViolationKinds(t *testing.T) {
	tests := []struct {
		schema  string // of params
		params  string
		formats bool
		want    []kind.Kind
		words   string // in the first message
	}{
		{`{"type":"object"}`, `[1]`, false, []kind.Kind{kind.Type}, "got array, want object"},
		{`{"required":["a","b"]}`, `{"a":1}`, false, []kind.Kind{kind.Required}, "missing property 'b'"},
		{`{"items":{"enum":["x","y"]}}`, `["z"]`, false, []kind.Kind{kind.Enum}, "must be one of"},
		{`{"items":{"const":"x"}}`, `["y"]`, false, []kind.Kind{kind.Const}, "value must be 'x'"},
		{`{"items":{"pattern":"^a+$"}}`, `["b"]`, false, []kind.Kind{kind.Pattern}, "does not match pattern"},
		{`{"items":{"format":"email"}}`, `["not an address"]`, true, []kind.Kind{kind.Format}, "is not valid email"},
		{`{"items":{"format":"email"}}`, `["not an address"]`, false, nil, ""},
		{`{"items":{"minimum":3}}`, `[2]`, false, []kind.Kind{kind.Minimum}, "minimum"},
		{`{"items":{"maximum":3}}`, `[4]`, false, []kind.Kind{kind.Maximum}, "maximum"},
		{`{"items":{"multipleOf":2}}`, `[3]`, false, []kind.Kind{kind.MultipleOf}, "multipleOf"},
		{`{"items":{"minLength":2}}`, `["a"]`, false, []kind.Kind{kind.MinLength}, "minLength"},
		{`{"maxItems":1}`, `[1,2]`, false, []kind.Kind{kind.MaxItems}, "maxItems"},
		{`{"uniqueItems":true}`, `[1,1]`, false, []kind.Kind{kind.UniqueItems}, "items at 0 and 1 are equal"},
		{`{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, false, []kind.Kind{kind.AdditionalProperties}, `member(s) not allowed here: "b"`},
		{`{"properties":{"b":false}}`, `{"b":1}`, false, []kind.Kind{kind.FalseSchema}, `member "b" is not allowed here`},
		{`{"anyOf":[{"type":"string"},{"type":"number"}]}`, `[]`, false, []kind.Kind{kind.AnyOf}, "matches none of the alternatives"},
		{`{"items":{"oneOf":[{"type":"number"},{"minimum":0}]}}`, `[1]`, false, []kind.Kind{kind.OneOf}, "matches alternatives 0 and 1"},
		{`{"not":{"type":"array"}}`, `[]`, false, []kind.Kind{kind.Not}, "not"},
		{`{"required":["a"],"properties":{"b":{"type":"string"}}}`, `{"b":1}`, false, []kind.Kind{kind.Required, kind.Type}, "missing property 'a'"},
		{`{"items":{"minimum":0}}`, `[1E1001]`, false, []kind.Kind{kind.Unchecked}, "could not be checked"},
	}
	for _, tt := range tests {
		file := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(file, []byte(`{"properties":{"params":`+tt.schema+`}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := (&Compiler{Formats: tt.formats}).CompileFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewChecker(s, "")
		if err != nil {
			t.Fatal(err)
		}
		_, ds := c.Check(decode(t, `{"jsonrpc":"2.0","method":"m","id":1,"params":`+tt.params+`}`), jsonrpc.NoDirection, 0)
		var got []kind.Kind
		for _, d := range ds {
			got = append(got, d.Violation)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s on %s: kinds %q, want %q (%v)", tt.schema, tt.params, got, tt.want, ds)
			continue
		}
		if len(ds) > 0 && !strings.Contains(ds[0].Message, tt.words) {
			t.Errorf("%s on %s: message %q, want it to say %q", tt.schema, tt.params, ds[0].Message, tt.words)
		}
	}
}

// TestMethodUnknownKind: a method the schema does not define is a warning
// of kind MethodUnknown, and the generic check that follows has kinds of
// its own; a caller that branches on kinds keeps the warning apart.
func TestMethodUnknownKind(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(file, []byte(dispatchSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChecker(s, "")
	if err != nil {
		t.Fatal(err)
	}
	_, ds := c.Check(decode(t, `{"jsonrpc": "2.0", "id": 2, "method": "nope"}`), jsonrpc.ClientToServer, 0)
	unknown, other := 0, 0
	for _, d := range ds {
		switch d.Violation {
		case kind.MethodUnknown:
			unknown++
			if d.Severity != diag.Warning || d.Pointer != "/method" || d.Code != jsonrpc.CodeMethodNotFound {
				t.Errorf("MethodUnknown: %+v, want a warning at /method with code %d", d, jsonrpc.CodeMethodNotFound)
			}
		case "":
			t.Errorf("%v has no kind", d)
		default:
			other++
		}
	}
	if unknown != 1 || other != 0 {
		t.Errorf("kinds of %v: %d MethodUnknown, %d others; want 1 and 0", ds, unknown, other)
	}
}

// TestKindOfUnknown: a jsonschema error kind jrpcld does not map is Other.
func TestKindOfUnknown(t *testing.T) {
	if got := kind.Of(nil); got != kind.Other {
		t.Errorf("kind.Of(nil) = %q, want %q", got, kind.Other)
	}
}
