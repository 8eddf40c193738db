package rdf

import (
	"fmt"
	"mime"
	"path/filepath"
	"strings"
)

// Format is an RDF serialisation.
type Format int

// The formats jrpcld reads; all but RDFXML it also writes.
const (
	Turtle         Format = iota // Turtle 1.1 (.ttl)
	NTriples                     // N-Triples: one triple per line (.nt)
	NQuads                       // N-Quads: N-Triples with a graph label (.nq)
	JSONLD                       // JSON-LD, compacted with a context (.jsonld)
	JSONLDExpanded               // JSON-LD in expanded form: full IRIs, no context
	RDFXML                       // RDF/XML (.rdf, .owl); read only
)

var formats = []struct {
	name, short, mediaType, ext string
}{
	Turtle:         {"turtle", "ttl", "text/turtle", ".ttl"},
	NTriples:       {"ntriples", "nt", "application/n-triples", ".nt"},
	NQuads:         {"nquads", "nq", "application/n-quads", ".nq"},
	JSONLD:         {"jsonld", "", "application/ld+json", ".jsonld"},
	JSONLDExpanded: {"jsonld-expanded", "", "application/ld+json", ".jsonld"},
	RDFXML:         {"rdfxml", "rdf", "application/rdf+xml", ".rdf"},
}

// String returns the format's name, as ParseFormat reads it.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formats) {
		return formats[f].name
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// MediaType returns the format's media type, e.g. "text/turtle".
func (f Format) MediaType() string {
	if f >= 0 && int(f) < len(formats) {
		return formats[f].mediaType
	}
	return ""
}

// Extension returns the file name extension of the format, e.g. ".ttl".
func (f Format) Extension() string {
	if f >= 0 && int(f) < len(formats) {
		return formats[f].ext
	}
	return ""
}

// Writable reports whether jrpcld writes the format (all but RDF/XML).
func (f Format) Writable() bool { return f >= Turtle && f <= JSONLDExpanded }

// ParseFormat returns the format named s: turtle (or ttl), ntriples (nt),
// nquads (nq), jsonld, jsonld-expanded or rdfxml (rdf), in any case.
func ParseFormat(s string) (Format, error) {
	for i, f := range formats {
		if strings.EqualFold(s, f.name) || f.short != "" && strings.EqualFold(s, f.short) {
			return Format(i), nil
		}
	}
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return 0, fmt.Errorf("unknown RDF format %q: use %s", s, strings.Join(names, ", "))
}

// FormatOf returns the format a file name's extension says, and whether the
// name ends in ".gz" (then the extension before it counts): .ttl and
// .turtle are Turtle, .nt N-Triples, .nq N-Quads, .jsonld JSON-LD, .rdf and
// .owl RDF/XML. ok is false for any other extension.
func FormatOf(name string) (f Format, gzipped, ok bool) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".gz" {
		gzipped = true
		name = name[:len(name)-len(ext)]
		ext = strings.ToLower(filepath.Ext(name))
	}
	switch ext {
	case ".ttl", ".turtle":
		return Turtle, gzipped, true
	case ".nt":
		return NTriples, gzipped, true
	case ".nq":
		return NQuads, gzipped, true
	case ".jsonld":
		return JSONLD, gzipped, true
	case ".rdf", ".owl":
		return RDFXML, gzipped, true
	}
	return 0, gzipped, false
}

// FormatForMediaType returns the format of a media type such as
// "text/turtle; charset=utf-8" (parameters are ignored); ok is false for
// one jrpcld does not know. application/ld+json is JSONLD.
func FormatForMediaType(mediaType string) (f Format, ok bool) {
	mt, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return 0, false
	}
	switch mt {
	case "text/turtle", "application/x-turtle":
		return Turtle, true
	case "application/n-triples":
		return NTriples, true
	case "application/n-quads":
		return NQuads, true
	case "application/ld+json":
		return JSONLD, true
	case "application/rdf+xml":
		return RDFXML, true
	}
	return 0, false
}
