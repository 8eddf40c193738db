package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

const (
	exNS  = "http://example.org/"
	xsdNS = "http://www.w3.org/2001/XMLSchema#"
)

// queryFixture writes the inputs the query tests read, into a folder of
// their own, and returns it.
func queryFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"d.ttl": `@prefix : <http://example.org/> .
:a :n "01"^^<http://www.w3.org/2001/XMLSchema#integer> ; :b [ :c "x" ] .
:z :n 7 .
`,
		"d.nt": "<http://example.org/a> <http://example.org/n> \"2\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n",
		"d.nq": "<http://example.org/a> <http://example.org/n> \"3\"^^<http://www.w3.org/2001/XMLSchema#integer> <http://example.org/g> .\n" +
			"<http://example.org/a> <http://example.org/n> \"4\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n",
		"d.jsonld": `{"@id": "http://example.org/a", "http://example.org/n": {"@value": "5", "@type": "http://www.w3.org/2001/XMLSchema#integer"}}`,
		"d.rdf": `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:about="http://example.org/a"><ex:n rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">6</ex:n></rdf:Description>
</rdf:RDF>
`,
		"n.rq":    "PREFIX : <http://example.org/>\nSELECT ?n WHERE { ?s :n ?n } ORDER BY ?n\n",
		"bad.rq":  "SELECT *\nWHERE { ?s ?p }\n",
		"from.rq": "PREFIX : <http://example.org/>\nSELECT ?g ?n FROM <d.ttl> FROM NAMED <d.nt> WHERE { { ?s :n ?n } UNION { GRAPH ?g { ?s :n ?n } } } ORDER BY ?g ?n\n",
		"web.rq":  "SELECT * FROM <http://example.org/data.ttl> WHERE { ?s ?p ?o }\n",
		"u.ru": `PREFIX : <http://example.org/>
INSERT { GRAPH :g { ?s :seen true } } WHERE { ?s :n ?n FILTER(?n = 7) } ;
LOAD <d.nt> INTO GRAPH :h ;
DELETE WHERE { :a :b ?o . ?o :c ?x }
`,
		"web.ru":     "LOAD <http://example.org/data.ttl>\n",
		"default.ru": "PREFIX : <http://example.org/>\nDELETE DATA { :z :n 7 }\n",
		"bad.ru":     "INSERT DATA { <http://example.org/a> }\n",
		"broken.jsonl": `{"jsonrpc":"2.0","id":1,"method":"ping"}
not json
{"jsonrpc":"2.0","id":1,"result":{}}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(files["d.nt"]))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "d.nt.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestQueryResults: a SELECT's and an ASK's answers in each results
// format, exactly as the W3C formats write them, literals in their
// lexical form.
func TestQueryResults(t *testing.T) {
	dir := queryFixture(t)
	t.Chdir(dir)
	const ask = "ASK { ?s ?p \"x\" }"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"tsv by default", []string{"--query", "n.rq", "d.ttl"}, "?n\n01\n7\n"},
		{"tsv", []string{"--query", "n.rq", "-f", "tsv", "d.ttl"}, "?n\n01\n7\n"},
		{"csv", []string{"--query", "n.rq", "-f", "csv", "d.ttl"}, "n\r\n01\r\n7\r\n"},
		{"json", []string{"--query", "n.rq", "-f", "json", "d.ttl"}, `{"head":{"vars":["n"]},"results":{"bindings":[` + "\n" +
			`{"n":{"type":"literal","value":"01","datatype":"` + xsdNS + `integer"}},` + "\n" +
			`{"n":{"type":"literal","value":"7","datatype":"` + xsdNS + `integer"}}]}}` + "\n"},
		{"xml", []string{"--query", "n.rq", "-f", "xml", "d.ttl"}, `<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
<head>
<variable name="n"/>
</head>
<results>
<result><binding name="n"><literal datatype="` + xsdNS + `integer">01</literal></binding></result>
<result><binding name="n"><literal datatype="` + xsdNS + `integer">7</literal></binding></result>
</results>
</sparql>
`},
		{"ask json by default", []string{"-e", ask, "d.ttl"}, `{"head":{},"boolean":true}` + "\n"},
		{"ask xml", []string{"-e", ask, "-f", "xml", "d.nt"}, `<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
<head>
</head>
<boolean>false</boolean>
</sparql>
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, "", append([]string{"query"}, tt.args...)...)
			if code != cli.ExitOK || errOut != "" || out != tt.want {
				t.Errorf("exit %d, stderr %q\ngot\n%s\nwant\n%s", code, errOut, out, tt.want)
			}
		})
	}
}

// TestQueryInputs: each kind of INPUT gives the dataset it should: RDF in
// every format jrpcld reads (N-Quads keeping their graphs), gzip, standard
// input, a log as its named graph (and in the default graph with
// --default-graph-union), and without INPUT the files FROM and FROM NAMED
// name, relative to the query.
func TestQueryInputs(t *testing.T) {
	session, err := filepath.Abs(filepath.Join("..", "..", "examples", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := queryFixture(t)
	t.Chdir(dir)
	const all = "SELECT ?g ?n WHERE { { ?s <http://example.org/n> ?n } UNION { GRAPH ?g { ?s <http://example.org/n> ?n } } } ORDER BY ?g ?n"
	const requests = "PREFIX jrpc: <http://json-rpc.org/ontology#> SELECT (COUNT(*) AS ?n) WHERE { ?m a jrpc:Request }"
	const inGraph = "PREFIX jrpc: <http://json-rpc.org/ontology#> SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?m a jrpc:Request } } GROUP BY ?g"
	fileURL := "file://" + dir + "/"
	tests := []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"turtle", "", []string{"-e", all, "d.ttl"}, "?g\t?n\n\t01\n\t7\n"},
		{"n-triples", "", []string{"-e", all, "d.nt"}, "?g\t?n\n\t2\n"},
		{"n-quads keep their graphs", "", []string{"-e", all, "d.nq"}, "?g\t?n\n\t4\n<http://example.org/g>\t3\n"},
		{"json-ld", "", []string{"-e", all, "d.jsonld"}, "?g\t?n\n\t5\n"},
		{"rdf/xml", "", []string{"-e", all, "d.rdf"}, "?g\t?n\n\t6\n"},
		{"gzip", "", []string{"-e", all, "d.nt.gz"}, "?g\t?n\n\t2\n"},
		{"several files", "", []string{"-e", all, "d.nt", "d.nq"}, "?g\t?n\n\t2\n\t4\n<http://example.org/g>\t3\n"},
		{"standard input", "<http://e/s> <http://example.org/n> \"9\" .\n", []string{"-e", all}, "?g\t?n\n\t\"9\"\n"},
		{"a log is a named graph", "", []string{"-e", inGraph, "--base", "urn:x-log:s", session}, "?g\t?n\n<urn:x-log:s>\t6\n"},
		{"not in the default graph", "", []string{"-e", requests, session}, "?n\n0\n"},
		{"unless --default-graph-union", "", []string{"-e", requests, "--default-graph-union", session}, "?n\n6\n"},
		{"a log on standard input", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n", []string{"-e", inGraph}, "?g\t?n\n<file:///dev/stdin>\t1\n"},
		{"FROM loads files", "", []string{"--query", "from.rq"}, "?g\t?n\n\t01\n\t7\n<" + fileURL + "d.nt>\t2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, tt.stdin, append([]string{"query"}, tt.args...)...)
			if code != cli.ExitOK || errOut != "" || out != tt.want {
				t.Errorf("exit %d, stderr %q\ngot\n%s\nwant\n%s", code, errOut, out, tt.want)
			}
		})
	}
	// Given INPUT, FROM is ignored, and a note says so.
	code, out, errOut := jrpcld(t, "", "query", "--query", "from.rq", "d.nq")
	if code != cli.ExitOK || out != "?g\t?n\n\t4\n<http://example.org/g>\t3\n" || !strings.Contains(errOut, "note: from.rq: FROM and FROM NAMED are ignored") {
		t.Errorf("FROM with INPUT: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestQueryGraphs: CONSTRUCT and DESCRIBE in each graph format, read back
// by parsers that share no code with the writers and compared by
// isomorphism; DESCRIBE is the concise bounded description (the
// resource's triples and those of its blank nodes, nobody else's).
func TestQueryGraphs(t *testing.T) {
	dir := queryFixture(t)
	t.Chdir(dir)
	a, n, b, c := rdf.NewIRI(exNS+"a"), exNS+"n", exNS+"b", exNS+"c"
	x := rdf.NewBlank("x")
	cbd := []rdf.Triple{rdf.T(a, n, rdf.NewLiteral("01", xsdNS+"integer")), rdf.T(a, b, x), rdf.T(x, c, rdf.NewLiteral("x", rdf.XSDString))}
	numbers := []rdf.Triple{rdf.T(a, n, rdf.NewLiteral("01", xsdNS+"integer")), rdf.T(rdf.NewIRI(exNS+"z"), n, rdf.NewLiteral("7", xsdNS+"integer"))}
	const construct = "PREFIX : <http://example.org/> CONSTRUCT { ?s :n ?n } WHERE { ?s :n ?n }"
	const describe = "DESCRIBE <http://example.org/a>"
	tests := []struct {
		name   string
		args   []string
		parse  func([]byte) ([]rdf.Triple, error)
		want   []rdf.Triple
		prefix string // what the output must hold
	}{
		{"construct turtle", []string{"-e", construct, "d.ttl"}, func(b []byte) ([]rdf.Triple, error) { return rdftest.Rapper(t, b, ""), nil }, numbers, "@prefix : <http://example.org/> ."},
		{"construct ntriples", []string{"-e", construct, "-f", "ntriples", "d.ttl"}, rdftest.ParseNTriples, numbers, "\"01\"^^<" + xsdNS + "integer>"},
		{"construct nquads", []string{"-e", construct, "-f", "nquads", "d.ttl"}, quadTriples, numbers, ""},
		{"describe turtle", []string{"-e", describe, "d.ttl"}, func(b []byte) ([]rdf.Triple, error) { return rdftest.Rapper(t, b, ""), nil }, cbd, ""},
		{"describe ntriples", []string{"-e", describe, "-f", "ntriples", "d.ttl"}, rdftest.ParseNTriples, cbd, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, "", append([]string{"query"}, tt.args...)...)
			if code != cli.ExitOK || errOut != "" || !strings.Contains(out, tt.prefix) {
				t.Fatalf("exit %d, stderr %q, output lacks %q:\n%s", code, errOut, tt.prefix, out)
			}
			got, err := tt.parse([]byte(out))
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := rdftest.Isomorphic(got, tt.want); !ok {
				t.Errorf("%s\n%s", why, out)
			}
		})
	}
}

// quadTriples reads N-Quads that must all be in the default graph.
func quadTriples(b []byte) ([]rdf.Triple, error) {
	qs, err := rdftest.ParseNQuads(b)
	var ts []rdf.Triple
	for _, q := range qs {
		if !q.InDefaultGraph() {
			return nil, os.ErrInvalid
		}
		ts = append(ts, q.Triple)
	}
	return ts, err
}

// TestQueryUpdate: --update applies each operation in turn (LOAD reading
// a local file) and writes the dataset, N-Quads by the extension of -o,
// or Turtle when no named graph is left.
func TestQueryUpdate(t *testing.T) {
	dir := queryFixture(t)
	t.Chdir(dir)
	a, z, n := rdf.NewIRI(exNS+"a"), rdf.NewIRI(exNS+"z"), exNS+"n"
	integer := func(s string) rdf.Term { return rdf.NewLiteral(s, xsdNS+"integer") }
	want := []rdf.Quad{
		{Triple: rdf.T(a, n, integer("01"))},
		{Triple: rdf.T(z, n, integer("7"))},
		{Triple: rdf.T(z, exNS+"seen", rdf.NewLiteral("true", xsdNS+"boolean")), G: rdf.NewIRI(exNS + "g")},
		{Triple: rdf.T(a, n, integer("2")), G: rdf.NewIRI(exNS + "h")},
	}
	out := filepath.Join(dir, "out.nq")
	code, stdout, errOut := jrpcld(t, "", "query", "--update", "u.ru", "-o", out, "d.ttl")
	if code != cli.ExitOK || stdout != "" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rdftest.ParseNQuads(data)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := rdftest.IsomorphicQuads(got, want); !ok {
		t.Errorf("%s\n%s", why, data)
	}
	// The default graph alone, as Turtle on standard output.
	code, stdout, errOut = jrpcld(t, "", "query", "--update", "default.ru", "-f", "turtle", "d.nt")
	ts := rdftest.Rapper(t, []byte(stdout), "")
	if ok, why := rdftest.Isomorphic(ts, []rdf.Triple{rdf.T(a, n, integer("2"))}); code != cli.ExitOK || errOut != "" || !ok {
		t.Errorf("turtle: exit %d, stderr %q, %s\n%s", code, errOut, why, stdout)
	}
}

// TestQueryErrors: every mistake exits 2 with one line that says what is
// wrong (a syntax error with FILE:LINE:COL), and a log with a line that
// is not JSON exits 1 once the answer is written.
func TestQueryErrors(t *testing.T) {
	dir := queryFixture(t)
	t.Chdir(dir)
	tests := []struct {
		name string
		args []string
		code int
		want string // in standard error
	}{
		{"syntax error in a file", []string{"--query", "bad.rq", "d.ttl"}, cli.ExitUsage, "jrpcld query: bad.rq:2:15: expected a variable"},
		{"syntax error in -e", []string{"-e", "SELECT * WHERE { ?s ?p ?o", "d.ttl"}, cli.ExitUsage, "jrpcld query: -e:1:26: "},
		{"syntax error in an update", []string{"--update", "bad.ru", "d.ttl"}, cli.ExitUsage, "jrpcld query: bad.ru:1:"},
		{"no query", []string{"d.ttl"}, cli.ExitUsage, "give the query with --query FILE or -e TEXT"},
		{"two queries", []string{"--query", "n.rq", "-e", "ASK {}", "d.ttl"}, cli.ExitUsage, "give one of --query, -e and --update"},
		{"a query file missing", []string{"--query", "nope.rq", "d.ttl"}, cli.ExitUsage, "nope.rq: no such file"},
		{"an input missing", []string{"--query", "n.rq", "nope.ttl"}, cli.ExitUsage, "nope.ttl: no such file"},
		{"a graph format for SELECT", []string{"--query", "n.rq", "-f", "turtle", "d.ttl"}, cli.ExitUsage, "--format turtle: a SELECT query answers with SPARQL results: give json, xml, csv or tsv"},
		{"a results format for CONSTRUCT", []string{"-e", "CONSTRUCT WHERE { ?s ?p ?o }", "-f", "json", "d.ttl"}, cli.ExitUsage, "--format json: a CONSTRUCT query gives a graph: give turtle, ntriples or nquads"},
		{"an unknown format", []string{"--query", "n.rq", "-f", "trig", "d.ttl"}, cli.ExitUsage, "--format trig"},
		{"ASK in TSV", []string{"-e", "ASK {}", "-f", "tsv", "d.ttl"}, cli.ExitUsage, "an ASK query's answer has no CSV or TSV form"},
		{"-o and --format disagree", []string{"--query", "n.rq", "-f", "csv", "-o", "out.srj", "d.ttl"}, cli.ExitUsage, "--format csv and -o out.srj (json) disagree"},
		{"FROM the web", []string{"--query", "web.rq"}, cli.ExitUsage, "FROM <http://example.org/data.ttl>: jrpcld reads only local files"},
		{"LOAD from the web", []string{"--update", "web.ru"}, cli.ExitUsage, "jrpcld reads only local files"},
		{"named graphs as Turtle", []string{"--update", "u.ru", "-o", "out.ttl", "d.ttl"}, cli.ExitUsage, "the dataset has named graphs"},
		{"a bad --base", []string{"--query", "n.rq", "--base", "nope", "d.ttl"}, cli.ExitUsage, "--base \"nope\" is not an absolute IRI"},
		{"a broken log", []string{"-e", "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }", "broken.jsonl"}, cli.ExitInvalid, "broken.jsonl:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := jrpcld(t, "", append([]string{"query"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
			if tt.code == cli.ExitUsage && strings.Count(errOut, "\n") != 1 {
				t.Errorf("more than one line: %q", errOut)
			}
		})
	}
}
