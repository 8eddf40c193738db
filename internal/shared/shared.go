// Package shared locates the ../shared folder (reference data and corpus)
// for tests. A test that needs it calls Dir: the test is skipped with a clear
// message when the folder is absent, and fails instead when JRPCLD_SHARED is
// set, as it is in CI. CorpusLog and NewCycleReader make the benchmarks'
// logs from the recorded sessions; Oracle finds the OGC tool chain's code.
package shared

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the absolute path of the shared folder joined with elem.
// It skips t when the folder is missing, or fails t when JRPCLD_SHARED is set.
func Dir(t testing.TB, elem ...string) string {
	t.Helper()
	abs, required, err := root()
	if err == nil {
		return filepath.Join(append([]string{abs}, elem...)...)
	}
	if required {
		t.Fatalf("shared: JRPCLD_SHARED=%q is set but %v", os.Getenv("JRPCLD_SHARED"), err)
	}
	t.Skipf("shared: ../shared not found beside the module (%v); skipping. Set JRPCLD_SHARED to its path to run this test.", err)
	return ""
}

// Present reports whether the tests are to use the shared folder: it is
// there, or JRPCLD_SHARED is set (and then Dir fails when it is not there).
// Fuzz targets use it to add what needs the folder without skipping.
func Present() bool {
	_, required, err := root()
	return err == nil || required
}

// root returns the shared folder, whether JRPCLD_SHARED names it, and why
// it is not there.
func root() (string, bool, error) {
	root := os.Getenv("JRPCLD_SHARED")
	required := root != ""
	if root == "" {
		_, file, _, ok := runtime.Caller(0)
		if !ok {
			return "", false, errors.New("cannot locate the module root; set JRPCLD_SHARED")
		}
		// file is <module>/internal/shared/shared.go; ../shared sits beside the module.
		root = filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		_, err = os.Stat(filepath.Join(abs, "reference"))
	}
	return abs, required, err
}

// CorpusLog returns the bare corpus sessions (without directions)
// concatenated, and their number of messages. It skips or fails b as Dir
// does.
func CorpusLog(b testing.TB) ([]byte, int) {
	b.Helper()
	dir := Dir(b, "corpus", "mcp-sessions")
	var buf bytes.Buffer
	n := 0
	for _, name := range []string{"everything-stdio.jsonl", "filesystem-stdio.jsonl", "memory-stdio.jsonl"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		buf.Write(data)
		n += bytes.Count(data, []byte("\n"))
	}
	return buf.Bytes(), n
}

// cycleReader reads the lines of a log over and over until it has given
// a fixed number of them.
type cycleReader struct {
	lines [][]byte
	left  int // lines still to give
	next  int
	rest  []byte // the unread part of the current line
}

// NewCycleReader returns a reader of n lines taken from log over and over:
// a log of exactly b.N messages in little memory, for benchmarks.
func NewCycleReader(log []byte, n int) io.Reader {
	return &cycleReader{lines: bytes.SplitAfter(bytes.TrimRight(log, "\n"), []byte("\n")), left: n}
}

func (c *cycleReader) Read(p []byte) (int, error) {
	total := 0
	for total < len(p) {
		if len(c.rest) == 0 {
			if c.left == 0 {
				break
			}
			c.rest = c.lines[c.next%len(c.lines)]
			if c.rest[len(c.rest)-1] != '\n' {
				c.rest = append(c.rest[:len(c.rest):len(c.rest)], '\n')
			}
			c.next++
			c.left--
		}
		k := copy(p[total:], c.rest)
		c.rest = c.rest[k:]
		total += k
	}
	if total == 0 {
		return 0, io.EOF
	}
	return total, nil
}

// Oracle returns the path of ../shared/tools/ogc-oracle/oracle, the OGC
// tool chain's own code run offline, after checking that the Debian
// packages it needs are installed. It skips t (or fails it when
// JRPCLD_SHARED is set) when the folder or the packages are missing.
func Oracle(t testing.TB) string {
	t.Helper()
	p := Dir(t, "tools", "ogc-oracle", "oracle")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("JRPCLD_SHARED") != "" {
			t.Fatalf("shared: the OGC oracle is missing: %v", err)
		}
		t.Skipf("shared: the OGC oracle is missing (%v); skipping", err)
	}
	out, err := exec.Command(p, "--check").CombinedOutput()
	if err != nil {
		msg := fmt.Sprintf("shared: the OGC oracle cannot run here (%v): %s; install its Debian packages: apt-get install -y --no-install-recommends $(%s --packages)", err, bytes.TrimSpace(out), p)
		if os.Getenv("JRPCLD_SHARED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}
