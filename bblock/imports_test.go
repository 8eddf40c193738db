package bblock

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/diag"
)

// objectRegister is a register.json in the object form, with absolute and relative links.
const objectRegister = `{
  "baseURL": "https://pub.example/reg/",
  "bblocks": [
    {"itemIdentifier": "a.p", "name": "P",
     "schema": {"application/yaml": "https://x.example/reg/annotated/p/schema.yaml", "application/json": "https://x.example/reg/annotated/p/schema.json"},
     "ldContext": "https://x.example/reg/annotated/p/context.jsonld",
     "dependsOn": ["bblocks://a.q"]},
    {"itemIdentifier": "a.q", "name": "Q",
     "schema": {"application/json": "annotated/q/schema.json"},
     "ldContext": "annotated/q/context.jsonld"}
  ]
}`

// listRegister is a register.json in the bare-list form.
const listRegister = `[
  {"itemIdentifier": "b.r", "schema": "annotated/r/schema.yaml", "dependsOn": ["b.s", "bblocks://b.t"]}
]`

// writeFiles writes files (slash-separated names -> content) below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// importDir returns a new folder holding files.
func importDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	return dir
}

// mustImports loads maps, failing the test when it cannot.
func mustImports(t *testing.T, maps ...ImportMap) *Imports {
	t.Helper()
	im, err := LoadImports(maps)
	if err != nil {
		t.Fatalf("LoadImports: %v", err)
	}
	return im
}

// TestParseImportMap proves ParseImportMap splits "URL=DIR" and refuses a missing "=" or an empty side.
func TestParseImportMap(t *testing.T) {
	tests := []struct {
		in      string
		want    ImportMap
		wantErr bool
	}{
		{in: "https://x.example/reg/=/tmp/copy", want: ImportMap{URL: "https://x.example/reg/", Dir: "/tmp/copy"}},
		{in: "default=copy", want: ImportMap{URL: "default", Dir: "copy"}},
		{in: "https://x.example/register.json=../a b", want: ImportMap{URL: "https://x.example/register.json", Dir: "../a b"}},
		{in: "https://x.example/reg/", wantErr: true},
		{in: "", wantErr: true},
		{in: "=", wantErr: true},
		{in: "=/tmp/copy", wantErr: true},
		{in: "https://x.example/reg/=", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseImportMap(tt.in)
		if tt.wantErr {
			if err == nil || !strings.Contains(err.Error(), "URL=DIR") {
				t.Errorf("ParseImportMap(%q) = %+v, %v; want an error asking for URL=DIR", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseImportMap(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

// TestLoadImportsBlocks proves LoadImports reads both forms of register.json, in the folder or its build/, resolving relative links against the import URL.
func TestLoadImportsBlocks(t *testing.T) {
	tests := []struct {
		name  string
		url   string
		files map[string]string
		want  []ImportedBlock
	}{
		{name: "object form", url: "https://x.example/reg/",
			files: map[string]string{"register.json": objectRegister},
			want: []ImportedBlock{
				{ID: "a.p", Name: "P", Schema: "https://x.example/reg/annotated/p/schema.yaml",
					LdContext: "https://x.example/reg/annotated/p/context.jsonld", DependsOn: []string{"a.q"}, Import: "https://x.example/reg/"},
				{ID: "a.q", Name: "Q", Schema: "https://x.example/reg/annotated/q/schema.json",
					LdContext: "https://x.example/reg/annotated/q/context.jsonld", Import: "https://x.example/reg/"},
			}},
		{name: "import URL naming register.json", url: "https://x.example/reg/register.json",
			files: map[string]string{"register.json": objectRegister},
			want: []ImportedBlock{
				{ID: "a.q", Name: "Q", Schema: "https://x.example/reg/annotated/q/schema.json",
					LdContext: "https://x.example/reg/annotated/q/context.jsonld", Import: "https://x.example/reg/register.json"},
			}},
		{name: "import URL without a final slash", url: "https://x.example/reg",
			files: map[string]string{"register.json": objectRegister},
			want: []ImportedBlock{
				{ID: "a.q", Name: "Q", Schema: "https://x.example/reg/annotated/q/schema.json",
					LdContext: "https://x.example/reg/annotated/q/context.jsonld", Import: "https://x.example/reg"},
			}},
		{name: "bare list", url: "https://y.example/r/",
			files: map[string]string{"register.json": listRegister},
			want: []ImportedBlock{
				{ID: "b.r", Schema: "https://y.example/r/annotated/r/schema.yaml", DependsOn: []string{"b.s", "b.t"}, Import: "https://y.example/r/"},
			}},
		{name: "build/register.json", url: "https://y.example/r/",
			files: map[string]string{"build/register.json": listRegister},
			want: []ImportedBlock{
				{ID: "b.r", Schema: "https://y.example/r/annotated/r/schema.yaml", DependsOn: []string{"b.s", "b.t"}, Import: "https://y.example/r/"},
			}},
		{name: "relative links that climb", url: "https://y.example/r/v1/",
			files: map[string]string{"register.json": `{"bblocks": [{"itemIdentifier": "c.u", "schema": "../shared/u.yaml", "ldContext": "/ctx/u.jsonld"}]}`},
			want: []ImportedBlock{
				{ID: "c.u", Schema: "https://y.example/r/shared/u.yaml", LdContext: "https://y.example/ctx/u.jsonld", Import: "https://y.example/r/v1/"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := mustImports(t, ImportMap{URL: tt.url, Dir: importDir(t, tt.files)})
			for _, want := range tt.want {
				got, ok := im.Block(want.ID)
				if !ok || got == nil {
					t.Errorf("Block(%s) not found", want.ID)
					continue
				}
				if !reflect.DeepEqual(*got, want) {
					t.Errorf("Block(%s) = %+v\nwant %+v", want.ID, *got, want)
				}
			}
			if b, ok := im.Block("no.such"); ok || b != nil {
				t.Errorf("Block(no.such) = %+v, %v", b, ok)
			}
			if got := im.Names(); !reflect.DeepEqual(got, []string{tt.url}) {
				t.Errorf("Names() = %v, want [%s]", got, tt.url)
			}
		})
	}
}

// TestImportsBlockOfURL proves BlockOfURL finds an imported block by its schema URL or the .json twin of its .yaml URL.
func TestImportsBlockOfURL(t *testing.T) {
	im := mustImports(t, ImportMap{URL: "https://x.example/reg/", Dir: importDir(t, map[string]string{"register.json": objectRegister})})
	tests := []struct {
		url    string
		want   string
		wantOK bool
	}{
		{"https://x.example/reg/annotated/p/schema.yaml", "a.p", true},
		{"https://x.example/reg/annotated/p/schema.json", "a.p", true},
		{"https://x.example/reg/annotated/q/schema.json", "a.q", true},
		{"https://x.example/reg/annotated/p/context.jsonld", "", false},
		{"https://x.example/reg/annotated/r/schema.yaml", "", false},
		{"annotated/p/schema.yaml", "", false},
	}
	for _, tt := range tests {
		got, ok := im.BlockOfURL(tt.url)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("BlockOfURL(%s) = %q, %v; want %q, %v", tt.url, got, ok, tt.want, tt.wantOK)
		}
	}
}

// TestImportsReadURL proves ReadURL reads the mapped file of a URL under an import's prefixes and refuses escapes and unmapped URLs.
func TestImportsReadURL(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"secret.txt":                      "outside the copy",
		"copy/register.json":              objectRegister,
		"copy/annotated/p/schema.yaml":    "type: object\n",
		"copy/annotated/p/sub dir/x.yaml": "x: 1\n",
		"built/build/register.json":       listRegister,
		"built/build/annotated/r/s.yaml":  "r: 1\n",
		"built/annotated/only-top.yaml":   "top: 1\n",
	})
	im := mustImports(t,
		ImportMap{URL: "https://x.example/reg/", Dir: filepath.Join(root, "copy")},
		ImportMap{URL: "https://y.example/r/register.json", Dir: filepath.Join(root, "built")})
	tests := []struct {
		url          string
		want         string
		leaves       bool // refused as leaving the copy
		notImported  bool // errors.Is(err, ErrNotImported)
		missingInMap bool // covered by an import, but the copy has no such file
	}{
		{url: "https://x.example/reg/annotated/p/schema.yaml", want: "type: object\n"},
		{url: "https://x.example/reg/annotated/p/schema.yaml#/$defs/A", want: "type: object\n"},
		{url: "https://x.example/reg/annotated/p/schema.yaml?v=2", want: "type: object\n"},
		{url: "https://x.example/reg/annotated/p/sub%20dir/x.yaml", want: "x: 1\n"},
		{url: "https://x.example/reg/annotated/p/./../p/schema.yaml", want: "type: object\n"},
		{url: "https://pub.example/reg/annotated/p/schema.yaml", want: "type: object\n"}, // the register's baseURL
		{url: "https://y.example/r/annotated/r/s.yaml", want: "r: 1\n"},                  // from build/
		{url: "https://y.example/r/annotated/only-top.yaml", want: "top: 1\n"},
		{url: "https://x.example/reg/../secret.txt", leaves: true},
		{url: "https://x.example/reg/annotated/../../secret.txt", leaves: true},
		{url: "https://x.example/reg/%2e%2e/secret.txt", leaves: true},
		{url: "https://x.example/reg/annotated/p/missing.yaml", missingInMap: true},
		{url: "https://other.example/reg/annotated/p/schema.yaml", notImported: true},
		{url: "https://x.example/registry/annotated/p/schema.yaml", notImported: true},
		{url: "http://x.example/reg/annotated/p/schema.yaml", notImported: true},
	}
	for _, tt := range tests {
		data, err := im.ReadURL(tt.url)
		switch {
		case tt.leaves:
			if err == nil || !strings.Contains(err.Error(), "leaves the copy") {
				t.Errorf("ReadURL(%s) = %q, %v; want it refused", tt.url, data, err)
			}
		case tt.notImported:
			if !errors.Is(err, ErrNotImported) {
				t.Errorf("ReadURL(%s) = %q, %v; want an error wrapping ErrNotImported", tt.url, data, err)
			}
		case tt.missingInMap:
			if err == nil || errors.Is(err, ErrNotImported) {
				t.Errorf("ReadURL(%s) = %q, %v; want a missing-file error that is not ErrNotImported", tt.url, data, err)
			}
		default:
			if err != nil || string(data) != tt.want {
				t.Errorf("ReadURL(%s) = %q, %v; want %q", tt.url, data, err, tt.want)
			}
		}
	}
}

// TestDefaultImportMapping proves the import "default" stands for the folder of DefaultImport.
func TestDefaultImportMapping(t *testing.T) {
	dir := importDir(t, map[string]string{
		"register.json":               `{"bblocks": [{"itemIdentifier": "ogc.geo.x", "schema": {"application/yaml": "annotated/geo/x/schema.yaml"}}]}`,
		"annotated/geo/x/schema.yaml": "type: object\n",
	})
	im := mustImports(t, ImportMap{URL: "default", Dir: dir})
	if got := im.Names(); !reflect.DeepEqual(got, []string{"default"}) {
		t.Errorf("Names() = %v, want [default]", got)
	}
	b, ok := im.Block("ogc.geo.x")
	if !ok || b.Schema != "https://opengeospatial.github.io/bblocks/annotated/geo/x/schema.yaml" || b.Import != "default" {
		t.Errorf("Block(ogc.geo.x) = %+v, %v", b, ok)
	}
	data, err := im.ReadURL("https://opengeospatial.github.io/bblocks/annotated/geo/x/schema.yaml")
	if err != nil || string(data) != "type: object\n" {
		t.Errorf("ReadURL under the default register = %q, %v", data, err)
	}
	if id, ok := im.BlockOfURL("https://opengeospatial.github.io/bblocks/annotated/geo/x/schema.json"); id != "ogc.geo.x" || !ok {
		t.Errorf("BlockOfURL of the .json twin = %q, %v", id, ok)
	}
}

// TestNilImports proves a nil or empty *Imports has no blocks, no names, and reads nothing.
func TestNilImports(t *testing.T) {
	empty, err := LoadImports(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		im   *Imports
	}{{"nil", nil}, {"zero", &Imports{}}, {"LoadImports(nil)", empty}} {
		if b, ok := tt.im.Block("a.p"); b != nil || ok {
			t.Errorf("%s: Block = %+v, %v", tt.name, b, ok)
		}
		if id, ok := tt.im.BlockOfURL("https://x.example/reg/annotated/p/schema.yaml"); id != "" || ok {
			t.Errorf("%s: BlockOfURL = %q, %v", tt.name, id, ok)
		}
		if names := tt.im.Names(); names != nil {
			t.Errorf("%s: Names = %v", tt.name, names)
		}
		if data, err := tt.im.ReadURL("https://x.example/reg/a.yaml"); !errors.Is(err, ErrNotImported) {
			t.Errorf("%s: ReadURL = %q, %v; want ErrNotImported", tt.name, data, err)
		}
	}
}

// TestLoadImportsErrors proves LoadImports reports, naming the folder, a copy without register.json or with one that is not a register, and a URL that is not absolute.
func TestLoadImportsErrors(t *testing.T) {
	tests := []struct {
		name  string
		url   string
		files map[string]string
		want  string
	}{
		{name: "no register.json", url: "https://x.example/reg/", files: map[string]string{"other.json": "{}"}, want: "no register.json"},
		{name: "register.json in another folder", url: "https://x.example/reg/", files: map[string]string{"sub/register.json": listRegister}, want: "no register.json"},
		{name: "not a register", url: "https://x.example/reg/", files: map[string]string{"register.json": `"x"`}, want: "not a building-block register"},
		{name: "not JSON", url: "https://x.example/reg/", files: map[string]string{"register.json": `{"bblocks": [`}, want: "not a building-block register"},
		{name: "block without id", url: "https://x.example/reg/", files: map[string]string{"register.json": `[{"name": "anonymous"}]`}, want: "no itemIdentifier"},
		{name: "relative URL", url: "reg/", files: map[string]string{"register.json": listRegister}, want: "not an absolute URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := importDir(t, tt.files)
			im, err := LoadImports([]ImportMap{{URL: tt.url, Dir: dir}})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), dir) {
				t.Errorf("LoadImports = %v, %v; want an error %q naming %s", im, err, tt.want, dir)
			}
		})
	}
}

// TestLoadRegisterWithImports proves a register loaded with Imports accepts dependencies on imported blocks and does not warn about mapped imports.
func TestLoadRegisterWithImports(t *testing.T) {
	xImport := ImportMap{URL: "https://x.example/reg/", Dir: importDir(t, map[string]string{"register.json": objectRegister})}
	defImport := ImportMap{URL: "default", Dir: importDir(t, map[string]string{"register.json": `[{"itemIdentifier": "ogc.z"}]`})}
	im := mustImports(t, xImport)
	imDefault := mustImports(t, defImport)
	const (
		onX       = `, "dependsOn": ["bblocks://a.p"]`
		schemaOnX = "$ref: 'bblocks://a.q#/$defs/Q'\n"
	)
	tests := []struct {
		name       string
		config     string
		opts       *Options
		dependsOn  string
		schema     string
		deps       []string
		unknown    bool     // t.a has unknown-block errors
		unresolved []string // imports warned about as not resolved
	}{
		{name: "mapped", config: "imports: [https://x.example/reg/]\n", opts: &Options{Imports: im},
			dependsOn: onX, schema: schemaOnX, deps: []string{"a.p", "a.q"}},
		{name: "mapped default", config: "name: r\n", opts: &Options{Imports: imDefault},
			dependsOn: `, "dependsOn": ["ogc.z"]`, deps: []string{"ogc.z"}},
		{name: "one of two mapped", config: "imports: [https://x.example/reg/, https://w.example/]\n", opts: &Options{Imports: im},
			dependsOn: onX, schema: schemaOnX, deps: []string{"a.p", "a.q"}, unresolved: []string{"https://w.example/"}},
		{name: "no imports given", config: "imports: [https://x.example/reg/]\n", opts: nil,
			dependsOn: onX, schema: schemaOnX, deps: []string{"a.p", "a.q"}, unknown: true, unresolved: []string{"https://x.example/reg/"}},
		{name: "default not mapped", config: "name: r\n", opts: &Options{Imports: im},
			dependsOn: `, "dependsOn": ["ogc.z"]`, deps: []string{"ogc.z"}, unknown: true, unresolved: []string{"default"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"bblocks-config.yaml":    file("identifier-prefix: t\n" + tt.config),
				"_sources/a/bblock.json": meta(tt.dependsOn),
			}
			if tt.schema != "" {
				fsys["_sources/a/schema.yaml"] = file(tt.schema)
			}
			r := mustRegister(t, fsys, tt.opts)
			if tt.opts != nil && r.Imports != tt.opts.Imports {
				t.Error("Register.Imports is not the Imports given")
			}
			a := mustGet(t, r, "t.a")
			if !reflect.DeepEqual(a.Deps, tt.deps) {
				t.Errorf("Deps %v, want %v", a.Deps, tt.deps)
			}
			errs := a.Problems.Errors().Error()
			if got := strings.Contains(errs, "unknown building block"); got != tt.unknown {
				t.Errorf("unknown-block errors: %v, want %v; errors: %s", got, tt.unknown, errs)
			}
			var unresolved []string
			for _, p := range r.Problems.Warnings() {
				if strings.Contains(p.Message, "is not resolved") {
					for _, imp := range []string{"https://x.example/reg/", "https://w.example/", "default"} {
						if strings.Contains(p.Message, `"`+imp+`"`) {
							unresolved = append(unresolved, imp)
						}
					}
				}
			}
			if !reflect.DeepEqual(unresolved, tt.unresolved) {
				t.Errorf("imports warned as not resolved %v, want %v", unresolved, tt.unresolved)
			}
			if err := r.Problems.Errors(); len(err) > 0 {
				t.Errorf("register errors: %v", err)
			}
		})
	}
}

// TestFindImport: Options.FindImport is asked for each import that
// Imports does not map, and what it finds is loaded as if mapped, listed
// by the URL of the register.json it was made from; an import mapped
// already is not asked for; a copy that cannot be read is an error of the
// register naming the import and the copy, and the import stays
// unresolved.
func TestFindImport(t *testing.T) {
	xDir := importDir(t, map[string]string{"register.json": objectRegister})
	const xRegister = "https://x.example/reg/build/register.json"
	tests := []struct {
		name       string
		imports    *Imports
		found      map[string]ImportMap // what FindImport finds, by import
		asked      []string
		registers  []string // RegisterURL of each import of the configuration
		unresolved bool     // the import of x is warned about
		copyError  bool     // the register has an error naming the copy
	}{
		{name: "found", found: map[string]ImportMap{"https://x.example/reg/": {URL: "https://x.example/reg/", Dir: xDir, RegisterURL: xRegister}},
			asked: []string{"https://x.example/reg/", "default"}, registers: []string{xRegister, DefaultImport}},
		{name: "mapped already", imports: mustImports(t, ImportMap{URL: "https://x.example/reg/", Dir: xDir}),
			asked: []string{"default"}, registers: []string{"https://x.example/reg/register.json", DefaultImport}},
		{name: "not found", asked: []string{"https://x.example/reg/", "default"},
			registers: []string{"https://x.example/reg/build/register.json", DefaultImport}, unresolved: true},
		{name: "copy unreadable", found: map[string]ImportMap{"https://x.example/reg/": {URL: "https://x.example/reg/", Dir: t.TempDir()}},
			asked: []string{"https://x.example/reg/", "default"}, registers: []string{"https://x.example/reg/build/register.json", DefaultImport},
			unresolved: true, copyError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []string
			find := func(name string) (ImportMap, bool) {
				asked = append(asked, name)
				m, ok := tt.found[name]
				return m, ok
			}
			fsys := fstest.MapFS{
				"bblocks-config.yaml":    file("identifier-prefix: t\nimports: [https://x.example/reg/, default]\n"),
				"_sources/a/bblock.json": meta(`, "dependsOn": ["bblocks://a.p"]`),
			}
			r, err := LoadRegister(fsys, &Options{Imports: tt.imports, FindImport: find})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(asked, tt.asked) {
				t.Errorf("asked for %q, want %q", asked, tt.asked)
			}
			var registers []string
			for _, imp := range r.Config.Imports {
				registers = append(registers, r.Imports.RegisterURL(imp))
			}
			if !reflect.DeepEqual(registers, tt.registers) {
				t.Errorf("register.json URLs %q, want %q", registers, tt.registers)
			}
			if _, ok := r.Imports.Block("a.p"); ok == tt.unresolved {
				t.Errorf("the imported block a.p is found: %v", ok)
			}
			unresolved, copyError := false, false
			for _, p := range r.Problems {
				unresolved = unresolved || strings.Contains(p.Message, `"https://x.example/reg/" is not resolved`) && p.Pointer == "/imports/0"
				copyError = copyError || p.Severity == diag.Error && strings.Contains(p.Message, `import "https://x.example/reg/": the copy in `+tt.found["https://x.example/reg/"].Dir)
			}
			if unresolved != tt.unresolved || copyError != tt.copyError {
				t.Errorf("warned as not resolved %v, copy error %v; want %v, %v: %v", unresolved, copyError, tt.unresolved, tt.copyError, r.Problems)
			}
		})
	}
}

// TestImportsConfined (issue 23, item 2): a file of an import's copy that
// is a symbolic link leading outside the copy is refused, register.json
// included; links inside the copy are followed.
func TestImportsConfined(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"secret.yaml":                  "secret: 1\n",
		"copy/register.json":           objectRegister,
		"copy/annotated/p/schema.yaml": "type: object\n",
		"other/register.json":          listRegister,
	})
	for link, to := range map[string]string{
		"copy/annotated/p/leak.yaml": filepath.Join(root, "secret.yaml"),
		"copy/annotated/p/rel.yaml":  "../../../secret.yaml",
		"copy/annotated/p/same.yaml": "schema.yaml",
		"linked/register.json":       filepath.Join(root, "other", "register.json"),
	} {
		p := filepath.Join(root, filepath.FromSlash(link))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(to, p); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	im := mustImports(t, ImportMap{URL: "https://x.example/reg/", Dir: filepath.Join(root, "copy")})
	for _, name := range []string{"leak.yaml", "rel.yaml"} {
		data, err := im.ReadURL("https://x.example/reg/annotated/p/" + name)
		if !errors.Is(err, ErrLeavesTree) {
			t.Errorf("%s: %q, %v; want an error wrapping ErrLeavesTree", name, data, err)
		}
	}
	if data, err := im.ReadURL("https://x.example/reg/annotated/p/same.yaml"); err != nil || string(data) != "type: object\n" {
		t.Errorf("a link inside the copy: %q, %v", data, err)
	}
	_, err := LoadImports([]ImportMap{{URL: "https://y.example/", Dir: filepath.Join(root, "linked")}})
	if !errors.Is(err, ErrLeavesTree) {
		t.Errorf("register.json linking out of the copy: %v; want an error wrapping ErrLeavesTree", err)
	}
}
