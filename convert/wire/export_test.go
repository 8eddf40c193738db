package wire

import (
	"io"

	"github.com/jrpcld/jrpcld/rdf"
)

// Internals the tests (package wire_test, which may import convert) reach.

// StreamSized is Stream with chunks of about chunk bytes and jobs of about
// job statements, so that small inputs cross their boundaries.
func (d *Decoder) StreamSized(r io.Reader, f rdf.Format, chunk, job int, emit func(string, *Message) error) error {
	return d.stream(r, f, chunk, job, emit)
}

// ApplyPatch applies the JSON Patch text patch to the JSON text doc.
func ApplyPatch(doc, patch string) (any, error) {
	v, err := decodeJSON(doc)
	if err != nil {
		return nil, err
	}
	ops, err := parsePatch(patch)
	if err != nil {
		return nil, err
	}
	return applyPatch(v, ops)
}
