package convert

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/piprate/json-gold/ld"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
)

// benchConvert converts the cycled corpus in format f with the context
// ctx: one op is one message.
func benchConvert(b *testing.B, f rdf.Format, ctx *ldctx.Processed) {
	log, n := shared.CorpusLog(b)
	c := NewConverter(ctx)
	b.SetBytes(int64(len(log) / n))
	b.ReportAllocs()
	r, err := rpclog.NewReader(shared.NewCycleReader(log, b.N), "corpus", rpclog.ReaderOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0, measured := cpuTime()
	if err := c.Convert(io.Discard, f, []Log{{Reader: r, File: "corpus", IRI: "http://example.com/corpus"}}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	reportCPU(b, cpu0, measured)
}

// reportCPU reports the CPU time of the process (every goroutine, the
// collector's too) per op since cpu0, as cpu-ns/op: what an op costs when
// other work shares the machine and wall time (ns/op) says less.
func reportCPU(b *testing.B, cpu0 time.Duration, measured bool) {
	if cpu1, ok := cpuTime(); ok && measured {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkConvertNTriples: log -> N-Triples with the embedded block.
func BenchmarkConvertNTriples(b *testing.B) {
	benchConvert(b, rdf.NTriples, toolchaintest.DefaultContext(b))
}

// BenchmarkConvertTurtle: log -> rdf.Turtle with the embedded block.
func BenchmarkConvertTurtle(b *testing.B) {
	benchConvert(b, rdf.Turtle, toolchaintest.DefaultContext(b))
}

// BenchmarkConvertTurtleMCP: log -> rdf.Turtle with the MCP block of the
// reference register, whose context maps params and results into nodes.
func BenchmarkConvertTurtleMCP(b *testing.B) {
	benchConvert(b, rdf.Turtle, toolchaintest.MCPContext(b))
}

// BenchmarkJSONGoldToRDF is the reference: json-gold's plain ToRDF of each
// corpus message with the embedded block's context attached, as a JSON-LD
// user would call it (the context processed for every document).
func BenchmarkJSONGoldToRDF(b *testing.B) { benchJSONGold(b, toolchaintest.DefaultContext(b)) }

// BenchmarkJSONGoldToRDFMCP is BenchmarkJSONGoldToRDF with the MCP block's
// context.
func BenchmarkJSONGoldToRDFMCP(b *testing.B) { benchJSONGold(b, toolchaintest.MCPContext(b)) }

// benchJSONGold runs json-gold's plain ToRDF on each corpus message with
// ctx attached.
func benchJSONGold(b *testing.B, ctx *ldctx.Processed) {
	log, n := shared.CorpusLog(b)
	value := gold.FloatNumbers(ctx.Value())
	r, _ := rpclog.NewReader(bytes.NewReader(log), "corpus", rpclog.ReaderOptions{})
	var docs []map[string]any
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		doc := map[string]any{"@context": value}
		for k, v := range rec.Value.(map[string]any) {
			doc[k] = v
		}
		docs = append(docs, doc)
	}
	if len(docs) != n {
		b.Fatalf("%d docs of %d", len(docs), n)
	}
	opts := gold.Options("http://example.com/corpus/")
	opts.Format = "application/n-quads"
	proc := ld.NewJsonLdProcessor()
	b.SetBytes(int64(len(log) / n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := proc.ToRDF(docs[i%len(docs)], opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkCompiledToRDF maps each corpus message with the compiled plan of
// the embedded block's context, as BenchmarkJSONGoldToRDF does with
// json-gold: the mapping alone, no log layer, no writing. It runs on as
// many goroutines as -cpu gives.
func BenchmarkCompiledToRDF(b *testing.B) {
	log, n := shared.CorpusLog(b)
	m, err := NewMapping(toolchaintest.DefaultContext(b), "http://example.com/corpus/")
	if err != nil {
		b.Fatal(err)
	}
	r, _ := rpclog.NewReader(bytes.NewReader(log), "corpus", rpclog.ReaderOptions{})
	var msgs []map[string]any
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		msgs = append(msgs, rec.Value.(map[string]any))
	}
	if len(msgs) != n {
		b.Fatalf("%d messages of %d", len(msgs), n)
	}
	b.SetBytes(int64(len(log) / n))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var out []rdf.Triple
		for i := 0; pb.Next(); i++ {
			var ok bool
			out, _, _, _, _, ok = m.compiledTriples(msgs[i%len(msgs)], "http://example.com/corpus#m1", "b", out[:0])
			if !ok {
				b.Fatal("the plan does not cover a corpus message")
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkCanonicalText writes the canonical form of the params and
// result of every corpus message from their text (jcs.Writer, as the plan
// does for @json terms): one op is one message's values.
func BenchmarkCanonicalText(b *testing.B) {
	log, n := shared.CorpusLog(b)
	var texts [][]byte
	for _, line := range bytes.Split(log, []byte("\n")) {
		var msg map[string]json.RawMessage
		if json.Unmarshal(line, &msg) != nil {
			continue
		}
		for _, k := range []string{"params", "result"} {
			if t := msg[k]; len(t) > 0 {
				texts = append(texts, t)
			}
		}
	}
	if len(texts) == 0 {
		b.Fatal("no params or result in the corpus")
	}
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	b.SetBytes(int64(size / n))
	var c jcs.Writer
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := i % n; j < len(texts); j += n {
			buf, _ = c.AppendText(buf[:0], texts[j])
		}
	}
}
