package schema_test

import (
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/schema"
)

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
	log, n := shared.CorpusLog(b)
	b.SetBytes(int64(len(log) / n))
	b.ReportAllocs()
	r, err := rpclog.NewReader(shared.NewCycleReader(log, b.N), "corpus", rpclog.ReaderOptions{})
	if err != nil {
		b.Fatal(err)
	}
	c, _ := schema.NewChecker(s, "")
	b.ResetTimer()
	sum, err := schema.ValidateLog(r, c, "corpus", func(schema.Finding) {})
	if err != nil || sum.Messages != b.N {
		b.Fatalf("%v: %d of %d messages", err, sum.Messages, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
