package register

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/shared"
)

// BenchmarkBuildOGC measures what "jrpcld build" does with the published
// MCP register: loading the tree, building every output and writing it.
func BenchmarkBuildOGC(b *testing.B) {
	src := shared.Dir(b, "reference", "ogc-mcp-bblocks")
	root := b.TempDir()
	i := 0
	for b.Loop() {
		reg, err := bblock.LoadRegisterDir(src, nil)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Build(reg, filepath.Join(root, strconv.Itoa(i)), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Failed() {
			b.Fatal("the build failed")
		}
		i++
	}
}
