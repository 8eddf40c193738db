package wire

// The way back as a stream. jrpcld writes a log's statements message by
// message: all the statements about a message node, its blank nodes and
// its batch members come together, in log order, and only inert typings
// (jlog:UnansweredRequest) come later. Such input can be read back one
// group of statements at a time, in memory that does not grow with the
// log. Input that is laid out otherwise is recognised as such, and the
// caller reads it whole (ReadRDF and Logs).
//
// The RDF text is cut into chunks at statement ends and parsed on every
// core; one goroutine splits the statements into segments (a segment
// starts at each statement about an IRI that the segment does not know)
// and checks that no statement mentions a node of a segment already
// closed; the segments are read back on every core with the code of Logs
// and their messages handed on in order, once it is clear that they come
// in log order and without a problem.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ordered"
	"github.com/jrpcld/jrpcld/rdf"
)

func ungrouped(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUngrouped}, args...)...)
}

const (
	streamChunk = 256 << 10 // bytes of RDF text parsed at once, about
	streamJob   = 1024      // statements read back at once, about
)

// Stream reads the logs in RDF text (Turtle, N-Triples or N-Quads) from
// r and calls emit with each message, in the order of Logs, as soon as the
// statements of the messages around it are complete; its memory does not
// grow with the input. When it returns an error wrapping ErrUngrouped, the
// messages it emitted may differ from those of Logs: the caller discards
// them and reads the input whole. Any other error is one of r or of emit.
func (d *Decoder) Stream(r io.Reader, f rdf.Format, emit func(log string, m *Message) error) error {
	return d.stream(r, f, streamChunk, streamJob, emit)
}

// rchunk is a piece of RDF text and its statements.
type rchunk struct {
	seq      int
	data     []byte
	lineBase int               // add to a line of data to have the input's: lines before the chunk, less the prefix lines at its head
	prefixes map[string]string // Turtle: those declared before the statements
	parsed   bool
	quads    []rdf.Quad
	err      error
}

// rjob is a run of segments, read back.
type rjob struct {
	seq      int
	quads    []rdf.Quad
	logs     []Log
	problems []diag.Diagnostic
	err      error // what ended the stream here
}

func (d *Decoder) stream(r io.Reader, syntax rdf.Format, chunkSize, jobSize int, emit func(string, *Message) error) error {
	switch syntax {
	case rdf.Turtle, rdf.NTriples, rdf.NQuads:
	default:
		return ungrouped("%v is not read as a stream", syntax)
	}
	n := 2*ordered.Workers() + 2
	stop := make(chan struct{})
	// At most n chunks and n jobs are in flight: a stage takes a token
	// before it sends one on, and the next stage that keeps them in order
	// gives it back once done with it.
	chunkTokens := make(tokens, n)
	jobTokens := make(tokens, n)
	chunks := make(chan *rchunk, n)
	jobs := make(chan *rjob, n)
	// The text and statements of the chunks parsed and the statements of
	// the jobs read back, for those to come: at most n of each are in
	// flight, so n are kept.
	spareText := make(chan []byte, n)
	spareChunk := make(chan []rdf.Quad, n)
	spare := make(chan []rdf.Quad, n)
	go readChunks(r, syntax, chunkSize, chunkTokens, chunks, spareText, stop)
	parsed := ordered.Map(ordered.Workers(), chunks, func() func(*rchunk) {
		return func(c *rchunk) {
			if !c.parsed && c.err == nil {
				text := c.data
				c.parse(syntax, takeSpare(spareChunk))
				giveSpare(spareText, text[:0]) // the statements hold copies of their strings
			}
		}
	})
	go segment(parsed, jobSize, chunkTokens, jobTokens, jobs, spareChunk, spare, stop)
	built := ordered.Map(ordered.Workers(), jobs, func() func(*rjob) {
		return func(j *rjob) {
			if j.err == nil {
				j.logs, j.problems = d.read(j.quads, 1)
				clear(j.quads) // let go of the terms
				giveSpare(spare, j.quads[:0])
				j.quads = nil
			}
		}
	})

	// Once built is closed, every stage before has finished.
	e := emitter{emit: emit, finished: map[string]bool{}}
	var err error
	ordered.Reorder(built, func(j *rjob) int { return j.seq }, func(j *rjob) bool {
		err = e.job(j)
		jobTokens.give()
		if err != nil {
			close(stop)
			return false
		}
		return true
	})
	if err == io.EOF {
		err = nil
		if e.count == 0 {
			err = ungrouped("no messages")
		}
	}
	return err
}

// takeSpare returns a slice from spare, or nil when there is none.
func takeSpare[S any](spare <-chan S) S {
	select {
	case s := <-spare:
		return s
	default:
		var zero S
		return zero
	}
}

// giveSpare puts s in spare unless spare is full.
func giveSpare[S any](spare chan<- S, s S) {
	select {
	case spare <- s:
	default:
	}
}

// tokens bound the items in flight between two stages.
type tokens chan struct{}

// take takes a token, or returns false once stop is closed.
func (t tokens) take(stop <-chan struct{}) bool {
	select {
	case t <- struct{}{}:
		return true
	case <-stop:
		return false
	}
}

func (t tokens) give() { <-t }

// emitter checks the order of the messages read back and hands them on.
type emitter struct {
	emit     func(string, *Message) error
	log      string
	started  bool
	last     int64
	finished map[string]bool
	count    int
}

// job hands on the messages of j; io.EOF marks the end of the input.
func (e *emitter) job(j *rjob) error {
	if j.err != nil {
		return j.err
	}
	if len(j.problems) > 0 {
		return ungrouped("%s", j.problems[0])
	}
	for _, l := range j.logs {
		if !e.started || l.IRI != e.log {
			if e.started {
				e.finished[e.log] = true
			}
			if e.finished[l.IRI] {
				return ungrouped("log <%s> continues after another", l.IRI)
			}
			e.log, e.started, e.last = l.IRI, true, 0
			if len(l.Messages) > 0 {
				e.last = l.Messages[0].Position - 1
			}
		}
		for i := range l.Messages {
			m := &l.Messages[i]
			if m.Position <= e.last {
				return ungrouped("<%s> comes after a message at a later position", m.Node)
			}
			e.last = m.Position
			e.count++
			if err := e.emit(l.IRI, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// readChunks reads r and cuts it into chunks that end at the end of a
// statement, about size bytes each, and sends them on out in order; after
// the last comes one that carries io.EOF, or the read error. Turtle's
// chunks are parsed here up to the first with statements: the prefixes
// declared until then are written at the head of the others.
// A chunk's text goes in a slice of spare when there is one large enough.
func readChunks(r io.Reader, syntax rdf.Format, size int, tok tokens, out chan<- *rchunk, spare <-chan []byte, stop <-chan struct{}) {
	defer close(out)
	send := func(c *rchunk) bool {
		if !tok.take(stop) {
			return false
		}
		select {
		case out <- c:
			return true
		case <-stop:
			return false
		}
	}
	var head []byte // Turtle's prefixes, for the chunks after the first
	var prefixes map[string]string
	var carry []byte
	lines := 0 // of the input, in the chunks sent
	eof := false
	statements := false // Turtle: a chunk with statements has been read
	for seq := 0; ; seq++ {
		need := max(size, 2*(len(head)+len(carry)))
		buf := takeSpare(spare)
		if cap(buf) < need {
			buf = make([]byte, 0, need)
		}
		buf = append(append(buf, head...), carry...)
		cut := 0
		for {
			for len(buf) < cap(buf) && !eof {
				k, err := r.Read(buf[len(buf):cap(buf)])
				buf = buf[:len(buf)+k]
				if err == io.EOF {
					eof = true
				} else if err != nil {
					send(&rchunk{seq: seq, err: err})
					return
				}
			}
			if eof {
				cut = len(buf)
				break
			}
			if cut = statementsEnd(buf[len(head):], syntax); cut > 0 {
				cut += len(head)
				break
			}
			buf = slices.Grow(buf, cap(buf)) // a statement longer than the chunk
		}
		carry = append(carry[:0], buf[cut:]...)
		c := &rchunk{seq: seq, data: buf[:cut], prefixes: prefixes, lineBase: lines - bytes.Count(head, []byte("\n"))}
		lines += bytes.Count(buf[len(head):cut], []byte("\n"))
		if syntax == rdf.Turtle && !statements {
			c.quads, prefixes, c.err = parseTurtle(c.data, seq, c.lineBase)
			c.data, c.parsed, statements = nil, true, len(c.quads) > 0
			if c.err == nil {
				head, c.err = prefixText(prefixes)
			}
		}
		if !send(c) || c.err != nil {
			return
		}
		if eof {
			send(&rchunk{seq: seq + 1, err: io.EOF})
			return
		}
	}
}

// parse parses the statements of a chunk. A Turtle chunk must declare no
// prefix: the chunks after it are parsed with the prefixes at its head.
// N-Triples and N-Quads are appended to quads.
func (c *rchunk) parse(syntax rdf.Format, quads []rdf.Quad) {
	defer func() { c.data, c.parsed = nil, true }()
	if syntax != rdf.Turtle {
		var err error
		if c.quads, _, err = rdf.ParseAppend(quads, c.data, syntax, ""); err != nil {
			c.err = ungrouped("%v", inputLine(err, c.lineBase))
		}
		return
	}
	var got map[string]string
	if c.quads, got, c.err = parseTurtle(c.data, c.seq, c.lineBase); c.err != nil {
		return
	}
	if len(got) != len(c.prefixes) {
		c.err = ungrouped("a prefix declared after the first statements")
		return
	}
	for k, v := range got {
		if c.prefixes[k] != v {
			c.err = ungrouped("prefix %q declared again", k)
			return
		}
	}
}

// statementsEnd returns the length of the longest prefix of data that ends
// at the end of a statement, as far as the text shows it: at a line end in
// N-Triples and N-Quads, after ".\n" in Turtle (where a wrong guess makes
// the chunk fail to parse). 0 means none.
func statementsEnd(data []byte, syntax rdf.Format) int {
	if syntax == rdf.Turtle {
		if i := bytes.LastIndex(data, []byte(".\n")); i >= 0 {
			return i + 2
		}
		return 0
	}
	return bytes.LastIndexByte(data, '\n') + 1
}

// prefixText writes prefixes as Turtle directives.
func prefixText(prefixes map[string]string) ([]byte, error) {
	names := make([]string, 0, len(prefixes))
	for k := range prefixes {
		names = append(names, k)
	}
	sort.Strings(names)
	var b []byte
	for _, k := range names {
		iri := prefixes[k]
		if !rdf.HasScheme(iri) || strings.ContainsAny(iri, "<>\"{}|^`\\ ") {
			return nil, ungrouped("prefix %q is not an absolute IRI that can be written again", k)
		}
		b = append(append(append(append(b, "@prefix "...), k...), ": <"...), iri...)
		b = append(b, "> .\n"...)
	}
	return b, nil
}

// inputLine returns err, a syntax error in a chunk whose lines follow
// lineBase lines of the input, with the line of the input.
func inputLine(err error, lineBase int) error {
	var d *diag.Diagnostic
	if errors.As(err, &d) && d.Line > 0 {
		e := *d
		e.Line += lineBase
		return &e
	}
	return err
}

// parseTurtle parses a Turtle chunk, whose lines follow lineBase lines of
// the input (for errors). The blank nodes the parser names ([]
// and ()) are renamed to be unique among chunks, and every IRI must be
// absolute: a relative one would be resolved against a @base declared in
// an earlier chunk. It returns the prefixes declared once the chunk is read.
func parseTurtle(data []byte, seq, lineBase int) ([]rdf.Quad, map[string]string, error) {
	qs, got, err := rdf.Parse(data, rdf.Turtle, "")
	if err != nil {
		return nil, nil, ungrouped("%v", inputLine(err, lineBase))
	}
	tag := "#" + strconv.Itoa(seq) + "."
	rename := func(t *rdf.Term) bool {
		switch t.Kind {
		case rdf.Blank:
			if strings.HasPrefix(t.Value, "#") {
				t.Value = tag + t.Value[1:]
			}
		case rdf.IRI:
			return rdf.HasScheme(t.Value)
		case rdf.Literal:
			return rdf.HasScheme(t.Datatype)
		}
		return true
	}
	for i := range qs {
		q := &qs[i]
		if !rename(&q.S) || !rdf.HasScheme(q.P) || !rename(&q.O) {
			return nil, nil, ungrouped("a relative IRI")
		}
	}
	return qs, got, nil
}

// segmenter splits the statements into segments and closes them. A node
// is closed once its segment is: a statement that mentions it later (as
// subject, blank node object or batch member) means the input is not
// grouped. Closed nodes are remembered by name where jrpcld's names tell
// their message (message IRIs <log>#dir-pos, batch members, blank node
// labels of the log's prefix and position): all those of a log up to the
// highest position closed. Blank nodes the Turtle parser named are never
// named again once referred to. Other nodes are remembered one by one.
type segmenter struct {
	seg       []rdf.Quad
	nodes     map[rdf.Term]uint8 // of the segment: 1 subject, 2 object
	last      rdf.Term           // the subject of the previous statement
	closed    map[rdf.Term]struct{}
	maxPos    map[string]int64  // per log
	blankLogs map[string]string // jlog.BlankPrefix(log) -> log, for the logs of maxPos
	job       []rdf.Quad
}

// segment reads the parsed chunks in order and sends jobs of about jobSize
// statements on out, in order;
// the last job carries the error that ends the input (io.EOF at its end).
// Its jobs' statements go in the slices of spare when there are any.
// The chunks' statements, once taken, go to spareChunk.
func segment(in <-chan *rchunk, jobSize int, chunkTokens, jobTokens tokens, out chan<- *rjob, spareChunk chan<- []rdf.Quad, spare <-chan []rdf.Quad, stop <-chan struct{}) {
	defer close(out)
	s := &segmenter{nodes: map[rdf.Term]uint8{}, closed: map[rdf.Term]struct{}{},
		maxPos: map[string]int64{}, blankLogs: map[string]string{}, job: make([]rdf.Quad, 0, 2*jobSize)}
	seq := 0
	send := func(j *rjob) bool {
		j.seq = seq
		seq++
		if !jobTokens.take(stop) {
			return false
		}
		select {
		case out <- j:
			return true
		case <-stop:
			return false
		}
	}
	ordered.Reorder(in, func(c *rchunk) int { return c.seq }, func(c *rchunk) bool {
		chunkTokens.give()
		err := c.err
		if err == nil {
			for _, q := range c.quads {
				if err = s.add(q); err != nil {
					break
				}
				if len(s.job) >= jobSize {
					if !send(&rjob{quads: s.job}) {
						return false
					}
					if s.job = takeSpare(spare); s.job == nil {
						s.job = make([]rdf.Quad, 0, 2*jobSize)
					}
				}
			}
			clear(c.quads) // copied: let go of the terms
			giveSpare(spareChunk, c.quads[:0])
			c.quads = nil
		}
		if err == io.EOF {
			s.flush()
			if len(s.job) > 0 && !send(&rjob{quads: s.job}) {
				return false
			}
		}
		if err != nil {
			send(&rjob{err: err})
			return false
		}
		return true
	})
}

// add takes the next statement.
func (s *segmenter) add(q rdf.Quad) error {
	if q.P == rdf.RDFType && (q.O.Kind != rdf.IRI || !isMessageClass(q.O.Value)) {
		return nil // inert: the way back reads no other typing
	}
	if q.S != s.last {
		if _, ok := s.nodes[q.S]; !ok {
			if s.isClosed(q.S) {
				return ungrouped("statements about %s after those of its message", termName(q.S))
			}
			if q.S.Kind == rdf.IRI && len(s.seg) > 0 {
				s.flush()
			}
		}
		s.nodes[q.S] |= 1
		s.last = q.S
	}
	if q.O.Kind == rdf.Blank || q.P == rdf.JLogMember {
		if _, ok := s.nodes[q.O]; !ok && s.isClosed(q.O) {
			return ungrouped("%s mentioned after the statements of its message", termName(q.O))
		}
		s.nodes[q.O] |= 2
	}
	s.seg = append(s.seg, q)
	return nil
}

func termName(t rdf.Term) string {
	if t.Kind == rdf.Blank {
		return "_:" + t.Value
	}
	return "<" + t.Value + ">"
}

// flush closes the segment and adds it to the job.
func (s *segmenter) flush() {
	log, pos, owned := s.owner()
	var prefix string
	if owned {
		prefix = jlog.BlankPrefix(log)
	}
	for n, flags := range s.nodes {
		switch {
		case n.Kind == rdf.Blank && strings.HasPrefix(n.Value, "#") && flags&2 != 0:
			// A [] or () of Turtle, referred to: never named again.
		case owned && n.Kind == rdf.IRI && ownsIRI(n.Value, log, pos):
		case owned && n.Kind == rdf.Blank && jlog.OwnsBlank(n.Value, prefix, pos):
		default:
			s.closed[n] = struct{}{}
		}
	}
	if owned {
		if m, ok := s.maxPos[log]; !ok || pos > m {
			s.maxPos[log] = pos
		}
		s.blankLogs[jlog.BlankPrefix(log)] = log
	}
	s.job = append(s.job, s.seg...)
	s.seg = s.seg[:0]
	clear(s.nodes)
	s.last = rdf.Term{}
}

// owner returns the log and position of the segment's message when it has
// exactly one node with a jlog:position, one position, and one log.
func (s *segmenter) owner() (string, int64, bool) {
	var node, pos rdf.Term
	var graph string
	found := false
	for _, q := range s.seg {
		if q.P != rdf.JLogPosition {
			continue
		}
		if found && (q.S != node || q.O != pos) {
			return "", 0, false
		}
		if !found {
			node, pos, graph, found = q.S, q.O, q.G.Value, true
		}
	}
	if !found || pos.Kind != rdf.Literal {
		return "", 0, false
	}
	p, err := strconv.ParseInt(pos.Value, 10, 64)
	if err != nil {
		return "", 0, false
	}
	log := graph
	var logs []rdf.Term
	for _, q := range s.seg {
		if q.S == node && q.P == rdf.JLogInLog && !containsTerm(logs, q.O) {
			logs = append(logs, q.O)
		}
	}
	switch {
	case len(logs) == 1 && logs[0].Kind == rdf.IRI:
		log = logs[0].Value
	case len(logs) > 0:
		return "", 0, false
	}
	return log, p, log != ""
}

// isClosed reports whether node n belongs to a closed segment.
func (s *segmenter) isClosed(n rdf.Term) bool {
	if _, ok := s.closed[n]; ok {
		return true
	}
	switch n.Kind {
	case rdf.IRI:
		if log, pos, ok := jlog.ParseMessageIRI(n.Value); ok {
			if m, known := s.maxPos[log]; known && pos <= m {
				return true
			}
		}
	case rdf.Blank:
		known := func(prefix string) bool { _, ok := s.blankLogs[prefix]; return ok }
		if prefix, pos, ok := jlog.ParseBlankLabel(n.Value, known); ok && pos <= s.maxPos[s.blankLogs[prefix]] {
			return true
		}
	}
	return false
}

// ownsIRI reports whether iri names the message at pos of log, or one of
// its batch members.
func ownsIRI(iri, log string, pos int64) bool {
	l, p, ok := jlog.ParseMessageIRI(iri)
	return ok && l == log && p == pos
}
