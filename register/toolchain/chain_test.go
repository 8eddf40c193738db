package toolchain

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/schemaprops"
)

// A chain register's blocks each build on the next one, the last on none:
const (
	chainExtends = "extends" // by extends in bblock.json
	chainRef     = "ref"     // by a $ref in the allOf of its schema
	chainNested  = "nested"  // by a $ref from a property the context binds
	chainLocal   = "local"   // by a $ref from a property the context does not bind
	chainCycle   = "cycle"   // as chainRef, the last block on the first
	// chainNestedCycle and chainLocalCycle: as chainNested and chainLocal,
	// the last block on the first
	chainNestedCycle = "nested cycle"
	chainLocalCycle  = "local cycle"
	// chainDiamond: by $refs from two properties to the next two blocks
	chainDiamond = "diamond"
)

// chainRegister returns a register of n blocks c.b0 ... c.b(n-1), block I
// building on block I+1 as kind says.
func chainRegister(t testing.TB, n int, kind string) *bblock.Register {
	t.Helper()
	tree := fstest.MapFS{bblock.ConfigFile: {Data: []byte("identifier-prefix: c.\nimports: []\n")}}
	for i := range n {
		next := i + 1
		if kind == chainCycle || kind == chainNestedCycle || kind == chainLocalCycle {
			next %= n
		}
		link, meta, ctx := "", "", fmt.Sprintf(`"p%d": "http://example.com/p%d"`, i, i)
		if next < n {
			switch kind {
			case chainExtends:
				meta = fmt.Sprintf(`"extends": "c.b%d", `, next)
			case chainRef, chainCycle:
				meta = fmt.Sprintf(`"dependsOn": ["c.b%d"], `, next)
				link = fmt.Sprintf("allOf:\n  - $ref: ../b%d/schema.yaml\n", next)
			case chainDiamond:
				meta = fmt.Sprintf(`"dependsOn": ["c.b%d"], `, next)
				link = fmt.Sprintf("  x%d:\n    $ref: ../b%d/schema.yaml\n", i, next)
				if next+1 < n {
					link += fmt.Sprintf("  y%d:\n    $ref: ../b%d/schema.yaml\n", i, next+1)
				}
				ctx += fmt.Sprintf(`, "x%d": "http://example.com/x%d"`, i, i)
			case chainNested, chainLocal, chainNestedCycle, chainLocalCycle:
				meta = fmt.Sprintf(`"dependsOn": ["c.b%d"], `, next)
				link = fmt.Sprintf("  next%d:\n    $ref: ../b%d/schema.yaml\n", i, next)
				if kind == chainNested || kind == chainNestedCycle {
					ctx += fmt.Sprintf(`, "next%d": "http://example.com/next%d"`, i, i)
				}
			}
		}
		dir := fmt.Sprintf("_sources/b%d/", i)
		tree[dir+"bblock.json"] = &fstest.MapFile{Data: fmt.Appendf(nil, `{"name": "B%d", %s"status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`, i, meta)}
		schema := fmt.Sprintf("type: object\nproperties:\n  p%d:\n    type: string\n", i) + link
		tree[dir+"schema.yaml"] = &fstest.MapFile{Data: []byte(schema)}
		tree[dir+"context.jsonld"] = &fstest.MapFile{Data: fmt.Appendf(nil, `{"@context": {%s}}`, ctx)}
	}
	reg, err := bblock.LoadRegister(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// builtContexts builds the context and the resolved properties of every
// block of reg, in the order given, and returns them as text by block id.
func builtContexts(t testing.TB, tc *Toolchain, blocks []*bblock.Block) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, b := range blocks {
		var buf bytes.Buffer
		doc, warns, err := tc.Context(b)
		fmt.Fprintf(&buf, "error: %v\nwarnings: %v\n", err, warns)
		if doc != nil {
			if err := doc.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
		}
		if p := tc.Properties(b); p != nil {
			data, err := p.Resolve().JSON(b.ID)
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(data)
			buf.Write(p.Visited(func(s schemaprops.Source) string { return fmt.Sprint(s) }))
			buf.Write(p.Unbound())
		}
		out[b.ID] = buf.String()
	}
	return out
}

// TestChainWalksLinear (issue 37, item 7): in a register of n blocks each
// building on the next, by extends or by a $ref, the context builds of all
// the blocks walk a number of subschemas that grows linearly with n, in
// whatever order the blocks are built: the level a referenced schema gives
// is walked once and reused by the blocks above it. Each block's context
// used to walk the whole chain below it again (n²/2 walks), and merge the
// levels of the chain into one another at each step (n³/6 terms merged).
//
// A chain through properties (nested, local) gives each block a context
// or properties nested as deep as the chain below it, the square of its
// length in output, which the tool chain writes too: those chains are
// shorter here.
func TestChainWalksLinear(t *testing.T) {
	for _, kind := range []string{chainExtends, chainRef, chainNested, chainLocal} {
		for _, reverse := range []bool{false, true} {
			n := 100
			switch {
			case kind == chainExtends && !reverse:
				n = 300 // as the build takes a chain: its last block first
			case kind == chainNested || kind == chainLocal:
				n = 40
			}
			t.Run(fmt.Sprintf("%s, from the %s", kind, map[bool]string{false: "last", true: "first"}[reverse]), func(t *testing.T) {
				reg := chainRegister(t, n, kind)
				blocks := slices.Clone(reg.Blocks)
				slices.SortFunc(blocks, func(a, b *bblock.Block) int { return chainIndex(b) - chainIndex(a) })
				if reverse {
					slices.Reverse(blocks)
				}
				tc := New(reg, nil)
				for _, b := range blocks {
					if _, _, err := tc.Context(b); err != nil {
						t.Fatal(err)
					}
					tc.Properties(b)
				}
				if walks := int(tc.tc.walks.Load()); walks > 12*n {
					t.Errorf("%d subschemas walked for %d blocks (want at most %d: linear)", walks, n, 12*n)
				}
				// The first block's context holds the terms of the whole chain.
				first := builtContexts(t, tc, blocks[len(blocks)-1:])["c.b0"]
				if reverse {
					first = builtContexts(t, tc, blocks[:1])["c.b0"]
				}
				for _, term := range []string{`"p0"`, fmt.Sprintf(`"p%d"`, n-1)} {
					if !strings.Contains(first, term) {
						t.Errorf("c.b0's context or properties lack %s:\n%.2000s", term, first)
					}
				}
			})
		}
	}
}

// chainIndex returns I for block c.bI.
func chainIndex(b *bblock.Block) int {
	var i int
	fmt.Sscanf(strings.TrimPrefix(b.ID, "c.b"), "%d", &i)
	return i
}
