package rdf_test

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

const base = "http://example.org/base/doc"

// TestAgainstRapper compares the graph read from documents that exercise each grammar with what rapper
// (and serdi) read from them.
func TestAgainstRapper(t *testing.T) {
	const p = "@prefix ex: <http://example.org/zoo#> .\n"
	tests := []struct {
		syntax rdf.Format
		name   string
		doc    string
	}{
		// serdi does not remove dot segments from resolved IRIs (RFC 3986, 5.2.4); rapper does.
		{rdf.Turtle, "prefixes", p + "ex:a ex:b ex:c .\nPREFIX e2: <http://example.org/e2#>\ne2:a e2:b e2:c ."},
		{rdf.Turtle, "base", "@base <http://example.org/x/y/z> .\n<a> <../b> <./c/../d> .\n<#f> <?q> <//host/p> .\n<> <b> </abs> ."},
		{rdf.Turtle, "lists and blanks", p + "ex:a ex:p [ ex:q [ ex:r ex:s ] ; ex:t ( ex:u ( ) [] ) ] .\n[ ex:p ex:o ] .\n_:x ex:p _:y ."},
		{rdf.Turtle, "strings", p + "ex:a ex:p \"s\" , 's' , \"\"\"l\"o\"\"ng\n\"\"\" , '''l'o''ng''' , \"\"\"\"\"a\"\"\" , '''''a''' ."},
		{rdf.Turtle, "escapes and tags", p + "ex:a ex:p \"tab\\tnl\\nq\\\"a\\'b\\\\\\u00e9\\U0001F600\" , \"x\"@en-GB , \"y\"^^ex:T , \"z\"^^<http://t/> ."},
		{rdf.Turtle, "numbers", p + "ex:a ex:p 1 , -2 , +3 , 4.5 , .5 , -.5 , 1e3 , 1.5E-3 , 1.e2 , .5e1 , true , false ."},
		{rdf.Turtle, "number before newline", p + "ex:a ex:p 1\n.\nex:b ex:p 2.5\t.\nex:c ex:p\n.5 ."},
		{rdf.Turtle, "local names", p + "ex:a.b ex:c-d ex:e_f .\nex:b ex:c ex:c\\.d , ex:e%20f , ex:g\\~h , ex:: , ex:a:b ."},
		{rdf.Turtle, "unicode", "@prefix é: <http://example.org/é#> .\né:ñ é:ü \"日本\" .\n<http://example.org/\\u00e9> <http://e/p> <http://e/ü> ."},
		{rdf.Turtle, "empty", ""},
		{rdf.NTriples, "terms", "<http://e/s> <http://e/p> <http://e/o> .\n_:b1 <http://e/p> \"x\\n\\u00e9\\\"\" .\n<http://e/s> <http://e/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n<http://e/s> <http://e/p> \"c\"@fr-CA .\n"},
		{rdf.NTriples, "comments and blank lines", "# head\n\n<http://e/s> <http://e/p> _:o . # tail\n\r\n<http://e/s>\t<http://e/p>\t\"\" .\r\n"},
		{rdf.NQuads, "graphs", "<http://e/s> <http://e/p> <http://e/o> <http://e/g1> .\n<http://e/s> <http://e/p> \"v\" _:g2 .\n<http://e/s> <http://e/p> \"d\" .\n"},
	}
	names := map[rdf.Format]string{rdf.Turtle: "turtle", rdf.NTriples: "ntriples", rdf.NQuads: "nquads"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := rdf.Parse([]byte(tt.doc), tt.syntax, base)
			if err != nil {
				t.Fatalf("Parse: %v\n%s", err, tt.doc)
			}
			tools := []string{"rapper", "serdi"}
			if tt.name == "base" {
				tools = tools[:1]
			}
			for _, tool := range tools {
				want := rdftest.ParseWith(t, tool, names[tt.syntax], []byte(tt.doc), base)
				if ok, diff := rdftest.IsomorphicQuads(got, want); !ok {
					t.Errorf("%s reads another graph:\n%s", tool, diff)
				}
			}
		})
	}
}

// TestDatatypes: the datatype of every kind of literal, which the isomorphism check above also covers
// but which is easiest to read here.
func TestDatatypes(t *testing.T) {
	doc := "@prefix x: <http://www.w3.org/2001/XMLSchema#> .\n<http://e/s> <http://e/p> 1 , 1.0 , 1e0 , true , \"s\" , \"l\"@en , \"t\"^^x:date ."
	qs, _, err := rdf.Parse([]byte(doc), rdf.Turtle, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"integer", "decimal", "double", "boolean", "string", "", "date"}
	for i, q := range qs {
		w := rdf.XSDNS + want[i]
		if want[i] == "" {
			w = rdf.RDFLangString
		}
		if q.O.Datatype != w {
			t.Errorf("%s: datatype %s, want %s", q.O.Value, q.O.Datatype, w)
		}
	}
}

// TestErrors: bad input gives the line and column where the reader stopped and what is wrong; rapper
// rejects the same inputs.
func TestErrors(t *testing.T) {
	tests := []struct {
		syntax    rdf.Format
		doc       string
		line, col int
		msg       string
	}{
		{rdf.Turtle, "@prefix ex: <http://e/> .\nex:a ex:b ex:c\nex:d ex:e ex:f .", 3, 1, `expected '.' at the end of the statement, found "ex:d"`},
		{rdf.Turtle, "<http://e/s> <http://e/p> \"open .\n", 1, 34, "line break in a short string"},
		{rdf.Turtle, "<http://e/s> <http://e/p> <bad iri> .", 1, 31, "character ' ' is not allowed in an IRI"},
		{rdf.Turtle, "<http://e/s> <http://e/p> \"é\\q\" .", 1, 29, `bad escape "\\q\""`},
		{rdf.Turtle, "<http://e/s> <http://e/p> <http://e/\\u0020> .", 1, 37, `escape \u0020 stands for ' ', which is not allowed in an IRI`},
		{rdf.NTriples, "<http://e/s> <http://e/\\U0000003C> <http://e/o> .", 1, 24, `escape \U0000003C stands for '<'`},
		{rdf.Turtle, "\n  foo:x <http://e/p> 1 .", 2, 3, `undeclared prefix "foo:"`},
		{rdf.Turtle, "<http://e/s> <http://e/p> " + strings.Repeat("[ <http://e/p> ", 600), 1, 27 + 15*512, "nested more than 512 deep"},
		{rdf.NTriples, "<http://e/s> <http://e/p> <o> .", 1, 27, "relative IRI <o>: N-Triples allows only absolute IRIs"},
		{rdf.NTriples, "<http://e/s> <http://e/p> <http://e/o>\n.", 1, 39, "expected '.' at the end of the statement"},
		{rdf.NTriples, "<http://e/s> <http://e/p> 'x' .", 1, 27, "expected an object"},
		{rdf.NTriples, "<http://e/s> <http://e/p> <http://e/o> . <http://e/s> <http://e/p> <http://e/o> .", 1, 42, "expected the end of the line"},
		{rdf.NTriples, "<http://e/s> <http://e/p> \"x\"^^xsd:string .", 1, 32, "expected a datatype IRI"},
		{rdf.NTriples, "<http://e/s> <http://e/p> <http://e/o> <http://e/g> .", 1, 40, "expected '.'"},
		{rdf.NQuads, "<http://e/s> <http://e/p> <http://e/o> \"g\" .", 1, 40, "expected '.'"},
		{rdf.NQuads, "<http://e/s> <http://e/p> \"\"\"x\"\"\" .", 1, 27, `allows only "..." strings`},
	}
	names := map[rdf.Format]string{rdf.Turtle: "turtle", rdf.NTriples: "ntriples", rdf.NQuads: "nquads"}
	for _, tt := range tests {
		_, _, err := rdf.Parse([]byte(tt.doc), tt.syntax, "")
		var se *diag.Diagnostic
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a *diag.Diagnostic", tt.doc, err)
			continue
		}
		if se.Line != tt.line || se.Column != tt.col || !strings.Contains(se.Message, tt.msg) {
			t.Errorf("%q: got %d:%d %q, want %d:%d and a message containing %q", tt.doc, se.Line, se.Column, se.Message, tt.line, tt.col, tt.msg)
		}
		if want := fmt.Sprintf("%d:%d: %s", se.Line, se.Column, se.Message); err.Error() != want {
			t.Errorf("%q: Error() = %q, want %q", tt.doc, err.Error(), want)
		}
		if rapper, err := exec.LookPath("rapper"); err == nil {
			cmd := exec.Command(rapper, "-q", "-f", "strict", "-i", names[tt.syntax], "-o", "ntriples", "-", base)
			cmd.Stdin = strings.NewReader(tt.doc)
			if err := cmd.Run(); err == nil {
				t.Errorf("%q: rapper accepts it", tt.doc)
			}
		}
	}
}

// TestIRIEscapes: a \u or \U escape in an IRI stands for its character, and
// is refused when that character is one IRIREF does not allow unescaped
// (U+0000-U+0020, <>"{}|^`\), as the W3C tests turtle-syntax-bad-uri-escape-01
// to -03 require for three of them. (rapper 2.0.15 refuses only those three.)
func TestIRIEscapes(t *testing.T) {
	tests := []struct {
		esc  string
		want string // the IRI read, or "" when it must be refused
	}{
		{`\u00E9`, "http://e/é"},
		{`\u0041`, "http://e/A"},
		{`\U0001F600`, "http://e/\U0001F600"},
		{`\u0025`, "http://e/%"},
		{`\u0000`, ""},
		{`\u0009`, ""},
		{`\u0020`, ""},
		{`\u0022`, ""},
		{`\u003c`, ""},
		{`\U0000003E`, ""},
		{`\u005C`, ""},
		{`\u005E`, ""},
		{`\u0060`, ""},
		{`\u007B`, ""},
		{`\u007C`, ""},
		{`\u007D`, ""},
	}
	for _, tt := range tests {
		for _, syntax := range []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads} {
			doc := "<http://e/" + tt.esc + "> <http://e/p> <http://e/o> .\n"
			qs, _, err := rdf.Parse([]byte(doc), syntax, "")
			switch {
			case tt.want == "" && err == nil:
				t.Errorf("%v %s: accepted as %s", syntax, tt.esc, qs[0].S)
			case tt.want != "" && err != nil:
				t.Errorf("%v %s: %v", syntax, tt.esc, err)
			case tt.want != "" && qs[0].S.Value != tt.want:
				t.Errorf("%v %s: read %s, want <%s>", syntax, tt.esc, qs[0].S, tt.want)
			}
		}
	}
}

// TestNoPanic: inputs on which knakk/rdf's decoder panics (in a goroutine, so that nothing can recover)
// or that cut a document anywhere give a graph or an error, never a panic.
func TestNoPanic(t *testing.T) {
	docs := []string{
		`<http://e/s> <http://e/p> """""a""" .`,
		"<http://e/s> <http://e/p>\n.5 .",
		"<http://e/s> <http://e/p> 1\n.",
		`<http://e/s> <http://e/p> "\U0011FFFF" .`,
		"<http://e/s> <http://e/p> \"\xff\" .",
		"<http://e/\xff> <http://e/p> 1 .",
		"_:",
		"<",
		"@prefix",
		"(((",
	}
	full := "@prefix ex: <http://example.org/#> .\nex:a ex:b [ ex:c ( 1 2.5 \"x\"@en ) ] ; ex:d \"\"\"l\"\"\" , _:b1 , 'q'^^ex:T .\n"
	for i := range full {
		docs = append(docs, full[:i])
	}
	nt := "<http://e/s> <http://e/p> \"x\\u00e9\"^^<http://e/T> <http://e/g> .\n"
	for i := range nt {
		docs = append(docs, nt[:i])
	}
	for _, d := range docs {
		for _, s := range []rdf.Format{rdf.Turtle, rdf.NTriples, rdf.NQuads} {
			rdf.Parse([]byte(d), s, base) // must return
		}
	}
	if _, _, err := rdf.Parse(nil, rdf.Format(7), ""); err == nil {
		t.Error("an unknown syntax is accepted")
	}
}

// TestBlankLabels: labels made for [] and () never meet labels written in the document.
func TestBlankLabels(t *testing.T) {
	qs, _, err := rdf.Parse([]byte("_:1 <http://e/p> [ <http://e/q> _:g1 ] ."), rdf.Turtle, "")
	if err != nil {
		t.Fatal(err)
	}
	// The nested statement comes first: [] q _:g1, then _:1 p [].
	made, written1, writtenG1 := qs[0].S, qs[1].S, qs[0].O
	if written1.Value != "1" || writtenG1.Value != "g1" || qs[1].O != made {
		t.Fatalf("quads %+v", qs)
	}
	if made == written1 || made == writtenG1 {
		t.Errorf("the label made for [] (%q) is one written in the document", made.Value)
	}
}

// TestResolveIRI runs the examples of RFC 3986, section 5.4.
func TestResolveIRI(t *testing.T) {
	const b = "http://a/b/c/d;p?q"
	tests := map[string]string{
		"g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
		"/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
		"#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s",
		";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "g;x?y#s": "http://a/b/c/g;x?y#s",
		"": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/",
		"../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
		"../../g": "http://a/g", "../../../g": "http://a/g", "../../../../g": "http://a/g",
		"/./g": "http://a/g", "/../g": "http://a/g", "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g",
		"g..": "http://a/b/c/g..", "..g": "http://a/b/c/..g", "./../g": "http://a/b/g",
		"./g/.": "http://a/b/c/g/", "g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h",
		"g;x=1/./y": "http://a/b/c/g;x=1/y", "g;x=1/../y": "http://a/b/c/y",
		"g?y/./x": "http://a/b/c/g?y/./x", "g?y/../x": "http://a/b/c/g?y/../x",
		"g#s/./x": "http://a/b/c/g#s/./x", "g#s/../x": "http://a/b/c/g#s/../x", "http:g": "http:g",
	}
	for ref, want := range tests {
		if got := rdf.ResolveIRI(b, ref); got != want {
			t.Errorf("ResolveIRI(%q, %q) = %q, want %q", b, ref, got, want)
		}
	}
	for _, tt := range [][3]string{
		{"http://a", "g", "http://a/g"},
		{"file:///x/y.jsonl/", "ü b", "file:///x/y.jsonl/ü b"},
		{"", "#x", "#x"},
	} {
		if got := rdf.ResolveIRI(tt[0], tt[1]); got != tt[2] {
			t.Errorf("ResolveIRI(%q, %q) = %q, want %q", tt[0], tt[1], got, tt[2])
		}
	}
}

// FuzzParse: no input makes the reader panic, and what it reads from N-Triples it reads the same from
// the document as rdf.Turtle (N-Triples is a subset of rdf.Turtle).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"@prefix ex: <http://example.org/#> .\nex:a ex:b [ ex:c ( 1 2.5 \"x\"@en ) ] ; ex:d \"\"\"l\"\"\" , _:b1 .",
		"<http://e/s> <http://e/p> \"x\\u00e9\"^^<http://e/T> .\n_:a <http://e/p> \"y\"@en .\n",
		"<http://e/s> <http://e/p> <http://e/o> <http://e/g> .\n",
		`<http://e/s> <http://e/p> """""a""" .`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range []rdf.Format{rdf.Turtle, rdf.NQuads} {
			rdf.Parse(data, s, base)
		}
		nt, _, err := rdf.Parse(data, rdf.NTriples, "")
		if err != nil {
			return
		}
		ttl, _, err := rdf.Parse(data, rdf.Turtle, "")
		if err != nil {
			t.Fatalf("N-Triples %q is not read as Turtle: %v", data, err)
		}
		if len(nt) != len(ttl) {
			t.Fatalf("%q: %d triples as N-Triples, %d as Turtle", data, len(nt), len(ttl))
		}
		for i := range nt {
			if nt[i] != ttl[i] {
				t.Fatalf("%q: %+v as N-Triples, %+v as Turtle", data, nt[i], ttl[i])
			}
		}
	})
}

// TestTurtleGrammarAgainstRapper compares the graph read from Turtle with rapper's, for more inputs that
// exercise the grammar, and checks that both reject the same broken inputs.
func TestTurtleGrammarAgainstRapper(t *testing.T) {
	const p = "@prefix ex: <http://example.org/zoo#> .\n"
	valid := []string{
		p + "ex:a ex:b ex:c .",
		"PREFIX ex: <http://example.org/zoo#>\nprefix : <http://example.org/empty#>\nex:a :b : .",
		"@base <http://example.org/x/y/z> .\n<a> <../b> <./c/../d> .\n<#f> <?q> <//host/p> .\n<> <b> </abs> .",
		"@prefix rel: <sub/> .\nrel:a rel:b rel:c .",
		p + "ex:a a ex:C ; ex:p ex:o1 , ex:o2 ;\n ex:q ex:o3 ; ; .",
		p + "ex:a ex:p [ ex:q [ ex:r ex:s ] ; ex:t ( ex:u ( ) [] ) ] .\n[ ex:p ex:o ] .\n[] ex:p ex:o .\n[ ex:p ex:o ] ex:q ex:r .",
		p + "( ex:a ex:b ) ex:p ( 1 \"x\" ) .",
		p + "ex:a ex:p \"s\" , 's' , \"\"\"l\"o\"\"ng\n\"\"\" , '''l'o''ng''' , \"\"\"\"\"a\"\"\" , '''''a''' .",
		p + "ex:a ex:p \"tab\\tnl\\nq\\\"a\\'b\\\\\\u00e9\\U0001F600\" , \"x\"@en-GB , \"y\"^^ex:T , \"z\"^^<http://t/> .",
		p + "ex:a ex:p 1 , -2 , +3 , 4.5 , .5 , -.5 , 1e3 , 1.5E-3 , 1.e2 , .5e1 , true , false .",
		p + "ex:a ex:p 1\n.\nex:b ex:p 2.5\t.\nex:c ex:p 3# comment\n.",
		p + "_:x ex:p _:y .\n_:y ex:p [ ex:q _:x ] .\n_:b1 ex:p ( [] ) .",
		p + "ex:a.b ex:c-d ex:e_f .\nex:g ex:h ex:i. ex:1 ex:2 ex:3 .",
		p + "ex:a ex:b ex:c\\.d , ex:e%20f , ex:g\\~h , ex:: , ex:a:b .",
		"@prefix é: <http://example.org/é#> .\né:ñ é:ü é:ß .\n<http://example.org/\\u00e9> <http://e/p> <http://e/ü> .",
		"# comment only\n@prefix ex: <http://example.org/zoo#> . # trailing\nex:a # mid\n ex:b # mid\n ex:c # end\n .",
		"@prefix ex: <http://example.org/zoo#> .\r\nex:a ex:b 1\r\n.\r\n",
		"@prefix true: <http://example.org/t#> .\ntrue:a true:b true .",
		p + "ex:a ex:b \"\" , '' , \"\"\"\"\"\" .",
		"",
	}
	invalid := []string{
		p + "ex:a ex:b ex:c",
		p + "ex:a ex:b \"unterminated .",
		p + "ex:a ex:b <bad iri> .",
		p + "ex:a ex:b foo:c .",
		p + "\"lit\" ex:b ex:c .",
		p + "ex:a ex:b ex:c ex:d .",
		p + "ex:a ex:b \"\"\"a\"\"\"\" .",
		p + "ex:a ex:b [ ex:c ex:d .",
		p + "ex:a ex:b ( ex:c .",
		p + "@prefixx ex: <http://e/> .",
		p + "ex:a ex:b \"x\\q\" .",
		p + "ex:a ex:b ex:c. .",
		p + "ex:a ex:b ex:c ;; , ex:d .",
		p + "ex:a ex:b 1.2.3 .",
	}
	for i, doc := range valid {
		t.Run("valid"+strconv.Itoa(i), func(t *testing.T) {
			got, _, err := rdf.Parse([]byte(doc), rdf.Turtle, base)
			if err != nil {
				t.Fatalf("Parse(%q): %v", doc, err)
			}
			want := rdftest.ParseWith(t, "rapper", "turtle", []byte(doc), base)
			if ok, diff := rdftest.IsomorphicQuads(got, want); !ok {
				t.Errorf("%q: rapper reads another graph:\n%s", doc, diff)
			}
		})
	}
	rapper, lookErr := exec.LookPath("rapper")
	for i, doc := range invalid {
		t.Run("invalid"+strconv.Itoa(i), func(t *testing.T) {
			if qs, _, err := rdf.Parse([]byte(doc), rdf.Turtle, base); err == nil {
				t.Errorf("Parse accepts %q: %d triples", doc, len(qs))
			}
			if lookErr != nil {
				return // the valid documents above checked that rapper is installed when it must be
			}
			cmd := exec.Command(rapper, "-q", "-i", "turtle", "-o", "ntriples", "-", base)
			cmd.Stdin = strings.NewReader(doc)
			if cmd.Run() == nil {
				t.Errorf("rapper accepts %q", doc)
			}
		})
	}
}

// TestParseAppend checks that ParseAppend appends to what its slice holds
// the statements Parse returns, and returns nil on an error, as Parse.
func TestParseAppend(t *testing.T) {
	first := "<http://a.example/s> <http://a.example/p> \"one\" .\n"
	second := "<http://a.example/s> <http://a.example/p> \"two\" <http://a.example/g> .\n_:b <http://a.example/q> <http://a.example/o> .\n"
	held, _, err := rdf.Parse([]byte(first), rdf.NQuads, "")
	if err != nil || len(held) != 1 {
		t.Fatalf("Parse(first) = %v, %v", held, err)
	}
	want, _, err := rdf.Parse([]byte(second), rdf.NQuads, "")
	if err != nil || len(want) != 2 {
		t.Fatalf("Parse(second) = %v, %v", want, err)
	}
	dst := make([]rdf.Quad, 1, 8)
	copy(dst, held)
	got, _, err := rdf.ParseAppend(dst, []byte(second), rdf.NQuads, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != held[0] || got[1] != want[0] || got[2] != want[1] {
		t.Errorf("ParseAppend = %v, want %v then %v", got, held, want)
	}
	if &got[0] != &dst[0] {
		t.Error("ParseAppend did not append in place although the slice had room")
	}
	if got, _, err := rdf.ParseAppend(dst, []byte("<http://a.example/s> <p> \"x\" .\n"), rdf.NTriples, ""); err == nil || got != nil {
		t.Errorf("ParseAppend on a relative IRI = %v, %v; want nil and an error", got, err)
	}
}
