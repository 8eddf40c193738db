package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/spf13/pflag"
)

// quietLevel is the value of -q, --quiet: 0 (the default), 1 (-q: no
// progress bar, repeated warnings folded into one line with a count) or 2
// (--quiet=all: no progress bar, no warning).
type quietLevel int

// quietUsage is the help of -q.
const quietUsage = "no progress bar, and warnings alike folded into one line with a count; --quiet=all: no warning at all"

// addQuietFlag adds -q, --quiet[=all] to fs and returns whether it is set
// (no progress bar).
func addQuietFlag(fs *pflag.FlagSet) *bool {
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

// foldWarnings returns the writer that folds the warnings written to w as
// the -q of fs says, or nil when -q is not given (or fs has none).
func foldWarnings(w io.Writer, fs *pflag.FlagSet) *warningFolder {
	f := fs.Lookup("quiet")
	if f == nil {
		return nil
	}
	q, ok := f.Value.(*quietValue)
	if !ok || q.level == 0 {
		return nil
	}
	return &warningFolder{w: w, drop: q.level == 2}
}

// warningFolder passes what a command writes on standard error through,
// line by line, but folds warnings: a run of warnings alike (the same text
// once IRIs, quoted strings, JSON pointers and numbers are set aside)
// becomes its first line with the count of the others; with drop, warnings
// are not written at all. Other output flushes the run first, so that the
// order stays.
type warningFolder struct {
	w    io.Writer
	drop bool

	mu      sync.Mutex
	partial []byte // the start of a line not ended yet
	first   []byte // the first warning of the current run, with its line break
	key     string // what its warnings have in common
	more    int    // the other warnings of the run
	err     error
}

// warningLine matches a line of standard error that is a warning: one with
// "warning: " at its start or after a ": " (jrpcld CMD: warning: ..., or
// FILE:LINE: ...: warning: ...).
var warningLine = regexp.MustCompile(`(?:^|: )warning: `)

// variable matches what differs between warnings alike.
var variable = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*:[^\s,;)"]+|"(?:[^"\\]|\\.)*"|'[^']*'|(?:^|\s|\()/[^\s,;)]*|[0-9]+`)

// Write writes p, folding the warnings among its lines.
func (f *warningFolder) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			f.partial = append(f.partial, p...)
			break
		}
		line := append(f.partial, p[:i+1]...)
		f.partial = nil
		p = p[i+1:]
		f.line(line)
	}
	if len(f.partial) > 0 && bytes.IndexByte(f.partial, '\r') >= 0 {
		// A progress bar, drawn with \r: out now.
		f.flushRun()
		f.write(f.partial)
		f.partial = nil
	}
	return n, f.err
}

// line handles one whole line.
func (f *warningFolder) line(line []byte) {
	if !warningLine.Match(line) {
		f.flushRun()
		f.write(line)
		return
	}
	if f.drop {
		return
	}
	key := variable.ReplaceAllString(string(line), "*")
	if f.first != nil && key == f.key {
		f.more++
		return
	}
	f.flushRun()
	f.first, f.key, f.more = append([]byte(nil), line...), key, 0
}

// flushRun writes the run of warnings alike: its first line, with the
// count of the others.
func (f *warningFolder) flushRun() {
	if f.first == nil {
		return
	}
	line := f.first
	if f.more > 0 {
		line = append(bytes.TrimSuffix(line, []byte("\n")), fmt.Sprintf(" (and %d more like it; without -q, each is printed)\n", f.more)...)
	}
	f.first, f.key, f.more = nil, "", 0
	f.write(line)
}

func (f *warningFolder) write(b []byte) {
	if f.err == nil {
		_, f.err = f.w.Write(b)
	}
}

// Flush writes what is held back: the current run, and a line not ended.
func (f *warningFolder) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flushRun()
	if len(f.partial) > 0 {
		if !(f.drop && warningLine.Match(f.partial)) {
			f.write(f.partial)
		}
		f.partial = nil
	}
	return f.err
}
