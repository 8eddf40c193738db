package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/jsonrpc/stats"
	"github.com/jrpcld/jrpcld/schema"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(StatsReport), error](&statsFn{})
	register.Emitter1[StatsReport]()
	register.Combiner3[StatsReport, StatsReport, string](&statsReportFn{})
	beam.RegisterCoder(reflect.TypeOf(StatsReport{}), encodeStatsReport, decodeStatsReport)
}

// StatsOptions configure Stats.
type StatsOptions struct {
	// Input is a glob of log files on any Beam filesystem; each is one log.
	Input string
	// Output is the file written: the JSON object "jrpcld stats --format
	// json" prints for the same files, given in the byte order of their paths.
	Output string
	// BBlock and ID choose the building block whose schema checks the
	// messages, as jrpcld stats --bblock and --id do; Schema, a schema file
	// instead, as --schema (read on the workers, at the same path); with
	// neither, the JSON-RPC 2.0 rules alone, as jrpcld stats without them.
	BBlock, ID, Schema string
	// Formats asserts "format" whatever the schema's draft, as --formats.
	Formats bool
}

// StatsReport is what summarising some logs gave: each log's member of the
// "logs" array, and the Stats of them all added up.
type StatsReport struct {
	Logs  []LogJSON
	Total *stats.Stats
}

// LogJSON is the summary of one log as JSON.
type LogJSON struct {
	File string
	JSON []byte
}

// encodeStatsReport and decodeStatsReport are the Beam coder of a
// StatsReport: gob, in which the Stats keep their latency distributions
// whole (stats.Stats.MarshalBinary).
func encodeStatsReport(r StatsReport) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(r)
	return b.Bytes(), err
}

func decodeStatsReport(data []byte) (StatsReport, error) {
	var r StatsReport
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&r); err != nil {
		return r, err
	}
	if r.Total == nil {
		r.Total = stats.NewStats()
	}
	return r, nil
}

// Stats adds to s the summary of each log opts.Input names, made by
// package stats as "jrpcld stats --format json" makes it, and a combiner
// that adds them up (stats.Stats.Add) into the total. The output is the
// JSON object that command prints for the same files given in the byte
// order of their paths: "logs" in that order, and "total". It returns an
// error when the options cannot work, before any transform is added.
func Stats(s beam.Scope, opts StatsOptions) error {
	if opts.Input == "" || opts.Output == "" {
		return errors.New("both an input glob and an output file are needed")
	}
	if _, err := compileSchema(opts.BBlock, opts.ID, opts.Schema, opts.Formats, false); err != nil {
		return err
	}
	if err := checkInputOutput(opts.Input, opts.Output); err != nil {
		return err
	}
	s = s.Scope("jrpcld.Stats")
	readable := readInput(s, opts.Input)
	reports := beam.ParDo(s, &statsFn{BBlock: opts.BBlock, ID: opts.ID, Schema: opts.Schema, Formats: opts.Formats}, readable)
	textio.Write(s, opts.Output, beam.Combine(s, &statsReportFn{}, reports))
	return nil
}

// compileSchema compiles the schema that checks messages, as jrpcld stats
// and validate choose it: the schema file, or the schema of the block dir
// and id name. Without either, the embedded block's schema when embedded
// is set (validate), else nil for the JSON-RPC rules alone (stats). A block
// without a schema is an error for stats, the rules alone for validate.
func compileSchema(dir, id, file string, formats, embedded bool) (*schema.Schema, error) {
	switch {
	case file != "" && (dir != "" || id != ""):
		return nil, errors.New("give a schema file or a building block, not both")
	case id != "" && dir == "":
		return nil, errors.New("a block id needs a block folder")
	}
	compiler := &schema.Compiler{Formats: formats}
	if file != "" {
		return compiler.CompileFile(file)
	}
	if dir == "" && !embedded {
		return nil, nil
	}
	b, reg, err := bblock.Open(dir, id, nil)
	if err != nil {
		return nil, fmt.Errorf("building block: %w", err)
	}
	if b.Files.Schema == "" {
		if embedded {
			return nil, nil
		}
		return nil, fmt.Errorf("building block %s has no schema to validate with", b.ID)
	}
	s, err := compiler.Compile(b, reg)
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
	if _, ok := rpclog.GraphFormat(path, head); ok {
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
// a StatsReport of that log alone.
type statsFn struct {
	BBlock, ID, Schema string
	Formats            bool

	schema  *schema.Schema
	invalid beam.Counter
}

func (f *statsFn) Setup() error {
	var err error
	f.schema, err = compileSchema(f.BBlock, f.ID, f.Schema, f.Formats, false)
	f.invalid = beam.NewCounter("jrpcld", "invalid")
	return err
}

func (f *statsFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(StatsReport)) error {
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
	emit(StatsReport{Logs: []LogJSON{{File: path, JSON: data}}, Total: l.Stats})
	return nil
}

// statsReportFn adds StatsReports up, and writes the result as jrpcld
// stats --format json writes its report.
type statsReportFn struct{}

func (statsReportFn) CreateAccumulator() StatsReport { return StatsReport{Total: stats.NewStats()} }

func (statsReportFn) AddInput(a, r StatsReport) StatsReport { return addReport(a, r) }

func (statsReportFn) MergeAccumulators(a, b StatsReport) StatsReport { return addReport(a, b) }

func (statsReportFn) ExtractOutput(a StatsReport) (string, error) {
	slices.SortFunc(a.Logs, func(x, y LogJSON) int { return strings.Compare(x.File, y.File) })
	logs := make([]json.RawMessage, len(a.Logs))
	for i, l := range a.Logs {
		logs[i] = l.JSON
	}
	data, err := json.MarshalIndent(struct {
		Logs  []json.RawMessage `json:"logs"`
		Total *stats.Stats      `json:"total"`
	}{logs, a.Total}, "", "  ")
	return string(data), err
}

// addReport adds b to the accumulator a and returns it.
func addReport(a, b StatsReport) StatsReport {
	if a.Total == nil {
		a.Total = stats.NewStats()
	}
	a.Logs = append(a.Logs, b.Logs...)
	if b.Total != nil {
		a.Total.Add(b.Total)
	}
	return a
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
