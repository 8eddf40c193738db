package results

import (
	"strconv"

	"github.com/jrpcld/jrpcld/rdf"
)

// FormatError is a format the package does not have, or one without a
// form for the answer asked for (an ASK's boolean in CSV or TSV).
type FormatError struct {
	Name    string
	Boolean bool
}

func (e *FormatError) Error() string {
	if e.Boolean {
		return "results: " + e.Name + " has no form for an ASK query's answer; use json or xml"
	}
	return "results: unknown format " + strconv.Quote(e.Name) + "; use json, xml, csv or tsv"
}

// ReadError is a result document that cannot be read: its format, the line
// (XML, TSV) or row (JSON) where known, and what is wrong.
type ReadError struct {
	Format    Format
	Line, Row int
	Msg       string
}

func (e *ReadError) Error() string {
	s := "results: reading " + e.Format.String()
	switch {
	case e.Line > 0:
		s += " at line " + itoa(e.Line)
	case e.Row > 0:
		s += " at result " + itoa(e.Row)
	}
	return s + ": " + e.Msg
}

// TermError is a term a writer cannot write in its format.
type TermError struct {
	Term rdf.Term
	Msg  string
}

func (e *TermError) Error() string {
	if e.Term == (rdf.Term{}) {
		return "results: " + e.Msg
	}
	return "results: " + e.Term.String() + " " + e.Msg
}

func itoa(n int) string { return strconv.Itoa(n) }
