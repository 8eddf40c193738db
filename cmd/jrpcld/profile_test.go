package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// skipIfProfiling skips a test that starts the CPU profile when go test
// profiles the process itself: there is one CPU profile per process.
func skipIfProfiling(t *testing.T) {
	t.Helper()
	if f := flag.Lookup("test.cpuprofile"); f != nil && f.Value.String() != "" {
		t.Skip("go test -cpuprofile holds the process's CPU profile")
	}
}

// checkProfile checks that path is a complete profile as runtime/pprof
// writes them: gzip-compressed (read to its end, so the checksum and the
// length are checked too) protocol buffers of a profile.proto Profile
// (see checkProfileMessage). With tool, when go is on PATH (and not with
// -short), go tool pprof must read it too.
func checkProfile(t *testing.T, path string, tool bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("%s: not gzip-compressed (%d bytes: % x...)", path, len(data), data[:min(len(data), 8)])
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	pb, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: incomplete: %v", path, err)
	}
	if err := checkProfileMessage(pb); err != nil {
		t.Fatalf("%s: not a profile: %v", path, err)
	}
	goTool, err := exec.LookPath("go")
	if !tool || err != nil || testing.Short() {
		return
	}
	out, err := exec.Command(goTool, "tool", "pprof", "-top", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "flat%") {
		t.Errorf("go tool pprof -top %s: %v\n%s", path, err, out)
	}
}

// checkProfileMessage checks that pb is one protocol buffers message made
// of whole fields (varints and length-delimited fields, as profile.proto
// has them) that holds the two fields every Profile has: its sample types
// (field 1) and its string table (field 6).
func checkProfileMessage(pb []byte) error {
	seen := map[uint64]bool{}
	for i := 0; i < len(pb); {
		tag, n := binary.Uvarint(pb[i:])
		if n <= 0 {
			return fmt.Errorf("bad tag at byte %d", i)
		}
		i += n
		switch tag & 7 {
		case 0:
			if _, n = binary.Uvarint(pb[i:]); n <= 0 {
				return fmt.Errorf("bad varint at byte %d", i)
			}
			i += n
		case 2:
			l, n := binary.Uvarint(pb[i:])
			if n <= 0 || l > uint64(len(pb)-i-n) {
				return fmt.Errorf("bad length at byte %d", i)
			}
			i += n + int(l)
		default:
			return fmt.Errorf("wire type %d at byte %d", tag&7, i)
		}
		seen[tag>>3] = true
	}
	if !seen[1] || !seen[6] {
		return fmt.Errorf("no sample types or no string table (fields %v)", seen)
	}
	return nil
}

// TestProfileFlags runs each command that processes logs with
// --cpuprofile and --memprofile, and checks both files are complete
// profiles, also when the command fails.
func TestProfileFlags(t *testing.T) {
	skipIfProfiling(t)
	dir := t.TempDir()
	const log = "../../examples/session.jsonl"
	nt := filepath.Join(dir, "session.nt")
	if code, _, errOut := jrpcld(t, "", "rdf", "-q", "--format", "ntriples", "-o", nt, log); code != cli.ExitOK {
		t.Fatalf("rdf: exit %d: %s", code, errOut)
	}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"turtle", []string{"turtle", "-q", log}, cli.ExitOK},
		{"rdf", []string{"rdf", "-q", "--format", "nquads", log}, cli.ExitOK},
		{"validate", []string{"validate", log}, cli.ExitOK},
		{"json", []string{"json", nt}, cli.ExitOK},
		{"stats", []string{"stats", log}, cli.ExitOK},
		{"build", []string{"build", "-o", filepath.Join(dir, "register")}, cli.ExitOK},
		// The profiles are complete on the error paths too.
		{"turtle-missing-input", []string{"turtle", "-q", filepath.Join(dir, "no-such.jsonl")}, cli.ExitUsage},
		{"validate-invalid", []string{"validate", "../../testdata/no-such-file.jsonl"}, cli.ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cpu := filepath.Join(dir, tt.name+".cpu.pprof")
			mem := filepath.Join(dir, tt.name+".mem.pprof")
			args := append(tt.args, "--cpuprofile", cpu, "--memprofile", mem)
			code, out, errOut := jrpcld(t, "", args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			if tt.code == cli.ExitOK && out == "" && tt.name != "build" {
				t.Errorf("no output")
			}
			// go tool pprof takes a second a file: it reads the first two.
			checkProfile(t, cpu, tt.name == "turtle")
			checkProfile(t, mem, tt.name == "turtle")
		})
	}
}

// TestProfileBadPath: a profile file that cannot be created is a usage
// error told in one line, before any work.
func TestProfileBadPath(t *testing.T) {
	skipIfProfiling(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "no-such-dir", "x.pprof")
	for _, cmd := range []string{"turtle", "rdf", "validate", "json", "stats", "build"} {
		for _, flagName := range []string{"--cpuprofile", "--memprofile"} {
			t.Run(cmd+flagName, func(t *testing.T) {
				args := []string{cmd, flagName, bad, "../../examples/session.jsonl"}
				if cmd == "build" {
					args = []string{cmd, flagName, bad, "-o", filepath.Join(dir, "register")}
				}
				code, out, errOut := jrpcld(t, "", args...)
				if code != cli.ExitUsage {
					t.Errorf("exit %d, want %d", code, cli.ExitUsage)
				}
				if out != "" {
					t.Errorf("stdout %q, want nothing", out)
				}
				want := "jrpcld " + cmd + ": " + flagName + ": open " + bad + ": "
				if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, want) {
					t.Errorf("stderr %q, want one line starting %q", errOut, want)
				}
			})
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "register")); err == nil {
		t.Errorf("build ran despite the bad profile path")
	}
	// With a bad CPU profile path, no empty memory profile is left behind.
	mem := filepath.Join(dir, "mem.pprof")
	if code, _, _ := jrpcld(t, "", "turtle", "--memprofile", mem, "--cpuprofile", bad, "../../examples/session.jsonl"); code != cli.ExitUsage {
		t.Errorf("exit %d, want %d", code, cli.ExitUsage)
	}
	if _, err := os.Stat(mem); err == nil {
		t.Errorf("%s left behind", mem)
	}
}

// TestProfileHelp: each command's help names the flags.
func TestProfileHelp(t *testing.T) {
	for _, cmd := range []string{"turtle", "rdf", "validate", "json", "stats", "build"} {
		_, out, _ := jrpcld(t, "", "help", cmd)
		for _, want := range []string{"--cpuprofile FILE", "--memprofile FILE", "go tool pprof FILE"} {
			if !strings.Contains(out, want) {
				t.Errorf("help %s does not mention %q", cmd, want)
			}
		}
	}
}
