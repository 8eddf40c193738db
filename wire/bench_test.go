package wire_test

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/fixture"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/wire"
)

// benchLog returns a log of n messages cycled from the corpus logs with
// envelopes, and n.
func benchLog(b *testing.B, n int) string {
	var lines []string
	for _, file := range fixture.CorpusFiles(b) {
		if !strings.HasSuffix(file, ".dir.jsonl") {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		lines = append(lines, strings.Split(strings.TrimSpace(string(data)), "\n")...)
	}
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.WriteString(lines[i%len(lines)])
		sb.WriteByte('\n')
	}
	return sb.String()
}

// BenchmarkReverse measures the way back: RDF text of the corpus, cycled to
// 5,000 messages, read, turned into messages and written as JSON lines;
// whole (wire.ReadRDF and Logs) and as a stream (Stream, "-stream").
func BenchmarkReverse(b *testing.B) {
	const msgs = 5000
	log := benchLog(b, msgs)
	ctx := fixture.DefaultContext(b)
	rv := wire.NewDecoder(ctx)
	for _, f := range []rdf.Format{rdf.NTriples, rdf.Turtle, rdf.NQuads} {
		out, issues := convertString(b, log, f, "http://example.com/logs/bench.jsonl")
		if len(issues) > 0 {
			b.Fatalf("issues %v", issues)
		}
		data := []byte(out)
		b.Run(f.String()+"-stream", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			mallocs := ms.Mallocs
			b.ResetTimer()
			start := time.Now()
			var buf []byte
			for i := 0; i < b.N; i++ {
				n := 0
				err := rv.Stream(bytes.NewReader(data), f, func(_ string, m *wire.Message) error {
					n++
					buf = m.AppendJSONL(buf[:0], true)
					return nil
				})
				if err != nil || n != msgs {
					b.Fatalf("%d messages, error %v", n, err)
				}
			}
			elapsed := time.Since(start)
			b.StopTimer()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(b.N*msgs)/elapsed.Seconds(), "msgs/s")
			b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(b.N*msgs), "allocs/msg")
		})
		b.Run(f.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			mallocs := ms.Mallocs
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				ds, err := wire.ReadRDF(data, f)
				if err != nil {
					b.Fatal(err)
				}
				logs, probs := rv.Logs(ds)
				if len(probs) > 0 || len(logs) != 1 || len(logs[0].Messages) != msgs {
					b.Fatalf("problems %v", probs)
				}
				if err := wire.WriteJSONL(io.Discard, logs[0].Messages, true); err != nil {
					b.Fatal(err)
				}
			}
			elapsed := time.Since(start)
			b.StopTimer()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(b.N*msgs)/elapsed.Seconds(), "msgs/s")
			b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(b.N*msgs), "allocs/msg")
		})
	}
}
