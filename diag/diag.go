// Package diag defines Diagnostic, the one report type of jrpcld: a problem
// with, or a remark about, one place in an input. Reading a log, checking
// messages against the JSON-RPC rules and a schema, mapping them to RDF,
// reading a graph back and building a register all report with it, so that
// every command prints, counts and serialises findings the same way.
package diag

import (
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// Severity says whether a Diagnostic makes its subject invalid.
type Severity uint8

// The severities of a Diagnostic.
const (
	// Error: the input breaks a rule; the message (or part) it is about is
	// invalid, or left out of an output.
	Error Severity = iota
	// Warning: the input is valid but does something worth a remark.
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// Diagnostic is one finding about one place in an input. Only Message is
// always set; the other fields are zero when they do not apply.
type Diagnostic struct {
	File    string // the input, as the user named it ("stdin" for standard input)
	Line    int    // 1-based line where the concerned text starts, 0 when unknown
	Column  int    // 1-based column (in bytes for JSON, in characters for RDF), 0 when unknown
	Pointer string // JSON pointer (RFC 6901) into the message; "" is the whole message
	Node    string // the RDF node concerned: an IRI, or a blank node as _:label
	// Code is the JSON-RPC 2.0 error code a server would answer with:
	// -32700 for text that is not JSON, -32600 for an invalid message,
	// -32601 for an unknown method, -32602 for bad parameters; 0 for none.
	Code     int
	Severity Severity
	Message  string // what is wrong and, where useful, what to do
	Schema   string // for a schema violation: the location in the schema
	// Violation is the kind of rule the finding reports broken, for callers
	// to branch on without reading Message; "" when its maker names none.
	// Package schema/kind lists the kinds of package schema's findings.
	// It is not printed.
	Violation Kind
	// Rule is the stable id of the protocol rule the finding is about
	// (such as an MCP rule of package mcp/rules), "" for none.
	Rule string
	// Help is the address of the text that states Rule, "" for none.
	Help string
}

// Kind names a kind of violation (see Diagnostic.Violation): a short word,
// such as the JSON Schema keyword a value fails. The package that makes a
// finding defines the kinds it reports.
type Kind string

// Error returns the diagnostic as String does, so that a *Diagnostic can
// travel as an error.
func (d *Diagnostic) Error() string { return d.String() }

// String returns the diagnostic as "FILE:LINE:COL: message (at POINTER)",
// leaving out the parts that are not set; a node is shown as "<IRI>: " or
// "_:label: " before the message, and a warning says "warning: " first.
// The result is one line, safe to print on a terminal: the file, node,
// message and pointer, which may quote the input, have their control and
// bidirectional characters escaped (see termsafe.Escape).
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(termsafe.Escape(d.File))
		if d.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(d.Line))
			if d.Column > 0 {
				b.WriteByte(':')
				b.WriteString(strconv.Itoa(d.Column))
			}
		}
		b.WriteString(": ")
	} else if d.Line > 0 {
		b.WriteString(strconv.Itoa(d.Line))
		if d.Column > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(d.Column))
		}
		b.WriteString(": ")
	}
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	switch {
	case d.Node == "":
	case strings.HasPrefix(d.Node, "_:"):
		b.WriteString(termsafe.Escape(d.Node) + ": ")
	default:
		b.WriteString("<" + termsafe.Escape(d.Node) + ">: ")
	}
	b.WriteString(termsafe.Escape(d.Message))
	if d.Pointer != "" {
		b.WriteString(" (at " + termsafe.Escape(d.Pointer) + ")")
	}
	return b.String()
}

// HasErrors reports whether any of ds has severity Error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}
