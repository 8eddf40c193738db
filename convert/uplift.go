package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/knakk/rdf"
	"github.com/piprate/json-gold/ld"
)

// IRIs of the vocabularies the conversion writes.
const (
	RDFNS    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	XSDNS    = "http://www.w3.org/2001/XMLSchema#"
	RDFJSON  = RDFNS + "JSON"
	RDFType  = RDFNS + "type"
	JRPCNS   = "http://json-rpc.org/ontology#"
	XSDInt   = XSDNS + "integer"
	XSDStr   = XSDNS + "string"
	XSDDec   = XSDNS + "decimal"
	XSDDbl   = XSDNS + "double"
	XSDBool  = XSDNS + "boolean"
	XSDDTime = XSDNS + "dateTime"
)

// jsonMarker types the canonical text of a JSON literal while json-gold
// handles it; it never appears in output.
const jsonMarker = "urn:jrpcld:canonical-json"

// ErrRemoteContext is wrapped by errors for a context that names another
// context by URL: jrpcld never fetches one.
var ErrRemoteContext = errors.New("remote context")

// refusingLoader is the document loader every JSON-LD call gets: it loads
// nothing, so no context is fetched from the network or read from a file
// because a document names it.
type refusingLoader struct{}

func (refusingLoader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	return nil, fmt.Errorf("context %s: %w: jrpcld does not fetch contexts; save it locally and merge it into the block's context", u, ErrRemoteContext)
}

// Mapping turns JSON-RPC messages into RDF triples through json-gold with a
// block's JSON-LD context, processed once. It is safe for concurrent use.
type Mapping struct {
	active *ld.Context
	opts   *ld.JsonLdOptions
}

// NewMapping processes context, the value of a block's "@context", for
// documents whose base IRI is base (the context's own @base wins).
func NewMapping(context any, base string) (*Mapping, error) {
	opts := ld.NewJsonLdOptions(base)
	opts.DocumentLoader = refusingLoader{}
	opts.ProcessingMode = ld.JsonLd_1_1
	active, err := ld.NewContext(nil, opts).Parse(floatNumbers(context))
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	// Computing the inverse context once makes the parsed context safe to
	// share between goroutines.
	active.GetInverse()
	return &Mapping{active: active, opts: opts}, nil
}

// floatNumbers returns a copy of a decoded JSON value with json.Number
// turned into float64, which json-gold expects in a context ("@version": 1.1).
func floatNumbers(v any) any {
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
			m[k] = floatNumbers(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = floatNumbers(e)
		}
		return a
	}
	return v
}

// Notice is something worth telling the user about one message: data the
// mapping cannot carry, or changes it makes.
type Notice struct {
	Pointer string
	Message string
}

// Triples maps msg, a decoded message object, to triples. The message's
// node is the IRI node, or a blank node when node is empty; blank nodes are
// labelled with the given prefix so that labels of different messages never
// collide. Keys starting with "@" are data, not JSON-LD keywords: they are
// left out, with a notice.
func (m *Mapping) Triples(msg map[string]any, node, bnodePrefix string) ([]rdf.Triple, []Notice, error) {
	doc := make(map[string]any, len(msg)+1)
	var notices []Notice
	for k, v := range msg {
		if strings.HasPrefix(k, "@") {
			notices = append(notices, Notice{Pointer: "/" + k, Message: fmt.Sprintf("member %q is data, not a JSON-LD instruction; it is not mapped to RDF", k)})
			continue
		}
		doc[k] = v
	}
	if node != "" {
		doc["@id"] = node
	}
	api := ld.NewJsonLdApi()
	expanded, err := api.Expand(m.active, "", doc, m.opts, false, nil)
	if err != nil {
		return nil, notices, fmt.Errorf("JSON-LD expansion: %w", err)
	}
	changes, err := canonicalJSONValues(expanded, "")
	if err != nil {
		return nil, notices, err
	}
	for _, c := range changes {
		notices = append(notices, Notice{Pointer: c.Pointer, Message: fmt.Sprintf("number %s becomes %s in the rdf:JSON literal: a double cannot hold it", c.Written, c.Becomes)})
	}
	ds, err := api.ToRDF(expanded, m.opts)
	if err != nil {
		return nil, notices, fmt.Errorf("JSON-LD to RDF: %w", err)
	}
	quads := ds.GetQuads("@default")
	out := make([]rdf.Triple, 0, len(quads))
	for _, q := range quads {
		t, err := tripleOf(q, bnodePrefix)
		if err != nil {
			return nil, notices, err
		}
		out = append(out, t)
	}
	return out, notices, nil
}

// canonicalJSONValues replaces, in an expanded JSON-LD document, every @json
// value by its RFC 8785 canonical text, typed with jsonMarker. json-gold's
// own canonicalisation handles only objects and arrays and writes an error
// text for the rest (see LIBRARIES.md), and it would run again on an
// rdf:JSON string; under the marker type json-gold leaves the text alone and
// termOf makes it the rdf:JSON literal JSON-LD 1.1 specifies. It returns the
// numbers whose value canonical form changes.
func canonicalJSONValues(v any, ptr string) ([]jcs.Change, error) {
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
					x["@type"] = jsonMarker
					return nil
				}
			}
			for _, k := range sortedMapKeys(x) {
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

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func tripleOf(q *ld.Quad, bnodePrefix string) (rdf.Triple, error) {
	s, err := termOf(q.Subject, bnodePrefix)
	if err != nil {
		return rdf.Triple{}, err
	}
	p, err := termOf(q.Predicate, bnodePrefix)
	if err != nil {
		return rdf.Triple{}, err
	}
	o, err := termOf(q.Object, bnodePrefix)
	if err != nil {
		return rdf.Triple{}, err
	}
	pi, ok := p.(rdf.IRI)
	if !ok {
		return rdf.Triple{}, fmt.Errorf("predicate %v is not an IRI", p)
	}
	return rdf.Triple{Subj: s.(rdf.Subject), Pred: pi, Obj: o.(rdf.Object)}, nil
}

func termOf(n ld.Node, bnodePrefix string) (rdf.Term, error) {
	switch x := n.(type) {
	case ld.IRI:
		iri, err := rdf.NewIRI(x.Value)
		if err != nil {
			return nil, fmt.Errorf("IRI <%s>: %w", x.Value, err)
		}
		return iri, nil
	case ld.BlankNode:
		return rdf.NewBlank(bnodePrefix + strings.TrimPrefix(x.Attribute, "_:"))
	case ld.Literal:
		if x.Language != "" {
			return rdf.NewLangLiteral(x.Value, x.Language)
		}
		dt := x.Datatype
		switch dt {
		case "":
			dt = XSDStr
		case jsonMarker:
			dt = RDFJSON
		case RDFJSON:
			// json-gold's own canonicalisation writes its failures as the
			// literal's text; never pass one on as data.
			if strings.HasPrefix(x.Value, "JSON Canonicalization error") || strings.HasPrefix(x.Value, "JSON Marshal error") {
				return nil, fmt.Errorf("rdf:JSON literal: %s", x.Value)
			}
		}
		dti, err := rdf.NewIRI(dt)
		if err != nil {
			return nil, fmt.Errorf("datatype <%s>: %w", dt, err)
		}
		return rdf.NewTypedLiteral(x.Value, dti), nil
	}
	return nil, fmt.Errorf("unknown RDF term %T", n)
}
