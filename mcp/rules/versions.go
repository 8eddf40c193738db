package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/schema"
)

// Source says where the version of a span of a log was read.
type Source uint8

// The sources of a version.
const (
	Unknown     Source = iota // not known yet: Infer or Settle gives it one
	FromAnswer                // the server's answer to initialize
	FromRequest               // the client's initialize request, which the log does not answer
	FromMeta                  // io.modelcontextprotocol/protocolVersion in the _meta of requests
	FromTraffic               // inferred from the versions whose schemas accept the messages
	Given                     // given by the user
)

// String returns how the source is named in reports: "handshake",
// "request", "_meta", "inferred", "given" or "unknown".
func (s Source) String() string {
	switch s {
	case FromAnswer:
		return "handshake"
	case FromRequest:
		return "request"
	case FromMeta:
		return "_meta"
	case FromTraffic:
		return "inferred"
	case Given:
		return "given"
	}
	return "unknown"
}

// MetaVersion is the member of a request's _meta that carries its version
// where the protocol is stateless.
const MetaVersion = "io.modelcontextprotocol/protocolVersion"

// Span is a run of messages of a log that share an MCP version.
type Span struct {
	Start int // the position of its first message in the log, from 0
	Line  int // the line of its first message
	// ID is the MCP session of the span's messages as the log's envelopes
	// name it (see rpclog.Record.Session), "" when they name none. The
	// messages of a session are read apart from those of the others, so
	// that the spans of sessions that interleave in the log interleave
	// too: a span's messages are then not consecutive in the log.
	ID string
	// Session is from 1, in log order, for a session opened by an
	// initialize request; 0 for the messages of ID before its first.
	Session int
	// Handshake tells that the span's session starts with an initialize
	// request, its first message.
	Handshake bool
	// TwoSided tells that the log holds messages of both peers of the
	// span's session (by their directions, or, in a log without them,
	// requests or notifications and responses): not one side of it alone.
	TwoSided bool
	Version  string // "" while unknown
	Source   Source
	From     int    // the line the version was read from; 0 when none
	Why      string // for an inferred or given version: how it was chosen
	Messages int    // how many records of the log it holds
	answer   int    // 1 + the position of the server's answer to initialize; 0 for none
}

// Reason says in a sentence which version the span takes, and why.
func (s *Span) Reason() string {
	switch s.Source {
	case FromAnswer:
		return fmt.Sprintf("the server's answer to initialize, line %d", s.From)
	case FromRequest:
		return fmt.Sprintf("the client's initialize request, line %d: the log has no answer to it", s.From)
	case FromMeta:
		return fmt.Sprintf("the %s of the requests' _meta, from line %d", MetaVersion, s.From)
	case FromTraffic, Given:
		return s.Why
	}
	return "unknown"
}

// Versions is the version of each message of a log, as Scan found it: the
// log as spans of messages that share one.
type Versions struct {
	Spans    []Span // in the log order of their first messages, the first starting at 0
	Messages int    // records in the log
	// runs are the log as runs of consecutive messages of one span, as
	// Scan found them; nil when each span's messages are consecutive.
	runs []run
}

// run is a run of consecutive messages of a log in one span.
type run struct {
	start int // the position of its first message
	span  int // the index of its span in Versions.Spans
}

// Handshakes reports whether some session of the log starts with an
// initialize request.
func (v *Versions) Handshakes() bool {
	for i := range v.Spans {
		if v.Spans[i].Handshake {
			return true
		}
	}
	return false
}

// At returns the span of the index-th message; nil past the end of the
// log.
func (v *Versions) At(index int) *Span {
	if index < 0 || index >= v.Messages {
		return nil
	}
	if v.runs == nil {
		i := sort.Search(len(v.Spans), func(i int) bool { return v.Spans[i].Start > index }) - 1
		if i < 0 {
			return nil
		}
		return &v.Spans[i]
	}
	i := sort.Search(len(v.runs), func(i int) bool { return v.runs[i].start > index }) - 1
	if i < 0 {
		return nil
	}
	return &v.Spans[v.runs[i].span]
}

// scanner builds Versions record by record.
type scanner struct {
	v        Versions
	runs     []run
	sessions int                  // the sessions opened by initialize so far
	groups   map[string]*group    // by the envelopes' session
	g        *group               // the current record's
	sides    map[sessionKey]uint8 // 1 client (or a call), 2 server (or a response)
}

// group is what the scanner knows of the messages of one envelope session
// (all of a log without sessions).
type group struct {
	span    int    // the index of its current span
	initID  string // the key of the open initialize request's id, "" when none
	initDir jsonrpc.Direction
}

// sessionKey names a session of a log: its envelope session, and its
// number among those opened by initialize.
type sessionKey struct {
	id     string
	number int
}

// cur returns the span being built for the current record's session.
func (s *scanner) cur() *Span { return &s.v.Spans[s.g.span] }

// open starts a span of the current record's session at the record
// sp.Start.
func (s *scanner) open(sp Span) {
	sp.ID = s.cur().ID
	if c := s.cur(); c.Start == sp.Start {
		*c = sp // the span before holds no message
		return
	}
	s.g.span = len(s.v.Spans)
	s.v.Spans = append(s.v.Spans, sp)
}

// enter makes the group of the envelope session id, of the record index
// of line line, the current one; its first record opens its first span.
func (s *scanner) enter(id string, index, line int) {
	g := s.groups[id]
	if g == nil {
		g = &group{span: len(s.v.Spans)}
		s.groups[id] = g
		s.v.Spans = append(s.v.Spans, Span{Start: index, Line: line, ID: id})
	}
	s.g = g
}

// note adds the record index, just read, to the runs.
func (s *scanner) note(index int) {
	if n := len(s.runs); n == 0 || s.runs[n-1].span != s.g.span {
		s.runs = append(s.runs, run{start: index, span: s.g.span})
	}
}

// Scan reads the log r to its end and returns the version of each of its
// messages: a session opened by an initialize request takes the version of
// the server's answer (or, without one, of the request); a stateless
// version travels in each request's _meta (MetaVersion), and a message
// takes that of the latest request that had one. The messages before
// either are of Unknown version (see Infer and Settle). The error is an I/O
// error of r. Messages are read typed, their params and results decoded
// only where they may name a version.
func Scan(r *rpclog.Reader) (*Versions, error) {
	s := &scanner{groups: map[string]*group{}, sides: map[sessionKey]uint8{}}
	index := 0
	var err error
	for b := range r.Batches(rpclog.BatchOptions{Lazy: []string{"params", "result"}, Typed: true}, nil) {
		for i := range b.Records {
			rec := b.Records[i].Record
			s.v.Messages++
			s.enter(rec.Session, index, rec.Line)
			if rec.Err == nil {
				s.record(rec, index)
			}
			s.cur().Messages++
			s.note(index)
			index++
		}
		if b.Err != nil {
			err = b.Err
		}
		b.Done()
	}
	if len(s.v.Spans) == 0 {
		s.v.Spans = []Span{{}}
	}
	for i := range s.v.Spans {
		sp := &s.v.Spans[i]
		sp.TwoSided = s.sides[sessionKey{sp.ID, sp.Session}] == 3
	}
	if len(s.groups) > 1 {
		s.v.runs = s.runs
	}
	return &s.v, err
}

// fields are the members of a message object Scan looks at; params and
// result are decoded when asked for.
type fields struct {
	method         string
	id             any
	hasID          bool
	params, result any // an object, its undecoded text, or nil
}

// record notes what the message (or the members of the batch) of rec say
// of the version.
func (s *scanner) record(rec *rpclog.Record, index int) {
	if o := rec.Object; o != nil {
		f := fields{method: o.Method, id: o.ID, hasID: o.HasID}
		if o.Params != nil {
			f.params = jsonparse.Undecoded(o.Params)
		}
		if o.Result != nil {
			f.result = jsonparse.Undecoded(o.Result)
		}
		s.message(f, rec, index)
		return
	}
	msgs := []any{rec.Value}
	if batch, ok := rec.Value.([]any); ok {
		msgs = batch
	}
	for _, m := range msgs {
		obj, ok := m.(map[string]any)
		if !ok {
			continue
		}
		f := fields{params: obj["params"], result: obj["result"]}
		f.method, _ = obj["method"].(string)
		f.id, f.hasID = obj["id"]
		s.message(f, rec, index)
	}
}

// object returns v as an object: decoded, or decoded from its text.
func object(v any) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		return v
	case jsonparse.Undecoded:
		return decodeObject(v)
	}
	return nil
}

// mayName reports whether a request's params may name a stateless
// version: it holds the text MetaVersion.
func mayName(params any) bool {
	switch p := params.(type) {
	case jsonparse.Undecoded:
		return bytes.Contains(p, []byte(MetaVersion))
	case map[string]any:
		_, ok := p["_meta"]
		return ok
	}
	return false
}

// message notes what one message object says of the version.
func (s *scanner) message(f fields, rec *rpclog.Record, index int) {
	defer func() {
		k := sessionKey{s.cur().ID, s.cur().Session}
		switch {
		case rec.Dir == jsonrpc.ClientToServer:
			s.sides[k] |= 1
		case rec.Dir == jsonrpc.ServerToClient:
			s.sides[k] |= 2
		case f.method != "":
			s.sides[k] |= 1
		case f.hasID:
			s.sides[k] |= 2
		}
	}()
	g := s.g
	switch {
	case f.method == "initialize" && f.hasID && rec.Dir != jsonrpc.ServerToClient:
		c := s.cur()
		sp := Span{Start: index, Line: rec.Line, Session: s.sessions + 1, Handshake: true}
		if c.Start == index && c.Handshake {
			sp.Session = c.Session // a batch's second initialize: still this session
		} else {
			s.sessions++
		}
		if v, ok := object(f.params)["protocolVersion"].(string); ok {
			sp.Version, sp.Source, sp.From = v, FromRequest, rec.Line
		}
		s.open(sp)
		g.initID, g.initDir = jsonrpc.IDKey(f.id), rec.Dir
	case f.method == "" && f.hasID && g.initID != "" && jsonrpc.IDKey(f.id) == g.initID &&
		(g.initDir == jsonrpc.NoDirection || rec.Dir == g.initDir.Opposite()):
		g.initID = ""
		s.cur().answer = index + 1
		if v, ok := object(f.result)["protocolVersion"].(string); ok {
			c := s.cur()
			c.Version, c.Source, c.From = v, FromAnswer, rec.Line
		}
	case f.method != "" && f.hasID && mayName(f.params):
		meta, _ := object(f.params)["_meta"].(map[string]any)
		v, ok := meta[MetaVersion].(string)
		c := s.cur()
		switch {
		case !ok || c.Handshake || c.Version == v:
		case c.Source == Unknown:
			c.Version, c.Source, c.From = v, FromMeta, rec.Line
		default:
			s.open(Span{Start: index, Line: rec.Line, Session: c.Session, Version: v, Source: FromMeta, From: rec.Line})
		}
	}
}

// Settle gives the spans of unknown version the version v, from source
// (Given or FromTraffic), with why saying how it was chosen.
func (v *Versions) Settle(version string, source Source, why string) {
	for i := range v.Spans {
		if sp := &v.Spans[i]; sp.Source == Unknown {
			sp.Version, sp.Source, sp.Why = version, source, why
		}
	}
}

// Unsettled returns how many messages are of unknown version.
func (v *Versions) Unsettled() int {
	n := 0
	for i := range v.Spans {
		if v.Spans[i].Source == Unknown {
			n += v.Spans[i].Messages
		}
	}
	return n
}

// Schemas gives the compiled schema of each version it has
// (mcpschema.Set is one).
type Schemas interface {
	Versions() ([]string, error)
	Schema(version string) (*schema.Schema, error)
}

// Infer settles the spans of unknown version from their messages, read
// again from r (the same log, from its start): the first limit of them are
// checked against the schema of each version set has, and the newest of
// the versions whose schemas find the most of them valid, all where one
// does, is taken. The error is r's, or set's.
func (v *Versions) Infer(r *rpclog.Reader, set Schemas, limit int) error {
	if v.Unsettled() == 0 {
		return nil
	}
	names, err := set.Versions()
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("%w: no version to infer one from", ErrNoSchemas)
	}
	checkers := make([]*schema.Checker, len(names))
	for i, name := range names {
		s, err := set.Schema(name)
		if err != nil {
			return err
		}
		checkers[i], _ = schema.NewChecker(s, "") // cannot fail without a definition
	}
	valid := make([]int, len(names))
	read := 0
	for index := 0; read < limit; index++ {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if sp := v.At(index); sp == nil || sp.Source != Unknown || rec.Err != nil {
			continue
		}
		read++
		for i, c := range checkers {
			if m, ds := c.Check(rec.Value, rec.Dir, index); m.Valid() && !diag.HasErrors(ds) {
				valid[i]++
			}
		}
	}
	best := len(names) - 1
	for i := len(names) - 1; i >= 0; i-- {
		if valid[i] > valid[best] {
			best = i
		}
	}
	var accept []string
	for i := range names {
		if valid[i] == valid[best] {
			accept = append(accept, names[i])
		}
	}
	v.Settle(names[best], FromTraffic, inferred(accept, names[best], valid[best], read, read == limit))
	return nil
}

// inferred says why an inferred version was taken.
func inferred(accept []string, taken string, valid, read int, limited bool) string {
	of := "all " + strconv.Itoa(read) + " messages"
	if read == 1 {
		of = "its one message"
	}
	if limited {
		of = "all of its first " + strconv.Itoa(read) + " messages"
	}
	var b strings.Builder
	b.WriteString("inferred: no initialize handshake and no _meta version; ")
	switch {
	case read == 0:
		fmt.Fprintf(&b, "no message to infer from: %s, the newest", taken)
		return b.String()
	case valid == read && len(accept) == 1:
		fmt.Fprintf(&b, "the schema of %s accepts %s", taken, of)
	case valid == read:
		fmt.Fprintf(&b, "the schemas of %s accept %s", listVersions(accept), of)
	case len(accept) == 1:
		fmt.Fprintf(&b, "no schema accepts %s; that of %s accepts the most, %d", of, taken, valid)
	default:
		fmt.Fprintf(&b, "no schema accepts %s; those of %s accept the most, %d", of, listVersions(accept), valid)
	}
	if len(accept) > 1 {
		fmt.Fprintf(&b, "; the newest, %s, taken", taken)
	}
	return b.String()
}

// listVersions writes versions as "a", "a and b" or "a, b and c".
func listVersions(vs []string) string {
	if len(vs) <= 1 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " and " + vs[len(vs)-1]
}

// decodeObject decodes the JSON text of a message object, as
// encoding/json with UseNumber does; nil when it is not one.
func decodeObject(raw []byte) map[string]any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v map[string]any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}
