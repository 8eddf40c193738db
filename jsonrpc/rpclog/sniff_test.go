package rpclog

import (
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

func TestGraphFormat(t *testing.T) {
	const no = -1
	tests := []struct {
		name, head string
		want       rdf.Format // no: a log
	}{
		{"g.ttl", "", rdf.Turtle}, {"g.nt", "{", rdf.NTriples}, {"G.NQ", "", rdf.NQuads}, {"g.jsonld", "{", rdf.JSONLD},
		{"log.jsonl", "@prefix", no}, {"log.json.gz", "<", no}, {"log.ndjson", "<", no}, {"log.json", "_:b", no},
		{"stdin", "  @prefix x: <y> .", rdf.Turtle}, {"stdin", "PREFIX x: <y>", rdf.Turtle}, {"stdin", "base\t<y>", rdf.Turtle},
		{"stdin", "\xef\xbb\xbf@base <y> .", rdf.Turtle},
		{"stdin", "<http://a> <b> <c> .", rdf.NQuads}, {"stdin", "_:b <p> <o> .", rdf.NQuads},
		{"stdin", "# comment", rdf.Turtle}, {"stdin", "# a\n\n  # b\n<http://a>", rdf.NQuads}, {"stdin", "# a\n@prefix", rdf.Turtle},
		{"stdin", `{"jsonrpc":"2.0"}`, no}, {"stdin", "[1]", no}, {"stdin", "\x1f\x8b", no}, {"stdin", "", no}, {"stdin", " \n", no},
		{"stdin", "prefixed nonsense", no}, {"stdin", "_x", no},
		// One rule for every command (issue 23, item 10): comment lines
		// before a JSON line are the bad first line of a log; XML is
		// not N-Quads; JSON-LD is told by its keywords.
		{"stdin", "# a comment\n" + `{"jsonrpc":"2.0","method":"a"}`, no}, {"log.jsonl", "# a comment", no},
		{"stdin", "#!\n[", no}, {"stdin", "# a\nhello", no},
		{"stdin", `<?xml version="1.0"?>`, rdf.RDFXML}, {"stdin", "<!DOCTYPE rdf:RDF>", rdf.RDFXML}, {"stdin", "<rdf:RDF", rdf.RDFXML},
		{"log.jsonl", "<?xml", no}, {"g.rdf", "<?xml", rdf.RDFXML},
		{"stdin", `{"@context":{}, "@graph":[]}`, rdf.JSONLD}, {"log.json", `[{"@id":"x","jsonrpc":"2.0"}]`, rdf.JSONLD},
		{"log.jsonl", `{"jsonrpc":"2.0","params":{"@id":"x"}}`, no},
	}
	for _, tt := range tests {
		f, ok := GraphFormat(tt.name, []byte(tt.head))
		if ok != (tt.want != no) || ok && f != tt.want {
			t.Errorf("GraphFormat(%q, %q) = %v, %v; want %v", tt.name, tt.head, f, ok, tt.want)
		}
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		head string
		want Kind
	}{
		{"", NotJSON}, {"  \n", NotJSON}, {"@prefix x: <y> .", NotJSON}, {"<http://a> <b> <c> .", NotJSON},
		{"\x1f\x8b\x08", Gzip}, {"\x1f\x8b{\"@context\"", Gzip},
		{`{"jsonrpc":"2.0","method":"a"}`, JSONLog}, {" \r\n[{\"jsonrpc\":\"2.0\"}]", JSONLog},
		{"\xef\xbb\xbf{\"jsonrpc\":\"2.0\"}", JSONLog},
		{`{"@context":{},"@graph":[]}`, JSONLD}, {`[{"@id":"x","jsonrpc":"2.0"}]`, JSONLD},
		{`{"jsonrpc":"2.0","params":{"@id":"x"}}`, JSONLog},
		{`{"a":1}`, JSONUnknown}, {"[1, 2]", JSONUnknown},
	}
	for _, tt := range tests {
		if got := Sniff([]byte(tt.head)); got != tt.want {
			t.Errorf("Sniff(%q) = %d, want %d", tt.head, got, tt.want)
		}
	}
}
