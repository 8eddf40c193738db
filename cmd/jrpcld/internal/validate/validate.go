// Package validate is "jrpcld validate": messages and logs checked
// against a JSON Schema, a building block, the MCP schemas and rules, or
// SHACL shapes, reported as text, JSON lines or SARIF.
package validate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/blockdoc"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/shaclcmd"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld validate".
func NewCmd() cli.Command {
	c := cli.Command{Name: "validate", Args: "[--bblock DIR [--id ID] | --schema FILE | --mcp [--mcp-schemas DIR] [--mcp-version V] [--mcp-rules=false]] [--definition NAME] [--formats] [--shapes SHAPES [--inference none|rdfs] [--map URL=FILE]...] [--format text|json|sarif] [-q] [FILE...|-]",
		Summary: "check messages and logs against JSON-RPC 2.0 and a schema"}
	c.Help = validateHelp + "\n\n" + MCPHelp + "\n\n" + cli.ProfileHelp
	c.Setup = runValidate
	return c
}

const validateHelp = `
Checks every message of each FILE (standard input when there is none, or
for "-") against the JSON-RPC 2.0 rules and a building block's schema: the
embedded JSON-RPC 2.0 block by default, another block with --bblock, or a
schema file with --schema (an MCP schema.json checks each request against
its method's definition, and each response against the result of the request
it answers).

A FILE may hold one JSON message or batch, JSON lines, or envelope lines
{"dir":"c2s"|"s2c","ts":...,"msg":{...}}, optionally gzip-compressed.

"format" (uri, byte, date-time, ...) is asserted as the schema's draft says:
in draft-07 and before, not in 2019-09 and 2020-12 (the MCP schemas since
2025-11-25), where it is an annotation; --formats asserts it in every draft,
as ajv-formats does ("byte" is base64).

With --bblock, the IRIs the block's context produces and its ontology does
not declare are reported as warnings on standard error.

Each problem is printed as FILE:LINE: CODE KIND: message (at /pointer), with
the schema location when a schema found it, or the MCP rule and the address
of its section, then a summary; --format json prints one JSON object per
problem (with "rule" and "help" for an MCP rule), {"mcpVersion": ...} for
each run of messages of one MCP version, and a summary object; --format
sarif prints one SARIF 2.1.0 log for code-scanning tools: a result per
problem, with the id of its rule (an MCP rule's, or json-parse-error,
jsonrpc-invalid, schema, schema-unknown-method, mcp-version-no-schema,
json-text, shacl) and the rule's help address, the summary and MCP
versions in the run's properties. An input with no message, or not in
UTF-8, is one invalid message without a line; a gzip stream over
--max-decompressed-bytes or --max-compression-ratio ends with one. A member named twice in one object is a warning, without a code: the
last one is used, as most JSON readers do.

--shapes SHAPES (repeatable) also validates the graph of each log, as
"jrpcld rdf" makes it with the block, against SHACL shapes (see "jrpcld
shacl"): each result is a problem at the line of the message it is about,
with code -32600, an error for sh:Violation and a warning otherwise, and
the summary adds a line that counts the logs that conform and the results;
--inference and --map are those of "jrpcld shacl". Warnings do not change the exit
status: 0 when every message is valid, 1 when some are not (or, with --mcp,
were checked against no schema), 2 on a usage or I/O error.`

// validateOptions are the flags of validate.
type validateOptions struct {
	cmd                            string
	block                          *cli.BlockFlags
	schemaFile, definition, format string
	formats                        bool
	quiet                          *bool
	mcp                            *MCPFlags
	shapesFiles                    []string
	graph                          *shaclcmd.GraphFlags
	limits                         *cli.LimitFlags
	prof                           *cli.Profiler
}

func runValidate(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &validateOptions{cmd: c.Name}
	o.block = cli.AddBlockFlags(fs)
	fs.StringVar(&o.schemaFile, "schema", "", "validate against this schema `FILE` (JSON or YAML) instead of a block's")
	fs.StringVar(&o.definition, "definition", "", "check every message against this definition `NAME` (e.g. Request, #/$defs/X)")
	fs.StringVarP(&o.format, "format", "f", "text", "output `format`: text, json, or sarif (SARIF 2.1.0, for code-scanning tools)")
	fs.BoolVar(&o.formats, "formats", false, "assert \"format\" (uri, byte, ...) whatever the schema's draft")
	o.quiet = cli.AddQuietFlag(fs)
	o.mcp = AddMCPFlags(fs)
	fs.StringArrayVar(&o.shapesFiles, "shapes", nil, "also validate the graph of each log against SHACL shapes `FILE` (repeatable)")
	o.graph = shaclcmd.AddGraphFlags(fs)
	o.limits = cli.AddLimitFlags(fs)
	o.prof = cli.AddProfileFlags(fs)
	return o.run
}

func (o *validateOptions) run(e *cli.Env, files []string) error {
	if err := o.prof.Start(e, o.cmd); err != nil {
		return err
	}
	if err := o.limits.Check(); err != nil {
		return cli.Fail(err)
	}
	shapes, shapesCtx, err := shaclcmd.OpenShapes(e, o.cmd, o.shapesFiles, o.block, o.graph, files)
	if err != nil {
		return cli.Fail(err)
	}
	if o.format != "text" && o.format != "json" && o.format != "sarif" {
		return cli.Failf("--format must be text, json or sarif, not %q", o.format)
	}
	if o.schemaFile != "" && (o.block.Dir != "" || o.block.ID != "") {
		return cli.Failf("give --schema or --bblock, not both")
	}
	s, err := o.schema(e)
	if err != nil {
		return cli.Fail(err)
	}
	defer cli.TuneGC()()
	out := bufio.NewWriter(e.Stdout)
	defer out.Flush()
	printer := cli.NewErrorPrinter(out, o.limits.MaxErrors)
	sarif := newSARIFLog(o.limits.MaxErrors)
	emit := func(f schema.Finding) { printFinding(printer, sarif, o.format, f) }
	if len(files) == 0 {
		files = []string{"-"}
	}
	var total schema.Summary
	shaclSum := shaclcmd.Summary{RDFS: o.graph.Inference == "rdfs"}
	ioFailed := false
	for _, name := range files {
		fe, done := e, func() {}
		var ml *MCPLog
		if o.mcp.On {
			o.mcp.readerOpts = o.limits.ReaderOptions()
			ml, fe, done, err = o.mcp.Prepare(e, o.cmd, name)
			if err != nil {
				done()
				out.Flush()
				cli.Errorf(e, "validate", "%v", err)
				ioFailed = true
				continue
			}
			reportVersions(out, sarif, o.format, DisplayName(name), ml)
		}
		sum, err := validateFile(fe, s, o.definition, name, *o.quiet, o.limits.ReaderOptions(), ml, emit)
		done()
		total.Add(sum)
		if err == nil && shapes != nil {
			err = shaclSum.Add(e, o.cmd, shapes, shapesCtx, name, o.limits.ReaderOptions(), emit)
		}
		if err != nil {
			out.Flush()
			cli.Errorf(e, "validate", "%v", err)
			ioFailed = true
		}
	}
	if ioFailed {
		if o.format == "text" {
			printer.Summary(o.cmd)
		}
		if o.format == "sarif" {
			sarif.write(out, total.Object(len(files)), false)
		}
		// A usage or I/O error: no summary, which would count files that
		// were not read.
		return cli.ExitError(cli.ExitUsage)
	}
	if err := o.writeSummary(out, printer, sarif, len(files), total, shapes != nil, &shaclSum); err != nil {
		return err
	}
	if total.InvalidCount() > 0 || total.Unchecked > 0 || shaclSum.Violations > 0 {
		return cli.ExitError(cli.ExitInvalid)
	}
	return nil
}

// schema compiles the schema of --schema, or the block's (nil when it has
// none), or gets --mcp ready: each log's schema is then chosen as it is
// read.
func (o *validateOptions) schema(e *cli.Env) (*schema.Schema, error) {
	compiler := &schema.Compiler{Formats: o.formats}
	bf := o.block
	if err := o.mcp.Open(compiler, "--schema, --bblock or --definition", o.schemaFile != "" || bf.Dir != "" || bf.ID != "" || o.definition != ""); err != nil {
		return nil, err
	}
	switch {
	case o.mcp.On:
		return nil, nil
	case o.schemaFile != "":
		return compiler.CompileFile(o.schemaFile)
	}
	b, reg, err := bf.Open(e, o.cmd)
	if err != nil {
		return nil, err
	}
	if bf.Dir != "" {
		blockdoc.ReportOntology(e, o.cmd, b, reg, bf.CtxMap.Options())
	}
	if b.Files.Schema != "" {
		return compiler.Compile(b, reg)
	} else if o.definition != "" {
		return nil, fmt.Errorf("block %s has no schema, so no definition %q", b.ID, o.definition)
	}
	return nil, nil
}

// writeSummary writes the summary of the run, after the problems: a text
// line (and the count of problems not printed, first), a JSON object, or
// the SARIF log, problems and summary.
func (o *validateOptions) writeSummary(out io.Writer, printer *cli.ErrorPrinter, sarif *sarifLog, files int, total schema.Summary, withShapes bool, shaclSum *shaclcmd.Summary) error {
	if o.format == "text" {
		printer.Summary(o.cmd)
		writeSummary(out, files, total)
		if withShapes {
			shaclSum.Write(out)
		}
		return nil
	}
	sum := total.Object(files)
	if withShapes {
		sum["shacl"] = shaclSum.Object()
	}
	if o.format == "sarif" {
		return sarif.write(out, sum, true)
	}
	sum["notPrinted"] = printer.Dropped()
	line, _ := json.Marshal(map[string]any{"summary": sum})
	fmt.Fprintf(out, "%s\n", line)
	return nil
}

// printFinding prints one problem f through printer, in format text or
// json, or adds it to the SARIF log.
func printFinding(printer *cli.ErrorPrinter, sarif *sarifLog, format string, f schema.Finding) {
	switch format {
	case "sarif":
		sarif.add(f)
		return
	case "json":
		line, _ := json.Marshal(f.Object())
		printer.Print("%s\n", line)
		return
	}
	sev := ""
	if f.Severity == diag.Warning {
		sev = "warning: "
	}
	var parts []string
	if f.Pointer != "" {
		parts = append(parts, "at "+f.Pointer)
	}
	if f.Schema != "" {
		parts = append(parts, "schema "+f.Schema)
	}
	if f.Rule != "" {
		parts = append(parts, "rule "+f.Rule+", "+f.Help)
	}
	where := ""
	if len(parts) > 0 {
		where = " (" + strings.Join(parts, "; ") + ")"
	}
	pos := f.File // a problem of the whole input has no line
	if f.Line > 0 {
		pos += ":" + strconv.Itoa(f.Line)
	}
	code := "" // a warning about the JSON text has no JSON-RPC code
	if f.Code != 0 {
		code = strconv.Itoa(f.Code) + " "
	}
	line := fmt.Sprintf("%s: %s%s: %s%s%s", pos, code, f.Kind, sev, f.Message, where)
	printer.Print("%s\n", termsafe.Escape(line)) // the file, message and pointer may hold anything
}

func validateFile(e *cli.Env, s *schema.Schema, definition, name string, quiet bool, opts rpclog.ReaderOptions, ml *MCPLog, emit func(schema.Finding)) (schema.Summary, error) {
	var in io.Reader = e.Stdin
	var size int64
	display := name
	if name == "-" {
		display = "stdin"
		in = cli.StdinReader(e)
	} else {
		f, err := os.Open(name)
		if err != nil {
			return schema.Summary{}, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			if st.IsDir() {
				return schema.Summary{}, cli.ErrIsDir(name)
			}
			size = st.Size()
		}
		in = f
	}
	var read atomic.Int64
	bar := cli.WatchBytes(e, quiet, size, &read)
	defer bar.Done()
	br := bufio.NewReaderSize(cli.CountingReader{R: in, N: &read}, 64<<10)
	head, _ := br.Peek(512)
	if err := cli.NotALog(name, display, head); err != nil {
		return schema.Summary{}, err
	}
	r, err := rpclog.NewReader(br, display, opts)
	if err != nil {
		return schema.Summary{}, err // the error names the input
	}
	checker, err := schema.NewChecker(s, definition)
	if err != nil {
		return schema.Summary{}, err
	}
	ml.Observe(checker)
	t := ml.tally(emit)
	t.start(display)
	sum, err := schema.ValidateLog(r, checker, display, t.emit)
	if err != nil {
		err = fmt.Errorf("%s: %w", display, err)
	}
	t.end(display, &sum)
	return sum, err
}

func writeSummary(w io.Writer, files int, s schema.Summary) {
	plural := func(n int, word string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, word)
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	fmt.Fprintf(w, "%s, %s: %d valid, %d invalid", plural(files, "file"), plural(s.Messages, "message"), s.Valid, s.InvalidCount())
	if len(s.Invalid) > 0 {
		fmt.Fprintf(w, " (%s)", countsByKind(s.Invalid))
	}
	if s.Unchecked > 0 {
		fmt.Fprintf(w, ", %d unchecked (no schema for their MCP version)", s.Unchecked)
	}
	if s.Warnings > 0 {
		fmt.Fprintf(w, ", %s", plural(s.Warnings, "warning"))
	}
	fmt.Fprintln(w)
	if len(s.Kinds) > 0 {
		fmt.Fprintf(w, "kinds: %s\n", countsByKind(s.Kinds))
	}
}

// countsByKind lists counts as "request 3, response 2", in the order of the
// JSON-RPC kinds.
func countsByKind(m map[string]int) string {
	order := map[string]int{"request": 0, "notification": 1, "response": 2, "error-response": 3, "batch": 4, "invalid": 5}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return order[keys[i]] < order[keys[j]] })
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
