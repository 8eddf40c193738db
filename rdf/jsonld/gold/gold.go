// Package gold adapts json-gold (github.com/piprate/json-gold), the
// reference JSON-LD processor, to jrpcld: options whose document loader
// loads nothing, the number types json-gold expects, RFC 8785 canonical
// text for @json values (json-gold's own fails on scalars), and its RDF
// terms turned into jrpcld's. Every use of json-gold in jrpcld goes
// through these, so that no context is ever fetched and every graph it
// makes reads the same.
package gold

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/piprate/json-gold/ld"

	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/rdf"
)

// refusingLoader is the document loader every JSON-LD call gets: it loads
// nothing, so no context is fetched from the network or read from a file
// because a document names it.
type refusingLoader struct{}

func (refusingLoader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	return nil, fmt.Errorf("context %s: %w: jrpcld does not fetch contexts; save it locally and merge it into the block's context", u, ErrRemoteContext)
}

// Options returns JSON-LD 1.1 options for documents whose base IRI is base,
// with a document loader that loads nothing.
func Options(base string) *ld.JsonLdOptions {
	opts := ld.NewJsonLdOptions(base)
	opts.DocumentLoader = refusingLoader{}
	opts.ProcessingMode = ld.JsonLd_1_1
	return opts
}

// FloatNumbers returns a copy of a decoded JSON value with json.Number
// turned into float64, which json-gold expects in a context ("@version":
// 1.1) and a document.
func FloatNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x
		}
		return f
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = FloatNumbers(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = FloatNumbers(e)
		}
		return a
	}
	return v
}

// JSONMarker types the canonical text of a JSON literal while json-gold
// handles it; Term turns it into rdf:JSON, so it never appears in output.
const JSONMarker = "urn:jrpcld:canonical-json"

// CanonicalJSONValues replaces, in an expanded JSON-LD document, every
// @json value by its RFC 8785 canonical text, typed with JSONMarker.
// json-gold's own canonicalisation handles only objects and arrays and
// writes an error text for the rest, and it would run again on an rdf:JSON
// string; under the marker type json-gold leaves the text alone and Term
// makes it the rdf:JSON literal JSON-LD 1.1 specifies. It returns the
// numbers whose value canonical form changes.
func CanonicalJSONValues(v any) ([]jcs.Change, error) {
	var changes []jcs.Change
	var walk func(v any) error
	walk = func(v any) error {
		switch x := v.(type) {
		case map[string]any:
			if x["@type"] == "@json" {
				if val, ok := x["@value"]; ok {
					s, ch, err := jcs.String(val)
					if err != nil {
						return fmt.Errorf("JSON literal: %w", err)
					}
					changes = append(changes, ch...)
					x["@value"] = s
					x["@type"] = JSONMarker
					return nil
				}
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if err := walk(x[k]); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return changes, walk(v)
}

// Triple turns one of json-gold's statements into a triple; blank node
// labels get the given prefix (see Term).
func Triple(q *ld.Quad, blankPrefix string) (rdf.Triple, error) {
	s, err := Term(q.Subject, blankPrefix)
	if err != nil {
		return rdf.Triple{}, err
	}
	p, err := Term(q.Predicate, blankPrefix)
	if err != nil {
		return rdf.Triple{}, err
	}
	if p.Kind != rdf.IRI {
		return rdf.Triple{}, fmt.Errorf("predicate %v is not an IRI", p)
	}
	o, err := Term(q.Object, blankPrefix)
	if err != nil {
		return rdf.Triple{}, err
	}
	return rdf.Triple{S: s, P: p.Value, O: o}, nil
}

// Term turns one of json-gold's nodes into an RDF term. Blank node labels
// lose json-gold's "_:" and get blankPrefix, so that the labels of separate
// documents never meet. A literal typed JSONMarker becomes rdf:JSON; an
// rdf:JSON literal holding json-gold's own canonicalisation failure is an
// error, never data.
func Term(n ld.Node, blankPrefix string) (rdf.Term, error) {
	switch x := n.(type) {
	case ld.IRI:
		if err := checkIRI(x.Value); err != nil {
			return rdf.Term{}, err
		}
		return rdf.NewIRI(x.Value), nil
	case ld.BlankNode:
		label := blankPrefix + strings.TrimPrefix(x.Attribute, "_:")
		if strings.TrimSpace(label) == "" {
			return rdf.Term{}, errors.New("blank node without a label")
		}
		return rdf.NewBlank(label), nil
	case ld.Literal:
		if x.Language != "" {
			return rdf.NewLangLiteral(x.Value, x.Language), nil
		}
		dt := x.Datatype
		switch dt {
		case JSONMarker:
			dt = rdf.RDFJSON
		case rdf.RDFJSON:
			if strings.HasPrefix(x.Value, "JSON Canonicalization error") || strings.HasPrefix(x.Value, "JSON Marshal error") {
				return rdf.Term{}, fmt.Errorf("rdf:JSON literal: %s", x.Value)
			}
		}
		if err := checkIRI(dt); dt != "" && err != nil {
			return rdf.Term{}, fmt.Errorf("datatype: %w", err)
		}
		return rdf.NewLiteral(x.Value, dt), nil
	}
	return rdf.Term{}, fmt.Errorf("unknown RDF term %T", n)
}

// ValidIRI reports whether Term accepts iri: it is not empty and holds no
// character in U+0000-U+0020 nor any of <>"{}|^`\ (RFC 3987). Whether it is
// absolute json-gold decides.
func ValidIRI(iri string) bool {
	if iri == "" {
		return false
	}
	// checkIRI's verdict byte by byte: the bytes of a multi-byte UTF-8
	// sequence (and of invalid UTF-8, U+FFFD to checkIRI) are all >= 0x80,
	// and every rune checkIRI refuses is ASCII.
	for i := 0; i < len(iri); i++ {
		if iriRefused[iri[i]] {
			return false
		}
	}
	return true
}

// iriRefused marks the bytes checkIRI refuses.
var iriRefused = func() (t [256]bool) {
	for c := 0; c <= ' '; c++ {
		t[c] = true
	}
	for _, c := range []byte("<>\"{}|^`\\") {
		t[c] = true
	}
	return t
}()

func checkIRI(iri string) error {
	if iri == "" {
		return fmt.Errorf("%w: empty IRI", rdf.ErrInvalidTerm)
	}
	for _, r := range iri {
		if r <= ' ' || strings.ContainsRune("<>\"{}|^`\\", r) {
			return fmt.Errorf("%w: IRI <%s>: disallowed character %q", rdf.ErrInvalidTerm, iri, r)
		}
	}
	return nil
}
