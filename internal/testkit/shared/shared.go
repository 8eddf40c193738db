// Package shared locates the ../shared folder (reference data and corpus)
// for tests. A test that needs it calls Dir: the test is skipped with a clear
// message when the folder is absent, and fails instead when JRPCLD_SHARED is
// set, as it is in CI. CorpusLog and NewCycleReader make the benchmarks'
// logs from the recorded sessions; OGCFull reads what the OGC tool chain
// built for a register (../shared/reference/ogc-full*).
package shared

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
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
		// file is <module>/internal/testkit/shared/shared.go; ../shared sits beside the module.
		root = filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared")
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

// Reference is what the OGC tool chain's own code built, whole and offline,
// for one register: the folder ../shared/reference/SET/NAME (SET is
// "ogc-full", "ogc-pending" or "ogc-full-current") and the blocks its run
// summary lists.
type Reference struct {
	Dir    string
	Blocks []RefBlock
}

// RefBlock is one line of a reference's _oracle-summary.txt: a block the
// tool chain built, skipped because it needs an imported register, or
// could not load.
type RefBlock struct {
	ID string
	// Status is "pass" or "FAIL" (a block with tests, by its verdict), "ok"
	// (a block without tests), "skip" (it needs an imported register) or
	// "error" (the tool chain could not load it: it is not in register.json).
	Status string
	// Passed is register.json's validationPassed; Tests the number of
	// test resources the tool chain counted.
	Passed bool
	Tests  int
	// Context is the path of the context the tool chain wrote, relative to
	// Dir ("annotated/PATH/context.jsonld"), or "" when it wrote none.
	Context string
}

// OGCFull returns the reference build of register name in set ("ogc-full",
// "ogc-pending" or "ogc-full-current"), with its summary read. It skips or fails t as Dir
// does; a reference that is there but unreadable fails t.
func OGCFull(t testing.TB, set, name string) *Reference {
	t.Helper()
	dir := Dir(t, "reference", set, name)
	ref, err := readReference(dir)
	if err != nil {
		t.Fatalf("shared: %v", err)
	}
	return ref
}

// HasOGCFull reports whether ../shared holds a reference build of register
// name in set, for tests that list which registers still await one.
func HasOGCFull(t testing.TB, set, name string) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(Dir(t, "reference", set, name), "_oracle-summary.txt"))
	return err == nil
}

// readReference reads dir/_oracle-summary.txt: one line per block
// ("pass   ID  validationPassed=true tests=3 annotated/P/context.jsonld",
// "ok     ID  validationPassed=true tests=0 no context", "skip   ID  depends
// on ...", "error  ID  loading the block: ...") and a last line that starts
// with "ogc-oracle".
func readReference(dir string) (*Reference, error) {
	p := filepath.Join(dir, "_oracle-summary.txt")
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	ref := &Reference{Dir: dir}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == "ogc-oracle" {
			continue
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("%s:%d: a block line has no identifier: %q", p, i+1, line)
		}
		b := RefBlock{Status: f[0], ID: f[1]}
		switch b.Status {
		case "skip", "error":
		case "ok", "pass", "FAIL":
			if len(f) < 5 || !strings.HasPrefix(f[2], "validationPassed=") || !strings.HasPrefix(f[3], "tests=") {
				return nil, fmt.Errorf("%s:%d: not a block line: %q", p, i+1, line)
			}
			b.Passed = f[2] == "validationPassed=true"
			if b.Tests, err = strconv.Atoi(strings.TrimPrefix(f[3], "tests=")); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", p, i+1, err)
			}
			if f[4] != "no" {
				b.Context = f[4]
			}
		default:
			return nil, fmt.Errorf("%s:%d: unknown status %q", p, i+1, b.Status)
		}
		ref.Blocks = append(ref.Blocks, b)
	}
	if len(ref.Blocks) == 0 {
		return nil, fmt.Errorf("%s lists no block", p)
	}
	return ref, nil
}

// CorpusFiles returns the recorded MCP sessions: three bare logs and the
// same three with directions and times (.dir.jsonl). Without ../shared it
// skips tb, or fails it when JRPCLD_SHARED is set.
func CorpusFiles(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(tb, "corpus", "mcp-sessions"), "*.jsonl"))
	if err != nil || len(files) != 6 {
		tb.Fatalf("corpus: %v %v", files, err)
	}
	return files
}
