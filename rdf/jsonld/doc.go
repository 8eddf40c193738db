// Package jsonld reads and writes RDF as JSON-LD, through json-gold (the
// reference JSON-LD processor) with a document loader that loads nothing:
// Read turns a JSON-LD document, compacted or expanded, into statements;
// Writer writes groups of statements as one document, compacted with a
// block's context or expanded. rdf:JSON literals go both ways as @json
// values in RFC 8785 canonical form.
package jsonld
