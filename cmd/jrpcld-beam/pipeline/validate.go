package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/schema"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(Tally), error](&validateFn{})
	register.Emitter1[Tally]()
	register.Combiner3[Tally, Tally, string](&tallyFn{})
}

// ValidateOptions configure Validate.
type ValidateOptions struct {
	// Input is a glob of log files on any Beam filesystem; each is one log.
	Input string
	// Output is the file written: one JSON object, {"summary": {...}}.
	Output string
	// BBlock and ID choose the building block whose schema checks the
	// messages, as jrpcld validate --bblock and --id do; with none, the
	// embedded JSON-RPC 2.0 block's, as jrpcld validate without --bblock.
	BBlock, ID string
}

// Tally is what validating some logs found: how many files, and the
// schema.Summary of their messages added up.
type Tally struct {
	Files   int
	Summary schema.Summary
}

// Validate adds to s the validation of each log opts.Input names with
// schema.ValidateLog, as "jrpcld validate" does, and a combiner that adds
// the summaries up into the summary object "jrpcld validate --format json"
// prints last (without its "notPrinted": the problems themselves go to the
// workers' logs, the first 20 of each log). It returns an error when the
// options cannot work, before any transform is added.
func Validate(s beam.Scope, opts ValidateOptions) error {
	if opts.Input == "" || opts.Output == "" {
		return errors.New("both an input glob and an output file are needed")
	}
	if _, err := blockSchema(opts.BBlock, opts.ID); err != nil {
		return err
	}
	s = s.Scope("jrpcld.Validate")
	files := fileio.MatchFiles(s, opts.Input, fileio.MatchEmptyDisallow())
	readable := fileio.ReadMatches(s, files, fileio.ReadUncompressed(), fileio.ReadDirectorySkip())
	tallies := beam.ParDo(s, &validateFn{BBlock: opts.BBlock, ID: opts.ID}, readable)
	textio.Write(s, opts.Output, beam.Combine(s, &tallyFn{}, tallies))
	return nil
}

// blockSchema compiles the schema of the block dir and id name (the
// embedded block when dir is empty), as jrpcld validate does; nil when the
// block has none, for the JSON-RPC rules alone.
func blockSchema(dir, id string) (*schema.Schema, error) {
	if id != "" && dir == "" {
		return nil, errors.New("a block id needs a block folder")
	}
	b, reg, err := bblock.Open(dir, id, nil)
	if err != nil {
		return nil, fmt.Errorf("building block: %w", err)
	}
	if b.Files.Schema == "" {
		return nil, nil
	}
	s, err := (&schema.Compiler{}).Compile(b, reg)
	if err != nil {
		return nil, fmt.Errorf("building block %s: %w", b.ID, err)
	}
	return s, nil
}

// validateFn validates one whole log file and emits its Tally.
type validateFn struct {
	BBlock, ID string

	schema *schema.Schema
}

func (f *validateFn) Setup() error {
	var err error
	f.schema, err = blockSchema(f.BBlock, f.ID)
	return err
}

func (f *validateFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(Tally)) error {
	path := file.Metadata.Path
	r, in, err := openLog(ctx, file)
	if err != nil {
		return err
	}
	defer in.Close()
	checker, err := schema.NewChecker(f.schema, "")
	if err != nil {
		return err
	}
	reported := 0
	sum, err := schema.ValidateLog(r, checker, path, func(fd schema.Finding) {
		if reported < maxReported {
			reported++
			log.Warnf(ctx, "%s:%d: %d %s: %s (at %s)", fd.File, fd.Line, fd.Code, fd.Kind, fd.Message, fd.Pointer)
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	emit(Tally{Files: 1, Summary: sum})
	return nil
}

// tallyFn adds Tallies up, and writes the total as jrpcld validate's
// summary object.
type tallyFn struct{}

func (tallyFn) CreateAccumulator() Tally { return Tally{} }

func (tallyFn) AddInput(a, t Tally) Tally { return addTally(a, t) }

func (tallyFn) MergeAccumulators(a, b Tally) Tally { return addTally(a, b) }

func (tallyFn) ExtractOutput(a Tally) string {
	s := a.Summary
	kinds, invalid := s.Kinds, s.Invalid
	if kinds == nil {
		kinds = map[string]int{}
	}
	if invalid == nil {
		invalid = map[string]int{}
	}
	data, _ := json.Marshal(map[string]any{"summary": map[string]any{
		"files": a.Files, "messages": s.Messages, "valid": s.Valid, "invalid": s.InvalidCount(),
		"warnings": s.Warnings, "kinds": kinds, "invalidByKind": invalid}})
	return string(data)
}

// addTally returns a plus b, leaving both unchanged.
func addTally(a, b Tally) Tally {
	out := Tally{Files: a.Files + b.Files}
	out.Summary.Add(a.Summary)
	out.Summary.Add(b.Summary)
	return out
}
