package docs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
)

// TestShapesChains (issue 37, item 7): ShapesChains visits, for every
// block, the blocks of ShapesChain that declare shapes, in the same order,
// in registers whose blocks depend on one another at random (cycles too,
// seeded), and in a chain of a thousand blocks, where it makes each block's
// list once: ShapesChain walks the chain below each block.
func TestShapesChains(t *testing.T) {
	cyclic := 0
	check := func(name string, reg *bblock.Register) {
		t.Helper()
		s := NewShapesChains(reg)
		if s.cyclic {
			cyclic++
		}
		for _, b := range reg.Blocks {
			var want, got []string
			ShapesChain(reg, b.ID, func(id string, b *bblock.Block, ib *bblock.ImportedBlock) {
				if ib != nil || len(ShapesFiles(b)) > 0 {
					want = append(want, id)
				}
			})
			s.Visit(b.ID, func(id string, b *bblock.Block, ib *bblock.ImportedBlock) { got = append(got, id) })
			if !slices.Equal(got, want) {
				t.Fatalf("%s, block %s: visited %v, want %v", name, b.ID, got, want)
			}
		}
	}
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 37))
		n := 2 + r.IntN(10)
		blocks := map[int][]int{}
		for i := range n {
			for range r.IntN(4) {
				// Mostly on later blocks (a DAG), now and then on any.
				j := i + 1 + r.IntN(n)
				if r.IntN(8) == 0 {
					j = r.IntN(n)
				}
				if j < n && j != i {
					blocks[i] = append(blocks[i], j)
				}
			}
		}
		check(fmt.Sprintf("random register %d", seed), shapesRegister(t, n, blocks, func(i int) bool { return r.IntN(3) == 0 }))
	}
	if cyclic == 0 || cyclic == 200 {
		t.Errorf("%d of the 200 random registers have a cycle: want some", cyclic)
	}
	const n = 300
	chain := map[int][]int{}
	for i := range n - 1 {
		chain[i] = []int{i + 1}
	}
	reg := shapesRegister(t, n, chain, func(i int) bool { return i%100 == 7 })
	s := NewShapesChains(reg)
	check("chain", reg)
	if len(s.lists) > n {
		t.Errorf("%d lists made for %d blocks", len(s.lists), n)
	}
}

// shapesRegister returns a register of n blocks s.bI, block I depending on
// the blocks deps[I] and declaring shapes when shapes(I).
func shapesRegister(t *testing.T, n int, deps map[int][]int, shapes func(int) bool) *bblock.Register {
	t.Helper()
	tree := fstest.MapFS{bblock.ConfigFile: {Data: []byte("identifier-prefix: s.\nimports: []\n")}}
	for i := range n {
		var ids []string
		for _, d := range deps[i] {
			ids = append(ids, fmt.Sprintf("%q", fmt.Sprintf("s.b%d", d)))
		}
		extra := ""
		if shapes(i) {
			extra = `"shaclShapes": ["shapes.ttl"], `
		}
		tree[fmt.Sprintf("_sources/b%d/bblock.json", i)] = &fstest.MapFile{Data: fmt.Appendf(nil,
			`{"name": "B", "dependsOn": [%s], %s"status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`,
			strings.Join(ids, ", "), extra)}
	}
	reg, err := bblock.LoadRegister(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}
