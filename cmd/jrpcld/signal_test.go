package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run the command as a real process: the test binary
// re-executes itself with JRPCLD_TEST_MAIN=1 and the command's arguments.
func TestMain(m *testing.M) {
	if os.Getenv("JRPCLD_TEST_MAIN") == "1" {
		os.Args = append([]string{"jrpcld"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

// TestInterruptKeepsOutput: Ctrl-C during `turtle -o FILE` leaves the
// previous FILE untouched and removes the temporary file.
func TestInterruptKeepsOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.ttl")
	if err := os.WriteFile(out, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "turtle", "-o", out, "-")
	cmd.Env = append(os.Environ(), "JRPCLD_TEST_MAIN=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Some messages go through; the input stays open, so the run is in the
	// middle of its work when the signal comes.
	for i := 0; i < 100; i++ {
		stdin.Write([]byte(`{"jsonrpc":"2.0","method":"m","params":{"i":1}}` + "\n"))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		tmps, _ := filepath.Glob(filepath.Join(dir, ".out.ttl.tmp-*"))
		if len(tmps) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no temporary file appeared")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit: %v; want status 130", err)
	}
	if got, _ := os.ReadFile(out); string(got) != "previous\n" {
		t.Errorf("the file changed: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left in the folder, want 1", len(entries))
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr %q", stderr.String())
	}
}
