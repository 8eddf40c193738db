package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestOutputIsInput: when the file a command would write (-o, --html, or a
// file examples writes into -o DIR) is one of its inputs, under any
// spelling, through a symbolic or a hard link, or as standard input, the
// command refuses before reading anything: exit 2, one line naming the
// file, and every file unchanged.
func TestOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	// The log's second line is not JSON: a command that read it would
	// report that line.
	const logText = `{"jsonrpc":"2.0","method":"m"}` + "\nnot JSON\n"
	log := filepath.Join(dir, "session.jsonl")
	write(t, log, logText)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("session.jsonl", link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.jsonl")
	if err := os.Link(log, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	respelled := dir + "/sub/../session.jsonl"
	graph := filepath.Join(dir, "graph.ttl")
	const graphText = "<http://s> <http://p> .\n" // not Turtle: reading it fails
	write(t, graph, graphText)
	// A block whose first snippet is the file example_1_1.jsonld, which
	// "examples -o BLOCK" would write over.
	block := filepath.Join(dir, "block")
	copyDir(t, "../../bblock/jsonrpc", block)
	examples := filepath.Join(block, "examples.yaml")
	data, _ := os.ReadFile(examples)
	const code = `        code: |
          {"jsonrpc": "2.0", "method": "sum", "params": [1, 2, 4], "id": "req-1"}
`
	if !bytes.Contains(data, []byte(code)) {
		t.Fatal("the embedded block's first snippet changed: update the test")
	}
	write(t, examples, strings.Replace(string(data), code, "        ref: example_1_1.jsonld\n", 1))
	snippet := filepath.Join(block, "example_1_1.jsonld")
	const snippetText = `{"jsonrpc": "2.0", "method": "sum", "params": [1, 2, 4], "id": "req-1"}`
	write(t, snippet, snippetText)

	files := map[string]string{log: logText, graph: graphText, snippet: snippetText}
	tests := []struct {
		name  string
		args  []string
		stdin string // a file to read as standard input
		want  string
	}{
		{"turtle", []string{"turtle", "-o", log, log},
			"", "jrpcld turtle: -o " + log + " is also an input: refusing to replace it (write elsewhere)\n"},
		{"rdf, one input of two", []string{"rdf", "--format", "nquads", "-o", log, graph, log},
			"", "jrpcld rdf: -o " + log + " is also an input: refusing to replace it (write elsewhere)\n"},
		{"through a symbolic link", []string{"turtle", "-o", link, log},
			"", "jrpcld turtle: -o " + link + " is also an input (" + log + "): refusing to replace it (write elsewhere)\n"},
		{"input through a symbolic link", []string{"turtle", "-o", log, link},
			"", "jrpcld turtle: -o " + log + " is also an input (" + link + "): refusing to replace it (write elsewhere)\n"},
		{"hard link", []string{"turtle", "-o", hard, log},
			"", "jrpcld turtle: -o " + hard + " is also an input (" + log + "): refusing to replace it (write elsewhere)\n"},
		{"another spelling", []string{"turtle", "-o", respelled, log},
			"", "jrpcld turtle: -o " + respelled + " is also an input: refusing to replace it (write elsewhere)\n"},
		{"standard input", []string{"turtle", "-o", log},
			log, "jrpcld turtle: -o " + log + " is also the input (standard input): refusing to replace it (write elsewhere)\n"},
		{"json", []string{"json", "-o", graph, graph},
			"", "jrpcld json: -o " + graph + " is also an input: refusing to replace it (write elsewhere)\n"},
		{"gen", []string{"gen", "-n", "5", "-o", log, log},
			"", "jrpcld gen: -o " + log + " is also an input: refusing to replace it (write elsewhere)\n"},
		{"stats --html", []string{"stats", "--html", log, log},
			"", "jrpcld stats: --html " + log + " is also an input: refusing to replace it (write elsewhere)\n"},
		{"examples", []string{"examples", "--bblock", block, "-o", block},
			"", "jrpcld examples: the output " + snippet + " is also an input: refusing to replace it (write elsewhere)\n"},
		{"build", []string{"build", dir, "-o", dir + "/"},
			"", "jrpcld build: -o " + dir + "/ is the SOURCES folder: refusing to write the register into it (write elsewhere, or into --build-path below it)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdin *os.File
			if tt.stdin != "" {
				f, err := os.Open(tt.stdin)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				stdin = f
			}
			var out, errOut bytes.Buffer
			e := &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}
			if stdin != nil {
				e.Stdin = stdin
			}
			code := run(tt.args, e)
			if code != cli.ExitUsage || errOut.String() != tt.want || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and stderr:\n%s", code, out.String(), errOut.String(), tt.want)
			}
			for f, want := range files {
				if got, _ := os.ReadFile(f); string(got) != want {
					t.Errorf("%s changed: %q", f, got)
				}
			}
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s is no longer a symbolic link", link)
			}
			if _, err := os.Stat(filepath.Join(dir, "register.json")); err == nil {
				t.Errorf("build wrote into the sources")
			}
		})
	}
}

// TestOutputToPipe: -o naming a named pipe (as /dev/null names a device)
// writes the output into it and leaves it a pipe; the atomic way would
// have renamed a regular file over it.
func TestOutputToPipe(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	log := filepath.Join(dir, "session.jsonl")
	write(t, log, `{"jsonrpc":"2.0","method":"m"}`+"\n")
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(pipe)
		got <- string(b)
	}()
	var out, errOut bytes.Buffer
	e := &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}
	code := run([]string{"turtle", "-o", pipe, log}, e)
	if code != 0 || errOut.Len() != 0 || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and nothing", code, out.String(), errOut.String())
	}
	select {
	case s := <-got:
		if !strings.Contains(s, `jrpc:hasMethod "m"`) {
			t.Errorf("the pipe's reader got:\n%s\nwant the log's Turtle", s)
		}
	case <-time.After(30 * time.Second):
		if w, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close() // let the reader go
		}
		t.Error("the pipe's reader got nothing")
	}
	if st, err := os.Lstat(pipe); err != nil || st.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("%s is no longer a named pipe (%v)", pipe, err)
	}
}
