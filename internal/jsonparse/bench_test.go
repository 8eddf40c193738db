package jsonparse

import (
	"bytes"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// BenchmarkParse parses the lines of the MCP corpus one after another,
// decoding everything, as validate does.
func BenchmarkParse(b *testing.B) {
	log, _ := shared.CorpusLog(b)
	lines := bytes.Split(bytes.TrimRight(log, "\n"), []byte("\n"))
	p := &Parser{MaxDepth: 512}
	b.SetBytes(int64(len(log) / len(lines)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, perr := p.Parse(lines[i%len(lines)]); perr != nil {
			b.Fatal(perr)
		}
	}
}

// BenchmarkParseLazy parses the same lines leaving params, result and
// error undecoded, as the conversion does.
func BenchmarkParseLazy(b *testing.B) {
	log, _ := shared.CorpusLog(b)
	lines := bytes.Split(bytes.TrimRight(log, "\n"), []byte("\n"))
	p := &Parser{MaxDepth: 512, Lazy: []string{"params", "result", "error"}}
	b.SetBytes(int64(len(log) / len(lines)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, perr := p.Parse(lines[i%len(lines)]); perr != nil {
			b.Fatal(perr)
		}
	}
}

// BenchmarkCheck checks the same lines without decoding them, noting the
// extents of their values, as the typed read of validate checks params
// and result.
func BenchmarkCheck(b *testing.B) {
	log, _ := shared.CorpusLog(b)
	lines := bytes.Split(bytes.TrimRight(log, "\n"), []byte("\n"))
	p := &Parser{MaxDepth: 512, Lens: make([]uint16, 1<<20)}
	b.SetBytes(int64(len(log) / len(lines)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		line := lines[i%len(lines)]
		if len(line) > len(p.Lens) {
			continue
		}
		if _, _, perr := p.Check(line, 0, 0, true); perr != nil {
			b.Fatal(perr)
		}
	}
}
