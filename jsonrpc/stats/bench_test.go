package stats

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// BenchmarkStats reads the envelope logs of the corpus, cycled into one log
// of about 8 MB, and computes its Stats, as "jrpcld stats" does; it reports
// messages per second and (through SetBytes) MB/s.
func BenchmarkStats(b *testing.B) {
	corpus := shared.Dir(b, "corpus", "mcp-sessions")
	files, _ := filepath.Glob(filepath.Join(corpus, "*.dir.jsonl"))
	var one bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		one.Write(data)
	}
	var log bytes.Buffer
	for log.Len() < 8<<20 {
		log.Write(one.Bytes())
	}
	data := log.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	msgs := 0
	for i := 0; i < b.N; i++ {
		r, err := rpclog.NewReader(bytes.NewReader(data), "bench", rpclog.ReaderOptions{})
		if err != nil {
			b.Fatal(err)
		}
		c := NewCollector(Options{})
		if err := ReadLog(r, c); err != nil {
			b.Fatal(err)
		}
		msgs += c.Stats().Messages
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	runtime.KeepAlive(msgs)
}
