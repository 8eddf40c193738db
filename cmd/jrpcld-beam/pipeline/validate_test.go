package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// cliValidate returns the lines "jrpcld validate --format json FILE..."
// prints, each decoded as a plain JSON value.
func cliValidate(t *testing.T, files []string, args ...string) []any {
	t.Helper()
	args = append([]string{"validate", "--format", "json", "-q"}, args...)
	cmd := exec.Command(cli, append(args, files...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("jrpcld validate: %v\n%s", err, stderr.Bytes())
		}
	}
	return jsonLines(t, "jrpcld validate", stdout.Bytes())
}

// jsonLines decodes each line of data as a plain JSON value.
func jsonLines(t *testing.T, what string, data []byte) []any {
	t.Helper()
	var out []any
	for _, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("%s: line %q: %v", what, line, err)
		}
		out = append(out, v)
	}
	return out
}

func runValidate(t *testing.T, opts ValidateOptions) []any {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Validate(s, opts); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	data, err := os.ReadFile(opts.Output)
	if err != nil {
		t.Fatal(err)
	}
	return jsonLines(t, opts.Output, data)
}

// sameValidate checks that got and want are the same lines, by JSON
// value, and returns want's summary.
func sameValidate(t *testing.T, got, want []any) map[string]any {
	t.Helper()
	sum, _ := want[len(want)-1].(map[string]any)["summary"].(map[string]any)
	if sum == nil {
		t.Fatalf("jrpcld validate's last line is not a summary: %v", want[len(want)-1])
	}
	if len(got) != len(want) {
		t.Errorf("%d lines, jrpcld validate %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			gj, _ := json.Marshal(got[i])
			wj, _ := json.Marshal(want[i])
			t.Errorf("line %d:\n got %s\nwant %s", i+1, gj, wj)
		}
	}
	return sum
}

func TestValidateCorpus(t *testing.T) {
	dir, files := corpusLogs(t)
	mcp := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	schemaFile := filepath.Join(shared.Dir(t, "reference", "mcp-schema", "2025-11-25"), "schema.json")
	for _, tc := range []struct {
		name string
		opts ValidateOptions
		args []string
	}{
		{name: "jsonrpc", opts: ValidateOptions{}},
		{name: "mcp", opts: ValidateOptions{BBlock: mcp, ID: "mcp.mcp"}, args: []string{"--bblock", mcp, "--id", "mcp.mcp"}},
		{name: "schema file, formats", opts: ValidateOptions{Schema: schemaFile, Formats: true}, args: []string{"--schema", schemaFile, "--formats"}},
		{name: "definition", opts: ValidateOptions{Schema: schemaFile, Definition: "JSONRPCRequest"},
			args: []string{"--schema", schemaFile, "--definition", "JSONRPCRequest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Input = filepath.Join(dir, "*.jsonl")
			tc.opts.Output = filepath.Join(t.TempDir(), "problems.jsonl")
			sum := sameValidate(t, runValidate(t, tc.opts), cliValidate(t, files, tc.args...))
			if sum["files"] != float64(len(files)) {
				t.Errorf("summary %v for %d files", sum, len(files))
			}
		})
	}
}

// TestValidateGenerated validates generated logs cut into many files, with
// the bound on problems written falling within a log, and without bound.
func TestValidateGenerated(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(16, 9))
	var files []string
	for i := range 6 {
		files = append(files, cutLog(t, r, dir, fmt.Sprintf("log%d", i), genLog(r, 150+i*60), 20, 80)...)
	}
	for _, max := range []int{0, 37} {
		t.Run(fmt.Sprint("max ", max), func(t *testing.T) {
			opts := ValidateOptions{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(t.TempDir(), "problems.jsonl"), MaxErrors: max}
			var args []string
			if max > 0 {
				args = []string{"--max-errors", fmt.Sprint(max)}
			}
			got, want := runValidate(t, opts), cliValidate(t, files, args...)
			s := sameValidate(t, got, want)
			if s["invalid"] == 0.0 || s["files"] != float64(len(files)) {
				t.Errorf("the generated logs should have %d files and invalid messages: %v", len(files), s)
			}
			if notPrinted := s["notPrinted"].(float64); max > 0 && (notPrinted == 0 || len(want) != max+1) || max == 0 && notPrinted != 0 {
				t.Errorf("%d lines, %v not printed: the bound should apply only with --max-errors", len(want), notPrinted)
			}
		})
	}
}
