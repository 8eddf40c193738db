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

// BenchmarkValidate checks the corpus, cycled, against the JSON-RPC rules and
// the embedded block's schema, on one goroutine: one op is one message.
func BenchmarkValidate(b *testing.B) {
	log, n := corpusLog(b)
	s, err := schema.Compile(bblock.Default(), nil)
	if err != nil {
		b.Fatal(err)
	}
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
		if err != nil || sum.Valid != n {
			b.Fatalf("%v: %d of %d valid", err, sum.Valid, n)
		}
		done += n
	}
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "msgs/s")
}
