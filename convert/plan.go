package convert

// The compiled mapping: the block's context, as json-gold processes it,
// compiled into a direct plan from a decoded message to triples. It covers
// what building-block contexts use (terms to IRIs, coercion to @id, @json or
// a datatype, property-scoped contexts, @base, prefixes) and gives, for
// every message it maps, the graph json-gold gives; a message that uses
// anything else goes to json-gold whole. Every decision below follows
// json-gold v0.9.1 (ld/api_expand.go, ld/node.go, ld/rdf_dataset.go),
// quirks included; the differential tests and FuzzEngines check it.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/piprate/json-gold/ld"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
)

// Engine is the way a Mapping turns a message into triples.
type Engine int

const (
	// EngineCompiled maps each message with the plan compiled from the
	// block's context, and hands json-gold every message that uses what
	// the plan does not cover. It is the default.
	EngineCompiled Engine = iota
	// EngineJSONGold maps every message with json-gold, the reference.
	EngineJSONGold
)

var engineNames = []string{"compiled", "json-gold"}

func (e Engine) String() string {
	if int(e) < len(engineNames) {
		return engineNames[e]
	}
	return fmt.Sprintf("Engine(%d)", int(e))
}

// ParseEngine returns the engine named s: compiled or json-gold.
func ParseEngine(s string) (Engine, error) {
	for i, n := range engineNames {
		if s == n {
			return Engine(i), nil
		}
	}
	return 0, fmt.Errorf("unknown engine %q: use %s", s, strings.Join(engineNames, " or "))
}

// maxScopes bounds the compiled scopes one mapping keeps: a message whose
// members would need more goes to json-gold, so that no stream of messages
// can grow the plan without end.
const maxScopes = 256

// maxURLRunes is json-gold's bound on the length of an http(s) IRI it keeps
// (ld.IsURL).
const maxURLRunes = 2083

// Kinds of compiled terms.
const (
	ckUnsupported = iota // the message goes to json-gold
	ckDrop               // the member maps to nothing
	ckPlain              // no coercion: native types, strings as xsd:string
	ckID                 // @type @id
	ckJSON               // @type @json
	ckTyped              // @type with a datatype IRI
)

// cterm is one member name compiled in one scope.
type cterm struct {
	kind   int
	iri    string
	dt     string // ckTyped: the datatype IRI
	scoped bool   // objects under the term are read with another scope
	list   bool   // @container @list: the values make an RDF list
	// exact reports that the way back names the property with this term
	// and reads its values the way the mapping writes them (see whole).
	exact bool

	td    *ld.TermDefinition
	child atomic.Pointer[cscope]
}

// cscope is the compiled form of the context in effect for one object: the
// json-gold active context, checked term by term against the scope the way
// back and the preparation use.
type cscope struct {
	plan  *plan
	gold  *ld.Context
	pkg   *ldctx.Scope
	terms map[string]*cterm
	// vocab: keys that are not terms would expand against @vocab.
	vocab bool
	// idDir is what json-gold makes of a simple relative reference "x"
	// under an @id term: idDir+"x"; idOK tells whether such IRIs are kept.
	idDir  string
	idFast bool
	idHTTP bool // idDir is http(s): length bounds apply
}

// plan is the compiled mapping of one Mapping.
type plan struct {
	root *cscope

	mu     sync.Mutex
	scopes map[scopeKey]*cscope
	n      int
}

type scopeKey struct {
	pkg         *ldctx.Scope
	base, vocab string
}

// compile builds the plan for the json-gold active context active and the
// scope sc of the same context.
func compile(active *ld.Context, sc *ldctx.Scope) *plan {
	p := &plan{scopes: map[scopeKey]*cscope{}}
	p.root = p.newScope(active, sc)
	return p
}

// newScope compiles every term of a scope.
func (p *plan) newScope(active *ld.Context, pkg *ldctx.Scope) *cscope {
	s := &cscope{plan: p, gold: active, pkg: pkg, terms: make(map[string]*cterm, len(active.TermDefinitions))}
	s.vocab = active.Values.Vocab != nil
	plainStrings := !active.Values.HasLanguage && active.Values.Direction == ""
	names := make(map[string]bool, len(active.TermDefinitions)+len(pkg.Terms()))
	for n := range active.TermDefinitions {
		names[n] = true
	}
	for n := range pkg.Terms() {
		names[n] = true
	}
	for n := range names {
		s.terms[n] = compileTerm(active, pkg, n, plainStrings)
	}
	s.idDir, s.idFast, s.idHTTP = idResolution(active.Values.Base)
	return s
}

// compileTerm compiles member name n; anything json-gold and the scope do
// not agree on, or that the plan does not cover, is unsupported.
func compileTerm(active *ld.Context, pkg *ldctx.Scope, n string, plainStrings bool) *cterm {
	td, inGold := active.TermDefinitions[n]
	pt := pkg.Terms()[n]
	unsupported := &cterm{kind: ckUnsupported}
	if !inGold || td == nil {
		if pt != nil && pt.ID != "" {
			return unsupported
		}
		if !inGold {
			// Not a term: the key is not compiled (see key).
			return nil
		}
		return &cterm{kind: ckDrop}
	}
	if pt == nil || pt.ID != td.ID || pt.Reverse || td.Reverse || pt.Type != td.Type {
		return unsupported
	}
	if td.Nest != "" || td.Index != "" || td.HasLanguage || td.HasDirection || (pt.Scoped != nil) != td.HasContext {
		return unsupported
	}
	list := slices.Equal(td.Container, []string{"@list"})
	if !list && !onlySet(td.Container) || list != slices.Equal(pt.Container, []string{"@list"}) || !list && !onlySet(pt.Container) {
		return unsupported
	}
	if list && td.Type == "@json" {
		return unsupported // a list of one JSON literal
	}
	if !usableIRI(td.ID) {
		return unsupported
	}
	t := &cterm{iri: td.ID, td: td, scoped: td.HasContext, list: list}
	switch td.Type {
	case "", "@none":
		if !plainStrings {
			return unsupported
		}
		t.kind = ckPlain
	case "@id":
		t.kind = ckID
	case "@json":
		t.kind = ckJSON
	default:
		if td.Type == rdf.RDFJSON || td.Type == gold.JSONMarker || !usableIRI(td.Type) {
			return unsupported
		}
		t.kind = ckTyped
		t.dt = td.Type
	}
	// Of the terms of one property, the way back takes the first whose type
	// fits the object (ldctx.Scope.Name): for an @json term, whose
	// objects are all rdf:JSON literals, the same one every time.
	named := len(pkg.TermsFor(td.ID)) == 1 || t.kind == ckJSON && pkg.Name(td.ID, jsonLiteral) == n
	t.exact = named && td.ID != rdf.RDFType && !strings.HasPrefix(td.ID, rdf.JLogNS)
	return t
}

// onlySet reports whether a term's containers are none or @set, which
// change nothing in the graph.
func onlySet(containers []string) bool {
	for _, c := range containers {
		if c != "@set" {
			return false
		}
	}
	return true
}

// usableIRI reports whether json-gold keeps iri as a predicate or datatype
// and gold.Term accepts it.
func usableIRI(iri string) bool {
	return !strings.HasPrefix(iri, "@") && !strings.HasPrefix(iri, "_:") && ld.IsAbsoluteIri(iri) && goldValidIRI(iri) && gold.ValidIRI(iri)
}

// goldValidIRI is json-gold's check of the IRIs of a statement (ToRDF
// drops statements that fail it).
func goldValidIRI(iri string) bool {
	if strings.HasPrefix(iri, "http://") || strings.HasPrefix(iri, "https://") {
		return ld.IsURL(iri)
	}
	return true
}

// idResolution works out what json-gold makes of a simple relative
// reference under an @id term with base: the prefix it gets, and whether
// the result is kept.
func idResolution(base string) (dir string, ok, http bool) {
	if base == "" {
		return "", false, false
	}
	a := ld.Resolve(base, "a")
	dir, found := strings.CutSuffix(a, "a")
	if !found || !ld.IsAbsoluteIri(a) {
		return "", false, false
	}
	const probe = "Zz09-._~"
	if ld.Resolve(base, probe) != dir+probe {
		return "", false, false
	}
	if !gold.ValidIRI(a) || !goldValidIRI(a) || !goldValidIRI(dir+probe) {
		return "", false, false
	}
	http = strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://")
	return dir, true, http
}

// simpleRef reports whether s, a string under an @id term, is a reference
// json-gold resolves by appending it to the base's folder: unreserved
// characters only, and not a dot segment.
func simpleRef(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

// child returns the compiled scope of objects under term t of s, or nil
// when there is none the plan can use.
func (s *cscope) child(name string, t *cterm) *cscope {
	if !t.scoped {
		return s
	}
	if c := t.child.Load(); c != nil {
		return c
	}
	p := s.plan
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := t.child.Load(); c != nil {
		return c
	}
	c := p.deriveChild(s, name, t)
	if c == nil {
		return nil
	}
	t.child.Store(c)
	return c
}

// deriveChild follows json-gold: the value of a member with a scoped
// context is expanded with that context over the active one (C1), and an
// object there applies the member's definition in C1 once more (C2). The
// plan covers the case where C1 keeps the member's definition. It returns
// nil when the plan cannot cover the child.
func (p *plan) deriveChild(s *cscope, name string, t *cterm) *cscope {
	if p.n >= maxScopes {
		return nil
	}
	c1, err := s.gold.Parse(t.td.Context)
	if err != nil {
		return nil
	}
	td1 := c1.TermDefinitions[name]
	if td1 == nil || !ld.DeepCompareTermDef(td1, t.td, true) || hasPrevious(c1) {
		return nil
	}
	c2, err := c1.Parse(td1.Context)
	if err != nil || hasPrevious(c2) {
		return nil
	}
	pkg := s.pkg.Child(name)
	key := scopeKey{pkg: pkg, base: c2.Values.Base}
	if c2.Values.Vocab != nil {
		key.vocab = "v" + *c2.Values.Vocab
	}
	if c2.Values.HasLanguage || c2.Values.Direction != "" {
		key.vocab += "\x00lang"
	}
	if c, ok := p.scopes[key]; ok && sameTerms(c.gold, c2) {
		return c
	}
	p.n++
	c := p.newScope(c2, pkg)
	if _, ok := p.scopes[key]; !ok {
		p.scopes[key] = c
	}
	return c
}

// hasPrevious reports a context that a type-scoped or non-propagated
// context left behind: json-gold reverts to it in nested objects, which the
// plan does not follow.
func hasPrevious(c *ld.Context) bool {
	_, ok := c.AsMap()["previousContext"]
	return ok
}

// sameTerms reports whether two json-gold contexts define the same terms.
func sameTerms(a, b *ld.Context) bool {
	if len(a.TermDefinitions) != len(b.TermDefinitions) {
		return false
	}
	for n, x := range a.TermDefinitions {
		y, ok := b.TermDefinitions[n]
		if !ok || (x == nil) != (y == nil) || x != nil && !ld.DeepCompareTermDef(x, y, true) {
			return false
		}
	}
	return true
}

// key returns the compiled term for member k, or nil when k is not a term
// and maps to nothing.
func (s *cscope) key(k string) (*cterm, bool) {
	if t, ok := s.terms[k]; ok && t != nil {
		return t, true
	}
	// Not a term: json-gold expands it as an IRI. Without @vocab and
	// without a colon it stays relative and the member is dropped.
	// json-gold fails on an empty key.
	if s.vocab || k == "" || strings.IndexByte(k, ':') >= 0 {
		return nil, false
	}
	return nil, true
}

// cwalk is the state of one compiled mapping of a message.
type cwalk struct {
	m       *Mapping
	out     []rdf.Triple
	left    []leftOut
	changes []pathChanges
	blank   string
	nblank  int
	whole   bool // the way back gives the message as sent: no patch
	path    []pathElem
	keys    [][]string // scratch per depth
	text    jcs.Writer // canonical JSON, with scratch space
	buf     []byte
	objs    []rdf.Term         // scratch for the items of lists
	fields  []jsonparse.Member // scratch of the text walk: the members of objects
	arena   *[]byte            // where rdf:JSON lexical forms go, when set (see LogGraph.build)
	vouched []byte             // the escaped canonical text of the member being mapped, when the voucher wrote it
	// nfix counts the numbers the way back gives as strings, and fix is
	// the jlog:patch of the first one (see fixNumber).
	nfix int
	fix  []byte
}

type pathElem struct {
	key, iri string
	idx      int
}

// pathChanges are the changes of one @json value, with the path of the
// value for ordering them as the reference does.
type pathChanges struct {
	path    []pathElem
	changes []jcs.Change
}

// compiledTriples maps msg with the plan; ok is false when the message must
// go to json-gold. whole reports that reading the triples back gives msg
// exactly (for the members the triples carry), so that no patch is needed;
// when it is false, fix is the patch when the plan knows it, else "".
func (m *Mapping) compiledTriples(msg map[string]any, node, bnodePrefix string, out []rdf.Triple) (res []rdf.Triple, left []leftOut, changes []jcs.Change, whole bool, fix string, ok bool) {
	return m.compiledWalk(msg, nil, node, bnodePrefix, out, nil)
}

// member is one member of a message read typed: its name and its value as
// a decoded message object holds it, or, for params and result, its text,
// with the text the voucher wrote for their literal, when it did.
type member struct {
	k       string
	v       any
	text    []byte
	vouched []byte
}

// compiledWalk is compiledTriples of the message msg, or, when msg is nil,
// of the message whose members are ms, in the order of their names; with
// arena, the lexical forms of rdf:JSON literals are written into it (see
// LogGraph.build).
func (m *Mapping) compiledWalk(msg map[string]any, ms []member, node, bnodePrefix string, out []rdf.Triple, arena *[]byte) (res []rdf.Triple, left []leftOut, changes []jcs.Change, whole bool, fix string, ok bool) {
	if node == "" || !m.nodeValid(node) {
		return out, nil, nil, false, "", false
	}
	if !gold.ValidIRI(node) {
		return out, nil, nil, false, "", false
	}
	subj := rdf.NewIRI(node)
	w := walkPool.Get().(*cwalk)
	defer walkPool.Put(w)
	w.m, w.out, w.blank, w.nblank, w.whole = m, out, bnodePrefix, 0, true
	w.left, w.changes, w.path, w.arena = nil, nil, w.path[:0], arena
	w.fields, w.nfix, w.fix = w.fields[:0], 0, w.fix[:0]
	if msg != nil {
		ok = w.object(msg, m.plan.root, subj, 0, true)
	} else {
		ok = w.members(ms, m.plan.root, subj)
	}
	if !ok {
		w.arena = nil
		return out, nil, nil, false, "", false
	}
	res, left, changes, whole = w.out, w.left, w.sortedChanges(), w.whole
	if w.nfix > 0 {
		// One number alone is one "replace"; the order of several is
		// the way back's to tell.
		if whole && w.nfix == 1 {
			fix = string(w.fix)
		}
		whole = false
	}
	w.m, w.out, w.left, w.changes, w.arena = nil, nil, nil, nil, nil
	return res, left, changes, whole, fix, true
}

// walkPool keeps the scratch space of compiled mappings.
var walkPool = sync.Pool{New: func() any { return new(cwalk) }}

// object maps the members of obj, a node whose subject is subj, with
// scope s. top marks the message itself.
func (w *cwalk) object(obj map[string]any, s *cscope, subj rdf.Term, depth int, top bool) bool {
	for depth >= len(w.keys) {
		w.keys = append(w.keys, nil)
	}
	keys := w.keys[depth][:0]
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.keys[depth] = keys
	// json-gold drops a message none of whose members expands to a
	// property, and then fails: let it.
	props := 0
	for _, k := range keys {
		prop, ok := w.member(k, obj[k], s, subj, depth, top)
		if !ok {
			return false
		}
		if prop {
			props++
		}
	}
	return !top || props > 0
}

// members maps the members ms of a message read typed, in the order of
// their names, as object maps the same members of a decoded message.
func (w *cwalk) members(ms []member, s *cscope, subj rdf.Term) bool {
	props := 0
	for _, m := range ms {
		var prop, ok bool
		switch {
		case m.text == nil:
			prop, ok = w.member(m.k, m.v, s, subj, 0, true)
		case w.m.lazy(m.k):
			w.vouched = m.vouched
			prop, ok = w.member(m.k, w.m.typedText(m.k, m.text), s, subj, 0, true)
			w.vouched = nil
		default:
			prop, ok = w.textMember(m.k, m.text, s, subj)
		}
		if !ok {
			return false
		}
		if prop {
			props++
		}
	}
	return props > 0
}

// member maps member k of an object, whose value is v, with scope s; prop
// reports that it expands to a property of subj.
func (w *cwalk) member(k string, v any, s *cscope, subj rdf.Term, depth int, top bool) (prop, ok bool) {
	w.path = append(w.path, pathElem{key: k, idx: -1})
	if strings.HasPrefix(k, "@") {
		w.leave(notice(w.pointer(), "member %q is data, not a JSON-LD instruction; it is not mapped to RDF", k), true)
		w.whole = false
		w.path = w.path[:len(w.path)-1]
		return false, true
	}
	t, ok := s.key(k)
	if !ok || t != nil && t.kind == ckUnsupported {
		return false, false
	}
	if _, ok := v.(jsonparse.Undecoded); ok && (t == nil || t.kind == ckDrop) {
		return false, false // mapInto tries again with the value decoded
	}
	if t == nil || t.kind == ckDrop {
		// json-gold drops the member; the preparation still reports
		// numbers beyond a double in it.
		if pt := s.pkg.Term(k); pt != nil && pt.Type == "@json" {
			if _, _, err := jcs.Append(w.buf[:0], v); err != nil {
				w.leave(notice(w.pointer(), "the value cannot be an rdf:JSON literal (%v); it is not mapped to RDF", err), false)
			}
		} else {
			w.checkNumbers(v, s.pkg.Child(k))
		}
		if !(top && k == "id" && jlogID(v)) {
			w.whole = false
		}
		w.path = w.path[:len(w.path)-1]
		return false, true
	}
	w.path[len(w.path)-1].iri = t.iri
	if _, ok := v.(jsonparse.Undecoded); ok && t.kind != ckJSON {
		return false, false // mapInto tries again with the value decoded
	}
	if t.kind == ckJSON {
		prop = w.jsonValue(subj, t, v)
		w.path = w.path[:len(w.path)-1]
		return prop, true
	}
	if n, isNum := v.(json.Number); v != nil && (!isNum || validNumber(n)) {
		prop = true
	}
	isID := top && k == "id"
	if isID && !jlogID(v) {
		// The way back puts what jlog:id holds in its place.
		isID, w.whole = false, false
	}
	if t.list {
		if isID || !w.list(subj, t, s, k, v, depth) {
			return false, false
		}
	} else if !w.value(subj, t, s, k, v, depth, isID) {
		return false, false
	}
	w.path = w.path[:len(w.path)-1]
	return prop, true
}

// jlogID reports whether jlog:id gives id, a message's id, back exactly:
// for a string, a number or null (see jlog.IDLiteral).
func jlogID(id any) bool {
	switch id.(type) {
	case string, json.Number, nil:
		return true
	}
	return false
}

// validNumber reports whether n is within the range of a double: the
// preparation leaves out the others.
func validNumber(n json.Number) bool {
	if jcs.ShortInt(string(n)) {
		return true
	}
	_, err := strconv.ParseFloat(string(n), 64)
	return err == nil
}

// checkNumbers reports, as the preparation does, the numbers beyond a
// double in a member that maps to nothing.
func (w *cwalk) checkNumbers(v any, s *ldctx.Scope) {
	if u, ok := v.(jsonparse.Undecoded); ok {
		v = jsonparse.Decode(u)
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			w.path = append(w.path, pathElem{key: k, idx: -1})
			if strings.HasPrefix(k, "@") {
				w.leave(notice(w.pointer(), "member %q is data, not a JSON-LD instruction; it is not mapped to RDF", k), true)
			} else if t := s.Term(k); t != nil && t.Type == "@json" {
				if _, _, err := jcs.Append(w.buf[:0], x[k]); err != nil {
					w.leave(notice(w.pointer(), "the value cannot be an rdf:JSON literal (%v); it is not mapped to RDF", err), false)
				}
			} else {
				w.checkNumbers(x[k], s.Child(k))
			}
			w.path = w.path[:len(w.path)-1]
		}
	case []any:
		for i, e := range x {
			w.path = append(w.path, pathElem{idx: i})
			w.checkNumbers(e, s)
			w.path = w.path[:len(w.path)-1]
		}
	case json.Number:
		if _, err := strconv.ParseFloat(string(x), 64); err != nil {
			w.leave(notice(w.pointer(), "number %s is beyond the range of a double; it is not mapped to RDF", x), false)
		}
	}
}

func (w *cwalk) leave(n diag.Diagnostic, atKey bool) {
	w.left = append(w.left, leftOut{Diagnostic: n, atKey: atKey})
}

// pointer returns the JSON pointer of the current path.
func (w *cwalk) pointer() string {
	var b strings.Builder
	for _, e := range w.path {
		b.WriteByte('/')
		if e.idx >= 0 {
			b.WriteString(strconv.Itoa(e.idx))
		} else {
			b.WriteString(jsonptr.Escape(e.key))
		}
	}
	return b.String()
}

// jsonValue maps the value of an @json term: its canonical text as an
// rdf:JSON literal. It reports false when the value has no canonical form
// and is left out. With an arena, whose triples are formatted as text, the
// literal is made Escaped.
func (w *cwalk) jsonValue(subj rdf.Term, t *cterm, v any) bool {
	if _, ok := v.(jsonparse.Undecoded); ok && len(w.vouched) > 0 && w.arena != nil {
		// The member's whole value, written by the voucher.
		vouched := w.vouched
		w.vouched = nil
		w.addJSON(subj, t, unsafe.String(&vouched[0], len(vouched)), true)
		return true
	}
	if u, ok := v.(jsonparse.Undecoded); ok {
		if w.jsonText(subj, t, u) {
			return true
		}
		v = jsonparse.Decode(u)
	} else {
		materialize(v) // an @json object may hold what looked like a message
	}
	dst := w.jsonDst()
	start := len(dst)
	dst, changes, err := w.text.AppendValue(dst, v)
	if err != nil {
		w.leave(notice(w.pointer(), "the value cannot be an rdf:JSON literal (%v); it is not mapped to RDF", err), false)
		w.whole = false
		return false
	}
	if len(changes) > 0 {
		w.changes = append(w.changes, pathChanges{path: slices.Clone(w.path), changes: changes})
		w.whole = false
	}
	escaped := false
	if w.arena != nil && utf8.Valid(dst[start:]) {
		// The same value written from its text is Escaped (above), and
		// add compares terms.
		n := len(dst)
		dst = jcs.Escape(dst, dst[start:n])
		dst = dst[:start+copy(dst[start:], dst[n:])]
		escaped = true
	}
	w.addJSON(subj, t, w.lexical(dst, start), escaped)
	return true
}

// jsonDst returns where the lexical form of an rdf:JSON literal is to be
// appended: the arena when there is one, else w.buf, emptied.
func (w *cwalk) jsonDst() []byte {
	if w.arena != nil {
		return *w.arena
	}
	return w.buf[:0]
}

// addJSON adds the rdf:JSON literal lex, Escaped or not, as the value of
// the @json term t of subj.
func (w *cwalk) addJSON(subj rdf.Term, t *cterm, lex string, escaped bool) {
	if !t.exact {
		w.whole = false
	}
	lit := rdf.NewLiteral(lex, rdf.RDFJSON)
	lit.Escaped = escaped
	w.add(subj, t.iri, lit)
}

// jsonText maps text, the value of an @json term, as jsonValue maps its
// decoded value, when jcs.Writer writes its canonical form from the text;
// else it reports false and adds nothing.
func (w *cwalk) jsonText(subj rdf.Term, t *cterm, text []byte) bool {
	dst := w.jsonDst()
	start := len(dst)
	w.text.Escaped = w.arena != nil
	dst, ok := w.text.AppendText(dst, text)
	if !ok {
		return false
	}
	w.addJSON(subj, t, w.lexical(dst, start), w.text.Escaped)
	return true
}

// lexical returns dst[start:], the lexical form just appended to dst, as
// a string: one pointing into dst when it is *w.arena, whose length it
// then sets; else a copy (dst is w.buf, kept for the next value).
func (w *cwalk) lexical(dst []byte, start int) string {
	if w.arena == nil {
		w.buf = dst
		return string(dst[start:])
	}
	*w.arena = dst
	if len(dst) == start {
		return ""
	}
	return unsafe.String(&dst[start], len(dst)-start)
}

// add appends a triple unless the same one is already among the subject's
// last statements (json-gold keeps a property's values as a set).
func (w *cwalk) add(s rdf.Term, p string, o rdf.Term) {
	for i := len(w.out) - 1; i >= 0; i-- {
		t := &w.out[i]
		if t.S != s || t.P != p {
			break
		}
		if t.O == o {
			return
		}
	}
	w.out = append(w.out, rdf.Triple{S: s, P: p, O: o})
}

// value maps one value of a non-@json term k of scope s.
func (w *cwalk) value(subj rdf.Term, t *cterm, s *cscope, k string, v any, depth int, isID bool) bool {
	switch x := v.(type) {
	case nil:
		if !isID {
			w.whole = false
		}
		return true
	case []any:
		for i, e := range x {
			w.path = append(w.path, pathElem{idx: i})
			ok := w.value(subj, t, s, k, e, depth, false)
			w.path = w.path[:len(w.path)-1]
			if !ok {
				return false
			}
		}
		w.whole = false
		return true
	case map[string]any:
		c := s.child(k, t)
		if c == nil {
			return false
		}
		b, ok := w.newBlank()
		if !ok {
			return false
		}
		w.out = append(w.out, rdf.Triple{S: subj, P: t.iri, O: b})
		if !t.exact {
			w.whole = false
		}
		return w.object(x, c, b, depth+1, false)
	}
	// A scalar: json-gold reads its coercion from the term's definition in
	// the member's own scoped context, which deriveChild checks is the same.
	if t.scoped && s.child(k, t) == nil {
		return false
	}
	o, exact, ok := w.scalar(t, s, v)
	if !ok {
		return false
	}
	if !isID && (!exact || !t.exact) {
		if n, isNum := v.(json.Number); !isNum || !w.fixNumber(t, o, string(n)) {
			w.whole = false
		}
	}
	if o != noObject {
		w.add(subj, t.iri, o)
	}
	return true
}

// list maps the value of term k with @container @list as json-gold does:
// an RDF list of its items (a value that is no array is a list of one),
// rdf:nil for a list without items; nulls and numbers beyond a double are
// no items; a member whose value is null or such a number maps to nothing.
// Lists of lists go to json-gold.
func (w *cwalk) list(subj rdf.Term, t *cterm, s *cscope, k string, v any, depth int) bool {
	w.whole = false
	if v == nil {
		return true
	}
	items, isArray := v.([]any)
	if !isArray {
		items = []any{v}
	}
	start := len(w.objs)
	defer func() { w.objs = w.objs[:start] }()
	for i, e := range items {
		if isArray {
			w.path = append(w.path, pathElem{idx: i})
		}
		o, ok := w.listItem(t, s, k, e, depth)
		if isArray {
			w.path = w.path[:len(w.path)-1]
		}
		if !ok {
			return false
		}
		if o != noObject {
			w.objs = append(w.objs, o)
		}
	}
	objs := w.objs[start:]
	if len(objs) == 0 {
		if isArray {
			w.out = append(w.out, rdf.Triple{S: subj, P: t.iri, O: rdfNil})
		}
		return true
	}
	cell, ok := w.newBlank()
	if !ok {
		return false
	}
	w.out = append(w.out, rdf.Triple{S: subj, P: t.iri, O: cell})
	for i, o := range objs {
		w.out = append(w.out, rdf.Triple{S: cell, P: rdf.RDFFirst, O: o})
		if i == len(objs)-1 {
			w.out = append(w.out, rdf.Triple{S: cell, P: rdf.RDFRest, O: rdfNil})
			break
		}
		next, ok := w.newBlank()
		if !ok {
			return false
		}
		w.out = append(w.out, rdf.Triple{S: cell, P: rdf.RDFRest, O: next})
		cell = next
	}
	return true
}

// listItem returns the object of one item of a list (noObject for none),
// and false when the plan does not cover it.
func (w *cwalk) listItem(t *cterm, s *cscope, k string, v any, depth int) (rdf.Term, bool) {
	switch x := v.(type) {
	case nil:
		return noObject, true
	case []any:
		return noObject, false
	case map[string]any:
		c := s.child(k, t)
		if c == nil {
			return noObject, false
		}
		b, ok := w.newBlank()
		if !ok {
			return noObject, false
		}
		return b, w.object(x, c, b, depth+1, false)
	}
	if t.scoped && s.child(k, t) == nil {
		return noObject, false
	}
	o, _, ok := w.scalar(t, s, v)
	return o, ok
}

// newBlank returns a fresh blank node of the message.
func (w *cwalk) newBlank() (rdf.Term, bool) {
	label := w.blank + "b" + strconv.Itoa(w.nblank)
	w.nblank++
	return rdf.NewBlank(label), strings.TrimSpace(label) != ""
}

// scalar returns the object json-gold makes of a string, number or
// boolean under term t (noObject for none), whether the way back gives the
// same value, and false when the plan does not cover the value.
func (w *cwalk) scalar(t *cterm, s *cscope, v any) (o rdf.Term, exact, ok bool) {
	switch x := v.(type) {
	case string:
		switch t.kind {
		case ckID:
			if !s.idFast || !simpleRef(x) {
				return noObject, false, false
			}
			iri := s.idDir + x
			if s.idHTTP && utf8.RuneCountInString(iri) >= maxURLRunes || !gold.ValidIRI(iri) {
				return noObject, false, false
			}
			return rdf.NewIRI(iri), false, true
		case ckTyped:
			return rdf.NewLiteral(x, t.dt), stringBack(x, t.dt), true
		}
		return rdf.NewLiteral(x, rdf.XSDString), true, true
	case bool:
		lex := "false"
		if x {
			lex = "true"
		}
		if t.kind == ckTyped {
			return rdf.NewLiteral(lex, t.dt), t.dt == rdf.XSDBoolean, true
		}
		return rdf.NewLiteral(lex, rdf.XSDBoolean), true, true
	case json.Number:
		o, exact, ok := numberObject(string(x), t)
		if !ok {
			// Beyond a double: the preparation leaves it out.
			w.leave(notice(w.pointer(), "number %s is beyond the range of a double; it is not mapped to RDF", x), false)
		}
		return o, exact, true
	case float64:
		lit, _ := goldNumber(x, t)
		return lit, false, true
	}
	return noObject, false, false
}

// goldNumber returns the literal json-gold makes of the number f under term
// t (ld/node.go, objectToRDF): an integer when f survives a round trip
// through int64, written in full, else the canonical double; the term's
// datatype when it has one.
func goldNumber(f float64, t *cterm) (rdf.Term, string) {
	isInteger := f == float64(int64(f))
	typed := t.kind == ckTyped
	var lex string
	if !isInteger || typed && t.dt == rdf.XSDDouble {
		lex = ld.GetCanonicalDouble(f)
		if !typed {
			return rdf.NewLiteral(lex, rdf.XSDDouble), lex
		}
	} else {
		lex = strconv.FormatInt(int64(f), 10)
		if !typed {
			return rdf.NewLiteral(lex, rdf.XSDInteger), lex
		}
	}
	return rdf.NewLiteral(lex, t.dt), lex
}

// numberObject returns the literal json-gold makes of the number written
// as n under term t, and whether the way back gives n; ok is false for a
// number beyond the range of a double. The literal may hold n.
func numberObject(n string, t *cterm) (o rdf.Term, exact, ok bool) {
	if lit, ok := shortNumber(n, t); ok {
		return lit, numberBack(n, n, t), true
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return noObject, false, false
	}
	lit, lex := goldNumber(f, t)
	return lit, numberBack(n, lex, t), true
}

// shortNumber returns the literal goldNumber makes of the number written
// as n, without reading its value, when n is a short integer (jcs.ShortInt)
// and t gives no xsd:double: the integer written as n.
func shortNumber(n string, t *cterm) (rdf.Term, bool) {
	switch {
	case !jcs.ShortInt(n):
		return rdf.Term{}, false
	case t.kind != ckTyped:
		return rdf.NewLiteral(n, rdf.XSDInteger), true
	case t.dt == rdf.XSDDouble:
		return rdf.Term{}, false
	}
	return rdf.NewLiteral(n, t.dt), true
}

// stringBack reports whether the way back turns a string literal of
// datatype dt into the same string.
func stringBack(s, dt string) bool {
	switch {
	case dt == rdf.RDFJSON:
		return false
	case dt == rdf.XSDBoolean:
		return s != "true" && s != "false"
	case jlog.NumericDatatype(dt):
		return !jsonparse.IsNumber(s)
	}
	return true
}

// numberBack reports whether the way back turns the literal of a number
// written as written, with lexical form lex, into a number of the same
// value.
func numberBack(written, lex string, t *cterm) bool {
	if t.kind == ckTyped && !jlog.NumericDatatype(t.dt) {
		return false
	}
	return written == lex
}

// fixNumber reports whether the number written as n, whose object under
// term t is o, is one the way back gives as the string of o's lexical
// form, everything else of the term being exact: a number under a
// datatype that is no number's, such as MCP's progressToken under
// mcp:ProgressToken. Then the patch that gives it back, were it the only
// difference, is one "replace" at its pointer with n, which it writes
// into w.fix (n is not kept); the first time, as later ones are only
// counted.
func (w *cwalk) fixNumber(t *cterm, o rdf.Term, n string) bool {
	if !t.exact || t.kind != ckTyped || o.Kind != rdf.Literal || o.Datatype != t.dt ||
		jlog.NumericDatatype(t.dt) || !stringBack(o.Value, t.dt) {
		return false
	}
	w.nfix++
	if w.nfix > 1 {
		return true
	}
	fix := append(w.fix[:0], `[{"op":"replace","path":`...)
	fix, err := jcs.AppendString(fix, w.pointer())
	if err != nil {
		w.nfix++ // as for two: the patch is left to reading back
		return true
	}
	fix = append(fix, `,"value":`...)
	fix = append(fix, n...)
	w.fix = append(fix, "}]"...)
	return true
}

// sortedChanges returns the changes in the order json-gold's expanded
// document gives them: members by property IRI, then by name.
func (w *cwalk) sortedChanges() []jcs.Change {
	switch len(w.changes) {
	case 0:
		return nil
	case 1:
		return w.changes[0].changes
	}
	slices.SortStableFunc(w.changes, func(a, b pathChanges) int {
		for i := 0; i < len(a.path) && i < len(b.path); i++ {
			x, y := a.path[i], b.path[i]
			if c := strings.Compare(x.iri, y.iri); c != 0 {
				return c
			}
			if c := strings.Compare(x.key, y.key); c != 0 {
				return c
			}
			if x.idx != y.idx {
				return x.idx - y.idx
			}
		}
		return len(a.path) - len(b.path)
	})
	var out []jcs.Change
	for _, c := range w.changes {
		out = append(out, c.changes...)
	}
	return out
}

// nodeValid reports whether json-gold keeps node, a message's IRI, as it
// is: it expands it as a document-relative IRI (unchanged when it has a
// scheme and "//", or is absolute and its scheme is no prefix of the
// context) and drops statements whose http(s) IRIs fail its URL check.
// The check's verdict on IRIs that differ only in the digits of their
// fragment is the same, so it is kept per such family, for a bounded
// number of families.
func (m *Mapping) nodeValid(node string) bool {
	colon := strings.IndexByte(node, ':')
	if colon <= 0 || strings.HasPrefix(node, "_:") {
		return false
	}
	if !strings.HasPrefix(node[colon+1:], "//") {
		if t, ok := m.active.TermDefinitions[node[:colon]]; ok && t != nil {
			return false
		}
		if !ld.IsAbsoluteIri(node) {
			return false
		}
	}
	if !strings.HasPrefix(node, "http://") && !strings.HasPrefix(node, "https://") {
		return true
	}
	if utf8.RuneCountInString(node) >= maxURLRunes {
		return false
	}
	family := strings.TrimRightFunc(node, func(r rune) bool { return r >= '0' && r <= '9' })
	hash := strings.LastIndexByte(family, '#')
	if hash < 0 || hash <= strings.Index(family, "://")+2 {
		return ld.IsURL(node)
	}
	if v, ok := m.nodes.Load(family); ok {
		return v.(bool)
	}
	v := ld.IsURL(node)
	if m.nnodes.Add(1) <= 64 {
		m.nodes.Store(family, v)
	}
	return v
}

var (
	rdfNil      = rdf.NewIRI(rdf.RDFNil)
	jsonLiteral = rdf.NewLiteral("null", rdf.RDFJSON)
	// noObject stands for no object at all where a term is returned.
	noObject = rdf.Term{}
)
