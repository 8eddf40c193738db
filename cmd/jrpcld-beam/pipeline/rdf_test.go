package pipeline

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// cli is the jrpcld binary built from this checkout, the reference the
// pipeline's output is held to.
var cli string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jrpcld-beam-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cli = filepath.Join(dir, "jrpcld")
	build := exec.Command("go", "build", "-o", cli, "./cmd/jrpcld")
	build.Dir = filepath.Join("..", "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building jrpcld: %v\n%s", err, out)
		os.Exit(2)
	}
	ptest.MainWithDefault(m, "prism")
	os.RemoveAll(dir)
}

// runRDF runs the RDF pipeline on Prism and returns the quads of all the
// files it wrote, after checking that it wrote files parts (when not 0).
func runRDF(t *testing.T, opts RDFOptions, parts int) []rdf.Quad {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := RDF(s, opts); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	files, err := filepath.Glob(opts.Output + "-*")
	if err != nil {
		t.Fatal(err)
	}
	if parts > 0 && len(files) != parts {
		t.Errorf("%d files written, want %d: %v", len(files), parts, files)
	}
	var all []byte
	for _, f := range files {
		if !strings.HasSuffix(f, ".nq") {
			t.Errorf("%s: not an N-Quads file (a temporary file left?)", f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	quads, err := rdftest.ParseNQuads(all)
	if err != nil {
		t.Fatalf("the files written are not N-Quads: %v", err)
	}
	return quads
}

// cliQuads returns the quads "jrpcld rdf --format nquads FILE..." gives.
func cliQuads(t *testing.T, files []string, blockArgs ...string) []rdf.Quad {
	t.Helper()
	args := append([]string{"rdf", "--format", "nquads", "-q"}, blockArgs...)
	cmd := exec.Command(cli, append(args, files...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		// Exit 1 says that lines were skipped: the output is complete.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("jrpcld rdf: %v\n%s", err, stderr.Bytes())
		}
	}
	quads, err := rdftest.ParseNQuads(stdout.Bytes())
	if err != nil {
		t.Fatalf("jrpcld's N-Quads: %v", err)
	}
	return quads
}

// byGraph splits quads by named graph.
func byGraph(quads []rdf.Quad) map[rdf.Term][]rdf.Quad {
	m := map[rdf.Term][]rdf.Quad{}
	for _, q := range quads {
		m[q.G] = append(m[q.G], q)
	}
	return m
}

// sameGraphs checks that got and want have the same named graphs, each
// pair isomorphic, and that no statement sits in the default graph.
func sameGraphs(t *testing.T, got, want []rdf.Quad, logs int) {
	t.Helper()
	g, w := byGraph(got), byGraph(want)
	if len(w) != logs {
		t.Fatalf("jrpcld gave %d graphs for %d logs", len(w), logs)
	}
	var names []string
	for k := range w {
		names = append(names, k.Value)
	}
	sort.Strings(names)
	if len(g) != len(w) {
		t.Errorf("pipeline gave %d graphs, jrpcld %d (%s)", len(g), len(w), strings.Join(names, " "))
	}
	for name, wq := range w {
		if name == (rdf.Term{}) {
			t.Errorf("jrpcld wrote %d statements in the default graph", len(wq))
			continue
		}
		gq, ok := g[name]
		if !ok {
			t.Errorf("graph %s: missing from the files written", name.Value)
			continue
		}
		if ok, why := rdftest.IsomorphicQuads(gq, wq); !ok {
			t.Errorf("graph %s (%d statements, jrpcld %d): not isomorphic to jrpcld's: %s", name.Value, len(gq), len(wq), why)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("graph %s: in the files written, not in jrpcld's output", name.Value)
		}
	}
}

// corpusLogs returns the folder of the recorded MCP sessions and its logs.
func corpusLogs(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir = shared.Dir(t, "corpus", "mcp-sessions")
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no logs in %s (%v)", dir, err)
	}
	return dir, files
}

func TestRDFCorpus(t *testing.T) {
	dir, files := corpusLogs(t)
	mcp := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	for _, tc := range []struct {
		name      string
		opts      RDFOptions
		blockArgs []string
	}{
		{name: "jsonrpc"},
		{name: "mcp", opts: RDFOptions{BBlock: mcp, ID: "mcp.mcp"}, blockArgs: []string{"--bblock", mcp, "--id", "mcp.mcp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Input = filepath.Join(dir, "*.jsonl")
			tc.opts.Output = filepath.Join(t.TempDir(), "out")
			sameGraphs(t, runRDF(t, tc.opts, len(files)), cliQuads(t, files, tc.blockArgs...), len(files))
		})
	}
}

// genLog writes a log of n messages: envelopes in both directions whose
// ids repeat across directions, answered and unanswered requests,
// responses to nothing or to a request sent the same way, notifications,
// batches, messages that break the rules and lines that are not JSON.
func genLog(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	dirs := []string{"c2s", "s2c"}
	for i := range n {
		dir := dirs[r.IntN(2)]
		id := r.IntN(8)
		ts := fmt.Sprintf("2026-11-24T10:%02d:%02d.%03dZ", i/3600%60, i/60%60, i%1000)
		var msg string
		switch k := r.IntN(20); {
		case k < 7:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t%d","arguments":{"n":%d}}}`, id, i%5, i)
		case k < 12:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"r%d"}]}}`, id, i)
		case k < 13:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"bad %d","data":{"i":%d}}}`, id, i, i)
		case k < 15:
			msg = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":0.5}}`
		case k < 16:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":"s%d","method":"ping"}`, id)
		case k < 17:
			msg = fmt.Sprintf(`[{"jsonrpc":"2.0","id":%d,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":%d,"result":null}]`, id+100, id)
		case k < 18:
			msg = fmt.Sprintf(`{"jsonrpc":"1.0","id":%d,"method":"old"}`, id)
		case k < 19:
			b.WriteString("this is not JSON\n")
			continue
		default:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"@id":"x","big":12345678901234567890}}`, id)
		}
		fmt.Fprintf(&b, `{"dir":%q,"ts":%q,"msg":%s}`+"\n", dir, ts, msg)
	}
	return b.Bytes()
}

// cutLog writes data, a log, to dir in files named prefix-NNN.jsonl of
// minLines to minLines+spread-1 lines each (the last may have fewer), and
// returns their paths in order.
func cutLog(t *testing.T, r *rand.Rand, dir, prefix string, data []byte, minLines, spread int) []string {
	t.Helper()
	var files []string
	lines := bytes.SplitAfter(data, []byte("\n"))
	for j := 0; len(lines) > 0; j++ {
		n := min(len(lines), minLines+r.IntN(spread))
		name := filepath.Join(dir, fmt.Sprintf("%s-%03d.jsonl", prefix, j))
		if err := os.WriteFile(name, bytes.Join(lines[:n], nil), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		lines = lines[n:]
	}
	return files
}

func TestRDFGenerated(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(16, 2026))
	var files []string
	for i := range 6 {
		name := filepath.Join(dir, fmt.Sprintf("log%d.jsonl", i))
		data := genLog(r, 300+i*50)
		if i == 5 {
			// gzip, recognised by content as jrpcld does.
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(data)
			zw.Close()
			data = z.Bytes()
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	// One JSON-RPC batch document, pretty-printed, without envelopes.
	pretty := filepath.Join(dir, "batch.jsonl")
	if err := os.WriteFile(pretty, []byte("[\n  {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"m\"},\n  {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": 2}\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, pretty)
	opts := RDFOptions{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(t.TempDir(), "out")}
	sameGraphs(t, runRDF(t, opts, len(files)), cliQuads(t, files), len(files))
}

func TestRDFOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts RDFOptions
		want string
	}{
		{"no input", RDFOptions{Output: "x"}, "input glob"},
		{"base", RDFOptions{Input: "x", Output: "x", Base: "no IRI"}, "base"},
		{"split bytes", RDFOptions{Input: "x", Output: "x", SplitBytes: -1}, "split bytes"},
		{"engine", RDFOptions{Input: "x", Output: "x", Engine: "fast"}, "engine"},
		{"block", RDFOptions{Input: "x", Output: "x", BBlock: filepath.Join(t.TempDir(), "none")}, "building block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s := beam.NewPipelineWithRoot()
			err := RDF(s, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("RDF(%+v) = %v, want an error about %q", tc.opts, err, tc.want)
			}
		})
	}
}

func TestLogIRI(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"gs://bucket/logs/a.jsonl", "gs://bucket/logs/a.jsonl"},
		{"/tmp/a b.jsonl", "file:///tmp/a%20b.jsonl"},
	} {
		if got := LogIRI(tc.path); got != tc.want {
			t.Errorf("LogIRI(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// splitCase is a log file of TestRDFSplit: its name, its content, and
// whether the pipeline may read it in ranges.
type splitCase struct {
	name  string
	data  []byte
	split bool
}

// lineOwners returns, for each line of data (from 1), the index of the
// range of size size that holds it: the one in which it begins, a line
// beginning on a boundary going with the range before (rpclog.Range).
func lineOwners(data []byte, size int) []int {
	owners := []int{0, 0} // line 1 begins at 0
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			owners = append(owners, i/size) // the line begins at i+1
		}
	}
	return owners
}

// badLinesOnBoundaries returns the lines of data with lines that are not
// JSON put across the boundaries of ranges of size bytes, or, one time in
// three, right on them.
func badLinesOnBoundaries(data []byte, size int) []byte {
	var out []byte
	next, k := size, 0
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(out)+len(line) > next {
			pad := next - len(out) - 1 // the line ends right before the boundary
			if k%3 != 0 {
				pad += 8 // it crosses it
			}
			out = append(out, "not JSON"+strings.Repeat("!", max(pad-8, 0))+"\n"...)
			next += size
			k++
		}
		out = append(out, line...)
	}
	return out
}

// notUTF8 is an envelope that holds text that is not UTF-8 (a Latin-1
// "é") in "bytes", as jrpcld record writes it.
const notUTF8 = `{"dir":"s2c","ts":"2026-11-24T10:00:00.000Z","bytes":"Y2Fm6SBhdSBsYWl0"}` + "\n"

// TestRDFSplit converts big logs read in many byte ranges, and the same
// logs cut into several files, and holds every named graph to jrpcld's.
func TestRDFSplit(t *testing.T) {
	const size = 2048
	r := rand.New(rand.NewPCG(16, 5))
	big := badLinesOnBoundaries(genLog(r, 1500), size)
	var pretty bytes.Buffer
	pretty.WriteString("[\n")
	for i := range 120 {
		if i > 0 {
			pretty.WriteString(",\n")
		}
		fmt.Fprintf(&pretty, "  {\n    \"jsonrpc\": \"2.0\",\n    \"id\": %d,\n    \"method\": \"m\"\n  }", i%7)
	}
	pretty.WriteString("\n]\n")
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(genLog(r, 1200))
	zw.Close()
	crlf := append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(genLog(r, 200), []byte("\n"), []byte("\r\n"))...)
	cases := []splitCase{
		{"big.jsonl", big, true},
		{"pretty.jsonl", pretty.Bytes(), false},
		{"gzip.jsonl", z.Bytes(), false},
		{"bom-crlf.jsonl", crlf, true},
		{"garbage-first.jsonl", append([]byte("garbage\n\n"), genLog(r, 100)...), true},
		// Text that is not UTF-8, which an envelope holds in "bytes":
		// first (it types the log), and further on.
		{"bytes.jsonl", slices.Concat([]byte(notUTF8), genLog(r, 60), []byte(notUTF8), genLog(r, 60)), true},
	}
	// The big log again, cut into files at line ends.
	lines := bytes.SplitAfter(big, []byte("\n"))
	for i, n := 0, len(lines)/5; i < 5; i++ {
		part := bytes.Join(lines[i*n:min((i+1)*n, len(lines))], nil)
		if i == 4 {
			part = bytes.Join(lines[i*n:], nil)
		}
		cases = append(cases, splitCase{fmt.Sprintf("part%d.jsonl", i), part, true})
	}

	// The test is worth something only if requests are answered across
	// ranges: check it on jrpcld's graph of the big log.
	owners := lineOwners(big, size)

	dir := t.TempDir()
	var files []string
	parts := 0
	for _, c := range cases {
		name := filepath.Join(dir, c.name)
		if err := os.WriteFile(name, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		if c.split && len(c.data) > size {
			parts += (len(c.data) + size - 1) / size
		} else {
			parts++
		}
		if !c.split && len(c.data) <= size {
			t.Fatalf("%s: %d bytes, not over the split size", c.name, len(c.data))
		}
	}
	want := cliQuads(t, files)
	crossing, orphans, unanswered, kept := 0, 0, 0, 0
	bigIRI := LogIRI(files[0])
	for _, q := range want {
		if q.P == rdf.JLogBytes {
			kept++
		}
		if q.G.Value != bigIRI {
			continue
		}
		switch {
		case q.P == rdf.JLogAnswers:
			if owners[nodeLine(t, q.S.Value)] != owners[nodeLine(t, q.O.Value)] {
				crossing++
			}
		case q.O.Value == rdf.JLogOrphanResponse:
			orphans++
		case q.O.Value == rdf.JLogUnansweredRequest:
			unanswered++
		}
	}
	if kept != 2 {
		t.Fatalf("jrpcld kept %d messages held as bytes, want the 2 of bytes.jsonl", kept)
	}
	if crossing == 0 || orphans == 0 || unanswered == 0 {
		t.Fatalf("the big log has %d answers across ranges, %d orphans, %d unanswered requests: want some of each", crossing, orphans, unanswered)
	}
	opts := RDFOptions{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(t.TempDir(), "out"), SplitBytes: size}
	sameGraphs(t, runRDF(t, opts, parts), want, len(files))

	// Ranges shorter than some lines: some hold no line at all.
	one := filepath.Join(t.TempDir(), "short.jsonl")
	if err := os.WriteFile(one, genLog(r, 150), 0o644); err != nil {
		t.Fatal(err)
	}
	opts = RDFOptions{Input: one, Output: filepath.Join(t.TempDir(), "out"), SplitBytes: 97}
	sameGraphs(t, runRDF(t, opts, 0), cliQuads(t, []string{one}), 1)
}

// nodeLine returns the position in a message or batch member IRI: in a
// log of one record per line and no blank line, its line.
func nodeLine(t *testing.T, iri string) int {
	t.Helper()
	_, pos, ok := jlog.ParseMessageIRI(iri)
	if !ok {
		t.Fatalf("%s: not a message IRI", iri)
	}
	return int(pos)
}

// TestRDFBase gives the logs IRIs with --base, as jrpcld rdf --base: the
// IRI of a single log (read in ranges here), a prefix for several.
func TestRDFBase(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 16))
	dir := t.TempDir()
	var files []string
	for i := range 2 {
		name := filepath.Join(dir, fmt.Sprintf("log%d.jsonl", i))
		if err := os.WriteFile(name, genLog(r, 200), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	for _, tc := range []struct {
		name, input string
		files       []string
		base        string
	}{
		{"one", files[0], files[:1], "http://example.com/session"},
		{"several", filepath.Join(dir, "*.jsonl"), files, "http://example.com/logs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := RDFOptions{Input: tc.input, Output: filepath.Join(t.TempDir(), "out"), SplitBytes: 4096, Base: tc.base}
			want := cliQuads(t, tc.files, "--base", tc.base)
			if !slices.ContainsFunc(want, func(q rdf.Quad) bool { return strings.HasPrefix(q.G.Value, tc.base) }) {
				t.Fatalf("jrpcld's graphs are not named from %s", tc.base)
			}
			sameGraphs(t, runRDF(t, opts, 0), want, len(tc.files))
		})
	}
}

// TestRDFContextMap maps a context that a block's context names by URL to
// a local file, as jrpcld rdf --context-map does; without it the pipeline
// is not made.
func TestRDFContextMap(t *testing.T) {
	dir := t.TempDir()
	block := filepath.Join(dir, "blk")
	os.Mkdir(block, 0o755)
	os.WriteFile(filepath.Join(block, "bblock.json"), []byte(`{"name": "B", "status": "stable", "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`), 0o644)
	os.WriteFile(filepath.Join(block, "schema.yaml"), []byte("type: object\nproperties:\n  method: {type: string}\n"), 0o644)
	os.WriteFile(filepath.Join(block, "context.jsonld"), []byte(`{"@context": ["https://example.com/remote.jsonld", {"method": "ex:method"}]}`), 0o644)
	local := filepath.Join(dir, "remote.jsonld")
	os.WriteFile(local, []byte(`{"@context": {"ex": "http://example.com/ns#"}}`), 0o644)
	logFile := filepath.Join(dir, "log.jsonl")
	os.WriteFile(logFile, []byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`+"\n"), 0o644)
	opts := RDFOptions{Input: logFile, Output: filepath.Join(t.TempDir(), "out"), BBlock: block}
	_, s := beam.NewPipelineWithRoot()
	if err := RDF(s, opts); err == nil || !strings.Contains(err.Error(), "remote.jsonld") {
		t.Fatalf("unmapped remote context: %v", err)
	}
	opts.ContextMap = map[string]string{"https://example.com/remote.jsonld": local}
	want := cliQuads(t, []string{logFile}, "--bblock", block, "--context-map", "https://example.com/remote.jsonld="+local)
	if !slices.ContainsFunc(want, func(q rdf.Quad) bool { return q.P == "http://example.com/ns#method" }) {
		t.Fatal("jrpcld's graph does not use the mapped context")
	}
	sameGraphs(t, runRDF(t, opts, 1), want, 1)
}
