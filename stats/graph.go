package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/convert"
)

// IsGraph tells whether a file holds a graph jrpcld wrote rather than a
// message log: by its extension (.ttl, .nt, .nq are graphs; .json, .jsonl,
// .ndjson, .gz are logs), else by its first bytes (a graph starts with a
// directive, an IRI or a blank node; a log with '{', '[' or gzip's magic).
func IsGraph(name string, head []byte) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".ttl", ".nt", ".nq", ".turtle":
		return true
	case ".json", ".jsonl", ".ndjson", ".gz":
		return false
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(head) == 0 {
		return false
	}
	switch head[0] {
	case '<', '@', '#':
		return true
	case '_':
		return len(head) > 1 && head[1] == ':'
	}
	for _, kw := range []string{"prefix", "base"} {
		if len(head) > len(kw) && strings.EqualFold(string(head[:len(kw)]), kw) && (head[len(kw)] == ' ' || head[len(kw)] == '\t') {
			return true
		}
	}
	return false
}

// Terms of the graph jrpcld writes with the default block.
const (
	jrpcNS        = convert.JRPCNS
	rdfType       = convert.RDFType
	rdfJSON       = convert.RDFJSON
	jrpcVersion   = jrpcNS + "version"
	jrpcID        = jrpcNS + "hasId"
	jrpcMethod    = jrpcNS + "hasMethod"
	jrpcParams    = jrpcNS + "hasParameters"
	jrpcResult    = jrpcNS + "hasResult"
	jrpcError     = jrpcNS + "hasError"
	jrpcErrCode   = jrpcNS + "hasErrorCode"
	jrpcErrMsg    = jrpcNS + "hasErrorMessage"
	jrpcErrData   = jrpcNS + "hasErrorData"
	jrpcRequest   = jrpcNS + "Request"
	jrpcNotif     = jrpcNS + "Notification"
	jrpcResponse  = jrpcNS + "Response"
	jrpcErrorResp = jrpcNS + "ErrorResponse"
)

// graph indexes triples by subject and predicate.
type graph map[string]map[string][]term

func (g graph) first(node, pred string) (term, bool) {
	if objs := g[node][pred]; len(objs) > 0 {
		return objs[0], true
	}
	return term{}, false
}

func (g graph) hasType(node, class string) bool {
	for _, t := range g[node][rdfType] {
		if t.kind == iriTerm && t.value == class {
			return true
		}
	}
	return false
}

// ReadGraph reads a graph jrpcld wrote (Turtle, N-Triples or N-Quads, as
// "jrpcld rdf" writes them with the default block) and computes the Stats of
// each log in it, in the order the logs first appear. Each message is rebuilt
// from its node (kind, id, method, parameters, result, error, direction,
// timestamp) and counted as in a message log, in the order of jlog:position.
// The graph is read whole: memory grows with its size. newCollector is called
// once per log, with the log's IRI.
func ReadGraph(r io.Reader, file string, newCollector func(logIRI string) *Collector) ([]*LogStats, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	g := graph{}
	var logs []string
	seen := map[string]bool{}
	addLog := func(iri string) {
		if !seen[iri] {
			seen[iri] = true
			logs = append(logs, iri)
		}
	}
	err = parseRDF(data, file, func(t triple) {
		s := t.s.key()
		m := g[s]
		if m == nil {
			m = map[string][]term{}
			g[s] = m
		}
		m[t.p.value] = append(m[t.p.value], t.o)
		switch {
		case t.p.value == rdfType && t.o.value == convert.LogLog:
			addLog(s)
		case t.p.value == convert.LogInLog:
			addLog(t.o.key())
		}
	})
	if err != nil {
		return nil, err
	}
	type msg struct {
		node string
		pos  int
	}
	byLog := map[string][]msg{}
	for node := range g {
		in, ok := g.first(node, convert.LogInLog)
		pos, ok2 := g.first(node, convert.LogPosition)
		if !ok || !ok2 {
			continue
		}
		n, err := strconv.Atoi(pos.value)
		if err != nil {
			return nil, fmt.Errorf("%s: message %s: position %q is not an integer", file, node, pos.value)
		}
		byLog[in.key()] = append(byLog[in.key()], msg{node, n})
	}
	var out []*LogStats
	for _, iri := range logs {
		msgs := byLog[iri]
		sort.Slice(msgs, func(i, j int) bool { return msgs[i].pos < msgs[j].pos })
		c := newCollector(iri)
		for _, m := range msgs {
			rec := &convert.Record{Line: m.pos, Value: g.message(m.node, 0)}
			if d, ok := g.first(m.node, convert.LogDirection); ok {
				switch d.value {
				case convert.LogClientServer:
					rec.Dir = "c2s"
				case convert.LogServerClient:
					rec.Dir = "s2c"
				}
			}
			if ts, ok := g.first(m.node, convert.LogTimestamp); ok {
				rec.TS = ts.value
			}
			c.addAt(rec, m.pos)
		}
		out = append(out, &LogStats{File: file, Log: iri, Stats: c.Stats(), Events: c.Timeline()})
	}
	return out, nil
}

// message rebuilds the JSON value of a message (or batch) node.
func (g graph) message(node string, depth int) any {
	if g.hasType(node, convert.LogBatch) && depth == 0 {
		members := g[node][convert.LogMember]
		type member struct {
			index int
			v     any
		}
		var ms []member
		for _, m := range members {
			i := len(ms)
			if idx, ok := g.first(m.key(), convert.LogMemberIndex); ok {
				if n, err := strconv.Atoi(idx.value); err == nil {
					i = n
				}
			}
			ms = append(ms, member{i, g.message(m.key(), depth+1)})
		}
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].index < ms[j].index })
		arr := make([]any, len(ms))
		for i, m := range ms {
			arr[i] = m.v
		}
		return arr
	}
	obj := map[string]any{"jsonrpc": "2.0"}
	if v, ok := g.first(node, jrpcVersion); ok && v.kind == literalTerm {
		obj["jsonrpc"] = v.value
	}
	if id, ok := g.first(node, convert.LogID); ok {
		obj["id"] = literalValue(id)
	}
	switch {
	case g.hasType(node, jrpcRequest), g.hasType(node, jrpcNotif):
		if m, ok := g.first(node, jrpcMethod); ok {
			obj["method"] = m.value
		}
		if p, ok := g.first(node, jrpcParams); ok {
			obj["params"] = literalValue(p)
		}
		if !g.hasType(node, jrpcRequest) {
			delete(obj, "id")
		}
	case g.hasType(node, jrpcErrorResp):
		e := map[string]any{}
		if en, ok := g.first(node, jrpcError); ok {
			if c, ok := g.first(en.key(), jrpcErrCode); ok {
				e["code"] = json.Number(c.value)
			}
			if m, ok := g.first(en.key(), jrpcErrMsg); ok {
				e["message"] = m.value
			}
			if d, ok := g.first(en.key(), jrpcErrData); ok {
				e["data"] = literalValue(d)
			}
		}
		obj["error"] = e
	case g.hasType(node, jrpcResponse):
		obj["result"] = nil
		if r, ok := g.first(node, jrpcResult); ok {
			obj["result"] = literalValue(r)
		}
	default:
		return nil // not a message jrpcld wrote: counted as invalid
	}
	return obj
}

// literalValue turns a literal back into a JSON value: rdf:JSON is decoded,
// numbers keep their spelling, anything else is a string.
func literalValue(t term) any {
	if t.kind != literalTerm {
		return t.value
	}
	switch t.dt {
	case rdfJSON:
		d := json.NewDecoder(strings.NewReader(t.value))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err == nil {
			return v
		}
	case xsdNS + "integer", xsdNS + "decimal", xsdNS + "double":
		return json.Number(t.value)
	}
	return t.value
}
