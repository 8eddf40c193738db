//go:build jena

package stats

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/oxitest"
)

// jenaEngines returns Apache Jena's ARQ and TDB2: with the build tag jena
// (.ci/run sets it) TestSPARQLEngines runs the queries in Jena too. Each
// query starts a Java process, about 27 in all: over a minute of two cores,
// more than the rest of the package's tests, so the plain suite leaves
// them out.
func jenaEngines() []sparqlEngine { return []sparqlEngine{{"jena", runJena}} }

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
