package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/fakestore"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// beamCLI runs the built jrpcld-beam with args and returns its exit status,
// standard output and standard error.
func beamCLI(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// TestCLI: --version; each subcommand's --help lists its own flags, then
// Beam's; a mistyped flag gets the one meant; a register of several blocks
// without --bblock-id names --bblock-id (not jrpcld's --id); a job service
// that refuses or never answers ends the run with an error that names it
// (issue 25, item 6).
func TestCLI(t *testing.T) {
	dir := t.TempDir()
	bin := binary(t)
	good := filepath.Join(dir, "good.jsonl")
	if err := os.WriteFile(good, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out", "x")

	code, stdout, stderr := beamCLI(t, bin, "--version")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "jrpcld-beam ") || !strings.Contains(stdout, "revision") || strings.Count(stdout, "\n") != 1 {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	for _, cmd := range []string{"rdf", "validate", "stats"} {
		code, stdout, stderr := beamCLI(t, bin, cmd, "--help")
		own, beamPart, ok := strings.Cut(stdout, "\nBeam's flags")
		if code != 0 || stderr != "" || !ok || !strings.HasPrefix(stdout, "usage: jrpcld-beam "+cmd+" ") {
			t.Errorf("%s --help: exit %d, stderr %q, stdout:\n%s", cmd, code, stderr, stdout)
			continue
		}
		for _, f := range []string{"--input GLOB", "--output", "--bblock-id ID", "--endpoint-timeout DURATION"} {
			if !strings.Contains(own, "\n  "+f) {
				t.Errorf("%s --help: %s is not among its own flags", cmd, f)
			}
		}
		for _, f := range []string{"--runner", "--endpoint", "--environment_type", "--project"} {
			if !strings.Contains(beamPart, "\n  "+f+" ") || strings.Contains(own, "\n  "+f+" ") {
				t.Errorf("%s --help: %s is not among Beam's flags alone", cmd, f)
			}
		}
	}

	blocks := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	endpointDown := func() string { // a port nothing listens on
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}()
	silent := fakestore.Unreachable(t)
	for _, tc := range []struct {
		name string
		args []string
		say  []string
		not  string
	}{
		{"a mistyped flag", []string{"rdf", "--outptu", out}, []string{"flag provided but not defined: -outptu; did you mean --output?", "see 'jrpcld-beam rdf --help'"}, ""},
		{"a mistyped flag of Beam's", []string{"stats", "--runer", "prism"}, []string{"did you mean --runner?"}, ""},
		{"rdf: which block", []string{"rdf", "--input", good, "--output", out, "--bblock", blocks}, []string{"choose one with --bblock-id"}, " --id"},
		{"validate: which block", []string{"validate", "--input", good, "--output", filepath.Join(dir, "v.json"), "--bblock", blocks}, []string{"--bblock-id"}, " --id"},
		{"stats: which block", []string{"stats", "--input", good, "--output", filepath.Join(dir, "s.json"), "--bblock", blocks}, []string{"--bblock-id"}, " --id"},
		{"a job service refusing", []string{"rdf", "--input", good, "--output", out, "--runner", "flink", "--endpoint", endpointDown},
			[]string{"the job service at --endpoint " + endpointDown, "refused", "start the runner's job server"}, ""},
		{"a job service not answering", []string{"rdf", "--input", good, "--output", out, "--runner", "spark", "--endpoint", silent, "--endpoint-timeout", "1s"},
			[]string{"the job service at --endpoint " + silent + ": no answer within 1s (--endpoint-timeout)"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			code, stdout, stderr := beamCLI(t, bin, tc.args...)
			if code != 2 || stdout != "" || strings.Contains(stderr, "goroutine ") {
				t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			for _, s := range tc.say {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr)
				}
			}
			if tc.not != "" && strings.Contains(stderr, tc.not) {
				t.Errorf("stderr says %q:\n%s", tc.not, stderr)
			}
			if d := time.Since(start); d > time.Minute {
				t.Errorf("took %v", d)
			}
		})
	}
}
