//go:build jena

package stats

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/jenatest"
	"github.com/jrpcld/jrpcld/internal/testkit/oxitest"
)

// jenaEngines returns Apache Jena's ARQ and TDB2: with the build tag jena
// (.ci/run sets it) TestSPARQLEngines runs the queries in Jena too. Each
// query starts a Java process, about 27 in all: over a minute of two cores,
// more than the rest of the package's tests, so the plain suite leaves
// them out.
func jenaEngines() []sparqlEngine { return []sparqlEngine{{"jena", runJena}} }

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

// runJena runs the queries in ARQ, each in a process of its own, over the
// Turtle files; and in a TDB2 store loaded once with the N-Quads, one query
// after another (a TDB2 store is opened by one process at a time), without
// and with the union default graph.
func runJena(t *testing.T, ctx context.Context, f *sparqlFixture) {
	cp := jenatest.Classpath(t)
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
