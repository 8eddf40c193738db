package rpclog

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// The first bytes of an input tell what it holds: a log, or a graph jrpcld
// wrote and was given back. Every command that reads logs or graphs, and
// jrpcld-beam, tells them apart by the rules here, so that one input is
// never a log to one command and a graph to another.

// GraphFormat tells whether an input holds a graph rather than a message
// log, and in which RDF format: the one rule every command that reads logs
// or graphs follows, jrpcld-beam's too. By the name's extension first (see
// rdf.FormatOf): .ttl is Turtle, .nt N-Triples, .nq N-Quads, .jsonld
// JSON-LD; .json, .jsonl, .ndjson and .gz are logs unless their content is
// JSON-LD. Else by the first bytes, head, after blank and comment ("#")
// lines: a Turtle directive makes it Turtle, an IRI or a blank node
// N-Quads (of which N-Triples is a part), XML ("<?xml", "<!", "<rdf:RDF")
// RDF/XML, a JSON document with a JSON-LD keyword before any "jsonrpc"
// member JSON-LD, and anything else a log, comment lines or not (a log's
// first line may be any bad line). A graph of comments only, as far as head
// goes, is Turtle.
func GraphFormat(name string, head []byte) (rdf.Format, bool) {
	if f, gz, ok := rdf.FormatOf(name); ok && !gz && f != rdf.RDFXML {
		return f, true
	}
	logName := false
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".jsonl", ".ndjson", ".gz":
		logName = true
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	comment := false
	for {
		head = bytes.TrimLeft(head, " \t\r\n")
		if len(head) == 0 || head[0] != '#' {
			break
		}
		comment = true
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			head = nil
			break
		}
		head = head[i:]
	}
	switch {
	case len(head) == 0:
		return rdf.Turtle, comment && !logName
	case head[0] == '{' || head[0] == '[':
		if !comment && IsJSONLD(head) {
			return rdf.JSONLD, true
		}
		return 0, false
	case logName:
		return 0, false
	case bytes.HasPrefix(head, []byte("<?xml")), bytes.HasPrefix(head, []byte("<!")), bytes.HasPrefix(head, []byte("<rdf:RDF")):
		return rdf.RDFXML, true
	case head[0] == '@':
		return rdf.Turtle, true
	case head[0] == '<', bytes.HasPrefix(head, []byte("_:")):
		return rdf.NQuads, true
	}
	for _, kw := range []string{"prefix", "base"} {
		if len(head) > len(kw) && strings.EqualFold(string(head[:len(kw)]), kw) && (head[len(kw)] == ' ' || head[len(kw)] == '\t') {
			return rdf.Turtle, true
		}
	}
	return 0, false
}

// IsJSONLD reports whether head, the first bytes of a JSON document, show
// JSON-LD rather than JSON-RPC messages: a JSON-LD keyword ("@context",
// "@graph", "@id") comes before any "jsonrpc" (a message's params may
// hold JSON-LD).
func IsJSONLD(head []byte) bool {
	ld := -1
	for _, kw := range []string{`"@context"`, `"@graph"`, `"@id"`} {
		if i := bytes.Index(head, []byte(kw)); i >= 0 && (ld < 0 || i < ld) {
			ld = i
		}
	}
	rpc := bytes.Index(head, []byte(`"jsonrpc"`))
	return ld >= 0 && (rpc < 0 || ld < rpc)
}

// Kind is what the first bytes of an input say about it, as JSON.
type Kind int

// The kinds Sniff tells.
const (
	NotJSON     Kind = iota // not a JSON document, or blank
	JSONUnknown             // JSON, with neither JSON-LD keywords nor "jsonrpc"
	JSONLD                  // a JSON document with JSON-LD keywords
	JSONLog                 // JSON-RPC messages
	Gzip                    // gzip-compressed: the content cannot be told
)

// Sniff tells from head, the first bytes of an input, whether it is JSON-LD
// or a JSON-RPC log: whichever of a JSON-LD keyword and "jsonrpc" comes
// first (see IsJSONLD).
func Sniff(head []byte) Kind {
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		return Gzip
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(head) == 0 || head[0] != '{' && head[0] != '[':
		return NotJSON
	case IsJSONLD(head):
		return JSONLD
	case bytes.Contains(head, []byte(`"jsonrpc"`)):
		return JSONLog
	}
	return JSONUnknown
}
