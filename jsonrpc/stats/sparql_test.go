package stats

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/oxitest"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/gsp"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// requireTool skips t for a missing tool, or fails it when JRPCLD_SHARED is
// set (CI installs every tool the tests use).
func requireTool(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("JRPCLD_SHARED") != "" {
		t.Fatalf(format+" (JRPCLD_SHARED is set, so this test must run)", args...)
	}
	t.Skipf(format, args...)
}

// figures are the rows of a query: the log's IRI and the key variables
// joined by "|", mapped to the numeric variables in order.
type figures map[string][]float64

// sparqlQuery says how to read one query's rows and what stats' JSON says
// they must be.
type sparqlQuery struct {
	file   string
	keys   []string // key variables after ?log
	values []string // numeric variables
	// expect adds the rows the query must return for one log, from that
	// log's object in the JSON of stats.
	expect func(s map[string]any, add func(key []string, values ...float64))
}

func num(v any) float64 { f, _ := v.(float64); return f }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

var sparqlQueries = []sparqlQuery{
	{"kinds.rq", []string{"kind", "dir"}, []string{"count"}, func(s map[string]any, add func([]string, ...float64)) {
		for kind, dirs := range obj(s["kinds"]) {
			for dir, n := range obj(dirs) {
				add([]string{kind, dir}, num(n))
			}
		}
	}},
	{"requests.rq", []string{"method"}, []string{"count"}, func(s map[string]any, add func([]string, ...float64)) {
		for m, n := range obj(s["requests"]) {
			add([]string{m}, num(n))
		}
	}},
	{"notifications.rq", []string{"method"}, []string{"count"}, func(s map[string]any, add func([]string, ...float64)) {
		for m, n := range obj(s["notifications"]) {
			add([]string{m}, num(n))
		}
	}},
	{"pairing.rq", []string{"dir"}, []string{"requests", "answered", "unanswered"}, func(s map[string]any, add func([]string, ...float64)) {
		for dir, p := range obj(s["pairing"]) {
			if p := obj(p); num(p["requests"]) > 0 {
				add([]string{dir}, num(p["requests"]), num(p["answered"]), num(p["unanswered"]))
			}
		}
	}},
	{"orphans.rq", []string{"dir"}, []string{"orphanResponses"}, func(s map[string]any, add func([]string, ...float64)) {
		for dir, p := range obj(s["pairing"]) {
			if n := num(obj(p)["orphanResponses"]); n > 0 {
				add([]string{dir}, n)
			}
		}
	}},
	{"reused-ids.rq", []string{"dir"}, []string{"reusedIds"}, func(s map[string]any, add func([]string, ...float64)) {
		for dir, p := range obj(s["pairing"]) {
			if n := num(obj(p)["reusedIds"]); n > 0 {
				add([]string{dir}, n)
			}
		}
	}},
	{"errors.rq", []string{"code", "method"}, []string{"count"}, func(s map[string]any, add func([]string, ...float64)) {
		errs, _ := s["errors"].([]any)
		for _, e := range errs {
			e := obj(e)
			add([]string{strconv.FormatFloat(num(e["code"]), 'f', -1, 64), e["method"].(string)}, num(e["count"]))
		}
	}},
	{"tools.rq", []string{"tool"}, []string{"calls", "isError"}, func(s map[string]any, add func([]string, ...float64)) {
		for name, tl := range obj(s["tools"]) {
			add([]string{name}, num(obj(tl)["calls"]), num(obj(tl)["isError"]))
		}
	}},
	{"latency.rq", []string{"method"}, []string{"count", "p50", "p90", "p99", "maxMs"}, func(s map[string]any, add func([]string, ...float64)) {
		for m, l := range obj(s["latency"]) {
			l := obj(l)
			add([]string{m}, num(l["count"]), num(l["p50"]), num(l["p90"]), num(l["p99"]), num(l["max"]))
		}
	}},
}

// sparqlFixture holds the graphs the query tests run on, one log each: the
// recorded MCP sessions, testdata/pairing.jsonl (with and without its
// envelopes) and testdata/latency-calendar.jsonl; and, for each query of
// sparqlQueries, the rows it must return, from the JSON of stats for the
// same logs.
type sparqlFixture struct {
	logs, iris               []string // the logs and their IRIs
	turtle, ntriples, nquads []string // one file per log in each form
	want                     []figures
}

// newSPARQLFixture writes the graphs of the logs in Turtle, N-Triples and
// N-Quads (each log its own named graph) and computes the expected rows.
func newSPARQLFixture(t *testing.T) *sparqlFixture {
	t.Helper()
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	logs, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if len(logs) == 0 {
		t.Fatalf("no logs in %s", corpus)
	}
	dir := t.TempDir()
	bare := filepath.Join(dir, "pairing-bare.jsonl")
	writeBare(t, filepath.Join("testdata", "pairing.jsonl"), bare)
	logs = append(logs, filepath.Join("testdata", "pairing.jsonl"), bare, filepath.Join("testdata", "latency-calendar.jsonl"))

	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &sparqlFixture{logs: logs}
	report := NewReport()
	iris := make([]string, len(logs))
	for i, file := range logs {
		iris[i] = rpclog.DefaultIRI(file)
		for _, form := range []struct {
			files *[]string
			f     rdf.Format
		}{{&f.turtle, rdf.Turtle}, {&f.ntriples, rdf.NTriples}, {&f.nquads, rdf.NQuads}} {
			out := filepath.Join(dir, fmt.Sprintf("log%d%s", i, form.f.Extension()))
			writeGraph(t, ctx, file, iris[i], out, form.f)
			*form.files = append(*form.files, out)
		}
		report.Add(readLogFile(t, file, Options{}))
	}
	var js bytes.Buffer
	if err := report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	logsJSON, _ := decoded["logs"].([]any)
	if len(logsJSON) != len(logs) {
		t.Fatalf("stats has %d logs, want %d", len(logsJSON), len(logs))
	}
	f.iris = iris
	for _, q := range sparqlQueries {
		want := figures{}
		for j, l := range logsJSON {
			q.expect(obj(l), func(key []string, values ...float64) {
				want[strings.Join(append([]string{iris[j]}, key...), "|")] = values
			})
		}
		if len(want) == 0 {
			t.Fatalf("stats has no figures for %s: the check would be empty", q.file)
		}
		f.want = append(f.want, want)
	}

	queries, _ := filepath.Glob(filepath.Join("..", "..", "examples", "queries", "*.rq"))
	if len(queries) != len(sparqlQueries) {
		t.Errorf("%d queries in examples/queries, %d checked here", len(queries), len(sparqlQueries))
	}
	return f
}

// queryFiles returns the paths of the queries of sparqlQueries.
func queryFiles() []string {
	var files []string
	for _, q := range sparqlQueries {
		files = append(files, filepath.Join("..", "..", "examples", "queries", q.file))
	}
	return files
}

// check checks the rows each query returned (or its error) against the
// figures of stats, in one subtest per query.
func (f *sparqlFixture) check(t *testing.T, rows [][]map[string]string, errs []error) {
	t.Helper()
	for i, q := range sparqlQueries {
		t.Run(q.file, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			got := figures{}
			for _, row := range rows[i] {
				key := []string{row["log"]}
				for _, k := range q.keys {
					key = append(key, row[k])
				}
				var vals []float64
				for _, v := range q.values {
					f, err := strconv.ParseFloat(row[v], 64)
					if err != nil {
						t.Fatalf("row %v: ?%s is not a number", row, v)
					}
					vals = append(vals, f)
				}
				k := strings.Join(key, "|")
				if _, dup := got[k]; dup {
					t.Errorf("%s: two rows", k)
				}
				got[k] = vals
			}
			want := f.want[i]
			if !reflect.DeepEqual(got, want) {
				for _, k := range slices.Sorted(maps.Keys(want)) {
					if !reflect.DeepEqual(got[k], want[k]) {
						t.Errorf("%s: SPARQL %v, stats %v", k, got[k], want[k])
					}
				}
				for _, k := range slices.Sorted(maps.Keys(got)) {
					if _, ok := want[k]; !ok {
						t.Errorf("%s: SPARQL %v, not in stats", k, got[k])
					}
				}
			}
		})
	}
}

// sparqlEngine is one store or tool the SPARQL pack runs on: run loads
// the fixture's graphs, runs every query and checks the rows of each form
// it loads them in with f.check, in a subtest per form.
type sparqlEngine struct {
	name string
	run  func(t *testing.T, ctx context.Context, f *sparqlFixture)
}

// TestSPARQLEngines runs every query of examples/queries on every engine
// over the graphs of the fixture, and holds each answer, row for row, to
// the figures of the JSON that stats writes for the same logs (what
// "jrpcld stats --format json" prints):
//   - jrpcld's own engine, in-process (package rdf/sparql, which "jrpcld
//     query" runs), over Turtle, N-Triples, N-Quads, and N-Quads with the
//     union default graph;
//   - with the build tag jena (.ci/run sets it), Apache Jena's ARQ over
//     Turtle files (the default graph), and Jena TDB2 loaded with the
//     N-Quads (every log in its named graph), with an empty default graph
//     and with the union default graph;
//   - Oxigraph's engine (the npm package, in node) over Turtle, N-Triples,
//     N-Quads, and N-Quads with the union default graph;
//   - the same engine behind the test shim of internal/testkit/oxitest, the logs
//     pushed with package gsp (PUT, one named graph each) and the queries
//     sent over the SPARQL protocol;
//   - with the build tag virtuoso (.ci/run sets it), Virtuoso, started for
//     the test, the logs pushed with gsp over Digest and the queries sent
//     to /sparql, where the default graph is the union of all graphs.
//
// An engine whose tool is missing is skipped with a message (a failure when
// JRPCLD_SHARED is set).
func TestSPARQLEngines(t *testing.T) {
	f := newSPARQLFixture(t)
	engines := []sparqlEngine{
		{"jrpcld", runInProcess},
		{"oxigraph", runOxigraph},
		{"oxigraph-gsp", runOxigraphGSP},
	}
	engines = append(engines, jenaEngines()...)
	engines = append(engines, virtuosoEngines()...)
	// The subtests run in parallel once this function has returned: the
	// context ends with the test, not with the function.
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute)
	t.Cleanup(cancel)
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			e.run(t, ctx, f)
			t.Logf("%d queries over %d graphs in %s: %v", len(sparqlQueries), len(f.logs), e.name, time.Since(start).Round(time.Millisecond))
		})
	}
}

// answers are the rows (or the error) of each query of sparqlQueries.
type answers struct {
	rows [][]map[string]string
	errs []error
}

func newAnswers() *answers {
	return &answers{make([][]map[string]string, len(sparqlQueries)), make([]error, len(sparqlQueries))}
}

// runOxigraph runs the queries in Oxigraph's engine, in one node process
// per form of the graphs: Turtle and N-Triples in the default graph,
// N-Quads in named graphs with the default graph empty, and N-Quads with
// the default graph the union of the named graphs (a store's option, which
// makes each query match every message twice).
func runOxigraph(t *testing.T, ctx context.Context, f *sparqlFixture) {
	load := func(files []string, mediaType string) []oxitest.Data {
		var d []oxitest.Data
		for _, file := range files {
			d = append(d, oxitest.Data{File: file, MediaType: mediaType})
		}
		return d
	}
	forms := []struct {
		name  string
		data  []oxitest.Data
		union bool
	}{
		{"turtle", load(f.turtle, "text/turtle"), false},
		{"ntriples", load(f.ntriples, "application/n-triples"), false},
		{"nquads", load(f.nquads, "application/n-quads"), false},
		{"nquads-union", load(f.nquads, "application/n-quads"), true},
	}
	for _, form := range forms {
		t.Run(form.name, func(t *testing.T) {
			res := oxitest.Query(t, ctx, form.data, form.union, queryFiles())
			a := newAnswers()
			for i, r := range res {
				a.rows[i], a.errs[i] = r.Rows, r.Err
			}
			f.check(t, a.rows, a.errs)
		})
	}
}

// runOxigraphGSP pushes the logs to Oxigraph's engine behind the test shim
// of internal/testkit/oxitest (not Oxigraph's own server), then runs the queries
// through its SPARQL endpoint.
func runOxigraphGSP(t *testing.T, ctx context.Context, f *sparqlFixture) {
	front := oxitest.StartFront(t, oxitest.FrontOptions{})
	f.push(t, ctx, &gsp.Client{}, front.StoreURL())
	a := newAnswers()
	for i, file := range queryFiles() {
		q, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		a.rows[i], a.errs[i] = front.Query(ctx, string(q))
	}
	f.check(t, a.rows, a.errs)
}

// push uploads the graph of each log of the fixture to a Graph Store
// endpoint with cl (PUT, as the named graph of the log's IRI), N-Triples
// and Turtle in turn, and checks that each upload says the graph was
// stored.
func (f *sparqlFixture) push(t *testing.T, ctx context.Context, cl *gsp.Client, endpoint string) {
	t.Helper()
	for i := range f.logs {
		format, file := rdf.NTriples, f.ntriples[i]
		if i%2 == 1 {
			format, file = rdf.Turtle, f.turtle[i]
		}
		write := func(w io.Writer) error {
			in, err := os.Open(file)
			if err != nil {
				return err
			}
			defer in.Close()
			_, err = io.Copy(w, in)
			return err
		}
		if _, err := cl.Put(ctx, endpoint, f.iris[i], format, write); err != nil {
			t.Fatalf("pushing %s: %v", f.logs[i], err)
		}
	}
}

// writeBare writes the messages of an envelope log without their envelopes.
func writeBare(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var env struct{ Msg json.RawMessage }
		if err := json.Unmarshal([]byte(line), &env); err != nil {
			t.Fatal(err)
		}
		out.Write(env.Msg)
		out.WriteByte('\n')
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeGraph converts a log to RDF with jrpcld's converter and the block
// context ctx, as "jrpcld rdf" does, writes it to the file to and returns it.
func writeGraph(t *testing.T, ctx *ldctx.Processed, file, iri, to string, f rdf.Format) []byte {
	t.Helper()
	r := openLog(t, file)
	var out bytes.Buffer
	conv := convert.NewConverter(ctx)
	conv.Report = func(i diag.Diagnostic) {
		if i.Severity == diag.Error {
			t.Errorf("converting %s: %s", file, i)
		}
	}
	if err := conv.Convert(&out, f, []convert.Log{{Reader: r, File: file, IRI: iri}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// openLog opens a message log file to read; it is closed when the test
// ends.
func openLog(t *testing.T, file string) *rpclog.Reader {
	t.Helper()
	in, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	r, err := rpclog.NewReader(in, file, rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readLogFile computes the LogStats of a message log file.
func readLogFile(t *testing.T, file string, opts Options) *LogStats {
	t.Helper()
	r := openLog(t, file)
	c := NewCollector(opts)
	if err := ReadLog(r, c); err != nil {
		t.Fatal(err)
	}
	return NewLogStats(file, "", c)
}

// TestLatencyCalendar holds stats to latencies worked out by hand for
// testdata/latency-calendar.jsonl, the log that checks the date arithmetic
// of latency.rq (month and year ends, leap days of 2000 and 2024 but not
// 2100, time offsets east and west, a negative latency, fractions of a
// millisecond, timestamps without an offset, which are not timed) and its
// nearest-rank percentiles (ranks: 1 2 3 3 5 7 9 ms).
func TestLatencyCalendar(t *testing.T) {
	const day = 24 * 60 * 60 * 1000
	want := map[string][5]float64{ // count, p50, p90, p99, max
		"month-end":       {1, 250, 250, 250, 250},
		"year-end":        {1, 2, 2, 2, 2},
		"leap-day":        {1, day + 2000, day + 2000, day + 2000, day + 2000},
		"common-february": {1, day, day, day, day},
		"year-2100":       {1, 1000, 1000, 1000, 1000},
		"year-2000":       {1, day + 3600000, day + 3600000, day + 3600000, day + 3600000},
		"offset-east":     {1, 250, 250, 250, 250},
		"offset-west":     {1, 125, 125, 125, 125},
		"both-offsets":    {1, 500, 500, 500, 500},
		"backwards":       {1, -500, -500, -500, -500},
		"sub-millisecond": {1, 1.499, 1.499, 1.499, 1.499},
		"ranks":           {7, 3, 9, 9, 9},
	}
	report := NewReport()
	report.Add(readLogFile(t, filepath.Join("testdata", "latency-calendar.jsonl"), Options{}))
	var js bytes.Buffer
	if err := report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Logs []struct {
			Latency map[string]struct{ Count, P50, P90, P99, Max float64 }
		}
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil || len(decoded.Logs) != 1 {
		t.Fatalf("stats JSON: %v\n%s", err, js.Bytes())
	}
	got := map[string][5]float64{}
	for m, l := range decoded.Logs[0].Latency {
		got[m] = [5]float64{l.Count, l.P50, l.P90, l.P99, l.Max}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("latency:\n got %v\nwant %v", got, want)
	}
}
