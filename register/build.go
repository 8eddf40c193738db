package register

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/atomicfile"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/report"
	"github.com/jrpcld/jrpcld/register/toolchain"
	"github.com/jrpcld/jrpcld/register/transform"
	"github.com/jrpcld/jrpcld/schema"
)

// Options control a build.
type Options struct {
	// BaseURL is the URL the output folder will be published at. The links
	// of register.json, of the built schemas and of the uplifted examples
	// are absolute URLs below it; when it is empty they are relative, so the
	// folder works wherever it is served from. The HTML pages always link
	// relatively.
	BaseURL string
	// Filter, when not empty, is the id of the only block to build; the
	// blocks it depends on are read but not built.
	Filter string
	// Date (YYYY-MM-DD) stamps register.json ("modified") and the validation
	// reports ("generated"). When empty, the latest date found in the built
	// blocks' metadata (dateOfLastChange, else dateTimeAddition) is used, so
	// that the same sources always give the same output.
	Date string
	// Contexts maps the context references a block's context makes (by URL
	// or path) to local files; nothing else resolves them. May be nil.
	Contexts *ldctx.Options
	// BuildPath, when not empty, lays the output out as the OGC GitHub
	// Action publishes a repository: the output folder is the root of the
	// repository, published at BaseURL, with the build at BuildPath
	// (slash-separated, "build" in the Action) below it, the sources in
	// _sources/ and the HTML pages (index.html, bblock/ID.html) at the
	// root, where the Action deploys its viewer. The reports name files
	// from the root ("build/tests/..."), as the tool chain's do. When
	// empty, the output folder holds the build itself, with the sources in
	// its _sources/ and the pages beside register.json. Either way every
	// file register.json, the documentation and the pages link to below
	// BaseURL is in the output folder.
	BuildPath string
	// RelativeBase, when not empty, is the folder URL that relative IRIs
	// of example snippets without a base-uri resolve against, as the tool
	// chain resolves them against its working folder
	// ("file:///github/workspace/" in the OGC GitHub Action): a build made
	// with it compares file for file with a published one. When empty,
	// they resolve against the URL the snippet is published at (with
	// BaseURL), or stay relative.
	RelativeBase string
	// GitRepository is the URL of the register's git repository and
	// GitHubBaseURL the URL its files are browsed at on GitHub
	// (".../blob/BRANCH/"): register.json names them, and each block's
	// testOutputs is below the latter, as in the tool chain. Either may be
	// empty.
	GitRepository, GitHubBaseURL string
	// CommitDate (YYYY-MM-DD) is the date of the last commit of the
	// sources: a block's dateOfLastChange is that date when it is later
	// than its metadata's, as the tool chain takes it from git.
	CommitDate string
	// ViewerURL is the URL of the register's viewer (the OGC
	// bblocks-viewer): each block's documentation links to its page there.
	// When empty, BaseURL.
	ViewerURL string
	// Sandbox runs the transforms and semantic-uplift steps, bounded in
	// memory and time, each stopped past a limit failing as a transform or
	// step that fails. When nil they run in this process, a jq program
	// stopped after ten seconds and nothing else bounded. The caller closes
	// it.
	Sandbox *transform.Sandbox
}

// Result is the outcome of a build.
type Result struct {
	Name     string        // the register's name
	Blocks   []BlockResult // the blocks built, in dependency order
	Warnings []string      // about the register as a whole, each given once
	Errors   []string      // about the register as a whole
}

// Failed reports whether a block failed or the register has errors.
func (r *Result) Failed() bool {
	if len(r.Errors) > 0 {
		return true
	}
	for _, b := range r.Blocks {
		if !b.Passed {
			return true
		}
	}
	return false
}

// BlockResult is the outcome of building one block.
type BlockResult struct {
	ID, Name string
	// Passed reports that the block has no errors and that every example
	// and test resource gave the expected result.
	Passed   bool
	Examples Count // example snippets
	Tests    Count // files of tests/ and entries of tests.yaml
	Errors   []string
	Warnings []string
	// Ontology is the slash-separated path, below the output folder, of
	// the ontology.ttl written for the block; "" when none was.
	Ontology string
}

// Count counts the checked resources that gave the expected result and
// those that did not.
type Count struct{ Passed, Failed int }

var dateOptRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Build builds register reg into the folder out, which it creates when
// needed: the layout of the building-block tool chain (register.json,
// annotated/, tests/, generateddocs/, below Options.BuildPath when set), a
// copy of the register's _sources/ (which its links name), and an HTML
// site (index.html and bblock/ID.html). When out is the register's own
// folder (with a BuildPath: the build goes into the repository, as in the
// OGC GitHub Action) the sources are already there and are not copied;
// out inside the register's _sources/ is refused. Files are replaced
// atomically; files of earlier builds that this one does not write are
// left alone.
//
// A block's problems do not stop the others: they are in the result. The
// error is non-nil only for bad options (wrapping ErrUsage) and for files
// that cannot be written.
//
// Each file is written when it is made, so that a register's output need
// not fit in memory; a build that fails part way may have written some.
func Build(reg *bblock.Register, out string, opts Options) (*Result, error) {
	inPlace, err := sourcesAt(reg, out)
	if err != nil {
		return nil, err
	}
	if inPlace && opts.BuildPath == "" {
		return nil, fmt.Errorf("%w: %s is the register's own folder: without a build path the build would be written over it (write elsewhere, or give a build path)", ErrUsage, out)
	}
	tw := &treeWriter{out: out}
	defer tw.close()
	sources := sourcesCopied
	if inPlace {
		sources = sourcesInPlace
	}
	return buildTo(reg, opts, tw.write, sources)
}

// sourcesAt reports whether out is the folder of the register's source
// tree, and refuses a folder inside its _sources/, which the copy of the
// sources would write into as it reads it.
func sourcesAt(reg *bblock.Register, out string) (bool, error) {
	if reg.Dir == "" {
		return false, nil
	}
	real := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return filepath.Clean(p)
		}
		// The nearest folder that exists, its links resolved, and the rest.
		rest := ""
		for dir := abs; ; dir = filepath.Dir(dir) {
			if r, err := filepath.EvalSymlinks(dir); err == nil {
				return filepath.Join(r, rest)
			}
			if filepath.Dir(dir) == dir {
				return abs
			}
			rest = filepath.Join(filepath.Base(dir), rest)
		}
	}
	o, top := real(out), real(reg.Dir)
	if o == top {
		return true, nil
	}
	if rel, err := filepath.Rel(filepath.Join(top, bblock.SourcesDir), o); err == nil && filepath.IsLocal(rel) || rel == "." {
		return false, fmt.Errorf("%w: %s is inside the register's %s folder, which the build copies into its output: write elsewhere", ErrUsage, out, bblock.SourcesDir)
	}
	return false, nil
}

// build builds the register in memory, for the tests: the files of the
// build folder by slash-separated path below it, without the copy of the
// sources and, with a BuildPath, without the pages the repository root
// holds.
func build(reg *bblock.Register, opts Options) (map[string][]byte, *Result, error) {
	files := map[string][]byte{}
	prefix := ""
	if bp := path.Clean(strings.Trim(opts.BuildPath, "/")); opts.BuildPath != "" {
		prefix = bp + "/"
	}
	res, err := buildTo(reg, opts, func(name string, data []byte) error {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			files[rest] = data
		}
		return nil
	}, sourcesAbsent)
	if err != nil {
		return nil, nil, err
	}
	return files, res, nil
}

// buildTo builds the register, handing each output file to write (by
// slash-separated path below the output folder) as it is made; a file may
// be handed again, the later content replacing the earlier. The first
// error of write stops the build. sources says where the register's
// _sources/ is published.
func buildTo(reg *bblock.Register, opts Options, write func(name string, data []byte) error, sources sourcesMode) (*Result, error) {
	if opts.Date != "" && !dateOptRE.MatchString(opts.Date) {
		return nil, fmt.Errorf("%w: date %q is not YYYY-MM-DD", ErrUsage, opts.Date)
	}
	if opts.CommitDate != "" && !dateOptRE.MatchString(opts.CommitDate) {
		return nil, fmt.Errorf("%w: commit date %q is not YYYY-MM-DD", ErrUsage, opts.CommitDate)
	}
	if opts.BaseURL != "" {
		u, err := url.Parse(opts.BaseURL)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return nil, fmt.Errorf("%w: base URL %q is not an absolute URL", ErrUsage, opts.BaseURL)
		}
		if !strings.HasSuffix(opts.BaseURL, "/") {
			opts.BaseURL += "/"
		}
	}
	if opts.RelativeBase != "" {
		u, err := url.Parse(opts.RelativeBase)
		if err != nil || !u.IsAbs() {
			return nil, fmt.Errorf("%w: relative base %q is not an absolute URL", ErrUsage, opts.RelativeBase)
		}
	}
	for _, u := range []*string{&opts.GitHubBaseURL, &opts.ViewerURL} {
		if *u != "" && !strings.HasSuffix(*u, "/") {
			*u += "/"
		}
	}
	if bp := opts.BuildPath; bp != "" {
		clean := path.Clean(strings.Trim(bp, "/"))
		if path.IsAbs(bp) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains(bp, "\\") {
			return nil, fmt.Errorf("%w: build path %q is not a folder below the repository root", ErrUsage, bp)
		}
		opts.BuildPath = clean
	}
	if opts.Filter != "" && reg.Block(opts.Filter) == nil {
		return nil, fmt.Errorf("%w: %w %q in the register%s", ErrUsage, bblock.ErrUnknownBlock, opts.Filter, suggest.Have(opts.Filter, reg.IDs(), 50))
	}
	bd := &builder{reg: reg, opts: opts, write: write, built: map[string]*blockOut{},
		tc: toolchain.New(reg, opts.Contexts), sourceDocs: map[string]*toolchain.Document{},
		schemas: (&schema.Compiler{}).NewSet(reg)}
	res := &Result{Name: reg.Config.Name}
	seen := map[string]bool{}
	for _, p := range importProblems(reg) {
		res.Errors = append(res.Errors, problemText(p))
	}
	for _, p := range reg.Problems {
		if p.File == bblock.ConfigFile && strings.HasPrefix(p.Pointer, "/imports/") && p.Severity == diag.Warning {
			continue // an import not resolved: an error, said above
		}
		msg := problemText(p)
		if seen[msg] {
			continue
		}
		seen[msg] = true
		if p.Severity == diag.Warning {
			res.Warnings = append(res.Warnings, msg)
		} else {
			res.Errors = append(res.Errors, msg)
		}
	}
	bd.sources = sources
	if sources == sourcesCopied {
		if err := bd.copySources(); err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, bd.copyWarnings...)
	}
	var chosen []*bblock.Block
	for _, b := range toolchainOrder(reg.Blocks) {
		if opts.Filter == "" || b.ID == opts.Filter {
			chosen = append(chosen, b)
		}
	}
	bd.date = opts.Date
	if bd.date == "" {
		bd.date = latestDate(chosen)
	}
	for _, b := range chosen {
		o := bd.buildBlock(b)
		bd.blocks = append(bd.blocks, o)
		bd.built[b.ID] = o
		res.Blocks = append(res.Blocks, o.res)
		if bd.err != nil {
			return nil, bd.err
		}
	}
	// Transform outputs are checked against their profiles once every
	// block (the profiles among them) is built.
	bd.checkProfiles()
	for i, o := range bd.blocks {
		res.Blocks[i] = o.res
	}
	if err := bd.writeReports(); err != nil {
		return nil, err
	}
	if err := bd.writeDocs(); err != nil {
		return nil, err
	}
	if err := bd.writePages(res); err != nil {
		return nil, err
	}
	if bd.err != nil {
		return nil, bd.err
	}
	return res, nil
}

// importProblems returns an error for each import of bblocks-config.yaml
// that has no local copy: register.json lists it, and the viewer reads it
// from the copy in annotated/_cache, which the build cannot write; blocks
// that need it fail too.
func importProblems(reg *bblock.Register) []bblock.Problem {
	var out []bblock.Problem
	mapped := reg.Imports.Names()
	for i, imp := range reg.Config.Imports {
		if slices.Contains(mapped, imp) {
			continue
		}
		out = append(out, bblock.Problem{File: bblock.ConfigFile, Pointer: fmt.Sprintf("/imports/%d", i), Severity: diag.Error,
			Message: fmt.Sprintf("import %q has no local copy: register.json lists it, and the viewer reads it from %s, which this build cannot write; %s, then build again", imp, docs.CacheDir, bblock.ImportHint(imp))})
	}
	return out
}

// toolchainOrder returns the blocks in the order the tool chain builds and
// lists them: a topological sort, generation by generation, of the graph
// whose nodes are the blocks in the order of the paths of their bblock.json
// files (each followed by the blocks it depends on not yet seen) and whose edges lead from a
// block to those that depend on it, in the same order; a generation lists
// the blocks whose dependencies all came before, in the order they are
// reached. Blocks of a dependency cycle, which the tool chain refuses, keep
// their place at the end.
func toolchainOrder(blocks []*bblock.Block) []*bblock.Block {
	byID := map[string]*bblock.Block{}
	sorted := slices.Clone(blocks)
	for _, b := range blocks {
		byID[b.ID] = b
	}
	// The tool chain reads the blocks in the order of the paths of their
	// bblock.json files, as strings: "ro/Resource/bblock.json" comes before
	// "ro/bblock.json".
	file := func(b *bblock.Block) string { return path.Join(b.Path, "bblock.json") }
	sort.SliceStable(sorted, func(i, j int) bool { return file(sorted[i]) < file(sorted[j]) })
	var nodes []string
	index := map[string]bool{}
	children := map[string][]string{}
	indegree := map[string]int{}
	add := func(id string) {
		if !index[id] {
			index[id] = true
			nodes = append(nodes, id)
		}
	}
	for _, b := range sorted {
		add(b.ID)
		for _, d := range b.Deps {
			if d == b.ID || slices.Contains(children[d], b.ID) {
				continue
			}
			add(d)
			children[d] = append(children[d], b.ID)
			indegree[b.ID]++
		}
	}
	var out []*bblock.Block
	done := map[string]bool{}
	var gen []string
	for _, n := range nodes {
		if indegree[n] == 0 {
			gen = append(gen, n)
		}
	}
	for len(gen) > 0 {
		var next []string
		for _, n := range gen {
			done[n] = true
			if b := byID[n]; b != nil {
				out = append(out, b)
			}
			for _, c := range children[n] {
				indegree[c]--
				if indegree[c] == 0 {
					next = append(next, c)
				}
			}
		}
		gen = next
	}
	for _, b := range blocks {
		if !done[b.ID] {
			out = append(out, b)
		}
	}
	return out
}

// builder holds the state of one build.
type builder struct {
	reg  *bblock.Register
	opts Options
	date string // YYYY-MM-DD, or "" when nothing gives one
	// write takes the output files, by path below the output folder; err
	// is the first error it gave, after which nothing more is written.
	write func(name string, data []byte) error
	err   error
	// registerJSON is register.json as written, which the register's
	// linked data is made from.
	registerJSON []byte
	blocks       []*blockOut          // built blocks in order
	built        map[string]*blockOut // built blocks by id
	tc           *toolchain.Toolchain // annotated schemas and contexts, as the tool chain makes them
	// schemas compiles the blocks' schemas, each document once for all.
	schemas *schema.Set
	// sourceDocs holds the copies of sources-tree files written so far,
	// by output path (nil for a file that is not JSON or YAML).
	sourceDocs map[string]*toolchain.Document
	shacl      shaclCache         // the SHACL files read so far (shacl.go)
	shapes     *docs.ShapesChains // the blocks whose shapes each block inherits
	// profileChecks are the transform outputs to check against the
	// profiles their transform declares (profiles.go).
	profileChecks []profileCheck
	// written holds the paths of the files written so far, below the
	// output folder (from the repository root with a BuildPath).
	written map[string]bool
	// copyWarnings name the files of _sources/ that could not be copied.
	copyWarnings []string
	// sources says where the register's sources are published.
	sources sourcesMode
}

// latestDate returns the latest date of the blocks' metadata, or "".
func latestDate(blocks []*bblock.Block) string {
	latest := ""
	for _, b := range blocks {
		for _, d := range []string{b.Meta.DateOfLastChange, b.Meta.DateTimeAddition} {
			if len(d) >= 10 && dateOptRE.MatchString(d[:10]) && d[:10] > latest {
				latest = d[:10]
			}
		}
	}
	return latest
}

// generated returns the timestamp of the reports, written as the tool
// chain writes it (with "+00:00").
func (bd *builder) generated() string {
	if bd.date == "" {
		return ""
	}
	return bd.date + "T00:00:00+00:00"
}

// sourcePath returns the path, from the root of the repository, of the
// file of block o's folder in the sources tree.
func (bd *builder) sourcePath(o *blockOut, file string) string {
	return path.Join(bblock.SourcesDir, o.b.Path, file)
}

// rootURL returns the URL of the root of the published repository, "" when
// there is no base URL: the URL of the output folder, or the one BuildPath
// is below.
func (bd *builder) rootURL() string {
	return bd.opts.BaseURL
}

// writeReports writes the register-wide validation report: tests/report.json
// and tests/report.html, every block's report in build order.
func (bd *builder) writeReports() error {
	reg := &report.Register{Generated: bd.generated(), Dir: bd.repoPath("tests")}
	for _, o := range bd.blocks {
		reg.Blocks = append(reg.Blocks, o.report)
	}
	data, err := reg.JSON()
	if err != nil {
		return fmt.Errorf("tests/report.json: %w", err)
	}
	bd.put("tests/report.json", data)
	var page bytes.Buffer
	if err := reg.WriteHTML(&page); err != nil {
		return fmt.Errorf("tests/report.html: %w", err)
	}
	bd.put("tests/report.html", page.Bytes())
	return nil
}

// put writes an output file of the build (name is a path below the build
// folder), unless an earlier one failed.
func (bd *builder) put(name string, data []byte) {
	if name == "register.json" {
		bd.registerJSON = data
	}
	bd.putRoot(bd.repoPath(name), data)
}

// putRoot writes an output file by its path below the output folder (the
// repository root with a BuildPath), unless an earlier one failed.
func (bd *builder) putRoot(name string, data []byte) {
	if bd.err != nil {
		return
	}
	if bd.written == nil {
		bd.written = map[string]bool{}
	}
	bd.written[name] = true
	bd.err = bd.write(name, data)
}

// sourcesMode says where a build publishes the register's sources.
type sourcesMode int

const (
	// sourcesAbsent: not published (the builds of the tests, in memory).
	sourcesAbsent sourcesMode = iota
	// sourcesCopied: copied into the output's _sources/.
	sourcesCopied
	// sourcesInPlace: the output is the register's own folder, which
	// holds them.
	sourcesInPlace
)

// copySources writes a copy of every file of the register's _sources/
// into the output, at the same path from the repository root: the links
// of register.json and the documentation name them there (sourceFiles,
// sourceSchema, the files examples are taken from), as the OGC GitHub
// Action publishes the whole repository. A file that cannot be read (a
// symbolic link that leads outside the tree) is left out with a warning.
func (bd *builder) copySources() error {
	if bd.reg.FS == nil {
		return nil
	}
	if _, err := fs.Stat(bd.reg.FS, bblock.SourcesDir); err != nil {
		return nil
	}
	err := fs.WalkDir(bd.reg.FS, bblock.SourcesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			bd.copyWarnings = append(bd.copyWarnings, fmt.Sprintf("%s not copied into the output: %v", p, err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		data, err := fs.ReadFile(bd.reg.FS, p)
		if err != nil {
			bd.copyWarnings = append(bd.copyWarnings, fmt.Sprintf("%s not copied into the output: %v", p, err))
			return nil
		}
		bd.putRoot(p, data)
		return bd.err
	})
	if err != nil {
		return fmt.Errorf("copying the sources: %w", err)
	}
	return nil
}

// treeWriter writes files below the folder out, which it creates when it
// writes the first. Every file is written through an os.Root of out: no
// name (such as one made of a block identifier) and no symbolic link
// already in out can lead outside it.
type treeWriter struct {
	out  string
	root *os.Root
}

func (w *treeWriter) write(name string, data []byte) error {
	if w.root == nil {
		if err := os.MkdirAll(w.out, 0o755); err != nil {
			return fmt.Errorf("writing the register: %w", err)
		}
		root, err := os.OpenRoot(w.out)
		if err != nil {
			return fmt.Errorf("writing the register: %w", err)
		}
		w.root = root
	}
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return fmt.Errorf("writing the register: %s would lie outside %s", name, w.out)
	}
	f, err := atomicfile.CreateIn(w.root, name)
	if err != nil {
		return fmt.Errorf("writing the register: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", filepath.Join(w.out, name), err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(w.out, name), err)
	}
	return nil
}

func (w *treeWriter) close() {
	if w.root != nil {
		w.root.Close()
	}
}

// defaultConfig is the configuration of the register that holds the
// embedded block alone.
const defaultConfig = `name: JSON-RPC 2.0 (embedded in jrpcld)
abstract: The JSON-RPC 2.0 building block that jrpcld embeds, built on its own.
identifier-prefix: jrpcld.
imports: []
`

// DefaultRegister returns a register that holds the embedded JSON-RPC 2.0
// block alone, as block jrpcld.json-rpc in the folder json-rpc, with no
// imports.
func DefaultRegister() (*bblock.Register, error) {
	// An in-memory copy of the tree: the configuration, and the embedded
	// block's files below _sources/json-rpc.
	tree := fstest.MapFS{bblock.ConfigFile: &fstest.MapFile{Data: []byte(defaultConfig)}}
	src := bblock.DefaultFS()
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		tree[path.Join(bblock.SourcesDir, "json-rpc", p)] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("embedded block: %w", err)
	}
	return bblock.LoadRegister(tree, nil)
}

// withNewline returns b ending with a newline.
func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b, '\n')
	}
	return b
}
