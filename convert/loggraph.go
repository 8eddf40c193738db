package convert

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/turtle"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/knakk/rdf"
)

// LogNS is the namespace of jrpcld's own log terms: how messages sit in a
// log (direction, position, time), which request a response answers, and
// what a message's id was. The terms are declared in ontology/log.ttl.
const LogNS = "https://jrpcld.github.io/ns/log#"

// Log terms.
const (
	LogLog           = LogNS + "Log"
	LogBatch         = LogNS + "Batch"
	LogUnanswered    = LogNS + "UnansweredRequest"
	LogOrphan        = LogNS + "OrphanResponse"
	LogInLog         = LogNS + "inLog"
	LogPosition      = LogNS + "position"
	LogDirection     = LogNS + "direction"
	LogClientServer  = LogNS + "ClientToServer"
	LogServerClient  = LogNS + "ServerToClient"
	LogTimestamp     = LogNS + "timestamp"
	LogAnswers       = LogNS + "answers"
	LogMember        = LogNS + "member"
	LogMemberIndex   = LogNS + "memberIndex"
	LogID            = LogNS + "id"
	jrpcRequest      = JRPCNS + "Request"
	jrpcNotification = JRPCNS + "Notification"
	jrpcResponse     = JRPCNS + "Response"
	jrpcErrorResp    = JRPCNS + "ErrorResponse"
)

// DefaultLogIRI returns the IRI a log is given when the user gives none: the
// file: URL of its absolute path, or file:///dev/stdin for standard input.
func DefaultLogIRI(file string) string {
	if file == "" || file == "-" {
		return "file:///dev/stdin"
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// LogGraph turns the messages of one log, in order, into one connected
// graph: each message is a node with a stable IRI built from the log's IRI,
// its direction and its position; it is typed by its kind, carries its
// direction, position, time and id, and a response is linked to the request
// it answers. The message's own content is mapped by the block's context.
type LogGraph struct {
	iri     string
	mapping *Mapping
	tracker *schema.Tracker[string] // open requests: their node IRIs
	blank   string                  // blank-node label prefix unique to this log
	started bool
}

// NewLogGraph returns a LogGraph for the log with the given IRI, mapping
// message content with m.
func NewLogGraph(logIRI string, m *Mapping) *LogGraph {
	return &LogGraph{iri: logIRI, mapping: m, tracker: schema.NewTracker[string](0), blank: blankPrefix(logIRI)}
}

// blankPrefix derives a blank-node label prefix from the log IRI, so that
// the outputs of two logs can be concatenated without merging nodes.
func blankPrefix(logIRI string) string {
	// FNV-1a, 64 bits: short, stable and spread enough for labels.
	h := uint64(14695981039346656037)
	for i := 0; i < len(logIRI); i++ {
		h ^= uint64(logIRI[i])
		h *= 1099511628211
	}
	return "l" + strconv.FormatUint(h, 36) + "m"
}

// MessageIRI returns the IRI of the message at position pos (from 1) sent in
// direction dir ("c2s", "s2c" or "").
func (g *LogGraph) MessageIRI(dir string, pos int) string {
	if dir == "" {
		return g.iri + "#m" + strconv.Itoa(pos)
	}
	return g.iri + "#" + dir + "-" + strconv.Itoa(pos)
}

// Message returns the triples of one record of the log; pos is its position
// (from 1). The notices tell what the mapping could not carry. An invalid
// message has no triples: the error says why.
func (g *LogGraph) Message(rec *Record, pos int) ([]rdf.Triple, []Notice, error) {
	var out []rdf.Triple
	if !g.started {
		g.started = true
		out = append(out, g.triple(g.iri, RDFType, iri(LogLog)))
	}
	m := schema.Classify(rec.Value)
	if m.Kind == schema.KindInvalid {
		return out, nil, fmt.Errorf("not a JSON-RPC 2.0 message: %s", firstError(m))
	}
	node := g.MessageIRI(rec.Dir, pos)
	if m.Kind == schema.KindBatch {
		out = append(out, g.triple(node, RDFType, iri(LogBatch)))
	} else {
		out = append(out, g.triple(node, RDFType, iri(kindClass(m.Kind))))
	}
	out = append(out,
		g.triple(node, LogInLog, iri(g.iri)),
		g.triple(node, LogPosition, typed(strconv.Itoa(pos), XSDInt)),
	)
	switch rec.Dir {
	case "c2s":
		out = append(out, g.triple(node, LogDirection, iri(LogClientServer)))
	case "s2c":
		out = append(out, g.triple(node, LogDirection, iri(LogServerClient)))
	}
	if rec.TS != "" {
		dt := XSDStr
		if dateTimeRE.MatchString(rec.TS) {
			dt = XSDDTime
		}
		out = append(out, g.triple(node, LogTimestamp, typed(rec.TS, dt)))
	}
	if m.Kind != schema.KindBatch {
		obj, _ := rec.Value.(map[string]any)
		return g.message(out, node, rec.Dir, pos, m, obj, g.blank+strconv.Itoa(pos)+"b")
	}
	arr, _ := rec.Value.([]any)
	var notices []Notice
	var errs []string
	for i, mm := range m.Members {
		if mm.Kind == schema.KindInvalid || i >= len(arr) {
			errs = append(errs, fmt.Sprintf("member %d is not a JSON-RPC 2.0 message: %s", i, firstError(mm)))
			continue
		}
		mnode := node + "." + strconv.Itoa(i)
		out = append(out,
			g.triple(node, LogMember, iri(mnode)),
			g.triple(mnode, RDFType, iri(kindClass(mm.Kind))),
			g.triple(mnode, LogMemberIndex, typed(strconv.Itoa(i), XSDInt)),
		)
		obj, _ := arr[i].(map[string]any)
		var ns []Notice
		var err error
		out, ns, err = g.message(out, mnode, rec.Dir, pos, mm, obj, g.blank+strconv.Itoa(pos)+"x"+strconv.Itoa(i)+"b")
		for _, n := range ns {
			n.Pointer = "/" + strconv.Itoa(i) + n.Pointer
			notices = append(notices, n)
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("member %d: %v", i, err))
		}
	}
	if len(errs) > 0 {
		return out, notices, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, notices, nil
}

// message appends the triples of one (non-batch) message at node, whose
// type the caller has written.
func (g *LogGraph) message(out []rdf.Triple, node, dir string, pos int, m schema.Message, obj map[string]any, blank string) ([]rdf.Triple, []Notice, error) {
	switch m.Kind {
	case schema.KindRequest:
		g.tracker.Request(dir, m.ID, node)
	case schema.KindResponse, schema.KindErrorResponse:
		if p, ok := g.tracker.Answer(dir, m.ID); ok {
			out = append(out, g.triple(node, LogAnswers, iri(p)))
		} else {
			out = append(out, g.triple(node, RDFType, iri(LogOrphan)))
		}
	}
	var idTriple []rdf.Triple
	if m.HasID {
		idTriple = []rdf.Triple{g.triple(node, LogID, idLiteral(m.ID))}
		out = append(out, idTriple...)
	}
	start := len(out)
	out, left, changes, whole, err := g.mapping.mapInto(out, obj, node, blank)
	if err != nil {
		return out[:start], noticesOf(left, changes), err
	}
	if _, ok := obj["id"]; ok && !m.HasID {
		whole = false
	}
	var patch string
	if !whole {
		// Only reading the triples back tells what they lose.
		patch, err = g.mapping.patch(obj, node, out[start:], idTriple)
		if err != nil {
			return out, noticesOf(left, changes), err
		}
	}
	if patch != "" {
		out = append(out, g.triple(node, LogPatch, typed(patch, XSDStr)))
	}
	// What the mapping leaves out or changes, jlog:id and jlog:patch keep
	// exactly: nothing to tell, but that members named like JSON-LD
	// keywords were taken as data.
	var notices []Notice
	for _, l := range left {
		if l.atKey {
			l.Message += " (jlog:patch keeps it)"
			notices = append(notices, l.Notice)
		}
	}
	return out, notices, nil
}

// noticesOf returns all the notices of a message the patch does not carry.
func noticesOf(left []leftOut, changes []jcs.Change) []Notice {
	var out []Notice
	for _, l := range left {
		out = append(out, l.Notice)
	}
	for _, c := range changes {
		out = append(out, Notice{Pointer: c.Pointer, Message: fmt.Sprintf("number %s becomes %s in the rdf:JSON literal: a double cannot hold it", c.Written, c.Becomes)})
	}
	return out
}

// patch returns the JSON text of the JSON Patch that turns what the way
// back makes of the message's triples (and its jlog:id) into obj, the
// message as sent; "" when they are the same. Whatever the mapping loses,
// the patch carries exactly, so there is nothing more to tell the user.
func (m *Mapping) patch(obj map[string]any, node string, triples, id []rdf.Triple) (string, error) {
	quads := make([]turtle.Quad, 0, len(triples)+len(id))
	for _, ts := range [][]rdf.Triple{triples, id} {
		for _, t := range ts {
			quads = append(quads, turtle.Quad{S: readTerm(t.Subj), P: t.Pred.String(), O: readTerm(t.Obj)})
		}
	}
	back, _ := m.scope.message(newGraph(quads), turtle.Term{Kind: turtle.IRI, Value: node})
	ops := diffJSON(nil, "", obj, back)
	if len(ops) == 0 {
		return "", nil
	}
	b, err := appendPatch(nil, ops)
	if err != nil {
		return "", fmt.Errorf("jlog:patch: %w", err)
	}
	return string(b), nil
}

// readTerm turns a term into the form the way back reads.
func readTerm(t rdf.Term) turtle.Term {
	switch x := t.(type) {
	case rdf.Blank:
		return turtle.Term{Kind: turtle.Blank, Value: blankLabel(x)}
	case rdf.Literal:
		dt := x.DataType.String()
		if x.Lang() != "" {
			dt = RDFNS + "langString"
		}
		return turtle.Term{Kind: turtle.Literal, Value: x.String(), Datatype: dt, Lang: x.Lang()}
	}
	return turtle.Term{Kind: turtle.IRI, Value: t.String()}
}

// kindClass returns the jrpc class of a message kind.
func kindClass(k schema.Kind) string {
	switch k {
	case schema.KindRequest:
		return jrpcRequest
	case schema.KindNotification:
		return jrpcNotification
	case schema.KindResponse:
		return jrpcResponse
	case schema.KindErrorResponse:
		return jrpcErrorResp
	}
	return LogBatch
}

// Close returns the triples known only at the end of the log: the requests
// no response answered.
func (g *LogGraph) Close() []rdf.Triple {
	var out []rdf.Triple
	for _, node := range g.tracker.Open() {
		out = append(out, g.triple(node, RDFType, iri(LogUnanswered)))
	}
	return out
}

func (g *LogGraph) triple(s, p string, o rdf.Object) rdf.Triple {
	return rdf.Triple{Subj: iri(s), Pred: iri(p), Obj: o}
}

// iri makes an IRI term of a string jrpcld built itself.
func iri(s string) rdf.IRI {
	i, err := rdf.NewIRI(s)
	if err != nil {
		panic(fmt.Sprintf("convert: built an invalid IRI %q: %v", s, err))
	}
	return i
}

func typed(lex, dt string) rdf.Literal {
	return rdf.NewTypedLiteral(lex, iri(dt))
}

// idLiteral writes a JSON-RPC id as a literal that keeps its type and
// spelling: a string as xsd:string, a number as xsd:integer, xsd:decimal or
// xsd:double as written, null as the rdf:JSON literal null.
func idLiteral(id any) rdf.Literal {
	switch x := id.(type) {
	case string:
		return typed(x, XSDStr)
	case json.Number:
		s := string(x)
		switch {
		case integerRE.MatchString(s):
			return typed(s, XSDInt)
		case decimalRE.MatchString(s):
			return typed(s, XSDDec)
		}
		return typed(s, XSDDbl)
	case nil:
		return typed("null", RDFJSON)
	}
	return typed(fmt.Sprint(id), XSDStr)
}

var (
	integerRE  = regexp.MustCompile(`^-?[0-9]+$`)
	decimalRE  = regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)
	dateTimeRE = regexp.MustCompile(`^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$`)
)

func firstError(m schema.Message) string {
	for _, p := range m.AllProblems() {
		if p.Severity == schema.SeverityError {
			if p.Pointer != "" {
				return p.Message + " (at " + p.Pointer + ")"
			}
			return p.Message
		}
	}
	return "invalid"
}
