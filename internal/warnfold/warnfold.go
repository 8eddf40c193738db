// Package warnfold folds the warnings a command writes on standard error:
// a run of warnings alike, such as one per IRI a context makes that an
// ontology lacks, becomes one line with their count (jrpcld's -q), or
// nothing at all (--quiet=all). A warning is a line with "warning: " at its
// start or after ": ".
package warnfold

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sync"
)

// New returns a Writer that writes to w, folding warnings; with drop, it
// writes no warning.
func New(w io.Writer, drop bool) *Writer { return &Writer{w: w, drop: drop} }

// Writer passes what is written to it on to another writer, line by line,
// but folds warnings: a run of warnings alike (the same text once IRIs,
// quoted strings, JSON pointers and numbers are set aside) becomes its
// first line with the count of the others; with drop, warnings are not
// written at all. Other output ends the run first, so that the order stays.
// A Writer is safe for concurrent use; Flush writes what it holds back.
type Writer struct {
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
func (f *Writer) Write(p []byte) (int, error) {
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
func (f *Writer) line(line []byte) {
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
func (f *Writer) flushRun() {
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

func (f *Writer) write(b []byte) {
	if f.err == nil {
		_, f.err = f.w.Write(b)
	}
}

// Flush writes what is held back: the current run, and a line not ended.
func (f *Writer) Flush() error {
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
