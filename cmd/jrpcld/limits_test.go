package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

func TestLimits(t *testing.T) {
	good := `{"jsonrpc":"2.0","method":"m"}`
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	batch := "[" + strings.TrimSuffix(strings.Repeat(good+",", 5), ",") + "]"
	tests := []struct {
		name  string
		args  []string
		input string
		out   string // in stdout
	}{
		{"line", []string{"--max-line-bytes", "40"}, good + "\n" + `{"jsonrpc":"2.0","method":"m","params":[1,2,3,4,5,6,7,8,9]}` + "\n" + good + "\n",
			"stdin:2: -32700 invalid: not JSON: line longer than 40 bytes (raise the limit with --max-line-bytes)"},
		{"depth", []string{"--max-depth", "50"}, good + "\n" + `{"jsonrpc":"2.0","method":"m","params":` + deep + "}\n" + good + "\n",
			"nesting deeper than 50 levels (raise the limit with --max-depth)"},
		{"batch", []string{"--max-batch", "4"}, good + "\n" + batch + "\n" + good + "\n",
			"stdin:2: -32600 invalid: a batch of 5 messages is more than the limit of 4 (raise it with --max-batch)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, tt.input, append([]string{"validate"}, tt.args...)...)
			if code != cli.ExitInvalid || !strings.Contains(out, tt.out) || !strings.Contains(out, "3 messages: 2 valid, 1 invalid") {
				t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
			}
		})
	}
	if code, _, errOut := jrpcld(t, "", "validate", "--max-depth", "0"); code != cli.ExitUsage || !strings.Contains(errOut, "--max-depth must be positive") {
		t.Errorf("zero limit: %d %q", code, errOut)
	}
}

func TestMaxErrors(t *testing.T) {
	var in strings.Builder
	for i := 0; i < 25; i++ {
		in.WriteString("nope\n")
	}
	code, out, _ := jrpcld(t, in.String(), "validate", "--max-errors", "10")
	if code != cli.ExitInvalid || strings.Count(out, "-32700") != 10 || !strings.Contains(out, "15 more problems not printed") ||
		!strings.Contains(out, "25 messages: 0 valid, 25 invalid") {
		t.Errorf("exit %d\n%s", code, out)
	}
	code, _, errOut := jrpcld(t, in.String(), "turtle", "--max-errors", "3")
	if code != cli.ExitInvalid || strings.Count(errOut, "skipped") != 3 || !strings.Contains(errOut, "22 more problems not printed") {
		t.Errorf("turtle: exit %d\n%s", code, errOut)
	}
}

// TestHugeLine: a 100 MB line is refused under the default limit of 64 MiB,
// without holding it, and read when the limit allows it; the lines around it
// are checked either way.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB input; skipped with -short")
	}
	good := `{"jsonrpc":"2.0","method":"m"}` + "\n"
	huge := func() io.Reader {
		return io.MultiReader(strings.NewReader(good), strings.NewReader(`{"jsonrpc":"2.0","method":"m","params":["`),
			io.LimitReader(repeatReader('a'), 100<<20), strings.NewReader(`"]}`+"\n"+good))
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "1 file, 3 messages: 2 valid, 1 invalid"},
		{[]string{"--max-line-bytes", fmt.Sprint(128 << 20)}, "1 file, 3 messages: 3 valid, 0 invalid"},
	} {
		var out strings.Builder
		code := run(append([]string{"validate"}, tt.args...), &cli.Env{Stdin: huge(), Stdout: &out, Stderr: io.Discard})
		if !strings.Contains(out.String(), tt.want) || code == cli.ExitUsage {
			t.Errorf("%v: exit %d\n%s", tt.args, code, out.String())
		}
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestDecompressionLimits: every command that reads logs refuses a gzip
// input past --max-decompressed-bytes, or expanding more than
// --max-compression-ratio times, with one problem that names the flag,
// after the messages read in full; raising the flag lets it through; a
// limit that is not positive is a usage error.
func TestDecompressionLimits(t *testing.T) {
	msgs := gzipped(t, []byte(strings.Repeat(`{"jsonrpc":"2.0","method":"m"}`+"\n", 1000))) // 31 bytes a line
	// A small decompression bomb: 20 gzip members of 4 MiB of blank lines,
	// each over 1000 times smaller.
	member := gzipped(t, bytes.Repeat(append(bytes.Repeat([]byte(" "), 1<<20-1), '\n'), 4))
	bomb := strings.Repeat(string(member), 20)
	tests := []struct {
		name, stdin string
		args        []string
		out, err    string // substrings of stdout and stderr
		code        int
	}{
		{"validate size", string(msgs), []string{"validate", "--max-decompressed-bytes", "10000"},
			"stdin:323: -32700 invalid: not JSON: the gzip input decompresses to more than 10000 bytes, the limit: raise it with --max-decompressed-bytes\n" +
				"1 file, 323 messages: 322 valid, 1 invalid", "", cli.ExitInvalid},
		{"validate size raised", string(msgs), []string{"validate", "--max-decompressed-bytes", "31000"},
			"1 file, 1000 messages: 1000 valid, 0 invalid", "", cli.ExitOK},
		{"turtle size", string(msgs), []string{"turtle", "--max-decompressed-bytes", "10000"},
			"jlog:position 322", "stdin:323: skipped: the gzip input decompresses to more than 10000 bytes, the limit: raise it with --max-decompressed-bytes", cli.ExitInvalid},
		{"validate ratio", bomb, []string{"validate"},
			"refused as a likely decompression bomb; if the log is genuine, raise the limit with --max-compression-ratio\n1 file, 1 message: 0 valid, 1 invalid", "", cli.ExitInvalid},
		{"rdf ratio", bomb, []string{"rdf", "--format", "ntriples"},
			"", "refused as a likely decompression bomb; if the log is genuine, raise the limit with --max-compression-ratio", cli.ExitInvalid},
		{"validate ratio raised", bomb, []string{"validate", "--max-compression-ratio", "2000"},
			"stdin: -32700 invalid: not JSON: empty input: only white space, no JSON-RPC message", "", cli.ExitInvalid},
		{"zero size", "", []string{"validate", "--max-decompressed-bytes", "0"},
			"", "--max-decompressed-bytes must be positive, not 0", cli.ExitUsage},
		{"negative ratio", "", []string{"turtle", "--max-compression-ratio", "-1"},
			"", "--max-compression-ratio must be positive, not -1", cli.ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, want %d\nstdout %.2000s\nstderr %s", code, tt.code, out, errOut)
			}
		})
	}
}
