package wire_test

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/rdf"
)

// benchLog returns a log of n messages cycled from the corpus logs with
// envelopes, and n.
func benchLog(b *testing.B, n int) string {
	var lines []string
	for _, file := range shared.CorpusFiles(b) {
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
	ctx := toolchaintest.DefaultContext(b)
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

// BenchmarkManyValues measures the way back on a message node whose one
// property has n values (a graph made by hand or by a hostile peer: the
// values of one subject and predicate come back as one array): time per
// value must stay flat as n grows, where a linear search made it grow with
// n (issue 23, item 16).
func BenchmarkManyValues(b *testing.B) {
	rv := wire.NewDecoder(toolchaintest.DefaultContext(b))
	for _, n := range []int{1000, 4000, 16000} {
		node := rdf.NewIRI("http://example.com/log#m1")
		quads := []rdf.Quad{
			{Triple: rdf.T(node, rdf.RDFType, rdf.NewIRI(rdf.JRPCRequest))},
			{Triple: rdf.T(node, rdf.JLogInLog, rdf.NewIRI("http://example.com/log"))},
			{Triple: rdf.T(node, rdf.JLogPosition, rdf.NewLiteral("1", rdf.XSDInteger))},
			{Triple: rdf.T(node, rdf.JLogID, rdf.NewLiteral("1", rdf.XSDInteger))},
			{Triple: rdf.T(node, rdf.JRPCNS+"version", rdf.NewLiteral("2.0", rdf.XSDString))},
			{Triple: rdf.T(node, rdf.JRPCNS+"hasMethod", rdf.NewLiteral("m", rdf.XSDString))},
		}
		for i := range n {
			quads = append(quads, rdf.Quad{Triple: rdf.T(node, rdf.JRPCNS+"hasParameters", rdf.NewLiteral(`{"k":`+strconv.Itoa(i)+`}`, rdf.RDFJSON))})
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				logs, probs := rv.Logs(quads)
				if len(probs) > 0 || len(logs) != 1 || len(logs[0].Messages) != 1 {
					b.Fatalf("problems %v", probs)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
		})
	}
}
