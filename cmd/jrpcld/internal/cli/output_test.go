package cli

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDrawBytes: the byte progress bar has turtle's look: a 30-character
// bar, the percentage, megabytes done and in all, a rate and the time left.
func TestDrawBytes(t *testing.T) {
	var buf strings.Builder
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &Progress{w: &buf, total: 100e6, start: start, enabled: true}
	p.drawBytes(25e6, start.Add(5*time.Second))
	want := "\r[========                      ]  25.0%   25.0 MB of 100.0 MB, 5.0 MB/s, 15s left"
	if got := strings.TrimRight(buf.String(), " "); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	buf.Reset()
	p.total = 0
	p.drawBytes(3e6, start.Add(2*time.Second))
	if got := strings.TrimRight(buf.String(), " "); got != "\r   3.0 MB, 1.5 MB/s" {
		t.Errorf("unknown total: %q", got)
	}
}

// TestSignalWhileWriting: when a signal comes while the command is still
// writing, the writes that follow succeed (into the removed temporary
// file) instead of failing with "file already closed" and printing a second
// error before the process exits; the one line on standard error and the
// exit status are those of the signal, the temporary file is gone and the
// file keeps its content.
func TestSignalWhileWriting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.ttl")
	if err := os.WriteFile(path, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	e := &Env{Stdout: io.Discard, Stderr: &stderr}
	codes := make(chan int, 1)
	defer func(old func(int)) { exit = old }(exit)
	exit = func(code int) {
		codes <- code
		runtime.Goexit() // as os.Exit, nothing after it runs
	}
	out, err := OpenOutput(e, "turtle", path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.stop()
	if _, err := io.WriteString(out, "half of the output\n"); err != nil {
		t.Fatal(err)
	}
	self, _ := os.FindProcess(os.Getpid())
	self.Signal(syscall.SIGINT)
	var code int
	select {
	case code = <-codes:
	case <-time.After(10 * time.Second):
		t.Fatal("the signal was not handled")
	}
	if _, err := io.WriteString(out, "the rest\n"); err != nil {
		t.Errorf("a write after the signal failed: %v", err)
	}
	if code != 130 {
		t.Errorf("exit status %d, want 130", code)
	}
	if want := "jrpcld turtle: stopped by SIGINT; " + path + " is unchanged\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if got, _ := os.ReadFile(path); string(got) != "previous\n" {
		t.Errorf("the file holds %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the folder, want 1", len(entries))
	}
}

// TestProgress: the bar shows bytes done of the total, messages per second
// and time left when enabled (on a terminal), and nothing otherwise.
func TestProgress(t *testing.T) {
	var w strings.Builder
	p := NewProgress(&Env{Stderr: &w}, false, 10<<20)
	if p.enabled {
		t.Fatal("enabled on a strings.Builder, which is not a terminal")
	}
	p.Update(1 << 20)
	if w.Len() != 0 {
		t.Errorf("drew %q on a non-terminal", w.String())
	}
	p.enabled = true
	p.Update(5 << 20)
	out := w.String()
	for _, want := range []string{"50.0%", "5.2 MB of 10.5 MB", "msgs/s", "left"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar %q lacks %q", out, want)
		}
	}
	p.Done()
	if !strings.HasSuffix(w.String(), "\r") {
		t.Error("done does not clear the line")
	}
}
