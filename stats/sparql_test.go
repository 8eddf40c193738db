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

// arq runs one query over the data files and returns its result rows, each
// variable bound to its value.
func arq(ctx context.Context, cp, query string, data []string) ([]map[string]string, error) {
	args := []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", cp, "arq.arq", "--query", query, "--results", "json"}
	for _, d := range data {
		args = append(args, "--data", d)
	}
	cmd := exec.CommandContext(ctx, "java", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, stderr.String())
	}
	var res struct {
		Results struct {
			Bindings []map[string]struct{ Value string } `json:"bindings"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("ARQ output is not SPARQL JSON results: %v\n%s", err, out)
	}
	var rows []map[string]string
	for _, b := range res.Results.Bindings {
		row := map[string]string{}
		for k, v := range b {
			row[k] = v.Value
		}
		rows = append(rows, row)
	}
	return rows, nil
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

// TestSPARQLInJena runs every query of examples/queries in Apache Jena's ARQ
// over the graphs jrpcld writes for the corpus and for testdata/pairing.jsonl
// (with and without its envelopes), and checks that each answer equals the
// figures of the JSON that stats writes for the same logs.
func TestSPARQLInJena(t *testing.T) {
	cp := jenaClasspath(t)
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	logs, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if len(logs) == 0 {
		t.Fatalf("no logs in %s", corpus)
	}
	dir := t.TempDir()
	bare := filepath.Join(dir, "pairing-bare.jsonl")
	writeBare(t, filepath.Join("testdata", "pairing.jsonl"), bare)
	logs = append(logs, filepath.Join("testdata", "pairing.jsonl"), bare)

	// The graphs, one Turtle file per log, and the JSON of stats.
	ctx, _, err := jsonld.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	report := NewReport()
	var data []string
	iriOf := map[string]string{}
	for i, file := range logs {
		ttl := filepath.Join(dir, fmt.Sprintf("log%d.ttl", i))
		iri := jlog.DefaultLogIRI(file)
		iriOf[file] = iri
		writeGraph(t, ctx, file, iri, ttl, rdf.Turtle)
		data = append(data, ttl)
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

	queries, _ := filepath.Glob(filepath.Join("..", "examples", "queries", "*.rq"))
	if len(queries) != len(sparqlQueries) {
		t.Errorf("%d queries in examples/queries, %d checked here", len(queries), len(sparqlQueries))
	}
	runCtx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	results := make([][]map[string]string, len(sparqlQueries))
	errs := make([]error, len(sparqlQueries))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(2, runtime.NumCPU()))
	start := time.Now()
	for i, q := range sparqlQueries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], errs[i] = arq(runCtx, cp, filepath.Join("..", "examples", "queries", q.file), data)
		}()
	}
	wg.Wait()
	t.Logf("%d queries over %d graphs in Jena ARQ: %v", len(sparqlQueries), len(data), time.Since(start).Round(time.Millisecond))

	logsJSON, _ := decoded["logs"].([]any)
	for i, q := range sparqlQueries {
		t.Run(q.file, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatalf("ARQ: %v", errs[i])
			}
			got := figures{}
			for _, row := range results[i] {
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
				got[strings.Join(key, "|")] = vals
			}
			want := figures{}
			for j, l := range logsJSON {
				iri := iriOf[logs[j]]
				q.expect(obj(l), func(key []string, values ...float64) {
					want[strings.Join(append([]string{iri}, key...), "|")] = values
				})
			}
			if len(want) == 0 {
				t.Fatalf("stats has no figures for %s: the check would be empty", q.file)
			}
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
