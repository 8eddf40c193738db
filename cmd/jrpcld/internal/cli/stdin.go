package cli

import (
	"fmt"
	"io"
	"os"
)

// StdinReader returns standard input to read a log from. When it is a
// terminal, it says so on standard error (run without a FILE, the command
// would otherwise seem to hang), and the first end of input (Ctrl-D) ends
// it: a terminal gives more after an end of input, where a reader that
// looks ahead would wait for a second Ctrl-D.
func StdinReader(e *Env) io.Reader {
	w, ok := e.Stdin.(io.Writer)
	if !ok || !IsTerminal(w) {
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

// OpenInput opens a named input: a file, or standard input for "-". It
// returns the reader, the name to show in messages and the size when known.
func OpenInput(e *Env, name string) (io.Reader, string, int64, error) {
	if name == "-" {
		return StdinReader(e), "stdin", 0, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", 0, err
	}
	var size int64
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			f.Close()
			return nil, "", 0, ErrIsDir(name)
		}
		size = st.Size()
	}
	return f, name, size, nil
}
