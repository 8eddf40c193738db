package register

import (
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/catalog"
	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/internal/lang"
	"github.com/jrpcld/jrpcld/register/schemaprops"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// layout says where the build is published and how its files link.
func (bd *builder) layout() docs.Layout {
	return docs.Layout{BaseURL: bd.opts.BaseURL, BuildPath: bd.opts.BuildPath}
}

// repoPath returns the path, from the root of the published repository,
// of the output file p (a path below the output folder).
func (bd *builder) repoPath(p string) string { return bd.layout().RepoPath(p) }

// link returns the URL of the output file to, as written in the output file
// from: below the base URL when there is one, else relative.
func (bd *builder) link(from, to string) string { return bd.layout().Link(from, to) }

// writeDocs hands what the build made to package docs, which writes
// register.json, the copies of the imported registers, register-summary.md
// and each block's documentation; then register.json to package catalog,
// which writes the register's own linked data (bblocks.jsonld, bblocks.ttl).
func (bd *builder) writeDocs() error {
	r := &docs.Register{Sources: bd.reg, Layout: bd.layout(), Date: bd.date,
		GitRepository: bd.opts.GitRepository, GitHubBaseURL: bd.opts.GitHubBaseURL,
		ViewerURL: bd.opts.ViewerURL, CommitDate: bd.opts.CommitDate, Shapes: bd.shapes}
	for _, o := range bd.blocks {
		r.Blocks = append(r.Blocks, bd.docBlock(o))
	}
	if err := r.Write(bd.put); err != nil {
		return err
	}
	// The tool chain's base IRI is the base URL as the OGC GitHub Action
	// gives it, without its final slash; provenance only below a base URL,
	// where the files have a URL.
	opts := catalog.Options{Base: strings.TrimSuffix(bd.opts.BaseURL, "/")}
	if bd.opts.BaseURL != "" {
		opts.RegisterURL = bd.link("register.json", "register.json")
		opts.TurtleURL = bd.link("register.json", catalog.TurtleFile)
	}
	files, err := catalog.Write(bd.registerJSON, opts)
	if err != nil {
		return err
	}
	bd.put(catalog.JSONLDFile, files.JSONLD)
	bd.put(catalog.TurtleFile, files.Turtle)
	return nil
}

// writeProperties writes annotated/PATH/resolvedProperties.json, the
// properties of the block's annotated schema as the tool chain lists them
// while it builds the context (see package schemaprops), when there are
// any; and, beside a context, the traces the tool chain leaves of that
// walk: _visited_properties.tsv and _unbound_local_properties.tsv.
func (bd *builder) writeProperties(o *blockOut) {
	if o.b.Files.Schema == "" || o.ctxErr {
		return
	}
	props := bd.tc.Properties(o.b)
	if o.context != nil {
		bd.put(path.Join(o.annotated, "_visited_properties.tsv"), props.Visited(bd.traceLoc))
		bd.put(path.Join(o.annotated, "_unbound_local_properties.tsv"), props.Unbound())
	}
	res := props.Resolve()
	if res.Empty() {
		return
	}
	data, err := res.JSON(o.b.ID)
	if err != nil {
		o.warnf("resolvedProperties.json not written: %v", err)
		return
	}
	bd.put(path.Join(o.annotated, "resolvedProperties.json"), data)
	o.properties = true
}

// traceLoc names a schema document in _visited_properties.tsv as the tool
// chain does: the block's own annotated schema by its path on the machine
// that builds, others by the URL it reaches them at. The tool chain's
// path is absolute, below its working folder; jrpcld writes it below the
// folder --relative-base names (file:///github/workspace/ gives the OGC
// GitHub Action's /github/workspace/build/annotated/...), else relative to
// the repository root, so that a build depends on its input only.
func (bd *builder) traceLoc(s schemaprops.Source) string {
	loc := s.Loc
	if rest, ok := strings.CutPrefix(loc, toolchain.AnnotatedRefPrefix); ok {
		p := path.Join("annotated", rest)
		if !s.Entry {
			return bd.link("", p)
		}
		p = bd.repoPath(p)
		if u, err := url.Parse(bd.opts.RelativeBase); err == nil && u.Scheme == "file" && u.Path != "" {
			p = path.Join(u.Path, p)
		}
		return p
	}
	if rest, ok := strings.CutPrefix(loc, toolchain.SourcesRefPrefix); ok {
		return bd.layout().SourceLink("", path.Join(bblock.SourcesDir, rest))
	}
	return loc
}

// docBlock returns what package docs needs of block o.
func (bd *builder) docBlock(o *blockOut) *docs.Block {
	d := &docs.Block{Source: o.b, Annotated: o.annotated, Tests: o.tests,
		Schema: o.schemaYAML, Context: o.context, Ontology: o.ontology != nil, OpenAPI: o.openAPI != nil, Properties: o.properties,
		RemoteCache: o.remoteCache,
		Description: o.description, Passed: o.res.Passed, Tested: len(o.report.Items) > 0,
		Transforms: bd.transformsJSON(o)}
	if o.tr != nil {
		if p := o.tr.uplift.Published(); p != nil {
			d.SemanticUplift = p
		}
	}
	if o.b.Examples != nil {
		for i, ex := range o.b.Examples.Examples {
			if i >= len(o.examples) {
				break
			}
			var list []docs.Snippet
			for j, s := range o.exampleSnippets(i) {
				sn := docs.Snippet{Language: s.language, File: s.file, Code: s.code, Transforms: o.transformResults(i, j)}
				if j < len(ex.Snippets) && !s.added {
					sn.Declared = &ex.Snippets[j]
				}
				if s.code == nil {
					sn.File = ""
				}
				list = append(list, sn)
			}
			d.Snippets = append(d.Snippets, list)
		}
	}
	return d
}

// output is one file made from a snippet or test resource, as the pages
// show it.
type output struct {
	language string
	file     string
	code     []byte
}

// outputs returns the resource as written and what the build made of it.
func (it *item) outputs() []output {
	var out []output
	if it.Source != nil {
		lang := it.Language
		if lang == "" {
			lang = strings.TrimPrefix(path.Ext(it.File), ".")
		}
		out = append(out, output{lang, it.File, it.Source})
	}
	if it.JSONLD != nil && lang.Kind(it.Language) != lang.JSONLD {
		out = append(out, output{"jsonld", it.Base + ".jsonld", it.JSONLD})
	}
	if it.Turtle != nil && lang.Kind(it.Language) != lang.Turtle {
		out = append(out, output{"turtle", it.Base + ".ttl", it.Turtle})
	}
	return out
}

// sourcePublished reports whether the file p of the sources tree (a path
// from the repository root) is published with the build: the build wrote
// its copy at the same path below the output folder, or builds into the
// register's own folder, which holds it.
func (bd *builder) sourcePublished(p string) bool {
	if !strings.HasPrefix(p, bblock.SourcesDir+"/") {
		return false
	}
	return bd.written[p] || bd.sources == sourcesInPlace && bd.sourceExists(p)
}

// sourceExists reports whether the sources tree has the file p (a path
// from the repository root).
func (bd *builder) sourceExists(p string) bool {
	if bd.reg.FS == nil {
		return false
	}
	fi, err := fs.Stat(bd.reg.FS, p)
	return err == nil && fi.Mode().IsRegular()
}
