package context

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/internal/schemadoc"
)

// Annotation keywords written into and read from annotated schemas.
const (
	annPrefix     = "x-jsonld-"
	annID         = "x-jsonld-id"
	annBase       = "x-jsonld-base"
	annVocab      = "x-jsonld-vocab"
	annExtraTerms = "x-jsonld-extra-terms"
	annPrefixes   = "x-jsonld-prefixes"
	annContext    = "x-jsonld-context"
)

// ErrNoSchema is wrapped by the errors of Annotate and Build for a block
// without a schema.
var ErrNoSchema = errors.New("block has no schema")

// Annotate returns a new annotated copy of block b's schema document: each
// property whose name is a term of the block's context stack (see Stack)
// carries one x-jsonld-<keyword> per keyword of the term's definition, IRIs
// expanded; the root carries x-jsonld-extra-terms, x-jsonld-prefixes,
// x-jsonld-base and x-jsonld-vocab. Annotations already in the schema win.
// $ref values keep their source form; references into other files or blocks
// are not followed, since those are annotated on their own. reg may be nil.
func Annotate(b *bblock.Block, reg *bblock.Register, opts *Options) (any, []Warning, error) {
	a, err := newAnnotator(b, reg, opts)
	if err != nil {
		return nil, nil, err
	}
	d, err := a.doc(a.docs.RootURL())
	if err != nil {
		return nil, a.warnings, err
	}
	return d.out, a.warnings, nil
}

// annotator annotates the schema documents of a block and, on demand, of
// the blocks it refers to, each with its own block's context stack.
type annotator struct {
	main     *bblock.Block
	reg      *bblock.Register
	docs     *schemadoc.Docs
	opts     *Options
	blocks   map[string]*bblock.Block
	stacks   map[string]*Context
	files    map[string]*adoc
	warnings []Warning
}

// adoc is one annotated schema document.
type adoc struct {
	url   string // bblocks://ID/FILE
	file  string // ID/FILE, for messages
	block *bblock.Block
	out   any // the annotated copy, built from the raw source
	src   any // the same document served by Docs, $refs rewritten; read-only
	stack *Context

	used       map[string]bool              // terms of stack a property used
	scopedUsed map[*Context]map[string]bool // terms of scoped contexts a property used
	pushed     map[*Context]string          // scoped contexts pushed, with their term
	seen       map[string]bool              // subschema pointer and stack already walked
}

func newAnnotator(b *bblock.Block, reg *bblock.Register, opts *Options) (*annotator, error) {
	if b.Files.Schema == "" {
		return nil, fmt.Errorf("block %s: %w", b.ID, ErrNoSchema)
	}
	docs, err := schemadoc.NewDocs(b, reg)
	if err != nil {
		return nil, err
	}
	a := &annotator{main: b, reg: reg, docs: docs, opts: opts,
		blocks: map[string]*bblock.Block{b.ID: b}, stacks: map[string]*Context{}, files: map[string]*adoc{}}
	if reg != nil {
		for _, rb := range reg.Blocks {
			if _, ok := a.blocks[rb.ID]; !ok {
				a.blocks[rb.ID] = rb
			}
		}
	}
	return a, nil
}

// stack returns the context stack of block id; only the main block's
// warnings are kept, the others belong to those blocks' own runs.
func (a *annotator) stack(id string) (*Context, error) {
	if c, ok := a.stacks[id]; ok {
		return c, nil
	}
	c, warns, err := Stack(a.blocks[id], a.reg, a.opts)
	if id == a.main.ID {
		a.warnings = append(a.warnings, warns...)
	}
	if err != nil {
		return nil, err
	}
	a.stacks[id] = c
	return c, nil
}

// doc returns the annotated document at u (a bblocks:// URL; a fragment is
// ignored), annotating it on first use.
func (a *annotator) doc(u string) (*adoc, error) {
	u, _, _ = strings.Cut(u, "#")
	if d, ok := a.files[u]; ok {
		return d, nil
	}
	id, file, ok := strings.Cut(strings.TrimPrefix(u, bblock.BlockRefPrefix), "/")
	blk := a.blocks[id]
	if !strings.HasPrefix(u, bblock.BlockRefPrefix) || !ok || blk == nil {
		return nil, fmt.Errorf("%s is not a schema of a block of the register", u)
	}
	stack, err := a.stack(id)
	if err != nil {
		return nil, err
	}
	data, err := blk.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out, err := bblock.DecodeDoc(file, data)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", id, err)
	}
	src, err := a.docs.Get(u)
	if err != nil {
		return nil, fmt.Errorf("block %s: %s: %w", id, file, err)
	}
	d := &adoc{url: u, file: blk.ID + "/" + file, block: blk, out: out, src: src, stack: stack,
		used: map[string]bool{}, scopedUsed: map[*Context]map[string]bool{},
		pushed: map[*Context]string{}, seen: map[string]bool{}}
	a.files[u] = d
	if err := a.walk(d, d.out, d.src, "", []*Context{stack}); err != nil {
		return nil, err
	}
	a.annotateRoot(d)
	if blk == a.main {
		a.warnUnusedScoped(d)
	}
	return d, nil
}

// walk annotates the properties of the subschema out (src is the same
// subschema in Docs' form, at the JSON pointer ptr) with the context stack,
// innermost last.
func (a *annotator) walk(d *adoc, out, src any, ptr string, stack []*Context) error {
	o, ok := out.(map[string]any)
	if !ok {
		return nil
	}
	s, _ := src.(map[string]any)
	key := ptr + "\x00" + stackKey(stack)
	if d.seen[key] {
		return nil
	}
	d.seen[key] = true
	sub := func(kw string, o, s map[string]any, ptr string) error {
		return a.walk(d, o[kw], s[kw], ptr+"/"+jsonptr.Escape(kw), stack)
	}
	for _, kw := range []string{"$defs", "definitions"} {
		defs, _ := o[kw].(map[string]any)
		sdefs, _ := s[kw].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(defs)) {
			if err := sub(name, defs, sdefs, ptr+"/"+kw); err != nil {
				return err
			}
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		if u, frag, _ := strings.Cut(ref, "#"); u == d.url {
			tOut, err := jsonptr.Get(d.out, frag)
			if err != nil {
				return fmt.Errorf("%s#%s: $ref: %w", d.file, ptr, err)
			}
			tSrc, _ := jsonptr.Get(d.src, frag)
			if err := a.walk(d, tOut, tSrc, frag, stack); err != nil {
				return err
			}
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if err := a.walkList(d, o[kw], s[kw], ptr+"/"+kw, stack); err != nil {
			return err
		}
	}
	for _, kw := range []string{"then", "else", "additionalProperties"} {
		if err := sub(kw, o, s, ptr); err != nil {
			return err
		}
	}
	pp, _ := o["patternProperties"].(map[string]any)
	spp, _ := s["patternProperties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(pp)) {
		if err := sub(name, pp, spp, ptr+"/patternProperties"); err != nil {
			return err
		}
	}
	if _, isList := o["items"].([]any); isList {
		if err := a.walkList(d, o["items"], s["items"], ptr+"/items", stack); err != nil {
			return err
		}
	} else if err := sub("items", o, s, ptr); err != nil {
		return err
	}

	props, _ := o["properties"].(map[string]any)
	sprops, _ := s["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		pv, ok := props[name].(map[string]any)
		if !ok || strings.HasPrefix(name, "@") {
			continue
		}
		next := stack
		if t, layer := lookup(stack, name); t != nil {
			if t.ID != "" {
				for k, v := range termAnnotations(t, false) {
					if _, exists := pv[k]; !exists {
						pv[k] = v
					}
				}
				if layer == 0 {
					d.used[name] = true
				} else {
					if d.scopedUsed[stack[layer]] == nil {
						d.scopedUsed[stack[layer]] = map[string]bool{}
					}
					d.scopedUsed[stack[layer]][name] = true
				}
			}
			if t.Scoped != nil {
				next = push(stack, t.Scoped)
				d.pushed[t.Scoped] = name
			}
		}
		if err := a.walk(d, pv, sprops[name], ptr+"/properties/"+jsonptr.Escape(name), next); err != nil {
			return err
		}
	}
	return nil
}

func (a *annotator) walkList(d *adoc, out, src any, ptr string, stack []*Context) error {
	list, _ := out.([]any)
	slist, _ := src.([]any)
	for i, e := range list {
		var se any
		if i < len(slist) {
			se = slist[i]
		}
		if err := a.walk(d, e, se, ptr+"/"+strconv.Itoa(i), stack); err != nil {
			return err
		}
	}
	return nil
}

// annotateRoot writes the root annotations of d: @base, @vocab, and the
// terms of the stack no property used, as extra terms or prefixes.
func (a *annotator) annotateRoot(d *adoc) {
	root, ok := d.out.(map[string]any)
	if !ok {
		return
	}
	if d.stack.Base != "" {
		setDefault(root, annBase, d.stack.Base)
	}
	if d.stack.Vocab != "" {
		setDefault(root, annVocab, d.stack.Vocab)
	}
	prefixes, extra := map[string]any{}, map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(d.stack.Terms)) {
		t := d.stack.Terms[name]
		if d.used[name] || t.ID == "" {
			continue
		}
		if t.Prefix && strings.ContainsAny(t.ID[len(t.ID)-1:], "#/:") {
			prefixes[name] = t.ID
		} else {
			extra[name] = termAnnotations(t, true)
		}
	}
	for _, kv := range []struct {
		kw  string
		add map[string]any
	}{{annExtraTerms, extra}, {annPrefixes, prefixes}} {
		kw, add := kv.kw, kv.add
		if len(add) == 0 {
			continue
		}
		existing, ok := root[kw]
		if !ok {
			root[kw] = add
			continue
		}
		m, ok := existing.(map[string]any)
		if !ok {
			a.warnings = append(a.warnings, warning(d.file, fmt.Sprintf("%s is not an object; left as it is", kw)))
			continue
		}
		for k, v := range add {
			setDefault(m, k, v)
		}
	}
}

// warnUnusedScoped warns about terms of scoped contexts that no property
// under their term used: the built context cannot carry them.
func (a *annotator) warnUnusedScoped(d *adoc) {
	var msgs []string
	for c, owner := range d.pushed {
		for _, name := range slices.Sorted(maps.Keys(c.Terms)) {
			if !d.scopedUsed[c][name] && c.Terms[name].ID != "" {
				msgs = append(msgs, fmt.Sprintf("term %q of the context scoped to %q is used by no property under %q; the built context leaves it out", name, owner, owner))
			}
		}
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		a.warnings = append(a.warnings, warning(d.file, m))
	}
}

// termAnnotations returns the x-jsonld-* annotations of a term definition,
// and its scoped context as x-jsonld-context when withScoped is set.
func termAnnotations(t *Term, withScoped bool) map[string]any {
	m := map[string]any{}
	if t.Reverse {
		m["x-jsonld-reverse"] = t.ID
	} else {
		m[annID] = t.ID
	}
	if t.Type != "" {
		m["x-jsonld-type"] = t.Type
	}
	switch len(t.Container) {
	case 0:
	case 1:
		m["x-jsonld-container"] = t.Container[0]
	default:
		list := make([]any, len(t.Container))
		for i, c := range t.Container {
			list[i] = c
		}
		m["x-jsonld-container"] = list
	}
	for k, v := range t.Extra {
		m[annPrefix+k[1:]] = v
	}
	if t.Protected {
		m["x-jsonld-protected"] = true
	}
	if withScoped && t.Scoped != nil {
		m[annContext] = contextJSON(t.Scoped)
	}
	return m
}

// contextJSON writes a (scoped) context as a JSON-LD context value with
// full IRIs.
func contextJSON(c *Context) any {
	m := map[string]any{}
	if c.setBase {
		m["@base"] = nullable(c.Base)
	}
	if c.setVocab {
		m["@vocab"] = nullable(c.Vocab)
	}
	for name, t := range c.Terms {
		def := map[string]any{}
		if t.Reverse {
			def["@reverse"] = t.ID
		} else {
			def["@id"] = nullable(t.ID)
		}
		for k, v := range termAnnotations(t, false) {
			if k != annID && k != "x-jsonld-reverse" {
				def["@"+strings.TrimPrefix(k, annPrefix)] = v
			}
		}
		if t.Scoped != nil {
			def["@context"] = contextJSON(t.Scoped)
		}
		m[name] = def
	}
	if c.Reset {
		return []any{nil, m}
	}
	return m
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// lookup finds name in the stack, innermost first, and returns its
// definition and the index of the context that holds it.
func lookup(stack []*Context, name string) (*Term, int) {
	for i := len(stack) - 1; i >= 0; i-- {
		if t, ok := stack[i].Terms[name]; ok {
			return t, i
		}
		if stack[i].Reset {
			break
		}
	}
	return nil, -1
}

// push returns a new stack with c innermost. A context already on the stack
// moves to the top: lookups give the same answers, and stacks stay bounded
// when references loop.
func push(stack []*Context, c *Context) []*Context {
	out := make([]*Context, 0, len(stack)+1)
	for _, e := range stack {
		if e != c {
			out = append(out, e)
		}
	}
	return append(out, c)
}

func stackKey(stack []*Context) string {
	var sb strings.Builder
	for _, c := range stack {
		fmt.Fprintf(&sb, "%p;", c)
	}
	return sb.String()
}

func setDefault(m map[string]any, k string, v any) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}
