package rpclog

import (
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// Classify applies the JSON-RPC 2.0 rules to the message of rec, a record
// that could be read: jsonrpc.Classify of its value, and what the value
// alone does not tell. A message (or batch member) with a string that
// holds a lone surrogate (rec.Surrogates) is invalid, with those errors,
// keeping the kind it has the form of; when that string is its "id", the
// id stands for no value to pair a response with or to write: HasID is
// false.
func Classify(rec *Record) jsonrpc.Message {
	if rec.Object != nil {
		if m, ok := rec.Object.Classify(); ok {
			return m
		}
		// Not a record a typed read gives.
		v, _ := jsonrpc.Decode(rec.Raw)
		return jsonrpc.Classify(v)
	}
	m := jsonrpc.Classify(rec.Value)
	if len(rec.Surrogates) == 0 {
		return m
	}
	if m.Kind != jsonrpc.KindBatch {
		for _, d := range rec.Surrogates {
			m = invalidate(m, d, "")
		}
		return m
	}
	for _, d := range rec.Surrogates {
		// A batch is an array: each string is in one of its members.
		tok, _, _ := strings.Cut(strings.TrimPrefix(d.Pointer, "/"), "/")
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(m.Members) {
			m.Members[i] = invalidate(m.Members[i], d, "/"+tok)
		}
	}
	return m
}

// invalidate returns m made invalid by d, the error about a string of its
// text; prefix is the pointer of m from the root of the record's value.
func invalidate(m jsonrpc.Message, d diag.Diagnostic, prefix string) jsonrpc.Message {
	if m.Kind != jsonrpc.KindInvalid {
		m.Shape, m.Kind = m.Kind, jsonrpc.KindInvalid
	}
	if d.Pointer == prefix+"/id" {
		m.HasID, m.ID = false, nil
	}
	m.Diagnostics = append(m.Diagnostics, d)
	return m
}

// MessageRecord returns the record a log reader reads for text, the JSON
// text of one message with no envelope around it (as a graph keeps it in
// jlog:json), on line: its value, and its strings that hold a lone
// surrogate escape. A text that is not JSON gives a record with Err.
func MessageRecord(text []byte, line int) *Record {
	rec := &Record{Line: line, Raw: text}
	// encoding/json's bound on nesting: a graph holds what a log held.
	p := jsonparse.Parser{MaxDepth: 10000, LoneSurrogates: true}
	v, perr := p.Parse(text)
	if perr != nil {
		rec.Err = &diag.Diagnostic{Line: line, Code: jsonrpc.CodeParseError, Severity: diag.Error, Message: perr.Error()}
		return rec
	}
	rec.Value = v
	for _, s := range p.Surrogates() {
		rec.Surrogates = append(rec.Surrogates, SurrogateError(s))
	}
	return rec
}
