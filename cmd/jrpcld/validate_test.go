package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// gzipped returns data gzip-compressed.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestValidateWholeInput: an input with no message (empty, white space,
// an empty gzip stream, empty standard input) or in UTF-16 is one invalid
// message, printed without a line, and the exit status is 1; a UTF-8 byte
// order mark is skipped.
func TestValidateWholeInput(t *testing.T) {
	dir := t.TempDir()
	var u16 []byte
	for _, c := range utf16.Encode([]rune("\ufeff" + `{"jsonrpc":"2.0","method":"a"}` + "\n")) {
		u16 = append(u16, byte(c), byte(c>>8))
	}
	for _, tt := range []struct {
		name    string
		content []byte
		stdin   bool
		want    string // the problem line; "" for a valid file
	}{
		{name: "empty.jsonl", want: "empty.jsonl: -32700 invalid: not JSON: empty input: no JSON-RPC message\n"},
		{name: "blank.jsonl", content: []byte("\n \r\n\n"), want: "blank.jsonl: -32700 invalid: not JSON: empty input: only white space, no JSON-RPC message\n"},
		{name: "empty.jsonl.gz", content: gzipped(t, nil), want: "empty.jsonl.gz: -32700 invalid: not JSON: empty input: the gzip data decompresses to nothing, no JSON-RPC message\n"},
		{name: "stdin", stdin: true, want: "stdin: -32700 invalid: not JSON: empty input: no JSON-RPC message\n"},
		{name: "utf16.jsonl", content: u16, want: "utf16.jsonl: -32700 invalid: not JSON: the log is UTF-16 LE (it starts with the UTF-16 byte order mark): jrpcld reads UTF-8; convert it first (iconv -f UTF-16LE -t UTF-8)\n"},
		{name: "bom.jsonl", content: []byte("\xef\xbb\xbf" + `{"jsonrpc":"2.0","method":"a"}` + "\n")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"validate"}
			if !tt.stdin {
				path := filepath.Join(dir, tt.name)
				if err := os.WriteFile(path, tt.content, 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, path)
			}
			code, out, errOut := jrpcld(t, "", args...)
			out = strings.ReplaceAll(out, dir+string(filepath.Separator), "")
			if tt.want == "" {
				if code != cli.ExitOK || !strings.HasPrefix(out, "1 file, 1 message: 1 valid, 0 invalid\n") {
					t.Errorf("exit %d\n%s%s", code, out, errOut)
				}
				return
			}
			if code != cli.ExitInvalid || errOut != "" || !strings.HasPrefix(out, tt.want+"1 file, 1 message: 0 valid, 1 invalid") {
				t.Errorf("exit %d\n%s%s\nwant first\n%s", code, out, errOut, tt.want)
			}
		})
	}
}

// TestValidateDuplicates: a member named twice is a warning with its
// pointer and no code, in text and JSON; the message stays valid and the
// exit status 0.
func TestValidateDuplicates(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"id":2,"method":"m","params":{"a":1,"a":2,"a":3}}` + "\n" +
		`{"dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{},"result":null}}` + "\n"
	code, out, errOut := jrpcld(t, in, "validate")
	want := `stdin:1: request: warning: member "a" appears 3 times in one object: the last one is used (at /params/a)
stdin:1: request: warning: member "id" appears twice in one object: the last one is used (at /id)
stdin:2: response: warning: member "result" appears twice in one object: the last one is used (at /result)
1 file, 2 messages: 2 valid, 0 invalid, 3 warnings
`
	if code != cli.ExitOK || !strings.HasPrefix(out, want) || errOut != "" {
		t.Errorf("exit %d\n%s%s\nwant\n%s", code, out, errOut, want)
	}
	code, out, _ = jrpcld(t, in, "validate", "--format", "json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != cli.ExitOK || len(lines) != 4 {
		t.Fatalf("exit %d, %d lines, want 3 warnings and a summary\n%s", code, len(lines), out)
	}
	var first, sum map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[3]), &sum)
	if first["severity"] != "warning" || first["pointer"] != "/params/a" || first["line"] != 1.0 || first["code"] != 0.0 || first["kind"] != "request" {
		t.Errorf("first warning %v", first)
	}
	if s, _ := sum["summary"].(map[string]any); s == nil || s["warnings"] != 3.0 || s["valid"] != 2.0 || s["invalid"] != 0.0 {
		t.Errorf("summary %v", sum)
	}
}

// TestValidateFormats: an icon whose src is not a URI passes the MCP
// 2025-11-25 schema as its draft says (format is an annotation in
// 2020-12), and fails with --formats, naming the format, as ajv-formats
// would; stats --formats counts it the same way.
func TestValidateFormats(t *testing.T) {
	file := filepath.Join(shared.Dir(t, "reference", "mcp-schema", "2025-11-25"), "schema.json")
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1","icons":[{"src":"foobar"}]}}}` + "\n"
	if code, out, errOut := jrpcld(t, in, "validate", "--schema", file); code != cli.ExitOK {
		t.Errorf("without --formats: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ := jrpcld(t, in, "validate", "--formats", "--schema", file)
	if code != cli.ExitInvalid || !strings.Contains(out, "(at /params/clientInfo/icons/0/src; schema") || !strings.Contains(out, "not valid uri") {
		t.Errorf("with --formats: exit %d\n%s", code, out)
	}
	code, out, _ = jrpcld(t, in, "stats", "--format", "json", "--formats", "--schema", file)
	if code != cli.ExitInvalid || !strings.Contains(out, `"invalid": 1`) {
		t.Errorf("stats --formats: exit %d\n%s", code, out)
	}
}
