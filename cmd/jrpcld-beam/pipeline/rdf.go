package pipeline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/jrpcld/jrpcld/bblock"
	jsonld "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jlog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rpclog"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(int, string), error](&convertFn{})
	register.Emitter2[int, string]()
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeShardFn{})
	register.Iter1[string]()
	register.Function1x2[int, int, string](emptyShard)
}

// RDFOptions configure RDF.
type RDFOptions struct {
	// Input is a glob of log files on any Beam filesystem (a local path,
	// gs://, s3://, ...). Each file is one log; a gzip-compressed one is
	// recognised by its content, as the command line does.
	Input string
	// Output is the prefix of the shards written: PREFIX-SSSSS-of-NNNNN.nq.
	Output string
	// Shards is the number of output files, 1 or more. All the lines of
	// one log go to the same shard.
	Shards int
	// BBlock and ID choose the building block as jrpcld's --bblock and
	// --id do; empty for the embedded JSON-RPC 2.0 block. The folder must
	// be readable where the workers run.
	BBlock, ID string
	// Engine is the mapping engine: "compiled" (the default when empty)
	// or "json-gold".
	Engine string
}

// ShardName returns the name of shard i of n written with prefix.
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.nq", prefix, i, n)
}

// LogIRI returns the IRI a log read from path is given: the file: URL of a
// local path, as "jrpcld rdf" gives it without --base, and the path itself
// when it is a URL (gs://bucket/log.jsonl).
func LogIRI(path string) string {
	if i := strings.Index(path, "://"); i > 0 && rdf.CheckIRI(path) == nil {
		return path
	}
	return jlog.DefaultLogIRI(path)
}

// RDF adds to s the conversion of the logs opts.Input names into N-Quads
// shards. It returns an error when the options cannot work, before any
// transform is added.
func RDF(s beam.Scope, opts RDFOptions) error {
	if opts.Input == "" || opts.Output == "" {
		return errors.New("both an input glob and an output prefix are needed")
	}
	if opts.Shards < 1 {
		return fmt.Errorf("shards: %d: want 1 or more", opts.Shards)
	}
	if opts.Engine == "" {
		opts.Engine = "compiled"
	}
	if _, err := convert.ParseEngine(opts.Engine); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	// The block is loaded once here, so that a wrong --bblock is a usage
	// error and not a failure on every worker.
	if _, err := openContext(opts.BBlock, opts.ID); err != nil {
		return err
	}
	s = s.Scope("jrpcld.RDF")
	files := fileio.MatchFiles(s, opts.Input, fileio.MatchEmptyDisallow())
	// rpclog recognises gzip by its content, within its own limits: the
	// bytes go to it as they are.
	readable := fileio.ReadMatches(s, files, fileio.ReadUncompressed(), fileio.ReadDirectorySkip())
	chunks := beam.ParDo(s, &convertFn{BBlock: opts.BBlock, ID: opts.ID, Engine: opts.Engine, Shards: opts.Shards}, readable)
	// One empty chunk per shard, so that every shard is written even when
	// no log falls in it.
	idx := make([]int, opts.Shards)
	for i := range idx {
		idx[i] = i
	}
	empties := beam.ParDo(s, emptyShard, beam.CreateList(s, idx))
	grouped := beam.GroupByKey(s, beam.Flatten(s, chunks, empties))
	beam.ParDo0(s, &writeShardFn{Prefix: opts.Output, Shards: opts.Shards}, grouped)
	return nil
}

// emptyShard returns the marker that makes shard i exist.
func emptyShard(i int) (int, string) { return i, "" }

// openContext loads the block and the JSON-LD context its messages are
// mapped with, as jrpcld's --bblock and --id do.
func openContext(dir, id string) (*jsonld.Processed, error) {
	blk, reg, err := bblock.Open(dir, id, nil)
	if err != nil {
		return nil, fmt.Errorf("building block: %w", err)
	}
	ctx, _, err := jsonld.ForBlock(blk, reg, nil)
	if err != nil {
		return nil, fmt.Errorf("building block %s: %w", blk.ID, err)
	}
	return ctx, nil
}

// maxReported is how many problems of one log are logged; the rest are
// counted.
const maxReported = 20

// convertFn turns one whole log file into N-Quads with convert's Converter:
// chunks of whole lines, keyed by the shard of the log.
type convertFn struct {
	BBlock, ID, Engine string
	Shards             int

	ctx    *jsonld.Processed
	engine convert.Engine

	skipped, warnings beam.Counter
}

func (f *convertFn) Setup() error {
	var err error
	if f.ctx, err = openContext(f.BBlock, f.ID); err != nil {
		return err
	}
	if f.engine, err = convert.ParseEngine(f.Engine); err != nil {
		return err
	}
	f.skipped = beam.NewCounter("jrpcld", "skipped")
	f.warnings = beam.NewCounter("jrpcld", "warnings")
	return nil
}

func (f *convertFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(int, string)) error {
	path := file.Metadata.Path
	iri := LogIRI(path)
	shard := ShardOf(iri, f.Shards)
	in, err := file.Open(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer in.Close()
	r, err := rpclog.NewReader(in, path, rpclog.ReaderOptions{})
	if err != nil {
		return err // the error names the input
	}
	conv := convert.NewConverter(f.ctx)
	conv.Engine = f.engine
	var mu sync.Mutex
	var skipped, warnings int64
	var reported []string
	conv.Report = func(d diag.Diagnostic) {
		mu.Lock()
		defer mu.Unlock()
		if d.Severity == diag.Error {
			skipped++
		} else {
			warnings++
		}
		if len(reported) < maxReported {
			reported = append(reported, d.String())
		}
	}
	// The Converter writes on its own goroutines; its output is read back
	// here, so that only this goroutine emits, in chunks of whole lines:
	// one element per line would cost the runner more than the mapping.
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := conv.Convert(pw, rdf.NQuads, []convert.Log{{Reader: r, File: path, IRI: iri}})
		pw.CloseWithError(err)
		done <- err
	}()
	readErr := chunkLines(pr, chunkBytes, func(chunk string) { emit(shard, chunk) })
	pr.CloseWithError(readErr)
	convErr := <-done
	for _, m := range reported {
		log.Warnf(ctx, "%s", m)
	}
	f.skipped.Inc(ctx, skipped)
	f.warnings.Inc(ctx, warnings)
	if convErr != nil {
		return fmt.Errorf("%s: %w", path, convErr)
	}
	if readErr != nil {
		return fmt.Errorf("%s: %w", path, readErr)
	}
	return nil
}

// chunkBytes is the size past which a chunk of N-Quads lines is emitted.
const chunkBytes = 1 << 20

// chunkLines reads r to its end and calls emit with its text in chunks of
// whole lines, each ending with a line break: a chunk ends with the line
// that takes it to size bytes or past. A last line without a break gets one.
func chunkLines(r io.Reader, size int, emit func(string)) error {
	br := bufio.NewReaderSize(r, 1<<16)
	var chunk strings.Builder
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			chunk.WriteString(line)
			if !strings.HasSuffix(line, "\n") {
				chunk.WriteByte('\n')
			}
			if chunk.Len() >= size {
				emit(chunk.String())
				chunk.Reset()
			}
		}
		if err != nil {
			if chunk.Len() > 0 {
				emit(chunk.String())
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// ShardOf returns the shard, from 0 to n-1, of the log whose IRI is iri.
func ShardOf(iri string, n int) int {
	h := fnv.New32a()
	io.WriteString(h, iri)
	return int(h.Sum32() % uint32(n))
}

// writeShardFn writes the chunks of lines of one shard to its file.
type writeShardFn struct {
	Prefix string
	Shards int
}

func (w *writeShardFn) ProcessElement(ctx context.Context, shard int, lines func(*string) bool) error {
	name := ShardName(w.Prefix, shard, w.Shards)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	bw := bufio.NewWriterSize(wc, 1<<16)
	var chunk string
	for lines(&chunk) {
		if _, err := bw.WriteString(chunk); err != nil {
			wc.Close()
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		wc.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Counts returns the lines skipped (not JSON: reported as errors, as jrpcld
// rdf reports them) and the warnings of a finished run, when its runner
// reports metrics; zero otherwise.
func Counts(res beam.PipelineResult) (skipped, warnings int64) {
	if res == nil {
		return 0, 0
	}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Key.Namespace != "jrpcld" {
			continue
		}
		switch c.Key.Name {
		case "skipped":
			skipped += c.Result()
		case "warnings":
			warnings += c.Result()
		}
	}
	return skipped, warnings
}
