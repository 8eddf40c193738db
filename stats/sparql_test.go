package stats

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/bblock"
	jsonld "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/gsp"
	"github.com/jrpcld/jrpcld/internal/oxitest"
	"github.com/jrpcld/jrpcld/internal/shared"
	"github.com/jrpcld/jrpcld/jlog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rpclog"
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

// jenaClasspath returns the Java class path that runs Apache Jena's ARQ as
// Debian packages it (libapache-jena-java): the jars of the package and of
// the packages it depends on, as dpkg lists them, with one SLF4J binding
// (slf4j-nop) and no logging bridges, which clash with one another.
//
// Debian's jena-core 4.5 moves Xerces' classes to the package xerces but
// leaves its message bundles under org/apache/jena/ext/xerces, so the first
// XSD regular expression fails with "internal error" (the bundle is missing).
// The bundles are copied from the jar to their expected place in a folder
// added to the class path.
func jenaClasspath(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		requireTool(t, "java is not installed: %v", err)
	}
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		requireTool(t, "dpkg-query is not available to find the Jena jars: %v", err)
	}
	deps, err := exec.Command("dpkg-query", "-W", "-f", "${Depends}", "libapache-jena-java").Output()
	if err != nil {
		requireTool(t, "Apache Jena (Debian package libapache-jena-java) is not installed: %v", err)
	}
	pkgs := []string{"libapache-jena-java"}
	for _, alt := range strings.Split(string(deps), ",") {
		for _, p := range strings.Split(alt, "|") {
			if f := strings.Fields(p); len(f) > 0 {
				pkgs = append(pkgs, strings.SplitN(f[0], ":", 2)[0])
			}
		}
	}
	seen := map[string]bool{}
	var jars []string
	var jenaCore string
	for _, pkg := range pkgs {
		out, err := exec.Command("dpkg-query", "-L", pkg).Output()
		if err != nil {
			continue // an alternative that is not installed
		}
		for _, f := range strings.Split(string(out), "\n") {
			base := filepath.Base(f)
			if !strings.HasPrefix(f, "/usr/share/java/") || !strings.HasSuffix(f, ".jar") || skipJar(base) {
				continue
			}
			real, err := filepath.EvalSymlinks(f)
			if err != nil || seen[real] {
				continue
			}
			seen[real] = true
			jars = append(jars, real)
			if strings.HasPrefix(base, "jena-core") {
				jenaCore = real
			}
		}
	}
	if jenaCore == "" {
		requireTool(t, "no jena-core jar among the files of libapache-jena-java")
	}
	nop, err := filepath.EvalSymlinks("/usr/share/java/slf4j-nop.jar")
	if err != nil {
		requireTool(t, "slf4j-nop.jar (libslf4j-java) is missing: %v", err)
	}
	jars = append(jars, nop)
	sort.Strings(jars)
	res := t.TempDir()
	if err := copyXercesBundles(jenaCore, res); err != nil {
		t.Fatalf("reading %s: %v", jenaCore, err)
	}
	return strings.Join(append([]string{res}, jars...), string(os.PathListSeparator))
}

// skipJar tells the jars left out of the class path: every SLF4J binding
// and bridge (slf4j-nop is added on its own).
func skipJar(base string) bool {
	if strings.HasPrefix(base, "slf4j-") {
		return !strings.HasPrefix(base, "slf4j-api")
	}
	for _, p := range []string{"log4j-over-slf4j", "jcl-over-slf4j", "jul-to-slf4j"} {
		if strings.HasPrefix(base, p) {
			return true
		}
	}
	return false
}

// copyXercesBundles copies the .properties files under
// org/apache/jena/ext/xerces/ of jar to xerces/ under dir, unless the jar
// already has them there.
func copyXercesBundles(jar, dir string) error {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return err
	}
	defer z.Close()
	const from = "org/apache/jena/ext/xerces/"
	for _, f := range z.File {
		if f.Name == "xerces/impl/xpath/regex/message.properties" {
			return nil
		}
	}
	for _, f := range z.File {
		if !strings.HasPrefix(f.Name, from) || !strings.HasSuffix(f.Name, ".properties") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, "xerces", filepath.FromSlash(strings.TrimPrefix(f.Name, from)))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// jena runs one of Jena's commands (a class of jena-cmds, such as
// arq.arq) with args and returns its standard output.
func jena(ctx context.Context, cp, class string, args ...string) ([]byte, error) {
	args = append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", cp, class}, args...)
	cmd := exec.CommandContext(ctx, "java", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", class, err, stderr.String())
	}
	return out, nil
}

// arq runs one query over the data files in ARQ (triples go to the default
// graph, quads to their named graphs) and returns its result rows, each
// variable bound to its value.
func arq(ctx context.Context, cp, query string, data []string) ([]map[string]string, error) {
	args := []string{"--query", query, "--results", "json"}
	for _, d := range data {
		args = append(args, "--data", d)
	}
	out, err := jena(ctx, cp, "arq.arq", args...)
	if err != nil {
		return nil, err
	}
	return oxitest.Rows(out)
}

// tdb2Query runs one query on the TDB2 store at loc (one process at a time
// may open it), with the union of the named graphs as the default graph
// when union is set, and returns its result rows.
func tdb2Query(ctx context.Context, cp, loc, query string, union bool) ([]map[string]string, error) {
	args := []string{"--loc", loc, "--query", query, "--results", "json"}
	if union {
		args = append(args, "--set", "tdb:unionDefaultGraph=true")
	}
	out, err := jena(ctx, cp, "tdb2.tdbquery", args...)
	if err != nil {
		return nil, err
	}
	return oxitest.Rows(out)
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

	ctx, _, err := jsonld.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &sparqlFixture{logs: logs}
	report := NewReport()
	iris := make([]string, len(logs))
	for i, file := range logs {
		iris[i] = jlog.DefaultLogIRI(file)
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

	queries, _ := filepath.Glob(filepath.Join("..", "examples", "queries", "*.rq"))
	if len(queries) != len(sparqlQueries) {
		t.Errorf("%d queries in examples/queries, %d checked here", len(queries), len(sparqlQueries))
	}
	return f
}

// queryFiles returns the paths of the queries of sparqlQueries.
func queryFiles() []string {
	var files []string
	for _, q := range sparqlQueries {
		files = append(files, filepath.Join("..", "examples", "queries", q.file))
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
//   - Apache Jena's ARQ over Turtle files (the default graph);
//   - Jena TDB2 loaded with the N-Quads (every log in its named graph),
//     with an empty default graph and with the union default graph;
//   - Oxigraph's engine (the npm package, in node) over Turtle, N-Triples,
//     N-Quads, and N-Quads with the union default graph;
//   - the same engine behind the test shim of internal/oxitest, the logs
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
	engines := append([]sparqlEngine{
		{"jena", runJena},
		{"oxigraph", runOxigraph},
		{"oxigraph-gsp", runOxigraphGSP},
	}, virtuosoEngines()...)
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

// runJena runs the queries in ARQ, each in a process of its own, over the
// Turtle files; and in a TDB2 store loaded once with the N-Quads, one query
// after another (a TDB2 store is opened by one process at a time), without
// and with the union default graph.
func runJena(t *testing.T, ctx context.Context, f *sparqlFixture) {
	cp := jenaClasspath(t)
	files := queryFiles()
	file, tdb, union := newAnswers(), newAnswers(), newAnswers()
	loc := filepath.Join(t.TempDir(), "tdb2")
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(2, runtime.NumCPU()))
	for i := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			file.rows[i], file.errs[i] = arq(ctx, cp, files[i], f.turtle)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		sem <- struct{}{}
		_, err := jena(ctx, cp, "tdb2.tdbloader", append([]string{"--loc", loc}, f.nquads...)...)
		<-sem
		for i := range files {
			if err != nil {
				tdb.errs[i], union.errs[i] = err, err
				continue
			}
			sem <- struct{}{}
			tdb.rows[i], tdb.errs[i] = tdb2Query(ctx, cp, loc, files[i], false)
			union.rows[i], union.errs[i] = tdb2Query(ctx, cp, loc, files[i], true)
			<-sem
		}
	}()
	wg.Wait()
	t.Run("arq-turtle", func(t *testing.T) { f.check(t, file.rows, file.errs) })
	t.Run("tdb2-nquads", func(t *testing.T) { f.check(t, tdb.rows, tdb.errs) })
	t.Run("tdb2-nquads-union", func(t *testing.T) { f.check(t, union.rows, union.errs) })
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
// of internal/oxitest (not Oxigraph's own server), then runs the queries
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
func writeGraph(t *testing.T, ctx *jsonld.Processed, file, iri, to string, f rdf.Format) []byte {
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
	return &LogStats{File: file, Stats: c.Stats(), Events: c.Timeline()}
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
