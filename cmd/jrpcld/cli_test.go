package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestVersionFlag: --version prints one line on standard output and exits 0.
func TestVersionFlag(t *testing.T) {
	for _, arg := range []string{"--version", "-v"} {
		code, out, errOut := jrpcld(t, "", arg)
		if code != cli.ExitOK || errOut != "" || !strings.HasPrefix(out, "jrpcld ") || strings.Count(out, "\n") != 1 ||
			!strings.Contains(out, "revision") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", arg, code, out, errOut)
		}
	}
}

// TestHelpOnStdout: every command's help goes to standard output, so that
// it can be paged, with exit status 0, whichever way it is asked for.
func TestHelpOnStdout(t *testing.T) {
	for _, c := range commands() {
		for _, args := range [][]string{{"help", c.Name}, {c.Name, "--help"}, {c.Name, "-h"}} {
			code, out, errOut := jrpcld(t, "", args...)
			if code != cli.ExitOK || errOut != "" || !strings.HasPrefix(out, "Usage: jrpcld "+c.Name) || !strings.Contains(out, "Flags:") {
				t.Errorf("%q: exit %d, stdout %.80q, stderr %q", args, code, out, errOut)
			}
		}
	}
}

// TestCompletion: completion scripts name the commands and their flags.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errOut := jrpcld(t, "", "completion", shell)
		if code != cli.ExitOK || errOut != "" || !strings.Contains(out, "jrpcld") || len(out) < 1000 {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %q", shell, code, len(out), errOut)
		}
	}
	// What the scripts ask the program: the candidates for a word.
	code, out, _ := jrpcld(t, "", "__complete", "val")
	if code != cli.ExitOK || !strings.Contains(out, "validate") {
		t.Errorf("completing \"val\": exit %d, %q", code, out)
	}
	code, out, _ = jrpcld(t, "", "__complete", "validate", "--form")
	if code != cli.ExitOK || !strings.Contains(out, "--format") || !strings.Contains(out, "--formats") {
		t.Errorf("completing \"validate --form\": exit %d, %q", code, out)
	}
	if code, _, errOut := jrpcld(t, "", "completion", "tcsh"); code != cli.ExitUsage || !strings.Contains(errOut, "tcsh") {
		t.Errorf("completion tcsh: exit %d, %q", code, errOut)
	}
}

// TestMan: one page per command, each a roff page that names the command
// and its flags.
func TestMan(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man")
	code, _, errOut := jrpcld(t, "", "man", "-o", dir)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, c := range append(commands(), cli.Command{Name: "completion"}) {
		page, err := os.ReadFile(filepath.Join(dir, "jrpcld-"+c.Name+".1"))
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.HasPrefix(string(page), ".nh\n.TH ") || !strings.Contains(string(page), "jrpcld-"+c.Name) {
			t.Errorf("page of %s: %.200q", c.Name, page)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "jrpcld-validate.1"))
	if err == nil && !strings.Contains(string(page), `--schema`) {
		t.Errorf("validate's page does not name --schema")
	}
	if code, _, errOut := jrpcld(t, "", "man"); code != cli.ExitUsage || !strings.Contains(errOut, "-o DIR") {
		t.Errorf("man without -o: exit %d, %q", code, errOut)
	}
}

// TestNoProgressOffTerminal: commands that read for long draw no progress
// when standard error is not a terminal (here, a buffer).
func TestNoProgressOffTerminal(t *testing.T) {
	in := strings.Repeat(`{"jsonrpc":"2.0","method":"a"}`+"\n", 1000)
	for _, args := range [][]string{{"validate"}, {"stats"}, {"gen", "-n", "10", "-"}} {
		if code, _, errOut := jrpcld(t, in, args...); code != cli.ExitOK || errOut != "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestHelpListsFlags: the flags cobra adds itself (--help, --version) are
// listed in help, which runs before cobra would have added them.
func TestHelpListsFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"--help", "--version"}},
		{[]string{"--help"}, []string{"--help", "--version"}},
		{[]string{"help", "help"}, []string{"--help"}},
		{[]string{"help", "turtle"}, []string{"--help", "--engine"}},
	} {
		code, out, _ := jrpcld(t, "", tt.args...)
		for _, w := range tt.want {
			if code != cli.ExitOK || !strings.Contains(out, w) {
				t.Errorf("%q: exit %d, %s not listed:\n%s", tt.args, code, w, out)
			}
		}
	}
}
