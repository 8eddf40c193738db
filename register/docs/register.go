package docs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Register is what a build made of a register, as its documentation
// describes it.
type Register struct {
	// Sources is the register as read: its configuration, its imports and
	// all its blocks (the shapes of a block's dependencies are listed
	// with it, built or not).
	Sources *bblock.Register
	Layout  Layout
	// Date (YYYY-MM-DD) is register.json's modified; "" for none.
	Date string
	// GitRepository is the URL of the register's git repository and
	// GitHubBaseURL the URL its files are browsed at on GitHub, ending in
	// "/" ("" for none); ViewerURL, ending in "/", is the URL of its viewer,
	// "" for the base URL.
	GitRepository, GitHubBaseURL, ViewerURL string
	// CommitDate (YYYY-MM-DD) is the date of the last commit of the
	// sources: a block's dateOfLastChange when that is later.
	CommitDate string
	// Blocks are the blocks built, in the order register.json lists them.
	Blocks []*Block
	// Shapes finds the blocks whose shapes a block inherits; nil for one
	// of Sources made when needed.
	Shapes *ShapesChains
}

// Block is what the build made of one block.
type Block struct {
	Source *bblock.Block
	// Annotated and Tests are the block's output folders
	// ("annotated/PATH", "tests/PATH").
	Annotated, Tests string
	// Schema is the annotated schema as YAML, Context the built context,
	// each nil when none was written; Ontology reports that ontology.ttl
	// was.
	Schema, Context []byte
	Ontology        bool
	OpenAPI         bool // annotated/PATH/openapi.yaml was written
	// Properties reports that resolvedProperties.json was written.
	Properties bool
	// RemoteCache reports that annotated/PATH/remote_cache/ holds the
	// documents the block names by URL (its schema).
	RemoteCache bool
	Description string // description.md
	Passed      bool   // the block's validationPassed
	// Tested reports that the block's report has items: it then has test
	// outputs.
	Tested bool
	// Transforms are the block's transforms as register.json lists them
	// (values of package ojson, whose objects keep their members in
	// order), nil when it declares none.
	Transforms []any
	// SemanticUplift is the block's semantic-uplift.yaml as the tool chain
	// publishes it (an *ojson.Object), nil when it declares no step.
	SemanticUplift any
	// Snippets holds, by example of the block's examples.yaml (those
	// checked), the example's snippets as the tool chain lists them: those
	// declared, then the uplifted ones it adds.
	Snippets [][]Snippet
}

// Snippet is one snippet of an example, as the documentation lists it.
type Snippet struct {
	Language string
	// Declared is the snippet of examples.yaml, nil for one the tool chain
	// adds (the uplifted JSON-LD or Turtle).
	Declared *bblock.Snippet
	// File is the file below the block's tests folder, Code its content;
	// Code is nil for a snippet that could not be read.
	File string
	Code []byte
	// Transforms are the results of the transforms that ran on it.
	Transforms []TransformResult
}

// TransformResult is the outcome of one transform on one snippet.
type TransformResult struct {
	ID      string
	Success bool
	Stderr  string
	File    string // the output, below the output folder; "" when none was written
	Size    int
	// Profiles are the verdicts on the output against the profiles the
	// transform declares (outputs.profiles).
	Profiles []ProfileResult
}

// ProfileResult is the verdict on a transform output against one profile.
type ProfileResult struct {
	ID       string
	Passed   bool
	Report   string   // the profile's _report.json, below the output folder
	Uplifted []string // the uplifted .jsonld and .ttl, below the output folder
}

// Write writes register.json, the copies of the imported registers the
// viewer reads (annotated/_cache), register-summary.md, and each block's
// full JSON and Markdown documentation: it calls put with each file's path
// below the output folder and its content.
func (r *Register) Write(put func(name string, data []byte)) error {
	if err := r.writeRegister(put); err != nil {
		return err
	}
	put("register-summary.md", r.summary())
	for _, b := range r.Blocks {
		from := JSONFullPath(b.Source)
		data, err := ojson.MarshalIndent(r.fullJSON(b, from))
		if err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
		put(from, data)
		put(MarkdownPath(b.Source), r.markdown(b))
	}
	return nil
}

// RemoteCacheDir is the folder, below a block's annotated/PATH, of the
// documents it names by URL, each named by the SHA-256 of its URL
// (the block's remoteCacheDir).
const RemoteCacheDir = "remote_cache"

// CacheDir is the folder of the copies of imported registers, each named
// by the SHA-256 of its URL, as the tool chain caches what it fetches; the
// viewer reads imports from it (register.json's remoteCacheDir).
const CacheDir = "annotated/_cache"

// writeRegister writes register.json and the copies of the imported
// registers.
func (r *Register) writeRegister(put func(string, []byte)) error {
	cfg := r.Sources.Config
	reg := ojson.Members{ojson.M("name", cfg.Name)}
	if cfg.Abstract != "" {
		reg = append(reg, ojson.M("abstract", cfg.Abstract))
	}
	if cfg.Description != "" {
		reg = append(reg, ojson.M("description", cfg.Description))
	}
	if cfg.Sparql.Query != "" {
		reg = append(reg, ojson.M("sparqlEndpoint", cfg.Sparql.Query))
	}
	if r.Date != "" {
		reg = append(reg, ojson.M("modified", r.Date+"T00:00:00"))
	}
	reg = append(reg, ojson.M("tooling", tooling()))
	if r.GitRepository != "" {
		reg = append(reg, ojson.M("gitRepository", r.GitRepository))
	}
	if r.GitHubBaseURL != "" {
		reg = append(reg, ojson.M("gitHubRepository", r.GitHubBaseURL))
	}
	base := r.Layout.BaseURL
	if base == "" {
		base = "./"
	}
	reg = append(reg, ojson.M("baseURL", base))
	if v := r.viewerURL(); v != "" {
		reg = append(reg, ojson.M("viewerURL", v))
	}
	link := func(to string) string { return r.Layout.Link("register.json", to) }
	reg = append(reg,
		ojson.M("validationReport", link("tests/report.html")),
		ojson.M("validationReportJson", link("tests/report.json")))
	var imports []string
	for _, i := range cfg.Imports {
		u := r.Sources.Imports.RegisterURL(i)
		imports = append(imports, u)
		if data, ok := r.Sources.Imports.RegisterFile(i); ok {
			sum := sha256.Sum256([]byte(u))
			put(path.Join(CacheDir, hex.EncodeToString(sum[:])), data)
		}
	}
	if len(imports) > 0 {
		reg = append(reg, ojson.M("imports", imports))
	}
	blocks := []ojson.Members{}
	for _, b := range r.Blocks {
		blocks = append(blocks, r.entry(b, "register.json", false))
	}
	reg = append(reg, ojson.M("bblocks", blocks),
		ojson.M("remoteCacheDir", strings.TrimSuffix(link(CacheDir+"/"), "/")),
		ojson.M("links", []ojson.Members{
			{ojson.M("rel", "self"), ojson.M("href", link("register.json")), ojson.M("type", "application/json"), ojson.M("title", "This Building Blocks Register in JSON format")},
			{ojson.M("rel", "self"), ojson.M("href", link("bblocks.ttl")), ojson.M("type", "text/turtle"), ojson.M("title", "This Building Blocks Register in RDF Turtle format")},
			{ojson.M("rel", "self"), ojson.M("href", link("bblocks.jsonld")), ojson.M("type", "application/ld+json"), ojson.M("title", "This Building Blocks Register in JSON-LD format")},
		}))
	data, err := ojson.MarshalIndent(reg)
	if err != nil {
		return fmt.Errorf("register.json: %w", err)
	}
	put("register.json", data)
	return nil
}

// viewerURL returns the URL of the register's viewer, ending in "/".
func (r *Register) viewerURL() string {
	u := r.ViewerURL
	if u == "" {
		u = r.Layout.BaseURL
	}
	if u != "" && !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// entry returns the block's member of register.json, or the start of its
// full JSON documentation (doc), with links as seen from the output file
// from, as the tool chain writes them: itemIdentifier, the members of
// bblock.json in their order, shaclShapes, dependsOn (the ids of every block
// it depends on, as bblocks:// URIs in register.json), then the links to
// the built and source files, the validation result and, in register.json,
// the documentation.
func (r *Register) entry(bo *Block, from string, doc bool) ojson.Members {
	b := bo.Source
	e := ojson.Members{ojson.M("itemIdentifier", b.ID)}
	built := map[string]bool{"itemIdentifier": true, "schema": true, "sourceSchema": true, "ldContext": true,
		"sourceLdContext": true, "sourceFiles": true, "testOutputs": true,
		"validationPassed": true, "documentation": true, "shaclShapes": true, "dependsOn": true,
		"resolvedSchemaProperties": true, "openAPIDocument": true, "sourceOpenAPIDocument": true}
	src := func(file string) string {
		if bblock.IsURL(file) {
			return file // named by a mapped URL: the tool chain lists the URL
		}
		return r.Layout.SourceLink(from, path.Join(bblock.SourcesDir, b.Path, file))
	}
	hasDeps := false
	changed := false
	for _, f := range b.Meta.Fields {
		switch f.Key {
		case "dependsOn":
			hasDeps = true
		case "dateOfLastChange":
			changed = true
			if d := r.lastChange(b); d != "" {
				e = append(e, ojson.M(f.Key, d))
			}
			continue
		case "ontology":
			// The tool chain keeps bblock.json's ontology when it builds
			// none; it writes the built one's link otherwise.
			if bo.Ontology {
				continue
			}
		case "extensionPoints":
			// register.json names the blocks by bblocks:// URIs, as the
			// tool chain's published builds show.
			if ep := b.Meta.ExtensionPoints; ep != nil && !doc {
				ext := ojson.Members{}
				for i := 0; i+1 < len(ep.Extensions); i += 2 {
					ext = append(ext, ojson.M(bblock.BlockRefPrefix+ep.Extensions[i], bblock.BlockRefPrefix+ep.Extensions[i+1]))
				}
				e = append(e, ojson.M(f.Key, ojson.Members{ojson.M("baseBuildingBlock", bblock.BlockRefPrefix+ep.Base), ojson.M("extensions", ext)}))
				continue
			}
		case "resources":
			// The tool chain links each resource whose ref is a relative
			// path from the block's sources, as it links sourceSchema.
			if v, err := ojson.DecodeJSON(f.Value); err == nil {
				if list, ok := v.([]any); ok {
					for _, res := range list {
						if o, ok := res.(*ojson.Object); ok {
							if ref, ok := o.Value("ref").(string); ok && ref != "" && !bblock.IsURL(ref) && !path.IsAbs(ref) {
								o.Set("ref", src(ref))
							}
						}
					}
					e = append(e, ojson.M(f.Key, fromOJSON(list)))
					continue
				}
			}
		case "sourceLdContext":
			// A block with no context file of its own may name its context
			// in bblock.json (croissant names a URL): the tool chain keeps
			// that member as written.
			if b.Files.Context == "" {
				e = append(e, ojson.M(f.Key, f.Value))
				continue
			}
		case "profileOf", "isProfileOf":
			// The tool chain writes isProfileOf, with bblocks:// URIs in
			// register.json and ids in the documentation, a list or one.
			var ids []string
			if json.Unmarshal(f.Value, &ids) == nil {
				for i, id := range ids {
					id = strings.TrimPrefix(id, bblock.BlockRefPrefix)
					if !doc {
						id = bblock.BlockRefPrefix + id
					}
					ids[i] = id
				}
				e = append(e, ojson.M("isProfileOf", ids))
				continue
			}
			var one string
			if json.Unmarshal(f.Value, &one) == nil {
				one = strings.TrimPrefix(one, bblock.BlockRefPrefix)
				if !doc {
					one = bblock.BlockRefPrefix + one
				}
				e = append(e, ojson.M("isProfileOf", one))
				continue
			}
		}
		if !built[f.Key] {
			e = append(e, ojson.M(f.Key, f.Value))
		}
	}
	if d := r.lastChange(b); !changed && d != "" {
		e = append(e, ojson.M("dateOfLastChange", d))
	}
	e = append(e, ojson.M("shaclShapes", r.shaclShapes(b, from)))
	if len(b.Deps) > 0 || hasDeps {
		deps := make([]string, 0, len(b.Deps))
		for _, d := range b.Deps {
			if !doc {
				d = bblock.BlockRefPrefix + d
			}
			deps = append(deps, d)
		}
		e = append(e, ojson.M("dependsOn", deps))
	}
	link := func(file string) string { return r.Layout.Link(from, path.Join(bo.Annotated, file)) }
	if bo.Schema != nil {
		e = append(e, ojson.M("schema", ojson.Members{
			ojson.M("application/yaml", link("schema.yaml")),
			ojson.M("application/json", link("schema.json")),
		}))
	}
	if b.Files.Schema != "" && !b.Files.SchemaBuilt {
		// A schema jrpcld built (extension points) has no source file.
		e = append(e, ojson.M("sourceSchema", src(b.Files.Schema)))
	}
	if bo.Context != nil {
		e = append(e, ojson.M("ldContext", link("context.jsonld")))
	}
	if bo.RemoteCache {
		e = append(e, ojson.M("remoteCacheDir", link(RemoteCacheDir)+"/"))
	}
	if b.Files.Context != "" {
		e = append(e, ojson.M("sourceLdContext", src(b.Files.Context)))
	}
	if bo.OpenAPI {
		e = append(e, ojson.M("sourceOpenAPIDocument", src(b.Files.OpenAPI)),
			ojson.M("openAPIDocument", link("openapi.yaml")))
	}
	if bo.Properties {
		e = append(e, ojson.M("resolvedSchemaProperties", link("resolvedProperties.json")))
	}
	if bo.Ontology {
		e = append(e, ojson.M("ontology", link("ontology.ttl")))
	}
	if bo.Transforms != nil {
		e = e.Set("transforms", fromOJSON(bo.Transforms)) // in place of a "transforms" of bblock.json
	}
	if bo.SemanticUplift != nil {
		e = e.Set("semanticUplift", fromOJSON(bo.SemanticUplift))
	}
	e = append(e, ojson.M("sourceFiles", src("")+"/"), ojson.M("validationPassed", bo.Passed))
	if r.GitHubBaseURL != "" && bo.Tested {
		e = append(e, ojson.M("testOutputs", r.GitHubBaseURL+EscapePath(r.Layout.RepoPath(bo.Tests))+"/"))
	}
	if doc {
		return e
	}
	e = append(e, ojson.M("documentation", ojson.Members{
		ojson.M("markdown", ojson.Members{ojson.M("mediatype", "text/markdown"), ojson.M("url", r.Layout.Link(from, MarkdownPath(b)))}),
		ojson.M("json-full", ojson.Members{ojson.M("mediatype", "application/json"), ojson.M("url", r.Layout.Link(from, JSONFullPath(b)))}),
		ojson.M("bblocks-viewer", ojson.Members{ojson.M("mediatype", "text/html"), ojson.M("url", r.viewerURL()+"bblock/"+b.ID)}),
	}))
	return e
}

// lastChange returns block b's dateOfLastChange as the tool chain writes
// it: the metadata's (dateOfLastChange, else the date of dateTimeAddition),
// or the date of the last commit when that is later; "" when there is none.
func (r *Register) lastChange(b *bblock.Block) string {
	d := b.Meta.DateOfLastChange
	if !isDate(d) {
		d = ""
		if len(b.Meta.DateTimeAddition) >= 10 && isDate(b.Meta.DateTimeAddition[:10]) {
			d = b.Meta.DateTimeAddition[:10]
		}
	}
	if r.CommitDate > d {
		d = r.CommitDate
	}
	return d
}

// isDate reports whether s is a date written YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range s {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// shaclShapes returns the SHACL shapes files that apply to block b's
// resources, by the block that declares them (ShapesChain), as links from
// the output file from.
func (r *Register) shaclShapes(b *bblock.Block, from string) ojson.Members {
	out := ojson.Members{}
	if r.Shapes == nil {
		r.Shapes = NewShapesChains(r.Sources)
	}
	r.Shapes.Visit(b.ID, func(id string, b *bblock.Block, ib *bblock.ImportedBlock) {
		if ib != nil {
			// A block of an imported register: the shapes its register
			// lists for it, its own and those it inherits.
			for _, k := range slices.Sorted(maps.Keys(ib.ShaclShapes)) {
				if !out.Has(k) {
					out = append(out, ojson.M(k, ib.ShaclShapes[k]))
				}
			}
			return
		}
		files := ShapesFiles(b)
		if len(files) == 0 || out.Has(id) {
			return
		}
		links := make([]string, len(files))
		for i, f := range files {
			if strings.Contains(f, "://") {
				links[i] = f
			} else {
				links[i] = r.Layout.SourceLink(from, path.Join(bblock.SourcesDir, b.Path, f))
			}
		}
		out = append(out, ojson.M(id, links))
	})
	return out
}

// ShapesChain calls visit for the block id and for each block whose SHACL
// shapes it inherits: the blocks it depends on and those it is a profile
// of (isProfileOf), transitively, each once, depth first, the block before
// those it inherits from and its dependsOn before its isProfileOf. This is
// the order register.json lists shaclShapes in. A block of the register
// comes with b set; a block of a mapped import with ib set and is not
// followed further, its register.json listing the shapes it inherits. Ids
// that neither the register nor an import has are passed over.
func ShapesChain(src *bblock.Register, id string, visit func(id string, b *bblock.Block, ib *bblock.ImportedBlock)) {
	seen := map[string]bool{}
	var walk func(id string)
	walk = func(id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		b := src.Block(id)
		if b == nil {
			if ib, ok := src.Imports.Block(id); ok {
				visit(id, nil, ib)
			}
			return
		}
		visit(id, b, nil)
		for _, d := range b.Inherits() {
			walk(d)
		}
	}
	walk(id)
}

// ShapesChains calls, for a block of a register, what ShapesChain calls
// for the blocks it reaches that declare SHACL shapes and for the imported
// blocks it reaches, in the same order, each block's list made once from
// those of the blocks it inherits from: a register whose blocks inherit
// from one another in a long chain is not walked again for each. (In a
// register whose blocks inherit from one another in a cycle, the order
// depends on where the walk began: the walk is made each time.)
type ShapesChains struct {
	src    *bblock.Register
	lists  map[string][]string
	cyclic bool
}

// NewShapesChains returns the ShapesChains of register src.
func NewShapesChains(src *bblock.Register) *ShapesChains {
	s := &ShapesChains{src: src, lists: map[string][]string{}}
	// Colour the blocks, depth first without recursion: 1 on the way,
	// 2 done; a block met again on the way closes a cycle.
	colour := map[string]int{}
	type frame struct {
		id   string
		next []string
	}
	for _, b := range src.Blocks {
		if colour[b.ID] != 0 {
			continue
		}
		colour[b.ID] = 1
		stack := []frame{{b.ID, b.Inherits()}}
		for len(stack) > 0 && !s.cyclic {
			top := &stack[len(stack)-1]
			if len(top.next) == 0 {
				colour[top.id] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			d := top.next[0]
			top.next = top.next[1:]
			db := src.Block(d)
			switch {
			case db == nil || colour[d] == 2:
			case colour[d] == 1:
				s.cyclic = true
			default:
				colour[d] = 1
				stack = append(stack, frame{d, db.Inherits()})
			}
		}
	}
	return s
}

// Visit calls visit as ShapesChain(src, id, visit) does, for the blocks
// that declare shapes and the imported blocks only.
func (s *ShapesChains) Visit(id string, visit func(id string, b *bblock.Block, ib *bblock.ImportedBlock)) {
	if s.cyclic {
		ShapesChain(s.src, id, func(id string, b *bblock.Block, ib *bblock.ImportedBlock) {
			if ib != nil || len(ShapesFiles(b)) > 0 {
				visit(id, b, ib)
			}
		})
		return
	}
	for _, x := range s.list(id) {
		if b := s.src.Block(x); b != nil {
			visit(x, b, nil)
		} else if ib, ok := s.src.Imports.Block(x); ok {
			visit(x, nil, ib)
		}
	}
}

// list returns the ids Visit visits for block id: itself when it declares
// shapes or is an imported block, then, each once, those of the blocks it
// inherits from, in order. (Depth first, a block reached again is
// passed over with all it reaches, which the walk met already: so is what
// each block's own list holds.)
func (s *ShapesChains) list(id string) []string {
	if l, ok := s.lists[id]; ok {
		return l
	}
	var l []string
	b := s.src.Block(id)
	if b == nil {
		if _, ok := s.src.Imports.Block(id); ok {
			l = []string{id}
		}
		s.lists[id] = l
		return l
	}
	if len(ShapesFiles(b)) > 0 {
		l = append(l, id)
	}
	seen := map[string]bool{id: true}
	for _, d := range b.Inherits() {
		for _, x := range s.list(d) {
			if !seen[x] {
				seen[x] = true
				l = append(l, x)
			}
		}
	}
	s.lists[id] = l
	return l
}

// ShapesFiles returns the SHACL files a block declares: the shaclShapes
// (or the older shaclRules) of bblock.json, else its shapes.shacl or
// rules.shacl.
func ShapesFiles(b *bblock.Block) []string {
	for _, key := range []string{"shaclShapes", "shaclRules"} {
		for _, f := range b.Meta.Fields {
			var list []string
			if f.Key == key && json.Unmarshal(f.Value, &list) == nil && len(list) > 0 {
				return list
			}
		}
	}
	if b.Files.Shapes != "" {
		return []string{b.Files.Shapes}
	}
	return nil
}

// summary returns register-summary.md: the register's name, abstract and
// description, then each block's id, name, item class and abstract.
func (r *Register) summary() []byte {
	cfg := r.Sources.Config
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n", cfg.Name)
	for _, s := range []string{cfg.Abstract, cfg.Description} {
		if s != "" {
			fmt.Fprintf(&w, "%s\n\n", s)
		}
	}
	w.WriteString("## Building Blocks\n\n")
	for _, b := range r.Blocks {
		m := b.Source.Meta
		fmt.Fprintf(&w, "### `%s` \u2014 %s\n\n**Type:** %s\n\n", b.Source.ID, m.Name, m.ItemClass)
		if m.Abstract != "" {
			fmt.Fprintf(&w, "%s\n\n", m.Abstract)
		}
	}
	return []byte(w.String())
}

// tooling is register.json's tooling member: jrpcld's own version, where
// the tool chain names its own.
func tooling() ojson.Members {
	version := "(devel)"
	j := ojson.Members{}
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				j = append(j, ojson.M("commitId", s.Value))
			}
		}
	}
	return ojson.Members{ojson.M("jrpcld", append(ojson.Members{ojson.M("version", version)}, j...))}
}
