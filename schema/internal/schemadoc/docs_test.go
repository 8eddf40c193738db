package schemadoc

import (
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
)

func TestDocs(t *testing.T) {
	b := bblock.Default()
	d, err := NewDocs(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := d.Get(d.RootURL())
	if err != nil {
		t.Fatal(err)
	}
	// Every $ref of the rewritten document resolves through Get.
	n := 0
	walkSchemas(root, func(m map[string]any) {
		if ref, ok := m["$ref"].(string); ok {
			n++
			if !strings.HasPrefix(ref, "bblocks://"+b.ID+"/") || !strings.Contains(ref, "#") {
				t.Errorf("$ref %q not rewritten to an absolute URL", ref)
			}
			if v, err := d.Get(ref); err != nil || v == nil {
				t.Errorf("Get(%q): %v", ref, err)
			}
		}
	})
	if n == 0 {
		t.Error("the default schema has no $ref")
	}
	if _, err := d.Get(d.RootURL() + "#/nope"); err == nil {
		t.Error("Get of a missing pointer succeeded")
	}
}
