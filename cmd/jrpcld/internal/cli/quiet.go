package cli

import (
	"fmt"
	"io"

	"github.com/jrpcld/jrpcld/internal/warnfold"
	"github.com/spf13/pflag"
)

// quietLevel is the value of -q, --quiet: 0 (the default), 1 (-q: no
// progress bar, repeated warnings folded into one line with a count) or 2
// (--quiet=all: no progress bar, no warning).
type quietLevel int

// quietUsage is the help of -q.
const quietUsage = "no progress bar, and warnings alike folded into one line with a count; --quiet=all: no warning at all"

// AddQuietFlag adds -q, --quiet[=all] to fs and returns whether it is set
// (no progress bar).
func AddQuietFlag(fs *pflag.FlagSet) *bool {
	q := &quietValue{on: new(bool)}
	f := fs.VarPF(q, "quiet", "q", quietUsage)
	f.NoOptDefVal = "true"
	return q.on
}

// quietValue is the pflag.Value of -q.
type quietValue struct {
	level quietLevel
	on    *bool
}

func (q *quietValue) String() string {
	switch q.level {
	case 1:
		return "true"
	case 2:
		return "all"
	}
	return "false"
}

func (q *quietValue) Set(s string) error {
	switch s {
	case "true", "1":
		q.level = 1
	case "all":
		q.level = 2
	case "false", "0":
		q.level = 0
	default:
		return fmt.Errorf("-q, --quiet takes true, false or all, not %q", s)
	}
	*q.on = q.level > 0
	return nil
}

// Type is "bool", so that help shows -q, --quiet without a value.
func (q *quietValue) Type() string { return "bool" }

// FoldWarnings returns the writer that folds the warnings written to w as
// the -q of fs says, or nil when -q is not given (or fs has none).
func FoldWarnings(w io.Writer, fs *pflag.FlagSet) *warnfold.Writer {
	f := fs.Lookup("quiet")
	if f == nil {
		return nil
	}
	q, ok := f.Value.(*quietValue)
	if !ok || q.level == 0 {
		return nil
	}
	return warnfold.New(w, q.level == 2)
}
