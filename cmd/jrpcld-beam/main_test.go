package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// built is the jrpcld-beam binary the tests run, built once: linking Beam
// takes minutes on a busy machine.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// binary returns the path of the built jrpcld-beam, building it on the
// first call.
func binary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "jrpcld-beam-bin")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "jrpcld-beam")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("building: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestExitCodes runs the built command: its exit status and what it says,
// for good and bad usage and for a log with a line that is not JSON.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bin := binary(t)
	good := filepath.Join(dir, "good.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	msg := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	if err := os.WriteFile(good, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(msg+"not JSON\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Two logs of one name, in two folders.
	for _, sub := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(dir, "same", sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "same", sub, "log.jsonl"), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out", "x")
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		say   string // in standard error
		shard bool   // the one shard is written, with the ping request
	}{
		{"no command", nil, 2, "usage: jrpcld-beam rdf", false},
		{"unknown flag", []string{"rdf", "--bogus"}, 2, "-bogus", false},
		{"no output", []string{"rdf", "--input", good}, 2, "output prefix", false},
		{"argument", []string{"rdf", "--input", good, "--output", out, "extra"}, 2, `unexpected argument "extra"`, false},
		{"no block", []string{"rdf", "--input", good, "--output", out, "--bblock", filepath.Join(dir, "none")}, 2, "building block", false},
		{"good", []string{"rdf", "--input", good, "--output", out}, 0, "", true},
		{"skipped line", []string{"rdf", "--input", bad, "--output", out}, 1, "1 lines skipped", true},
		{"validate good", []string{"validate", "--input", good, "--output", filepath.Join(dir, "summary.json")}, 0, "", false},
		{"validate invalid", []string{"validate", "--input", bad, "--output", filepath.Join(dir, "summary.json")}, 1, "1 invalid messages", false},
		{"stats good", []string{"stats", "--input", good, "--output", filepath.Join(dir, "stats.jsonl")}, 0, "", false},
		{"stats invalid", []string{"stats", "--input", bad, "--output", filepath.Join(dir, "stats.jsonl")}, 1, "1 invalid messages", false},
		{"stats no output", []string{"stats", "--input", good}, 2, "output file", false},
		{"validate max-errors", []string{"validate", "--input", good, "--output", filepath.Join(dir, "summary.json"), "--max-errors", "0"}, 2, "--max-errors must be positive", false},
		{"validate unknown definition", []string{"validate", "--input", good, "--output", filepath.Join(dir, "summary.json"), "--definition", "Nothing"}, 2, "Nothing", false},
		{"validate schema and block", []string{"validate", "--input", good, "--output", filepath.Join(dir, "summary.json"), "--schema", good, "--bblock", dir}, 2, "not both", false},
		{"stats missing schema", []string{"stats", "--input", good, "--output", filepath.Join(dir, "stats.json"), "--schema", filepath.Join(dir, "none.json")}, 2, "none.json", false},
		// Issue 23, items 19, 7 and 9: a glob that matches nothing is one
		// line; an output that is an input is refused, as jrpcld -o does;
		// --base never makes two logs one.
		{"no match", []string{"rdf", "--input", filepath.Join(dir, "none", "*.jsonl"), "--output", out}, 2, "jrpcld-beam rdf: --input " + filepath.Join(dir, "none", "*.jsonl") + " matches no file\n", false},
		{"validate no match", []string{"validate", "--input", filepath.Join(dir, "none*.jsonl"), "--output", filepath.Join(dir, "summary.json")}, 2, "matches no file\n", false},
		{"validate output is input", []string{"validate", "--input", filepath.Join(dir, "*.jsonl"), "--output", good}, 2, "--output " + good + " is also an input", false},
		{"stats output is input", []string{"stats", "--input", good, "--output", filepath.Join(dir, ".", "good.jsonl")}, 2, "is also an input (" + good + ")", false},
		{"base merging two logs", []string{"rdf", "--input", filepath.Join(dir, "same", "*", "log.jsonl"), "--output", out, "--base", "http://ex.org/logs/"}, 2, "the same IRI", false},
	} {
		// What cannot work is said in one line before the pipeline runs.
		oneLine := map[string]bool{"no match": true, "validate no match": true, "validate output is input": true,
			"stats output is input": true, "base merging two logs": true}
		t.Run(tc.name, func(t *testing.T) {
			old, _ := filepath.Glob(out + "-*.nq")
			for _, f := range old {
				os.Remove(f)
			}
			cmd := exec.Command(bin, tc.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.Bytes())
			}
			if !strings.Contains(stderr.String(), tc.say) {
				t.Errorf("stderr does not say %q:\n%s", tc.say, stderr.Bytes())
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("a Go stack trace:\n%s", stderr.Bytes())
			}
			if oneLine[tc.name] && strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("more than one line for a usage error:\n%s", stderr.Bytes())
			}
			if data, err := os.ReadFile(good); err != nil || string(data) != msg {
				t.Fatalf("the input %s was changed: %q, %v", good, data, err)
			}
			written, _ := filepath.Glob(out + "-*.nq")
			err = os.ErrNotExist
			var data []byte
			if len(written) == 1 {
				data, err = os.ReadFile(written[0])
			}
			switch {
			case tc.shard && err != nil:
				t.Errorf("no shard: %v", err)
			case tc.shard && !bytes.Contains(data, []byte(`"ping"`)):
				t.Errorf("the shard has no ping request:\n%s", data)
			case !tc.shard && err == nil:
				t.Errorf("a shard was written")
			}
		})
	}
}
