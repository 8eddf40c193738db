package main

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/mcptoy"
	"github.com/jrpcld/jrpcld/register/transform"
)

// TestMain lets a test run the command as a real process: the test binary
// re-executes itself with JRPCLD_TEST_MAIN=1 and the command's arguments.
// It is the child of the sandbox that runs build's transforms too, as
// jrpcld is, when started with transform.ChildArg.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == transform.ChildArg {
		os.Exit(serveTransforms()) // the sandbox of build's transforms
	}
	if os.Getenv(mcptoy.Env) == "1" {
		mcptoy.Main() // the toy MCP server the record tests run
	}
	if os.Getenv("JRPCLD_TEST_MAIN") == "1" {
		os.Args = append([]string{"jrpcld"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

// stopSignals are the signals that stop a command, with their names and
// the exit status they give.
var stopSignals = []struct {
	sig  syscall.Signal
	name string
	code int
}{
	{syscall.SIGINT, "SIGINT", 130},
	{syscall.SIGTERM, "SIGTERM", 143},
	{syscall.SIGHUP, "SIGHUP", 129},
}

// TestSignalKeepsOutput: INT, TERM or HUP during "turtle -o FILE", while
// the output is being written, leaves the previous FILE untouched, removes
// the temporary file, exits with 128 plus the signal's number, and prints
// exactly one line, naming the signal and saying FILE is unchanged (no
// second error from the write the signal cut short).
func TestSignalKeepsOutput(t *testing.T) {
	for _, tt := range stopSignals {
		t.Run(tt.name, func(t *testing.T) {
			if signal.Ignored(tt.sig) {
				// Under nohup, say: the child inherits the ignored signal,
				// and jrpcld keeps a signal it was started ignoring ignored.
				t.Skipf("%s is ignored in this process, and so in the command it starts: nothing to test", tt.name)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "out.ttl")
			if err := os.WriteFile(out, []byte("previous\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "turtle", "-q", "-o", out, "-")
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
			// Messages keep coming until the process ends, so that the
			// signal finds it writing.
			go func() {
				line := []byte(`{"jsonrpc":"2.0","method":"m","params":{"text":"` + strings.Repeat("x", 200) + `"}}` + "\n")
				for {
					if _, err := stdin.Write(line); err != nil {
						return
					}
				}
			}()
			deadline := time.Now().Add(10 * time.Second)
			for {
				tmps, _ := filepath.Glob(filepath.Join(dir, ".out.ttl.tmp-*"))
				if len(tmps) == 1 {
					if st, err := os.Stat(tmps[0]); err == nil && st.Size() > 1<<20 {
						break
					}
				}
				if time.Now().After(deadline) {
					t.Fatal("no temporary file grew")
				}
				time.Sleep(10 * time.Millisecond)
			}
			cmd.Process.Signal(tt.sig)
			// A process that does not stop is a failure, not a hang of
			// the suite.
			stopped := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
			err = cmd.Wait()
			if !stopped.Stop() {
				t.Fatalf("the command did not stop within a minute of %s", tt.name)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != tt.code {
				t.Errorf("exit: %v; want status %d", err, tt.code)
			}
			want := "jrpcld turtle: stopped by " + tt.name + "; " + out + " is unchanged\n"
			if stderr.String() != want {
				t.Errorf("stderr:\n%q\nwant:\n%q", stderr.String(), want)
			}
			if got, _ := os.ReadFile(out); string(got) != "previous\n" {
				t.Errorf("the file changed: %.40q", got)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("the folder holds %v, want only out.ttl", names)
			}
		})
	}
}
