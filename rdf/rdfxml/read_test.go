package rdfxml_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/rdf/rdfxml"
)

// TestAgainstRapper compares the graph read from RDF/XML with rapper's.
func TestAgainstRapper(t *testing.T) {
	for _, name := range []string{"../../testdata/grammar.rdf", "../../testdata/small.owl"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := rdfxml.Parse(data, rdftest.DefaultBase)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var want []rdf.Triple
			for _, q := range rdftest.ParseWith(t, "rapper", "rdfxml", data, rdftest.DefaultBase) {
				want = append(want, q.Triple)
			}
			if ok, diff := rdftest.Isomorphic(got, want); !ok {
				t.Errorf("rapper reads another graph:\n%s", diff)
			}
		})
	}
}

func TestDetails(t *testing.T) {
	const head = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://e/">`
	iri := rdf.NewIRI
	tests := []struct {
		name string
		in   string
		want []rdf.Triple
	}{
		// W3C RDF/XML test rdfms-xmllang/test003: a property attribute takes the element's language.
		{"language of a property attribute", head + `<rdf:Description rdf:about="http://e/n" xml:lang="fr" ex:p="chat"/></rdf:RDF>`,
			[]rdf.Triple{rdf.T(iri("http://e/n"), "http://e/p", rdf.NewLangLiteral("chat", "fr"))}},
		{"XML literal keeps its source text", head + `<rdf:Description rdf:about="http://e/n"><ex:p rdf:parseType="Literal">a <b>bold</b> move</ex:p></rdf:Description></rdf:RDF>`,
			[]rdf.Triple{rdf.T(iri("http://e/n"), "http://e/p", rdf.NewLiteral("a <b>bold</b> move", rdf.RDFNS+"XMLLiteral"))}},
		{"rdf:datatype drops the language", head + `<rdf:Description rdf:about="http://e/n" xml:lang="en"><ex:p rdf:datatype="http://e/T">x</ex:p></rdf:Description></rdf:RDF>`,
			[]rdf.Triple{rdf.T(iri("http://e/n"), "http://e/p", rdf.NewLiteral("x", "http://e/T"))}},
		{"plain text is an xsd:string", head + `<rdf:Description rdf:about="http://e/n"><ex:p>x</ex:p></rdf:Description></rdf:RDF>`,
			[]rdf.Triple{rdf.T(iri("http://e/n"), "http://e/p", rdf.NewLiteral("x", rdf.XSDString))}},
		// W3C rdfms-rdf-id/test003 (an rdf:ID may start with '_' and hold '.' and '-'), unrecognised-xml-attributes/test002.
		{"rdf:ID names and attributes named xml...", head + `<rdf:Description rdf:ID="_a.b-c" xmlnewthing="x" XMLfoo="y"><ex:p xmlother="z">v</ex:p></rdf:Description></rdf:RDF>`,
			[]rdf.Triple{rdf.T(iri("http://e/base/doc#_a.b-c"), "http://e/p", rdf.NewLiteral("v", rdf.XSDString))}},
		{"the same rdf:ID under two bases", head + `<ex:A rdf:ID="a"/><ex:A xml:base="http://e/other" rdf:ID="a"/></rdf:RDF>`,
			[]rdf.Triple{rdf.T(iri("http://e/base/doc#a"), rdf.RDFType, iri("http://e/A")), rdf.T(iri("http://e/other#a"), rdf.RDFType, iri("http://e/A"))}},
		{"root node element without rdf:RDF", `<ex:Thing xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://e/" xml:base="sub/" rdf:about="n"/>`,
			[]rdf.Triple{rdf.T(iri("http://e/base/sub/n"), rdf.RDFType, iri("http://e/Thing"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := rdfxml.Parse([]byte(tt.in), "http://e/base/doc")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestXMLLiterals: an rdf:parseType="Literal" element's content is written
// as Exclusive XML Canonicalization (with comments) writes it; the expected
// forms follow the rules of https://www.w3.org/TR/xml-exc-c14n/ and
// https://www.w3.org/TR/xml-c14n/ (section 2.3, 3.1 and 3.2 examples).
func TestXMLLiterals(t *testing.T) {
	const head = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://e/" xmlns:u="http://unused/"><rdf:Description rdf:about="http://e/n">`
	tests := []struct{ name, content, want string }{
		{"empty element gets an end tag", `<br />`, `<br></br>`},
		{"text", `a <b>bold</b> move`, `a <b>bold</b> move`},
		{"prefix declared outside the literal is declared where used, once", `<ex:a><ex:b/></ex:a>`, `<ex:a xmlns:ex="http://e/"><ex:b></ex:b></ex:a>`},
		{"unused declarations are dropped", `<a xmlns:z="http://z/">x</a>`, `<a>x</a>`},
		{"namespaces kept where used (W3C rdfms-xml-literal-namespaces/test001)",
			`<html:h1 xmlns:html="http://NoHTML.example.org"><b xmlns="http://www.w3.org/1999/xhtml">John</b></html:h1>`,
			`<html:h1 xmlns:html="http://NoHTML.example.org"><b xmlns="http://www.w3.org/1999/xhtml">John</b></html:h1>`},
		{"attributes sorted by namespace then name, declarations first",
			`<a z="1" ex:c="3" b="2" u:d="4" xmlns:ex="http://e2/"/>`,
			`<a xmlns:ex="http://e2/" xmlns:u="http://unused/" b="2" z="1" ex:c="3" u:d="4"></a>`},
		{"a redundant default namespace is dropped, an undone one kept",
			`<a xmlns="http://d/"><b xmlns="http://d/"><c xmlns=""/></b></a>`,
			`<a xmlns="http://d/"><b><c xmlns=""></c></b></a>`},
		{"an empty default namespace at the top is not written", `<a xmlns="">x</a>`, `<a>x</a>`},
		{"text escapes", `1 &lt; 2 &amp;&amp; 3 &gt; 2 "q" 'a' &#13;`, `1 &lt; 2 &amp;&amp; 3 &gt; 2 "q" 'a' &#xD;`},
		{"attribute escapes", `<a t="&quot;x&#9;y&#10;z&#13;&lt;&gt;'"/>`, `<a t="&quot;x&#x9;y&#xA;z&#xD;&lt;>'"></a>`},
		{"CDATA becomes text", `<![CDATA[<x>&]]>`, `&lt;x&gt;&amp;`},
		{"comments and processing instructions are kept", `<!-- c --><?pi  data?><?empty?>`, `<!-- c --><?pi data?><?empty?>`},
		{"xml: attributes keep their prefix", `<a xml:lang="fr" ex:b="1"/>`, `<a xmlns:ex="http://e/" ex:b="1" xml:lang="fr"></a>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<ex:p rdf:parseType="Literal">` + tt.content + `</ex:p></rdf:Description></rdf:RDF>`
			got, _, err := rdfxml.Parse([]byte(doc), "")
			if err != nil {
				t.Fatal(err)
			}
			want := []rdf.Triple{rdf.T(rdf.NewIRI("http://e/n"), "http://e/p", rdf.NewLiteral(tt.want, rdf.RDFNS+"XMLLiteral"))}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	const head = "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:ex=\"http://e/\">\n"
	tests := []struct {
		name     string
		in       string
		wantLine int
		wantMsg  string
	}{
		{"two subjects", head + "\n<ex:A rdf:about=\"http://e/a\" rdf:nodeID=\"x\"/>\n</rdf:RDF>", 3, "at most one of rdf:about"},
		{"attribute without namespace", head + "<ex:A about=\"http://e/a\"/>\n</rdf:RDF>", 2, `attribute "about" has no namespace`},
		{"text among nodes", head + "stray\n<ex:A/></rdf:RDF>", 3, `text "stray" where a node element belongs`},
		{"text and node", head + "<ex:A>\n<ex:p>text<ex:B/></ex:p></ex:A></rdf:RDF>", 3, "not both"},
		{"resource and content", head + "<ex:A>\n<ex:p rdf:resource=\"http://e/b\">text</ex:p></ex:A></rdf:RDF>", 3, "must be empty"},
		{"parseType with resource", head + "<ex:A>\n<ex:p rdf:parseType=\"Resource\" rdf:resource=\"http://e/b\"/></ex:A></rdf:RDF>", 3, "cannot be combined"},
		{"rdf:Description as property", head + "<ex:A>\n\n<rdf:Description/></ex:A></rdf:RDF>", 4, "rdf:Description is not allowed as a property element"},
		{"unclosed", head + "<ex:A>\n<ex:p>x</ex:p>\n", 4, "XML syntax error"},
		{"second root", head + "</rdf:RDF>\n<rdf:RDF/>", 3, "a second root element"},
		{"empty", "", 0, "no XML root element"},
		// W3C rdfms-rdf-id/error001 and -error003, rdfms-syntax-incomplete/error002, rdfms-difference-between-ID-and-about/error1.
		{"rdf:ID not a name", head + "\n<ex:A rdf:ID=\"333-555\"/></rdf:RDF>", 3, `rdf:ID "333-555" is not an XML NCName`},
		{"rdf:ID with a colon", head + "<ex:A>\n<ex:p rdf:ID=\"q:name\">x</ex:p></ex:A></rdf:RDF>", 3, `rdf:ID "q:name" is not an XML NCName`},
		{"rdf:nodeID not a name", head + "<ex:A>\n<ex:p rdf:nodeID=\"_:b\"/></ex:A></rdf:RDF>", 3, `rdf:nodeID "_:b" is not an XML NCName`},
		{"rdf:ID twice", head + "<ex:A rdf:ID=\"a\"/>\n<ex:B><ex:p rdf:ID=\"a\">x</ex:p></ex:B></rdf:RDF>", 3, `rdf:ID "a" makes <#a> a second time`},
		{"XML literal with an undeclared prefix", head + "<ex:A>\n<ex:p rdf:parseType=\"Literal\"><q:x/></ex:p></ex:A></rdf:RDF>", 3, "undeclared namespace prefix q"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := rdfxml.Parse([]byte(tt.in), "")
			var pe *diag.Diagnostic
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *diag.Diagnostic", err, err)
			}
			if pe.Line != tt.wantLine || !strings.Contains(pe.Message, tt.wantMsg) {
				t.Errorf("got line %d %q, want line %d and a message containing %q", pe.Line, pe.Message, tt.wantLine, tt.wantMsg)
			}
		})
	}
}

// FuzzParse: no input makes the reader panic.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"../../testdata/small.owl", "../../testdata/grammar.rdf"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:parseType=\"Collection\"/></rdf:RDF>"))
	// Deep and hostile: nested past the limit in each form, cut off deep
	// down, an XML literal and a DOCTYPE's entities nested deep, an
	// entity that names itself.
	for _, form := range []string{"description", "typed", "resource", "collection"} {
		f.Add(nested(form, 513))
		doc := nested(form, 600)
		f.Add(doc[:len(doc)/2])
	}
	const head = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://e/">`
	f.Add([]byte(head + `<ex:A><ex:p rdf:parseType="Literal">` + strings.Repeat("<a>", 5000) + strings.Repeat("</a>", 5000) + `</ex:p></ex:A></rdf:RDF>`))
	f.Add([]byte(`<!DOCTYPE rdf:RDF [<!ENTITY a "&a;&a;"><!ENTITY e "http://e/">]>` + head + `<ex:A rdf:about="&e;x" ex:p="&a;"/></rdf:RDF>`))
	f.Add([]byte(head + strings.Repeat(`<ex:A><ex:p rdf:parseType="Resource">`, 300) + strings.Repeat(`<ex:q rdf:parseType="Collection">`, 300)))
	f.Fuzz(func(t *testing.T, data []byte) {
		rdfxml.Parse(data, "http://e/")
	})
}

// nested returns an RDF/XML document whose node elements are nested depth
// deep, each start tag on a line of its own: node element k (from 1) opens
// on line 2k, under the rdf:RDF element of line 1. form is how a node is
// nested under the one above: "description" (an rdf:Description in an
// ex:p), "typed" (an ex:Node in an ex:p), "resource" (an
// rdf:parseType="Resource" property element) or "collection" (the only
// member of an rdf:parseType="Collection" property element).
func nested(form string, depth int) []byte {
	var open, close string
	switch form {
	case "description":
		open, close = "\n<ex:p>\n<rdf:Description>", "</rdf:Description></ex:p>"
	case "typed":
		open, close = "\n<ex:p>\n<ex:Node>", "</ex:Node></ex:p>"
	case "resource":
		open, close = "\n\n<ex:p rdf:parseType=\"Resource\">", "</ex:p>"
	case "collection":
		open, close = "\n<ex:p rdf:parseType=\"Collection\">\n<rdf:Description>", "</rdf:Description></ex:p>"
	}
	var b bytes.Buffer
	b.Grow(depth * (len(open) + len(close)))
	b.WriteString(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://e/">`)
	b.WriteString("\n<rdf:Description rdf:about=\"http://e/top\">")
	for range depth - 1 {
		b.WriteString(open)
	}
	for range depth - 1 {
		b.WriteString(close)
	}
	b.WriteString("</rdf:Description></rdf:RDF>\n")
	return b.Bytes()
}

// TestDepth: node elements nested past the limit (512, as Turtle's [] and
// ()) are an error naming the line and the limit, however deep the
// document goes; the recursion behind them exhausted the stack (a fatal
// error, not a panic) at a million.
func TestDepth(t *testing.T) {
	for _, form := range []string{"description", "typed", "resource", "collection"} {
		t.Run(form, func(t *testing.T) {
			ts, _, err := rdfxml.Parse(nested(form, 512), "")
			if err != nil {
				t.Fatalf("512 deep: %v", err)
			}
			// Each node below the top is the object of one ex:p (a
			// collection's of an rdf:first, its list's head of ex:p).
			if got := countPredicate(ts, "http://e/p"); got != 511 {
				t.Errorf("512 deep: %d ex:p statements, want 511", got)
			}
			depths := []int{513}
			if form == "description" {
				depths = append(depths, 1_000_000) // 46 MB, as the issue's
			}
			for _, depth := range depths {
				_, _, err := rdfxml.Parse(nested(form, depth), "")
				var d *diag.Diagnostic
				if !errors.As(err, &d) {
					t.Fatalf("%d deep: error %v (%T), want a *diag.Diagnostic", depth, err, err)
				}
				const msg = "node elements nested more than 512 deep"
				if d.Line != 2*513 || d.Message != msg {
					t.Errorf("%d deep: line %d %q, want line %d %q", depth, d.Line, d.Message, 2*513, msg)
				}
			}
		})
	}
}

func countPredicate(ts []rdf.Triple, pred string) int {
	n := 0
	for _, t := range ts {
		if t.P == pred {
			n++
		}
	}
	return n
}
