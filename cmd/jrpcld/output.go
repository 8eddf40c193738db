package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/internal/atomicfile"
)

// output is where a command writes its result: standard output, or a file
// written atomically (-o). On an interrupt (Ctrl-C) or a failure the file
// keeps its previous content and the temporary file is removed.
type output struct {
	io.Writer
	file *atomicfile.File
	stop func()
}

func openOutput(e *env, path string) (*output, error) {
	if path == "" || path == "-" {
		return &output{Writer: e.stdout, stop: func() {}}, nil
	}
	// Signals are caught before the temporary file exists, so that none
	// can end the process and leave it behind.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	f, err := atomicfile.Create(path)
	if err != nil {
		signal.Stop(sigs)
		return nil, err
	}
	o := &output{Writer: f, file: f}
	var once sync.Once
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			f.Abort()
			fmt.Fprintf(e.stderr, "\njrpcld: interrupted; %s is unchanged\n", path)
			os.Exit(130)
		case <-done:
		}
	}()
	o.stop = func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
		})
	}
	return o, nil
}

// finish commits the file when ok, and drops it otherwise.
func (o *output) finish(ok bool) error {
	o.stop()
	if o.file == nil {
		return nil
	}
	if !ok {
		o.file.Abort()
		return nil
	}
	return o.file.Commit()
}

// progress draws a progress bar on standard error for long inputs, when it
// is a terminal and -q was not given.
type progress struct {
	w       io.Writer
	total   int64 // bytes of input, 0 when unknown
	start   time.Time
	last    time.Time
	msgs    int
	enabled bool
}

// progressThreshold is the input size from which a progress bar is shown.
const progressThreshold = 4 << 20

func newProgress(e *env, quiet bool, total int64) *progress {
	p := &progress{w: e.stderr, total: total, start: time.Now()}
	if f, ok := e.stderr.(*os.File); ok && !quiet && total >= progressThreshold {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.enabled = true
		}
	}
	return p
}

// update records one more message, done bytes read so far.
func (p *progress) update(done int64) {
	p.msgs++
	if !p.enabled {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	secs := now.Sub(p.start).Seconds()
	rate := float64(p.msgs) / secs
	line := fmt.Sprintf("%6.1f MB", float64(done)/1e6)
	if p.total > 0 && done <= p.total {
		frac := float64(done) / float64(p.total)
		const width = 30
		bar := make([]byte, width)
		for i := range bar {
			if float64(i) < frac*width {
				bar[i] = '='
			} else {
				bar[i] = ' '
			}
		}
		left := time.Duration(0)
		if frac > 0 {
			left = time.Duration(secs*(1-frac)/frac) * time.Second
		}
		line = fmt.Sprintf("[%s] %5.1f%% %s of %.1f MB, %.0f msgs/s, %s left", bar, frac*100, line, float64(p.total)/1e6, rate, left.Round(time.Second))
	} else {
		line += fmt.Sprintf(", %.0f msgs/s", rate)
	}
	fmt.Fprintf(p.w, "\r%-100s", line)
}

// done clears the progress line.
func (p *progress) done() {
	if p.enabled && !p.last.IsZero() {
		fmt.Fprintf(p.w, "\r%-100s\r", "")
	}
}
