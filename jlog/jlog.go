// Package jlog is the layout of a log as a graph: the contract between the
// mapping of logs to RDF (package convert) and the way back (package wire).
// It says which IRI a log gets when the user gives none, how its message
// nodes are named (LOG#c2s-5, LOG#m5 without directions, LOG#c2s-5.0 for a
// batch member), how the blank nodes of a message are labelled so that the
// graphs of several logs never share one, and how a message's id and time
// are written as literals. The IRIs of the log terms are in package rdf
// (rdf.JLogNS and the JLog constants), declared in ontology/log.ttl.
package jlog

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/rdf"
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

// MessageIRI returns the IRI of the message at position pos (from 1) of the
// log with IRI log, sent in direction dir.
func MessageIRI(log string, dir jsonrpc.Direction, pos int) string {
	if dir == jsonrpc.NoDirection {
		return log + "#m" + strconv.Itoa(pos)
	}
	return log + "#" + dir.String() + "-" + strconv.Itoa(pos)
}

// MemberIRI returns the IRI of member index (from 0) of the batch whose
// IRI is batch.
func MemberIRI(batch string, index int) string {
	return batch + "." + strconv.Itoa(index)
}

// ParseMessageIRI returns the log and the position that a message IRI (of
// MessageIRI or MemberIRI) names; ok is false for any other IRI.
func ParseMessageIRI(iri string) (log string, pos int64, ok bool) {
	i := strings.LastIndexByte(iri, '#')
	if i < 0 {
		return "", 0, false
	}
	sfx := iri[i+1:]
	switch {
	case strings.HasPrefix(sfx, "c2s-"), strings.HasPrefix(sfx, "s2c-"):
		sfx = sfx[4:]
	case strings.HasPrefix(sfx, "m"):
		sfx = sfx[1:]
	default:
		return "", 0, false
	}
	d := digits(sfx)
	if d == 0 {
		return "", 0, false
	}
	if rest := sfx[d:]; rest != "" && (rest[0] != '.' || len(rest) == 1 || digits(rest[1:]) != len(rest)-1) {
		return "", 0, false
	}
	pos, err := strconv.ParseInt(sfx[:d], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return iri[:i], pos, true
}

// BlankPrefix returns the prefix of the labels of the blank nodes of a
// log: "l", a hash of the log's IRI in base 36, and "m"; the outputs of two
// logs can be concatenated without merging nodes.
func BlankPrefix(log string) string {
	// FNV-1a, 64 bits: short, stable and spread enough for labels.
	h := uint64(14695981039346656037)
	for i := 0; i < len(log); i++ {
		h ^= uint64(log[i])
		h *= 1099511628211
	}
	return "l" + strconv.FormatUint(h, 36) + "m"
}

// MessageBlanks returns the prefix of the blank node labels of the message
// at position pos of the log whose BlankPrefix is prefix.
func MessageBlanks(prefix string, pos int) string {
	return prefix + strconv.Itoa(pos) + "b"
}

// MemberBlanks returns the prefix of the blank node labels of member
// index of the batch at position pos.
func MemberBlanks(prefix string, pos, index int) string {
	return prefix + strconv.Itoa(pos) + "x" + strconv.Itoa(index) + "b"
}

// ParseBlankLabel returns the BlankPrefix and the message position of a
// label that MessageBlanks or MemberBlanks began; prefix is the longest
// candidate, and known tells which prefixes are of logs the caller knows
// (the hash part has no fixed length).
func ParseBlankLabel(label string, known func(prefix string) bool) (prefix string, pos int64, ok bool) {
	if len(label) == 0 || label[0] != 'l' {
		return "", 0, false
	}
	for k := 2; k < min(len(label), 16); k++ {
		if label[k] != 'm' || !known(label[:k+1]) {
			continue
		}
		d := digits(label[k+1:])
		if d == 0 || k+1+d >= len(label) || label[k+1+d] != 'b' && label[k+1+d] != 'x' {
			continue
		}
		if p, err := strconv.ParseInt(label[k+1:k+1+d], 10, 64); err == nil {
			return label[:k+1], p, true
		}
	}
	return "", 0, false
}

// OwnsBlank reports whether a blank node label is one that the message at
// position pos of the log whose BlankPrefix is prefix gives its blank
// nodes (MessageBlanks or MemberBlanks).
func OwnsBlank(label, prefix string, pos int64) bool {
	p := prefix + strconv.FormatInt(pos, 10)
	return len(label) > len(p) && label[:len(p)] == p && (label[len(p)] == 'b' || label[len(p)] == 'x')
}

// IDLiteral writes a JSON-RPC id as the literal of jlog:id, which keeps its
// type and spelling: a string as xsd:string, a number as xsd:integer,
// xsd:decimal or xsd:double as written, null as the rdf:JSON literal null.
func IDLiteral(id any) rdf.Term {
	switch x := id.(type) {
	case string:
		return rdf.NewLiteral(x, rdf.XSDString)
	case json.Number:
		s := string(x)
		switch {
		case isInteger(s):
			return rdf.NewLiteral(s, rdf.XSDInteger)
		case isDecimal(s):
			return rdf.NewLiteral(s, rdf.XSDDecimal)
		}
		return rdf.NewLiteral(s, rdf.XSDDouble)
	case nil:
		return rdf.NewLiteral("null", rdf.RDFJSON)
	}
	return rdf.NewLiteral(fmt.Sprint(id), rdf.XSDString)
}

// ID reads back the id a jlog:id literal holds, as IDLiteral wrote it.
func ID(o rdf.Term) (any, bool) {
	if o.Kind != rdf.Literal {
		return nil, false
	}
	switch o.Datatype {
	case rdf.XSDString:
		return o.Value, true
	case rdf.RDFJSON:
		return nil, o.Value == "null"
	}
	if NumericDatatype(o.Datatype) && jsonrpc.IsNumber(o.Value) {
		return json.Number(o.Value), true
	}
	return nil, false
}

// numericTypes are the XSD datatypes whose literals are JSON numbers on the
// way back.
var numericTypes = map[string]bool{
	rdf.XSDInteger: true, rdf.XSDDecimal: true, rdf.XSDDouble: true, rdf.XSDNS + "float": true,
	rdf.XSDNS + "long": true, rdf.XSDNS + "int": true, rdf.XSDNS + "short": true, rdf.XSDNS + "byte": true,
	rdf.XSDNS + "nonNegativeInteger": true, rdf.XSDNS + "positiveInteger": true,
	rdf.XSDNS + "nonPositiveInteger": true, rdf.XSDNS + "negativeInteger": true,
	rdf.XSDNS + "unsignedLong": true, rdf.XSDNS + "unsignedInt": true, rdf.XSDNS + "unsignedShort": true, rdf.XSDNS + "unsignedByte": true,
}

// NumericDatatype reports whether the way back reads a literal of datatype
// dt, written as a JSON number, as that number.
func NumericDatatype(dt string) bool { return numericTypes[dt] }

// Timestamp writes the time an envelope recorded, as written: an
// xsd:dateTime when it is one, else an xsd:string.
func Timestamp(ts string) rdf.Term {
	if IsDateTime(ts) {
		return rdf.NewLiteral(ts, rdf.XSDDateTime)
	}
	return rdf.NewLiteral(ts, rdf.XSDString)
}

// IsDateTime reports whether s is an xsd:dateTime:
// -?YYYY+-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)?
func IsDateTime(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	n := digits(s[i:])
	if n < 4 {
		return false
	}
	i += n
	fixed := func(sep byte) bool {
		if i+3 > len(s) || s[i] != sep || !isDigit(s[i+1]) || !isDigit(s[i+2]) {
			return false
		}
		i += 3
		return true
	}
	// -MM-DD, Thh, :mm, :ss
	for _, sep := range []byte("--T::") {
		if !fixed(sep) {
			return false
		}
	}
	if i < len(s) && s[i] == '.' {
		n := digits(s[i+1:])
		if n == 0 {
			return false
		}
		i += 1 + n
	}
	switch {
	case i == len(s):
		return true
	case s[i] == 'Z':
		return i+1 == len(s)
	case s[i] == '+' || s[i] == '-':
		i++
		if i+2 > len(s) || !isDigit(s[i]) || !isDigit(s[i+1]) {
			return false
		}
		i += 2
		return fixed(':') && i == len(s)
	}
	return false
}

// isInteger matches -?[0-9]+.
func isInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && digits(s) == len(s)
}

// isDecimal matches -?[0-9]+\.[0-9]+.
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	n := digits(s)
	return n > 0 && n+1 < len(s) && s[n] == '.' && digits(s[n+1:]) == len(s)-n-1
}

// digits returns the length of the run of ASCII digits at the start of s.
func digits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
