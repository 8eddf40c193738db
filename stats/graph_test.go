package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/internal/rdftest"
	"github.com/jrpcld/jrpcld/internal/shared"
	"github.com/knakk/rdf"
)

// nt writes a term in N-Triples form, blank nodes as _:label.
func (t term) nt() string {
	switch t.kind {
	case iriTerm:
		return "<" + t.value + ">"
	case blankTerm:
		return "_:" + t.value
	}
	q, _ := json.Marshal(t.value)
	switch {
	case t.lang != "":
		return string(q) + "@" + t.lang
	case t.dt == xsdStr:
		return string(q)
	}
	return string(q) + "^^<" + t.dt + ">"
}

func parseAll(t *testing.T, doc string) ([]string, error) {
	t.Helper()
	var out []string
	err := parseRDF([]byte(doc), "doc.ttl", func(tr triple) { out = append(out, tr.s.nt()+" "+tr.p.nt()+" "+tr.o.nt()) })
	return out, err
}

func TestParseRDF(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"n-triples", `<http://a> <http://p> "x\ty\u00e9" .` + "\n" + `_:b1 <http://p> "5"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
			[]string{`<http://a> <http://p> "x\tyé"`, `_:b1 <http://p> "5"^^<http://www.w3.org/2001/XMLSchema#integer>`}},
		{"n-quads graph name", `<http://a> <http://p> <http://o> <http://g> .` + "\n" + `<http://a> <http://p> "v"@en _:g .`,
			[]string{`<http://a> <http://p> <http://o>`, `<http://a> <http://p> "v"@en`}},
		{"prefixes, a, ; and ,", "@prefix ex: <http://ex/> .\nPREFIX : <http://d/>\nex:s a :C ; ex:p ex:o1 , ex:o2 ; .",
			[]string{`<http://ex/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://d/C>`, `<http://ex/s> <http://ex/p> <http://ex/o1>`, `<http://ex/s> <http://ex/p> <http://ex/o2>`}},
		{"local names with dots and escapes", "@prefix log: <http://l#> .\nlog:m3.0 log:p log:a\\-b.",
			[]string{`<http://l#m3.0> <http://l#p> <http://l#a-b>`}},
		{"numbers and booleans", "@prefix x: <http://x/> .\nx:s x:p 1, -2.5, 1e3, .5, true, false.",
			[]string{`<http://x/s> <http://x/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`,
				`<http://x/s> <http://x/p> "-2.5"^^<http://www.w3.org/2001/XMLSchema#decimal>`,
				`<http://x/s> <http://x/p> "1e3"^^<http://www.w3.org/2001/XMLSchema#double>`,
				`<http://x/s> <http://x/p> ".5"^^<http://www.w3.org/2001/XMLSchema#decimal>`,
				`<http://x/s> <http://x/p> "true"^^<http://www.w3.org/2001/XMLSchema#boolean>`,
				`<http://x/s> <http://x/p> "false"^^<http://www.w3.org/2001/XMLSchema#boolean>`}},
		{"long strings", `<http://s> <http://p> """""a"""" , '''x
y''' .`, []string{`<http://s> <http://p> "\"\"a\""`, `<http://s> <http://p> "x\ny"`}},
		{"nested blank nodes", `<http://s> <http://p> [ <http://q> [ <http://r> 1 ] ] . [ <http://p> "x" ] .`,
			[]string{`_:#2 <http://r> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`, `_:#1 <http://q> _:#2`, `<http://s> <http://p> _:#1`, `_:#3 <http://p> "x"`}},
		{"collections", `<http://s> <http://p> ( 1 <http://o> ) , () .`,
			[]string{`_:#1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`,
				`_:#1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:#2`,
				`_:#2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <http://o>`,
				`_:#2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>`,
				`<http://s> <http://p> _:#1`, `<http://s> <http://p> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>`}},
		{"base and comments", "# c\n@base <http://b/dir/> .\n<a> <#p> <../c> . # end", []string{`<http://b/dir/a> <http://b/dir/#p> <http://b/c>`}},
		{"keywords as prefixes", "@prefix true: <http://t/> .\ntrue:x true:y true .", []string{`<http://t/x> <http://t/y> "true"^^<http://www.w3.org/2001/XMLSchema#boolean>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseAll(t, tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestParseRDFErrors(t *testing.T) {
	tests := []struct{ doc, err string }{
		{`<http://s> <http://p> .`, `doc.ttl:1: expected a term, found "."`},
		{"\n<http://s> <http://p> \"x", `doc.ttl:2: unterminated string`},
		{`ex:s ex:p ex:o .`, `undeclared prefix "ex"`},
		{`<http://s> <http://p> <http://o>`, `expected '.', found the end of the input`},
		{`<http://s> <http://p> "a\qb" .`, `bad escape \q`},
		{`"lit" <http://p> <http://o> .`, `a literal cannot be a subject`},
		{`<http://s> <http://p> ( 1 2 .`, `expected a term, found "."`},
		{`<http://s a b> <http://p> 1 .`, `not allowed in an IRI`},
		{`@foo <x> .`, `unknown directive`},
		{`<http://s> <http://p> "\uZZZZ" .`, `bad escape`},
		{`<http://s> <http://p> [ <http://q> 1 .`, `expected ']'`},
	}
	for _, tt := range tests {
		_, err := parseAll(t, tt.doc)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: error %v, want %q", tt.doc, err, tt.err)
		}
	}
}

func FuzzParseRDF(f *testing.F) {
	for _, s := range []string{`@prefix a: <http://a/> . a:b a:c ( 1 [ a:d "x"@en ] ) .`, `<a> <b> """x""" <g> .`, `_:x <p> 1.5e3 .`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		parseRDF([]byte(doc), "fuzz", func(triple) {}) // must not panic
	})
}

// TestParseRDFAgainstRapper compares the reader with rapper on a graph
// jrpcld wrote and on a document using the rest of Turtle.
func TestParseRDFAgainstRapper(t *testing.T) {
	ctx, _, err := convert.BlockContext(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ttl := filepath.Join(t.TempDir(), "p.ttl")
	writeGraph(t, ctx, filepath.Join("testdata", "pairing.jsonl"), "http://example.org/log", ttl, convert.Turtle)
	written, err := os.ReadFile(ttl)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{
		"jrpcld": string(written),
		"turtle": `@prefix ex: <http://example.org/> . @base <http://example.org/base/> .
ex:s ex:p ( 1 2.0 3e0 ) ; ex:q [ ex:r "a\nb"@en-GB , 'c'^^ex:T ] ; ex:s <rel> , """x "y" z""" .
[] ex:p false .`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			var mine []rdf.Triple
			err := parseRDF([]byte(doc), name, func(tr triple) { mine = append(mine, knakkTriple(t, tr)) })
			if err != nil {
				t.Fatal(err)
			}
			theirs := rdftest.Rapper(t, []byte(doc), "http://example.org/base/")
			if ok, diff := rdftest.Isomorphic(mine, theirs); !ok {
				t.Errorf("not the graph rapper reads:\n%s", diff)
			}
		})
	}
}

func knakkTriple(t *testing.T, tr triple) rdf.Triple {
	conv := func(x term) rdf.Term {
		var v rdf.Term
		var err error
		switch x.kind {
		case iriTerm:
			v, err = rdf.NewIRI(x.value)
		case blankTerm:
			v, err = rdf.NewBlank("x" + strings.TrimPrefix(x.value, "#"))
		default:
			if x.lang != "" {
				v, err = rdf.NewLangLiteral(x.value, x.lang)
			} else {
				dt, _ := rdf.NewIRI(x.dt)
				v = rdf.NewTypedLiteral(x.value, dt)
			}
		}
		if err != nil {
			t.Fatalf("term %v: %v", x, err)
		}
		return v
	}
	return rdf.Triple{Subj: conv(tr.s).(rdf.Subject), Pred: conv(tr.p).(rdf.Predicate), Obj: conv(tr.o).(rdf.Object)}
}

func TestIsGraph(t *testing.T) {
	tests := []struct {
		name, head string
		want       bool
	}{
		{"g.ttl", "", true}, {"g.nt", "{", true}, {"G.NQ", "", true},
		{"log.jsonl", "@prefix", false}, {"log.json.gz", "<", false},
		{"stdin", "  @prefix x: <y> .", true}, {"stdin", "PREFIX x: <y>", true}, {"stdin", "<http://a> <b> <c> .", true},
		{"stdin", "_:b <p> <o> .", true}, {"stdin", "# comment", true},
		{"stdin", `{"jsonrpc":"2.0"}`, false}, {"stdin", "[1]", false}, {"stdin", "\x1f\x8b", false}, {"stdin", "", false},
		{"stdin", "prefixed nonsense", false},
	}
	for _, tt := range tests {
		if got := IsGraph(tt.name, []byte(tt.head)); got != tt.want {
			t.Errorf("IsGraph(%q, %q) = %v", tt.name, tt.head, got)
		}
	}
}

// statsJSON returns the JSON value of Stats without where they came from.
func statsJSON(t *testing.T, s *Stats) any { return toJSON(t, s) }

// TestGraphRoundTrip: the Stats of the graph jrpcld writes for a log, in
// each RDF format, are those of the log itself.
func TestGraphRoundTrip(t *testing.T) {
	logs := []string{filepath.Join("testdata", "pairing.jsonl")}
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.jsonl")
	writeBare(t, logs[0], bare)
	logs = append(logs, bare)
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	more, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	logs = append(logs, more...)
	ctx, _, err := convert.BlockContext(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []convert.Format{convert.Turtle, convert.NTriples, convert.NQuads} {
		for i, file := range logs {
			t.Run(fmt.Sprintf("%s/%s", f, filepath.Base(file)), func(t *testing.T) {
				g := filepath.Join(dir, fmt.Sprintf("g%d.%s", i, f))
				writeGraph(t, ctx, file, "http://example.org/log", g, f)
				data, err := os.ReadFile(g)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ReadGraph(bytes.NewReader(data), g, func(string) *Collector { return NewCollector(Options{}) })
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 1 || got[0].Log != "http://example.org/log" {
					t.Fatalf("%d logs", len(got))
				}
				want := readLogFile(t, file, Options{})
				if a, b := statsJSON(t, got[0].Stats), statsJSON(t, want.Stats); !reflect.DeepEqual(a, b) {
					ja, _ := json.MarshalIndent(a, "", " ")
					jb, _ := json.MarshalIndent(b, "", " ")
					t.Errorf("from the graph:\n%s\nfrom the log:\n%s", ja, jb)
				}
			})
		}
	}
}

// TestGraphSeveralLogs: a graph of several logs gives one LogStats each, in
// the order they appear.
func TestGraphSeveralLogs(t *testing.T) {
	ctx, _, err := convert.BlockContext(bblock.Default(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs []convert.Log
	var out bytes.Buffer
	for _, iri := range []string{"http://x/b", "http://x/a"} {
		r, err := convert.NewReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+iri+`"}`), iri, convert.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, convert.Log{Reader: r, File: iri, IRI: iri})
	}
	if err := convert.NewConverter(ctx).Convert(&out, convert.Turtle, logs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadGraph(&out, "two.ttl", func(string) *Collector { return NewCollector(Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, l.Log+" "+strings.Join(sortedKeys(l.Requests), ","))
	}
	if want := []string{"http://x/b http://x/b", "http://x/a http://x/a"}; !reflect.DeepEqual(names, want) {
		t.Errorf("logs %q, want %q", names, want)
	}

}
