package cli

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// TestNotifyLeavesIgnored checks that a signal the process ignores (as
// under nohup) stays ignored, while one it does not ignore is caught: a
// plain signal.Notify would stop ignoring SIGHUP.
func TestNotifyLeavesIgnored(t *testing.T) {
	signal.Ignore(syscall.SIGHUP)
	defer signal.Reset(syscall.SIGHUP, syscall.SIGUSR1)
	c := make(chan os.Signal, 1)
	Notify(c, syscall.SIGHUP, syscall.SIGUSR1)
	defer signal.Stop(c)
	if !signal.Ignored(syscall.SIGHUP) {
		t.Errorf("SIGHUP, ignored before Notify, is caught after it")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	if got := <-c; got != syscall.SIGUSR1 {
		t.Errorf("received %v, want SIGUSR1", got)
	}
}
