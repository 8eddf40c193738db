package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/piprate/json-gold/ld"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
)

// Mapping turns JSON-RPC messages into RDF triples with a block's JSON-LD
// context, processed once: with the compiled plan of the context, and
// through json-gold for the messages the plan does not cover (or for all,
// with EngineJSONGold). It is safe for concurrent use.
type Mapping struct {
	active *ld.Context
	opts   *ld.JsonLdOptions
	scope  *ldctx.Scope // the same context, for what json-gold must not see and for the way back
	plan   *plan

	// Engine maps the messages: EngineCompiled (the default) or
	// EngineJSONGold. Set it before the first message.
	Engine Engine

	nodes  sync.Map // node IRI family -> json-gold keeps it (see nodeValid)
	nnodes atomic.Int64
}

// NewMapping returns the Mapping of ctx for documents whose base IRI is
// base (the context's own @base wins).
func NewMapping(ctx *ldctx.Processed, base string) (*Mapping, error) {
	opts := gold.Options(base)
	active, err := ld.NewContext(nil, opts).Parse(gold.FloatNumbers(ctx.Value()))
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	// Computing the inverse context once makes the parsed context safe to
	// share between goroutines.
	active.GetInverse()
	sc := ctx.Root()
	return &Mapping{active: active, opts: opts, scope: sc, plan: compile(active, sc)}, nil
}

// notice returns a warning about the member at pointer ptr of a message:
// data the mapping cannot carry, or a change it makes.
func notice(ptr, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Pointer: ptr, Severity: diag.Warning, Message: fmt.Sprintf(format, args...)}
}

// changed returns the notice of a number the canonical form of an rdf:JSON
// literal changes.
func changed(c jcs.Change) diag.Diagnostic {
	return notice(c.Pointer, "number %s becomes %s in the rdf:JSON literal: a double cannot hold it", c.Written, c.Becomes)
}

// Triples maps msg, a decoded message object, to triples. The message's
// node is the IRI node, or a blank node when node is empty; blank nodes are
// labelled with the given prefix so that labels of different messages never
// collide. Keys starting with "@" are data, not JSON-LD keywords, at any
// depth outside @json values: they are left out, with a notice, as are
// numbers beyond the range of a double and @json values that have no
// canonical form. The notices also name numbers whose value the canonical
// form of an rdf:JSON literal changes. The notices are warnings with a
// pointer into the message.
func (m *Mapping) Triples(msg map[string]any, node, bnodePrefix string) ([]rdf.Triple, []diag.Diagnostic, error) {
	triples, left, changes, err := m.mapTriples(msg, node, bnodePrefix)
	return triples, noticesOf(left, changes), err
}

// mapTriples maps msg as Triples does, and returns apart the notices for
// what it left out of the mapping and the numbers canonical form changes.
func (m *Mapping) mapTriples(msg map[string]any, node, bnodePrefix string) ([]rdf.Triple, []leftOut, []jcs.Change, error) {
	out, left, changes, _, _, err := m.mapInto(nil, msg, node, bnodePrefix, nil)
	return out, left, changes, err
}

// mapInto appends the triples of msg to dst, with the engine of m. whole
// reports that the triples (with the message's jlog:id) read back to msg
// exactly, which only the compiled plan tells; when it is false the way
// back may or may not give msg, and fix, when not "", is the patch that
// gives it (see fixNumber). With arena, the plan writes the lexical forms
// of rdf:JSON literals into it (see LogGraph.build).
func (m *Mapping) mapInto(dst []rdf.Triple, msg map[string]any, node, bnodePrefix string, arena *[]byte) (out []rdf.Triple, left []leftOut, changes []jcs.Change, whole bool, fix string, err error) {
	if m.Engine == EngineCompiled {
		if out, left, changes, whole, fix, ok := m.compiledWalk(msg, nil, node, bnodePrefix, dst, arena); ok {
			return out, left, changes, whole, fix, nil
		}
		// Where the plan meets an undecoded value it does not take as it
		// is, it tries again with the message decoded whole.
		if materialize(msg) {
			if out, left, changes, whole, fix, ok := m.compiledWalk(msg, nil, node, bnodePrefix, dst, arena); ok {
				return out, left, changes, whole, fix, nil
			}
		}
	}
	out, left, changes, err = m.goldTriples(dst, msg, node, bnodePrefix)
	return out, left, changes, false, "", err
}

// mapTyped is mapInto of rec's Object, a message read typed
// (rpclog.BatchOptions.Typed with the Lazy members lazyKeys gives). obj is
// it as a decoded message object (see typedValue) when the mapping needed
// one, else nil.
func (m *Mapping) mapTyped(dst []rdf.Triple, rec *rpclog.Record, node, bnodePrefix string, arena *[]byte) (out []rdf.Triple, left []leftOut, changes []jcs.Change, whole bool, fix string, obj map[string]any, err error) {
	o := rec.Object
	if m.Engine == EngineCompiled {
		var room [5]member
		ms := m.typedMembers(room[:0], o)
		if arena != nil {
			// What the voucher wrote (see voucher) is the text of their
			// literals.
			for i := range ms {
				switch ms[i].k {
				case "params":
					ms[i].vouched = rec.Vouched[0]
				case "result":
					ms[i].vouched = rec.Vouched[1]
				}
			}
		}
		if out, left, changes, whole, fix, ok := m.compiledWalk(nil, ms, node, bnodePrefix, dst, arena); ok {
			return out, left, changes, whole, fix, nil, nil
		}
	}
	obj = m.typedValue(o)
	out, left, changes, whole, fix, err = m.mapInto(dst, obj, node, bnodePrefix, arena)
	return out, left, changes, whole, fix, obj, err
}

// versionValue is the value of "jsonrpc" in a message read typed.
var versionValue any = "2.0"

// typedMembers appends to dst the members of o, in the order of their
// names: params and result as their text, the others with the values a
// decoded message object holds.
func (m *Mapping) typedMembers(dst []member, o *jsonrpc.Object) []member {
	// "id" < "jsonrpc" < "method" < "params" < "result"
	if o.HasID {
		dst = append(dst, member{k: "id", v: o.ID})
	}
	if o.HasVersion {
		v := versionValue
		if o.Version != "2.0" {
			v = o.Version
		}
		dst = append(dst, member{k: "jsonrpc", v: v})
	}
	if o.HasMethod {
		dst = append(dst, member{k: "method", v: o.Method})
	}
	if o.Params != nil {
		dst = append(dst, member{k: "params", text: o.Params})
	}
	if o.Result != nil {
		dst = append(dst, member{k: "result", text: o.Result})
	}
	return dst
}

// typedValue returns o as the log reader decodes the same message into a
// map: params and result as jsonparse.Undecoded text when they are objects
// or arrays and lazyKeys names them, else decoded.
func (m *Mapping) typedValue(o *jsonrpc.Object) map[string]any {
	var room [5]member
	ms := m.typedMembers(room[:0], o)
	obj := make(map[string]any, len(ms))
	for _, e := range ms {
		if e.text != nil {
			e.v = m.typedText(e.k, e.text)
		}
		obj[e.k] = e.v
	}
	return obj
}

// typedText returns the value of member k of a message read typed, whose
// text is text, as the log reader decodes it with the Lazy members of
// lazyKeys.
func (m *Mapping) typedText(k string, text []byte) any {
	if len(text) > 0 && (text[0] == '{' || text[0] == '[') && m.lazy(k) {
		return jsonparse.Undecoded(text)
	}
	return jsonparse.Decode(text)
}

// lazy reports whether lazyKeys names k.
func (m *Mapping) lazy(k string) bool {
	if m.Engine != EngineCompiled {
		return false
	}
	t := m.plan.root.terms[k]
	return t != nil && t.kind == ckJSON
}

// lazyKeys returns the members of a message whose values the compiled
// plan maps from their text, so that the log reader need not decode them:
// "params" and "result" when they are @json terms (the only members whose
// content classifying a message does not look into).
func (m *Mapping) lazyKeys() []string {
	if m.Engine != EngineCompiled {
		return nil
	}
	var keys []string
	for _, k := range []string{"params", "result"} {
		if m.lazy(k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// typedRead reports whether the plan maps params and result from their
// text, as @json terms (lazyKeys) or by walking it (cwalk.textMember), so
// that messages are best read typed.
func (m *Mapping) typedRead() bool {
	p, r := m.plan.root.terms["params"], m.plan.root.terms["result"]
	return m.Engine == EngineCompiled && p != nil && r != nil && p.kind > ckDrop && r.kind > ckDrop
}

// materialize decodes the undecoded values in v, in place, and reports
// whether there were any.
func materialize(v any) bool {
	found := false
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if u, ok := e.(jsonparse.Undecoded); ok {
				x[k], found = jsonparse.Decode(u), true
			} else if materialize(e) {
				found = true
			}
		}
	case []any:
		for i, e := range x {
			if u, ok := e.(jsonparse.Undecoded); ok {
				x[i], found = jsonparse.Decode(u), true
			} else if materialize(e) {
				found = true
			}
		}
	}
	return found
}

// goldTriples appends the triples json-gold makes of msg to dst.
func (m *Mapping) goldTriples(dst []rdf.Triple, msg map[string]any, node, bnodePrefix string) (out []rdf.Triple, left []leftOut, changes []jcs.Change, err error) {
	doc := m.prepare(msg, m.scope, "", &left)
	if node != "" {
		doc["@id"] = node
	}
	defer func() {
		if e := recover(); e != nil {
			// json-gold asserts types deep inside; never let one of its
			// panics stop a run.
			out, err = dst, fmt.Errorf("JSON-LD processor failed: %v", e)
		}
	}()
	api := ld.NewJsonLdApi()
	expanded, err := api.Expand(m.active, "", doc, m.opts, false, nil)
	if err != nil {
		return dst, left, nil, fmt.Errorf("JSON-LD expansion: %w", err)
	}
	changes, err = gold.CanonicalJSONValues(expanded)
	if err != nil {
		return dst, left, changes, err
	}
	ds, err := api.ToRDF(expanded, m.opts)
	if err != nil {
		return dst, left, changes, fmt.Errorf("JSON-LD to RDF: %w", err)
	}
	quads := ds.GetQuads("@default")
	out = dst
	for _, q := range quads {
		t, err := gold.Triple(q, bnodePrefix)
		if errors.Is(err, rdf.ErrInvalidTerm) {
			// A value of the message made a term no writer takes (an id
			// such as "a:`" read as an IRI): the statement is left out, and
			// jlog:patch keeps the value.
			left = append(left, leftOut{Diagnostic: unwritable(q.Predicate.GetValue(), err), tell: true})
			continue
		}
		if err != nil {
			return dst, left, changes, err
		}
		out = append(out, t)
	}
	return out, left, changes, nil
}

// leftOut is a notice for something the mapping leaves out; atKey marks a
// member whose name starts with "@", tell a notice to be told as it is
// (jlog:patch does not keep what it says is lost).
type leftOut struct {
	diag.Diagnostic
	atKey bool
	tell  bool
}

// prepare returns the document json-gold gets for the object obj at
// pointer ptr, whose terms are those of s: obj without the members json-gold
// must not see, which it reports in left. Values of @json terms are data
// and go through whole, when they have a canonical form.
func (m *Mapping) prepare(obj map[string]any, s *ldctx.Scope, ptr string, left *[]leftOut) map[string]any {
	doc := make(map[string]any, len(obj)+1)
	for _, k := range slices.Sorted(maps.Keys(obj)) { // notices in a stable order
		v := obj[k]
		p := ptr + "/" + jsonptr.Escape(k)
		if strings.HasPrefix(k, "@") {
			*left = append(*left, leftOut{Diagnostic: notice(p, "member %q is data, not a JSON-LD instruction; it is not mapped to RDF", k), atKey: true})
			continue
		}
		if t := s.Term(k); t != nil && t.Type == "@json" {
			if _, _, err := jcs.Append(nil, v); err != nil {
				*left = append(*left, leftOut{Diagnostic: notice(p, "the value cannot be an rdf:JSON literal (%v); it is not mapped to RDF", err)})
				continue
			}
			doc[k] = v
			continue
		}
		if nv, ok := m.prepareValue(v, s.Child(k), p, left); ok {
			doc[k] = nv
		}
	}
	return doc
}

func (m *Mapping) prepareValue(v any, s *ldctx.Scope, ptr string, left *[]leftOut) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return m.prepare(x, s, ptr, left), true
	case []any:
		out := make([]any, 0, len(x))
		for i, e := range x {
			if ne, ok := m.prepareValue(e, s, ptr+"/"+strconv.Itoa(i), left); ok {
				out = append(out, ne)
			}
		}
		return out, true
	case json.Number:
		if _, err := strconv.ParseFloat(string(x), 64); err != nil {
			*left = append(*left, leftOut{Diagnostic: notice(ptr, "number %s is beyond the range of a double; it is not mapped to RDF", x)})
			return nil, false
		}
	}
	return v, true
}
