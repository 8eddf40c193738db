package bblock

import (
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// file returns a map file holding s.
func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

// mustRegister loads the register in fsys, failing the test when it cannot.
func mustRegister(t *testing.T, fsys fs.FS, opts *Options) *Register {
	t.Helper()
	r, err := LoadRegister(fsys, opts)
	if err != nil {
		t.Fatalf("LoadRegister: %v", err)
	}
	return r
}

// mustGet returns the block id of r, failing the test when r lacks it.
func mustGet(t *testing.T, r *Register, id string) *Block {
	t.Helper()
	b := r.Block(id)
	if b == nil {
		t.Fatalf("no block %s; the register has %v (problems: %v)", id, r.IDs(), r.Problems)
	}
	return b
}

// siblingTree is a register of two blocks, a folder of shared files and
// files outside _sources that a block must not reach.
func siblingTree() fstest.MapFS {
	return fstest.MapFS{
		"bblocks-config.yaml":         file("identifier-prefix: t\nimports: []\n"),
		"secret.txt":                  file("top secret"),
		"_sourcesX/f.yaml":            file("beside the sources"),
		"_sources/a/bblock.json":      meta(""),
		"_sources/a/schema.yaml":      file("type: object\n"),
		"_sources/a/sub/x.yaml":       file("sub: x\n"),
		"_sources/other/bblock.json":  meta(""),
		"_sources/other/schema.yaml":  file("type: string\n"),
		"_sources/shared/common.yaml": file("common: true\n"),
	}
}

// TestReadFileInRegister proves a register block reads any file of _sources (its siblings' too) and nothing outside it.
func TestReadFileInRegister(t *testing.T) {
	r := mustRegister(t, siblingTree(), nil)
	a := mustGet(t, r, "t.a")
	tests := []struct {
		name    string
		want    string // content, when the read succeeds
		leaves  bool   // refused as leaving _sources
		missing bool   // inside _sources, but no such file
	}{
		{name: "schema.yaml", want: "type: object\n"},
		{name: "./sub/x.yaml", want: "sub: x\n"},
		{name: "../other/schema.yaml", want: "type: string\n"},
		{name: "../shared/common.yaml", want: "common: true\n"},
		{name: "sub/../../other/schema.yaml", want: "type: string\n"},
		{name: "../nothing.yaml", missing: true},
		{name: "../../bblocks-config.yaml", leaves: true},
		{name: "../../secret.txt", leaves: true},
		{name: "../../_sourcesX/f.yaml", leaves: true},
		{name: "../../../etc/passwd", leaves: true},
		{name: "/etc/passwd", leaves: true},
		{name: "sub/../../../secret.txt", leaves: true},
	}
	for _, tt := range tests {
		data, err := a.ReadFile(tt.name)
		switch {
		case tt.leaves:
			if err == nil || !strings.Contains(err.Error(), "leaves the register's _sources folder") {
				t.Errorf("ReadFile(%q) = %q, %v; want it refused as leaving _sources", tt.name, data, err)
			}
		case tt.missing:
			if !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "leaves") {
				t.Errorf("ReadFile(%q): error %v, want a missing-file error", tt.name, err)
			}
		default:
			if err != nil || string(data) != tt.want {
				t.Errorf("ReadFile(%q) = %q, %v; want %q", tt.name, data, err, tt.want)
			}
		}
	}
}

// TestReadFileLoneBlock proves a block loaded on its own reads its folder's files and refuses names that leave the folder.
func TestReadFileLoneBlock(t *testing.T) {
	b, err := Load(fstest.MapFS{"bblock.json": meta(""), "x.yaml": file("x: 1\n"), "sub/y.yaml": file("y: 2\n")}, "lone")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		want   string
		leaves bool
	}{
		{name: "x.yaml", want: "x: 1\n"},
		{name: "./x.yaml", want: "x: 1\n"},
		{name: "sub/y.yaml", want: "y: 2\n"},
		{name: "sub/../x.yaml", want: "x: 1\n"},
		{name: "../x", leaves: true},
		{name: "../x.yaml", leaves: true},
		{name: "sub/../../x.yaml", leaves: true},
		{name: "/etc/passwd", leaves: true},
	}
	for _, tt := range tests {
		data, err := b.ReadFile(tt.name)
		if tt.leaves {
			if err == nil || !strings.Contains(err.Error(), "leaves the block's folder") {
				t.Errorf("ReadFile(%q) = %q, %v; want it refused as leaving the block's folder", tt.name, data, err)
			}
			continue
		}
		if err != nil || string(data) != tt.want {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", tt.name, data, err, tt.want)
		}
	}
}

// TestTreePath proves TreePath gives a file's path below the register's root (below the folder for a lone block) and refuses escapes.
func TestTreePath(t *testing.T) {
	r := mustRegister(t, siblingTree(), nil)
	a := mustGet(t, r, "t.a")
	lone, err := Load(fstest.MapFS{"bblock.json": meta("")}, "lone")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		block *Block
		name  string
		want  string // "" for an error
	}{
		{a, "x.yaml", "_sources/a/x.yaml"},
		{a, "./sub/y.yaml", "_sources/a/sub/y.yaml"},
		{a, "../other/schema.yaml", "_sources/other/schema.yaml"},
		{a, "../../bblocks-config.yaml", ""},
		{a, "/etc/passwd", ""},
		{lone, "x.yaml", "x.yaml"},
		{lone, "./sub/y.yaml", "sub/y.yaml"},
		{lone, "../x.yaml", ""},
	}
	for _, tt := range tests {
		got, err := tt.block.TreePath(tt.name)
		if tt.want == "" {
			if err == nil {
				t.Errorf("%s: TreePath(%q) = %q, want an error", tt.block.ID, tt.name, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: TreePath(%q) = %q, %v; want %q", tt.block.ID, tt.name, got, err, tt.want)
		}
	}
}

// TestOutputPath proves a block's output folder is its id without the first component, or its folder when the id has one component.
func TestOutputPath(t *testing.T) {
	tests := []struct {
		prefix, folder string // identifier-prefix ("" for none) and folder below _sources
		id, path       string
		want           string
	}{
		{prefix: "ogc", folder: "geo/feature", id: "ogc.geo.feature", path: "geo/feature", want: "geo/feature"},
		{prefix: "mcp", folder: "json-rpc", id: "mcp.json-rpc", path: "json-rpc", want: "json-rpc"},
		{prefix: "t.", folder: "fleet/_parts/hull", id: "t.fleet.hull", path: "fleet/_parts/hull", want: "fleet/hull"},
		{prefix: "", folder: "solo", id: "solo", path: "solo", want: "solo"},
		{prefix: "", folder: "_grp/solo", id: "solo", path: "_grp/solo", want: "_grp/solo"},
	}
	for _, tt := range tests {
		config := "imports: []\n"
		if tt.prefix != "" {
			config += "identifier-prefix: " + tt.prefix + "\n"
		}
		r := mustRegister(t, fstest.MapFS{
			"bblocks-config.yaml":                    file(config),
			"_sources/" + tt.folder + "/bblock.json": meta(""),
		}, nil)
		b := mustGet(t, r, tt.id)
		if b.Path != tt.path {
			t.Errorf("%s: Path %q, want %q", tt.id, b.Path, tt.path)
		}
		if got := b.OutputPath(); got != tt.want {
			t.Errorf("%s: OutputPath() = %q, want %q", tt.id, got, tt.want)
		}
	}
	lone, err := Load(fstest.MapFS{"bblock.json": meta("")}, "lone")
	if err != nil {
		t.Fatal(err)
	}
	if got := lone.OutputPath(); got != "." {
		t.Errorf("lone block with a one-component id: OutputPath() = %q, want its folder \".\"", got)
	}
}

// TestNamedSchemaAndContext proves bblock.json's "schema" and "ldContext" name the block's files, and that a clash with the default file or a URL is an error.
func TestNamedSchemaAndContext(t *testing.T) {
	tests := []struct {
		name     string
		meta     string
		files    map[string]string
		schema   string   // Files.Schema
		context  string   // Files.Context
		deps     []string // Deps, found through the named schema
		errWords []string // all in one error problem; none means no errors
	}{
		{name: "named schema", meta: `, "schema": "main.yaml"`,
			files: map[string]string{"main.yaml": "$ref: bblocks://t.x\n"}, schema: "main.yaml", deps: []string{"t.x"}},
		{name: "named schema in a subfolder", meta: `, "schema": "./schemas/main.json"`,
			files: map[string]string{"schemas/main.json": `{"type": "object"}`}, schema: "schemas/main.json"},
		{name: "named context", meta: `, "ldContext": "ctx.jsonld"`,
			files: map[string]string{"ctx.jsonld": `{"@context": {}}`}, context: "ctx.jsonld"},
		{name: "both named", meta: `, "schema": "s.json", "ldContext": "c.jsonld"`,
			files: map[string]string{"s.json": `{}`, "c.jsonld": `{}`}, schema: "s.json", context: "c.jsonld"},
		{name: "naming the default schema", meta: `, "schema": "schema.yaml"`,
			files: map[string]string{"schema.yaml": "type: object\n"}, schema: "schema.yaml"},
		{name: "naming the default context", meta: `, "ldContext": "./context.jsonld"`,
			files: map[string]string{"context.jsonld": `{}`}, context: "context.jsonld"},
		{name: "named schema beside schema.yaml", meta: `, "schema": "main.yaml"`,
			files:    map[string]string{"main.yaml": "type: object\n", "schema.yaml": "type: object\n"},
			errWords: []string{"main.yaml", "schema.yaml"}},
		{name: "named context beside context.jsonld", meta: `, "ldContext": "ctx.jsonld"`,
			files:    map[string]string{"ctx.jsonld": `{}`, "context.jsonld": `{}`},
			errWords: []string{"ctx.jsonld", "context.jsonld"}},
		{name: "schema URL", meta: `, "schema": "https://x.example/s.yaml"`,
			errWords: []string{"https://x.example/s.yaml", "URL"}},
		{name: "context URL", meta: `, "ldContext": "http://x.example/c.jsonld"`,
			errWords: []string{"http://x.example/c.jsonld", "URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"bblock.json": meta(tt.meta)}
			for n, c := range tt.files {
				fsys[n] = file(c)
			}
			b, err := Load(fsys, "t.a")
			if err != nil {
				t.Fatal(err)
			}
			errs := b.Problems.Errors()
			if tt.errWords == nil {
				if len(errs) > 0 {
					t.Fatalf("errors: %v", errs)
				}
				if b.Files.Schema != tt.schema || b.Files.Context != tt.context {
					t.Errorf("Files.Schema %q, Files.Context %q; want %q, %q", b.Files.Schema, b.Files.Context, tt.schema, tt.context)
				}
				if !reflect.DeepEqual(b.Deps, tt.deps) {
					t.Errorf("Deps %v, want %v", b.Deps, tt.deps)
				}
				return
			}
			found := false
			for _, p := range errs {
				all := true
				for _, w := range tt.errWords {
					all = all && strings.Contains(p.Message, w)
				}
				found = found || all
			}
			if !found {
				t.Errorf("no error problem names all of %q; errors: %v", tt.errWords, errs)
			}
		})
	}
	// A URL is not a local file: the block has no schema.
	b, err := Load(fstest.MapFS{"bblock.json": meta(`, "schema": "https://x.example/s.yaml"`)}, "t.a")
	if err != nil {
		t.Fatal(err)
	}
	if b.Files.Schema != "" {
		t.Errorf("schema URL: Files.Schema %q, want none", b.Files.Schema)
	}
}

// TestDependsOnBblocksURI proves "bblocks://" is taken off dependsOn entries and the dependency is ordered first.
func TestDependsOnBblocksURI(t *testing.T) {
	r := mustRegister(t, fstest.MapFS{
		"bblocks-config.yaml":    file("identifier-prefix: t\nimports: []\n"),
		"_sources/a/bblock.json": meta(`, "dependsOn": ["bblocks://t.x"]`),
		"_sources/x/bblock.json": meta(""),
	}, nil)
	a := mustGet(t, r, "t.a")
	if want := []string{"t.x"}; !reflect.DeepEqual(a.Meta.DependsOn, want) || !reflect.DeepEqual(a.Deps, want) {
		t.Errorf("Meta.DependsOn %v, Deps %v; want %v", a.Meta.DependsOn, a.Deps, want)
	}
	if got := strings.Join(r.IDs(), " "); got != "t.x t.a" {
		t.Errorf("order %q, want \"t.x t.a\"", got)
	}
	if err := a.Err(); err != nil {
		t.Errorf("t.a has errors: %v", err)
	}
}

// TestSiblingSchemaDeps proves a $ref to another block's schema file (or its .json/.yaml twin) makes that block a dependency ordered first, and a ref to another file does not.
func TestSiblingSchemaDeps(t *testing.T) {
	tests := []struct {
		name   string
		aFiles map[string]string // files of block a besides bblock.json
		zMeta  string            // extra members of z's bblock.json
		zFiles map[string]string // files of block z besides bblock.json
		deps   []string          // a's Deps
		order  string
	}{
		{name: "ref to the schema", aFiles: map[string]string{"schema.yaml": "$ref: ../z/schema.yaml\n"},
			deps: []string{"t.z"}, order: "t.z t.a"},
		{name: "ref to the .json twin", aFiles: map[string]string{"schema.yaml": "$ref: ../z/schema.json\n"},
			deps: []string{"t.z"}, order: "t.z t.a"},
		{name: "ref to the .yaml twin of schema.json",
			aFiles: map[string]string{"schema.json": `{"$ref": "../z/schema.yaml#/$defs/X"}`},
			zFiles: map[string]string{"schema.json": `{"$defs": {"X": {}}}`},
			deps:   []string{"t.z"}, order: "t.z t.a"},
		{name: "ref with a fragment", aFiles: map[string]string{"schema.yaml": "properties:\n  p:\n    $ref: '../z/schema.yaml#/$defs/X'\n"},
			deps: []string{"t.z"}, order: "t.z t.a"},
		{name: "ref from another schema file of the block",
			aFiles: map[string]string{"schema.yaml": "allOf:\n  - $ref: part.yaml\n", "part.yaml": "$ref: ../z/schema.yaml\n"},
			deps:   []string{"t.z"}, order: "t.z t.a"},
		{name: "ref to a schema named in bblock.json", aFiles: map[string]string{"schema.yaml": "$ref: ../z/main.yaml\n"},
			zMeta: `, "schema": "main.yaml"`, zFiles: map[string]string{"main.yaml": "type: string\n"},
			deps: []string{"t.z"}, order: "t.z t.a"},
		{name: "ref to a non-schema file", aFiles: map[string]string{"schema.yaml": "$ref: ../z/common.yaml\n"},
			deps: nil, order: "t.a t.z"},
		{name: "ref to a shared folder", aFiles: map[string]string{"schema.yaml": "$ref: ../shared/s.yaml\n"},
			deps: nil, order: "t.a t.z"},
		{name: "path and bblocks:// refs, no repeat",
			aFiles: map[string]string{"schema.yaml": "allOf:\n  - $ref: ../z/schema.yaml\n  - $ref: bblocks://t.z\n"},
			deps:   []string{"t.z"}, order: "t.z t.a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"bblocks-config.yaml":    file("identifier-prefix: t\nimports: []\n"),
				"_sources/a/bblock.json": meta(""),
				"_sources/z/bblock.json": meta(tt.zMeta),
				"_sources/z/common.yaml": file("type: integer\n"),
				"_sources/shared/s.yaml": file("type: boolean\n"),
			}
			if tt.zFiles == nil {
				fsys["_sources/z/schema.yaml"] = file("type: string\n")
			}
			for n, c := range tt.zFiles {
				fsys["_sources/z/"+n] = file(c)
			}
			for n, c := range tt.aFiles {
				fsys["_sources/a/"+n] = file(c)
			}
			r := mustRegister(t, fsys, nil)
			a := mustGet(t, r, "t.a")
			if !reflect.DeepEqual(a.Deps, tt.deps) {
				t.Errorf("t.a Deps %v, want %v", a.Deps, tt.deps)
			}
			if got := strings.Join(r.IDs(), " "); got != tt.order {
				t.Errorf("order %q, want %q", got, tt.order)
			}
			for _, b := range r.Blocks {
				if err := b.Err(); err != nil {
					t.Errorf("%s has errors: %v", b.ID, err)
				}
			}
		})
	}
}

// TestNestedBlockSchemaDep proves a block whose schema refers to the schema of a block in its own subfolder depends on that block.
func TestNestedBlockSchemaDep(t *testing.T) {
	r := mustRegister(t, fstest.MapFS{
		"bblocks-config.yaml":          file("identifier-prefix: t\nimports: []\n"),
		"_sources/z/bblock.json":       meta(""),
		"_sources/z/schema.yaml":       file("$ref: sub/schema.yaml\n"),
		"_sources/z/sub/bblock.json":   meta(""),
		"_sources/z/sub/schema.yaml":   file("type: string\n"),
		"_sources/z/sub/examples.yaml": file("- title: x\n  content: y\n"),
	}, nil)
	z := mustGet(t, r, "t.z")
	if !reflect.DeepEqual(z.Deps, []string{"t.z.sub"}) {
		t.Errorf("t.z Deps %v, want [t.z.sub]", z.Deps)
	}
	if got := strings.Join(r.IDs(), " "); got != "t.z.sub t.z" {
		t.Errorf("order %q, want \"t.z.sub t.z\"", got)
	}
}

// TestUnknownDependency proves a dependency nobody has is an error naming the id, and naming the register's imports and --import when it has some.
func TestUnknownDependency(t *testing.T) {
	tests := []struct {
		name    string
		config  string
		meta    string
		schema  string
		want    []string
		notWant []string
	}{
		{name: "no imports", config: "imports: []\n", meta: `, "dependsOn": ["t.nowhere"]`,
			want: []string{`unknown building block "t.nowhere"`}, notWant: []string{"--import"}},
		{name: "an import", config: "imports: [https://x.example/reg/]\n", meta: `, "dependsOn": ["t.nowhere"]`,
			want: []string{`unknown building block "t.nowhere"`, "https://x.example/reg/", "--import"}},
		{name: "default import", config: "name: x\n", meta: `, "dependsOn": ["bblocks://t.nowhere"]`,
			want: []string{`unknown building block "t.nowhere"`, `"default"`, "--import"}},
		{name: "schema reference", config: "imports: [https://x.example/reg/]\n", schema: "$ref: 'bblocks://t.nowhere#/$defs/A'\n",
			want: []string{`unknown building block "t.nowhere"`, "https://x.example/reg/", "--import"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"bblocks-config.yaml":    file("identifier-prefix: t\n" + tt.config),
				"_sources/a/bblock.json": meta(tt.meta),
			}
			if tt.schema != "" {
				fsys["_sources/a/schema.yaml"] = file(tt.schema)
			}
			a := mustGet(t, mustRegister(t, fsys, nil), "t.a")
			var msg string
			for _, p := range a.Problems.Errors() {
				if strings.Contains(p.Message, "t.nowhere") {
					msg = p.Message
				}
			}
			if msg == "" {
				t.Fatalf("no error names t.nowhere; problems: %v", a.Problems)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(msg, w) {
					t.Errorf("error %q has %q", msg, w)
				}
			}
		})
	}
}
