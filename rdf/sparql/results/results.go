// Package results reads and writes SPARQL 1.1 query results in the four
// formats the W3C defines: JSON, XML, CSV and TSV. Writers stream, a row at
// a time, so that a large result never needs to be held; readers give a
// Table, which is what tests and tools comparing results need.
//
// A row is a slice of rdf.Term aligned with the variables, the zero Term
// standing for an unbound variable. CSV keeps only the text of a term (no
// datatype or language tag), as its specification says: it cannot be read
// back into the same terms, so Read of CSV gives plain literals, IRIs for
// values that are absolute IRIs and blank nodes for "_:" values.
package results

import (
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// Format is a results format.
type Format int

// The formats.
const (
	JSON Format = iota // application/sparql-results+json
	XML                // application/sparql-results+xml
	CSV                // text/csv
	TSV                // text/tab-separated-values
)

var formats = []struct{ name, media, ext string }{
	{"json", "application/sparql-results+json", ".srj"},
	{"xml", "application/sparql-results+xml", ".srx"},
	{"csv", "text/csv", ".csv"},
	{"tsv", "text/tab-separated-values", ".tsv"},
}

// String returns the format's short name: json, xml, csv or tsv.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formats) {
		return formats[f].name
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// MediaType returns the format's media type.
func (f Format) MediaType() string {
	if f >= 0 && int(f) < len(formats) {
		return formats[f].media
	}
	return ""
}

// Extension returns the usual file extension, with its dot: .srj, .srx,
// .csv or .tsv.
func (f Format) Extension() string {
	if f >= 0 && int(f) < len(formats) {
		return formats[f].ext
	}
	return ""
}

// ParseFormat returns the format named s (json, xml, csv or tsv, any case),
// or the one whose extension s is (.srj, .srx...).
func ParseFormat(s string) (Format, error) {
	l := strings.ToLower(s)
	for i, f := range formats {
		if l == f.name || l == f.ext || l == strings.TrimPrefix(f.ext, ".") {
			return Format(i), nil
		}
	}
	return 0, &FormatError{Name: s}
}

// Table is a whole result read back: the variables and the rows of a
// SELECT, or the answer of an ASK (Boolean set, Vars and Rows empty).
type Table struct {
	Vars    []string
	Rows    [][]rdf.Term
	Boolean *bool
}

// Row returns the row i as a map from variable to term, leaving out the
// unbound ones, for messages and tests.
func (t *Table) Row(i int) map[string]rdf.Term {
	m := map[string]rdf.Term{}
	for j, v := range t.Vars {
		if j < len(t.Rows[i]) && t.Rows[i][j] != (rdf.Term{}) {
			m[v] = t.Rows[i][j]
		}
	}
	return m
}
