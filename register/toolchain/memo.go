package toolchain

import (
	"slices"
	"sync"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/register/schemaprops"
)

// The context of a block holds the terms of every schema its schema
// reaches, and the tool chain builds it by walking them all, block after
// block: in a register whose blocks build on one another in a chain (by
// extends or by $ref), the blocks' builds walk the chain below each of
// them again, the square of its length in walks and its cube in terms
// merged. The memo below lets a build reuse the walk of a referenced
// schema that an earlier build made (see ctxBuilder.walkRef).
//
// What a walk gives depends on more than the schema: on the state of the
// build it is part of (what it cached, which prefixes and extra terms it
// took, which documents enclose the walk) and on objects that the walk
// shares with the rest of the build, which later merges change. So a walk
// is recorded only when nothing it read came from before it began, and
// replayed only where nothing it would read is there yet; the replay hands
// out a copy of what the walk made that shares as the original did, and
// tells the build's properties and warnings what the walk told them. The
// levels a replayed walk cached below its own are not made: should the
// build ask for one, it starts again without replays (errReplayed), so
// that a build's output is always what walking everything would give.

// walkKey names a walk of a referenced schema: the schema part (the tool
// chain's cache key), the reference's text, what the walk is given, and
// whether the build looked the part up first.
type walkKey struct {
	key, ref       string
	isVocab, local bool
	lookup         bool
	vocab          string
	hasVocab       bool
}

// newWalkKey returns the key of a walk of target; false when the @vocab in
// effect is not a string (or none), which walks are not recorded for.
func newWalkKey(target *refSchema, isVocab, local bool, vocab any) (walkKey, bool) {
	k := walkKey{key: target.key(), ref: target.refText(), isVocab: isVocab, local: local}
	switch v := vocab.(type) {
	case nil:
	case string:
		k.vocab, k.hasVocab = v, true
	default:
		return k, false
	}
	return k, true
}

// walkTrace is what one walk of a referenced schema did, besides the level
// it gave: the walks it nests share the traces of the walks inside them.
type walkTrace struct {
	// events tell the properties collector and the warnings what the walk
	// met, paths relative to where it began; nested are the walks inside
	// it, recorded or replayed, whose events are among these.
	events []func(bd *ctxBuilder, base []string)
	nested []*walkTrace
	// keys are the cache keys it set and ids the documents it resolved
	// references to: its own, not those of nested walks. (The prefixes
	// and extra terms a walk takes are by refSchema.refText, which comes
	// with a key: keys say which it met.)
	keys, ids []string
	// top is where the walk's own key was last walked, relative, when
	// hasTop.
	top    relPath
	hasTop bool
}

// each calls f for t and every walk nested in it, until f returns false;
// it reports whether f always returned true.
func (t *walkTrace) each(f func(*walkTrace) bool) bool {
	if !f(t) {
		return false
	}
	for _, n := range t.nested {
		if !n.each(f) {
			return false
		}
	}
	return true
}

// walkRecord is a walk the memo holds: its trace, and the level it gave
// with the prefixes and extra terms it took, in order, copied together as
// they were when it ended (so sharing as they did).
type walkRecord struct {
	trace *walkTrace
	// peak is how much deeper than where it began the walk went (see
	// nesting): a walk from deeper would stop at its limit.
	peak       int
	level      *ojson.Object
	pfx, extra []namedValue
	size       int // the members it holds, for the memo's budget
}

type namedValue struct {
	name  string
	value any
}

// walkMemo holds the recorded walks of one toolchain, for all its builds,
// up to a budget of members held: past it, those used longest ago go.
type walkMemo struct {
	mu      sync.Mutex
	recs    map[walkKey]*memoEntry
	queue   []memoUse // in the order of use; an entry used again since is stale
	clock   int
	members int
	budget  int
}

type memoEntry struct {
	rec  *walkRecord
	used int
}

type memoUse struct {
	key  walkKey
	used int
}

// memoBudget bounds the members the walks a toolchain records hold (some
// tens of MB), so that a register of any shape builds in bounded memory;
// a walk no longer held is walked again. A chain's builds use the walks
// recorded last.
const memoBudget = 1 << 18

func (m *walkMemo) get(k walkKey) *walkRecord {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.recs[k]
	if e == nil {
		return nil
	}
	m.use(k, e)
	return e.rec
}

// use marks e, at k, as used last.
func (m *walkMemo) use(k walkKey, e *memoEntry) {
	m.clock++
	e.used = m.clock
	m.queue = append(m.queue, memoUse{k, m.clock})
	if len(m.queue) > 2*len(m.recs)+64 {
		live := m.queue[:0]
		for _, u := range m.queue {
			if e := m.recs[u.key]; e != nil && e.used == u.used {
				live = append(live, u)
			}
		}
		m.queue = live
	}
}

func (m *walkMemo) put(k walkKey, r *walkRecord) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[walkKey]*memoEntry{}
	}
	if _, ok := m.recs[k]; ok {
		return
	}
	e := &memoEntry{rec: r}
	m.recs[k] = e
	m.use(k, e)
	m.members += r.size
	for m.members > m.budget && len(m.queue) > 0 {
		u := m.queue[0]
		m.queue = m.queue[1:]
		if old := m.recs[u.key]; old != nil && old.used == u.used {
			delete(m.recs, u.key)
			m.members -= old.rec.size
		}
	}
}

// recorder records one walk while it runs.
type recorder struct {
	trace *walkTrace
	base  []string // the path the walk began at
	start int      // ctxBuilder.seq when it began
	// pushed is walkStack.pushed when it began: the parts pushed before,
	// which enclose the walk, are those a reference in it may stop at.
	pushed int
	// high is ctxBuilder.high when it began.
	high int
	pure bool
	// pfx and extra are the lengths of importedPfx and importedExtra when
	// the walk began.
	pfx, extra int
	seen       map[string]bool // keys and ids added to the trace, by kind
}

// memoState is the part of a context build that records and replays.
type memoState struct {
	memo   *walkMemo // nil: nothing recorded nor replayed
	replay bool
	// seq numbers the cache keys in the order the build first set them
	// (keySeq); virtual are the keys a replay stands for without their
	// levels.
	seq     int
	keySeq  map[string]int
	virtual map[string]bool
	recs    []*recorder // the walks being recorded, outermost first
}

// relPath is a path relative to another: drop the last names of that one
// and add rest. (A walk's paths are below the one it began at, but for
// where the walk met a reference first, which may be before it, below the
// path a walk around it began at.)
type relPath struct {
	drop int
	rest []string
}

// rel returns path relative to base.
func rel(base, path []string) relPath {
	n := 0
	for n < len(base) && n < len(path) && base[n] == path[n] {
		n++
	}
	return relPath{drop: len(base) - n, rest: slices.Clone(path[n:])}
}

// at returns the path that r names relative to base, in a new slice.
func (r relPath) at(base []string) []string {
	b := base[:max(0, len(base)-r.drop)]
	return append(b[:len(b):len(b)], r.rest...)
}

// impure marks the walks being recorded that began after seq: they met
// something from before them.
func (bd *ctxBuilder) impure(seq int) {
	for i := len(bd.recs) - 1; i >= 0 && bd.recs[i].start > seq; i-- {
		bd.recs[i].pure = false
	}
}

// touchKey is called before the cache or refPaths is read or set at key.
func (bd *ctxBuilder) touchKey(key string, set bool) error {
	if bd.virtual[key] {
		return errReplayed
	}
	if s, ok := bd.keySeq[key]; ok {
		bd.impure(s)
	} else if set && bd.keySeq != nil {
		bd.keySeq[key] = bd.seq
		bd.seq++
	}
	if set && len(bd.recs) > 0 {
		r := bd.recs[len(bd.recs)-1]
		r.add(&r.trace.keys, "k", key)
	}
	return nil
}

// cached returns the level cached at key, nil for none.
func (bd *ctxBuilder) cached(key string) (*ojson.Object, error) {
	if err := bd.touchKey(key, false); err != nil {
		return nil, err
	}
	return bd.cache[key], nil
}

func (bd *ctxBuilder) setCached(key string, level *ojson.Object) error {
	if err := bd.touchKey(key, true); err != nil {
		return err
	}
	bd.cache[key] = level
	return nil
}

func (bd *ctxBuilder) setRefPath(key string, path []string) error {
	if err := bd.touchKey(key, true); err != nil {
		return err
	}
	bd.refPaths[key] = path
	return nil
}

// resolved is called for each reference the walk resolves, with the id of
// the document it leads to: the walks being recorded inside a part of that
// document (which the reference stops at when it loops) depend on it.
func (bd *ctxBuilder) resolved(id string) {
	if at, ok := bd.refs.walk.since(id); ok {
		for i := len(bd.recs) - 1; i >= 0 && bd.recs[i].pushed > at; i-- {
			bd.recs[i].pure = false
		}
	}
	if len(bd.recs) > 0 {
		r := bd.recs[len(bd.recs)-1]
		r.add(&r.trace.ids, "i", id)
	}
}

func (r *recorder) add(list *[]string, kind, s string) {
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if !r.seen[kind+s] {
		r.seen[kind+s] = true
		*list = append(*list, s)
	}
}

// event records f, which the walk just did to the properties collector or
// the warnings at path base+rel, for replays.
func (bd *ctxBuilder) event(f func(bd *ctxBuilder, base []string)) {
	if len(bd.recs) > 0 {
		r := bd.recs[len(bd.recs)-1]
		r.trace.events = append(r.trace.events, f)
	}
}

func (bd *ctxBuilder) visit(path []string, src schemaprops.Source, root bool) {
	bd.props.Visit(path, src, root)
	if r := bd.recording(); r != nil {
		p := rel(r.base, path)
		bd.event(func(bd *ctxBuilder, base []string) { bd.props.Visit(p.at(base), src, root) })
	}
}

func (bd *ctxBuilder) property(p schemaprops.Property) {
	bd.props.Property(p)
	if r := bd.recording(); r != nil {
		at := rel(r.base, p.Path)
		p.Path = nil
		bd.event(func(bd *ctxBuilder, base []string) {
			q := p
			q.Path = at.at(base)
			bd.props.Property(q)
		})
	}
}

func (bd *ctxBuilder) group(path []string, keyword string, src schemaprops.Source) {
	bd.props.Group(path, keyword, src)
	if r := bd.recording(); r != nil {
		p := rel(r.base, path)
		bd.event(func(bd *ctxBuilder, base []string) { bd.props.Group(p.at(base), keyword, src) })
	}
}

func (bd *ctxBuilder) branch(path []string, i int, title any, src schemaprops.Source) {
	bd.props.Branch(path, i, title, src)
	if r := bd.recording(); r != nil {
		p := rel(r.base, path)
		bd.event(func(bd *ctxBuilder, base []string) { bd.props.Branch(p.at(base), i, title, src) })
	}
}

func (bd *ctxBuilder) condition(path []string, keyword string, title any, src schemaprops.Source) {
	bd.props.Condition(path, keyword, title, src)
	if r := bd.recording(); r != nil {
		p := rel(r.base, path)
		bd.event(func(bd *ctxBuilder, base []string) { bd.props.Condition(p.at(base), keyword, title, src) })
	}
}

func (bd *ctxBuilder) reuse(src, dst []string, key string) {
	bd.props.Reuse(src, dst, key)
	if r := bd.recording(); r != nil {
		s, d := rel(r.base, src), rel(r.base, dst)
		bd.event(func(bd *ctxBuilder, base []string) { bd.props.Reuse(s.at(base), d.at(base), key) })
	}
}

// warn reports a warning of the walk.
func (bd *ctxBuilder) warn(msg string) {
	bd.report(msg)
	bd.event(func(bd *ctxBuilder, _ []string) { bd.report(msg) })
}

// recording returns the innermost walk being recorded, nil for none.
func (bd *ctxBuilder) recording() *recorder {
	if len(bd.recs) == 0 {
		return nil
	}
	return bd.recs[len(bd.recs)-1]
}

// walkRef returns the level of target, a schema part that a reference of
// from leads to, walked at path (see subschema); lookup says that the
// build looked it up in its cache first, and sets where it walked it.
// The walk is replayed from the memo when it can be, else recorded there
// when it can be.
func (bd *ctxBuilder) walkRef(from, target *refSchema, path []string, isVocab, local bool, vocab any, lookup bool) (*ojson.Object, error) {
	key := target.key()
	// A walk of the document it is in shares that document with the
	// walks around it; of another one, it has the document to itself.
	wk, ok := newWalkKey(target, isVocab, local, vocab)
	wk.lookup = lookup
	ok = ok && bd.memo != nil && target.id != from.id
	if ok && bd.replay {
		if rec := bd.memo.get(wk); rec != nil && bd.canReplay(rec) {
			return bd.replayWalk(rec, key, path), nil
		}
	}
	var r *recorder
	if ok {
		r = &recorder{trace: &walkTrace{}, base: path, start: bd.seq, pushed: bd.refs.walk.pushed, high: bd.high, pure: true,
			pfx: bd.importedPfx.Len(), extra: bd.importedExtra.Len()}
		bd.recs = append(bd.recs, r)
		bd.high = bd.depth.total
	}
	var level *ojson.Object
	err := func() error {
		if lookup {
			if err := bd.setRefPath(key, path); err != nil {
				return err
			}
		}
		bd.refs.walk.push(target)
		defer bd.refs.walk.pop(target)
		var err error
		level, err = bd.subschema(target.sub, target, path, isVocab, local, vocab, nil)
		return err
	}()
	if r != nil {
		bd.recs = bd.recs[:len(bd.recs)-1]
		peak := bd.high - bd.depth.total
		bd.high = max(bd.high, r.high)
		if err == nil {
			bd.endRecording(r, wk, key, level, peak)
		}
	}
	return level, err
}

// endRecording ends the recording r of a walk that gave level: the memo
// takes it when it is pure, and the walk around it, if any, nests it.
func (bd *ctxBuilder) endRecording(r *recorder, wk walkKey, key string, level *ojson.Object, peak int) {
	t := r.trace
	if p, ok := bd.refPaths[key]; ok {
		t.top, t.hasTop = rel(r.base, p), true
	}
	bd.nest(t, r.base)
	if !r.pure {
		return
	}
	var c ojson.Copier
	rec := &walkRecord{trace: t, peak: peak, level: c.Copy(level).(*ojson.Object),
		pfx: copyAdded(&c, bd.importedPfx, r.pfx), extra: copyAdded(&c, bd.importedExtra, r.extra)}
	rec.size = countMembers(rec.level) + len(t.events) + len(t.keys) + len(t.ids)
	for _, nv := range append(rec.pfx, rec.extra...) {
		rec.size += countMembers(nv.value)
	}
	bd.memo.put(wk, rec)
}

// nest adds trace t, of a walk that began at path base, to the walk being
// recorded around it, if any.
func (bd *ctxBuilder) nest(t *walkTrace, base []string) {
	parent := bd.recording()
	if parent == nil {
		return
	}
	at := rel(parent.base, base)
	parent.trace.nested = append(parent.trace.nested, t)
	parent.trace.events = append(parent.trace.events, func(bd *ctxBuilder, b []string) {
		b = at.at(b)
		for _, e := range t.events {
			e(bd, b)
		}
	})
}

// copyAdded copies, with c, the members of o from the index from on.
func copyAdded(c *ojson.Copier, o *ojson.Object, from int) []namedValue {
	keys := o.Keys()
	var out []namedValue
	for _, k := range keys[from:] {
		out = append(out, namedValue{k, c.Copy(o.Value(k))})
	}
	return out
}

// countMembers counts the members and items of v, at any depth.
func countMembers(v any) int {
	switch x := v.(type) {
	case *ojson.Object:
		n := 1
		for _, k := range x.Keys() {
			n += 1 + countMembers(x.Value(k))
		}
		return n
	case []any:
		n := 1
		for _, e := range x {
			n += countMembers(e)
		}
		return n
	}
	return 0
}

// canReplay reports whether the build is where rec can be replayed for a
// walk of target: nothing rec met is in the build yet, no document it
// reached encloses target, and walked from here it would not go deeper
// than the walk may.
func (bd *ctxBuilder) canReplay(rec *walkRecord) bool {
	if bd.depth.total+rec.peak > bd.depth.limit() {
		return false
	}
	return rec.trace.each(func(n *walkTrace) bool {
		for _, k := range n.keys {
			if _, ok := bd.keySeq[k]; ok {
				return false
			}
		}
		for _, id := range n.ids {
			if _, ok := bd.refs.walk.since(id); ok {
				return false
			}
		}
		return true
	})
}

// replayWalk does, at path, what the walk rec recorded did, and returns
// (a copy of) its level, which the cache then holds at key.
func (bd *ctxBuilder) replayWalk(rec *walkRecord, key string, path []string) *ojson.Object {
	bd.tc.replays.Add(1)
	bd.high = max(bd.high, bd.depth.total+rec.peak)
	var c ojson.Copier
	level := c.Copy(rec.level).(*ojson.Object)
	for _, nv := range rec.pfx {
		bd.importedPfx.Set(nv.name, c.Copy(nv.value))
	}
	for _, nv := range rec.extra {
		bd.importedExtra.Set(nv.name, c.Copy(nv.value))
	}
	rec.trace.each(func(n *walkTrace) bool {
		for _, k := range n.keys {
			if _, ok := bd.keySeq[k]; !ok {
				bd.keySeq[k] = bd.seq
				bd.seq++
				bd.virtual[k] = true
			}
		}
		return true
	})
	delete(bd.virtual, key)
	bd.cache[key] = level
	t := rec.trace
	if t.hasTop {
		bd.refPaths[key] = t.top.at(path)
	}
	for _, e := range t.events {
		e(bd, path)
	}
	bd.nest(t, path)
	return level
}
