// Package jlog is the layout of a log as a graph: the contract between the
// mapping of logs to RDF (package convert) and the way back (package wire).
// It says how the message nodes of a log (whose IRI package rpclog gives)
// are named (LOG#c2s-5, LOG#m5 without directions, LOG#c2s-5.0 for a
// batch member), how the blank nodes of a message are labelled so that the
// graphs of several logs never share one, and how a message's id and time
// are written as literals. The IRIs of the log terms are in package rdf
// (rdf.JLogNS and the JLog constants), declared in ontology/log.ttl.
package jlog

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// MessageIRI returns the IRI of the message at position pos (from 1) of the
// log with IRI log, sent in direction dir.
func MessageIRI(log string, dir jsonrpc.Direction, pos int) string {
	switch dir {
	case jsonrpc.NoDirection:
		return join(log, "#m", pos, "")
	case jsonrpc.ClientToServer:
		return join(log, "#c2s-", pos, "")
	case jsonrpc.ServerToClient:
		return join(log, "#s2c-", pos, "")
	}
	return join(log, "#"+dir.String()+"-", pos, "")
}

// MessageNames returns MessageIRI(log, dir, pos) and MessageBlanks(prefix,
// pos) with one allocation for both: they are made for every message.
func MessageNames(log, prefix string, dir jsonrpc.Direction, pos int) (iri, blanks string) {
	var sep string
	switch dir {
	case jsonrpc.NoDirection:
		sep = "#m"
	case jsonrpc.ClientToServer:
		sep = "#c2s-"
	case jsonrpc.ServerToClient:
		sep = "#s2c-"
	default:
		sep = "#" + dir.String() + "-"
	}
	var digits [20]byte
	n := strconv.AppendInt(digits[:0], int64(pos), 10)
	var sb strings.Builder
	sb.Grow(len(log) + len(sep) + len(prefix) + 2*len(n) + 1)
	sb.WriteString(log)
	sb.WriteString(sep)
	sb.Write(n)
	end := sb.Len()
	sb.WriteString(prefix)
	sb.Write(n)
	sb.WriteByte('b')
	s := sb.String()
	return s[:end], s[end:]
}

// join returns a+b+n+c with one allocation (n written in decimal): names
// are made for every message.
func join(a, b string, n int, c string) string {
	var sb strings.Builder
	sb.Grow(len(a) + len(b) + 20 + len(c))
	sb.WriteString(a)
	sb.WriteString(b)
	var digits [20]byte
	sb.Write(strconv.AppendInt(digits[:0], int64(n), 10))
	sb.WriteString(c)
	return sb.String()
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
	return join(prefix, "", pos, "b")
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
	if NumericDatatype(o.Datatype) && jsonparse.IsNumber(o.Value) {
		return json.Number(o.Value), true
	}
	return nil, false
}

// NumericDatatype reports whether the way back reads a literal of datatype
// dt, written as a JSON number, as that number: one of the XSD numeric
// datatypes.
func NumericDatatype(dt string) bool {
	local, ok := strings.CutPrefix(dt, rdf.XSDNS)
	if !ok {
		return false
	}
	switch local {
	case "integer", "decimal", "double", "float", "long", "int", "short", "byte",
		"nonNegativeInteger", "positiveInteger", "nonPositiveInteger", "negativeInteger",
		"unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte":
		return true
	}
	return false
}

// Timestamp writes the time an envelope recorded, as written: an
// xsd:dateTime when it is a valid one (see IsDateTime), else an xsd:string.
func Timestamp(ts string) rdf.Term {
	if IsDateTime(ts) {
		return rdf.NewLiteral(ts, rdf.XSDDateTime)
	}
	return rdf.NewLiteral(ts, rdf.XSDString)
}

// EpochMillis returns the xsd:dateTime (UTC, to the millisecond) that a
// number of milliseconds since 1970-01-01T00:00:00Z stands for, the
// reading jrpcld gives an envelope's numeric "ts"; ok is false for text
// that is not a number or for years outside 0001-9999.
func EpochMillis(num string) (string, bool) {
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	const (
		minMs = -62135596800000 // 0001-01-01T00:00:00Z
		maxMs = 253402300799999 // 9999-12-31T23:59:59.999Z
	)
	if f < minMs || f > maxMs {
		return "", false
	}
	ms := int64(math.Round(f))
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z"), true
}

// IsDateTime reports whether s is a valid xsd:dateTime: the form
// -?YYYY+-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)? with a month of 01-12, a day
// that the month has, hours 00-23 (or 24:00:00), minutes and seconds 00-59
// and a time zone within 14:00. The form alone is not enough: an invalid
// date typed xsd:dateTime is an ill-typed literal.
func IsDateTime(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	n := digits(s[i:])
	if n < 4 || n > 4 && s[i] == '0' {
		return false
	}
	year, err := strconv.ParseInt(s[i:i+n], 10, 64)
	if err != nil {
		return false
	}
	i += n
	var f [5]int // month, day, hour, minute, second
	for k, sep := range []byte("--T::") {
		if i+3 > len(s) || s[i] != sep || !isDigit(s[i+1]) || !isDigit(s[i+2]) {
			return false
		}
		f[k] = int(s[i+1]-'0')*10 + int(s[i+2]-'0')
		i += 3
	}
	month, day, hour, minute, second := f[0], f[1], f[2], f[3], f[4]
	fracZero := true
	if i < len(s) && s[i] == '.' {
		n := digits(s[i+1:])
		if n == 0 {
			return false
		}
		fracZero = strings.Trim(s[i+1:i+1+n], "0") == ""
		i += 1 + n
	}
	if month < 1 || month > 12 || day < 1 || day > xsd.DaysIn(year, month) || minute > 59 || second > 59 ||
		hour > 24 || hour == 24 && (minute != 0 || second != 0 || !fracZero) {
		return false
	}
	switch {
	case i == len(s):
		return true
	case s[i] == 'Z':
		return i+1 == len(s)
	case s[i] == '+' || s[i] == '-':
		if len(s) != i+6 || !isDigit(s[i+1]) || !isDigit(s[i+2]) || s[i+3] != ':' || !isDigit(s[i+4]) || !isDigit(s[i+5]) {
			return false
		}
		hh := int(s[i+1]-'0')*10 + int(s[i+2]-'0')
		mm := int(s[i+4]-'0')*10 + int(s[i+5]-'0')
		return mm <= 59 && (hh < 14 || hh == 14 && mm == 0)
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
