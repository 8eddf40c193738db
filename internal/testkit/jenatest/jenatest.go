// Package jenatest runs Apache Jena, as Debian packages it
// (libapache-jena-java), for tests that compare jrpcld with it: Classpath
// gathers the jars of the package and of those it depends on, and Source
// runs a Java program of a single source file against them (the JDK's
// source launcher compiles it in memory), so that a test can run many
// queries in one Java process instead of starting one per query.
//
// Without java, the jars or the JDK's compiler, a test is skipped with a
// message, or fails when JRPCLD_SHARED is set (as in CI, which installs
// them).
package jenatest

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/nodetest"
)

// Classpath returns the Java class path of Jena's jars and of the jars of
// the packages it depends on, as dpkg lists them, with one SLF4J binding
// (slf4j-nop) and no logging bridges, which clash with one another.
//
// Debian's jena-core 4.5 moves Xerces' classes to the package xerces but
// leaves their message bundles under org/apache/jena/ext/xerces, so the
// first XSD regular expression fails with "internal error" (the bundle is
// missing): the bundles are copied to their expected place in a folder of
// the test's own, first on the class path.
func Classpath(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		nodetest.Require(t, "java is not installed: %v", err)
	}
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		nodetest.Require(t, "dpkg-query is not available to find the Jena jars: %v", err)
	}
	deps, err := exec.Command("dpkg-query", "-W", "-f", "${Depends}", "libapache-jena-java").Output()
	if err != nil {
		nodetest.Require(t, "Apache Jena (Debian package libapache-jena-java) is not installed: %v", err)
	}
	pkgs := []string{"libapache-jena-java"}
	for _, alt := range strings.Split(string(deps), ",") {
		for _, p := range strings.Split(alt, "|") {
			if f := strings.Fields(p); len(f) > 0 {
				pkgs = append(pkgs, strings.SplitN(f[0], ":", 2)[0])
			}
		}
	}
	jars, core := packageJars(pkgs)
	if core == "" {
		nodetest.Require(t, "no jena-core jar among the files of libapache-jena-java")
	}
	nop, err := filepath.EvalSymlinks("/usr/share/java/slf4j-nop.jar")
	if err != nil {
		nodetest.Require(t, "slf4j-nop.jar (libslf4j-java) is missing: %v", err)
	}
	jars = append(jars, nop)
	sort.Strings(jars)
	dir := t.TempDir()
	if err := xercesBundles(core, dir); err != nil {
		t.Fatalf("jenatest: reading %s: %v", core, err)
	}
	return strings.Join(append([]string{dir}, jars...), string(os.PathListSeparator))
}

// packageJars returns the jars under /usr/share/java that the packages
// install (each real file once), but SLF4J's bindings and bridges, and
// jena-core's among them.
func packageJars(pkgs []string) (jars []string, core string) {
	seen := map[string]bool{}
	for _, pkg := range pkgs {
		out, err := exec.Command("dpkg-query", "-L", pkg).Output()
		if err != nil {
			continue // an alternative that is not installed
		}
		for _, f := range strings.Split(string(out), "\n") {
			base := filepath.Base(f)
			if !strings.HasPrefix(f, "/usr/share/java/") || !strings.HasSuffix(f, ".jar") || loggingJar(base) {
				continue
			}
			real, err := filepath.EvalSymlinks(f)
			if err != nil || seen[real] {
				continue
			}
			seen[real] = true
			jars = append(jars, real)
			if strings.HasPrefix(base, "jena-core") {
				core = real
			}
		}
	}
	return jars, core
}

// loggingJar tells SLF4J's bindings and bridges (slf4j-nop is added on
// its own).
func loggingJar(base string) bool {
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

// xercesBundles writes the .properties files the jar keeps under
// org/apache/jena/ext/xerces/ to xerces/ under dir, unless the jar has
// them there already.
func xercesBundles(jar, dir string) error {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return err
	}
	defer z.Close()
	const moved = "org/apache/jena/ext/xerces/"
	for _, f := range z.File {
		if f.Name == "xerces/impl/xpath/regex/message.properties" {
			return nil
		}
	}
	for _, f := range z.File {
		rest, ok := strings.CutPrefix(f.Name, moved)
		if !ok || !strings.HasSuffix(rest, ".properties") {
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
		dst := filepath.Join(dir, "xerces", filepath.FromSlash(rest))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Source runs the Java program of one source file with the class path cp
// and args, and returns its standard output. The JDK's compiler must be
// there (the module jdk.compiler: Debian's default-jdk-headless): without
// it t is skipped, or fails when JRPCLD_SHARED is set.
func Source(t testing.TB, ctx context.Context, cp, file string, args ...string) ([]byte, error) {
	t.Helper()
	mods, err := exec.Command("java", "--list-modules").Output()
	if err != nil || !bytes.Contains(mods, []byte("jdk.compiler@")) {
		nodetest.Require(t, "java cannot run a source file: the JDK's compiler (jdk.compiler, Debian's default-jdk-headless) is missing")
	}
	cmd := exec.CommandContext(ctx, "java", append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", cp, file}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("java %s: %v: %s", filepath.Base(file), err, stderr.String())
	}
	return out, nil
}
