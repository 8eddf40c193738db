package toolchain

import (
	"reflect"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// TestDefDiff: the members two term definitions differ in, which the
// scoped-term warning names when both print the same.
func TestDefDiff(t *testing.T) {
	obj := func(kv ...any) *ojson.Object {
		o := ojson.NewObject()
		for i := 0; i < len(kv); i += 2 {
			o.Set(kv[i].(string), kv[i+1])
		}
		return o
	}
	scoped := obj("a", "ex:a")
	for _, c := range []struct {
		name string
		a, b any
		want []string
	}{
		{"scoped context", obj("@id", "ex:m", "@context", scoped), obj("@id", "ex:m"), []string{"@context"}},
		{"string and object", "ex:m", obj("@id", "ex:m", "@container", "@set"), []string{"@container"}},
		{"protected", obj("@id", "ex:m", "@protected", true), obj("@id", "ex:m", "@protected", false), []string{"@protected"}},
		{"none", nil, "ex:m", []string{"@id"}},
	} {
		if got := defDiff(c.a, c.b); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
