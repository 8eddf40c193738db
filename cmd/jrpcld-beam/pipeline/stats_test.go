package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/stats"
)

// cliStats returns what "jrpcld stats --format json FILE..." prints,
// decoded as a plain JSON value.
func cliStats(t *testing.T, files []string, blockArgs ...string) any {
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
	var v any
	if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
		t.Fatalf("jrpcld stats: %v", err)
	}
	return v
}

// runStats runs the Stats pipeline on Prism and returns its output decoded
// as a plain JSON value.
func runStats(t *testing.T, opts StatsOptions) any {
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
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", opts.Output, err)
	}
	return v
}

// sameStats checks that got and want are the same JSON value, and that
// want has the given number of logs, in the order of files.
func sameStats(t *testing.T, got, want any, files []string) {
	t.Helper()
	logs, _ := want.(map[string]any)["logs"].([]any)
	if len(logs) != len(files) {
		t.Fatalf("jrpcld stats gave %d logs for %d files", len(logs), len(files))
	}
	for i, l := range logs {
		if f := l.(map[string]any)["file"]; f != files[i] {
			t.Fatalf("jrpcld stats' log %d is %v, not %s", i, f, files[i])
		}
	}
	if reflect.DeepEqual(got, want) {
		return
	}
	g, _ := got.(map[string]any)
	w := want.(map[string]any)
	for _, member := range []string{"logs", "total"} {
		if !reflect.DeepEqual(g[member], w[member]) {
			gj, _ := json.Marshal(g[member])
			wj, _ := json.Marshal(w[member])
			t.Errorf("%s:\n got %s\nwant %s", member, gj, wj)
		}
	}
	if len(g) != len(w) {
		t.Errorf("members: got %d, want %d", len(g), len(w))
	}
}

func TestStatsCorpus(t *testing.T) {
	dir, files := corpusLogs(t)
	mcp := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	schemaFile := filepath.Join(shared.Dir(t, "reference", "mcp-schema", "2025-11-25"), "schema.json")
	for _, tc := range []struct {
		name      string
		opts      StatsOptions
		blockArgs []string
	}{
		{name: "rules", opts: StatsOptions{}},
		{name: "mcp block", opts: StatsOptions{BBlock: mcp, ID: "mcp.mcp"}, blockArgs: []string{"--bblock", mcp, "--id", "mcp.mcp"}},
		{name: "schema file, formats", opts: StatsOptions{Schema: schemaFile, Formats: true}, blockArgs: []string{"--schema", schemaFile, "--formats"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Input = filepath.Join(dir, "*.jsonl")
			tc.opts.Output = filepath.Join(t.TempDir(), "stats.json")
			sameStats(t, runStats(t, tc.opts), cliStats(t, files, tc.blockArgs...), files)
		})
	}
}

// TestStatsGenerated cuts generated logs into many files.
func TestStatsGenerated(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(16, 7))
	var files []string
	for i := range 5 {
		files = append(files, cutLog(t, r, dir, fmt.Sprintf("log%d", i), genLog(r, 400+i*100), 10, 60)...)
	}
	opts := StatsOptions{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(t.TempDir(), "stats.json")}
	sameStats(t, runStats(t, opts), cliStats(t, files), files)
}

// TestStatsSketchTotal: each file's latencies are exact, their total is
// past stats.ExactLimit, so that the total's percentiles come from the
// sketch built by merging the files' distributions across workers.
func TestStatsSketchTotal(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(16, 11))
	const logs, pairs = 12, stats.ExactLimit / 10
	var files []string
	for i := range logs {
		var b bytes.Buffer
		for j := range pairs {
			ms := int(math.Exp(r.NormFloat64()*1.5) * 20)
			start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC).Add(time.Duration(j) * time.Second)
			end := start.Add(time.Duration(ms) * time.Millisecond)
			fmt.Fprintf(&b, `{"dir":"c2s","ts":%q,"msg":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t"}}}`+"\n", start.Format(time.RFC3339Nano), j)
			fmt.Fprintf(&b, `{"dir":"s2c","ts":%q,"msg":{"jsonrpc":"2.0","id":%d,"result":{}}}`+"\n", end.Format(time.RFC3339Nano), j)
		}
		name := filepath.Join(dir, fmt.Sprintf("log%02d.jsonl", i))
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	opts := StatsOptions{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(t.TempDir(), "stats.json")}
	want := cliStats(t, files)
	lat := want.(map[string]any)["total"].(map[string]any)["latency"].(map[string]any)["tools/call"].(map[string]any)
	if lat["exact"] != false || lat["count"] != float64(logs*pairs) {
		t.Fatalf("the total's latency should come from the sketch: %v", lat)
	}
	sameStats(t, runStats(t, opts), want, files)
}
