package register

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
)

// TestPropertyTraces checks where _visited_properties.tsv says each
// property was read: the block's own schema below the working folder
// --relative-base names (file: URLs only), else relative to the repository
// root; another block's schema by its URL below the base URL.
func TestPropertyTraces(t *testing.T) {
	meta := `{"name": "N", "status": "stable", "dateTimeAddition": "2026-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`
	tree := fstest.MapFS{
		"bblocks-config.yaml":       {Data: []byte("name: R\nidentifier-prefix: r.\n")},
		"_sources/a/bblock.json":    {Data: []byte(meta)},
		"_sources/a/schema.yaml":    {Data: []byte("type: object\nproperties:\n  name: {type: string}\n  b: {$ref: ../b/schema.yaml}\n")},
		"_sources/a/context.jsonld": {Data: []byte(`{"@context": {"name": "http://x/name", "b": "http://x/b"}}`)},
		"_sources/b/bblock.json":    {Data: []byte(meta)},
		"_sources/b/schema.yaml":    {Data: []byte("type: object\nproperties:\n  code: {type: string}\n  other: {type: string}\n")},
		"_sources/b/context.jsonld": {Data: []byte(`{"@context": {"code": "http://x/code"}}`)},
	}
	reg, err := bblock.LoadRegister(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		opts     Options
		own, inB string
	}{
		{"GitHub Action", Options{BaseURL: "https://h.example/r/", BuildPath: "build", RelativeBase: "file:///github/workspace/"},
			"/github/workspace/build/annotated/a/schema.yaml", "https://h.example/r/build/annotated/b/schema.yaml"},
		{"no working folder", Options{BaseURL: "https://h.example/r/", BuildPath: "build"},
			"build/annotated/a/schema.yaml", "https://h.example/r/build/annotated/b/schema.yaml"},
		{"relative base not a folder on disk", Options{BaseURL: "https://h.example/r/", RelativeBase: "https://h.example/w/"},
			"annotated/a/schema.yaml", "https://h.example/r/annotated/b/schema.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, _, err := build(reg, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			want := "path\t@id\tschema\r\n" +
				"/name\thttp://x/name\t" + tt.own + "\r\n" +
				"/b\thttp://x/b\t" + tt.own + "\r\n" +
				"/b/code\thttp://x/code\t" + tt.inB + "\r\n" +
				"/b/other\t\t" + tt.inB + "\r\n"
			if got := string(files["annotated/a/_visited_properties.tsv"]); got != want {
				t.Errorf("_visited_properties.tsv:\n got %q\nwant %q", got, want)
			}
			// b's "other" is not bound, but it is not a property of a's own
			// document; b's own trace lists it.
			if got := string(files["annotated/a/_unbound_local_properties.tsv"]); got != "path\n" {
				t.Errorf("a's _unbound_local_properties.tsv: %q", got)
			}
			if got := string(files["annotated/b/_unbound_local_properties.tsv"]); got != "path\n/other\n" {
				t.Errorf("b's _unbound_local_properties.tsv: %q", got)
			}
			if !strings.Contains(string(files["register.json"]), "annotated/a/resolvedProperties.json") {
				t.Error("register.json does not link a's resolvedProperties.json")
			}
		})
	}
}
