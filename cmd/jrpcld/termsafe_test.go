package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// hostileLog holds text that would act on a terminal: an ESC sequence and a
// CR/LF that would forge a table row in a method name, a right-to-left
// override in a tool name, a C1 control and a bidirectional isolate in a
// member name (which a schema reports in its pointer), and an ESC in a
// line that is not JSON.
const hostileLog = `{"jsonrpc":"2.0","id":1,"method":"x\u001b[31m\r\nforged | row"}
{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no \u001b]0;title\u0007 method"}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"report\u202etxt.exe","arguments":{}}}
{"jsonrpc":"2.0","method":"m","params":{"k\u009b2J\u2066\r\n":1}}
not JSON ` + "\x1b[2J" + `
`

// TestNoRawControlsFromInput: what the commands print as text never holds a
// control or bidirectional character from the input raw (only the line
// breaks the commands write themselves); the input's text is shown escaped
// instead.
func TestNoRawControlsFromInput(t *testing.T) {
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, "s.json")
	write(t, schemaFile, `{"type":"object","properties":{"params":{"type":"object","additionalProperties":{"type":"string"}}}}`)
	// A copy of the embedded block whose first example has a hostile title.
	block := filepath.Join(dir, "block")
	copyDir(t, "../../bblock/jsonrpc", block)
	examples := filepath.Join(block, "examples.yaml")
	data, err := os.ReadFile(examples)
	if err != nil {
		t.Fatal(err)
	}
	hostileTitle := `title: "Request\e[2J\r\n<http://forged> <http://x> 1 .\u202E"`
	write(t, examples, strings.Replace(string(data), "title: Request with positional parameters", hostileTitle, 1))

	tests := []struct {
		name       string
		args       []string
		checkOut   bool     // standard output is text (not RDF) and is checked too
		shown      []string // escaped forms that must appear in stdout or stderr
		wantStatus int
	}{
		{"stats", []string{"stats"}, true,
			[]string{`x\x1b[31m\r\nforged | row`, `report\u202etxt.exe`}, cli.ExitInvalid},
		{"validate with a schema", []string{"validate", "--schema", schemaFile}, true,
			[]string{`(at /params/k\u009b2J\u2066\r\n;`}, cli.ExitInvalid},
		{"turtle", []string{"turtle"}, false, nil, cli.ExitInvalid},
		{"examples", []string{"examples", "--bblock", block}, true,
			[]string{`# block example_1_1: Request\x1b[2J\r\n<http://forged> <http://x> 1 .\u202e` + "\n"}, cli.ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, hostileLog, tt.args...)
			if code != tt.wantStatus {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantStatus, errOut)
			}
			check := map[string]string{"stderr": errOut}
			if tt.checkOut {
				check["stdout"] = out
			}
			for stream, text := range check {
				for i, r := range text {
					if r != '\n' && termsafe.Escape(string(r)) != string(r) {
						t.Errorf("%s holds a raw %U at byte %d:\n%s", stream, r, i, text)
						break
					}
				}
			}
			for _, s := range tt.shown {
				if !strings.Contains(out+errOut, s) {
					t.Errorf("the output does not show %q:\nstdout:\n%s\nstderr:\n%s", s, out, errOut)
				}
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies the files of the folder src, recursively, into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestErrorf: a command's message is one "jrpcld CMD: " line per line of
// its text; the line breaks of joined errors stay, every other control or
// bidirectional character is escaped.
func TestErrorf(t *testing.T) {
	tests := []struct {
		format string
		args   []any
		want   string
	}{
		{"%v", []any{"plain"}, "jrpcld x: plain\n"},
		{"%s: %v", []any{"f\x1b[2J", "bad\rvalue\u202e"}, `jrpcld x: f\x1b[2J: bad\rvalue\u202e` + "\n"},
		{"%v", []any{"first\x07\nsecond\u2068"}, "jrpcld x: first\\x07\nsecond\\u2068\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		cli.Errorf(&cli.Env{Stderr: &b}, "x", tt.format, tt.args...)
		if b.String() != tt.want {
			t.Errorf("cli.Errorf(%q, %q) printed %q, want %q", tt.format, tt.args, b.String(), tt.want)
		}
	}
}
