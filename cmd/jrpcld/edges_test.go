package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// TestBareCommand: jrpcld alone lists the commands on standard output and
// exits 0, as a cobra program does for a command that only groups others.
func TestBareCommand(t *testing.T) {
	code, out, errOut := jrpcld(t, "")
	_, help, _ := jrpcld(t, "", "--help")
	if code != cli.ExitOK || errOut != "" || out != help || !strings.Contains(out, "jrpcld validate") {
		t.Errorf("exit %d, stdout %.80q, stderr %q; want the help, exit 0", code, out, errOut)
	}
}

// TestVersionCommand: "jrpcld version" prints what --version prints.
func TestVersionCommand(t *testing.T) {
	code, out, errOut := jrpcld(t, "", "version")
	_, flag, _ := jrpcld(t, "", "--version")
	if code != cli.ExitOK || errOut != "" || out != flag {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, flag)
	}
	if code, _, errOut := jrpcld(t, "", "version", "x"); code != cli.ExitUsage || !strings.Contains(errOut, "no argument") {
		t.Errorf("version x: exit %d, stderr %q", code, errOut)
	}
}

// TestFlagTypos: a mistyped flag gets the nearest one, whatever its kind:
// long, one letter in the wrong case, with one dash, or a flag of jrpcld
// itself given after a command.
func TestFlagTypos(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--formt", "json"}, "did you mean --format?"},
		{[]string{"rdf", "--pushh", "x"}, "did you mean --push?"},
		{[]string{"rdf", "--push-tiemout", "1s"}, "did you mean --push-timeout?"},
		{[]string{"validate", "-Q"}, "unknown shorthand flag: 'Q' in -Q; did you mean -q?"},
		{[]string{"rdf", "-O", "x"}, "did you mean -o?"},
		{[]string{"validate", "--verson"}, "did you mean jrpcld --version (a flag of jrpcld itself, before any command)?"},
		{[]string{"--verison"}, "did you mean --version?"},
		{[]string{"build", "-pushh"}, "unknown shorthand flag"},
		{[]string{"completion", "bash", "--no-descriptons"}, "did you mean --no-descriptions?"},
		{[]string{"help", "--hepl"}, "did you mean --help?"},
	} {
		code, out, errOut := jrpcld(t, "", c.args...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errOut, c.want)
		}
	}
	// A letter with no flag of either case: no guess.
	if _, _, errOut := jrpcld(t, "", "validate", "-x"); strings.Contains(errOut, "did you mean") {
		t.Errorf("-x: %q", errOut)
	}
}

// TestCompletionValues: completion proposes the values of the flags that
// take one of a few, and the blocks of --bblock for --id.
func TestCompletionValues(t *testing.T) {
	complete := func(args ...string) []string {
		t.Helper()
		code, out, _ := jrpcld(t, "", append([]string{"__complete"}, args...)...)
		if code != cli.ExitOK {
			t.Fatalf("__complete %q: exit %d", args, code)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(l, ":") {
				got = append(got, strings.SplitN(l, "\t", 2)[0])
			}
		}
		return got
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"rdf", "--format", ""}, "turtle ntriples nquads jsonld jsonld-expanded"},
		{[]string{"rdf", "-f", "n"}, "ntriples nquads"},
		{[]string{"turtle", "--engine", ""}, "compiled json-gold"},
		{[]string{"json", "--from", "t"}, "turtle"},
		{[]string{"validate", "--format", ""}, "text json"},
		{[]string{"stats", "-f", "j"}, "json"},
		{[]string{"annotate", "--format", ""}, "yaml json"},
		{[]string{"rdf", "--push-method", ""}, "put post"},
		{[]string{"validate", "--id", ""}, "jrpcld.json-rpc"},
	}
	for _, c := range cases {
		if got := strings.Join(complete(c.args...), " "); got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
	// Each value proposed is one the command takes.
	file := filepath.Join("..", "..", "examples", "session.jsonl")
	for _, c := range []struct{ cmd, flag string }{{"rdf", "format"}, {"rdf", "engine"}, {"validate", "format"}, {"stats", "format"}, {"annotate", "format"}} {
		for _, v := range cli.FlagChoices(c.cmd, c.flag) {
			args := []string{c.cmd, "--" + c.flag, v}
			if c.cmd != "annotate" {
				args = append(args, "-q", file)
			}
			if code, _, errOut := jrpcld(t, "", args...); code == cli.ExitUsage {
				t.Errorf("%q: exit 2: %s", args, errOut)
			}
		}
	}
	reg := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	if got := strings.Join(complete("validate", "--bblock", reg, "--id", ""), " "); got != "mcp.json-rpc mcp.mcp" {
		t.Errorf("--id of %s: %q", reg, got)
	}
	if got := complete("validate", "--bblock", filepath.Join(t.TempDir(), "none"), "--id", ""); len(got) != 0 {
		t.Errorf("--id of a folder that is not there: %q", got)
	}
}

// TestHelpNamesOwnFlags: the description of each command names only flags
// it has (turtle's spoke of --format), but in a quoted command line of
// another command.
func TestHelpNamesOwnFlags(t *testing.T) {
	quoted := regexp.MustCompile(`"[^"]*"`)
	mention := regexp.MustCompile(`--[a-z][a-z0-9-]*`)
	// fetch tells how other commands use what it fetched.
	others := map[string]map[string]bool{"fetch": {"--bblock": true, "--id": true, "--import": true}}
	for _, c := range commands() {
		_, out, _ := jrpcld(t, "", c.Name, "--help")
		body, flags, ok := strings.Cut(out, "\nFlags:\n")
		if !ok {
			t.Fatalf("%s --help has no flags", c.Name)
		}
		for _, m := range mention.FindAllString(quoted.ReplaceAllString(body, ""), -1) {
			if !regexp.MustCompile(regexp.QuoteMeta(m)+`[ =\[]`).MatchString(flags) && !others[c.Name][m] {
				t.Errorf("%s --help names %s, which it does not have", c.Name, m)
			}
		}
	}
}

// TestNoSummaryAfterUsageError: a run that ends in a usage error (a file
// that is not there, a definition the schema lacks) prints no summary or
// report of what it did not read.
func TestNoSummaryAfterUsageError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	file := filepath.Join("..", "..", "examples", "session.jsonl")
	for _, args := range [][]string{
		{"validate", missing},
		{"validate", "--format", "json", missing},
		{"validate", "--definition", "Nope", file},
		{"stats", missing},
		{"stats", "--format", "json", missing},
	} {
		code, out, errOut := jrpcld(t, "", args...)
		if code != cli.ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, one line, no summary", args, code, out, errOut)
		}
	}
	// A file read and one missing: the problems of the one read, exit 2.
	code, out, _ := jrpcld(t, "", "stats", file, missing)
	if code != cli.ExitUsage || !strings.Contains(out, "session.jsonl") {
		t.Errorf("stats FILE MISSING: exit %d, stdout %.80q", code, out)
	}
}

// TestQuietFoldsWarnings: loading the MCP block warns of each IRI its
// context makes that its ontology lacks (over a hundred lines); -q folds
// the warnings alike into one line with a count, --quiet=all prints none,
// and the report on standard output stays the same.
func TestQuietFoldsWarnings(t *testing.T) {
	reg := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	file := filepath.Join("..", "..", "examples", "session.jsonl")
	run := func(q ...string) (string, []string) {
		t.Helper()
		args := append(append([]string{"validate", "--bblock", reg, "--id", "mcp.mcp"}, q...), file)
		code, out, errOut := jrpcld(t, "", args...)
		if code == cli.ExitUsage {
			t.Fatalf("%q: exit 2: %s", args, errOut)
		}
		return out, strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	}
	out, all := run()
	warnings := 0
	for _, l := range all {
		if strings.Contains(l, "warning: ") {
			warnings++
		}
	}
	if warnings < 20 {
		t.Fatalf("%d warnings without -q: the test needs many alike", warnings)
	}
	outQ, folded := run("-q")
	counted := 0
	count := regexp.MustCompile(` \(and ([0-9]+) more like it; without -q, each is printed\)$`)
	for _, l := range folded {
		if !strings.Contains(l, "warning: ") {
			continue
		}
		counted++
		if m := count.FindStringSubmatch(l); m != nil {
			var n int
			for _, d := range m[1] {
				n = n*10 + int(d-'0')
			}
			counted += n
			if !bytes.Contains([]byte(strings.Join(all, "\n")), []byte(strings.TrimSuffix(l, m[0]))) {
				t.Errorf("the folded line is not one of the warnings: %q", l)
			}
		}
	}
	if len(folded) >= warnings/4 || counted != warnings {
		t.Errorf("-q: %d lines for %d warnings (%d counted); want them folded:\n%s", len(folded), warnings, counted, strings.Join(folded, "\n"))
	}
	outAll, none := run("--quiet=all")
	for _, l := range none {
		if strings.Contains(l, "warning: ") {
			t.Errorf("--quiet=all: %q", l)
		}
	}
	if outQ != out || outAll != out {
		t.Errorf("the report changes with -q:\n%s\n%s\n%s", out, outQ, outAll)
	}
	if code, _, errOut := jrpcld(t, "", "validate", "--quiet=some", file); code != cli.ExitUsage || !strings.Contains(errOut, "true, false or all") {
		t.Errorf("--quiet=some: exit %d, %q", code, errOut)
	}
}

// openPTY returns the two ends of a new pseudo-terminal (Linux).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("a pseudo-terminal is opened the Linux way")
	}
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var unlock int32
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		t.Skipf("unlocking the pseudo-terminal: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		m.Close()
		t.Skipf("naming the pseudo-terminal: %v", e)
	}
	s, err := os.OpenFile("/dev/pts/"+itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestStdinTerminal: with standard input a terminal, a command that reads
// it says so, and reads what is typed up to Ctrl-D; from a pipe or a file
// it says nothing.
func TestStdinTerminal(t *testing.T) {
	shapes := filepath.Join("..", "..", "examples", "shapes", "jsonrpc.ttl")
	for _, c := range []struct {
		name string
		args func(*testing.T) []string
		want string // on standard output
	}{
		{"validate", func(*testing.T) []string { return []string{"validate"} }, "1 valid"},
		{"validate --mcp", func(t *testing.T) []string {
			return []string{"validate", "--mcp", "--mcp-schemas", shared.Dir(t, "reference", "mcp-schema")}
		}, "1 file"},
		{"turtle", func(*testing.T) []string { return []string{"turtle"} }, "jrpc:Request"},
		{"stats", func(*testing.T) []string { return []string{"stats"} }, "ping"},
		{"shacl", func(*testing.T) []string { return []string{"shacl", "--shapes", shapes, "--base", "urn:x:log"} }, "Conforms"},
	} {
		t.Run(c.name, func(t *testing.T) { stdinTerminal(t, c.args(t), c.want) })
	}
	for _, cmd := range []string{"validate", "turtle", "stats"} {
		if _, _, errOut := jrpcld(t, `{"jsonrpc":"2.0","method":"ping","id":1}`+"\n", cmd); strings.Contains(errOut, "reading standard input") {
			t.Errorf("%s from a pipe: %q", cmd, errOut)
		}
	}
}

// stdinTerminal runs jrpcld with args, standard input a terminal on which
// a message and Ctrl-D are typed: it must say that it reads a terminal,
// end there, and print want.
func stdinTerminal(t *testing.T, args []string, want string) {
	master, slave := openPTY(t)
	go func() {
		time.Sleep(100 * time.Millisecond)
		master.Write([]byte(`{"jsonrpc":"2.0","method":"ping","id":1}` + "\n\x04"))
	}()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, &cli.Env{Stdin: slave, Stdout: &out, Stderr: &errOut}) }()
	select {
	case code := <-done:
		if code == cli.ExitUsage || !strings.Contains(errOut.String(), "reading standard input, a terminal") || !strings.Contains(out.String(), want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%q did not end at Ctrl-D", args)
	}
}
