package transform

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
)

// ServeChild is the child process of a Sandbox: it reads the memory limit
// from r, bounds the memory of this process to its present size and the
// limit, then runs each job r sends and writes its response to w, until r
// ends. A job that takes more memory than the
// limit ends the process: the Go runtime prints why on standard error and
// exits, and the sandbox reports it.
//
// It is meant for a process of its own (jrpcld started with ChildArg):
// it changes the process's limits, and ends it when a job runs past the
// time limit, which only a jq program checks itself.
func ServeChild(r io.Reader, w io.Writer) error {
	in := bufio.NewReader(r)
	out := bufio.NewWriter(w)
	var h hello
	if err := readFrame(in, 1<<20, &h); err != nil {
		return fmt.Errorf("reading the memory limit: %w", err)
	}
	if h.Limit <= 0 {
		return fmt.Errorf("the memory limit %d is not positive", h.Limit)
	}
	var rd ready
	bounded := boundMemory(h.Limit)
	if bounded != nil {
		rd.Err = "not run: cannot bound the memory of the process that would run it: " + bounded.Error()
	}
	if err := writeFrame(out, rd); err != nil {
		return err
	}
	if err := out.Flush(); err != nil || bounded != nil {
		return errors.Join(err, bounded)
	}
	for {
		var j job
		err := readFrame(in, h.Limit, &j)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading a job: %w", err)
		}
		stop := watchTime(h.CPU)
		res, err := j.do(context.Background())
		stop()
		resp := response{Data: res.Data, Graph: res.Graph}
		if err != nil {
			resp.Err = err.Error()
		}
		if int64(len(res.Data))+graphSize(res.Graph) > outputLimit(h.Limit) {
			resp = response{TooBig: true}
		}
		frame, err := encodeFrame(resp)
		if err != nil {
			return err
		}
		if _, err := out.Write(frame); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// graphSize returns about the size of triples in a frame: the size of
// their strings, which the triples may share but a frame does not.
func graphSize(ts []rdf.Triple) int64 {
	n := int64(0)
	for _, t := range ts {
		n += int64(len(t.P)) + termSize(t.S) + termSize(t.O)
	}
	return n
}

func termSize(t rdf.Term) int64 { return int64(len(t.Value) + len(t.Datatype) + len(t.Lang) + 4) }

// watchTime ends this process, saying so on standard error, when the job
// that starts runs past limit of processor time; the function it returns
// ends the watch.
func watchTime(limit time.Duration) (stop func()) {
	start := cpuTime()
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(limit/100 + time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if cpuTime()-start > limit {
					fmt.Fprintln(os.Stderr, overTime)
					os.Exit(3)
				}
			}
		}
	}()
	return func() { close(done) }
}
