package convert

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// LogGraph turns the messages of one log, in order, into one connected
// graph: each message is a node with a stable IRI built from the log's IRI,
// its direction and its position; it is typed by its kind, carries its
// direction, position, time and id, and a response is linked to the request
// it answers. The message's own content is mapped by the block's context.
//
// Message pairs and builds each record in turn. A log read in parts
// elsewhere (on several machines) can be converted with the same code:
// PairEntries gives what each record contributes to the pairing, a Pairer
// replays it for one id at a time, Build makes the triples of a record
// given its Pairing, and UnansweredTriples types the requests left open.
type LogGraph struct {
	iri     string
	node    rdf.Term // the log's
	mapping *Mapping
	pairer  *Pairer
	entries []PairEntry // scratch of pair
	blank   string      // blank-node label prefix unique to this log
	// findings are the rules each message breaks, by position; see
	// SetFindings.
	findings map[int][]diag.Diagnostic
	started  bool
	// numericTS and oddTS are set once an envelope "ts" that is a number,
	// or a string that is no xsd:dateTime, has been noted: each notice is
	// given once per log.
	numericTS, oddTS atomic.Bool
}

// NewLogGraph returns a LogGraph for the log with the given IRI, mapping
// message content with m.
func NewLogGraph(logIRI string, m *Mapping) *LogGraph {
	return &LogGraph{iri: logIRI, node: rdf.NewIRI(logIRI), mapping: m, pairer: NewPairer(logIRI), blank: jlog.BlankPrefix(logIRI)}
}

// SetFindings gives the rules the log's messages break, by position (from
// 1), as a check across them found them (package mcp/rules): each one's
// Rule, Severity, Message, Pointer and Help. Each is written as a
// jlog:Finding node its message links with jlog:finding; one whose pointer
// points into a member of a batch (/N...) is that member's, with the
// pointer into the member. Call it before the first message.
func (g *LogGraph) SetFindings(findings map[int][]diag.Diagnostic) { g.findings = findings }

// MessageIRI returns the IRI of the message at position pos (from 1) sent in
// direction dir.
func (g *LogGraph) MessageIRI(dir jsonrpc.Direction, pos int) string {
	return jlog.MessageIRI(g.iri, dir, pos)
}

// Message returns the triples of one record of the log; pos is its position
// (from 1). The notices tell what the mapping could not carry, and what was
// left out because it cannot be written as RDF. A message that breaks the
// JSON-RPC rules is kept too, typed jlog:InvalidMessage (see Build).
func (g *LogGraph) Message(rec *rpclog.Record, pos int) ([]rdf.Triple, []diag.Diagnostic, error) {
	m := rpclog.Classify(rec)
	return g.build(nil, rec, pos, m, g.pair(rec, pos, m), true, nil)
}

// Pairing is what the order of a log decides about one record: whether it
// is the first record of the log that could be read (which carries the
// statement typing the log), and the IRI of the request the message, or
// each member of a batch, answers ("" for none: a response to nothing is
// typed jlog:OrphanResponse).
type Pairing struct {
	First   bool
	Answers string
	Members []string // for a batch: one per member of m.Members

	// node and blanks are the message's IRI and blank node prefix when
	// pairing made them (for a request, which it records): build then
	// need not make them again.
	node, blanks string
}

// pair takes the next record of the log, classified as m, in order: the
// part of a message's triples that depends on the records before it. The
// rest (build) may then run on any goroutine.
func (g *LogGraph) pair(rec *rpclog.Record, pos int, m jsonrpc.Message) Pairing {
	p := Pairing{First: !g.started}
	g.started = true
	if m.Kind == jsonrpc.KindBatch {
		p.Members = make([]string, len(m.Members))
	}
	g.entries = PairEntries(g.entries[:0], rec, pos, m)
	for _, e := range g.entries {
		if e.Member < 0 && e.Kind == jsonrpc.KindRequest {
			p.node, p.blanks = jlog.MessageNames(g.iri, g.blank, rec.Dir, pos)
		}
		a := g.pairer.pair(e, p.node)
		if e.Member < 0 {
			p.Answers = a
		} else {
			p.Members[e.Member] = a
		}
	}
	return p
}

// PairEntry is one message of a log as pairing sees it: a request, or a
// response that may answer one. Pairing only ever links entries with the
// same ID, so the entries of a log can be grouped by ID and each group
// replayed on its own, in log order (Pos, then Member).
type PairEntry struct {
	Pos    int               // the record's position in the log, from 1
	Member int               // the index of the batch member, or -1 for the record itself
	Dir    jsonrpc.Direction // the direction it was sent in
	Kind   jsonrpc.Kind      // KindRequest, KindResponse or KindErrorResponse
	ID     string            // its id, as jsonrpc.IDKey gives it
	// Session is the MCP session of its record (rpclog.Record.Session):
	// a response answers a request of its own session only.
	Session string
}

// PairEntries appends to dst the entries of a record at position pos,
// classified as m: its request or response, or those of a batch's members.
// Notifications have none, nor has a message that breaks the rules unless
// it has the shape of a request or response and an id a message may have
// (it then pairs as that shape).
func PairEntries(dst []PairEntry, rec *rpclog.Record, pos int, m jsonrpc.Message) []PairEntry {
	if m.Kind != jsonrpc.KindBatch {
		return appendEntry(dst, PairEntry{Pos: pos, Member: -1, Dir: rec.Dir, Session: rec.Session}, m)
	}
	arr, _ := rec.Value.([]any)
	for i, mm := range m.Members {
		if i < len(arr) {
			dst = appendEntry(dst, PairEntry{Pos: pos, Member: i, Dir: rec.Dir, Session: rec.Session}, mm)
		}
	}
	return dst
}

// appendEntry appends e for the message m when it takes part in pairing.
func appendEntry(dst []PairEntry, e PairEntry, m jsonrpc.Message) []PairEntry {
	kind := m.Kind
	if kind == jsonrpc.KindInvalid {
		if !usableID(m) {
			return dst
		}
		kind = m.Shape
	}
	switch kind {
	case jsonrpc.KindRequest, jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		e.Kind, e.ID = kind, jsonrpc.IDKey(m.ID)
		return append(dst, e)
	}
	return dst
}

// Pairer links the responses of one log to the requests they answer: a
// response answers the latest open request with the same id sent the
// other way (in a log without directions, sent at all), in the same MCP
// session (PairEntry.Session). It is fed the
// entries of the log in order, all of them or those of some ids only.
// Like jsonrpc.Tracker, it forgets the oldest requests beyond
// jsonrpc.DefaultOpenLimit open at once.
type Pairer struct {
	log     string
	tracker *jsonrpc.Tracker[string]
}

// NewPairer returns a Pairer for the log with the given IRI.
func NewPairer(logIRI string) *Pairer {
	return &Pairer{log: logIRI, tracker: jsonrpc.NewTracker[string](0)}
}

// Node returns the IRI of the message of an entry of the log logIRI.
func (e PairEntry) Node(logIRI string) string {
	node := jlog.MessageIRI(logIRI, e.Dir, e.Pos)
	if e.Member >= 0 {
		node = jlog.MemberIRI(node, e.Member)
	}
	return node
}

// Pair takes the next entry of the log: it records a request as open, or
// returns the IRI of the request a response answers ("" for none).
func (p *Pairer) Pair(e PairEntry) string { return p.pair(e, "") }

// pair is Pair given the IRI of e's message when the caller has made it
// ("" when not; for a request, which is recorded by its IRI).
func (p *Pairer) pair(e PairEntry, node string) string {
	// The key stands for the id: keys are equal exactly when ids are.
	switch e.Kind {
	case jsonrpc.KindRequest:
		if node == "" {
			node = e.Node(p.log)
		}
		p.tracker.RequestIn(e.Session, e.Dir, jsonrpc.IDOf(e.ID), node)
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		if node, ok := p.tracker.AnswerIn(e.Session, e.Dir, jsonrpc.IDOf(e.ID)); ok {
			return node
		}
	}
	return ""
}

// Unanswered returns the IRIs of the requests still open, in the order
// they were made.
func (p *Pairer) Unanswered() []string { return p.tracker.Open() }

// UnansweredTriples returns the statements that type the requests nodes
// (IRIs, from Pairer.Unanswered) as answered by nothing, which only the
// end of the log tells.
func UnansweredTriples(nodes []string) []rdf.Triple {
	var out []rdf.Triple
	for _, node := range nodes {
		out = append(out, rdf.T(rdf.NewIRI(node), rdf.RDFType, objUnanswered))
	}
	return out
}

// Build returns the triples of a record at position pos (from 1),
// classified as m (by rpclog.Classify), whose place in the log is p,
// appended to dst: those Message gives when the records before it in the
// log have been paired. Statements that cannot be written as RDF are left
// out, with a notice. Several goroutines may build the records of one log
// at once.
func (g *LogGraph) Build(dst []rdf.Triple, rec *rpclog.Record, pos int, m jsonrpc.Message, p Pairing) ([]rdf.Triple, []diag.Diagnostic, error) {
	return g.build(dst, rec, pos, m, p, true, nil)
}

// build appends to dst the triples of a record classified as m and paired
// as p. It reads only what does not change during a log, so several
// goroutines may build the records of one log at once.
//
// A message that breaks the JSON-RPC rules (or a value that is no message
// at all) is kept: typed jlog:InvalidMessage and, when it has the shape of
// one, with its kind; its JSON text exactly as sent in jlog:json, its
// problems as jlog:problem nodes, its jlog:id when it has a usable one, and
// paired as its shape says. Its content is mapped too, but for the members
// that hold a string with a lone surrogate (rec.Surrogates), which no RDF
// literal can hold. With checked, statements that cannot be written
// as RDF (an IRI made of a string that is no IRI, such as "@id") are left
// out, with a notice; jlog:patch then keeps their values.
//
// With arena, the lexical forms of rdf:JSON literals are written into
// *arena, appended to it, and the literals' strings point into it: the
// triples are then valid until *arena is written again, which the caller
// does only once it is done with them.
func (g *LogGraph) build(dst []rdf.Triple, rec *rpclog.Record, pos int, m jsonrpc.Message, p Pairing, checked bool, arena *[]byte) ([]rdf.Triple, []diag.Diagnostic, error) {
	out, notices, err := g.buildRecord(dst, rec, pos, m, p, checked, arena)
	if fs := g.findings[pos]; len(fs) > 0 {
		out = g.findingTriples(out, rec, pos, m, fs)
	}
	return out, notices, err
}

// findingTriples appends the jlog:Finding nodes of fs, the findings of the
// record rec at position pos, classified as m.
func (g *LogGraph) findingTriples(out []rdf.Triple, rec *rpclog.Record, pos int, m jsonrpc.Message, fs []diag.Diagnostic) []rdf.Triple {
	iri, blanks := jlog.MessageNames(g.iri, g.blank, rec.Dir, pos)
	for k, d := range fs {
		node, ptr := iri, d.Pointer
		if m.Kind == jsonrpc.KindBatch {
			if i, rest, ok := memberPointer(ptr, len(m.Members)); ok {
				node, ptr = jlog.MemberIRI(iri, i), rest
			}
		}
		b := rdf.NewBlank(blanks + "f" + strconv.Itoa(k))
		sev := objSHViolation
		if d.Severity == diag.Warning {
			sev = objSHWarning
		}
		out = append(out,
			rdf.T(rdf.NewIRI(node), rdf.JLogFinding, b),
			rdf.T(b, rdf.RDFType, objFinding),
			rdf.T(b, rdf.JLogRule, rdf.NewLiteral(d.Rule, rdf.XSDString)),
			rdf.T(b, rdf.JLogSeverity, sev),
			rdf.T(b, rdf.JLogMessage, rdf.NewLiteral(d.Message, rdf.XSDString)),
			rdf.T(b, rdf.JLogPointer, rdf.NewLiteral(ptr, rdf.XSDString)))
		if rdf.CheckIRI(d.Help) == nil {
			out = append(out, rdf.T(b, rdf.RDFSSeeAlso, rdf.NewIRI(d.Help)))
		}
	}
	return out
}

// memberPointer returns the member a JSON pointer into a batch of n
// members points into ("/2/id": 2), and the pointer into that member
// ("/id"); false for one that points into no member.
func memberPointer(ptr string, n int) (int, string, bool) {
	if !strings.HasPrefix(ptr, "/") {
		return 0, "", false
	}
	tok, rest, _ := strings.Cut(ptr[1:], "/")
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || i >= n || strconv.Itoa(i) != tok {
		return 0, "", false
	}
	if rest != "" {
		rest = "/" + rest
	}
	return i, rest, true
}

// buildRecord is build without the record's findings.
func (g *LogGraph) buildRecord(dst []rdf.Triple, rec *rpclog.Record, pos int, m jsonrpc.Message, p Pairing, checked bool, arena *[]byte) ([]rdf.Triple, []diag.Diagnostic, error) {
	out := dst
	if p.First {
		out = append(out, rdf.T(g.node, rdf.RDFType, objLog))
	}
	iri, blanks := p.node, p.blanks
	if iri == "" {
		iri, blanks = jlog.MessageNames(g.iri, g.blank, rec.Dir, pos)
	}
	node := rdf.NewIRI(iri)
	switch m.Kind {
	case jsonrpc.KindBatch:
		out = append(out, rdf.T(node, rdf.RDFType, objBatch))
	case jsonrpc.KindInvalid:
		out = append(out, rdf.T(node, rdf.RDFType, objInvalid))
		if m.Shape != jsonrpc.KindInvalid {
			out = append(out, rdf.T(node, rdf.RDFType, kindObject(m.Shape)))
		}
	default:
		out = append(out, rdf.T(node, rdf.RDFType, kindObject(m.Kind)))
	}
	out = append(out,
		rdf.T(node, rdf.JLogInLog, g.node),
		rdf.T(node, rdf.JLogPosition, rdf.NewLiteral(positionText(iri, pos), rdf.XSDInteger)),
	)
	out, notices := g.envelope(out, node, rec, blanks)
	if rec.Bytes {
		out, notices = bytesMessage(out, node, rec, blanks, notices)
		return out, notices, nil
	}
	switch m.Kind {
	case jsonrpc.KindInvalid:
		notices = append(notices, invalidNotice(m, ""))
		text := rec.Raw
		if len(text) == 0 {
			materialize(rec.Value)
			var err error
			if text, err = memberJSON(rec.Value); err != nil {
				return out, notices, err
			}
		}
		out = g.invalid(out, node, m, text, p.Answers, blanks)
		out, notices = g.content(out, node, loneFree(rec.Value, rec.Surrogates, ""), blanks, checked, notices, arena)
		return out, notices, nil
	case jsonrpc.KindBatch:
	default:
		obj, _ := rec.Value.(map[string]any)
		var ns []diag.Diagnostic
		var err error
		var typed *rpclog.Record
		if rec.Object != nil {
			typed = rec
		}
		out, ns, err = g.message(out, node, pos, m, p.Answers, obj, typed, blanks, checked, arena)
		return out, append(notices, ns...), err
	}
	arr, _ := rec.Value.([]any)
	var texts [][]byte // the members' texts, as written
	var errs []string
	for i, mm := range m.Members {
		if i >= len(arr) {
			break
		}
		mnode := rdf.NewIRI(jlog.MemberIRI(node.Value, i))
		out = append(out,
			rdf.T(node, rdf.JLogMember, mnode),
			rdf.T(mnode, rdf.JLogMemberIndex, rdf.NewLiteral(strconv.Itoa(i), rdf.XSDInteger)),
		)
		mblanks := jlog.MemberBlanks(g.blank, pos, i)
		if mm.Kind == jsonrpc.KindInvalid {
			out = append(out, rdf.T(mnode, rdf.RDFType, objInvalid))
			if mm.Shape != jsonrpc.KindInvalid {
				out = append(out, rdf.T(mnode, rdf.RDFType, kindObject(mm.Shape)))
			}
			if texts == nil {
				if texts = jsonparse.Elements(rec.Raw); len(texts) != len(arr) {
					texts = [][]byte{} // no text (or not this one's): written from the value
				}
			}
			var text []byte
			if i < len(texts) {
				text = texts[i]
			} else {
				materialize(arr[i])
				var err error
				if text, err = memberJSON(arr[i]); err != nil {
					errs = append(errs, fmt.Sprintf("member %d: %v", i, err))
					continue
				}
			}
			// The member's problems point into the member, not the batch.
			pre := "/" + strconv.Itoa(i)
			for k, d := range mm.Diagnostics {
				if d.Pointer == pre || strings.HasPrefix(d.Pointer, pre+"/") {
					mm.Diagnostics[k].Pointer = d.Pointer[len(pre):]
				}
			}
			notices = append(notices, invalidNotice(mm, fmt.Sprintf("member %d ", i)))
			out = g.invalid(out, mnode, mm, text, p.Members[i], mblanks)
			var ns []diag.Diagnostic
			out, ns = g.content(out, mnode, loneFree(arr[i], rec.Surrogates, pre), mblanks, checked, nil, arena)
			for _, n := range ns {
				n.Pointer = "/" + strconv.Itoa(i) + n.Pointer
				notices = append(notices, n)
			}
			continue
		}
		out = append(out, rdf.T(mnode, rdf.RDFType, kindObject(mm.Kind)))
		obj, _ := arr[i].(map[string]any)
		var ns []diag.Diagnostic
		var err error
		out, ns, err = g.message(out, mnode, pos, mm, p.Members[i], obj, nil, mblanks, checked, arena)
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

// positionText returns strconv.Itoa(pos) without allocating it: the
// message IRI iri (jlog.MessageIRI) ends with it.
func positionText(iri string, pos int) string {
	n := 1
	for x := pos; x >= 10; x /= 10 {
		n++
	}
	if pos < 0 || n > len(iri) {
		return strconv.Itoa(pos)
	}
	return iri[len(iri)-n:]
}

// envelope appends what the log's envelope said of the message at node:
// its direction and time, exactly (a "ts" that is not a valid xsd:dateTime
// as a plain string; one that is not a string as JSON text, and a number
// also as the time it stands for, read as milliseconds since 1970; a "dir"
// that is neither "c2s" nor "s2c" as JSON text), and what is wrong with it.
func (g *LogGraph) envelope(out []rdf.Triple, node rdf.Term, rec *rpclog.Record, blanks string) ([]rdf.Triple, []diag.Diagnostic) {
	var notices []diag.Diagnostic
	switch rec.Dir {
	case jsonrpc.ClientToServer:
		out = append(out, rdf.T(node, rdf.JLogDirection, objClientServer))
	case jsonrpc.ServerToClient:
		out = append(out, rdf.T(node, rdf.JLogDirection, objServerClient))
	}
	if rec.DirRaw != "" {
		out = append(out, rdf.T(node, rdf.JLogRawDirection, rdf.NewLiteral(rec.DirRaw, rdf.XSDString)))
	}
	if rec.Session != "" {
		out = append(out, rdf.T(node, rdf.JLogSession, rdf.NewLiteral(rec.Session, rdf.XSDString)))
	}
	switch {
	case rec.TS != "":
		ts := jlog.Timestamp(rec.TS)
		out = append(out, rdf.T(node, rdf.JLogTimestamp, ts))
		if ts.Datatype != rdf.XSDDateTime && g.oddTS.CompareAndSwap(false, true) {
			notices = append(notices, diag.Diagnostic{Pointer: "/ts", Severity: diag.Warning,
				Message: fmt.Sprintf(`envelope "ts" %q is not a valid xsd:dateTime: kept as a string (said once per log)`, rec.TS)})
		}
	case rec.TSRaw != "":
		out = append(out, rdf.T(node, rdf.JLogRawTimestamp, rdf.NewLiteral(rec.TSRaw, rdf.XSDString)))
		if t, ok := jlog.EpochMillis(rec.TSRaw); ok {
			out = append(out, rdf.T(node, rdf.JLogTimestamp, rdf.NewLiteral(t, rdf.XSDDateTime)))
			if g.numericTS.CompareAndSwap(false, true) {
				notices = append(notices, diag.Diagnostic{Pointer: "/ts", Severity: diag.Warning,
					Message: fmt.Sprintf(`envelope "ts" %s is a number: read as milliseconds since 1970-01-01T00:00:00Z (%s); jlog:rawTimestamp keeps it (said once per log)`, rec.TSRaw, t)})
			}
		}
	}
	for i, p := range rec.Problems {
		out = problem(out, node, rdf.NewBlank(blanks+"e"+strconv.Itoa(i)), p)
		notices = append(notices, diag.Diagnostic{Pointer: p.Pointer, Code: p.Code, Severity: diag.Warning, Message: p.Message})
	}
	for _, w := range rec.Warnings {
		notices = append(notices, diag.Diagnostic{Pointer: w.Pointer, Code: w.Code, Severity: diag.Warning, Message: w.Message})
	}
	return out, notices
}

// bytesMessage appends the statements of a record that holds the exact
// bytes of a message that is no JSON text (rec.Bytes), typed
// jlog:InvalidMessage: its bytes in jlog:bytes, and why they are no JSON
// text (rec.Err) as a problem and a notice.
func bytesMessage(out []rdf.Triple, node rdf.Term, rec *rpclog.Record, blanks string, notices []diag.Diagnostic) ([]rdf.Triple, []diag.Diagnostic) {
	d := diag.Diagnostic{Code: jsonrpc.CodeParseError, Severity: diag.Error, Message: rec.Err.Error()}
	var re *diag.Diagnostic
	if errors.As(rec.Err, &re) {
		d = *re
	}
	out = append(out, rdf.T(node, rdf.JLogBytes, rdf.NewLiteral(base64.StdEncoding.EncodeToString(rec.Raw), rdf.XSDBase64Binary)))
	out = problem(out, node, rdf.NewBlank(blanks+"p0"), d)
	return out, append(notices, diag.Diagnostic{Code: d.Code, Severity: diag.Warning,
		Message: "not JSON text, kept as jlog:InvalidMessage with its exact bytes in jlog:bytes: " + d.Message})
}

// invalid appends the statements of a message that breaks the rules,
// classified as m, whose JSON text is text.
func (g *LogGraph) invalid(out []rdf.Triple, node rdf.Term, m jsonrpc.Message, text []byte, answers string, blanks string) []rdf.Triple {
	if answers != "" {
		out = append(out, rdf.T(node, rdf.JLogAnswers, rdf.NewIRI(answers)))
	}
	if usableID(m) {
		out = append(out, rdf.T(node, rdf.JLogID, jlog.IDLiteral(m.ID)))
	}
	// The text as a string: an rdf:JSON literal stands for its value, whose
	// canonical form would change numbers and member order.
	out = append(out, rdf.T(node, rdf.JLogJSON, rdf.NewLiteral(string(text), rdf.XSDString)))
	k := 0
	for _, d := range m.Diagnostics {
		if d.Severity == diag.Error {
			out = problem(out, node, rdf.NewBlank(blanks+"p"+strconv.Itoa(k)), d)
			k++
		}
	}
	return out
}

// content appends the statements the block's context gives for the members
// of v, a message that breaks the rules, when it is an object: as a JSON-LD
// processor expands it with the same context (jrpc:version, jrpc:hasId,
// jrpc:hasMethod, ...). jlog:json keeps the message exactly, so what the
// mapping leaves out needs no patch and no notice; a mapping that fails
// leaves the content out, with a notice. With checked, statements that
// cannot be written as RDF are left out, with a notice.
func (g *LogGraph) content(out []rdf.Triple, node rdf.Term, v any, blanks string, checked bool, notices []diag.Diagnostic, arena *[]byte) ([]rdf.Triple, []diag.Diagnostic) {
	obj, ok := v.(map[string]any)
	if !ok || len(obj) == 0 {
		return out, notices // nothing to map (json-gold fails on {})
	}
	start := len(out)
	out, _, _, _, _, err := g.mapping.mapInto(out, obj, node.Value, blanks, arena)
	if err != nil {
		return out[:start], append(notices, diag.Diagnostic{Severity: diag.Warning,
			Message: fmt.Sprintf("the message's content is not mapped to RDF (%v); jlog:json keeps it", err)})
	}
	if checked {
		n, dropped := dropUnwritable(out[start:])
		out = out[:start+n]
		for _, d := range dropped {
			d.Message = strings.Replace(d.Message, "jlog:patch", "jlog:json", 1)
			notices = append(notices, d)
		}
	}
	return out, notices
}

// loneFree returns v, a message, or the member at the JSON pointer at of a
// batch, without the members that hold a string with a lone surrogate
// escape (lones, the errors of rpclog.Record.Surrogates, with pointers from
// the record's value): a copy without them, or v itself when it has none.
// A member is left out whole, not only the string: the mapping may write a
// member as one rdf:JSON literal, which would then say less than the
// message did.
func loneFree(v any, lones []diag.Diagnostic, at string) any {
	obj, isObj := v.(map[string]any)
	if !isObj {
		return v
	}
	copied := false
	for _, d := range lones {
		rest, ok := strings.CutPrefix(d.Pointer, at+"/")
		if !ok {
			continue
		}
		tok, _, _ := strings.Cut(rest, "/")
		k := pointerToken.Replace(tok)
		if _, ok := obj[k]; !ok {
			continue
		}
		if !copied {
			obj, copied = maps.Clone(obj), true
		}
		delete(obj, k)
	}
	return obj
}

// pointerToken unescapes a reference token of a JSON pointer.
var pointerToken = strings.NewReplacer("~1", "/", "~0", "~")

// invalidNotice tells that a message (or a batch member, what names it)
// that breaks the rules is kept, and why it breaks them.
func invalidNotice(m jsonrpc.Message, what string) diag.Diagnostic {
	d := diag.Diagnostic{Code: jsonrpc.CodeInvalidRequest, Severity: diag.Warning}
	why := "it breaks the rules"
	for _, p := range m.AllDiagnostics() {
		if p.Severity == diag.Error {
			why, d.Pointer = p.Message, p.Pointer
			break
		}
	}
	d.Message = what + "not a JSON-RPC 2.0 message, kept as jlog:InvalidMessage: " + why
	return d
}

// problem appends a jlog:problem node b of node for d.
func problem(out []rdf.Triple, node, b rdf.Term, d diag.Diagnostic) []rdf.Triple {
	code := d.Code
	if code == 0 {
		code = jsonrpc.CodeInvalidRequest
	}
	return append(out,
		rdf.T(node, rdf.JLogProblem, b),
		rdf.T(b, rdf.RDFType, objProblem),
		rdf.T(b, rdf.JLogCode, rdf.NewLiteral(strconv.Itoa(code), rdf.XSDInteger)),
		rdf.T(b, rdf.JLogMessage, rdf.NewLiteral(d.Message, rdf.XSDString)),
		rdf.T(b, rdf.JLogPointer, rdf.NewLiteral(d.Pointer, rdf.XSDString)),
	)
}

// usableID reports whether m has an id of a type messages may have
// (a string, a number or null), which pairs and jlog:id can carry.
func usableID(m jsonrpc.Message) bool {
	if !m.HasID {
		return false
	}
	switch m.ID.(type) {
	case nil, string, json.Number:
		return true
	}
	return false
}

// memberJSON returns the JSON text of a decoded batch member whose text is
// not known: the same JSON value (object members sorted, numbers as
// written).
func memberJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// message appends the triples of one (non-batch) message at node, whose
// type the caller has written; answers is the request it answers, if any.
// The message is obj, or typed, when it was read typed (obj is then nil).
func (g *LogGraph) message(out []rdf.Triple, node rdf.Term, pos int, m jsonrpc.Message, answers string, obj map[string]any, typed *rpclog.Record, blank string, checked bool, arena *[]byte) ([]rdf.Triple, []diag.Diagnostic, error) {
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
	var left []leftOut
	var changes []jcs.Change
	var whole bool
	var fix string // the patch, when the mapping knows it (whole is then false)
	var err error
	if typed != nil {
		out, left, changes, whole, fix, obj, err = g.mapping.mapTyped(out, typed, node.Value, blank, arena)
	} else {
		out, left, changes, whole, fix, err = g.mapping.mapInto(out, obj, node.Value, blank, arena)
	}
	var failed []diag.Diagnostic
	if err != nil {
		// The JSON-LD processor failed on the message (json-gold has bugs
		// of its own, such as an empty member name next to numbers): it is
		// kept without the statements of its content, which jlog:patch
		// then holds whole.
		out, left, changes, whole, fix = out[:start], nil, nil, false, ""
		failed = append(failed, diag.Diagnostic{Severity: diag.Warning,
			Message: fmt.Sprintf("the message's content is not mapped to RDF (%v); jlog:patch keeps it", err)})
	}
	if typed == nil {
		if _, ok := obj["id"]; ok && !m.HasID {
			whole, fix = false, ""
		}
	}
	var dropped []diag.Diagnostic
	if checked {
		var n int
		n, dropped = dropUnwritable(out[start:])
		if n < len(out)-start {
			out = out[:start+n]
			whole, fix = false, ""
		}
	}
	patch := fix
	if !whole && fix == "" {
		if obj == nil {
			obj = g.mapping.typedValue(typed.Object)
		}
		materialize(obj)
		// Past a lone number the plan knows of (fixNumber), only reading
		// the triples back tells what they lose.
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
	notices := append(failed, dropped...)
	for _, l := range left {
		switch {
		case l.tell:
			notices = append(notices, l.Diagnostic)
		case l.atKey:
			l.Message += " (jlog:patch keeps it)"
			notices = append(notices, l.Diagnostic)
		}
	}
	return out, notices, nil
}

// unwritable is the notice of a statement of predicate p left out because
// a term of it cannot be written (err).
func unwritable(p string, err error) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning,
		Message: fmt.Sprintf("a statement of %s is left out: %v (the value is kept in jlog:patch)", p, err)}
}

// dropUnwritable moves the triples of ts that the writers can write to its
// front, in order, and returns how many there are, with a notice for each
// one left out.
func dropUnwritable(ts []rdf.Triple) (int, []diag.Diagnostic) {
	var notices []diag.Diagnostic
	n := 0
	for _, t := range ts {
		if err := rdf.CheckTriple(t); err != nil {
			notices = append(notices, unwritable(t.P, err))
			continue
		}
		ts[n] = t
		n++
	}
	return n, notices
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
	return wire.Patch(m.scope, obj, node, unescaped(triples), id)
}

// unescaped returns triples with their Escaped literals (rdf:JSON ones,
// made by jsonValue) as plain ones: a copy when there are any.
func unescaped(triples []rdf.Triple) []rdf.Triple {
	var out []rdf.Triple
	for i, t := range triples {
		if !t.O.Escaped {
			continue
		}
		if out == nil {
			out = slices.Clone(triples)
		}
		out[i].O.Value, out[i].O.Escaped = jcs.Unescape(t.O.Value), false
	}
	if out == nil {
		return triples
	}
	return out
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
	objInvalid       = rdf.NewIRI(rdf.JLogInvalidMessage)
	objProblem       = rdf.NewIRI(rdf.JLogNS + "Problem")
	objFinding       = rdf.NewIRI(rdf.JLogFindingClass)
	objSHViolation   = rdf.NewIRI(rdf.SHViolation)
	objSHWarning     = rdf.NewIRI(rdf.SHWarning)
)

// Close returns the triples known only at the end of the log: the requests
// no response answered.
func (g *LogGraph) Close() []rdf.Triple {
	return UnansweredTriples(g.pairer.Unanswered())
}
