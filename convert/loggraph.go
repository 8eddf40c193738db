package convert

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/jlog"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rpclog"
	"github.com/jrpcld/jrpcld/wire"
)

// LogGraph turns the messages of one log, in order, into one connected
// graph: each message is a node with a stable IRI built from the log's IRI,
// its direction and its position; it is typed by its kind, carries its
// direction, position, time and id, and a response is linked to the request
// it answers. The message's own content is mapped by the block's context.
type LogGraph struct {
	iri     string
	node    rdf.Term // the log's
	mapping *Mapping
	tracker *jsonrpc.Tracker[string] // open requests: their node IRIs
	blank   string                   // blank-node label prefix unique to this log
	started bool
}

// NewLogGraph returns a LogGraph for the log with the given IRI, mapping
// message content with m.
func NewLogGraph(logIRI string, m *Mapping) *LogGraph {
	return &LogGraph{iri: logIRI, node: rdf.NewIRI(logIRI), mapping: m, tracker: jsonrpc.NewTracker[string](0), blank: jlog.BlankPrefix(logIRI)}
}

// MessageIRI returns the IRI of the message at position pos (from 1) sent in
// direction dir.
func (g *LogGraph) MessageIRI(dir jsonrpc.Direction, pos int) string {
	return jlog.MessageIRI(g.iri, dir, pos)
}

// Message returns the triples of one record of the log; pos is its position
// (from 1). The notices tell what the mapping could not carry. An invalid
// message has no triples: the error says why.
func (g *LogGraph) Message(rec *rpclog.Record, pos int) ([]rdf.Triple, []diag.Diagnostic, error) {
	m := jsonrpc.Classify(rec.Value)
	return g.build(nil, rec, pos, m, g.pair(rec, pos, m))
}

// pairing is what the order of a log decides about one record: whether it
// is the first of the log, and which request each response (the message,
// or each batch member) answers, "" for none.
type pairing struct {
	first   bool
	answers string
	members []string
}

// pair takes the next record of the log, classified as m, in order: the
// part of a message's triples that depends on the records before it. The
// rest (build) may then run on any goroutine.
func (g *LogGraph) pair(rec *rpclog.Record, pos int, m jsonrpc.Message) pairing {
	p := pairing{first: !g.started}
	g.started = true
	switch m.Kind {
	case jsonrpc.KindInvalid:
	case jsonrpc.KindBatch:
		node := g.MessageIRI(rec.Dir, pos)
		arr, _ := rec.Value.([]any)
		p.members = make([]string, len(m.Members))
		for i, mm := range m.Members {
			if mm.Kind != jsonrpc.KindInvalid && i < len(arr) {
				p.members[i] = g.pairOne(rec.Dir, jlog.MemberIRI(node, i), mm)
			}
		}
	default:
		p.answers = g.pairOne(rec.Dir, g.MessageIRI(rec.Dir, pos), m)
	}
	return p
}

// pairOne records a request as open, or returns the node of the request a
// response answers.
func (g *LogGraph) pairOne(dir jsonrpc.Direction, node string, m jsonrpc.Message) string {
	switch m.Kind {
	case jsonrpc.KindRequest:
		g.tracker.Request(dir, m.ID, node)
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		if p, ok := g.tracker.Answer(dir, m.ID); ok {
			return p
		}
	}
	return ""
}

// build appends to dst the triples of a record classified as m and paired
// as p. It reads only what does not change during a log, so several
// goroutines may build the records of one log at once.
func (g *LogGraph) build(dst []rdf.Triple, rec *rpclog.Record, pos int, m jsonrpc.Message, p pairing) ([]rdf.Triple, []diag.Diagnostic, error) {
	out := dst
	if p.first {
		out = append(out, rdf.T(g.node, rdf.RDFType, objLog))
	}
	if m.Kind == jsonrpc.KindInvalid {
		return out, nil, fmt.Errorf("not a JSON-RPC 2.0 message: %v", m.Err())
	}
	node := rdf.NewIRI(g.MessageIRI(rec.Dir, pos))
	if m.Kind == jsonrpc.KindBatch {
		out = append(out, rdf.T(node, rdf.RDFType, objBatch))
	} else {
		out = append(out, rdf.T(node, rdf.RDFType, kindObject(m.Kind)))
	}
	out = append(out,
		rdf.T(node, rdf.JLogInLog, g.node),
		rdf.T(node, rdf.JLogPosition, rdf.NewLiteral(strconv.Itoa(pos), rdf.XSDInteger)),
	)
	switch rec.Dir {
	case jsonrpc.ClientToServer:
		out = append(out, rdf.T(node, rdf.JLogDirection, objClientServer))
	case jsonrpc.ServerToClient:
		out = append(out, rdf.T(node, rdf.JLogDirection, objServerClient))
	}
	if rec.TS != "" {
		out = append(out, rdf.T(node, rdf.JLogTimestamp, jlog.Timestamp(rec.TS)))
	}
	if m.Kind != jsonrpc.KindBatch {
		obj, _ := rec.Value.(map[string]any)
		return g.message(out, node, pos, m, p.answers, obj, jlog.MessageBlanks(g.blank, pos))
	}
	arr, _ := rec.Value.([]any)
	var notices []diag.Diagnostic
	var errs []string
	for i, mm := range m.Members {
		if mm.Kind == jsonrpc.KindInvalid || i >= len(arr) {
			errs = append(errs, fmt.Sprintf("member %d is not a JSON-RPC 2.0 message: %v", i, mm.Err()))
			continue
		}
		mnode := rdf.NewIRI(jlog.MemberIRI(node.Value, i))
		out = append(out,
			rdf.T(node, rdf.JLogMember, mnode),
			rdf.T(mnode, rdf.RDFType, kindObject(mm.Kind)),
			rdf.T(mnode, rdf.JLogMemberIndex, rdf.NewLiteral(strconv.Itoa(i), rdf.XSDInteger)),
		)
		obj, _ := arr[i].(map[string]any)
		var ns []diag.Diagnostic
		var err error
		out, ns, err = g.message(out, mnode, pos, mm, p.members[i], obj, jlog.MemberBlanks(g.blank, pos, i))
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
// type the caller has written; answers is the request it answers, if any.
func (g *LogGraph) message(out []rdf.Triple, node rdf.Term, pos int, m jsonrpc.Message, answers string, obj map[string]any, blank string) ([]rdf.Triple, []diag.Diagnostic, error) {
	switch m.Kind {
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		if answers != "" {
			out = append(out, rdf.T(node, rdf.JLogAnswers, rdf.NewIRI(answers)))
		} else {
			out = append(out, rdf.T(node, rdf.RDFType, objOrphan))
		}
	}
	var idTriple []rdf.Triple
	if m.HasID {
		out = append(out, rdf.T(node, rdf.JLogID, jlog.IDLiteral(m.ID)))
		idTriple = out[len(out)-1:]
	}
	start := len(out)
	out, left, changes, whole, err := g.mapping.mapInto(out, obj, node.Value, blank)
	if err != nil {
		return out[:start], noticesOf(left, changes), err
	}
	if _, ok := obj["id"]; ok && !m.HasID {
		whole = false
	}
	var patch string
	if !whole {
		materialize(obj)
		// Only reading the triples back tells what they lose.
		patch, err = g.mapping.patch(obj, node.Value, out[start:], idTriple)
		if err != nil {
			return out, noticesOf(left, changes), err
		}
	}
	if patch != "" {
		out = append(out, rdf.T(node, rdf.JLogPatch, rdf.NewLiteral(patch, rdf.XSDString)))
	}
	// What the mapping leaves out or changes, jlog:id and jlog:patch keep
	// exactly: nothing to tell, but that members named like JSON-LD
	// keywords were taken as data.
	var notices []diag.Diagnostic
	for _, l := range left {
		if l.atKey {
			l.Message += " (jlog:patch keeps it)"
			notices = append(notices, l.Diagnostic)
		}
	}
	return out, notices, nil
}

// noticesOf returns all the notices of a message the patch does not carry.
func noticesOf(left []leftOut, changes []jcs.Change) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, l := range left {
		out = append(out, l.Diagnostic)
	}
	for _, c := range changes {
		out = append(out, changed(c))
	}
	return out
}

// patch returns the JSON text of the JSON Patch that turns what the way
// back makes of the message's triples (and its jlog:id) into obj, the
// message as sent; "" when they are the same. Whatever the mapping loses,
// the patch carries exactly, so there is nothing more to tell the user.
func (m *Mapping) patch(obj map[string]any, node string, triples, id []rdf.Triple) (string, error) {
	return wire.Patch(m.scope, obj, node, triples, id)
}

// kindObject returns the jrpc class of a message kind.
func kindObject(k jsonrpc.Kind) rdf.Term {
	switch k {
	case jsonrpc.KindRequest:
		return objRequest
	case jsonrpc.KindNotification:
		return objNotification
	case jsonrpc.KindResponse:
		return objResponse
	case jsonrpc.KindErrorResponse:
		return objErrorResponse
	}
	return objBatch
}

// The objects of the log layer's statements.
var (
	objLog           = rdf.NewIRI(rdf.JLogLog)
	objBatch         = rdf.NewIRI(rdf.JLogBatch)
	objOrphan        = rdf.NewIRI(rdf.JLogOrphanResponse)
	objUnanswered    = rdf.NewIRI(rdf.JLogUnansweredRequest)
	objClientServer  = rdf.NewIRI(rdf.JLogClientToServer)
	objServerClient  = rdf.NewIRI(rdf.JLogServerToClient)
	objRequest       = rdf.NewIRI(rdf.JRPCRequest)
	objNotification  = rdf.NewIRI(rdf.JRPCNotification)
	objResponse      = rdf.NewIRI(rdf.JRPCResponse)
	objErrorResponse = rdf.NewIRI(rdf.JRPCErrorResponse)
)

// Close returns the triples known only at the end of the log: the requests
// no response answered.
func (g *LogGraph) Close() []rdf.Triple {
	var out []rdf.Triple
	for _, node := range g.tracker.Open() {
		out = append(out, rdf.T(rdf.NewIRI(node), rdf.RDFType, objUnanswered))
	}
	return out
}
