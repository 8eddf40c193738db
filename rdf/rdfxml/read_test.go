package rdfxml_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/rdftest"
	"github.com/jrpcld/jrpcld/rdf"
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
	f.Fuzz(func(t *testing.T, data []byte) {
		rdfxml.Parse(data, "http://e/")
	})
}
