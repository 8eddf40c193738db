package rdf

import "errors"

// ErrInvalidTerm is wrapped by the errors of the RDF writers for a term that
// has no valid serialisation. Such terms are refused, never rewritten:
//   - strings, IRIs, labels or language tags that are not valid UTF-8;
//   - IRIs that are empty, relative (no scheme) or hold a character that
//     IRIREF forbids (U+0000-U+0020, <>"{}|^`\) or a control character
//     (U+007F-U+009F, which RFC 3987 excludes): IRIREF does not allow the
//     former even as \u escapes, and rapper and serdi refuse them;
//   - blank node labels that are not a valid BLANK_NODE_LABEL (renaming them
//     could merge two nodes, since the caller picks the labels);
//   - language tags that do not match [a-zA-Z]+('-'[a-zA-Z0-9]+)*, and
//     rdf:langString literals without one;
//   - empty IRIs in any position (the zero Term among them).
var ErrInvalidTerm = errors.New("RDF term cannot be written")

// errClosed is returned when writing to a closed writer.
var errClosed = errors.New("rdf: writer is closed")
