package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// jrpcld runs the command in-process with stdin and returns its exit code,
// standard output and standard error.
func jrpcld(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		out, err string
	}{
		{nil, cli.ExitOK, "Usage:", ""},
		{[]string{"help"}, cli.ExitOK, "jrpcld validate", ""},
		{[]string{"nope"}, cli.ExitUsage, "", `unknown command "nope"`},
		{[]string{"validate", "-h"}, cli.ExitOK, "Usage: jrpcld validate", ""},
		{[]string{"validate", "--help"}, cli.ExitOK, "Usage: jrpcld validate", ""},
		{[]string{"help", "validate"}, cli.ExitOK, "--schema FILE", ""},
		{[]string{"help", "help"}, cli.ExitOK, "Usage: jrpcld help", ""},
		{[]string{"help", "-h"}, cli.ExitOK, "Usage: jrpcld help", ""},
		{[]string{"-h", "-h"}, cli.ExitOK, "jrpcld validate", ""},
		{[]string{"--help"}, cli.ExitOK, "jrpcld validate", ""},
		{[]string{"help", "nope"}, cli.ExitUsage, "", `unknown command "nope"`},
		{[]string{"valdate"}, cli.ExitUsage, "", `unknown command "valdate"; did you mean "validate"?`},
		{[]string{"validate", "--nope"}, cli.ExitUsage, "", "jrpcld validate: unknown flag: --nope\nsee 'jrpcld validate --help'\n"},
		{[]string{"validate", "--formt", "json"}, cli.ExitUsage, "", "unknown flag: --formt; did you mean --format?"},
		{[]string{"validate", "-format", "json"}, cli.ExitUsage, "", "-format: a long flag takes two dashes: --format"},
		{[]string{"validate", "--format"}, cli.ExitUsage, "", "flag needs an argument: --format"},
		{[]string{"validate", "--format", "xml"}, cli.ExitUsage, "", "--format must be text, json or sarif"},
		{[]string{"validate", "--schema", "a.json", "--bblock", "b"}, cli.ExitUsage, "", "not both"},
		{[]string{"validate", "no-such-file.jsonl"}, cli.ExitUsage, "", "no-such-file.jsonl"},
		{[]string{"validate", "--bblock", "no-such-dir"}, cli.ExitUsage, "", "no-such-dir"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := jrpcld(t, "", tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, out, errOut, tt.code, tt.out, tt.err)
			}
			if strings.Contains(errOut, "goroutine ") || strings.Contains(errOut, "panic") {
				t.Errorf("stack trace printed: %s", errOut)
			}
		})
	}
}

// TestFlagsAnywhere: flags come before, between or after the positional
// arguments, long ones as --name VALUE or --name=VALUE, short ones as -f
// VALUE; "-" is an input and "--" ends the flags.
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	msg := `{"jsonrpc":"2.0","method":"a","id":1}` + "\n"
	for _, name := range []string{"a", "b", "--format"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b, f := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "--format")
	tests := []struct {
		args  []string
		files int
		json  bool
	}{
		{[]string{a, "--format", "json", b}, 2, true},
		{[]string{"--format=json", "-"}, 1, true},
		{[]string{"-", "-f", "json"}, 1, true},
		{[]string{a, "-fjson"}, 1, true},
		{[]string{"--", f, a}, 2, false},
		{nil, 1, false},
	}
	for _, tt := range tests {
		code, out, errOut := jrpcld(t, msg, append([]string{"validate"}, tt.args...)...)
		want := fmt.Sprintf("%d file", tt.files)
		if tt.json {
			want = fmt.Sprintf(`"files":%d`, tt.files)
		}
		if code != cli.ExitOK || !strings.Contains(out, want) {
			t.Errorf("validate %q: exit %d, %q %q; want %s", tt.args, code, out, errOut, want)
		}
	}
}

// TestValidateMixed runs validate over a log with every kind of trouble and
// checks each line of the report.
func TestValidateMixed(t *testing.T) {
	code, out, errOut := jrpcld(t, "", "validate", "testdata/mixed.jsonl")
	if code != cli.ExitInvalid || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := []string{
		"testdata/mixed.jsonl:3: -32700 invalid: not JSON: column 2:",
		`testdata/mixed.jsonl:4: -32600 request: warning: method "rpc.internal"`,
		`testdata/mixed.jsonl:5: -32600 invalid: "jsonrpc" must be the string "2.0", got "1.0" (at /jsonrpc)`,
		"testdata/mixed.jsonl:6: -32600 invalid: a batch member must be an object, got 1 (at /1)",
		"1 file, 7 messages: 4 valid, 3 invalid (batch 1, invalid 2), 1 warning",
		"kinds: request 2, response 1, error-response 1, batch 1, invalid 2",
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s\nwant %d lines", out, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], w)
		}
	}
}

func TestValidateJSON(t *testing.T) {
	data, err := os.ReadFile("testdata/mixed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := jrpcld(t, string(data), "validate", "--format", "json")
	if code != cli.ExitInvalid {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var objs []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		objs = append(objs, m)
	}
	if len(objs) != 5 {
		t.Fatalf("%d objects, want 4 problems and a summary", len(objs))
	}
	first := objs[0]
	if first["file"] != "stdin" || first["line"] != 3.0 || first["code"] != -32700.0 || first["kind"] != "invalid" || first["severity"] != "error" {
		t.Errorf("first problem %v", first)
	}
	sum, ok := objs[4]["summary"].(map[string]any)
	if !ok || sum["messages"] != 7.0 || sum["valid"] != 4.0 || sum["invalid"] != 3.0 || sum["warnings"] != 1.0 {
		t.Errorf("summary %v", objs[4])
	}
}

func TestValidateInputForms(t *testing.T) {
	dir := t.TempDir()
	msgs := `{"jsonrpc":"2.0","method":"a","id":1}` + "\n" + `{"jsonrpc":"2.0","result":null,"id":1}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(msgs))
	zw.Close()
	files := map[string]string{
		"pretty.json":    "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"a\"\n}\n",
		"batch.json":     `[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b"}]`,
		"log.jsonl":      msgs,
		"envelope.jsonl": `{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","method":"a","id":1}}` + "\n",
		"log.jsonl.gz":   gz.String(),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, n := range map[string]string{"pretty.json": "1 message", "batch.json": "1 message", "log.jsonl": "2 messages",
		"envelope.jsonl": "1 message", "log.jsonl.gz": "2 messages"} {
		code, out, errOut := jrpcld(t, "", "validate", filepath.Join(dir, name))
		if code != cli.ExitOK || !strings.Contains(out, "1 file, "+n) || strings.Contains(out, "invalid:") {
			t.Errorf("%s: exit %d, %q %q", name, code, out, errOut)
		}
	}
}

func TestValidateDefinition(t *testing.T) {
	in := `{"jsonrpc":"2.0","method":"a","id":1}`
	if code, out, _ := jrpcld(t, in, "validate", "--definition", "Request"); code != cli.ExitOK {
		t.Errorf("a request against Request: exit %d\n%s", code, out)
	}
	code, out, _ := jrpcld(t, in, "validate", "--definition", "Notification")
	if code != cli.ExitInvalid || !strings.Contains(out, "schema jrpcld.json-rpc/schema.yaml#") {
		t.Errorf("a request against Notification: exit %d\n%s", code, out)
	}
	if code, _, errOut := jrpcld(t, in, "validate", "--definition", "Nothing"); code != cli.ExitUsage || !strings.Contains(errOut, "Nothing") {
		t.Errorf("unknown definition: exit %d %q", code, errOut)
	}
}

// TestValidateCorpus: the recorded sessions are valid JSON-RPC 2.0, and
// against the MCP schema they show the one known schema failure.
func TestValidateCorpus(t *testing.T) {
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	files, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if len(files) != 6 {
		t.Fatalf("%d corpus files", len(files))
	}
	code, out, errOut := jrpcld(t, "", append([]string{"validate"}, files...)...)
	if code != cli.ExitOK || !strings.HasPrefix(out, "6 files, 224 messages: 224 valid, 0 invalid\n") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	mcp := shared.Dir(t, "reference", "mcp-schema", "2025-11-25", "schema.json")
	code, out, _ = jrpcld(t, "", "validate", "--schema", mcp, filepath.Join(corpus, "everything-stdio.dir.jsonl"))
	if code != cli.ExitInvalid || !strings.Contains(out, "everything-stdio.dir.jsonl:43: -32600 response: matches none of the alternatives") ||
		!strings.Contains(out, "76 messages: 75 valid, 1 invalid (response 1), 1 warning") {
		t.Errorf("exit %d\n%s", code, out)
	}
}
