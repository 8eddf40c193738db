package convert

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/shared"
	"github.com/jrpcld/jrpcld/schema"
)

// corpusLog returns the bare corpus sessions concatenated, and their number
// of messages.
func corpusLog(b testing.TB) ([]byte, int) {
	dir := shared.Dir(b, "corpus", "mcp-sessions")
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
// a fixed number of them: a log of exactly b.N messages in little memory.
type cycleReader struct {
	lines [][]byte
	left  int // lines still to give
	next  int
	rest  []byte // the unread part of the current line
}

func newCycleReader(log []byte, n int) *cycleReader {
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

// BenchmarkValidate checks the corpus, cycled, against the JSON-RPC rules and
// the embedded block's schema, on one goroutine: one op is one message.
func BenchmarkValidate(b *testing.B) {
	s, err := schema.Compile(bblock.Default(), nil)
	if err != nil {
		b.Fatal(err)
	}
	benchValidate(b, s)
}

// BenchmarkValidateSchemaFile is BenchmarkValidate with the embedded block's
// schema read as a plain file, so that the JSON Schema validator runs on
// every message instead of relying on the rules being equal to it.
func BenchmarkValidateSchemaFile(b *testing.B) {
	s, err := schema.CompileFile("../bblock/jsonrpc/schema.yaml")
	if err != nil {
		b.Fatal(err)
	}
	benchValidate(b, s)
}

// BenchmarkValidateMCP checks the corpus against the official MCP schema
// (2025-11-25), dispatching each message to its method's definition.
func BenchmarkValidateMCP(b *testing.B) {
	s, err := schema.CompileFile(shared.Dir(b, "reference", "mcp-schema", "2025-11-25", "schema.json"))
	if err != nil {
		b.Fatal(err)
	}
	benchValidate(b, s)
}

func benchValidate(b *testing.B, s *schema.Schema) {
	log, n := corpusLog(b)
	b.SetBytes(int64(len(log) / n))
	b.ReportAllocs()
	r, err := NewReader(newCycleReader(log, b.N), "corpus", ReaderOptions{})
	if err != nil {
		b.Fatal(err)
	}
	c, _ := schema.NewChecker(s, "")
	b.ResetTimer()
	sum, err := ValidateLog(r, c, "corpus", func(Finding) {})
	if err != nil || sum.Messages != b.N {
		b.Fatalf("%v: %d of %d messages", err, sum.Messages, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
