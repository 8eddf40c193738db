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

	"github.com/jrpcld/jrpcld/internal/shared"
)

// cliSummary returns the summary object "jrpcld validate --format json
// FILE..." prints last, without its "notPrinted", as a plain JSON value.
func cliSummary(t *testing.T, files []string, blockArgs ...string) any {
	t.Helper()
	args := append([]string{"validate", "--format", "json", "-q"}, blockArgs...)
	cmd := exec.Command(cli, append(args, files...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("jrpcld validate: %v\n%s", err, stderr.Bytes())
		}
	}
	lines := bytes.Split(bytes.TrimSpace(stdout.Bytes()), []byte("\n"))
	var last map[string]map[string]any
	if err := json.Unmarshal(lines[len(lines)-1], &last); err != nil || last["summary"] == nil {
		t.Fatalf("jrpcld validate's last line %q: %v", lines[len(lines)-1], err)
	}
	delete(last["summary"], "notPrinted")
	var v any
	data, _ := json.Marshal(last)
	json.Unmarshal(data, &v)
	return v
}

func runValidate(t *testing.T, opts ValidateOptions) any {
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
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	return v
}

func sameSummary(t *testing.T, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Errorf("\n got %s\nwant %s", gj, wj)
	}
}

func TestValidateCorpus(t *testing.T) {
	dir, files := corpusLogs(t)
	mcp := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	for _, tc := range []struct {
		name      string
		opts      ValidateOptions
		blockArgs []string
	}{
		{name: "jsonrpc", opts: ValidateOptions{}},
		{name: "mcp", opts: ValidateOptions{BBlock: mcp, ID: "mcp.mcp"}, blockArgs: []string{"--bblock", mcp, "--id", "mcp.mcp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Input = filepath.Join(dir, "*.jsonl")
			tc.opts.Output = filepath.Join(t.TempDir(), "summary.json")
			sameSummary(t, runValidate(t, tc.opts), cliSummary(t, files, tc.blockArgs...))
		})
	}
}

func TestValidateGenerated(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(16, 9))
	var files []string
	for i := range 6 {
		name := filepath.Join(dir, fmt.Sprintf("log%d.jsonl", i))
		if err := os.WriteFile(name, genLog(r, 150+i*60), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	opts := ValidateOptions{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(t.TempDir(), "summary.json")}
	got, want := runValidate(t, opts), cliSummary(t, files)
	sameSummary(t, got, want)
	if s := want.(map[string]any)["summary"].(map[string]any); s["invalid"] == 0.0 || s["files"] != 6.0 {
		t.Errorf("the generated logs should have 6 files and invalid messages: %v", s)
	}
}
