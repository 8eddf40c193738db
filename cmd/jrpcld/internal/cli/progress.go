package cli

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// CountingReader counts the bytes read through it, for a progress bar
// drawn by another goroutine.
type CountingReader struct {
	R io.Reader
	N *atomic.Int64 // bytes read so far
}

func (c CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N.Add(int64(n))
	return n, err
}

// CountingWriter counts the bytes written through it.
type CountingWriter struct {
	W io.Writer
	N *atomic.Int64 // bytes written so far
}

func (c CountingWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N.Add(int64(n))
	return n, err
}

// ByteProgress draws, every 200 ms, the progress bar of a command whose
// work is measured in bytes (read from its input, or written): the look of
// turtle's bar, with MB/s for a rate. It shows only on a terminal, without
// -q, and from one second into the run, so that short runs stay silent.
type ByteProgress struct {
	p    *Progress
	n    *atomic.Int64
	stop chan struct{}
	wg   sync.WaitGroup
}

// WatchBytes starts drawing the progress of n bytes out of total (0 when
// unknown) on e's standard error. Call done when the work ends.
func WatchBytes(e *Env, quiet bool, total int64, n *atomic.Int64) *ByteProgress {
	b := &ByteProgress{p: &Progress{w: e.Stderr, total: total, start: time.Now()}, n: n, stop: make(chan struct{})}
	b.p.enabled = !quiet && IsTerminal(e.Stderr)
	if !b.p.enabled {
		return b
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				return
			case now := <-t.C:
				if now.Sub(b.p.start) >= time.Second {
					b.p.drawBytes(n.Load(), now)
				}
			}
		}
	}()
	return b
}

// done stops the bar and clears its line.
func (b *ByteProgress) Done() {
	if b == nil || !b.p.enabled {
		return
	}
	close(b.stop)
	b.wg.Wait()
	b.p.Done()
}

// drawBytes draws the bar for done bytes at time now.
func (p *Progress) drawBytes(done int64, now time.Time) {
	p.last = now
	secs := now.Sub(p.start).Seconds()
	rate := float64(done) / 1e6 / secs
	line := fmt.Sprintf("%6.1f MB", float64(done)/1e6)
	if p.total > 0 && done <= p.total {
		frac := float64(done) / float64(p.total)
		left := time.Duration(0)
		if frac > 0 {
			left = time.Duration(secs*(1-frac)/frac) * time.Second
		}
		line = fmt.Sprintf("[%s] %5.1f%% %s of %.1f MB, %.1f MB/s, %s left", bar(frac), frac*100, line, float64(p.total)/1e6, rate, left.Round(time.Second))
	} else {
		line += fmt.Sprintf(", %.1f MB/s", rate)
	}
	fmt.Fprintf(p.w, "\r%-100s", line)
}

// bar draws the fraction frac of a 30-character bar.
func bar(frac float64) string {
	const width = 30
	b := make([]byte, width)
	for i := range b {
		if float64(i) < frac*width {
			b[i] = '='
		} else {
			b[i] = ' '
		}
	}
	return string(b)
}
