package transform

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
)

// ChildArg, as the only argument of jrpcld, makes it the child process of
// a Sandbox: it serves ServeChild on its standard input and output. It is
// no command of the command line.
const ChildArg = "__transform-child"

// DefaultMemoryLimit is the memory limit of a step that "jrpcld build"
// uses unless told otherwise: ample for a transform of an example snippet,
// far below what a machine that builds registers has.
const DefaultMemoryLimit = 1 << 30

// MinMemoryLimit is the smallest memory limit of a Sandbox: the Go heap
// grows in arenas of 64 MiB, so a smaller limit would bound nothing finer.
const MinMemoryLimit = 64 << 20

// wallLimit is how long a Sandbox waits for a step before it kills the
// child. The child itself stops a step that runs past runLimit of
// processor time (framing and SHACL rules do not look at the time); this
// stops a child that no longer runs, however loaded the machine is.
const wallLimit = 6 * runLimit

// overTime is what the child prints on standard error as it ends a step
// that ran past its time limit.
const overTime = "jrpcld: the step ran longer than its limit of processor time"

// A Sandbox runs transforms and uplift steps in a child process whose
// memory is bounded: past the limit, the step is stopped and fails with a
// *MemoryError, and the next step gets a new child. It stops a step that
// runs past the time limit too (ten seconds of processor time, so that a
// loaded machine does not stop a step that would end), framing and SHACL
// rules included, which this process could not stop. One child runs all
// the steps, one at a time, so that starting it is paid once; it starts
// with Start or with the first step.
//
// A nil *Sandbox runs the steps in this process: a jq program is stopped
// after the time limit, nothing else is bounded.
//
// The methods may be called from several goroutines; Close ends the child.
type Sandbox struct {
	command []string
	limit   int64
	hint    string
	cpu     time.Duration // the processor time a step may take: runLimit; shorter in tests
	timeout time.Duration // wallLimit; shorter in tests

	mu    sync.Mutex
	child *child // nil until a step needs one, and after one dies
}

// NewSandbox returns a sandbox whose child process is started with
// command (a program and its arguments: jrpcld and ChildArg) and may grow
// by limit bytes (MinMemoryLimit at least) past its size when it starts.
// hint, when not empty, ends the message of a step stopped past the limit:
// how to raise it.
func NewSandbox(limit int64, hint string, command ...string) *Sandbox {
	return &Sandbox{command: command, limit: max(limit, MinMemoryLimit), hint: hint, cpu: runLimit, timeout: wallLimit}
}

func mebibytes(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// outputLimit is the most a child sends back of a step with the memory
// limit given: the build holds and processes what it gets.
func outputLimit(limit int64) int64 { return limit / 4 }

// Run runs transform t on one snippet, as Transform.Run does, in the
// sandbox.
func (s *Sandbox) Run(ctx context.Context, t *Transform, in Input) ([]byte, error) {
	if !t.Loaded() {
		if t.loadErr != nil {
			return nil, t.loadErr
		}
		return nil, fmt.Errorf("its code, %s, was not read", t.Ref)
	}
	if len(t.Outputs) == 0 {
		return nil, fmt.Errorf("transform %q has no output media type", t.ID)
	}
	if !Runs(t.Type) {
		return nil, &NotRunError{ID: t.ID, Type: t.Type, Runner: Runner(t.Type)}
	}
	j, err := transformJob(t, in)
	if err != nil {
		return nil, err
	}
	r, err := s.do(ctx, j)
	return r.Data, err
}

// Start starts the child process, if none runs, without waiting for it:
// it readies itself while the caller goes on, and the first step does not
// wait for that. A child that cannot start is reported by the first step.
func (s *Sandbox) Start() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.child == nil {
		s.child, _ = s.start()
	}
}

// do runs a job: in this process for a nil sandbox, a jq program stopped
// after runLimit; else in the child, which stops any job past its limit of
// processor time.
func (s *Sandbox) do(ctx context.Context, j *job) (result, error) {
	if s == nil {
		ctx, cancel := context.WithTimeout(ctx, runLimit)
		defer cancel()
		return j.do(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.child == nil {
		c, err := s.start()
		if err != nil {
			return result{}, err
		}
		s.child = c
	}
	c := s.child
	done := make(chan reply, 1)
	go func() { done <- c.exchange(hello{Limit: s.limit, CPU: s.cpu}, j) }()
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	select {
	case rep := <-done:
		if rep.err != nil {
			s.child = nil
			return result{}, s.failure(c, rep.err)
		}
		if rep.resp.TooBig {
			return result{}, &MemoryError{Limit: s.limit, Hint: s.hint, Output: true}
		}
		r := result{Data: rep.resp.Data, Graph: rep.resp.Graph}
		if rep.resp.Err != "" {
			return r, errors.New(rep.resp.Err)
		}
		return r, nil
	case <-timer.C:
		c.end()
		<-done
		s.child = nil
		return result{}, fmt.Errorf("stopped: it ran longer than the limit (%v)", s.cpu)
	case <-ctx.Done():
		c.end()
		<-done
		s.child = nil
		return result{}, fmt.Errorf("stopped: %w", ctx.Err())
	}
}

// Close ends the child process, if one runs, and waits for it.
func (s *Sandbox) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.child == nil {
		return nil
	}
	c := s.child
	s.child = nil
	c.stdin.Close() // the child ends at the end of its input
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	select {
	case err := <-exited:
		return err
	case <-time.After(s.timeout):
		c.cmd.Process.Kill()
		<-exited
		return nil
	}
}

// child is a running child process of a sandbox.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *headBuffer // what the Go runtime says when it dies
	// greeted is set once the hello is sent: with the first job, so that
	// Start need not wait for the child.
	greeted bool
}

// The messages between a sandbox and its child, each a frame (writeFrame):
// hello and ready once, then a job and a response for each step.
type (
	hello struct {
		Limit int64         // the memory limit
		CPU   time.Duration // the processor time a step may take
	}
	ready struct{ Err string } // why the child cannot bound its memory
	// response is a job's result, with the error it gave; TooBig says the
	// output was past outputLimit and is not sent.
	response struct {
		Data   []byte
		Graph  []rdf.Triple
		Err    string
		TooBig bool
	}
)

type reply struct {
	resp response
	err  error // the exchange failed: the child died or broke the protocol
}

func (s *Sandbox) start() (*child, error) {
	if len(s.command) == 0 {
		return nil, errors.New("not run: the sandbox that bounds its memory has no command")
	}
	cmd := exec.Command(s.command[0], s.command[1:]...)
	cmd.Env = childEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), stderr: &headBuffer{max: 8 << 10}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("not run: cannot start the process that bounds its memory: %w", err)
	}
	return c, nil
}

// exchange sends a job to the child, after the hello the first time,
// and reads the response.
func (c *child) exchange(h hello, j *job) reply {
	if !c.greeted {
		c.greeted = true
		var r ready
		if err := writeFrame(c.stdin, h); err != nil {
			return reply{err: err}
		}
		if err := readFrame(c.stdout, 1<<20, &r); err != nil {
			return reply{err: err}
		}
		if r.Err != "" {
			return reply{err: errors.New(r.Err)}
		}
	}
	var rep reply
	if rep.err = writeFrame(c.stdin, j); rep.err == nil {
		rep.err = readFrame(c.stdout, outputLimit(h.Limit)+1<<20, &rep.resp)
	}
	return rep
}

// end kills the child and waits for it.
func (c *child) end() error {
	c.cmd.Process.Kill()
	return c.cmd.Wait()
}

// failure says why a step failed whose child died or broke the protocol
// (err): past the memory limit when the Go runtime ran out of memory,
// past the time limit when the child said so.
func (s *Sandbox) failure(c *child, err error) error {
	waitErr := c.end()
	said := c.stderr.String()
	if strings.Contains(said, overTime) {
		return fmt.Errorf("stopped: it ran longer than the limit (%v)", s.cpu)
	}
	for _, sign := range []string{"out of memory", "cannot allocate memory", "pthread_create failed"} {
		if strings.Contains(said, sign) {
			return &MemoryError{Limit: s.limit, Hint: s.hint}
		}
	}
	if waitErr != nil {
		err = waitErr
	}
	line, _, _ := strings.Cut(strings.TrimSpace(said), "\n")
	if line == "" {
		return fmt.Errorf("stopped: the process that ran it failed (%v)", err)
	}
	return fmt.Errorf("stopped: the process that ran it failed (%v): %s", err, line)
}

// headBuffer keeps the first max bytes written to it and drops the rest.
type headBuffer struct {
	max int
	buf bytes.Buffer
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - h.buf.Len(); room > 0 {
		h.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (h *headBuffer) String() string { return h.buf.String() }

// writeFrame writes v as a frame: its length in 8 bytes, big-endian, then
// v in gob, which keeps every byte of a string.
func writeFrame(w io.Writer, v any) error {
	data, err := encodeFrame(v)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func encodeFrame(v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.Write(make([]byte, 8))
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	binary.BigEndian.PutUint64(data, uint64(len(data)-8))
	return data, nil
}

// readFrame reads a frame into v; one longer than max bytes is an error.
func readFrame(r io.Reader, max int64, v any) error {
	var head [8]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint64(head[:])
	if n > uint64(max) {
		return fmt.Errorf("a message of %d bytes, past the limit of %d", n, max)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}
