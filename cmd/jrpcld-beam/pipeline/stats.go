package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/rpclog"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/jrpcld/jrpcld/stats"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(string), error](&statsFn{})
	register.Emitter1[string]()
}

// StatsOptions configure Stats.
type StatsOptions struct {
	// Input is a glob of log files on any Beam filesystem; each is one log.
	Input string
	// Output is the file written: one JSON object per line, one line per
	// log, in no particular order.
	Output string
	// BBlock and ID choose the building block whose schema checks the
	// messages, as jrpcld stats --bblock and --id do; with none, the
	// JSON-RPC 2.0 rules alone, as jrpcld stats without --bblock.
	BBlock, ID string
}

// Stats adds to s the summary of each log opts.Input names, made by
// package stats as "jrpcld stats --format json" makes it: each line of the
// output is one member of that command's "logs" array. There is no total
// yet (see docs/beam.md). It returns an error when the options cannot
// work, before any transform is added.
func Stats(s beam.Scope, opts StatsOptions) error {
	if opts.Input == "" || opts.Output == "" {
		return errors.New("both an input glob and an output file are needed")
	}
	if _, err := compileSchema(opts.BBlock, opts.ID); err != nil {
		return err
	}
	s = s.Scope("jrpcld.Stats")
	files := fileio.MatchFiles(s, opts.Input, fileio.MatchEmptyDisallow())
	readable := fileio.ReadMatches(s, files, fileio.ReadUncompressed(), fileio.ReadDirectorySkip())
	lines := beam.ParDo(s, &statsFn{BBlock: opts.BBlock, ID: opts.ID}, readable)
	textio.Write(s, opts.Output, lines)
	return nil
}

// compileSchema compiles the schema of the block dir and id name, as jrpcld
// stats does; nil, for the JSON-RPC rules alone, when dir is empty.
func compileSchema(dir, id string) (*schema.Schema, error) {
	if dir == "" {
		if id != "" {
			return nil, errors.New("a block id needs a block folder")
		}
		return nil, nil
	}
	b, reg, err := bblock.Open(dir, id, nil)
	if err != nil {
		return nil, fmt.Errorf("building block: %w", err)
	}
	if b.Files.Schema == "" {
		return nil, fmt.Errorf("building block %s has no schema to validate with", b.ID)
	}
	s, err := (&schema.Compiler{}).Compile(b, reg)
	if err != nil {
		return nil, fmt.Errorf("building block %s: %w", b.ID, err)
	}
	return s, nil
}

// openLog opens a log file for reading, refusing a graph (jrpcld stats
// and jrpcld json read those); in is to be closed once r is read.
func openLog(ctx context.Context, file fileio.ReadableFile) (r *rpclog.Reader, in io.Closer, err error) {
	path := file.Metadata.Path
	rc, err := file.Open(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	br := bufio.NewReaderSize(rc, 64<<10)
	head, _ := br.Peek(512)
	if _, ok := stats.GraphFormat(path, head); ok {
		rc.Close()
		return nil, nil, fmt.Errorf("%s: a graph, not a message log: jrpcld-beam reads logs only (jrpcld stats and jrpcld json read graphs)", path)
	}
	r, err = rpclog.NewReader(br, path, rpclog.ReaderOptions{})
	if err != nil {
		rc.Close()
		return nil, nil, err // the error names the input
	}
	return r, rc, nil
}

// statsFn summarises one whole log file with a stats.Collector and emits
// its LogStats as one line of JSON.
type statsFn struct {
	BBlock, ID string

	schema  *schema.Schema
	invalid beam.Counter
}

func (f *statsFn) Setup() error {
	var err error
	f.schema, err = compileSchema(f.BBlock, f.ID)
	f.invalid = beam.NewCounter("jrpcld", "invalid")
	return err
}

func (f *statsFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(string)) error {
	path := file.Metadata.Path
	r, in, err := openLog(ctx, file)
	if err != nil {
		return err
	}
	defer in.Close()
	opts := stats.Options{}
	if f.schema != nil {
		opts.Checker, _ = schema.NewChecker(f.schema, "") // cannot fail without a definition
		opts.Schema = f.schema.Name()
	}
	c := stats.NewCollector(opts)
	if err := stats.ReadLog(r, c); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	l := &stats.LogStats{File: path, Stats: c.Stats()}
	data, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	f.invalid.Inc(ctx, int64(l.InvalidMessages()))
	emit(string(data))
	return nil
}

// Invalid returns the number of invalid records a finished Stats run
// counted, when its runner reports metrics; zero otherwise.
func Invalid(res beam.PipelineResult) int64 {
	if res == nil {
		return 0
	}
	var n int64
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Key.Namespace == "jrpcld" && c.Key.Name == "invalid" {
			n += c.Result()
		}
	}
	return n
}
