package cli

import (
	"fmt"
	"io"

	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"

	"github.com/spf13/pflag"
)

// LimitFlags bound what a command accepts from its input, each with a sane
// default, so that hostile input gets a clear error instead of exhausting
// memory.
type LimitFlags struct {
	maxLine, maxDepth, maxBatch int
	maxDecompressed             int64
	maxRatio                    int
	// MaxErrors is how many problems the command prints (--max-errors).
	MaxErrors int
}

// DefaultMaxErrors is how many problems a command prints before it only
// counts them.
const DefaultMaxErrors = 1000

// AddLimitFlags binds the flags of the limits on fs.
func AddLimitFlags(fs *pflag.FlagSet) *LimitFlags {
	l := &LimitFlags{}
	fs.IntVar(&l.maxLine, "max-line-bytes", 64<<20, "longest line (or pretty-printed document) read, in `bytes`; a longer one is an error for that line")
	fs.IntVar(&l.maxDepth, "max-depth", 512, "deepest nesting of arrays and objects in a message (`levels`)")
	fs.IntVar(&l.maxBatch, "max-batch", rpclog.DefaultMaxBatch, "most `messages` in one batch")
	fs.Int64Var(&l.maxDecompressed, "max-decompressed-bytes", rpclog.DefaultMaxDecompressedBytes,
		"largest size of a gzip-compressed log once decompressed, in `bytes`, 16 GiB by default; a larger one ends with an error there")
	fs.IntVar(&l.maxRatio, "max-compression-ratio", rpclog.DefaultMaxCompressionRatio,
		"most decompressed bytes per compressed byte (`N`) of a gzip-compressed log, checked past 64 MiB: a decompression bomb exceeds it (deflate cannot exceed about 1032)")
	fs.IntVar(&l.MaxErrors, "max-errors", DefaultMaxErrors, "print at most `N` problems; the rest are only counted")
	return l
}

// Check reports a limit that is not positive.
func (l *LimitFlags) Check() error {
	for name, v := range map[string]int64{"--max-line-bytes": int64(l.maxLine), "--max-depth": int64(l.maxDepth), "--max-batch": int64(l.maxBatch),
		"--max-errors": int64(l.MaxErrors), "--max-decompressed-bytes": l.maxDecompressed, "--max-compression-ratio": int64(l.maxRatio)} {
		if v <= 0 {
			return fmt.Errorf("%s must be positive, not %d", name, v)
		}
	}
	return nil
}

// ReaderOptions are the limits as options of a log reader.
func (l *LimitFlags) ReaderOptions() rpclog.ReaderOptions {
	return rpclog.ReaderOptions{MaxLineBytes: l.maxLine, MaxDepth: l.maxDepth, MaxBatch: l.maxBatch,
		MaxDecompressedBytes: l.maxDecompressed, MaxCompressionRatio: l.maxRatio}
}

// ErrorPrinter prints problems up to a limit and counts the rest.
type ErrorPrinter struct {
	w       io.Writer
	limit   int
	printed int
	dropped int
}

// NewErrorPrinter returns a printer on w of at most limit problems.
func NewErrorPrinter(w io.Writer, limit int) *ErrorPrinter {
	return &ErrorPrinter{w: w, limit: limit}
}

// Print prints one problem line, or counts it once the limit is reached.
func (p *ErrorPrinter) Print(format string, args ...any) {
	if p.printed >= p.limit {
		p.dropped++
		return
	}
	p.printed++
	fmt.Fprintf(p.w, format, args...)
}

// Summary says how many problems were not printed, if any.
func (p *ErrorPrinter) Summary(cmd string) {
	if p.dropped > 0 {
		fmt.Fprintf(p.w, "jrpcld %s: %d more problems not printed (--max-errors %d)\n", cmd, p.dropped, p.limit)
	}
}

// Dropped is how many problems were counted but not printed.
func (p *ErrorPrinter) Dropped() int { return p.dropped }
