package jsonld_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// TestWriteReadsBack: what the Writer writes, compacted with a context and
// prefixes or expanded, reads back (with json-gold, through Read) to the
// statements it was given, whatever the data holds: @json values whose
// members look like compact IRIs or keywords, an array of one element, an
// IRI whose scheme is one of the prefixes, strings like the marks that
// hold @json values out of compaction.
func TestWriteReadsBack(t *testing.T) {
	const (
		ex   = "http://example.com/"
		jrpc = "http://json-rpc.org/ontology#"
	)
	s := rdf.NewIRI(ex + "m1")
	json := func(v string) rdf.Term { return rdf.NewLiteral(v, rdf.RDFJSON) }
	tests := []struct {
		name    string
		triples []rdf.Triple
	}{
		{"a @json member named as a compact IRI", []rdf.Triple{
			{S: s, P: jrpc + "hasMethod", O: rdf.NewLiteral("@type", rdf.XSDString)},
			{S: s, P: jrpc + "hasParameters", O: json(`{"jrpc:hasMethod":"jrpc:hasMethod"}`)}}},
		{"@json members named as keywords", []rdf.Triple{
			{S: s, P: jrpc + "hasResult", O: json(`{"@context":{"x":"http://evil.example/"},"@id":"x:y","@type":"@json"}`)}}},
		{"a @json array of one element", []rdf.Triple{
			{S: s, P: jrpc + "hasResult", O: json(`[{"rdf:type":"rdf:type"}]`)}}},
		{"an IRI whose scheme is a prefix", []rdf.Triple{
			{S: s, P: jrpc + "hasId", O: rdf.NewIRI("rdf:type")},
			{S: s, P: jrpc + "hasResult", O: json(`[1]`)}}},
		{"strings like the marks", []rdf.Triple{
			{S: s, P: jrpc + "hasResult", O: json(`"\u0000json0"`)},
			{S: s, P: jrpc + "hasMethod", O: rdf.NewLiteral("\x00json0", rdf.XSDString)},
			{S: s, P: jrpc + "hasParameters", O: json(`["\u0000json1"]`)}}},
	}
	// The embedded JSON-RPC 2.0 block's context: params and result are
	// @json, id is @id.
	ctx := toolchaintest.DefaultContext(t).Value()
	prefixes := []rdf.Prefix{{Name: "jrpc", IRI: jrpc}, {Name: "rdf", IRI: "http://www.w3.org/1999/02/22-rdf-syntax-ns#"}}
	for _, tt := range tests {
		for _, expanded := range []bool{false, true} {
			var buf bytes.Buffer
			w, err := jsonld.NewWriter(&buf, ctx, prefixes, expanded)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteGroup(tt.triples); err != nil {
				t.Fatalf("%s (expanded %v): %v", tt.name, expanded, err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			quads, err := jsonld.Read(buf.Bytes())
			if err != nil {
				t.Fatalf("%s (expanded %v): %v\n%s", tt.name, expanded, err, buf.String())
			}
			var got []rdf.Triple
			for _, q := range quads {
				got = append(got, q.Triple)
			}
			if ok, diff := rdftest.Isomorphic(got, tt.triples); !ok {
				t.Errorf("%s (expanded %v): read back differs:\n%s\n%s", tt.name, expanded, diff, buf.String())
			}
		}
	}
}

// TestWriteRefusesEscaped: a literal whose lexical form is escaped for
// N-Triples and Turtle (rdf.Term.Escaped) is not written as JSON-LD.
func TestWriteRefusesEscaped(t *testing.T) {
	lit := rdf.NewLiteral(`{\"a\":1}`, rdf.RDFJSON)
	lit.Escaped = true
	w, err := jsonld.NewWriter(io.Discard, nil, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	err = w.WriteGroup([]rdf.Triple{{S: rdf.NewIRI("http://example.com/s"), P: "http://example.com/p", O: lit}})
	if err == nil || !strings.Contains(err.Error(), "escaped") {
		t.Errorf("WriteGroup: %v, want an error about the escaped form", err)
	}
}
