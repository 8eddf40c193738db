package register

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/ontology"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/internal/lang"
	"github.com/jrpcld/jrpcld/register/report"
	"github.com/jrpcld/jrpcld/schema"
)

// blockOut is what the build made of one block, for register.json, the
// documentation and the pages.
type blockOut struct {
	b   *bblock.Block
	res BlockResult
	// pageText words a warning for the pages where it differs from the
	// one the command line prints (a command naming a local path).
	pageText map[string]string

	annotated string // annotated/<path>
	tests     string // tests/<path>

	schemaYAML  []byte // the annotated schema as written, nil when none
	schemaJSON  []byte
	context     []byte           // the built context.jsonld, nil when none
	ctx         *ldctx.Processed // its context
	ontology    []byte           // ontology.ttl as written, nil when none
	openAPI     []byte           // the resolved openapi.yaml as written, nil when none
	description string           // description.md
	examples    []*exampleOut
	testItems   []*item
	report      *report.Block
	// blockErrors are the block's problems that no resource's report
	// holds (bblock.json, description.md, the ontology): the block's page
	// shows them; _report.json, as the tool chain's, has no place for them.
	blockErrors  []entry
	ontologyNote string // why no ontology.ttl was written, when there is an ontology
	ctxErr       bool   // the context could not be built
	properties   bool   // resolvedProperties.json was written
	remoteCache  bool   // annotated/PATH/remote_cache/ was written
	tr           *blockTransforms
	sch          *schema.Schema // the compiled schema, nil when none or when it does not compile
	schErr       error          // why the schema does not compile
}

// exampleOut is one example of a block with its checked snippets.
type exampleOut struct {
	Title, Content string
	Snippets       []*item
}

// unknownBlockRE finds the id in an error about an unknown block.
var unknownBlockRE = regexp.MustCompile(`unknown building block "([^"]+)"`)

// errorf records an error of the block. Of the errors a missing block (in
// an import without a local copy, say) causes in every step, the first is
// kept.
func (o *blockOut) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if m := unknownBlockRE.FindStringSubmatch(msg); m != nil {
		for _, e := range o.res.Errors {
			if strings.Contains(e, m[0]) {
				return
			}
		}
	}
	o.res.Errors = append(o.res.Errors, msg)
}

func (o *blockOut) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, w := range o.res.Warnings {
		if w == msg {
			return
		}
	}
	o.res.Warnings = append(o.res.Warnings, msg)
}

// pageWarnings returns the block's warnings as its page shows them.
func (o *blockOut) pageWarnings() []string {
	if len(o.pageText) == 0 {
		return o.res.Warnings
	}
	ws := make([]string, len(o.res.Warnings))
	for i, w := range o.res.Warnings {
		ws[i] = w
		if p, ok := o.pageText[w]; ok {
			ws[i] = p
		}
	}
	return ws
}

// buildBlock builds the outputs of block b.
func (bd *builder) buildBlock(b *bblock.Block) *blockOut {
	o := &blockOut{b: b, res: BlockResult{ID: b.ID, Name: b.Meta.Name}}
	o.annotated = path.Join("annotated", b.OutputPath())
	o.tests = path.Join("tests", b.OutputPath())
	o.report = &report.Block{ID: b.ID, Name: b.Meta.Name, Generated: bd.generated(), BaseURL: bd.rootURL()}
	global := func(s report.Section, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		o.blockErrors = append(o.blockErrors, entry{Section: s, Message: msg, IsError: true, Global: true})
		o.errorf("%s", msg)
	}
	for _, p := range b.Problems {
		if p.Severity == diag.Warning {
			o.warnf("%s", problemText(p))
		} else {
			global(report.General, "%s", problemText(p))
		}
	}
	if b.Files.Description != "" {
		if data, err := b.ReadFile(b.Files.Description); err != nil {
			global(report.Files, "%v", err)
		} else {
			o.description = string(data)
			if line := docs.Nesting(o.description); line > 0 {
				o.warnf("%s line %d: blockquotes and lists nested more than %d deep: the description is shown as written, not rendered",
					b.Files.Description, line, limits.Depth)
			}
		}
	}

	// The annotated schema, its sibling files, the context and the ontology.
	var sch *schema.Schema
	var schErr error
	if b.Files.Schema != "" {
		if err := bd.writeSchemas(o); err != nil {
			global(report.JSONSchema, "annotated schema: %v", err)
		}
		bd.writeRemoteCache(o)
		if sch, schErr = bd.schemas.Compile(b); schErr != nil {
			global(report.JSONSchema, "compiling the schema: %v", schErr)
		}
		o.sch, o.schErr = sch, schErr
	}
	// The context: built from the annotated schema, as the tool chain
	// builds it (a block without a context.jsonld of its own may inherit
	// terms through its references); none when it is empty. A block with a
	// context.jsonld but no schema gets none either, as in the tool chain.
	if b.Files.Schema != "" {
		doc, warns, err := bd.tc.Context(b)
		for _, w := range warns {
			o.warnf("%s", problemText(w))
		}
		if err == nil && doc != nil {
			var buf bytes.Buffer
			if err = doc.WriteJSON(&buf); err == nil {
				o.context = withNewline(buf.Bytes())
				bd.put(path.Join(o.annotated, "context.jsonld"), o.context)
				o.ctx, _, err = bd.tc.Processed(b)
			}
		}
		if err != nil {
			o.ctxErr = true
			global(report.JSONLD, "JSON-LD context: %v", err)
		}
		if undeclared, ok, err := ontology.CheckBlock(b, bd.reg, bd.tc.Terms); err == nil && ok && len(undeclared) > 0 {
			msg := undeclaredWarning(undeclared, bd.ontologyCommand(b, false))
			o.warnf("%s", msg)
			o.pageText = map[string]string{msg: undeclaredWarning(undeclared, bd.ontologyCommand(b, true))}
		}
	} else if b.Files.Context != "" {
		o.warnf("%s: the block has no schema, so no context is built from it and its JSON examples are not uplifted (as in the OGC tool chain)", b.Files.Context)
	}
	bd.writeProperties(o)
	if b.Files.OpenAPI != "" {
		for _, err := range bd.writeOpenAPI(o) {
			global(report.General, "OpenAPI document %v", err)
		}
	}
	bd.writeOntology(o, global)
	bd.loadTransforms(o, global)

	// Test resources, then examples, as the tool chain checks them.
	testBase := examplesBase(b)
	if bd.opts.RelativeBase != "" {
		// As the tool chain: against its working folder.
		testBase = ""
	}
	for _, t := range bd.testResources(o) {
		src := report.Source{Type: report.TestResource, RequireFail: t.requireFail,
			Filename: bd.sourcePath(o, path.Join("tests", t.out)), Language: strings.TrimPrefix(path.Ext(t.out), ".")}
		if bd.opts.BuildPath == "" {
			// The sources are not published beside the build: the
			// report names the copy in tests/.
			src.Filename = path.Join(o.tests, t.out)
		}
		it := &item{rep: report.NewItem(src), Title: t.ref, File: t.out, Language: lang.OfFile(t.ref)}
		it.Base = strings.TrimSuffix(t.out, path.Ext(t.out))
		var code []byte
		ok := false
		if t.err != nil {
			it.rep.Error(report.Files, t.err.Error())
		} else if data, err := b.ReadFile(t.ref); err != nil {
			it.rep.Error(report.Files, fmt.Sprintf("reading %s: %v", t.ref, err))
		} else {
			code, ok = data, true
		}
		sn := bblock.Snippet{Language: it.Language, BaseURI: testBase}
		if ok && testBase != "" {
			it.rep.Info(report.JSONLD, fmt.Sprintf("base IRI %s, the base-uri of the examples", testBase), report.Op(OpNote))
		}
		bd.check(o, it, code, ok, checkInput{sch: sch, schErr: schErr, sn: sn, using: path.Base(t.out)})
		o.testItems = append(o.testItems, it)
	}
	if b.Examples != nil {
		for i, ex := range b.Examples.Examples {
			eo := &exampleOut{Title: ex.Title, Content: ex.Content}
			names := map[string]bool{}
			for j, sn := range ex.Snippets {
				base := fmt.Sprintf("example_%d_%d", i+1, j+1)
				if ex.BaseOutputFilename != "" {
					named := strings.TrimSuffix(path.Base(ex.BaseOutputFilename), path.Ext(ex.BaseOutputFilename))
					if len(ex.Snippets) > 1 {
						named = fmt.Sprintf("%s_%d", named, j+1)
					}
					if named != "" && named != "." && !names[named] {
						base = named
					}
				}
				code, err := b.SnippetCode(sn)
				if errors.Is(err, bblock.ErrNoMatch) {
					// The tool chain skips such a snippet: no file, no
					// verdict. Say so.
					o.warnf("example %d snippet %d (%s line %d): %v: the snippet is skipped, as the OGC tool chain skips it", i+1, j+1, b.Files.Examples, sn.Line, err)
					continue
				}
				names[base] = true
				file := base + lang.SnippetExtension(sn.Language)
				it := &item{Title: ex.Title, SchemaRef: sn.SchemaRef, Base: base, File: file, Language: sn.Language,
					rep: report.NewItem(report.Source{Type: report.Example, ExampleIndex: i + 1, SnippetIndex: j + 1,
						Filename: bd.repoPath(path.Join(o.tests, file)), Language: lang.MediaType(sn.Language)})}
				if lang.Kind(sn.Language) == "" {
					// The files made from it are named after its own.
					it.Base = strings.TrimSuffix(file, path.Ext(file))
				}
				using := file
				if stem := lang.SnippetStem(fmt.Sprintf("example_%d_%d", i+1, j+1), sn.Language); sn.Ref != "" {
					using = sn.Ref
				} else if it.Base != stem {
					// As the tool chain, the name it would have given, when
					// the file has another (base-output-filename, a media
					// type).
					using = fmt.Sprintf("%s (%s)", file, stem)
				}
				if err != nil {
					where := fmt.Sprintf("%s line %d", b.Files.Examples, sn.Line)
					if sn.Ref != "" {
						where += fmt.Sprintf(", file %s", sn.Ref)
					}
					it.rep.Error(report.Files, fmt.Sprintf("Error reading the snippet (%s): %v", where, err))
				}
				exPrefixes := b.Examples.PrefixesOf(ex)
				bd.check(o, it, code, err == nil, checkInput{sch: sch, schErr: schErr, ex: ex, sn: sn, using: using, prefixes: exPrefixes, prefixNames: b.Examples.PrefixNamesOf(ex)})
				eo.Snippets = append(eo.Snippets, it)
			}
			o.examples = append(o.examples, eo)
		}
	}

	bd.runTransforms(o)

	// The report.
	for _, it := range o.items() {
		if it.Dropped {
			continue
		}
		o.report.Items = append(o.report.Items, it.rep)
		c := &o.res.Examples
		if it.rep.Source.Type != report.Example {
			c = &o.res.Tests
		}
		if it.Passed() {
			c.Passed++
		} else {
			c.Failed++
			o.errorf("%s: %s", it.label(), it.firstError())
		}
	}
	o.res.Passed = o.report.Result() && len(o.res.Errors) == 0
	data, err := o.report.JSON()
	if err != nil {
		o.errorf("writing _report.json: %v", err)
	} else {
		bd.put(path.Join(o.tests, "_report.json"), data)
	}
	// What the block's checks needed of its context, which grows with the
	// blocks it reaches, is let go of (see processed).
	bd.tc.Release(b)
	o.ctx = nil
	return o
}

// processed returns block o's processed context, nil when it has none: the
// one its checks used, made again once the block is built.
func (bd *builder) processed(o *blockOut) *ldctx.Processed {
	if o.ctx == nil && o.context != nil {
		o.ctx, _, _ = bd.tc.Processed(o.b)
	}
	return o.ctx
}

// examplesBase returns the base-uri that every example snippet of block b
// uses, or "" when they use none or several: test resources are uplifted
// with it, so that relative IRIs (such as string ids) resolve as in the
// examples, unless Options.RelativeBase asks for the tool chain's working
// folder (docs/ogc.md, departure 3).
func examplesBase(b *bblock.Block) string {
	if b.Examples == nil {
		return ""
	}
	base := ""
	for _, ex := range b.Examples.Examples {
		for _, sn := range ex.Snippets {
			u := sn.BaseURI
			if u == "" {
				u = ex.BaseURI
			}
			if u == "" || base != "" && u != base {
				return ""
			}
			base = u
		}
	}
	return base
}

// problemText formats a loading problem without its severity, which the
// list it goes into gives.
func problemText(p bblock.Problem) string {
	p.Severity = diag.Error // the lists of the result say which it is
	return p.String()
}

// undeclaredWarning words the warning about IRIs of a block's context that
// its ontologies do not declare, naming a few of them; past those, it names
// the command that lists them all.
func undeclaredWarning(iris []string, command string) string {
	const shown = 6
	if len(iris) == 1 {
		return "the context produces an IRI that no ontology of the block or its dependencies declares: " + iris[0]
	}
	msg := fmt.Sprintf("the context produces %d IRIs that no ontology of the block or its dependencies declares: ", len(iris))
	if len(iris) <= shown {
		return msg + strings.Join(iris, ", ")
	}
	return msg + strings.Join(iris[:shown], ", ") + fmt.Sprintf(" and %d more (%s lists them)", len(iris)-shown, command)
}

// ontologyCommand returns the jrpcld command line that checks block b's
// context against its ontologies as this build does: the source tree and
// the block named (unless the register is the embedded block alone), with
// the imports and context files the build was given. For the published
// pages (page), an absolute path is written as the name of what it is
// (SOURCES, DIR, FILE): the pages hold nothing of the machine that built.
func (bd *builder) ontologyCommand(b *bblock.Block, page bool) string {
	local := func(p, name string) string {
		if page && filepath.IsAbs(p) {
			return name
		}
		return p
	}
	args := []string{"jrpcld", "ontology", "--check"}
	if bd.reg.Dir != "" {
		args = append(args, "--bblock", shellQuote(local(bd.reg.Dir, "SOURCES")), "--id", shellQuote(b.ID))
	}
	for _, m := range bd.reg.Imports.Maps() {
		args = append(args, "--import", shellQuote(m.URL+"="+local(m.Dir, "DIR")))
	}
	if c := bd.opts.Contexts; c != nil {
		for _, ref := range slices.Sorted(maps.Keys(c.Files)) {
			args = append(args, "--context-map", shellQuote(ref+"="+local(c.Files[ref], "FILE")))
		}
	}
	return "\"" + strings.Join(args, " ") + "\""
}

// shellQuote returns s as a POSIX shell reads it back: as is when it holds
// only characters no shell treats specially, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:=@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// items returns the checked test resources and snippets in report order.
func (o *blockOut) items() []*item {
	all := slices.Clone(o.testItems)
	for _, e := range o.examples {
		all = append(all, e.Snippets...)
	}
	return all
}

// writeRemoteCache writes, for a block whose schema bblock.json names by
// URL, the document read for it (through a URL mapping) to
// annotated/PATH/remote_cache/SHA256, named by the SHA-256 of the URL, as
// the tool chain caches what it loads for a block (register.json's
// remoteCacheDir of the block).
func (bd *builder) writeRemoteCache(o *blockOut) {
	u := o.b.Files.Schema
	if !bblock.IsURL(u) {
		return
	}
	data, err := bd.reg.Imports.ReadURL(u)
	if err != nil {
		return // the block's schema error says why
	}
	sum := sha256.Sum256([]byte(u))
	bd.put(path.Join(o.annotated, docs.RemoteCacheDir, hex.EncodeToString(sum[:])), data)
	o.remoteCache = true
}

// writeOntology writes ontology.ttl: the block's Turtle ontology, checked.
func (bd *builder) writeOntology(o *blockOut, global func(s report.Section, format string, args ...any)) {
	files := o.b.Files.Ontology
	if len(files) == 0 {
		return
	}
	if len(files) > 1 || path.Ext(files[0]) != ".ttl" {
		o.ontologyNote = fmt.Sprintf("ontology.ttl is not written: the ontology is %s, and jrpcld writes only a block's single Turtle file", strings.Join(files, ", "))
		o.warnf("%s", o.ontologyNote)
		return
	}
	data, err := o.b.ReadFile(files[0])
	if err == nil {
		_, err = ontology.Parse(bytes.NewReader(data), rdf.Turtle, "")
	}
	if err != nil {
		global(report.Turtle, "ontology %s: %v", files[0], err)
		return
	}
	o.ontology = withNewline(data)
	bd.put(path.Join(o.annotated, "ontology.ttl"), o.ontology)
	o.res.Ontology = bd.repoPath(path.Join(o.annotated, "ontology.ttl"))
}

// testResource is one test resource of a block: a file of tests/ or an
// entry of tests.yaml.
type testResource struct {
	ref         string // file in the block's folder
	out         string // output file name, relative to the block's tests folder
	requireFail bool
	err         error // the entry cannot be used
}

// testResources lists the block's test resources: the files of tests/
// (those whose name without extension ends in "-fail" must fail), then the entries of
// tests.yaml, whose settings win for a file of tests/ they name.
func (bd *builder) testResources(o *blockOut) []testResource {
	b := o.b
	var out []testResource
	index := map[string]int{}
	for _, f := range b.Files.Tests {
		index[f] = len(out)
		out = append(out, testResource{ref: f, out: strings.TrimPrefix(f, "tests/"), requireFail: mustFail(f)})
	}
	if b.Files.TestsConfig == "" {
		return out
	}
	entries, err := parseTestsConfig(b)
	if err != nil {
		o.errorf("%v", err)
		o.blockErrors = append(o.blockErrors, entry{Section: report.Files, Message: err.Error(), IsError: true, Global: true})
		return out
	}
	for _, e := range entries {
		t := testResource{ref: path.Clean(e.Ref), requireFail: e.RequireFail}
		if strings.Contains(e.Ref, "://") {
			t.err = fmt.Errorf("%s: test resource %q is a URL: jrpcld works offline and does not fetch it", b.Files.TestsConfig, e.Ref)
			t.ref = e.Ref
		}
		t.out = strings.TrimPrefix(t.ref, "tests/")
		if t.err != nil {
			t.out = path.Base(e.Ref)
		}
		if e.OutputFilename != "" {
			t.out = path.Base(e.OutputFilename)
		}
		if i, ok := index[t.ref]; ok {
			out[i] = t
			continue
		}
		index[t.ref] = len(out)
		out = append(out, t)
	}
	return out
}

// mustFail reports whether the test resource file name must fail
// validation: its name without extension ends with "-fail", as the tool
// chain reads it.
func mustFail(name string) bool {
	base := path.Base(name)
	return strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "-fail")
}

// testsEntry is one entry of tests.yaml.
type testsEntry struct {
	Ref            string `yaml:"ref"`
	RequireFail    bool   `yaml:"require-fail"`
	OutputFilename string `yaml:"output-filename"`
}

func parseTestsConfig(b *bblock.Block) ([]testsEntry, error) {
	data, err := b.ReadFile(b.Files.TestsConfig)
	if err != nil {
		return nil, err
	}
	doc, err := ojson.DecodePlain(b.Files.TestsConfig, data)
	if err != nil {
		return nil, err
	}
	list, ok := doc.([]any)
	if doc != nil && !ok {
		return nil, fmt.Errorf("%s: not a list of test resources", b.Files.TestsConfig)
	}
	var out []testsEntry
	for i, e := range list {
		m, ok := e.(map[string]any)
		ref, _ := m["ref"].(string)
		if !ok || ref == "" {
			return nil, fmt.Errorf("%s: entry %d has no \"ref\"", b.Files.TestsConfig, i+1)
		}
		t := testsEntry{Ref: ref}
		if v, present := m["require-fail"]; present {
			if t.RequireFail, ok = v.(bool); !ok {
				return nil, fmt.Errorf("%s: entry %d: \"require-fail\" must be true or false", b.Files.TestsConfig, i+1)
			}
		}
		t.OutputFilename, _ = m["output-filename"].(string)
		out = append(out, t)
	}
	return out, nil
}
