package register

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
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

// BenchmarkBuildChain measures the build, in memory, of registers whose
// blocks refer to one another in a chain (see chainTree and bench/chain.sh).
func BenchmarkBuildChain(b *testing.B) {
	for _, n := range []int{50, 100, 200} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			reg, err := bblock.LoadRegister(chainTree(n, false), nil)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, _, err := build(reg, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
