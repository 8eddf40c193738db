package main

import (
	"fmt"
	"io"
)

// stdinReader returns standard input to read a log from. When it is a
// terminal, it says so on standard error (run without a FILE, the command
// would otherwise seem to hang), and the first end of input (Ctrl-D) ends
// it: a terminal gives more after an end of input, where a reader that
// looks ahead would wait for a second Ctrl-D.
func stdinReader(e *env) io.Reader {
	w, ok := e.Stdin.(io.Writer)
	if !ok || !isTerminal(w) {
		return e.Stdin
	}
	fmt.Fprintln(e.Stderr, "jrpcld: reading standard input, a terminal: type or paste the messages, then Ctrl-D (or give a FILE)")
	return &untilEOF{r: e.Stdin}
}

// untilEOF reads r until its first end of input.
type untilEOF struct {
	r   io.Reader
	eof bool
}

func (u *untilEOF) Read(p []byte) (int, error) {
	if u.eof {
		return 0, io.EOF
	}
	n, err := u.r.Read(p)
	if err == io.EOF {
		u.eof = true
	}
	return n, err
}
