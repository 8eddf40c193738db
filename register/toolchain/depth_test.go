package toolchain

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ldctx "github.com/jrpcld/jrpcld/context"

	"github.com/jrpcld/jrpcld/bblock"
)

// refChain writes a block whose schema is a chain of n definitions, each
// an object whose one property is the $ref of the next, and loads it.
func refChain(t *testing.T, n int) *bblock.Block {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "chain")
	var b strings.Builder
	b.WriteString(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/d0", "$defs": {`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d": {"type": "object", "properties": {"p%d": {"$ref": "#/$defs/d%d"}}}, `, i, i, i+1)
	}
	fmt.Fprintf(&b, `"d%d": {"type": "number"}}}`, n)
	files := map[string]string{
		"bblock.json":    `{"name": "Chain", "itemClass": "schema"}`,
		"schema.json":    b.String(),
		"context.jsonld": `{"@context": {"@vocab": "http://e/"}}`,
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	blk, err := bblock.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return blk
}

// TestRefChain: a schema whose subschemas nest past 512 through a chain of
// $ref is an error naming the file and the limit, in annotating it and in
// building its context; a chain of 5,000 took half a minute (the path of
// each part as long as the chain, copied at each step), a chain of 100,000
// more than five and 5 GB.
func TestRefChain(t *testing.T) {
	doc, _, err := Build(refChain(t, 100), nil, &ldctx.Options{})
	if err != nil {
		t.Fatalf("a chain of 100: %v", err)
	}
	if doc == nil {
		t.Fatal("a chain of 100: no context")
	}
	long := refChain(t, 5_000)
	for _, f := range []struct {
		name string
		run  func(*bblock.Block) error
	}{
		{"Annotate", func(b *bblock.Block) error { _, _, err := Annotate(b, nil, &ldctx.Options{}); return err }},
		{"Build", func(b *bblock.Block) error { _, _, err := Build(b, nil, &ldctx.Options{}); return err }},
	} {
		err := f.run(long)
		if err == nil || !strings.Contains(err.Error(), "schema.json: subschemas nested more than 512 deep") {
			t.Errorf("%s of a chain of 5,000: %v", f.name, err)
		}
	}
}

// TestRefChainAcrossDocuments (issue 37, item 7): the bound on the
// subschemas a walk is inside counts those of one document: a chain of
// blocks each extending the next walks as deep as the chain through their
// documents, which builds (the 512 of one document would stop a chain of
// 256), up to a bound of its own, past which the error names the file and
// the bound.
func TestRefChainAcrossDocuments(t *testing.T) {
	reg := chainRegister(t, 300, chainExtends)
	first := reg.Block("c.b0")
	if _, _, err := New(reg, nil).Context(first); err != nil {
		t.Fatalf("the first block of a chain of 300, built first: %v", err)
	}
	tc := New(reg, nil)
	tc.tc.refNesting = 100
	_, _, err := tc.Context(first)
	if err == nil || !strings.Contains(err.Error(), "nested more than 100 deep through $ref from document to document") ||
		!strings.Contains(err.Error(), "build/annotated/b") {
		t.Errorf("past the bound: %v", err)
	}
}
