// Package query is "jrpcld query": SPARQL 1.1 queries and updates over
// logs and RDF files, run in memory by rdf/sparql, so that a log can be
// asked questions without a triple store.
package query

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
	"github.com/jrpcld/jrpcld/rdf/rdfxml"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/rdf/sparql/algebra"
	"github.com/jrpcld/jrpcld/rdf/sparql/results"
	"github.com/jrpcld/jrpcld/rdf/sparql/syntax"
)

// NewCmd returns the command "jrpcld query".
func NewCmd() cli.Command {
	c := cli.Command{Name: "query", Args: "--query FILE | -e TEXT | --update FILE [--format json|xml|csv|tsv|turtle|ntriples|nquads] [-o FILE] [--default-graph-union] [--bblock DIR [--id ID]] [--base IRI] [--timeout DURATION] [INPUT...|-]",
		Summary: "run a SPARQL 1.1 query or update over RDF files and logs, in-process"}
	c.Help = queryHelp + "\n\n" + cli.ProfileHelp
	c.Setup = func(c *cli.Command, fs *pflag.FlagSet) cli.Runner { return newQueryOptions(c, fs).run }
	return c
}

const queryHelp = `
Runs a SPARQL 1.1 query (--query FILE, or -e TEXT) over the dataset of the
INPUT files, in-process, and prints its answer; with --update FILE, applies a
SPARQL 1.1 update to that dataset and writes the dataset. docs/sparql.md says
what the engine evaluates.

An INPUT is an RDF file, its format given by its extension (.ttl, .nt, .nq,
.jsonld, .rdf, then .gz when compressed) or else by its content, or a
JSON-RPC log (JSON, JSON lines, envelopes), turned into its graph as "jrpcld
rdf" does, with the embedded JSON-RPC 2.0 block or the one --bblock names.
Turtle, N-Triples, RDF/XML and JSON-LD's default graph go to the default
graph; N-Quads and JSON-LD keep their named graphs; each log is a named graph
of its own, named by the log's IRI (the file's URL unless --base gives one),
as "jrpcld rdf --format nquads" writes it. The blank nodes of each file stay
its own. --default-graph-union makes the default graph the union of all
graphs, so that a query over logs needs no GRAPH.

Given INPUT, the dataset is the INPUT: the query's FROM and FROM NAMED are
ignored, and a note says so. Given none, a query's FROM and FROM NAMED load the
local files they name, resolved against the query's file (the current folder
for -e), each as the graph its IRI names; an IRI that is not a file: IRI is
refused, never fetched. With neither, the INPUT is standard input. An update's
LOAD reads local files the same way, and nothing else.

SELECT and ASK answer as SPARQL results, --format json, xml, csv or tsv
(SELECT tsv and ASK json by default; csv and tsv cannot hold an ASK answer).
CONSTRUCT and DESCRIBE answer with a graph, --format turtle (the default, with
the query's prefixes), ntriples or nquads; DESCRIBE gives the concise bounded
description of each resource. An update writes the dataset as nquads (the
default), or as turtle or ntriples when it has no named graph. With -o FILE the
answer is written to FILE (atomically), and without --format its extension
gives the format (.srj or .json, .srx or .xml, .csv, .tsv, .ttl, .nt, .nq).
Literals keep their lexical form: "01"^^xsd:integer stays "01".

A syntax error in the query or update prints FILE:LINE:COL and exits 2.
--timeout stops a query or update that runs longer. Exit status: 0 when it
ran, 1 when a log had lines that could not be converted (they are reported,
and the answer is written), 2 on a usage error, a file that cannot be read, or
a query that cannot run (past --timeout, or holding too many solutions).`

// queryOptions are the flags of query.
type queryOptions struct {
	cmd        string
	fs         *pflag.FlagSet
	queryFile  string
	expr       string
	updateFile string
	format     string
	outPath    string
	union      bool
	block      *cli.BlockFlags
	base       string
	timeout    time.Duration
	prof       *cli.Profiler
}

func newQueryOptions(c *cli.Command, fs *pflag.FlagSet) *queryOptions {
	o := &queryOptions{cmd: c.Name, fs: fs}
	fs.StringVar(&o.queryFile, "query", "", "the SPARQL query `FILE` (.rq)")
	fs.StringVarP(&o.expr, "expr", "e", "", "the SPARQL query `TEXT`, instead of --query")
	fs.StringVar(&o.updateFile, "update", "", "apply the SPARQL update `FILE` (.ru) and write the dataset, instead of a query")
	fs.StringVarP(&o.format, "format", "f", "", "answer `format`: json, xml, csv or tsv (SELECT, ASK); turtle, ntriples or nquads (CONSTRUCT, DESCRIBE, --update)")
	fs.StringVarP(&o.outPath, "output", "o", "", "write to `FILE` (atomically: replaced only when complete); its extension gives the format without --format")
	fs.BoolVar(&o.union, "default-graph-union", false, "make the default graph the union of all graphs (the logs' named graphs among them)")
	o.block = cli.AddBlockFlags(fs)
	fs.StringVar(&o.base, "base", "", "the IRI of a log given as INPUT, which names its graph (default: the file: URL of the file)")
	fs.DurationVar(&o.timeout, "timeout", 0, "stop a query or update that runs longer than `DURATION` (e.g. 30s; default: none)")
	o.prof = cli.AddProfileFlags(fs)
	return o
}

// sparqlRequest is the query or the update to run, parsed.
type sparqlRequest struct {
	name   string // the file, or "-e", for messages
	base   string // the IRI relative IRIs resolve against
	query  *algebra.Query
	update *algebra.Update
}

func (o *queryOptions) run(e *cli.Env, inputs []string) error {
	if err := o.prof.Start(e, o.cmd); err != nil {
		return err
	}
	req, err := o.request()
	if err != nil {
		return err
	}
	af, err := o.answerFormat(req)
	if err != nil {
		return cli.Fail(err)
	}
	if err := o.checkInputs(e, inputs); err != nil {
		return err
	}
	d := &queryData{e: e, cmd: o.cmd, base: o.base, openContext: func() (*ldctx.Processed, error) {
		_, _, ctx, err := o.block.OpenContext(e, o.cmd)
		return ctx, err
	}}
	ds, err := d.dataset(req, inputs)
	if err != nil {
		return cli.Fail(err)
	}
	if req.update != nil {
		err = o.runUpdate(e, ds, req, af)
	} else {
		err = o.runQuery(e, ds, req, af)
	}
	if err == nil && d.problems > 0 {
		return cli.ExitError(cli.ExitInvalid)
	}
	return err
}

// checkInputs checks the flags that concern the inputs.
func (o *queryOptions) checkInputs(e *cli.Env, inputs []string) error {
	if o.base != "" {
		if rdf.CheckIRI(o.base) != nil {
			return cli.Failf("--base %q is not an absolute IRI", o.base)
		}
		if err := cli.DistinctLogIRIs(o.base, inputs); err != nil {
			return cli.Fail(err)
		}
	}
	return cli.RefuseInput(e, "-o", o.outPath, inputs)
}

// request reads and parses the query or the update the flags give. A
// syntax error is a failure that names FILE:LINE:COL.
func (o *queryOptions) request() (*sparqlRequest, error) {
	given := 0
	for _, s := range []string{o.queryFile, o.updateFile} {
		if s != "" {
			given++
		}
	}
	if o.fs.Changed("expr") {
		given++
	}
	switch {
	case given == 0:
		return nil, cli.Failf("give the query with --query FILE or -e TEXT, or an update with --update FILE")
	case given > 1:
		return nil, cli.Failf("give one of --query, -e and --update")
	}
	req := &sparqlRequest{name: "-e", base: workingDirIRI()}
	text := o.expr
	if file := o.queryFile + o.updateFile; file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, cli.Fail(err)
		}
		req.name, req.base, text = file, rpclog.DefaultIRI(file), string(data)
	}
	var err error
	if o.updateFile != "" {
		req.update, err = sparql.ParseUpdate(text, req.base)
	} else {
		req.query, err = sparql.ParseQuery(text, req.base)
	}
	var se *syntax.SyntaxError
	if errors.As(err, &se) {
		return nil, cli.Failf("%s:%d:%d: %s", req.name, se.Line, se.Col, se.Msg)
	}
	if err != nil {
		return nil, cli.Failf("%s: %v", req.name, err)
	}
	return req, nil
}

// workingDirIRI is the file: URL of the current folder, which the
// relative IRIs of a query given with -e resolve against.
func workingDirIRI() string {
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	return rpclog.DefaultIRI(filepath.Join(wd, "query.rq"))
}

// evalOptions are the engine's options the flags give.
func (o *queryOptions) evalOptions(load func(string) ([]rdf.Triple, error)) sparql.Options {
	return sparql.Options{Timeout: o.timeout, DefaultGraphUnion: o.union, Load: load}
}

// runQuery evaluates the query on ds and writes its answer.
func (o *queryOptions) runQuery(e *cli.Env, ds *sparql.Dataset, req *sparqlRequest, af answerFormat) error {
	res, err := ds.Query(context.Background(), req.query, o.evalOptions(nil))
	if err != nil {
		return cli.Failf("%s: %v", req.name, err)
	}
	defer res.Close()
	out, err := cli.OpenOutput(e, o.cmd, o.outPath)
	if err != nil {
		return cli.Fail(err)
	}
	if err := writeAnswer(out, res, req.query.Prefixes, af); err != nil {
		out.Finish(false)
		return cli.Failf("%s: %v", req.name, err)
	}
	if err := out.Finish(true); err != nil {
		return cli.Fail(err)
	}
	return nil
}

// runUpdate applies the update to ds and writes the dataset.
func (o *queryOptions) runUpdate(e *cli.Env, ds *sparql.Dataset, req *sparqlRequest, af answerFormat) error {
	loads := 0
	load := func(iri string) ([]rdf.Triple, error) {
		qs, err := loadLocal(iri)
		if err != nil {
			return nil, err
		}
		loads++
		ts := triplesOf(qs)
		for i := range ts {
			prefix := "load" + strconv.Itoa(loads)
			ts[i].S, ts[i].O = relabel(ts[i].S, prefix), relabel(ts[i].O, prefix)
		}
		return ts, nil
	}
	if err := ds.Update(context.Background(), req.update, o.evalOptions(load)); err != nil {
		return cli.Failf("%s: %v", req.name, err)
	}
	if err := canWriteDataset(ds, af); err != nil {
		return cli.Fail(err)
	}
	out, err := cli.OpenOutput(e, o.cmd, o.outPath)
	if err != nil {
		return cli.Fail(err)
	}
	if err := writeDataset(out, ds, req.update.Prefixes, af.graph); err != nil {
		out.Finish(false)
		return cli.Fail(err)
	}
	if err := out.Finish(true); err != nil {
		return cli.Fail(err)
	}
	return nil
}

// notef prints a note on standard error.
func (d *queryData) notef(format string, args ...any) {
	cli.Errorf(d.e, d.cmd, "note: %s", fmt.Sprintf(format, args...))
}

// queryData builds the dataset query runs on, from the INPUT files or
// from the files a query's FROM and FROM NAMED name.
type queryData struct {
	e           *cli.Env
	cmd, base   string                           // the command's name, --base
	openContext func() (*ldctx.Processed, error) // the context logs are converted with
	ds          *sparql.Dataset
	ctx         *ldctx.Processed // opened for the first log
	printer     *cli.ErrorPrinter
	problems    int // log lines that could not be converted
}

// Dataset returns the dataset of inputs (files, or "-" for standard
// input) as "jrpcld query" makes it of its INPUT: an RDF file's statements
// (its blank nodes its own), or a log converted in-process with the context
// openContext returns (called once, for the first log) into its own named
// graph, named by rpclog.IRI with base. A log line that cannot be converted
// is printed on standard error as cmd's, and counted: the count is
// returned.
func Dataset(e *cli.Env, cmd, base string, openContext func() (*ldctx.Processed, error), inputs []string) (*sparql.Dataset, int, error) {
	d := &queryData{e: e, cmd: cmd, base: base, openContext: openContext}
	ds, err := d.dataset(&sparqlRequest{}, inputs)
	return ds, d.problems, err
}

// placement says where the statements of one input go: into the graph
// named graph (the zero Term: the graphs the input says), their blank
// node labels made its own with prefix.
type placement struct {
	graph  rdf.Term
	prefix string // "" for a log, whose labels are its own already
}

// dataset returns the dataset of the inputs; without inputs, that of the
// query's FROM and FROM NAMED, or of standard input.
func (d *queryData) dataset(req *sparqlRequest, inputs []string) (*sparql.Dataset, error) {
	d.ds = sparql.NewDataset()
	d.printer = cli.NewErrorPrinter(d.e.Stderr, cli.DefaultMaxErrors)
	d.e.AtEnd(func() { d.printer.Summary(d.cmd) })
	q := req.query
	named := q != nil && len(q.From)+len(q.FromNamed) > 0
	switch {
	case len(inputs) > 0:
		if named {
			d.notef("%s: FROM and FROM NAMED are ignored: the dataset is the INPUT", req.name)
			q.From, q.FromNamed = nil, nil
		}
		for i, name := range inputs {
			iri := rpclog.IRI(d.base, name, len(inputs))
			if err := d.add(name, iri, placement{prefix: "f" + strconv.Itoa(i)}); err != nil {
				return nil, err
			}
		}
	case named:
		return d.ds, d.addFrom(q.From, q.FromNamed)
	case q != nil:
		return d.ds, d.add("-", rpclog.IRI(d.base, "-", 1), placement{prefix: "f0"})
	}
	return d.ds, nil
}

// addFrom loads the local files that FROM and FROM NAMED name, each once,
// as the graph its IRI names.
func (d *queryData) addFrom(from, fromNamed []string) error {
	seen := map[string]bool{}
	for _, iri := range append(append([]string(nil), from...), fromNamed...) {
		if seen[iri] {
			continue
		}
		seen[iri] = true
		path, err := localPath(iri)
		if err != nil {
			return fmt.Errorf("FROM <%s>: %w", iri, err)
		}
		if err := d.add(path, iri, placement{graph: rdf.NewIRI(iri), prefix: "f" + strconv.Itoa(len(seen)-1)}); err != nil {
			return err
		}
	}
	return nil
}

// localPath returns the path of the local file a file: IRI names; any
// other IRI is an error, for jrpcld reads nothing from the network.
func localPath(iri string) (string, error) {
	u, err := url.Parse(iri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", errors.New("jrpcld reads only local files (a file: IRI, or one relative to the query), never the network")
	}
	return u.Path, nil
}

// add reads one input into the dataset: RDF (N-Triples and N-Quads a
// piece at a time), or a log turned into its graph, named iri.
func (d *queryData) add(name, iri string, at placement) error {
	in, err := cli.OpenData(d.e, name)
	if err != nil {
		return err
	}
	defer in.Close()
	if !in.IsRDF {
		return d.addLog(in.Raw, in.Display, iri, placement{graph: at.graph})
	}
	if in.Format == rdf.NTriples || in.Format == rdf.NQuads {
		return cli.WithFile(in.Display, rdf.ReadLines(in.RDF, in.Format, func(qs []rdf.Quad) error { return d.put(qs, at) }))
	}
	data, err := io.ReadAll(in.RDF)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Display, err)
	}
	qs, err := parseQuads(name, data, in.Format)
	if err != nil {
		return cli.WithFile(in.Display, err)
	}
	return d.put(qs, at)
}

// put adds quads to the dataset where at says.
func (d *queryData) put(qs []rdf.Quad, at placement) error {
	for i := range qs {
		q := &qs[i]
		if at.graph != (rdf.Term{}) {
			q.G = at.graph
		}
		if at.prefix != "" {
			q.S, q.O = relabel(q.S, at.prefix), relabel(q.O, at.prefix)
			q.G = relabel(q.G, at.prefix)
		}
	}
	return d.ds.Add(qs...)
}

// relabel gives a blank node of one input a label of that input's own:
// prefix, then "." and the label, or "-" and the number of one a parser
// made (its label starts with '#', which no written label can).
func relabel(t rdf.Term, prefix string) rdf.Term {
	if t.Kind != rdf.Blank {
		return t
	}
	if n, ok := strings.CutPrefix(t.Value, "#"); ok {
		return rdf.NewBlank(prefix + "-" + n)
	}
	return rdf.NewBlank(prefix + "." + t.Value)
}

// addLog turns a log into its graph, named iri, as "jrpcld rdf --format
// nquads" does, and adds it, reading the N-Quads as they are written.
func (d *queryData) addLog(in io.Reader, display, iri string, at placement) error {
	if d.ctx == nil {
		var err error
		if d.ctx, err = d.openContext(); err != nil {
			return err
		}
	}
	r, err := rpclog.NewReader(in, display, rpclog.ReaderOptions{})
	if err != nil {
		return err
	}
	conv := convert.NewConverter(d.ctx)
	conv.Report = func(p diag.Diagnostic) {
		if p.Severity == diag.Error {
			d.problems++
		}
		d.printer.Print("%s\n", p)
	}
	pr, pw := io.Pipe()
	read := make(chan error, 1)
	go func() {
		err := rdf.ReadLines(pr, rdf.NQuads, func(qs []rdf.Quad) error { return d.put(qs, at) })
		pr.CloseWithError(errors.New("the graph was not read to its end")) // the writer stops
		read <- err
	}()
	err = conv.Convert(pw, rdf.NQuads, []convert.Log{{Reader: r, File: display, IRI: iri}})
	pw.CloseWithError(err)
	if rerr := <-read; rerr != nil && err == nil {
		return fmt.Errorf("%s: the graph of the log does not read back: %w", display, rerr)
	}
	return err
}

// parseQuads parses a whole RDF document, with the file's URL as base.
func parseQuads(name string, data []byte, f rdf.Format) ([]rdf.Quad, error) {
	base := ""
	if name != "-" {
		base = rpclog.DefaultIRI(name)
	}
	switch f {
	case rdf.RDFXML:
		ts, _, err := rdfxml.Parse(data, base)
		return quadsOf(ts), err
	case rdf.JSONLD, rdf.JSONLDExpanded:
		return jsonld.Read(data)
	}
	qs, _, err := rdf.Parse(data, f, base)
	return qs, err
}

// quadsOf returns triples as quads of the default graph.
func quadsOf(ts []rdf.Triple) []rdf.Quad {
	qs := make([]rdf.Quad, len(ts))
	for i, t := range ts {
		qs[i].Triple = t
	}
	return qs
}

// triplesOf returns the triples of quads, whatever their graphs.
func triplesOf(qs []rdf.Quad) []rdf.Triple {
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	return ts
}

// loadLocal reads the RDF file a file: IRI names, for an update's LOAD.
func loadLocal(iri string) ([]rdf.Quad, error) {
	path, err := localPath(iri)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(zr)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	f, ok := cli.RDFFormat(strings.TrimSuffix(path, ".gz"), data[:min(len(data), 512)], false)
	if !ok {
		return nil, fmt.Errorf("%s is not RDF (a JSON-RPC log? give it as INPUT)", path)
	}
	qs, err := parseQuads(path, data, f)
	return qs, cli.WithFile(path, err)
}

// answerFormat is how query writes its answer: SPARQL results for SELECT
// and ASK, a graph for CONSTRUCT and DESCRIBE, a dataset for an update.
type answerFormat struct {
	graph   rdf.Format
	results results.Format
}

// formNames are the names of the query forms.
var formNames = map[sparql.Form]string{sparql.Select: "SELECT", sparql.Ask: "ASK", sparql.Construct: "CONSTRUCT", sparql.Describe: "DESCRIBE"}

// graphFormats are the formats query writes graphs and datasets in.
var graphFormats = map[string]rdf.Format{"turtle": rdf.Turtle, "ntriples": rdf.NTriples, "nquads": rdf.NQuads}

// answerFormat returns the format of the answer to req: --format's, else
// the one -o's extension names, else the default of req's form. A format
// that does not fit the form is an error that names those that do.
func (o *queryOptions) answerFormat(req *sparqlRequest) (answerFormat, error) {
	name := o.format
	if ext := extFormat(o.outPath); ext != "" {
		if name != "" && name != ext {
			return answerFormat{}, fmt.Errorf("--format %s and -o %s (%s) disagree: drop --format, or change the extension", name, o.outPath, ext)
		}
		name = ext
	}
	form, what := "an update", "an update writes the dataset"
	if req.query != nil {
		form = formNames[req.query.Form]
		what = "a " + form + " query gives a graph"
	}
	if req.update != nil || req.query.Form == sparql.Construct || req.query.Form == sparql.Describe {
		if name == "" {
			name = "turtle"
			if req.update != nil {
				name = "nquads"
			}
		}
		f, ok := graphFormats[name]
		if !ok {
			return answerFormat{}, fmt.Errorf("--format %s: %s: give turtle, ntriples or nquads", name, what)
		}
		return answerFormat{graph: f}, nil
	}
	if name == "" {
		name = "tsv"
		if req.query.Form == sparql.Ask {
			name = "json"
		}
	}
	f, err := results.ParseFormat(name)
	if err != nil || name != f.String() {
		return answerFormat{}, fmt.Errorf("--format %s: a %s query answers with SPARQL results: give json, xml, csv or tsv", name, form)
	}
	if req.query.Form == sparql.Ask && (f == results.CSV || f == results.TSV) {
		return answerFormat{}, fmt.Errorf("--format %s: an ASK query's answer has no CSV or TSV form: give json or xml", name)
	}
	return answerFormat{results: f}, nil
}

// extFormat returns the format the extension of -o's path names, or ""
// when it names none (or there is no path).
func extFormat(path string) string {
	if path == "" || path == "-" {
		return ""
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".srj", ".json":
		return "json"
	case ".srx", ".xml":
		return "xml"
	case ".csv":
		return "csv"
	case ".tsv":
		return "tsv"
	case ".ttl":
		return "turtle"
	case ".nt":
		return "ntriples"
	case ".nq":
		return "nquads"
	}
	return ""
}

// writeAnswer writes a query's answer to w: its results, or its graph
// with the query's prefixes.
func writeAnswer(w io.Writer, res *sparql.Result, prefixes map[string]string, af answerFormat) error {
	if res.Form == sparql.Select || res.Form == sparql.Ask {
		return res.Write(w, af.results)
	}
	return writeTriples(w, res.Graph, prefixes, af.graph)
}

// writeTriples writes a graph in f: Turtle with those of prefixes it uses.
func writeTriples(w io.Writer, ts []rdf.Triple, prefixes map[string]string, f rdf.Format) error {
	switch f {
	case rdf.Turtle:
		tw := rdf.NewTurtleWriter(w, prefixList(prefixes))
		tw.KeepUsed(ts)
		if err := tw.WriteGroup(ts); err != nil {
			return err
		}
		return tw.Close()
	case rdf.NQuads:
		nw := rdf.NewNQuadsWriter(w)
		if err := nw.WriteGroup(rdf.Term{}, ts); err != nil {
			return err
		}
		return nw.Close()
	}
	nw := rdf.NewNTriplesWriter(w)
	if err := nw.WriteGroup(ts); err != nil {
		return err
	}
	return nw.Close()
}

// prefixList returns the prefixes of a query or update that Turtle can
// declare, by name.
func prefixList(prefixes map[string]string) []rdf.Prefix {
	var list []rdf.Prefix
	for _, name := range slices.Sorted(maps.Keys(prefixes)) {
		if rdf.CheckIRI(prefixes[name]) == nil {
			list = append(list, rdf.Prefix{Name: name, IRI: prefixes[name]})
		}
	}
	return list
}

// canWriteDataset returns an error when the dataset holds statements in
// named graphs and af's format has no place for them.
func canWriteDataset(ds *sparql.Dataset, af answerFormat) error {
	if af.graph == rdf.NQuads {
		return nil
	}
	for q := range ds.Quads() {
		if !q.InDefaultGraph() {
			return fmt.Errorf("the dataset has named graphs (<%s>...), which %v cannot hold: write N-Quads (--format nquads, or -o FILE.nq)", q.G.Value, af.graph)
		}
	}
	return nil
}

// datasetGroup is how many statements writeDataset writes at once.
const datasetGroup = 4096

// writeDataset writes the dataset in f: N-Quads, or the default graph
// alone in Turtle (one group, so that blank nodes nest) or N-Triples.
func writeDataset(w io.Writer, ds *sparql.Dataset, prefixes map[string]string, f rdf.Format) error {
	if f != rdf.NQuads {
		var ts []rdf.Triple
		for q := range ds.Quads() {
			ts = append(ts, q.Triple)
		}
		return writeTriples(w, ts, prefixes, f)
	}
	nw := rdf.NewNQuadsWriter(w)
	var group []rdf.Triple
	var graph rdf.Term
	for q := range ds.Quads() {
		if len(group) == datasetGroup || len(group) > 0 && q.G != graph {
			if err := nw.WriteGroup(graph, group); err != nil {
				return err
			}
			group = group[:0]
		}
		graph = q.G
		group = append(group, q.Triple)
	}
	if err := nw.WriteGroup(graph, group); err != nil {
		return err
	}
	return nw.Close()
}
