package rdfxml_test

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/rdf/rdfxml"
)

// hostileTexts are what literals and XML literals hold: markup that must be
// escaped, entities, bidirectional controls, and line breaks (which the
// line of an error counts), CR among them.
var hostileTexts = []string{"", "plain", "<&>\"'", "]]>", "a\nb\r\nc", "\u202e\u2066x", "😀", "&lt;&amp;", " \t "}

// hostileDoc is an RDF/XML document built from a fuzzer's bytes, with the
// graph it stands for, made beside it by the rules of RDF/XML rather than
// by the reader, and the line where its node elements first go deeper
// than the reader's limit (0 when they never do).
type hostileDoc struct {
	b       bytes.Buffer
	line    int // the line being written
	want    []rdf.Triple
	blanks  int
	depth   int // the node elements open, rdf:parseType="Resource" ones among them
	tooDeep int // the line of the first node element past the limit
	// stack holds the subject and end tags of each open node.
	stack []struct {
		subj rdf.Term
		end  string
	}
}

const hostileLimit = 512

func (d *hostileDoc) write(s string) {
	d.b.WriteString(s)
	d.line += strings.Count(s, "\n")
}

func (d *hostileDoc) blank() rdf.Term {
	d.blanks++
	return rdf.NewBlank("g" + strconv.Itoa(d.blanks))
}

func (d *hostileDoc) emit(s rdf.Term, p string, o rdf.Term) {
	if d.tooDeep == 0 {
		d.want = append(d.want, rdf.T(s, p, o))
	}
}

// open starts a node on a new line under the current one, through the
// property ex:pN, in one of the forms RDF/XML nests nodes in.
func (d *hostileDoc) open(form byte, n int) {
	parent := d.stack[len(d.stack)-1].subj
	pred := "http://e/p" + strconv.Itoa(n%3)
	tag := "ex:p" + strconv.Itoa(n%3)
	d.write("\n")
	if d.depth++; d.depth > hostileLimit && d.tooDeep == 0 {
		d.tooDeep = d.line
	}
	node := d.blank()
	var end string
	switch form % 5 {
	case 0: // an rdf:Description in a property element
		d.write("<" + tag + "><rdf:Description>")
		end = "</rdf:Description></" + tag + ">"
		d.emit(parent, pred, node)
	case 1: // a typed node with an rdf:nodeID
		node = rdf.NewBlank("n" + strconv.Itoa(d.blanks))
		d.write("<" + tag + `><ex:T rdf:nodeID="n` + strconv.Itoa(d.blanks) + `">`)
		end = "</ex:T></" + tag + ">"
		d.emit(parent, pred, node)
		d.emit(node, rdf.RDFNS+"type", rdf.NewIRI("http://e/T"))
	case 2: // rdf:parseType="Resource"
		d.write("<" + tag + ` rdf:parseType="Resource">`)
		end = "</" + tag + ">"
		d.emit(parent, pred, node)
	case 3: // the one member of a collection
		list := d.blank()
		d.write("<" + tag + ` rdf:parseType="Collection"><rdf:Description>`)
		end = "</rdf:Description></" + tag + ">"
		d.emit(parent, pred, list)
		d.emit(list, rdf.RDFFirst, node)
		d.emit(list, rdf.RDFRest, rdf.NewIRI(rdf.RDFNil))
	case 4: // a node with an IRI, under an xml:base
		node = rdf.NewIRI("http://e/base/n" + strconv.Itoa(d.blanks))
		d.write("<" + tag + `><rdf:Description xml:base="http://e/base/" rdf:about="n` + strconv.Itoa(d.blanks) + `">`)
		end = "</rdf:Description></" + tag + ">"
		d.emit(parent, pred, node)
	}
	d.stack = append(d.stack, struct {
		subj rdf.Term
		end  string
	}{node, end})
}

// leaf writes a property of the current node that nests nothing.
func (d *hostileDoc) leaf(kind, n byte) {
	subj := d.stack[len(d.stack)-1].subj
	text := hostileTexts[int(n)%len(hostileTexts)]
	var esc bytes.Buffer
	escapeText(&esc, text, false)
	value := text
	d.write("\n")
	switch kind % 3 {
	case 0:
		d.write("<ex:v>" + esc.String() + "</ex:v>")
		d.emit(subj, "http://e/v", rdf.NewLiteral(value, rdf.XSDString))
	case 1:
		d.write(`<ex:v xml:lang="fr">` + esc.String() + "</ex:v>")
		d.emit(subj, "http://e/v", rdf.NewLangLiteral(value, "fr"))
	case 2: // an XML literal, nested elements in canonical form already
		inner := strings.Repeat("<a>", int(n%8)) + esc.String() + strings.Repeat("</a>", int(n%8))
		d.write(`<ex:v rdf:parseType="Literal">` + inner + "</ex:v>")
		var canon bytes.Buffer
		escapeText(&canon, value, true)
		lex := strings.Repeat("<a>", int(n%8)) + canon.String() + strings.Repeat("</a>", int(n%8))
		d.emit(subj, "http://e/v", rdf.NewLiteral(lex, rdf.RDFNS+"XMLLiteral"))
	}
}

// close ends the current node, when it is not the top one.
func (d *hostileDoc) close() {
	if len(d.stack) == 1 {
		return
	}
	d.write(d.stack[len(d.stack)-1].end)
	d.stack = d.stack[:len(d.stack)-1]
	d.depth--
}

// escapeText escapes text for element content: a CR as a character
// reference, which XML's end-of-line handling leaves alone, as "&#13;", or
// with canon as exclusive canonical XML writes it, "&#xD;".
func escapeText(b *bytes.Buffer, s string, canon bool) {
	for _, c := range s {
		switch {
		case c == '<':
			b.WriteString("&lt;")
		case c == '&':
			b.WriteString("&amp;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '\r' && canon:
			b.WriteString("&#xD;")
		case c == '\r':
			b.WriteString("&#13;")
		default:
			b.WriteRune(c)
		}
	}
}

// buildHostile makes the document the program prog describes: each pair of
// bytes opens nodes (a run of them, so that a short program can go past
// the limit), writes a property, or closes nodes.
func buildHostile(prog []byte) *hostileDoc {
	d := &hostileDoc{line: 1}
	d.write(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://e/">`)
	d.write("\n" + `<rdf:Description rdf:about="http://e/top">`)
	d.depth = 1
	d.stack = append(d.stack, struct {
		subj rdf.Term
		end  string
	}{rdf.NewIRI("http://e/top"), ""})
	for i := 0; i+1 < len(prog); i += 2 {
		op, arg := prog[i], prog[i+1]
		switch op % 4 {
		case 0:
			d.open(op/4, int(arg))
		case 1: // a run of nodes, each of the form arg says
			for k := range int(arg%16) * 40 {
				d.open(arg/16+byte(k), k)
			}
		case 2:
			d.leaf(op/4, arg)
		case 3:
			for range arg % 8 {
				d.close()
			}
		}
	}
	for len(d.stack) > 1 {
		d.close()
	}
	d.write("</rdf:Description>\n</rdf:RDF>\n")
	return d
}

// FuzzHostile: RDF/XML built from the fuzzer's bytes, its nodes nested in
// every form RDF/XML has (rdf:Description, typed nodes, rdf:nodeID,
// rdf:parseType="Resource" and "Collection", xml:base) and its literals
// holding markup, line breaks and bidirectional characters, reads as the
// graph made beside it; nested past the limit, it is the one error naming
// the line of the first node element too deep, and never a stack overflow.
func FuzzHostile(f *testing.F) {
	f.Add([]byte{0, 1, 4, 2, 8, 3, 12, 4, 16, 5, 2, 6, 6, 7, 10, 2, 3, 1, 18, 4, 22, 8})
	// Each text in each kind of literal.
	f.Add([]byte{2, 4, 6, 4, 10, 4, 10, 2, 2, 2, 6, 5, 0, 0, 10, 12})
	atLimit := []byte{1, 0x0c} // 480 nodes under the top one
	for k := range 31 {
		atLimit = append(atLimit, byte(4*k), byte(k)) // one each, of every form
	}
	f.Add(append(atLimit, 2, 3))             // 512 deep
	f.Add(append(atLimit, 0, 0, 2, 3))       // 513
	f.Add([]byte{1, 0xcf, 2, 2})             // 601
	f.Add([]byte{1, 0x0c, 3, 7, 1, 0x0c, 2}) // 481, 7 closed, 480 more
	f.Fuzz(func(t *testing.T, prog []byte) {
		d := buildHostile(prog)
		got, _, err := rdfxml.Parse(d.b.Bytes(), "")
		if d.tooDeep > 0 {
			var pe *diag.Diagnostic
			want := fmt.Sprintf("node elements nested more than %d deep", hostileLimit)
			if !errors.As(err, &pe) || pe.Line != d.tooDeep || pe.Message != want {
				t.Fatalf("error %v, want line %d: %s", err, d.tooDeep, want)
			}
			return
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, d.b.Bytes())
		}
		if ok, diff := rdftest.Isomorphic(got, d.want); !ok {
			t.Fatalf("another graph:\n%s\n%s", diff, d.b.Bytes())
		}
	})
}
