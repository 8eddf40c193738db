package convert

import (
	"bytes"
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

// cycledCorpus returns the corpus repeated into a log of about 10,000
// messages, as one long recording would be read, and its message count.
func cycledCorpus(b testing.TB) ([]byte, int) {
	one, n := corpusLog(b)
	copies := 10000 / n
	return bytes.Repeat(one, copies), n * copies
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
	log, n := cycledCorpus(b)
	b.SetBytes(int64(len(log) / n))
	b.ReportAllocs()
	b.ResetTimer()
	done := 0
	for done < b.N {
		r, err := NewReader(bytes.NewReader(log), "corpus", ReaderOptions{})
		if err != nil {
			b.Fatal(err)
		}
		c, _ := schema.NewChecker(s, "")
		sum, err := ValidateLog(r, c, "corpus", func(Finding) {})
		if err != nil || sum.Messages != n {
			b.Fatalf("%v: %d of %d messages", err, sum.Messages, n)
		}
		done += n
	}
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "msgs/s")
}
