package toolchain

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// checkSameAsWalked builds every block of reg in each of the orders, with
// the memo (holding budget members, when not 0) and without it, and
// requires the same contexts, warnings, errors and properties, byte for
// byte. It returns how many walks were replayed and builds made again.
func checkSameAsWalked(t *testing.T, name string, reg *bblock.Register, budget int, orders ...[]*bblock.Block) (replays, rewalks int64) {
	t.Helper()
	return checkSameAsWalkedWith(t, name, reg, func(tc *toolchain) {
		if budget > 0 {
			tc.memo.budget = budget
		}
	}, orders...)
}

// checkSameAsWalkedWith is checkSameAsWalked with the toolchains set up by
// setup (nil: as they are), both.
func checkSameAsWalkedWith(t *testing.T, name string, reg *bblock.Register, setup func(*toolchain), orders ...[]*bblock.Block) (replays, rewalks int64) {
	t.Helper()
	for i, order := range orders {
		walked := New(reg, nil)
		memo := New(reg, nil)
		if setup != nil {
			setup(walked.tc)
			setup(memo.tc)
		}
		walked.tc.noMemo = true
		want := builtContexts(t, walked, order)
		got := builtContexts(t, memo, order)
		replays += memo.tc.replays.Load()
		rewalks += memo.tc.rewalks.Load()
		for _, b := range order {
			if got[b.ID] != want[b.ID] {
				t.Errorf("%s, order %d, block %s: with the memo\n%s\nwalking everything\n%s", name, i, b.ID, got[b.ID], want[b.ID])
				return
			}
		}
	}
	return replays, rewalks
}

// orders returns the blocks of reg last first (as a build takes a chain,
// its dependencies first), in register order, and in a shuffled order.
func orders(reg *bblock.Register, rnd *rand.Rand) [][]*bblock.Block {
	rev := slices.Clone(reg.Blocks)
	slices.Reverse(rev)
	shuffled := slices.Clone(reg.Blocks)
	rnd.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	return [][]*bblock.Block{rev, reg.Blocks, shuffled}
}

// TestMemoSameAsWalked (issue 37, item 7): the contexts, properties and
// warnings of every block built with the memo of referenced walks are
// those walking every schema again gives, for the registers of
// testdata/ogc-registers and the MCP register, for the chain registers,
// and for registers made at random whose blocks refer to one another by
// every means (seeded, so the same each run).
func TestMemoSameAsWalked(t *testing.T) {
	rnd := rand.New(rand.NewPCG(37, 7))
	regs := filepath.Join("..", "..", "testdata", "ogc-registers")
	entries, err := os.ReadDir(regs)
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			dirs[e.Name()] = filepath.Join(regs, e.Name())
		}
	}
	dirs["mcp"] = shared.Dir(t, "reference", "ogc-mcp-bblocks")
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range dirs {
			if !yield(k) {
				return
			}
		}
	}) {
		reg, err := bblock.LoadRegisterDir(dirs[name], nil)
		if err != nil {
			t.Fatal(err)
		}
		replays, rewalks := checkSameAsWalked(t, name, reg, 0, orders(reg, rnd)...)
		t.Logf("%s: %d replays, %d builds made again", name, replays, rewalks)
	}
	for _, kind := range []string{chainExtends, chainRef, chainNested, chainLocal, chainCycle, chainNestedCycle, chainLocalCycle, chainDiamond} {
		reg := chainRegister(t, 12, kind)
		replays, rewalks := checkSameAsWalked(t, "chain "+kind, reg, 0, orders(reg, rnd)...)
		t.Logf("chain %s: %d replays, %d builds made again", kind, replays, rewalks)
		// A memo that holds a few levels only: walks it let go of are
		// walked again.
		checkSameAsWalked(t, "chain "+kind+", small memo", reg, 40, orders(reg, rnd)...)
		// Walks that may go 9 subschemas deep: the blocks of the chain far
		// from its end fail, replayed or not (a replay counts how deep the
		// walk it stands for went).
		long := chainRegister(t, 12, kind)
		checkSameAsWalkedWith(t, "chain "+kind+", shallow walks", long, func(tc *toolchain) { tc.refNesting = 9 }, orders(long, rnd)...)
	}
	// A walk recorded where a cycle began below it, asked for where the
	// walk around it is on that cycle: t's walk from e goes on through a
	// back to t; from f, through a, it stops at a. It is not replayed
	// there (which would have to be undone when a's walk ends).
	cyc := smallRegister(t, map[string][2]string{
		"e": {"properties:\n  x:\n    $ref: ../t/schema.yaml\n", `"x": "http://example.com/x"`},
		"t": {"properties:\n  pt:\n    type: string\n  y:\n    $ref: ../a/schema.yaml\n", `"pt": "http://example.com/pt"`},
		"a": {"allOf:\n  - $ref: ../t/schema.yaml\nproperties:\n  pa:\n    type: string\n", `"pa": "http://example.com/pa"`},
		"f": {"properties:\n  w:\n    $ref: ../a/schema.yaml\n", `"pf": "http://example.com/pf"`},
	})
	if _, rewalks := checkSameAsWalked(t, "cycle entered twice", cyc, 0, blocksOf(cyc, "s.e", "s.f")); rewalks != 0 {
		t.Errorf("cycle entered twice: %d builds made again, want none", rewalks)
	}

	// Replayed levels that share objects with the extra terms the walk
	// took, which a later merge changes: d's and e's extra term q, met
	// in one scope, merge; the q written at the top, from d's extra
	// terms, holds both scoped contexts.
	shared := smallRegister(t, map[string][2]string{
		"d":  {"properties:\n  pd:\n    type: string\n", `"pd": "http://example.com/pd", "q": {"@id": "http://example.com/q", "@context": {"r1": "http://example.com/r1"}}`},
		"e":  {"properties:\n  pe:\n    type: string\n", `"pe": "http://example.com/pe", "q": {"@id": "http://example.com/q", "@context": {"r2": "http://example.com/r2"}}`},
		"m1": {"properties:\n  qx:\n    allOf:\n      - $ref: ../d/schema.yaml\n      - $ref: ../e/schema.yaml\n", `"qx": "http://example.com/qx"`},
		"m2": {"properties:\n  qx:\n    allOf:\n      - $ref: ../d/schema.yaml\n      - $ref: ../e/schema.yaml\n", `"qx": "http://example.com/qx"`},
	})
	if replays, _ := checkSameAsWalked(t, "shared extra terms", shared, 0, blocksOf(shared, "s.d", "s.e", "s.m1", "s.m2")); replays == 0 {
		t.Error("shared extra terms: nothing replayed")
	}

	for _, tt := range []struct {
		name      string
		blocks    map[string][2]string
		order     []string
		noReplays bool
	}{
		// e's y leads to m, whose z leads to k, which e's x walked first:
		// a reuse, which the walk of m from n did not meet.
		{"a walk meeting what the build met before it", map[string][2]string{
			"k": {"properties:\n  pk:\n    type: string\n", `"pk": "http://example.com/pk"`},
			"m": {"properties:\n  z:\n    $ref: ../k/schema.yaml\n", `"z": "http://example.com/z"`},
			"n": {"properties:\n  w:\n    $ref: ../m/schema.yaml\n", `"w": "http://example.com/w"`},
			"e": {"properties:\n  x:\n    $ref: ../k/schema.yaml\n  y:\n    $ref: ../m/schema.yaml\n", `"x": "http://example.com/x", "y": "http://example.com/y"`},
		}, []string{"s.k", "s.n", "s.e"}, false},
		// k's walk from n1 (an unbound property of the entry schema) is
		// not looked up first, from n2 it is: n2's second reference to k
		// is a reuse of the first.
		{"a walk looked up and not", map[string][2]string{
			"k":  {"properties:\n  pk:\n    type: string\n", `"pk": "http://example.com/pk"`},
			"n1": {"properties:\n  u:\n    $ref: ../k/schema.yaml\n", `"pn": "http://example.com/pn"`},
			"n2": {"properties:\n  b1:\n    $ref: ../k/schema.yaml\n  b2:\n    $ref: ../k/schema.yaml\n", `"b1": "http://example.com/b1", "b2": "http://example.com/b2"`},
		}, []string{"s.k", "s.n1", "s.n2"}, true},
		// k refers to itself below a property, which is where the walk
		// of k is last said to be: n2's reuse of k points there.
		{"a walk that walks itself again", map[string][2]string{
			"k":  {"properties:\n  child:\n    $ref: '#'\n  pk:\n    type: string\n", `"pk": "http://example.com/pk", "child": "http://example.com/child"`},
			"n1": {"properties:\n  b:\n    $ref: ../k/schema.yaml\n", `"b": "http://example.com/b"`},
			"n2": {"properties:\n  b1:\n    $ref: ../k/schema.yaml\n  b2:\n    $ref: ../k/schema.yaml\n", `"b1": "http://example.com/b1", "b2": "http://example.com/b2"`},
		}, []string{"s.k", "s.n1", "s.n2"}, false},
	} {
		reg := smallRegister(t, tt.blocks)
		if replays, _ := checkSameAsWalked(t, tt.name, reg, 0, blocksOf(reg, tt.order...)); replays == 0 && !tt.noReplays {
			t.Errorf("%s: nothing replayed", tt.name)
		}
	}

	var replays, rewalks int64
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 37))
		reg := randomRegister(t, r)
		rp, rw := checkSameAsWalked(t, fmt.Sprintf("random register %d", seed), reg, 0, orders(reg, r)...)
		replays += rp
		rewalks += rw
	}
	t.Logf("random registers: %d replays, %d builds made again", replays, rewalks)
}

// randomRegister returns a register of a few blocks whose schemas refer to
// one another at random: by $ref in allOf, anyOf, oneOf, items and
// properties (to a whole schema, to a definition, to the document itself),
// by extends, and whose contexts bind some properties, with types, scoped
// contexts, prefixes, a vocabulary and extra terms.
func randomRegister(t *testing.T, r *rand.Rand) *bblock.Register {
	t.Helper()
	n := 2 + r.IntN(7)
	tree := fstest.MapFS{bblock.ConfigFile: {Data: []byte("identifier-prefix: r.\nimports: []\n")}}
	names := []string{"a", "b", "c", "id", "type", "name", "geometry", "links"}
	for i := range n {
		var deps []string
		ref := func() string {
			j := r.IntN(n)
			if j != i && !slices.Contains(deps, fmt.Sprintf("r.b%d", j)) {
				deps = append(deps, fmt.Sprintf("r.b%d", j))
			}
			switch r.IntN(5) {
			case 0:
				return fmt.Sprintf("../b%d/schema.yaml#/$defs/d", j)
			case 1:
				return "#/$defs/d"
			case 2:
				return fmt.Sprintf("bblocks://r.b%d", j)
			}
			return fmt.Sprintf("../b%d/schema.yaml", j)
		}
		var sub func(depth int) any
		sub = func(depth int) any {
			o := ojson.NewObject()
			switch k := r.IntN(9); {
			case depth > 2 || k < 2:
				o.Set("type", []string{"string", "integer", "object"}[r.IntN(3)])
			case k < 4:
				o.Set("$ref", ref())
			case k < 5:
				kw := []string{"allOf", "anyOf", "oneOf"}[r.IntN(3)]
				o.Set(kw, []any{sub(depth + 1), sub(depth + 1)})
			case k < 6:
				o.Set("type", "array")
				o.Set("items", sub(depth+1))
			default:
				o.Set("type", "object")
				props := ojson.NewObject()
				for range 1 + r.IntN(3) {
					props.Set(names[r.IntN(len(names))], sub(depth+1))
				}
				o.Set("properties", props)
			}
			return o
		}
		schema := ojson.NewObject()
		schema.Set("type", "object")
		props := ojson.NewObject()
		for range 1 + r.IntN(4) {
			props.Set(names[r.IntN(len(names))], sub(0))
		}
		schema.Set("properties", props)
		if r.IntN(2) == 0 {
			schema.Set("allOf", []any{sub(1)})
		}
		defs := ojson.NewObject()
		defs.Set("d", sub(1))
		schema.Set("$defs", defs)
		ctx := ojson.NewObject()
		if r.IntN(4) == 0 {
			ctx.Set("@vocab", fmt.Sprintf("http://vocab.example/%d/", i))
		}
		ctx.Set("ex", "http://ex.example/")
		for _, p := range names {
			switch r.IntN(6) {
			case 0, 1:
				ctx.Set(p, fmt.Sprintf("ex:%s%d", p, r.IntN(3)))
			case 2:
				d := ojson.NewObject()
				d.Set("@id", "ex:"+p)
				d.Set("@type", "@id")
				ctx.Set(p, d)
			case 3:
				d := ojson.NewObject()
				d.Set("@id", "ex:"+p)
				sc := ojson.NewObject()
				sc.Set(names[r.IntN(len(names))], fmt.Sprintf("http://scoped.example/%d", r.IntN(3)))
				d.Set("@context", sc)
				ctx.Set(p, d)
			}
		}
		ctx.Set(fmt.Sprintf("extra%d", r.IntN(3)), "ex:extra")
		wrap := ojson.NewObject()
		wrap.Set("@context", ctx)
		meta := fmt.Sprintf(`"dependsOn": [%s], `, quoteAll(deps))
		if r.IntN(4) == 0 {
			if j := r.IntN(n); j > i {
				meta = fmt.Sprintf(`"extends": "r.b%d", `, j) + meta
			}
		}
		dir := fmt.Sprintf("_sources/b%d/", i)
		tree[dir+"bblock.json"] = &fstest.MapFile{Data: fmt.Appendf(nil, `{"name": "B%d", %s"status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`, i, meta)}
		for file, v := range map[string]any{"schema.json": schema, "context.jsonld": wrap} {
			data, err := ojson.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			tree[dir+file] = &fstest.MapFile{Data: data}
		}
	}
	reg, err := bblock.LoadRegister(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// smallRegister returns a register of blocks s.NAME, each with a schema
// (type object, then the text given) and a context (its terms given).
func smallRegister(t *testing.T, blocks map[string][2]string) *bblock.Register {
	t.Helper()
	tree := fstest.MapFS{bblock.ConfigFile: {Data: []byte("identifier-prefix: s.\nimports: []\n")}}
	for name, b := range blocks {
		dir := "_sources/" + name + "/"
		tree[dir+"bblock.json"] = &fstest.MapFile{Data: fmt.Appendf(nil, `{"name": %q, "status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`, name)}
		tree[dir+"schema.yaml"] = &fstest.MapFile{Data: []byte("type: object\n" + b[0])}
		tree[dir+"context.jsonld"] = &fstest.MapFile{Data: []byte(`{"@context": {` + b[1] + `}}`)}
	}
	reg, err := bblock.LoadRegister(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// blocksOf returns the blocks of reg with the ids given, in that order.
func blocksOf(reg *bblock.Register, ids ...string) []*bblock.Block {
	var out []*bblock.Block
	for _, id := range ids {
		out = append(out, reg.Block(id))
	}
	return out
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// TestWalkMemoBudget: past its budget, the memo lets go of the walks used
// longest ago.
func TestWalkMemoBudget(t *testing.T) {
	m := walkMemo{budget: 10}
	rec := func(size int) *walkRecord { return &walkRecord{trace: &walkTrace{}, size: size} }
	key := func(s string) walkKey { return walkKey{key: s} }
	m.put(key("a"), rec(4))
	m.put(key("b"), rec(4))
	if m.get(key("a")) == nil {
		t.Fatal("a is gone")
	}
	m.put(key("c"), rec(4)) // 12 members: b, used longest ago, goes
	for k, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if got := m.get(key(k)) != nil; got != want {
			t.Errorf("%s held: %v, want %v", k, got, want)
		}
	}
	if m.members != 8 {
		t.Errorf("%d members held, want 8", m.members)
	}
	for i := range 100 { // uses keep the queue short
		m.get(key("a"))
		m.put(key(fmt.Sprint(i)), rec(1))
	}
	if len(m.queue) > 2*len(m.recs)+64 {
		t.Errorf("queue of %d for %d walks", len(m.queue), len(m.recs))
	}
	if m.get(key("a")) == nil || m.members > m.budget {
		t.Errorf("a held: %v, %d members (budget %d)", m.get(key("a")) != nil, m.members, m.budget)
	}
}
