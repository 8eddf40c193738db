package schema

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ordered"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// Finding is one problem found in a log: where, in which kind of message,
// and what.
type Finding struct {
	Index int          // position of the message in the log, from 0
	Kind  jsonrpc.Kind // of the message, or of the batch member the diagnostic is about
	diag.Diagnostic
}

// Summary counts what ValidateLog saw.
type Summary struct {
	Messages int            // records read, readable or not
	Valid    int            // messages with no error (warnings allowed)
	Warnings int            // warnings found in valid and invalid messages alike
	Kinds    map[string]int // messages by kind
	Invalid  map[string]int // invalid messages by kind ("invalid" for unreadable or shapeless ones)
	// Unchecked are messages that the JSON-RPC rules found valid and no
	// schema checked (the caller had none for them, as for an MCP version
	// without a schema): neither valid nor invalid. ValidateLog counts
	// none; its caller moves them from Valid.
	Unchecked int
}

// Add adds the counts of o to s.
func (s *Summary) Add(o Summary) {
	s.Messages += o.Messages
	s.Valid += o.Valid
	s.Warnings += o.Warnings
	s.Unchecked += o.Unchecked
	for k, n := range o.Kinds {
		s.kinds()[k] += n
	}
	for k, n := range o.Invalid {
		s.invalid()[k] += n
	}
}

// InvalidCount returns the number of invalid messages.
func (s *Summary) InvalidCount() int { return s.Messages - s.Valid - s.Unchecked }

func (s *Summary) kinds() map[string]int {
	if s.Kinds == nil {
		s.Kinds = map[string]int{}
	}
	return s.Kinds
}

func (s *Summary) invalid() map[string]int {
	if s.Invalid == nil {
		s.Invalid = map[string]int{}
	}
	return s.Invalid
}

// ValidateLog checks every message r reads with c, calling emit for each
// problem in log order. An unreadable part of the log is a finding too, and
// the rest is still checked. The reader's warnings about a message's JSON
// text (a member named twice) come first among its findings, and count as
// warnings: they do not make the message invalid; what is wrong with its
// envelope (a "dir" that is not "c2s" or "s2c") comes next and does. The
// error is an I/O error that ended the log.
//
// Each of ordered.Workers() goroutines takes the log's next batch of lines
// in turn and takes it all the way: decodes it, pairs its responses with
// requests once the batch before has been paired (pairing follows the
// log's order), and checks its messages; so a batch's text stays in one
// core's cache. emit is called on the calling goroutine, in log order.
func ValidateLog(r *rpclog.Reader, c *Checker, file string, emit func(Finding)) (Summary, error) {
	// Members the plans read on the text need not be decoded.
	// Ordinary messages are read typed: the checks take their text.
	opts := rpclog.BatchOptions{Classify: true, Lazy: c.lazyMembers(), Lens: true, Typed: true}
	turns := r.Turns()
	index := 0 // the records paired so far, by the pairing turn's holder
	// Each goroutine has two batches of its own, back once reported, so
	// that memory does not grow with the log; checked holds them all.
	workers := ordered.Workers()
	checked := make(chan *checkBatch, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			decode := r.BatchDecoder(opts)
			w := c.worker()
			own := make(chan *checkBatch, 2)
			for range 2 {
				own <- &checkBatch{b: new(rpclog.Batch), home: own}
			}
			for {
				cb := <-own
				if !turns.Read(cb.b) {
					return
				}
				decode(cb.b)
				recs := cb.b.Records
				if cap(cb.msgs) < len(recs) {
					cb.msgs = make([]tracked, len(recs))
				}
				cb.msgs = cb.msgs[:len(recs)]
				turns.Pair(cb.b, func() {
					for i := range recs {
						if br := &recs[i]; br.Err == nil {
							cb.msgs[i] = c.track(br.Message, br.Value, br.Record, br.Dir, index)
						}
						index++
					}
				})
				for i := range recs {
					if rec := recs[i].Record; rec.Err == nil {
						cb.msgs[i].ds = w.finishRecord(&cb.msgs[i], rec)
					}
				}
				checked <- cb
			}
		})
	}
	go func() {
		wg.Wait()
		close(checked)
	}()
	var sum Summary
	var err error
	reported := 0 // the records reported
	ordered.Reorder(checked, func(cb *checkBatch) int { return cb.b.Seq }, func(cb *checkBatch) bool {
		for i := range cb.b.Records {
			t := &cb.msgs[i]
			reportRecord(cb.b.Records[i].Record, func() (jsonrpc.Message, []diag.Diagnostic) { return t.m, t.ds }, file, reported, &sum, emit)
			reported++
		}
		err = cb.b.Err
		cb.b.Done()
		clear(cb.msgs)
		cb.home <- cb
		return true
	})
	return sum, err
}

// checkBatch is a batch of records on its way through ValidateLog, with
// what the checks found of each.
type checkBatch struct {
	b    *rpclog.Batch
	msgs []tracked        // by record; ds holds all diagnostics once checked
	home chan *checkBatch // the goroutine's batches, where it goes once reported
}

// reportRecord counts the index-th record of the log in sum and emits its
// findings; check gives the message's classification and diagnostics, for a
// record that could be read.
func reportRecord(rec *rpclog.Record, check func() (jsonrpc.Message, []diag.Diagnostic), file string, index int, sum *Summary, emit func(Finding)) {
	sum.Messages++
	if rec.Err != nil {
		var re *diag.Diagnostic
		p := diag.Diagnostic{File: file, Line: rec.Line, Code: jsonrpc.CodeParseError, Severity: diag.Error, Message: rec.Err.Error()}
		if errors.As(rec.Err, &re) {
			p.Code, p.Message = re.Code, re.Message
			if re.Column > 0 {
				p.Message = "column " + strconv.Itoa(re.Column) + ": " + re.Message
			}
			if re.Code == jsonrpc.CodeParseError {
				p.Message = "not JSON: " + p.Message
			}
		}
		sum.kinds()[jsonrpc.KindInvalid.String()]++
		sum.invalid()[jsonrpc.KindInvalid.String()]++
		emit(Finding{Index: index, Kind: jsonrpc.KindInvalid, Diagnostic: p})
		return
	}
	m, ds := check()
	if len(rec.Problems) > 0 {
		// What is wrong with the envelope (a "dir" that is not "c2s" or
		// "s2c") is wrong with the record.
		ds = append(slices.Clone(rec.Problems), ds...)
	}
	for _, w := range rec.Warnings {
		sum.Warnings++
		w.File, w.Line = file, rec.Line
		emit(Finding{Index: index, Kind: memberKind(m, w.Pointer), Diagnostic: w})
	}
	kind := m.Kind.String()
	sum.kinds()[kind]++
	if !diag.HasErrors(ds) {
		sum.Valid++
	} else {
		sum.invalid()[kind]++
	}
	for _, p := range ds {
		if p.Severity == diag.Warning {
			sum.Warnings++
		}
		p.File, p.Line = file, rec.Line
		emit(Finding{Index: index, Kind: memberKind(m, p.Pointer), Diagnostic: p})
	}
}

// memberKind returns the kind of the batch member a pointer points into, or
// the message's own kind.
func memberKind(m jsonrpc.Message, ptr string) jsonrpc.Kind {
	if m.Kind != jsonrpc.KindBatch || !strings.HasPrefix(ptr, "/") {
		return m.Kind
	}
	tok, _, _ := strings.Cut(ptr[1:], "/")
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || i >= len(m.Members) {
		return m.Kind
	}
	return m.Members[i].Kind
}

// Object returns the finding as one line of `jrpcld validate --format json`
// gives it, ready for encoding/json: file, line, index, code, kind,
// severity, message and pointer; schemaLocation when the finding names a
// schema, rule and help when it names a protocol rule.
func (f Finding) Object() map[string]any {
	m := map[string]any{
		"file": f.File, "line": f.Line, "index": f.Index, "code": f.Code, "kind": f.Kind.String(),
		"severity": f.Severity.String(), "message": f.Message, "pointer": f.Pointer,
	}
	if f.Schema != "" {
		m["schemaLocation"] = f.Schema
	}
	if f.Rule != "" {
		m["rule"] = f.Rule
	}
	if f.Help != "" {
		m["help"] = f.Help
	}
	return m
}

// Object returns the counts of s over files logs as the "summary" object
// of `jrpcld validate --format json`, ready for encoding/json: files,
// messages, valid, invalid, warnings, kinds and invalidByKind, and
// unchecked when some are (the callers add what they know of the printing,
// such as notPrinted).
func (s Summary) Object(files int) map[string]any {
	kinds, invalid := s.Kinds, s.Invalid
	if kinds == nil {
		kinds = map[string]int{}
	}
	if invalid == nil {
		invalid = map[string]int{}
	}
	out := map[string]any{"files": files, "messages": s.Messages, "valid": s.Valid, "invalid": s.InvalidCount(),
		"warnings": s.Warnings, "kinds": kinds, "invalidByKind": invalid}
	if s.Unchecked > 0 {
		out["unchecked"] = s.Unchecked
	}
	return out
}
