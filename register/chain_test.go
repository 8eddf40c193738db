package register

import (
	"fmt"
	"io/fs"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
)

// countingFS counts the files opened in an fs.FS.
type countingFS struct {
	fs.FS
	mu     sync.Mutex
	opened map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

// chainTree returns a register of n blocks where block I's schema refers
// to block I+1's, and depends on it; with cycle, the last refers to the
// first.
func chainTree(n int, cycle bool) fstest.MapFS {
	tree := fstest.MapFS{bblock.ConfigFile: {Data: []byte("identifier-prefix: c.\nimports: []\n")}}
	for i := range n {
		j := i + 1
		dep, ref := "", "  - type: object\n"
		if j < n || cycle {
			j %= n
			dep = fmt.Sprintf(`"dependsOn": ["c.b%d"], `, j)
			ref = fmt.Sprintf("  - $ref: ../b%d/schema.yaml\n", j)
		}
		dir := fmt.Sprintf("_sources/b%d/", i)
		tree[dir+"bblock.json"] = &fstest.MapFile{Data: []byte(fmt.Sprintf(`{"name": "B%d", %s"status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`, i, dep))}
		tree[dir+"schema.yaml"] = &fstest.MapFile{Data: []byte(fmt.Sprintf("type: object\nproperties:\n  p%d:\n    type: string\nallOf:\n%s", i, ref))}
		tree[dir+"context.jsonld"] = &fstest.MapFile{Data: []byte(fmt.Sprintf(`{"@context": {"p%d": "http://example.com/p%d"}}`, i, i))}
		tree[dir+"examples.yaml"] = &fstest.MapFile{Data: []byte(fmt.Sprintf("- title: one\n  snippets:\n    - language: json\n      code: '{\"p%d\": \"x\"}'\n", i))}
	}
	return tree
}

// TestChainReadsBounded (issue 23, item 17): in a register whose blocks
// refer to one another in a chain or a cycle, each file is read a bounded
// number of times whatever the length of the chain; the build used to
// compile every schema a block reaches again for each block, reading the
// last block's schema once per block. (Times are in bench/chain.sh.)
func TestChainReadsBounded(t *testing.T) {
	const bound = 5
	for _, cycle := range []bool{false, true} {
		for _, n := range []int{10, 40} {
			cfs := &countingFS{FS: chainTree(n, cycle), opened: map[string]int{}}
			reg, err := bblock.LoadRegister(cfs, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, res, err := build(reg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !cycle && res.Failed() {
				t.Errorf("chain of %d: failed: %v", n, res.Blocks[0].Errors)
			}
			most, which := 0, ""
			for name, k := range cfs.opened {
				if k > most {
					most, which = k, name
				}
			}
			if most > bound {
				t.Errorf("cycle %v, %d blocks: %s opened %d times (want at most %d whatever the length)", cycle, n, which, most, bound)
			}
		}
	}
}
