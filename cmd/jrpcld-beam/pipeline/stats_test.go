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

// cliStats returns the members of the "logs" array "jrpcld stats --format
// json FILE..." prints, decoded as plain JSON values, by file.
func cliStats(t *testing.T, files []string, blockArgs ...string) map[string]any {
	t.Helper()
	args := append([]string{"stats", "--format", "json", "-q"}, blockArgs...)
	cmd := exec.Command(cli, append(args, files...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("jrpcld stats: %v\n%s", err, stderr.Bytes())
		}
	}
	var report struct{ Logs []map[string]any }
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("jrpcld stats: %v", err)
	}
	m := map[string]any{}
	for _, l := range report.Logs {
		m[fmt.Sprint(l["file"])] = l
	}
	return m
}

// runStats runs the Stats pipeline on Prism and returns its lines decoded
// as plain JSON values, by file.
func runStats(t *testing.T, opts StatsOptions) map[string]any {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Stats(s, opts); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	data, err := os.ReadFile(opts.Output)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	for _, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var l map[string]any
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		f := fmt.Sprint(l["file"])
		if _, dup := m[f]; dup {
			t.Errorf("%s: summarised twice", f)
		}
		m[f] = l
	}
	return m
}

// sameStats checks that got and want hold the same logs with equal JSON.
func sameStats(t *testing.T, got, want map[string]any, logs int) {
	t.Helper()
	if len(want) != logs {
		t.Fatalf("jrpcld stats gave %d logs for %d files", len(want), logs)
	}
	if len(got) != len(want) {
		t.Errorf("pipeline gave %d logs, jrpcld %d", len(got), len(want))
	}
	for f, w := range want {
		g, ok := got[f]
		if !ok {
			t.Errorf("%s: missing", f)
			continue
		}
		if !reflect.DeepEqual(g, w) {
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			t.Errorf("%s:\n got %s\nwant %s", f, gj, wj)
		}
	}
}

func TestStatsCorpus(t *testing.T) {
	dir, files := corpusLogs(t)
	mcp := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	for _, tc := range []struct {
		name      string
		opts      StatsOptions
		blockArgs []string
	}{
		{name: "rules", opts: StatsOptions{}},
		{name: "mcp schema", opts: StatsOptions{BBlock: mcp, ID: "mcp.mcp"}, blockArgs: []string{"--bblock", mcp, "--id", "mcp.mcp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Input = filepath.Join(dir, "*.jsonl")
			tc.opts.Output = filepath.Join(t.TempDir(), "stats.jsonl")
			sameStats(t, runStats(t, tc.opts), cliStats(t, files, tc.blockArgs...), len(files))
		})
	}
}

func TestStatsGenerated(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(16, 7))
	var files []string
	for i := range 5 {
		name := filepath.Join(dir, fmt.Sprintf("log%d.jsonl", i))
		if err := os.WriteFile(name, genLog(r, 200+i*100), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	opts := StatsOptions{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(t.TempDir(), "stats.jsonl")}
	sameStats(t, runStats(t, opts), cliStats(t, files), len(files))
}
