package main

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

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/spf13/pflag"
)

func validateCommand() command {
	c := command{name: "validate", args: "[--bblock DIR [--id ID] | --schema FILE | --mcp [--mcp-schemas DIR] [--mcp-version V]] [--definition NAME] [--formats] [--shapes SHAPES] [--format text|json] [-q] [FILE...|-]",
		summary: "check messages and logs against JSON-RPC 2.0 and a schema"}
	c.help = validateHelp + "\n\n" + mcpHelp + "\n\n" + profileHelp
	c.setup = runValidate
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
the schema location when a schema found it, then a summary; --format json
prints one JSON object per problem and a summary object. An input with no
message, or not in UTF-8, is one invalid message without a line; a gzip
stream over --max-decompressed-bytes or --max-compression-ratio ends with
one. A member named twice in one object is a warning, without a code: the
last one is used, as most JSON readers do.

--shapes SHAPES (repeatable) also validates the graph of each log, as
"jrpcld rdf" makes it with the block, against SHACL shapes (see "jrpcld
shacl"): each result is a problem at the line of the message it is about,
an error for sh:Violation and a warning otherwise. Warnings do not change the exit
status: 0 when every message is valid, 1 when some are not, 2 on a usage or
I/O error.`

func runValidate(c *command, fs *pflag.FlagSet) func(e *env, args []string) int {
	bf := addBlockFlags(fs)
	schemaFile := fs.String("schema", "", "validate against this schema `FILE` (JSON or YAML) instead of a block's")
	definition := fs.String("definition", "", "check every message against this definition `NAME` (e.g. Request, #/$defs/X)")
	format := fs.StringP("format", "f", "text", "output `format`: text or json")
	formats := fs.Bool("formats", false, "assert \"format\" (uri, byte, ...) whatever the schema's draft")
	quiet := addQuietFlag(fs)
	mf := addMCPFlags(fs)
	shapesFiles := fs.StringArray("shapes", nil, "also validate the graph of each log against SHACL shapes `FILE` (repeatable)")
	limits := addLimitFlags(fs)
	prof := addProfileFlags(fs)
	return func(e *env, files []string) int {
		if !prof.start(e, c.name) {
			return exitUsage
		}
		defer prof.stop()
		if err := limits.check(); err != nil {
			errorf(e, "validate", "%v", err)
			return exitUsage
		}
		shapes, shapesCtx, err := openShapes(e, c.name, *shapesFiles, bf, files)
		if err != nil {
			errorf(e, "validate", "%v", err)
			return exitUsage
		}
		if *format != "text" && *format != "json" {
			errorf(e, "validate", "--format must be text or json, not %q", *format)
			return exitUsage
		}
		if *schemaFile != "" && (bf.dir != "" || bf.id != "") {
			errorf(e, "validate", "give --schema or --bblock, not both")
			return exitUsage
		}

		var s *schema.Schema
		compiler := &schema.Compiler{Formats: *formats}
		if err := mf.open(compiler, "--schema, --bblock or --definition", *schemaFile != "" || bf.dir != "" || bf.id != "" || *definition != ""); err != nil {
			errorf(e, "validate", "%v", err)
			return exitUsage
		}
		if mf.on {
			// Each log's schema is chosen below.
		} else if *schemaFile != "" {
			s, err = compiler.CompileFile(*schemaFile)
		} else {
			var b *bblock.Block
			var reg *bblock.Register
			if b, reg, err = bf.open(e, c.name); err == nil {
				if bf.dir != "" {
					reportOntology(e, c.name, b, reg, bf.ctxMap.options())
				}
				if b.Files.Schema != "" {
					s, err = compiler.Compile(b, reg)
				} else if *definition != "" {
					err = fmt.Errorf("block %s has no schema, so no definition %q", b.ID, *definition)
				}
			}
		}
		if err != nil {
			errorf(e, "validate", "%v", err)
			return exitUsage
		}

		defer tuneGC()()
		out := bufio.NewWriter(e.stdout)
		defer out.Flush()
		printer := &errorPrinter{w: out, limit: limits.maxErrors}
		emit := func(f schema.Finding) {
			if *format == "json" {
				line, _ := json.Marshal(f.Object())
				printer.print("%s\n", line)
				return
			}
			sev := ""
			if f.Severity == diag.Warning {
				sev = "warning: "
			}
			where := ""
			switch {
			case f.Pointer != "" && f.Schema != "":
				where = fmt.Sprintf(" (at %s; schema %s)", f.Pointer, f.Schema)
			case f.Pointer != "":
				where = fmt.Sprintf(" (at %s)", f.Pointer)
			case f.Schema != "":
				where = fmt.Sprintf(" (schema %s)", f.Schema)
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
			printer.print("%s\n", termsafe.Escape(line)) // the file, message and pointer may hold anything
		}

		if len(files) == 0 {
			files = []string{"-"}
		}
		var total schema.Summary
		var shaclSum shaclSummary
		ioFailed := false
		for _, name := range files {
			fe, done := e, func() {}
			if mf.on {
				s, fe, done, err = mf.schemaFor(e, c.name, name)
				if err != nil {
					done()
					out.Flush()
					errorf(e, "validate", "%v", err)
					ioFailed = true
					continue
				}
			}
			sum, err := validateFile(fe, s, *definition, name, *quiet, limits.readerOptions(), emit)
			done()
			total.Add(sum)
			if err == nil && shapes != nil {
				err = shaclSum.add(e, c.name, shapes, shapesCtx, name, limits.readerOptions(), emit)
			}
			if err != nil {
				out.Flush()
				errorf(e, "validate", "%v", err)
				ioFailed = true
			}
		}
		switch {
		case *format == "text":
			printer.summary(c.name)
			if ioFailed {
				// A usage or I/O error: no summary, which would count
				// files that were not read.
				return exitUsage
			}
			writeSummary(out, len(files), total)
			if shapes != nil {
				shaclSum.write(out)
			}
		case ioFailed:
			return exitUsage
		default:
			sum := total.Object(len(files))
			sum["notPrinted"] = printer.dropped
			if shapes != nil {
				sum["shacl"] = shaclSum.object()
			}
			line, _ := json.Marshal(map[string]any{"summary": sum})
			fmt.Fprintf(out, "%s\n", line)
		}
		if total.InvalidCount() > 0 || shaclSum.violations > 0 {
			return exitInvalid
		}
		return exitOK
	}
}

func validateFile(e *env, s *schema.Schema, definition, name string, quiet bool, opts rpclog.ReaderOptions, emit func(schema.Finding)) (schema.Summary, error) {
	var in io.Reader = e.stdin
	var size int64
	display := name
	if name == "-" {
		display = "stdin"
		in = stdinReader(e)
	} else {
		f, err := os.Open(name)
		if err != nil {
			return schema.Summary{}, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			if st.IsDir() {
				return schema.Summary{}, errIsDir(name)
			}
			size = st.Size()
		}
		in = f
	}
	var read atomic.Int64
	bar := watchBytes(e, quiet, size, &read)
	defer bar.done()
	br := bufio.NewReaderSize(countingReader{in, &read}, 64<<10)
	head, _ := br.Peek(512)
	if err := notALog(name, display, head); err != nil {
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
	sum, err := schema.ValidateLog(r, checker, display, emit)
	if err != nil {
		err = fmt.Errorf("%s: %w", display, err)
	}
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
