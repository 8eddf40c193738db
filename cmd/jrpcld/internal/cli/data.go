package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// RDFFormat returns the RDF format of a file, by its name and then its
// content, and whether it is RDF at all (otherwise a log). A shapes file
// is always RDF: Turtle unless its name says otherwise.
func RDFFormat(name string, head []byte, shapes bool) (rdf.Format, bool) {
	if f, _, ok := rdf.FormatOf(name); ok {
		return f, true
	}
	if rpclog.Sniff(head) == rpclog.JSONLD {
		return rdf.JSONLD, true
	}
	if f, ok := rpclog.GraphFormat(name, head); ok || shapes {
		return f, true
	}
	return 0, false
}

// DataInput is a DATA input opened to be read as RDF or as a log.
type DataInput struct {
	// Display is the name of the input in messages ("stdin" for "-").
	Display string
	// Raw is the input as given, for a log (rpclog undoes gzip itself);
	// RDF is the same bytes with gzip undone, for the RDF readers.
	Raw, RDF *bufio.Reader
	// Format is the RDF syntax the name and the first bytes say, when
	// IsRDF; else the input is read as a log.
	Format rdf.Format
	IsRDF  bool
	// Close closes the input.
	Close func()
}

// OpenData opens the DATA input name (a file or "-") of jrpcld shacl and
// jrpcld query: gzip undone for RDF, the syntax told from the name
// without ".gz" and the first 512 bytes.
func OpenData(e *Env, name string) (*DataInput, error) {
	in, display, _, err := OpenInput(e, name)
	if err != nil {
		return nil, err
	}
	d := &DataInput{Display: display, Close: func() {}}
	if c, ok := in.(io.Closer); ok {
		d.Close = func() { c.Close() }
	}
	d.Raw = bufio.NewReaderSize(in, 64<<10)
	d.RDF = d.Raw
	if head, _ := d.Raw.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(d.Raw)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("%s: %w", display, err)
		}
		d.RDF = bufio.NewReaderSize(zr, 64<<10)
	}
	head, _ := d.RDF.Peek(512)
	d.Format, d.IsRDF = RDFFormat(strings.TrimSuffix(name, ".gz"), head, false)
	return d, nil
}

// WithFile gives a syntax error the name of the input.
func WithFile(display string, err error) error {
	var d *diag.Diagnostic
	switch {
	case err == nil:
		return nil
	case errors.As(err, &d) && d.File == "":
		d.File = display
		return d
	}
	return fmt.Errorf("%s: %w", display, err)
}

// DistinctLogIRIs returns an error when two of the files would be given
// the same log IRI with --base base: their statements would make one log.
func DistinctLogIRIs(base string, files []string) error {
	if a, b, iri, ok := rpclog.SharedIRI(base, files); ok {
		return fmt.Errorf("--base %s gives %s and %s the same IRI, <%s>, which would merge two logs into one: convert them one at a time, each with its own --base", base, a, b, iri)
	}
	return nil
}
