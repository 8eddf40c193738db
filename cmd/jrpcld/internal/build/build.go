// Package build is "jrpcld build": a register of building blocks built
// from their sources by package register, their examples and tests run,
// and the result written, served or pushed, from one command.
package build

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/push"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/serve"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/fetch/regcache"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/register"
	"github.com/jrpcld/jrpcld/register/transform"
)

// NewCmd returns the command "jrpcld build".
func NewCmd() cli.Command {
	c := cli.Command{Name: "build", Args: "[SOURCES] [-o DIR] [--base-url URL] [--build-path PATH] [--relative-base URL] [--filter ID] [--date YYYY-MM-DD] [--import URL=DIR] [--map URL=FILE] [--push URL] [--serve [--addr HOST:PORT]] [-q]",
		Summary: "build a building-block register and its HTML pages, offline"}
	c.Help = buildHelp + "\n" + push.Help + "\n\n" + cli.ProfileHelp
	c.Setup = runBuild
	return c
}

const buildHelp = `
Builds the building-block register in SOURCES, a tree with bblocks-config.yaml
and _sources/, as the OGC building-block tool chain does, without the network.
Without SOURCES it builds the embedded JSON-RPC 2.0 block on its own, as block
jrpcld.json-rpc.

For each block, in dependency order, DIR receives:
  annotated/PATH/schema.yaml, schema.json   the schema annotated from the
                                            context, $refs pointing at the
                                            built files (or below --base-url)
  annotated/PATH/context.jsonld             the context built from it
  annotated/PATH/resolvedProperties.json    its properties as the tool chain
                                            lists them building the context
                                            (the viewer's data structure)
  annotated/PATH/_visited_properties.tsv, _unbound_local_properties.tsv
                                            the tool chain's traces of that
                                            walk (its own schema named below
                                            the --relative-base folder)
  annotated/PATH/ontology.ttl               the block's Turtle ontology
  tests/PATH/example_I_J.json, .jsonld, .ttl
                                            each example snippet, validated
                                            against its schema-ref and uplifted
  tests/PATH/NAME.*                         each file of tests/ (and entry of
                                            tests.yaml), validated: a name with
                                            "-fail." must fail validation
  tests/PATH/*.validation_passed.txt|.validation_failed.txt, _report.json
  tests/PATH/transforms/example_I_J.ID.EXT  the output of each transform of
                                            transforms.yaml on each snippet it
                                            takes: jq, jsonld-frame and SHACL
                                            rules run; SPARQL, XSLT, Python,
                                            Node.js and plugin transforms are
                                            reported as failed, with a warning
  generateddocs/markdown/PATH/index.md, generateddocs/json-full/PATH/index.json
and DIR/register.json lists them all; DIR/bblocks.jsonld and DIR/bblocks.ttl
are the register as linked data (a SKOS concept scheme and DCAT catalog of its
blocks, as the tool chain uplifts register.json; without --base-url relative
links resolve against https://www.opengis.net/def/bblocks/ as in the tool
chain). DIR/index.html and DIR/bblock/ID.html
are a plain HTML site (nothing loaded from the network; the blocks listed as
the OGC viewer lists them, a filter box, dependency graphs): serve it with
--serve, or later with "jrpcld serve DIR".

Warnings and errors go to standard error, a line each; -q folds warnings
alike into one line with their count, --quiet=all leaves warnings out.

PATH is the block identifier without its first component, as the OGC tool
chain lays out its build (ogc.geo.feature -> geo/feature). DIR/_sources/ is a
copy of SOURCES' _sources/, which register.json and the documentation link
to (sourceSchema, sourceFiles, the files examples come from): every link
below --base-url names a file of DIR, so DIR can be published as it is.

--build-path PATH lays DIR out as the OGC GitHub Action publishes a
repository: DIR is the repository root, published at --base-url, with the
build in DIR/PATH/ (PATH is "build" in the Action: register.json is at
URL/build/register.json), the sources in DIR/_sources/ and the HTML pages
(index.html, bblock/ID.html) at the root, where the Action deploys its
viewer. With -o SOURCES the build goes into the repository itself, as in
the Action (SOURCES/PATH/, the pages beside _sources/; nothing is copied).
Without --build-path, -o SOURCES is refused.

Imports of bblocks-config.yaml are never fetched by build. Each is read from
the copy "jrpcld fetch URL" keeps in jrpcld's cache, URL being the import's
register.json (for an import named by its folder, FOLDER/build/register.json,
where the OGC GitHub Action publishes it, or FOLDER/register.json; for
"default", the main OGC register's), or from a folder --import URL=DIR maps
it to (its URL as bblocks-config.yaml writes it, or "default"): a copy of that
register as built, with register.json (or build/register.json) and the files
it links to, as "jrpcld build -o DIR" writes them or as the tool chain
publishes them. Blocks that depend on an imported block get its schema,
context and shapes from the copy, and each import's register.json is written
to annotated/_cache/SHA256 (of its URL), where the OGC viewer reads it
(register.json's remoteCacheDir). An import with no copy is an error naming
the "jrpcld fetch" command that makes one: the rest is built, the blocks
that need it fail, and the exit status is 1. Without --base-url, links are
relative to the file that holds them.

Each resource's graph is validated against the SHACL shapes of its block and
of the blocks it depends on (shaclShapes, with shaclClosures and a snippet's
shacl-closure added to the data), as the tool chain runs pySHACL. Shapes named
by URL are read from a mapped import and never fetched: an unmapped one fails
the block. SHACL-SPARQL runs; shapes with SHACL-JS are not checked, with a
warning.

A schema or context named by URL (bblock.json's "schema" or "ldContext", a
$ref) is never fetched either. --map URL=FILE reads it from a local file,
and a URL ending in '/' mapped to a folder stands for every file below it;
url-mappings in bblocks-config.yaml (or in bblocks-config-local.yml, where
the OGC tool chain reads them) map URLs to paths inside the SOURCES folder.
--map comes first; the first mapping that covers a URL is read. A URL
nothing maps makes the block that needs it fail, with an error naming it.

The steps of semantic-uplift.yaml run on each JSON example and test resource:
jq before the uplift; SHACL rules, SPARQL updates and CONSTRUCT queries
after, as the tool chain runs them with rdflib. A step that fails fails the
resource, as in the tool chain. A block whose
semantic-uplift.yaml sets inheritedPostSteps first runs the steps marked
inheritable of the blocks it depends on (register.json's semanticUplift).
A transform's outputs are checked against the blocks its outputs.profiles
names, as resources of those blocks, in tests/PATH/transforms/PROFILE/.

Transforms and uplift steps come from the register's authors: each runs in a
child jrpcld process (one for the whole build, started with the first block
that has one) whose memory may grow by at most --transform-memory MiB (1024
by default) and which may take ten seconds of processor time on it. A step past either limit
is stopped and fails like any failed transform or step, with a message naming
the limit; the build goes on with a new child. --transform-memory 0 runs them
inside jrpcld instead: a jq program is stopped after ten seconds, nothing else
is bounded.

The output depends only on the input: dates come from the blocks' metadata
(the latest dateOfLastChange or dateTimeAddition) or from --date.

A failing block does not stop the others. The run ends with a line per block.
Exit status: 0 when every block passed, 1 when one failed, 2 on a usage or
I/O error.`

// buildOptions are the flags of build.
type buildOptions struct {
	cmd                              string
	fs                               *pflag.FlagSet
	out, baseURL, buildPath, relBase string
	gitRepo, githubBase, commitDate  string
	viewerURL, filter, date, addr    string
	keepMeaning, serve               bool
	txMem                            int
	ctxMap                           cli.ContextMap
	imports                          cli.ImportMaps
	urlMaps                          urlMapFlag
	push                             *push.Flags
	prof                             *cli.Profiler
}

func runBuild(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &buildOptions{cmd: c.Name, fs: fs, ctxMap: cli.ContextMap{}}
	fs.StringVarP(&o.out, "output", "o", "build-local", "write the register into `DIR`")
	fs.StringVar(&o.baseURL, "base-url", "", "the `URL` DIR will be published at (with --build-path, the URL of the repository root); links become absolute below it")
	fs.StringVar(&o.buildPath, "build-path", "", "lay DIR out as the OGC GitHub Action publishes a repository: DIR is the repository root, published at --base-url, with the build at `PATH` (\"build\" in the Action) below it, the sources in _sources/ and the pages at the root; -o SOURCES builds into the repository itself")
	fs.StringVar(&o.relBase, "relative-base", "", "resolve relative IRIs of examples without a base-uri against the folder `URL`, as the OGC tool chain resolves them against its working folder (file:///github/workspace/ in its GitHub Action), so that the build compares file for file with a published one")
	fs.StringVar(&o.gitRepo, "git-repository", "", "the `URL` of the register's git repository, for register.json (gitRepository)")
	fs.StringVar(&o.githubBase, "github-base-url", "", "the `URL` the repository's files are browsed at (https://github.com/OWNER/REPO/blob/BRANCH/), for register.json (gitHubRepository) and each block's testOutputs")
	fs.StringVar(&o.commitDate, "commit-date", "", "the `YYYY-MM-DD` date of the sources' last commit: a block's dateOfLastChange is that date when it is later, as the OGC tool chain takes it from git")
	fs.BoolVar(&o.keepMeaning, "keep-meaning", false, "build contexts that keep each term's meaning where the OGC tool chain's compaction changes it (a scoped term it drops although a nearer scope defines it otherwise, a compact IRI whose prefix a scope redefines); by default contexts are compacted as the tool chain does, with a warning for each such term")
	fs.StringVar(&o.viewerURL, "viewer-url", "", "the `URL` of the register's viewer (the OGC bblocks-viewer); default: --base-url")
	fs.StringVar(&o.filter, "filter", "", "build only the block with this `ID` (the blocks it depends on are read, not built)")
	fs.StringVar(&o.date, "date", "", "stamp register.json and the reports with this `YYYY-MM-DD` date")
	fs.IntVar(&o.txMem, "transform-memory", transform.DefaultMemoryLimit>>20, "bound the memory of each transform and semantic-uplift step, run in a child process, to `MiB` (64 at least): past it the step is stopped and fails, and the build goes on; 0 runs them inside jrpcld, unbounded")
	fs.BoolVar(&o.serve, "serve", false, "serve DIR on localhost after the build, until interrupted")
	fs.StringVar(&o.addr, "addr", serve.DefaultAddr, "with --serve, listen on `HOST:PORT`")
	fs.Var(o.ctxMap, "context-map", "map a context the blocks' contexts name to a local file: `URL=FILE` (repeatable)")
	fs.Var(&o.imports, "import", cli.ImportUsage)
	fs.Var(&o.urlMaps, "map", "read a schema or context named by `URL=FILE` from the local file (a URL ending in '/' and a folder: every file below it); never fetched (repeatable)")
	o.push = push.AddFlags(fs, "after the build, upload each block's ontology to the SPARQL 1.1 Graph Store endpoint `URL`, as the graph urn:ogc:bblocks/ID/ontology (what bblocks-config.yaml's sparql.push asks of the OGC tool chain)")
	o.prof = cli.AddProfileFlags(fs)
	cli.AddQuietFlag(fs) // warnings folded by the command's runner (main.go)
	return o.run
}

func (o *buildOptions) run(e *cli.Env, pos []string) error {
	if err := o.prof.Start(e, o.cmd); err != nil {
		return err
	}
	if len(pos) > 1 {
		return cli.Failf("one SOURCES folder at most, got %d arguments", len(pos))
	}
	ps, err := o.push.Pusher(e, o.cmd, o.fs)
	if err != nil {
		return cli.Fail(err)
	}
	sandbox, err := transformSandbox(o.txMem)
	if err != nil {
		return cli.Fail(err)
	}
	defer sandbox.Close()
	if _, same := cli.SameFile(e, o.out, pos); same && o.buildPath == "" {
		// The build would be written over the sources.
		return cli.Failf("-o %s is the SOURCES folder: refusing to write the register into it (write elsewhere, or into --build-path below it)", o.out)
	}
	reg, err := o.register(pos)
	if err != nil {
		return cli.Failf("%s", termsafe.Escape(err.Error()))
	}
	res, err := register.Build(reg, o.out, register.Options{BaseURL: o.baseURL, BuildPath: o.buildPath, RelativeBase: o.relBase,
		GitRepository: o.gitRepo, GitHubBaseURL: o.githubBase, ViewerURL: o.viewerURL, CommitDate: o.commitDate, Filter: o.filter, Date: o.date, Contexts: contextOptions(o.ctxMap, o.keepMeaning), Sandbox: sandbox})
	if err != nil {
		return cli.Failf("%s", termsafe.Escape(err.Error()))
	}
	writeBuildReport(e, o.out, res)
	if ps != nil {
		if err := push.Ontologies(ps, o.out, res); err != nil {
			return err
		}
	}
	if o.serve {
		if err := serve.Dir(e, o.out, o.addr, nil, nil); err != nil {
			cli.Errorf(e, "serve", "%v", err) // as jrpcld serve says it
			return cli.ExitError(cli.ExitUsage)
		}
	}
	if res.Failed() {
		return cli.ExitError(cli.ExitInvalid)
	}
	return nil
}

// register loads the register of the SOURCES folder in pos, or the
// default one, with the imports and URL maps of the flags.
func (o *buildOptions) register(pos []string) (*bblock.Register, error) {
	opts, err := o.imports.Options()
	if err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &bblock.Options{}
	}
	opts.FindImport = cachedImport
	if len(o.urlMaps) > 0 {
		if opts.Imports, err = opts.Imports.MapURLs(o.urlMaps); err != nil {
			return nil, err
		}
	}
	if len(pos) == 0 {
		return register.DefaultRegister()
	}
	return bblock.LoadRegisterDir(pos[0], opts)
}

// writeBuildReport prints the warnings and errors of a build on standard
// error and its verdict, a line per block, on standard output. Ids, file
// names and messages come from the sources: each is shown on one line,
// escaped, so that none can forge a line of the output.
func writeBuildReport(e *cli.Env, out string, res *register.Result) {
	for _, w := range res.Warnings {
		cli.Errorf(e, "build", "warning: %s", termsafe.Escape(w))
	}
	for _, msg := range res.Errors {
		cli.Errorf(e, "build", "error: %s", termsafe.Escape(msg))
	}
	for _, b := range res.Blocks {
		id := termsafe.Escape(b.ID)
		for _, w := range b.Warnings {
			cli.Errorf(e, "build", "%s: warning: %s", id, termsafe.Escape(w))
		}
		for _, msg := range b.Errors {
			cli.Errorf(e, "build", "%s: error: %s", id, termsafe.Escape(msg))
		}
	}
	fmt.Fprintf(e.Stdout, "%s: %d block%s built into %s\n", termsafe.Escape(registerName(res)), len(res.Blocks), cli.Plural(len(res.Blocks)), termsafe.Escape(out))
	for _, b := range res.Blocks {
		verdict := "passed"
		if !b.Passed {
			verdict = "FAILED"
		}
		fmt.Fprintf(e.Stdout, "  %-6s %s: examples %d/%d, tests %d/%d\n", verdict, termsafe.Escape(b.ID),
			b.Examples.Passed, b.Examples.Passed+b.Examples.Failed, b.Tests.Passed, b.Tests.Passed+b.Tests.Failed)
	}
}

// cachedImport returns the copy of the register that import name of
// bblocks-config.yaml ("default" or a URL) stands for in the cache "jrpcld
// fetch" fills, under the URL of its register.json: the URL itself when it
// names a .json file, else URL/build/register.json (where the OGC GitHub
// Action publishes it) or URL/register.json.
func cachedImport(name string) (bblock.ImportMap, bool) {
	u := name
	if u == "default" {
		u = bblock.DefaultImport
	}
	candidates := []string{u}
	if !strings.HasSuffix(u, ".json") {
		base := strings.TrimSuffix(u, "/") + "/"
		candidates = []string{base + "build/register.json", base + "register.json"}
	}
	for _, c := range candidates {
		if dir, err := regcache.Dir(c); err == nil {
			return bblock.ImportMap{URL: name, Dir: dir, RegisterURL: regcache.Normalize(c)}, true
		}
	}
	return bblock.ImportMap{}, false
}

// maxTransformMemory is the largest --transform-memory, in MiB (1 TiB).
const maxTransformMemory = 1 << 20

// transformSandbox returns the sandbox a build runs its transforms and
// uplift steps in: this program started as its child, its memory bounded
// to mib MiB; nil, to run them in this process, for 0.
func transformSandbox(mib int) (*transform.Sandbox, error) {
	switch {
	case mib == 0:
		return nil, nil
	case mib < transform.MinMemoryLimit>>20 || mib > maxTransformMemory:
		return nil, fmt.Errorf("--transform-memory %d: want MiB from %d (the Go heap grows 64 MiB at a time) to %d, or 0 for no limit", mib, transform.MinMemoryLimit>>20, maxTransformMemory)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--transform-memory: cannot find jrpcld's program to run the transforms in (%v); --transform-memory 0 runs them inside jrpcld, without a memory limit", err)
	}
	return transform.NewSandbox(int64(mib)<<20, "--transform-memory to raise it", exe, transform.ChildArg), nil
}

// contextOptions returns the options of the contexts a build makes.
func contextOptions(m cli.ContextMap, keepMeaning bool) *ldctx.Options {
	o := m.Options()
	if keepMeaning {
		if o == nil {
			o = &ldctx.Options{}
		}
		o.KeepMeaning = true
	}
	return o
}

func registerName(res *register.Result) string {
	if res.Name == "" {
		return "register"
	}
	return res.Name
}

// urlMapFlag is the repeatable --map URL=FILE flag.
type urlMapFlag []bblock.URLMap

func (m *urlMapFlag) String() string {
	var parts []string
	for _, um := range *m {
		parts = append(parts, um.URL+"="+um.Path)
	}
	return strings.Join(parts, ",")
}

// Type names the value in help and completion.
func (m *urlMapFlag) Type() string { return "URL=FILE" }

func (m *urlMapFlag) Set(s string) error {
	um, err := bblock.ParseURLMap(s)
	if err != nil {
		return err
	}
	*m = append(*m, um)
	return nil
}
