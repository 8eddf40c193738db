package wire

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jrpcld/jrpcld/internal/jsonparse"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ordered"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
)

// maxNodeDepth bounds how deep blank nodes nest in a message read back, so
// that a hostile graph cannot exhaust the stack.
const maxNodeDepth = 512

// Decoder turns graphs that jrpcld made from logs back into the wire
// messages they came from. It is the direct inverse of a block's context:
// each property a term maps becomes the term's member, an rdf:JSON literal
// the JSON value it holds, a literal of a numeric or boolean datatype a
// JSON number or boolean, any other literal or IRI a string, and a blank
// node an object read with the term's scoped context. The message's id
// comes from jlog:id and whatever the context could not carry from
// jlog:patch. A Decoder is safe for concurrent use.
type Decoder struct {
	root *ldctx.Scope
}

// NewDecoder returns a Decoder for messages mapped with ctx.
func NewDecoder(ctx *ldctx.Processed) *Decoder {
	return &Decoder{root: ctx.Root()}
}

// Log is one log read back from a graph.
type Log struct {
	IRI      string // the log's IRI (jlog:inLog), or the named graph holding it
	Messages []Message
}

// Message is one message of a log read back from a graph.
type Message struct {
	Node     string // the IRI of the message's node (a blank node's label)
	Position int64  // jlog:position
	Dir      jsonrpc.Direction
	TS       string // the timestamp as the log wrote it, or ""
	Session  string // the MCP session (jlog:session), or ""
	// TSRaw and DirRaw are the envelope's "ts" that was not a string and
	// "dir" that was neither "c2s" nor "s2c", as JSON text, or "".
	TSRaw, DirRaw string
	JSON          []byte // the message as compact JSON
	// Bytes, when not nil, is the message exactly as it was sent when
	// that is no JSON text (jlog:bytes: a log envelope's "bytes", text
	// that is not UTF-8); JSON is then nil.
	Bytes []byte
}

// AppendJSONL appends the message as one line of JSON: the message itself,
// or with envelope the {"dir","ts","session","msg"} form (without "dir",
// "ts" or "session" when the log did not record them). A message that is no JSON text (Bytes) is
// its bytes, or with envelope {"dir","ts","bytes"}, the bytes in base64.
func (m *Message) AppendJSONL(dst []byte, envelope bool) []byte {
	if !envelope {
		if m.Bytes != nil {
			return append(append(dst, m.Bytes...), '\n')
		}
		return append(append(dst, m.JSON...), '\n')
	}
	dst = append(dst, '{')
	switch {
	case m.Dir != jsonrpc.NoDirection:
		dst = append(append(append(dst, `"dir":"`...), m.Dir.String()...), `",`...)
	case m.DirRaw != "":
		dst = append(append(append(dst, `"dir":`...), m.DirRaw...), ',')
	}
	switch {
	case m.TSRaw != "":
		dst = append(append(append(dst, `"ts":`...), m.TSRaw...), ',')
	case m.TS != "":
		dst = append(dst, `"ts":`...)
		dst, _ = appendJSON(dst, m.TS) // TS comes from a parsed literal: valid UTF-8
		dst = append(dst, ',')
	}
	if m.Session != "" {
		dst = append(dst, `"session":`...)
		dst, _ = appendJSON(dst, m.Session) // from a parsed literal too
		dst = append(dst, ',')
	}
	if m.Bytes != nil {
		dst = append(dst, `"bytes":"`...)
		dst = append(base64.StdEncoding.AppendEncode(dst, m.Bytes), '"')
	} else {
		dst = append(append(dst, `"msg":`...), m.JSON...)
	}
	return append(dst, "}\n"...)
}

// WriteJSONL writes the messages as JSON lines; see AppendJSONL.
func WriteJSONL(w io.Writer, msgs []Message, envelope bool) error {
	var buf []byte
	for i := range msgs {
		buf = msgs[i].AppendJSONL(buf, envelope)
		if len(buf) > 64<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// edge is one property of a node.
type edge struct {
	p string
	o rdf.Term
}

// graph indexes statements by subject; the graphs of a dataset are merged
// (jrpcld writes each log to a named graph of its own, and its node IRIs
// and blank node labels never meet across logs).
type graph struct {
	out map[rdf.Term][]edge
}

func newGraph(quads []rdf.Quad) *graph {
	g := &graph{out: make(map[rdf.Term][]edge, len(quads)/8)}
	// The statements of a subject mostly come in one run: each run is a
	// piece of one slice of edges, looked up in the map once.
	all := make([]edge, len(quads))
	for i, q := range quads {
		all[i] = edge{q.P, q.O}
	}
	for i := 0; i < len(quads); {
		s := quads[i].S
		j := i + 1
		for j < len(quads) && quads[j].S == s {
			j++
		}
		run := all[i:j:j] // full: appending to it copies
		if es, ok := g.out[s]; ok {
			g.out[s] = append(es, run...)
		} else {
			g.out[s] = run
		}
		i = j
	}
	return g
}

// objects returns the distinct objects of (s, p), in the order of their
// first statement.
func (g *graph) objects(s rdf.Term, p string) []rdf.Term {
	var out []rdf.Term
	var seen map[rdf.Term]struct{} // once out is long enough for a search to cost
	for _, e := range g.out[s] {
		switch {
		case e.p != p:
		case seen != nil:
			if _, dup := seen[e.o]; !dup {
				seen[e.o] = struct{}{}
				out = append(out, e.o)
			}
		case !containsTerm(out, e.o):
			out = append(out, e.o)
			if len(out) == 16 {
				seen = make(map[rdf.Term]struct{})
				for _, o := range out {
					seen[o] = struct{}{}
				}
			}
		}
	}
	return out
}

func containsTerm(ts []rdf.Term, t rdf.Term) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// ReadRDF reads an RDF document in format f, whole: Turtle, N-Triples or
// N-Quads (the latter two on every core when large), or JSON-LD. A
// document that does not parse gives a *diag.Diagnostic.
func ReadRDF(data []byte, f rdf.Format) ([]rdf.Quad, error) {
	switch f {
	case rdf.NTriples, rdf.NQuads:
		if len(data) >= parallelParse && ordered.Workers() > 1 {
			return rdf.ParseLines(data, f, 4*ordered.Workers())
		}
		fallthrough
	case rdf.Turtle:
		qs, _, err := rdf.Parse(data, f, "")
		return qs, err
	case rdf.JSONLD, rdf.JSONLDExpanded:
		return jsonld.Read(data)
	}
	return nil, fmt.Errorf("cannot read RDF format %v", f)
}

// parallelParse is the size from which N-Triples and N-Quads are parsed in
// pieces on every core.
const parallelParse = 1 << 20

// Logs returns the logs of a dataset in the order they first appear, each
// with its messages in log order (jlog:position), and the problems that
// keep parts of it from being read back. Every message that can be read
// back is, whatever the problems with others.
func (d *Decoder) Logs(quads []rdf.Quad) ([]Log, []diag.Diagnostic) {
	logs, problems := d.read(quads, ordered.Workers())
	if len(logs) == 0 && len(problems) == 0 {
		problems = append(problems, diag.Diagnostic{Message: "no JSON-RPC messages: no node has a jlog:position"})
	}
	return logs, problems
}

// read reads back the logs of quads on par goroutines; see Logs.
func (d *Decoder) read(quads []rdf.Quad, par int) ([]Log, []diag.Diagnostic) {
	g := newGraph(quads)
	r := &reading{d: d, g: g}
	type placed struct {
		node rdf.Term
		pos  int64
	}
	var order []string
	byLog := map[string][]placed{}
	seen := map[rdf.Term]bool{}
	for _, q := range quads {
		if q.P != rdf.JLogPosition || seen[q.S] {
			continue
		}
		seen[q.S] = true
		node := q.S
		pos, ok := r.position(node)
		if !ok {
			continue
		}
		log := q.G.Value
		if logs := g.objects(node, rdf.JLogInLog); len(logs) == 1 && logs[0].Kind == rdf.IRI {
			log = logs[0].Value
		} else if len(logs) > 1 {
			r.problem(node, "it is in %d logs (jlog:inLog)", len(logs))
		}
		if _, ok := byLog[log]; !ok {
			order = append(order, log)
		}
		byLog[log] = append(byLog[log], placed{node, pos})
	}
	r.unplaced(seen)
	var all []placed
	for _, iri := range order {
		ms := byLog[iri]
		sort.SliceStable(ms, func(i, j int) bool {
			if ms[i].pos != ms[j].pos {
				return ms[i].pos < ms[j].pos
			}
			return ms[i].node.Value < ms[j].node.Value
		})
		all = append(all, ms...)
	}
	// The messages are read back on par goroutines: the graph is only read.
	type result struct {
		wm       Message
		ok       bool
		problems []diag.Diagnostic
	}
	results := make([]result, len(all))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rr := &reading{d: d, g: g}
			for {
				i := int(next.Add(64)) - 64
				if i >= len(all) {
					return
				}
				for j := i; j < min(i+64, len(all)); j++ {
					res := &results[j]
					res.wm, res.ok = rr.wireMessage(all[j].node, all[j].pos)
					res.problems, rr.problems = rr.problems, nil
				}
			}
		}()
	}
	wg.Wait()
	var logs []Log
	k := 0
	for _, iri := range order {
		ms := byLog[iri]
		l := Log{IRI: iri}
		for i, m := range ms {
			if i > 0 && ms[i-1].pos == m.pos {
				r.problem(m.node, "position %d is also the position of <%s>", m.pos, ms[i-1].node.Value)
			}
			res := &results[k]
			k++
			r.problems = append(r.problems, res.problems...)
			if res.ok {
				l.Messages = append(l.Messages, res.wm)
			}
		}
		logs = append(logs, l)
	}
	return logs, r.problems
}

// reading is the state of one Logs call.
type reading struct {
	d        *Decoder
	g        *graph
	problems []diag.Diagnostic
}

func (r *reading) problem(node rdf.Term, format string, args ...any) {
	name := node.Value
	if node.Kind == rdf.Blank {
		name = "_:" + strings.TrimPrefix(name, "#")
	}
	r.problems = append(r.problems, diag.Diagnostic{Node: name, Message: fmt.Sprintf(format, args...)})
}

// one returns the single object of (node, p); ok is false when there is
// none, and a problem is recorded when there are several.
func (r *reading) one(node rdf.Term, p string) (rdf.Term, bool) {
	os := r.g.objects(node, p)
	switch len(os) {
	case 0:
		return rdf.Term{}, false
	case 1:
		return os[0], true
	}
	r.problem(node, "it has %d values of %s, want one", len(os), p)
	return rdf.Term{}, false
}

// integer reads the single integer value of (node, p).
func (r *reading) integer(node rdf.Term, p string) (int64, bool) {
	o, ok := r.one(node, p)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(o.Value, 10, 64)
	if o.Kind != rdf.Literal || err != nil {
		r.problem(node, "%s %q is not an integer", p, o.Value)
		return 0, false
	}
	return n, true
}

func (r *reading) position(node rdf.Term) (int64, bool) {
	return r.integer(node, rdf.JLogPosition)
}

// unplaced names the nodes typed as messages or batches that neither have
// a position nor are members of a batch: nothing says where they belong.
func (r *reading) unplaced(placed map[rdf.Term]bool) {
	members := map[rdf.Term]bool{}
	var typed []rdf.Term
	for s, es := range r.g.out {
		for _, e := range es {
			switch {
			case e.p == rdf.JLogMember:
				members[e.o] = true
			case e.p == rdf.RDFType && e.o.Kind == rdf.IRI && isMessageClass(e.o.Value) && !placed[s]:
				if !containsTerm(typed, s) {
					typed = append(typed, s)
				}
			}
		}
	}
	sort.Slice(typed, func(i, j int) bool { return typed[i].Value < typed[j].Value })
	for _, s := range typed {
		if !members[s] {
			r.problem(s, "it is typed as a message but has no jlog:position and is no batch's jlog:member")
		}
	}
}

func isMessageClass(c string) bool {
	switch c {
	case rdf.JRPCRequest, rdf.JRPCNotification, rdf.JRPCResponse, rdf.JRPCErrorResponse, rdf.JLogBatch, rdf.JLogInvalidMessage:
		return true
	}
	return false
}

// wireMessage reads back the message (or batch) at node.
func (r *reading) wireMessage(node rdf.Term, pos int64) (Message, bool) {
	wm := Message{Node: node.Value, Position: pos}
	if d, ok := r.one(node, rdf.JLogDirection); ok {
		switch d.Value {
		case rdf.JLogClientToServer:
			wm.Dir = jsonrpc.ClientToServer
		case rdf.JLogServerToClient:
			wm.Dir = jsonrpc.ServerToClient
		default:
			r.problem(node, "direction %s is neither jlog:ClientToServer nor jlog:ServerToClient", d.Value)
		}
	}
	if ts, ok := r.one(node, rdf.JLogTimestamp); ok {
		wm.TS = ts.Value
	}
	if s, ok := r.one(node, rdf.JLogSession); ok {
		wm.Session = s.Value
	}
	wm.TSRaw = r.rawJSON(node, rdf.JLogRawTimestamp)
	wm.DirRaw = r.rawJSON(node, rdf.JLogRawDirection)
	if b, found, ok := r.bytes(node); found {
		wm.Bytes = b
		return wm, ok
	}
	var msg any
	if raw, found, ok := r.invalidMessage(node); found {
		if !ok {
			return wm, false
		}
		msg = raw
	} else if containsTerm(r.g.objects(node, rdf.RDFType), rdf.Term{Kind: rdf.IRI, Value: rdf.JLogBatch}) {
		batch, ok := r.batch(node)
		if !ok {
			return wm, false
		}
		msg = batch
	} else {
		m, ok := r.message(node)
		if !ok {
			return wm, false
		}
		msg = m
	}
	b, err := appendMessage(nil, msg)
	if err != nil {
		r.problem(node, "%v", err)
		return wm, false
	}
	wm.JSON = b
	return wm, true
}

// batch reads back the members of the batch at node, in order.
func (r *reading) batch(node rdf.Term) ([]any, bool) {
	type member struct {
		node  rdf.Term
		index int64
	}
	var ms []member
	for _, m := range r.g.objects(node, rdf.JLogMember) {
		i, ok := r.integer(m, rdf.JLogMemberIndex)
		if !ok {
			if len(r.g.objects(m, rdf.JLogMemberIndex)) == 0 {
				r.problem(m, "batch member without a jlog:memberIndex")
			}
			continue
		}
		ms = append(ms, member{m, i})
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].index < ms[j].index })
	var out []any
	for i, m := range ms {
		if i > 0 && ms[i-1].index == m.index {
			r.problem(m.node, "member index %d is also the index of <%s>", m.index, ms[i-1].node.Value)
		}
		if raw, found, ok := r.invalidMessage(m.node); found {
			if ok {
				out = append(out, raw)
			}
		} else if v, ok := r.message(m.node); ok {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		r.problem(node, "batch without members that can be read back")
		return nil, false
	}
	return out, true
}

// bytes reads back a message that is no JSON text: its jlog:bytes. found
// reports that node has one; ok that it is one base64 literal, on a node
// without jlog:json.
func (r *reading) bytes(node rdf.Term) (b []byte, found, ok bool) {
	if len(r.g.objects(node, rdf.JLogBytes)) == 0 {
		return nil, false, false
	}
	o, ok := r.one(node, rdf.JLogBytes)
	if !ok {
		return nil, true, false
	}
	b, err := base64.StdEncoding.DecodeString(o.Value)
	switch {
	case o.Kind != rdf.Literal || o.Datatype != rdf.XSDBase64Binary:
		r.problem(node, "%s %.80q is not an xsd:base64Binary literal", rdf.JLogBytes, o.Value)
	case err != nil:
		r.problem(node, "%s %.80q is not base64: %v", rdf.JLogBytes, o.Value, err)
	case len(r.g.objects(node, rdf.JLogJSON)) > 0:
		r.problem(node, "it has both %s and %s, which are each the whole message", rdf.JLogBytes, rdf.JLogJSON)
	default:
		if b == nil {
			b = []byte{} // no bytes: still not JSON
		}
		return b, true, true
	}
	return nil, true, false
}

// invalidMessage reads back a message that broke the JSON-RPC rules: its
// jlog:json, compacted. found reports that node has one; ok that it is
// JSON.
func (r *reading) invalidMessage(node rdf.Term) (v rawJSON, found, ok bool) {
	text := r.rawJSON(node, rdf.JLogJSON)
	if text == "" {
		return "", len(r.g.objects(node, rdf.JLogJSON)) > 0, false
	}
	return rawJSON(text), true, true
}

// rawJSON returns the single literal of (node, p) that holds JSON text, as
// compact JSON; "" when there is none, or it is not JSON (a problem then).
func (r *reading) rawJSON(node rdf.Term, p string) string {
	o, ok := r.one(node, p)
	if !ok {
		return ""
	}
	var b strings.Builder
	if o.Kind != rdf.Literal || compactJSON(&b, o.Value) != nil {
		r.problem(node, "%s %.80q is not JSON", p, o.Value)
		return ""
	}
	return b.String()
}

// message reads back the message at node and checks that it is one.
func (r *reading) message(node rdf.Term) (map[string]any, bool) {
	obj, probs := readMessage(r.d.root, r.g, node)
	for _, p := range probs {
		r.problem(node, "%s", p)
	}
	for _, k := range []string{"jsonrpc", "id", "method"} {
		if set, ok := obj[k].(setValue); ok {
			r.problem(node, "not a JSON-RPC 2.0 message: %q has %d values in the graph, where a message has one", k, len(set))
			return nil, false
		}
	}
	if m := jsonrpc.Classify(classifiable(obj)); m.Kind == jsonrpc.KindInvalid {
		r.problem(node, "not a JSON-RPC 2.0 message: %v", m.Err())
		return nil, false
	}
	return obj, true
}

// classifiable returns obj as jsonrpc.Classify can read it: a copy whose
// rdf:JSON values stand for their JSON type (decoded only for "error",
// whose members Classify checks). The rules look no deeper.
func classifiable(obj map[string]any) map[string]any {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		if _, ok := v.(setValue); ok {
			v = []any{} // written out as an array of its values
		}
		if r, ok := v.(rawJSON); ok {
			switch r[0] {
			case '{':
				v = map[string]any{}
				if k == "error" {
					v, _ = decodeJSON(string(r))
				}
			case '[':
				v = []any{}
			case '"':
				v = ""
			case 't', 'f':
				v = r[0] == 't'
			case 'n':
				v = nil
			default:
				v = json.Number(r)
			}
		}
		c[k] = v
	}
	return c
}

// Patch returns the JSON text of the JSON Patch (RFC 6902) that turns what
// the way back makes of a message's statements into msg, the message as
// sent; "" when they are the same. triples are the statements about the
// message's node (its mapped members and its jlog:id), in one or more
// slices; scope is its context's root. The mapping keeps the patch as the
// node's jlog:patch, so that whatever the context cannot carry comes back
// exactly.
func Patch(scope *ldctx.Scope, msg map[string]any, node string, triples ...[]rdf.Triple) (string, error) {
	n := 0
	for _, ts := range triples {
		n += len(ts)
	}
	quads := make([]rdf.Quad, 0, n)
	for _, ts := range triples {
		for _, t := range ts {
			quads = append(quads, rdf.Quad{Triple: t})
		}
	}
	back, _ := readMessage(scope, newGraph(quads), rdf.NewIRI(node))
	ops := diffJSON(nil, "", msg, back)
	if len(ops) == 0 {
		return "", nil
	}
	b, err := appendPatch(nil, ops)
	if err != nil {
		return "", fmt.Errorf("jlog:patch: %w", err)
	}
	return string(b), nil
}

// readMessage reads back the message at node of g: the properties its terms
// map, the id from jlog:id, then jlog:patch applied. It returns what it
// could not read as problems.
func readMessage(s *ldctx.Scope, g *graph, node rdf.Term) (map[string]any, []string) {
	var probs []string
	obj := object(s, g, node, 0, &probs)
	if ids := g.objects(node, rdf.JLogID); len(ids) == 1 {
		if v, ok := jlog.ID(ids[0]); ok {
			obj["id"] = v
		} else {
			probs = append(probs, fmt.Sprintf("jlog:id %q is not a JSON-RPC id", ids[0].Value))
		}
	} else if len(ids) > 1 {
		probs = append(probs, fmt.Sprintf("%d values of jlog:id, want one", len(ids)))
	}
	patches := g.objects(node, rdf.JLogPatch)
	if len(patches) > 1 {
		return obj, append(probs, fmt.Sprintf("%d values of jlog:patch, want one", len(patches)))
	}
	if len(patches) == 1 {
		ops, err := parsePatch(patches[0].Value)
		if err == nil {
			var v any
			v, err = applyPatch(obj, ops)
			if m, ok := v.(map[string]any); ok && err == nil {
				obj = m
			} else if err == nil {
				err = fmt.Errorf("it makes the message %s", brief(v))
			}
		}
		if err != nil {
			probs = append(probs, fmt.Sprintf("jlog:patch: %v", err))
		}
	}
	return obj, probs
}

// object reads back the node at depth as an object with the terms of s.
// A member whose property has several values becomes a setValue; the
// same statement twice is one statement, told by a set of the statements
// seen once a member repeats (linear in the statements, however many
// values one property has).
func object(s *ldctx.Scope, g *graph, node rdf.Term, depth int, probs *[]string) map[string]any {
	obj := map[string]any{}
	edges := g.out[node]
	var seen map[edge]struct{} // the node's statements read so far, once a member repeats
	for i, e := range edges {
		if e.p == rdf.RDFType || strings.HasPrefix(e.p, rdf.JLogNS) {
			continue
		}
		name := s.Name(e.p, e.o)
		if name == "" {
			continue
		}
		prev, ok := obj[name]
		if ok && seen == nil {
			seen = make(map[edge]struct{}, len(edges)-i)
			for _, x := range edges[:i] {
				seen[x] = struct{}{}
			}
		}
		if seen != nil {
			if _, dup := seen[e]; dup {
				continue
			}
			seen[e] = struct{}{}
		}
		v := value(s.Child(name), g, e.o, depth+1, probs)
		switch set, isSet := prev.(setValue); {
		case !ok:
			obj[name] = v
		case isSet:
			obj[name] = append(set, v)
		default:
			obj[name] = setValue{prev, v}
		}
	}
	return obj
}

// value reads back one object of a property whose member has scope s.
func value(s *ldctx.Scope, g *graph, o rdf.Term, depth int, probs *[]string) any {
	switch o.Kind {
	case rdf.IRI:
		return o.Value
	case rdf.Blank:
		if depth > maxNodeDepth {
			*probs = append(*probs, fmt.Sprintf("blank nodes nested more than %d deep", maxNodeDepth))
			return nil
		}
		return object(s, g, o, depth, probs)
	}
	return literalValue(o, probs)
}

// literalValue turns a literal into the JSON value it stands for.
func literalValue(o rdf.Term, probs *[]string) any {
	switch {
	case o.Datatype == rdf.RDFJSON:
		if !validJSON(o.Value) {
			*probs = append(*probs, fmt.Sprintf("rdf:JSON literal %q is not JSON", o.Value))
			return o.Value
		}
		return rawJSON(o.Value)
	case o.Datatype == rdf.XSDBoolean:
		switch o.Value {
		case "true":
			return true
		case "false":
			return false
		}
	case jlog.NumericDatatype(o.Datatype):
		if jsonparse.IsNumber(o.Value) {
			return json.Number(o.Value)
		}
	}
	return o.Value
}
