package bblock

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseURLMap(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    URLMap
		wantErr string
	}{
		{in: "https://s.example/a.yaml=local/a.yaml", want: URLMap{URL: "https://s.example/a.yaml", Path: "local/a.yaml"}},
		{in: "https://s.example/dir/=copies", want: URLMap{URL: "https://s.example/dir/", Path: "copies"}},
		{in: "https://s.example/a.yaml", wantErr: "want URL=FILE"},
		{in: "=x", wantErr: "want URL=FILE"},
		{in: "a.yaml=b.yaml", wantErr: "not an absolute URL"},
	} {
		got, err := ParseURLMap(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseURLMap(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseURLMap(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestMapURLs: --map URL=FILE reads a URL from a file and, for a URL
// ending in '/' mapped to a folder, every URL below it from the file at
// the same place; a mapped file that does not exist, and a URL that leads
// out of the folder, are errors; a URL no mapping covers is
// ErrNotImported, as before; --map comes before an import's copy.
func TestMapURLs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("one.yaml", "type: string\n")
	write("tree/sub/two.yaml", "type: number\n")
	write("outside.yaml", "secret\n")
	write("reg/register.json", `{"baseURL": "https://reg.example/", "bblocks": []}`)
	write("reg/x.yaml", "from the import\n")
	base, err := LoadImports([]ImportMap{{URL: "https://reg.example/register.json", Dir: filepath.Join(dir, "reg")}})
	if err != nil {
		t.Fatal(err)
	}
	im, err := base.MapURLs([]URLMap{
		{URL: "https://s.example/one.yaml", Path: one},
		{URL: "https://s.example/tree/", Path: filepath.Join(dir, "tree")},
		{URL: "https://reg.example/x.yaml", Path: one},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		url, want, wantErr string
		notMapped          bool
	}{
		{url: "https://s.example/one.yaml", want: "type: string\n"},
		{url: "https://s.example/one.yaml#/properties/a", want: "type: string\n"},
		{url: "https://s.example/tree/sub/two.yaml", want: "type: number\n"},
		{url: "https://s.example/tree/sub/three.yaml", wantErr: "does not exist"},
		{url: "https://s.example/tree/../outside.yaml", wantErr: "leaves"},
		{url: "https://s.example/tree/%2e%2e/outside.yaml", wantErr: "leaves"},
		{url: "https://reg.example/x.yaml", want: "type: string\n"}, // --map first
		{url: "https://other.example/a.yaml", notMapped: true},
	} {
		data, err := im.ReadURL(tt.url)
		switch {
		case tt.notMapped:
			if !errors.Is(err, ErrNotImported) || im.MapsURL(tt.url) {
				t.Errorf("ReadURL(%s) = %q, %v; want ErrNotImported", tt.url, data, err)
			}
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.Is(err, ErrNotImported) {
				t.Errorf("ReadURL(%s) = %q, %v; want an error with %q", tt.url, data, err, tt.wantErr)
			}
		default:
			if err != nil || string(data) != tt.want || !im.MapsURL(tt.url) {
				t.Errorf("ReadURL(%s) = %q, %v; want %q", tt.url, data, err, tt.want)
			}
		}
	}
	if data, err := base.ReadURL("https://reg.example/x.yaml"); err != nil || string(data) != "from the import\n" {
		t.Errorf("MapURLs changed the imports it was called on: ReadURL = %q, %v", data, err)
	}
	if _, err := base.MapURLs([]URLMap{{URL: "https://s.example/", Path: filepath.Join(dir, "missing")}}); err == nil {
		t.Error("MapURLs accepted a file that does not exist")
	}
}

// TestURLMappingsOfRegister: a register's url-mappings, in
// bblocks-config.yaml and in bblocks-config-local.yml (where the tool chain
// reads them), map a schema and a context bblock.json names by URL to
// files of the register's folder; a mapping that leaves the folder is an
// error of the configuration; a schema named by a URL nothing maps is the
// block's error, naming the URL and --map.
func TestURLMappingsOfRegister(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml": {Data: []byte("identifier-prefix: t.\nimports: []\nurl-mappings:\n" +
			"  https://s.example/schemas/: copies/\n  https://s.example/bad/: ../elsewhere/\n  https://s.example/abs.yaml: /etc/passwd\n")},
		"bblocks-config-local.yml": {Data: []byte("url-mappings:\n  https://s.example/ctx.jsonld: contexts/ctx.jsonld\n")},
		"copies/a.yaml":            {Data: []byte("type: object\nproperties:\n  b:\n    $ref: b.yaml\n")},
		"copies/b.yaml":            {Data: []byte("type: string\n")},
		"contexts/ctx.jsonld":      {Data: []byte(`{"@context": {"b": "https://v.example/b"}}`)},
		"_sources/mapped/bblock.json": meta(`, "schema": "https://s.example/schemas/a.yaml",
			"ldContext": "https://s.example/ctx.jsonld"`),
		"_sources/unmapped/bblock.json": meta(`, "schema": "https://elsewhere.example/x.yaml"`),
		"_sources/bad/bblock.json":      meta(`, "schema": "https://s.example/bad/x.yaml"`),
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	errs := r.Problems.Errors().Error()
	for _, want := range []string{`maps to "../elsewhere/"`, `maps to "/etc/passwd"`} {
		if !strings.Contains(errs, want) {
			t.Errorf("no error with %q: %s", want, errs)
		}
	}
	b := r.Block("t.mapped")
	if b == nil {
		t.Fatal("no block t.mapped")
	}
	if err := b.Err(); err != nil {
		t.Errorf("t.mapped: %v", err)
	}
	if b.Files.Schema != "https://s.example/schemas/a.yaml" || b.Files.Context != "https://s.example/ctx.jsonld" {
		t.Errorf("t.mapped: Files = %+v; want the mapped URLs", b.Files)
	}
	for file, want := range map[string]string{b.Files.Schema: "$ref: b.yaml", b.Files.Context: "https://v.example/b",
		"https://s.example/schemas/b.yaml": "type: string"} {
		if data, err := b.ReadFile(file); err != nil || !strings.Contains(string(data), want) {
			t.Errorf("t.mapped: ReadFile(%s) = %q, %v; want it to hold %q", file, data, err, want)
		}
	}
	for id, want := range map[string]string{
		"t.unmapped": "--map https://elsewhere.example/x.yaml=FILE",
		"t.bad":      "--map https://s.example/bad/x.yaml=FILE", // its mapping was refused
	} {
		b := r.Block(id)
		if b == nil {
			t.Fatalf("no block %s", id)
		}
		if err := b.Err(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v; want one with %q", id, err, want)
		}
	}
}

// TestURLSchemaDeps (issue 21): a reference to the URL another block of
// the register names as its schema makes that block a dependency, as the
// tool chain counts it (models.py: the URL is among the register's local
// block files): by the full URL (with a fragment, too), and relative to a
// schema that is itself named by URL (resolved against that URL). A URL
// that is no block's schema adds nothing.
func TestURLSchemaDeps(t *testing.T) {
	fsys := fstest.MapFS{
		"bblocks-config.yaml":      {Data: []byte("identifier-prefix: t.\nimports: []\nurl-mappings:\n  https://s.example/schemas/: copies/\n")},
		"copies/a.yaml":            {Data: []byte("type: object\nproperties:\n  b:\n    $ref: b.yaml\n  c:\n    $ref: c.yaml\n")},
		"copies/b.yaml":            {Data: []byte("type: string\n")},
		"copies/c.yaml":            {Data: []byte("type: number\n")},
		"_sources/a/bblock.json":   meta(`, "schema": "https://s.example/schemas/a.yaml"`),
		"_sources/b/bblock.json":   meta(`, "schema": "https://s.example/schemas/b.yaml"`),
		"_sources/use/bblock.json": meta(""),
		"_sources/use/schema.yaml": {Data: []byte("properties:\n  a:\n    $ref: https://s.example/schemas/a.yaml\n" +
			"  b:\n    $ref: 'https://s.example/schemas/b.yaml#/type'\n  c:\n    $ref: https://s.example/schemas/c.yaml\n")},
	}
	r, err := LoadRegister(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][]string{"t.use": {"t.a", "t.b"}, "t.a": {"t.b"}, "t.b": nil} {
		b := r.Block(id)
		if b == nil {
			t.Fatalf("no block %s", id)
		}
		if err := b.Err(); err != nil {
			t.Errorf("%s: %v", id, err)
		}
		if !slices.Equal(b.Deps, want) {
			t.Errorf("%s: dependencies %v, want %v", id, b.Deps, want)
		}
	}
	if ids := r.IDs(); slices.Index(ids, "t.b") > slices.Index(ids, "t.a") || slices.Index(ids, "t.a") > slices.Index(ids, "t.use") {
		t.Errorf("order %v: t.b, then t.a, then t.use", ids)
	}
}
