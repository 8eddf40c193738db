// Package shaclcmd is "jrpcld shacl" and the SHACL part of "jrpcld validate
// --shapes": logs and RDF checked against SHACL shapes by rdf/shacl. It is
// named shaclcmd so that it does not shadow the domain package shacl its
// files use.
package shaclcmd

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
	"github.com/jrpcld/jrpcld/rdf/rdfxml"
	"github.com/jrpcld/jrpcld/rdf/shacl"
	"github.com/jrpcld/jrpcld/schema"
)

// NewCmd returns the command "jrpcld shacl".
func NewCmd() cli.Command {
	c := cli.Command{Name: "shacl", Args: "--shapes SHAPES [--shapes MORE] [--format text|turtle|json] [--bblock DIR [--id ID]] [--base IRI] [--inference none|rdfs] [--map URL=FILE]... [DATA...|-]",
		Summary: "validate RDF graphs, or logs as graphs, against SHACL shapes"}
	c.Help = shaclHelp + "\n\n" + cli.ProfileHelp
	c.Setup = runSHACL
	return c
}

const shaclHelp = `
Validates the graph of the DATA files (standard input when there is none, or
for "-") against the SHACL shapes of the --shapes files and prints the
validation report. SHACL Core is complete (every target, constraint
component and property path, sh:deactivated, severities, sh:message), and the
rules of SHACL-AF (sh:rule with sh:TripleRule or sh:SPARQLRule) run first,
their triples added to the data, as the OGC tool chain runs them.
SHACL-SPARQL runs: sh:sparql constraints, constraint components with SPARQL
validators, SPARQL rules and SPARQL targets (sh:target with sh:select), on
jrpcld's own SPARQL engine. What jrpcld does not run (SHACL-JS, other custom
targets and components) is refused with an error naming the shape, never
passed unchecked.
docs/shacl.md has the details, and examples/shapes/ shapes for MCP traffic.

Shapes and DATA may be Turtle (.ttl, .shacl or anything else), N-Triples
(.nt), N-Quads (.nq, every graph merged), JSON-LD (.jsonld) or RDF/XML (.rdf,
.owl), optionally gzip-compressed (.gz); relative IRIs resolve against the
file's URL. A DATA file that is a JSON-RPC log (JSON, JSON lines, envelopes)
is turned into its graph first, as "jrpcld rdf" does, with the embedded
JSON-RPC 2.0 block or the one --bblock names; the log's IRI is the file's URL
unless --base gives one. Several files make one graph; the blank nodes of
each stay its own.

--inference rdfs validates the data graph with its RDFS entailment added, as
pySHACL -i rdfs does (rdfs:subClassOf, rdfs:subPropertyOf, rdfs:domain and
rdfs:range give types and statements; docs/shacl.md lists the rules); the
default, none, validates the graph as given. owl:imports in the shapes or the
data are followed only to local files: --map URL=FILE reads FILE (format
from its name) where an owl:imports names URL, and the imports of FILE in
turn; an owl:imports of no --map is not followed, which a note on standard
error says. jrpcld never reads them over the network.

--format text (the default) prints the report for people, turtle the W3C
validation report graph (sh:ValidationReport), json one JSON object per
result (focusNode, resultPath, value, sourceShape,
sourceConstraintComponent, resultSeverity, resultMessage) and a summary
object. Exit status: 0 when the data conforms, 1 when it does not (a result
of any severity), 2 on a usage error, a file that cannot be read, shapes
that cannot be compiled or that target nothing (no shape has a target that
is not deactivated: no node would be checked), or a validation that failed
(checks of nodes against shapes nested more than 512 deep).`

// shaclOptions are the flags of shacl.
type shaclOptions struct {
	cmd         string
	shapesFiles []string
	format      string
	block       *cli.BlockFlags
	base        string
	graph       *GraphFlags
	prof        *cli.Profiler
}

func runSHACL(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &shaclOptions{cmd: c.Name}
	fs.StringArrayVar(&o.shapesFiles, "shapes", nil, "SHACL shapes `FILE` (repeatable; required)")
	fs.StringVarP(&o.format, "format", "f", "text", "report `format`: text, turtle or json")
	o.block = cli.AddBlockFlags(fs)
	fs.StringVar(&o.base, "base", "", "the IRI of a log given as DATA (default: the file: URL of the file)")
	o.graph = AddGraphFlags(fs)
	o.prof = cli.AddProfileFlags(fs)
	return o.run
}

func (o *shaclOptions) run(e *cli.Env, files []string) error {
	if err := o.prof.Start(e, o.cmd); err != nil {
		return err
	}
	if len(o.shapesFiles) == 0 {
		return cli.Failf("give the shapes with --shapes FILE")
	}
	if o.format != "text" && o.format != "turtle" && o.format != "json" {
		return cli.Failf("--format must be text, turtle or json, not %q", o.format)
	}
	if o.base != "" && rdf.CheckIRI(o.base) != nil {
		return cli.Failf("--base %q is not an absolute IRI", o.base)
	}
	im, err := o.graph.importer(e)
	if err != nil {
		return cli.Fail(err)
	}
	shapes, err := loadShapes(e, o.shapesFiles, im)
	if err != nil {
		return cli.Fail(err)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	g, err := o.data(e, files, im)
	if err != nil {
		return cli.Fail(err)
	}
	im.note(o.cmd)
	report, err := validateGraph(shapes, g)
	if err != nil {
		return cli.Fail(err)
	}
	if err := o.write(e, report); err != nil {
		return cli.Fail(err)
	}
	if !report.Conforms {
		return cli.ExitError(cli.ExitInvalid)
	}
	return nil
}

// data reads the DATA files into one graph, the blank nodes of each apart.
func (o *shaclOptions) data(e *cli.Env, files []string, im *importer) (*shacl.Graph, error) {
	b := shacl.NewBuilder(0)
	var ctx *ldctx.Processed // made for the first log
	for i, name := range files {
		if len(files) > 1 {
			b.SetBlankPrefix("f" + strconv.Itoa(i) + ".")
		}
		err := addData(e, o.cmd, b, name, func() (*ldctx.Processed, error) {
			if ctx == nil {
				var err error
				if _, _, ctx, err = o.block.OpenContext(e, o.cmd); err != nil {
					return nil, err
				}
			}
			return ctx, nil
		}, rpclog.IRI(o.base, name, len(files)))
		if err != nil {
			return nil, err
		}
	}
	g, err := im.follow(b.Graph())
	if err != nil {
		return nil, err
	}
	return infer(g, o.graph.rdfs()), nil
}

// write writes the report in the format of --format; with turtle and
// json, its warnings go to standard error.
func (o *shaclOptions) write(e *cli.Env, report *shacl.Report) error {
	out := bufio.NewWriter(e.Stdout)
	var err error
	switch o.format {
	case "turtle":
		err = report.WriteTurtle(out)
	case "json":
		err = report.WriteJSON(out)
	default:
		err = report.WriteText(out)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return err
	}
	if o.format != "text" {
		for _, w := range report.Warnings {
			cli.Errorf(e, o.cmd, "warning: %s", w)
		}
	}
	return nil
}

// validateGraph validates g, with the triples the shapes' rules infer
// added, against the shapes.
func validateGraph(shapes *shacl.Shapes, g *shacl.Graph) (*shacl.Report, error) {
	if shapes.HasRules() {
		inferred, err := shapes.Infer(g)
		if err != nil {
			return nil, err
		}
		if len(inferred) > 0 {
			g = shacl.NewGraph(append(g.Triples(), inferred...))
		}
	}
	return shapes.Validate(g)
}

// loadShapes reads and compiles the shapes files, as one shapes graph, with
// what its owl:imports lead to through im.
func loadShapes(e *cli.Env, files []string, im *importer) (*shacl.Shapes, error) {
	b := shacl.NewBuilder(0)
	for i, name := range files {
		data, display, err := readAll(e, name)
		if err != nil {
			return nil, err
		}
		b.SetBlankPrefix("f" + strconv.Itoa(i) + ".")
		if err := parseRDF(b, name, display, data, true); err != nil {
			return nil, err
		}
	}
	g, err := im.follow(b.Graph())
	if err != nil {
		return nil, err
	}
	s, err := shacl.CompileGraph(g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(files, ", "), err)
	}
	if s.Targeted() == 0 {
		// Every graph would conform: the check would be off in silence.
		return nil, fmt.Errorf("%s: no shape with a target (sh:targetClass, sh:targetNode, sh:targetSubjectsOf, "+
			"sh:targetObjectsOf, or a shape that is also a class) that is not deactivated, among %d shapes: nothing would be checked",
			strings.Join(files, ", "), s.Len())
	}
	return s, nil
}

// readAll reads a file, or standard input for "-", whole, and
// decompresses it when it is gzip-compressed.
func readAll(e *cli.Env, name string) ([]byte, string, error) {
	var data []byte
	var err error
	display := name
	if name == "-" {
		display = "stdin"
		data, err = io.ReadAll(cli.StdinReader(e))
	} else {
		if st, serr := os.Stat(name); serr == nil && st.IsDir() {
			return nil, "", cli.ErrIsDir(name)
		}
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, "", err
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", display, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, "", fmt.Errorf("%s: %w", display, err)
		}
	}
	return data, display, nil
}

// parseRDF parses an RDF document, with the file's URL as base, into b.
func parseRDF(b *shacl.Builder, name, display string, data []byte, shapes bool) error {
	f, ok := cli.RDFFormat(strings.TrimSuffix(name, ".gz"), data[:min(len(data), 512)], shapes)
	if !ok {
		return fmt.Errorf("%s is not RDF", display)
	}
	base := ""
	if name != "-" {
		base = rpclog.DefaultIRI(name)
	}
	var err error
	switch f {
	case rdf.RDFXML:
		var ts []rdf.Triple
		if ts, _, err = rdfxml.Parse(data, base); err == nil {
			b.Add(ts...)
		}
	case rdf.JSONLD, rdf.JSONLDExpanded:
		var qs []rdf.Quad
		if qs, err = jsonld.Read(data); err == nil {
			b.AddQuads(qs)
		}
	case rdf.NTriples, rdf.NQuads:
		err = b.ReadLines(bytes.NewReader(data), f)
	default:
		var qs []rdf.Quad
		if qs, _, err = rdf.Parse(data, f, base); err == nil {
			b.AddQuads(qs)
		}
	}
	return cli.WithFile(display, err)
}

// addData reads a DATA input into b: RDF (N-Triples and N-Quads
// streamed), or a log turned into its graph with the context ctx gives.
func addData(e *cli.Env, cmd string, b *shacl.Builder, name string, ctx func() (*ldctx.Processed, error), iri string) error {
	in, err := cli.OpenData(e, name)
	if err != nil {
		return err
	}
	defer in.Close()
	if in.IsRDF {
		if in.Format == rdf.NTriples || in.Format == rdf.NQuads {
			return cli.WithFile(in.Display, b.ReadLines(in.RDF, in.Format))
		}
		data, err := io.ReadAll(in.RDF)
		if err != nil {
			return fmt.Errorf("%s: %w", in.Display, err)
		}
		return parseRDF(b, name, in.Display, data, false)
	}
	c, err := ctx()
	if err != nil {
		return err
	}
	return addLog(e, cmd, b, c, in.Raw, in.Display, iri, rpclog.ReaderOptions{})
}

// addLog turns a log into its graph, as jrpcld rdf does, into b, the
// N-Triples the conversion writes read as they come; what cannot be read
// is reported on standard error.
func addLog(e *cli.Env, cmd string, b *shacl.Builder, ctx *ldctx.Processed, in io.Reader, display, iri string, opts rpclog.ReaderOptions) error {
	r, err := rpclog.NewReader(in, display, opts)
	if err != nil {
		return err
	}
	conv := convert.NewConverter(ctx)
	conv.Report = func(d diag.Diagnostic) { cli.Errorf(e, cmd, "%s", d) }
	pr, pw := io.Pipe()
	read := make(chan error, 1)
	go func() {
		err := b.ReadLines(pr, rdf.NTriples)
		pr.CloseWithError(errors.New("the graph was not read to its end")) // the writer stops
		read <- err
	}()
	err = conv.Convert(pw, rdf.NTriples, []convert.Log{{Reader: r, File: display, IRI: iri}})
	pw.CloseWithError(err)
	if rerr := <-read; rerr != nil {
		return fmt.Errorf("%s: the graph of the log does not read back: %w", display, rerr)
	}
	return err
}

// shaclFindings validates the graph of a log against shapes and returns
// the results as validate's findings: each at the line of the message its
// focus node is (or belongs to), errors for sh:Violation and warnings for
// the other severities, the kind the message has, code -32600.
func shaclFindings(e *cli.Env, cmd string, shapes *shacl.Shapes, ctx *ldctx.Processed, name string, opts rpclog.ReaderOptions, rdfs bool) ([]schema.Finding, error) {
	data, display, err := readAll(e, name)
	if err != nil {
		return nil, err
	}
	iri := rpclog.IRI("", name, 1)
	b := shacl.NewBuilder(0)
	if err := addLog(e, cmd, b, ctx, bytes.NewReader(data), display, iri, opts); err != nil {
		return nil, err
	}
	report, err := validateGraph(shapes, infer(b.Graph(), rdfs))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if len(report.Results) == 0 {
		return nil, nil
	}
	// The lines and kinds of the messages, by position.
	type where struct {
		line int
		kind jsonrpc.Kind
	}
	at := map[int64]where{}
	r, err := rpclog.NewReader(bytes.NewReader(data), display, opts)
	if err != nil {
		return nil, err
	}
	for pos := int64(1); ; pos++ {
		rec, err := r.Next()
		if err != nil {
			break
		}
		k := jsonrpc.KindInvalid
		if rec.Err == nil {
			k = jsonrpc.Classify(rec.Value).Kind
		}
		at[pos] = where{rec.Line, k}
	}
	prefix := jlog.BlankPrefix(iri)
	var fs []schema.Finding
	for _, res := range report.Results {
		var pos int64
		switch res.Focus.Kind {
		case rdf.IRI:
			if l, p, ok := jlog.ParseMessageIRI(res.Focus.Value); ok && l == iri {
				pos = p
			}
		case rdf.Blank:
			if _, p, ok := jlog.ParseBlankLabel(res.Focus.Value, func(s string) bool { return s == prefix }); ok {
				pos = p
			}
		}
		w := at[pos]
		sev := diag.Error
		if res.Severity != shacl.NS+"Violation" {
			sev = diag.Warning
		}
		msg := "SHACL " + strings.TrimPrefix(res.Component, shacl.NS) + ": " + res.Message() + " (shape " + report.Describe(res.Shape) + "; focus " + report.Describe(res.Focus)
		if res.Path != nil {
			msg += "; path " + res.Path.String()
		}
		if res.HasValue() {
			msg += "; value " + report.Describe(res.Value)
		}
		msg += ")"
		node := ""
		switch res.Focus.Kind {
		case rdf.IRI:
			node = res.Focus.Value
		case rdf.Blank:
			node = "_:" + res.Focus.Value
		}
		// The code of an invalid message, as the schema's problems outside
		// params have: the message breaks a rule of the shapes.
		fs = append(fs, schema.Finding{Index: int(max(pos-1, 0)), Kind: w.kind,
			Diagnostic: diag.Diagnostic{File: display, Line: w.line, Node: node, Code: jsonrpc.CodeInvalidRequest, Severity: sev, Message: msg}})
	}
	return fs, nil
}

// OpenShapes compiles the shapes of validate --shapes, and the context
// the logs are turned into graphs with; none without shapes.
func OpenShapes(e *cli.Env, cmd string, files []string, bf *cli.BlockFlags, gf *GraphFlags, inputs []string) (*shacl.Shapes, *ldctx.Processed, error) {
	if len(files) == 0 {
		if gf != nil && (gf.Inference != "none" || len(gf.Maps) > 0) {
			return nil, nil, errors.New("--inference and --map concern the shapes' check: give --shapes too")
		}
		return nil, nil, nil
	}
	if len(inputs) == 0 || slices.Contains(inputs, "-") {
		return nil, nil, errors.New("--shapes reads each log twice: give the logs as files, not on standard input")
	}
	im, err := gf.importer(e)
	if err != nil {
		return nil, nil, err
	}
	shapes, err := loadShapes(e, files, im)
	if err != nil {
		return nil, nil, err
	}
	im.note(cmd)
	_, _, ctx, err := bf.OpenContext(e, cmd)
	if err != nil {
		return nil, nil, err
	}
	return shapes, ctx, nil
}

// Summary counts the SHACL results validate --shapes found.
type Summary struct {
	// RDFS adds the RDFS entailment to each log's graph (--inference rdfs).
	RDFS                      bool
	results, logs, conforming int
	// Violations counts the results of severity sh:Violation.
	Violations int
}

// Add validates one log against the shapes and emits the results.
func (s *Summary) Add(e *cli.Env, cmd string, shapes *shacl.Shapes, ctx *ldctx.Processed, name string, opts rpclog.ReaderOptions, emit func(schema.Finding)) error {
	fs, err := shaclFindings(e, cmd, shapes, ctx, name, opts, s.RDFS)
	if err != nil {
		return err
	}
	s.logs++
	if len(fs) == 0 {
		s.conforming++
	}
	for _, f := range fs {
		s.results++
		if f.Severity == diag.Error {
			s.Violations++
		}
		emit(f)
	}
	return nil
}

// Object is the summary as JSON members.
func (s *Summary) Object() map[string]any {
	return map[string]any{"logs": s.logs, "conforming": s.conforming, "results": s.results, "violations": s.Violations}
}

// Write writes the summary as one line of text.
func (s *Summary) Write(w io.Writer) {
	fmt.Fprintf(w, "shacl: %d of %d logs conform; %d results, %d violations\n", s.conforming, s.logs, s.results, s.Violations)
}
