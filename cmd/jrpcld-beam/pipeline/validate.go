package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/jrpcld/jrpcld/schema"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(Tally), error](&validateFn{})
	register.Emitter1[Tally]()
	register.Combiner3[Tally, Tally, string](&tallyFn{})
}

// DefaultMaxErrors is how many problems Validate writes by default, as
// jrpcld validate --max-errors.
const DefaultMaxErrors = 1000

// ValidateOptions configure Validate.
type ValidateOptions struct {
	// Input is a glob of log files on any Beam filesystem; each is one log.
	Input string
	// Output is the file written: what jrpcld validate --format json prints
	// for the same files given in the byte order of their paths.
	Output string
	// BBlock and ID choose the building block whose schema checks the
	// messages, as jrpcld validate --bblock and --id do; Schema, a schema
	// file instead, as --schema (read on the workers, at the same path);
	// with neither, the embedded JSON-RPC 2.0 block's.
	BBlock, ID, Schema string
	// Definition names the definition every message is checked against,
	// as --definition.
	Definition string
	// Formats asserts "format" whatever the schema's draft, as --formats.
	Formats bool
	// MaxErrors bounds the problems written, as --max-errors; the rest are
	// counted in the summary's "notPrinted". 0 means DefaultMaxErrors.
	MaxErrors int
}

// Tally is what validating some logs found: how many files, the
// schema.Summary of their messages added up, the first problems as JSON
// lines, and how many problems there were in all.
type Tally struct {
	Files   int
	Summary schema.Summary
	// Logs holds the problems kept, by log in the byte order of the paths,
	// at most the bound on problems written in all.
	Logs []LogProblems
	// Problems counts every problem found, kept or not.
	Problems int
}

// LogProblems are the problems of one log, as JSON lines, in log order.
type LogProblems struct {
	File  string
	Lines []string
}

// Validate adds to s the validation of each log opts.Input names with
// schema.ValidateLog, as "jrpcld validate" does, and a combiner that
// gathers the problems and adds the summaries up. The output is what
// "jrpcld validate --format json" prints for the same files in the byte
// order of their paths: one JSON object per problem, at most
// opts.MaxErrors, then the summary object. It returns an error when the
// options cannot work, before any transform is added.
func Validate(s beam.Scope, opts ValidateOptions) error {
	if opts.Input == "" || opts.Output == "" {
		return errors.New("both an input glob and an output file are needed")
	}
	if opts.MaxErrors < 0 {
		return fmt.Errorf("the bound on problems written must be positive, not %d", opts.MaxErrors)
	}
	if opts.MaxErrors == 0 {
		opts.MaxErrors = DefaultMaxErrors
	}
	sch, err := compileSchema(opts.BBlock, opts.ID, opts.Schema, opts.Formats, true)
	if err != nil {
		return err
	}
	if opts.Definition != "" && sch == nil {
		return fmt.Errorf("the building block has no schema, so no definition %q", opts.Definition)
	}
	if _, err := schema.NewChecker(sch, opts.Definition); err != nil {
		return err
	}
	if err := checkInputOutput(opts.Input, opts.Output); err != nil {
		return err
	}
	s = s.Scope("jrpcld.Validate")
	readable := readInput(s, opts.Input)
	tallies := beam.ParDo(s, &validateFn{BBlock: opts.BBlock, ID: opts.ID, Schema: opts.Schema, Definition: opts.Definition,
		Formats: opts.Formats, MaxErrors: opts.MaxErrors}, readable)
	textio.Write(s, opts.Output, beam.Combine(s, &tallyFn{MaxErrors: opts.MaxErrors}, tallies))
	return nil
}

// validateFn validates one whole log file and emits its Tally, with its
// first MaxErrors problems.
type validateFn struct {
	BBlock, ID, Schema, Definition string
	Formats                        bool
	MaxErrors                      int

	schema *schema.Schema
}

func (f *validateFn) Setup() error {
	var err error
	f.schema, err = compileSchema(f.BBlock, f.ID, f.Schema, f.Formats, true)
	return err
}

func (f *validateFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(Tally)) error {
	path := file.Metadata.Path
	r, in, err := openLog(ctx, file)
	if err != nil {
		return err
	}
	defer in.Close()
	checker, err := schema.NewChecker(f.schema, f.Definition)
	if err != nil {
		return err
	}
	var lines []string
	found := 0
	sum, err := schema.ValidateLog(r, checker, path, func(fd schema.Finding) {
		if found++; len(lines) < f.MaxErrors {
			data, _ := json.Marshal(fd.Object())
			lines = append(lines, string(data))
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	t := Tally{Files: 1, Summary: sum, Problems: found}
	if len(lines) > 0 {
		t.Logs = []LogProblems{{File: path, Lines: lines}}
	}
	emit(t)
	return nil
}

// tallyFn adds Tallies up, keeping the first MaxErrors problems, and
// writes them and the total as jrpcld validate --format json does.
type tallyFn struct {
	MaxErrors int
}

func (tallyFn) CreateAccumulator() Tally { return Tally{} }

func (f tallyFn) AddInput(a, t Tally) Tally { return addTally(a, t, f.MaxErrors) }

func (f tallyFn) MergeAccumulators(a, b Tally) Tally { return addTally(a, b, f.MaxErrors) }

func (tallyFn) ExtractOutput(a Tally) string {
	var b strings.Builder
	printed := 0
	for _, l := range a.Logs {
		for _, line := range l.Lines {
			b.WriteString(line)
			b.WriteByte('\n')
			printed++
		}
	}
	sum := a.Summary.Object(a.Files)
	sum["notPrinted"] = a.Problems - printed
	data, _ := json.Marshal(map[string]any{"summary": sum})
	b.Write(data)
	return b.String()
}

// addTally returns a plus b, leaving both unchanged: of their problems, the
// first max in the order of the logs' paths.
func addTally(a, b Tally, max int) Tally {
	out := Tally{Files: a.Files + b.Files, Problems: a.Problems + b.Problems}
	out.Summary.Add(a.Summary)
	out.Summary.Add(b.Summary)
	logs := append(slices.Clone(a.Logs), b.Logs...)
	slices.SortFunc(logs, func(x, y LogProblems) int { return strings.Compare(x.File, y.File) })
	kept := 0
	for i, l := range logs {
		if kept+len(l.Lines) >= max {
			logs[i].Lines = l.Lines[:max-kept]
			logs = logs[:i+1]
			break
		}
		kept += len(l.Lines)
	}
	out.Logs = logs
	return out
}
