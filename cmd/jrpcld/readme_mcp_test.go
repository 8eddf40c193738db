package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/everything"
	"github.com/jrpcld/jrpcld/internal/testkit/mcptoy"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// readmeBlock returns the first fenced block of language lang after the
// heading of the README.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, rest, ok = strings.Cut(rest, "\n```"+lang+"\n")
	block, _, ok2 := strings.Cut(rest, "\n```\n")
	if !ok || !ok2 {
		t.Fatalf("README's %q has no %s block", heading, lang)
	}
	return block
}

// TestREADMEMCPFiveMinutes runs the README's "MCP in five minutes" block as
// written, in bash, with no network: JRPCLD_FETCH_MIRROR points fetch at a
// local server that serves ../shared's copies of the OGC MCP register and
// of the MCP schemas; "jrpcld" on the PATH is this test binary running the
// command; "npx" is a script that runs the reference server .ci/run
// installs (or, where it is not installed, the toy server). The session
// must be valid against its negotiated version, and the Turtle must read
// back with an independent parser.
func TestREADMEMCPFiveMinutes(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	block := readmeBlock(t, "## MCP in five minutes", "bash")
	reference := "" // found before serveMirror moves the user's cache
	if os.Getenv("JRPCLD_SHARED") != "" {
		reference = everything.Bin(t) // CI installs it: it must run
	} else if p, ok := everything.Find(); ok {
		reference = p
	}
	serveMirror(t)
	bin := t.TempDir()
	script := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script("jrpcld", fmt.Sprintf("JRPCLD_TEST_MAIN=1 exec %q \"$@\"", os.Args[0]))
	server := fmt.Sprintf("%s=1 exec %q -test.run=^$", mcptoy.Env, os.Args[0])
	if reference != "" {
		server = fmt.Sprintf("exec %q stdio", reference)
	}
	script("npx", server)
	work := t.TempDir()
	cmd := exec.Command(bash, "-euo", "pipefail", "-c", block)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's block failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "messages: ") || strings.Contains(string(out), " invalid (") {
		t.Errorf("validate --mcp did not find the session valid:\n%s", out)
	}
	ttl, err := os.ReadFile(filepath.Join(work, "session.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rdftest.Rapper(t, ttl, "http://example.com/")); n < 20 || !strings.Contains(string(ttl), "mcp:") {
		t.Errorf("session.ttl: %d triples", n)
	}
	if st, err := os.Stat(filepath.Join(work, "report.html")); err != nil || st.Size() < 1000 {
		t.Errorf("report.html: %v", err)
	}
	answers, _ := os.ReadFile(filepath.Join(work, "answers.jsonl"))
	if !strings.Contains(string(answers), "hello") {
		t.Errorf("the server's answers: %s", answers)
	}
	t.Logf("server %q:\n%s", server, out)
}
