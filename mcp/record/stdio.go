package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/jsonrpc"
)

// Stdio is a recorded session of a server that speaks over its standard
// input and output, one message a line (MCP's stdio transport).
type Stdio struct {
	// Cmd is the server, not started; Run sets its Stdin and Stdout, and
	// its Stderr to Stderr.
	Cmd *exec.Cmd
	// In gives the client's lines, Out takes the server's; Stderr takes
	// the server's standard error as it comes (os.Stderr when nil).
	In     io.Reader
	Out    io.Writer
	Stderr io.Writer
	// Log records each line as it passes.
	Log *Log
	// Signals are forwarded to the server while it runs (nil for none).
	Signals <-chan os.Signal
	// Session is the MCP session each line of the log names (its
	// "session"). When empty, Run names it after the server's run:
	// "stdio-PID-TIME", its process id and the time it started, so that
	// the sessions of several runs logged together stay apart.
	Session string
}

// Run starts the server and passes lines until it exits: each line of In
// to the server and each line of the server to Out, unchanged (a last line
// without a line break too), recording each in Log before it is passed on.
// The end of In closes the server's standard input. Run returns once the
// server has exited and its output is passed on, with its exit status: its
// exit code, or 128 plus the signal's number when a signal ended it, as a
// shell reports it. The error is a *StartError when the server could not
// be started, or the first error writing Out or the log (the server is
// still waited for).
func (s *Stdio) Run() (int, error) {
	stdin, err := s.Cmd.StdinPipe()
	if err != nil {
		return 0, &StartError{Err: err}
	}
	stdout, err := s.Cmd.StdoutPipe()
	if err != nil {
		return 0, &StartError{Err: err}
	}
	s.Cmd.Stderr = s.Stderr
	if s.Cmd.Stderr == nil {
		s.Cmd.Stderr = os.Stderr
	}
	if err := s.Cmd.Start(); err != nil {
		return 0, &StartError{Err: err, NotFound: errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist)}
	}
	session := s.Session
	if session == "" {
		session = fmt.Sprintf("stdio-%d-%s", s.Cmd.Process.Pid, time.Now().UTC().Format("20060102T150405.000Z"))
	}

	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}

	done := make(chan struct{})
	defer close(done)
	if s.Signals != nil {
		go func() {
			for {
				select {
				case sig := <-s.Signals:
					s.Cmd.Process.Signal(sig)
				case <-done:
					return
				}
			}
		}()
	}

	// The client's lines: to the server until In ends (then the server's
	// input is closed) or the server stops reading. Run does not wait for
	// this: In may block for ever once the server is gone.
	go func() {
		defer stdin.Close()
		err := passLines(s.In, stdin, s.Log, session, jsonrpc.ClientToServer)
		var pe *passError
		if errors.As(err, &pe) && pe.log {
			fail(err)
		}
	}()

	// The server's lines: to Out until the server closes its output.
	if err := passLines(stdout, s.Out, s.Log, session, jsonrpc.ServerToClient); err != nil {
		fail(err)
		io.Copy(io.Discard, stdout) // let the server write on and end
	}
	werr := s.Cmd.Wait()
	code := exitStatus(s.Cmd.ProcessState)
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		fail(werr)
	}
	mu.Lock()
	defer mu.Unlock()
	return code, firstErr
}

// passLines copies the lines of r to w, recording each in log as sent in
// direction dir in session before it is written. A line longer than the log's Max
// (its line break included) is not held whole: its first Max bytes pass
// on, then the rest as it comes, and it is logged cut (Log.RecordCut) once
// its end is read, before its last piece is written. It returns at the end
// of r, or with the first error of the log or of w.
func passLines(r io.Reader, w io.Writer, log *Log, session string, dir jsonrpc.Direction) error {
	max := log.max()
	br := bufio.NewReaderSize(r, min(64<<10, max))
	var line []byte // the line so far, when it came in several pieces
	var head []byte // the first bytes of a line too long to hold, once it is
	var n int64     // and its length so far
	for {
		piece, err := br.ReadSlice('\n')
		end := err != bufio.ErrBufferFull // a line break, or the end of r
		if head == nil && len(line)+len(piece) > max {
			// Too long to hold: what was held passes on, the rest as
			// it comes.
			head = make([]byte, 0, cutKeep)
			head = append(head, line[:min(len(line), cutKeep)]...)
			head = append(head, piece[:min(len(piece), cutKeep-len(head))]...)
			if len(line) > 0 {
				if _, werr := w.Write(line); werr != nil {
					return &passError{err: werr}
				}
			}
			n, line = int64(len(line)), nil
		}
		switch {
		case head != nil:
			n += int64(len(piece))
			if !end {
				if _, werr := w.Write(piece); werr != nil {
					return &passError{err: werr}
				}
				continue
			}
			if err := pass(w, piece, func() error { return log.RecordCutIn(session, dir, head, n) }); err != nil {
				return err
			}
			head, n = nil, 0
		case !end:
			line = append(line, piece...)
			continue
		default:
			text := piece
			if len(line) > 0 {
				text = append(line, piece...)
				line = line[:0]
			}
			if len(text) > 0 {
				if err := pass(w, text, func() error { return log.RecordIn(session, dir, text) }); err != nil {
					return err
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &passError{err: err}
		}
	}
}

// pass logs a message with record, then writes its text, or its last
// piece, to w.
func pass(w io.Writer, text []byte, record func() error) error {
	if err := record(); err != nil {
		return &passError{err: fmt.Errorf("log: %w", err), log: true}
	}
	if _, err := w.Write(text); err != nil {
		return &passError{err: err}
	}
	return nil
}

// exitStatus returns the exit status a shell gives for a process that
// ended as ps says.
func exitStatus(ps *os.ProcessState) int {
	if ps == nil {
		return 1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
