package bblock

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/jrpcld/jrpcld/diag"
)

// ConfigFile is the name of a register source tree's configuration file.
const ConfigFile = "bblocks-config.yaml"

// LocalConfigFile and LocalConfigFile2 are the names of the OGC tool
// chain's local configuration file, beside ConfigFile: its url-mappings
// are read, as those of ConfigFile are.
const (
	LocalConfigFile  = "bblocks-config-local.yml"
	LocalConfigFile2 = "bblocks-config-local.yaml"
)

// readURLMappings returns the url-mappings of the configuration file
// named file in fsys (config holds ConfigFile's bytes, read already): a
// map from a URL, or a URL prefix, to a path relative to the register's
// folder. A file that does not exist has none.
func readURLMappings(fsys fs.FS, file string, config []byte) (map[string]string, Problems) {
	data := config
	if file != ConfigFile {
		var err error
		if data, err = fs.ReadFile(fsys, file); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			return nil, Problems{{File: file, Message: err.Error()}}
		}
	}
	var doc struct {
		URLMappings yaml.Node `yaml:"url-mappings"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, Problems{{File: file, Message: fmt.Sprintf("not YAML: %v", err)}}
	}
	if doc.URLMappings.Kind == 0 {
		return nil, nil
	}
	var m map[string]string
	if err := doc.URLMappings.Decode(&m); err != nil {
		return nil, Problems{{File: file, Pointer: "/url-mappings", Line: doc.URLMappings.Line,
			Message: "url-mappings must map URLs to paths (strings): " + err.Error()}}
	}
	if m == nil {
		m = map[string]string{}
	}
	return m, nil
}

// SourcesDir is the folder of a register source tree that holds the blocks.
const SourcesDir = "_sources"

// Config is the content of bblocks-config.yaml.
type Config struct {
	Name             string   `yaml:"name"`
	Abstract         string   `yaml:"abstract"`
	Description      string   `yaml:"description"`
	IdentifierPrefix string   `yaml:"identifier-prefix"`
	Imports          []string `yaml:"imports"`
	// Sparql holds the SPARQL endpoints the register is published to.
	Sparql struct {
		Push  string `yaml:"push"`  // Graph Store Protocol endpoint
		Query string `yaml:"query"` // SPARQL query endpoint
	} `yaml:"sparql"`
}

// Register is a building-block register source tree: its configuration and
// its blocks in dependency order.
type Register struct {
	Dir    string // the tree on disk, or "" when loaded from an fs.FS
	FS     fs.FS
	Config Config
	// Blocks in dependency order: a block comes after those it depends on
	// (except within a cycle, which is warned about).
	Blocks []*Block
	// Problems of the register as a whole (configuration, dependencies).
	Problems Problems
	// Imports are the local copies of imported registers it was loaded
	// with; nil when none.
	Imports *Imports

	// byID finds the blocks by id (the first of an id), for the indexed
	// blocks LoadRegister made: a register of many blocks looks them up
	// for every dependency.
	byID    map[string]*Block
	indexed int
}

// Options control how a register is loaded. A nil *Options is the zero value.
type Options struct {
	// Imports stand for registers that bblocks-config.yaml imports: blocks
	// may depend on and refer to their blocks.
	Imports *Imports
	// FindImport, when not nil, is asked for a local copy of each import
	// of bblocks-config.yaml ("default" or a URL, as written there) that
	// Imports does not map: "jrpcld build" looks in the cache that
	// "jrpcld fetch" fills. It returns ok false when it has none.
	FindImport func(name string) (m ImportMap, ok bool)
}

// Block returns the block with the given id, or nil.
func (r *Register) Block(id string) *Block {
	if r.byID != nil && len(r.Blocks) == r.indexed {
		return r.byID[id]
	}
	for _, b := range r.Blocks {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// ReadSource reads the file at the slash-separated path p below the root
// of the register source tree; p must lie in its _sources folder.
func (r *Register) ReadSource(p string) ([]byte, error) {
	clean := path.Clean(p)
	if !fs.ValidPath(clean) || clean != SourcesDir && !strings.HasPrefix(clean, SourcesDir+"/") {
		return nil, fmt.Errorf("%s is outside the register's %s folder", p, SourcesDir)
	}
	return fs.ReadFile(r.FS, clean)
}

// IDs returns the ids of the register's blocks, in dependency order.
func (r *Register) IDs() []string {
	ids := make([]string, len(r.Blocks))
	for i, b := range r.Blocks {
		ids[i] = b.ID
	}
	return ids
}

// LoadRegisterDir loads the register source tree in the folder dir. Nothing
// outside it is read: the files below _sources are read from _sources, and a
// symbolic link that leads out of it (or is absolute) is refused with an
// error wrapping ErrLeavesTree.
func LoadRegisterDir(dir string, opts *Options) (*Register, error) {
	if err := checkConfig(dir); err != nil {
		return nil, err
	}
	r, err := LoadRegister(newTreeFS(dir), opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	r.Dir = dir
	for _, b := range r.Blocks {
		b.Dir = filepath.Join(dir, SourcesDir, filepath.FromSlash(b.Path))
	}
	return r, nil
}

// LoadRegister loads a register source tree: bblocks-config.yaml and every
// folder below _sources that holds a bblock.json. The error is non-nil only
// when the tree cannot be read at all; problems of single blocks are in
// their Problems, and those of the whole in the register's.
func LoadRegister(fsys fs.FS, opts *Options) (*Register, error) {
	r := &Register{FS: fsys}
	if opts != nil {
		r.Imports = opts.Imports
	}
	data, err := fs.ReadFile(fsys, ConfigFile)
	if err != nil {
		return nil, fmt.Errorf("not a building-block source tree: %w", err)
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: not YAML: %w", ConfigFile, err)
	}
	if err := yaml.Unmarshal(data, &r.Config); err != nil {
		return nil, fmt.Errorf("%s: %w", ConfigFile, err)
	}
	for _, file := range []string{ConfigFile, LocalConfigFile, LocalConfigFile2} {
		mappings, probs := readURLMappings(fsys, file, data)
		r.Problems = append(r.Problems, probs...)
		var mprobs Problems
		r.Imports, mprobs = r.Imports.mapTreeURLs(fsys, file, mappings)
		r.Problems = append(r.Problems, mprobs...)
		if _, err := fs.Stat(fsys, file); err == nil && file == LocalConfigFile {
			break // as the tool chain, bblocks-config-local.yaml only without .yml
		}
	}
	if _, ok := raw["imports"]; !ok {
		// The tool chain imports the main OGC register when the key is absent.
		r.Config.Imports = []string{"default"}
	}
	if opts != nil && opts.FindImport != nil {
		for i, imp := range r.Config.Imports {
			if slices.Contains(r.Imports.Names(), imp) {
				continue
			}
			m, ok := opts.FindImport(imp)
			if !ok {
				continue
			}
			im, err := r.Imports.withImport(m)
			if err != nil {
				r.Problems = append(r.Problems, Problem{File: ConfigFile, Pointer: fmt.Sprintf("/imports/%d", i),
					Message: fmt.Sprintf("import %q: the copy in %s cannot be read: %v", imp, m.Dir, err)})
				continue
			}
			r.Imports = im
		}
	}
	mapped := r.Imports.Names()
	for i, imp := range r.Config.Imports {
		if !slices.Contains(mapped, imp) {
			r.Problems = append(r.Problems, Problem{File: ConfigFile, Pointer: fmt.Sprintf("/imports/%d", i), Severity: diag.Warning,
				Message: fmt.Sprintf("import %q is not resolved: jrpcld works offline; a block that needs it fails unless %s", imp, ImportHint(imp))})
		}
	}
	// Members of the configuration whose work jrpcld does not do are said.
	if v, ok := raw["plugins"]; ok && v != nil {
		r.Problems = append(r.Problems, Problem{File: ConfigFile, Severity: diag.Warning,
			Message: "plugins are not installed: jrpcld runs no validator or transform plugin (the OGC tool chain installs them with pip); a snippet only a plugin checks gets no verdict, and a transform of a plugin's type fails"})
	}
	if v, _ := raw["schema-oas30-downcompile"].(bool); v {
		r.Problems = append(r.Problems, Problem{File: ConfigFile, Severity: diag.Warning,
			Message: "schema-oas30-downcompile is not applied: jrpcld writes no OpenAPI 3.0 version of the annotated schemas (the OGC tool chain's schema-oas3.0.yaml and schema-oas3.0.json)"})
	}
	prefix := r.Config.IdentifierPrefix
	if err := checkPrefix(prefix); err != nil {
		return nil, fmt.Errorf("%s: %w", ConfigFile, err)
	}
	if prefix != "" && !strings.HasSuffix(prefix, ".") {
		prefix += "."
	}

	var dirs []string
	err = fs.WalkDir(fsys, SourcesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "bblock.json" {
			dirs = append(dirs, path.Dir(p))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", SourcesDir, err)
	}
	sort.Strings(dirs)
	var blocks []*Block
	for _, dir := range dirs {
		rel := strings.TrimPrefix(strings.TrimPrefix(dir, SourcesDir), "/")
		var parts []string
		for _, p := range strings.Split(rel, "/") {
			if p != "" && !strings.HasPrefix(p, "_") {
				parts = append(parts, p)
			}
		}
		// A block at the root of _sources is the prefix itself, as the
		// tool chain names it ("mlc.croissant." -> mlc.croissant).
		id := strings.TrimSuffix(prefix, ".")
		if len(parts) > 0 {
			id = prefix + strings.Join(parts, ".")
		}
		if id == "" {
			r.Problems = append(r.Problems, Problem{File: path.Join(dir, "bblock.json"),
				Message: fmt.Sprintf("a block at the root of %s takes its id from identifier-prefix, and %s has none: set one", SourcesDir, ConfigFile)})
			continue
		}
		sub, err := fs.Sub(fsys, dir)
		if err != nil {
			return nil, err
		}
		b, err := load(sub, id, fsys, dir, r.Imports)
		if err != nil {
			r.Problems = append(r.Problems, Problem{File: dir, Message: err.Error()})
			continue
		}
		b.Path = rel
		blocks = append(blocks, b)
	}
	seen := map[string]string{}
	for _, b := range blocks {
		if other, dup := seen[b.ID]; dup {
			r.Problems = append(r.Problems, Problem{File: path.Join(SourcesDir, b.Path),
				Message: fmt.Sprintf("block id %q is also the id of %s", b.ID, other)})
		}
		seen[b.ID] = path.Join(SourcesDir, b.Path)
	}
	docs := map[string]string{}
	for _, b := range blocks {
		for _, f := range []string{b.Files.Schema, b.Files.OpenAPI} {
			if f == "" {
				continue
			}
			if IsURL(f) {
				// A schema named by URL (a mapped one): a reference to that
				// URL leads to the block, as in the tool chain.
				if _, taken := docs[f]; !taken {
					docs[f] = b.ID
				}
				continue
			}
			if tp, err := b.TreePath(f); err == nil {
				stem := strings.TrimSuffix(tp, path.Ext(tp))
				if _, taken := docs[stem]; !taken {
					docs[stem] = b.ID
				}
			}
		}
	}
	for _, b := range blocks {
		b.addRefDeps(docs, r.Imports)
	}
	byID := map[string]*Block{}
	for _, b := range blocks {
		byID[b.ID] = b
	}
	ends, free := map[string]bool{}, map[string]bool{}
	for _, b := range blocks {
		if b.Meta.ExtensionPoints != nil {
			b.extend(byID, r.Imports, ends)
		}
		if b.Meta.Extends != nil {
			b.checkExtends(byID, free)
		}
	}
	if tree, ok := buildExtensionSchemas(fsys, blocks, byID, r.Imports); ok {
		r.FS = tree
		for _, b := range blocks {
			b.tree = tree
		}
	}
	r.Blocks, r.Problems = orderBlocks(blocks, r.Config.Imports, r.Imports, r.Problems)
	r.byID, r.indexed = make(map[string]*Block, len(r.Blocks)), len(r.Blocks)
	for _, b := range r.Blocks {
		if _, ok := r.byID[b.ID]; !ok {
			r.byID[b.ID] = b
		}
	}
	return r, nil
}

// IsURL reports whether name, a file name of a block or a reference, is a
// URL (it holds "://") rather than a path.
func IsURL(name string) bool { return strings.Contains(name, "://") }

// checkPrefix refuses an identifier-prefix that cannot be part of a path:
// a block's identifier names its files in a build (annotated/A/B/,
// bblock/ID.html), so a slash or a backslash would lead elsewhere, and a
// control character would make names no one can type.
func checkPrefix(prefix string) error {
	for _, r := range prefix {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return fmt.Errorf("identifier-prefix %q holds %q: block identifiers become paths of the build, so the prefix may not hold a slash, a backslash or a control character (write it as dot-separated names, such as \"ogc.geo.\")", prefix, r)
		}
	}
	return nil
}

// orderBlocks sorts blocks so that each comes after its dependencies, keeping
// the given order where there is a choice. A dependency on an id the
// register does not have is an error of the depending block; a cycle is a
// warning.
func orderBlocks(blocks []*Block, imports []string, im *Imports, probs Problems) ([]*Block, Problems) {
	byID := map[string]*Block{}
	for _, b := range blocks {
		byID[b.ID] = b
	}
	for _, b := range blocks {
		for _, d := range b.Deps {
			if _, imported := im.Block(d); byID[d] == nil && !imported {
				msg, ptr := fmt.Sprintf("depends on %v %q", ErrUnknownBlock, d), ""
				if e := b.Meta.Extends; e != nil && e.ID == d {
					msg, ptr = fmt.Sprintf("extends %v %q", ErrUnknownBlock, d), "/extends"
				}
				if len(imports) > 0 {
					msg += fmt.Sprintf(" (it may be in the import %s: map it to a local copy of that register with --import URL=DIR)", strings.Join(quoteAll(imports), ", "))
				}
				b.Problems = append(b.Problems, Problem{File: "bblock.json", Pointer: ptr, Message: msg})
			}
		}
	}
	// Depth-first: each block is placed right after its dependencies, which
	// are placed first in folder order.
	const (
		unseen = iota
		visiting
		placed
	)
	state := map[string]int{}
	var out []*Block
	var cycles [][]string
	var visit func(b *Block, stack []string)
	visit = func(b *Block, stack []string) {
		switch state[b.ID] {
		case placed:
			return
		case visiting:
			for i, id := range stack {
				if id == b.ID {
					cycles = append(cycles, append([]string(nil), stack[i:]...))
				}
			}
			return
		}
		state[b.ID] = visiting
		stack = append(stack, b.ID)
		for _, d := range b.Deps {
			if dep := byID[d]; dep != nil {
				visit(dep, stack)
			}
		}
		state[b.ID] = placed
		out = append(out, b)
	}
	for _, b := range blocks {
		visit(b, nil)
	}
	for _, c := range cycles {
		probs = append(probs, Problem{File: ConfigFile, Severity: diag.Warning,
			Message: fmt.Sprintf("dependency cycle %s -> %s: the order among them is arbitrary", strings.Join(c, " -> "), c[0])})
	}
	return out, probs
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
