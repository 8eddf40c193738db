// Package rdfxml reads RDF/XML (https://www.w3.org/TR/rdf-syntax-grammar/),
// the syntax of most OWL files, on encoding/xml. It follows the grammar
// (XML literals in exclusive canonical form among it), except that the
// obsolete rdf:bagID, rdf:aboutEach and rdf:aboutEachPrefix are refused.
// It passes every test of the W3C RDF/XML suite. (knakk/rdf's RDF/XML decoder cannot read
// nested typed node elements such as <rdfs:subClassOf><owl:Restriction>…,
// which nearly every OWL file uses, and loses rdf:nodeID on typed nodes.)
package rdfxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/rdf"
)

const (
	nsXML = "http://www.w3.org/XML/1998/namespace"
	nsRDF = rdf.RDFNS
)

// entityDecl matches a general entity declaration in a DOCTYPE.
var entityDecl = regexp.MustCompile(`<!ENTITY\s+([^\s%"']+)\s+(?:"([^"]*)"|'([^']*)')`)

// xmlScope is what an element inherits: the base IRI, the language and the
// namespace declarations in scope (for XML literals).
type xmlScope struct {
	base, lang string
	ns         *nsDecl
}

// nsDecl is one namespace declaration, linked to those of the enclosing
// elements; prefix "" is the default namespace.
type nsDecl struct {
	prefix, uri string
	up          *nsDecl
}

// lookup returns the namespace prefix is bound to in the scope ending at d.
func (d *nsDecl) lookup(prefix string) (string, bool) {
	for ; d != nil; d = d.up {
		if d.prefix == prefix {
			return d.uri, true
		}
	}
	return "", false
}

type xmlReader struct {
	data    []byte
	d       *xml.Decoder
	triples []rdf.Triple
	blanks  int
	ids     map[string]bool // the IRIs rdf:ID made, each allowed once
	depth   int             // the node elements (and rdf:parseType="Resource" elements) open
}

// maxDepth bounds the nesting of node elements, as Turtle's reader bounds
// that of [] and (): the reader follows it by recursion, and a hostile
// document nested a million deep would exhaust the stack.
const maxDepth = limits.Depth

// Parse reads an RDF/XML document and returns its triples and the prefixes
// its root element declares. Relative IRIs are resolved against base when it
// is not empty. The blank nodes it makes get labels starting with '#', as
// rdf.Parse's do; rdf:nodeID labels are kept. An error in the document is a
// *diag.Diagnostic with the line where the reader stopped; node elements
// nested more than 512 deep (rdf:parseType="Resource" counts as one) are
// such an error.
func Parse(data []byte, base string) (ts []rdf.Triple, prefixes map[string]string, err error) {
	r := &xmlReader{data: data, d: xml.NewDecoder(bytes.NewReader(data)), ids: map[string]bool{}}
	root, err := r.next()
	for err == nil && !isStart(root) {
		switch t := root.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return nil, nil, r.errorf("text before the root element")
			}
		case xml.Directive:
			// OWL files often declare entities for namespaces: <!ENTITY owl "http://...#">.
			for _, m := range entityDecl.FindAllSubmatch(t, -1) {
				if r.d.Entity == nil {
					r.d.Entity = map[string]string{}
				}
				r.d.Entity[string(m[1])] = string(m[2]) + string(m[3])
			}
		}
		root, err = r.next()
	}
	if err == io.EOF {
		return nil, nil, &diag.Diagnostic{Message: "no XML root element"}
	}
	if err != nil {
		return nil, nil, err
	}
	el := root.(xml.StartElement)
	prefixes = map[string]string{}
	for _, a := range el.Attr {
		switch {
		case a.Name.Space == "xmlns":
			prefixes[a.Name.Local] = a.Value
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			prefixes[""] = a.Value
		}
	}
	if el.Name.Space == nsRDF && el.Name.Local == "RDF" {
		err = r.nodeElements(r.scope(xmlScope{base: base}, el))
	} else {
		_, err = r.nodeElement(el, xmlScope{base: base})
	}
	if err != nil {
		return nil, nil, err
	}
	for {
		tok, err := r.next()
		if err == io.EOF {
			return r.triples, prefixes, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if isStart(tok) {
			return nil, nil, r.errorf("a second root element")
		}
	}
}

// next returns the next token, turning XML syntax errors into *diag.Diagnostic.
func (r *xmlReader) next() (xml.Token, error) {
	tok, err := r.d.Token()
	if err == nil || err == io.EOF {
		return tok, err
	}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return nil, &diag.Diagnostic{Line: se.Line, Message: "XML syntax error: " + se.Msg}
	}
	return nil, r.errorf("%v", err)
}

// errorf returns a *diag.Diagnostic at the decoder's current line.
func (r *xmlReader) errorf(format string, args ...any) error {
	line, _ := r.d.InputPos()
	return &diag.Diagnostic{Line: line, Message: fmt.Sprintf(format, args...)}
}

func isStart(tok xml.Token) bool {
	_, ok := tok.(xml.StartElement)
	return ok
}

// scope applies the xml:base, xml:lang and namespace declarations of el to
// the inherited scope.
func (r *xmlReader) scope(s xmlScope, el xml.StartElement) xmlScope {
	for _, a := range el.Attr {
		switch {
		case a.Name.Space == "xmlns":
			s.ns = &nsDecl{a.Name.Local, a.Value, s.ns}
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			s.ns = &nsDecl{"", a.Value, s.ns}
		case a.Name.Space == nsXML && a.Name.Local == "base":
			s.base = rdf.ResolveIRI(s.base, a.Value)
		case a.Name.Space == nsXML && a.Name.Local == "lang":
			s.lang = a.Value
		}
	}
	return s
}

// ignored reports whether the attribute a is not RDF: a namespace
// declaration, or an attribute whose name or prefix begins with "xml" (the
// names XML reserves; xml:base and xml:lang are read by scope).
func ignored(a xml.Attr) bool {
	reserved := func(s string) bool { return len(s) >= 3 && strings.EqualFold(s[:3], "xml") }
	switch {
	case a.Name.Space == "":
		return reserved(a.Name.Local)
	case a.Name.Space == nsXML || a.Name.Space == "xmlns":
		return true
	}
	// encoding/xml leaves an undeclared prefix as the name space.
	return reserved(a.Name.Space) && !strings.Contains(a.Name.Space, ":")
}

// isNCName reports whether s is an NCName (Namespaces in XML 1.0), as the
// values of rdf:ID and rdf:nodeID must be. XML's NameStartChar and NameChar
// without ':' are Turtle's PN_CHARS_U and PN_CHARS plus '.'.
func isNCName(s string) bool {
	for i, c := range s {
		if i == 0 && !rdf.IsPNCharsU(c) || i > 0 && !rdf.IsPNChars(c) && c != '.' {
			return false
		}
	}
	return s != ""
}

// idIRI returns the IRI the rdf:ID value id makes against base, after
// checking that id is an NCName and that no other rdf:ID made the same IRI.
func (r *xmlReader) idIRI(base, id string) (string, error) {
	if !isNCName(id) {
		return "", r.errorf("rdf:ID %q is not an XML NCName", id)
	}
	iri := rdf.ResolveIRI(base, "#"+id)
	if r.ids[iri] {
		return "", r.errorf("rdf:ID %q makes <%s> a second time", id, iri)
	}
	r.ids[iri] = true
	return iri, nil
}

// nodeID returns the blank node of the rdf:nodeID value id, an NCName.
func (r *xmlReader) nodeID(id string) (rdf.Term, error) {
	if !isNCName(id) {
		return rdf.Term{}, r.errorf("rdf:nodeID %q is not an XML NCName", id)
	}
	return rdf.NewBlank(id), nil
}

// newBlank returns a new blank node. xml:base, rdf:about, rdf:ID,
// rdf:resource and rdf:datatype are resolved as Turtle's relative IRIs are
// (rdf.ResolveIRI).
func (r *xmlReader) newBlank() rdf.Term {
	r.blanks++
	return rdf.NewBlank("#" + strconv.Itoa(r.blanks))
}

func (r *xmlReader) emit(s rdf.Term, p string, o rdf.Term) {
	r.triples = append(r.triples, rdf.T(s, p, o))
}

// plain returns a literal of a property attribute or element: an
// rdf:langString under xml:lang, else an xsd:string.
func plain(value, lang string) rdf.Term {
	if lang != "" {
		return rdf.NewLangLiteral(value, lang)
	}
	return rdf.NewLiteral(value, rdf.XSDString)
}

// rdfAttr returns the value of the rdf:name attribute of el.
func rdfAttr(el xml.StartElement, name string) (string, bool) {
	for _, a := range el.Attr {
		if a.Name.Space == nsRDF && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// nodeElements reads node elements up to the end of the enclosing element.
func (r *xmlReader) nodeElements(scope xmlScope) error {
	for {
		tok, err := r.next()
		if err != nil {
			return unexpectedEOF(r, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if _, err := r.nodeElement(t, scope); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return r.errorf("text %q where a node element belongs", strings.TrimSpace(string(t)))
			}
		}
	}
}

func unexpectedEOF(r *xmlReader, err error) error {
	if err == io.EOF {
		return r.errorf("unexpected end of document")
	}
	return err
}

// syntaxNames are the rdf: names that are attributes or structure, never node or property elements.
var syntaxNames = map[string]bool{
	"RDF": true, "ID": true, "about": true, "parseType": true, "resource": true, "nodeID": true,
	"datatype": true, "bagID": true, "aboutEach": true, "aboutEachPrefix": true,
}

// nest enters a node element, or fails when that makes too many open.
// The caller leaves it with r.depth--.
func (r *xmlReader) nest() error {
	if r.depth++; r.depth > maxDepth {
		return r.errorf("node elements nested more than %d deep", maxDepth)
	}
	return nil
}

// nodeElement reads the node element el (its start already read) and returns its subject.
func (r *xmlReader) nodeElement(el xml.StartElement, scope xmlScope) (rdf.Term, error) {
	if err := r.nest(); err != nil {
		return rdf.Term{}, err
	}
	defer func() { r.depth-- }()
	scope = r.scope(scope, el)
	if el.Name.Space == nsRDF && (syntaxNames[el.Name.Local] || el.Name.Local == "li") {
		return rdf.Term{}, r.errorf("rdf:%s is not allowed as a node element", el.Name.Local)
	}
	var subj rdf.Term
	ids := 0
	if v, ok := rdfAttr(el, "about"); ok {
		subj, ids = rdf.NewIRI(rdf.ResolveIRI(scope.base, v)), ids+1
	}
	if v, ok := rdfAttr(el, "ID"); ok {
		iri, err := r.idIRI(scope.base, v)
		if err != nil {
			return rdf.Term{}, err
		}
		subj, ids = rdf.NewIRI(iri), ids+1
	}
	if v, ok := rdfAttr(el, "nodeID"); ok {
		b, err := r.nodeID(v)
		if err != nil {
			return rdf.Term{}, err
		}
		subj, ids = b, ids+1
	}
	switch ids {
	case 0:
		subj = r.newBlank()
	case 1:
	default:
		return rdf.Term{}, r.errorf("a node element has at most one of rdf:about, rdf:ID and rdf:nodeID")
	}
	if !(el.Name.Space == nsRDF && el.Name.Local == "Description") {
		r.emit(subj, nsRDF+"type", rdf.NewIRI(el.Name.Space+el.Name.Local))
	}
	for _, a := range el.Attr {
		switch {
		case ignored(a):
		case a.Name.Space == nsRDF && (a.Name.Local == "about" || a.Name.Local == "ID" || a.Name.Local == "nodeID"):
		case a.Name.Space == nsRDF && a.Name.Local == "type":
			r.emit(subj, nsRDF+"type", rdf.NewIRI(rdf.ResolveIRI(scope.base, a.Value)))
		case a.Name.Space == nsRDF && (syntaxNames[a.Name.Local] || a.Name.Local == "li"):
			return rdf.Term{}, r.errorf("rdf:%s is not allowed on a node element", a.Name.Local)
		case a.Name.Space == "":
			return rdf.Term{}, r.errorf("attribute %q has no namespace", a.Name.Local)
		default:
			r.emit(subj, a.Name.Space+a.Name.Local, plain(a.Value, scope.lang))
		}
	}
	return subj, r.propertyElements(subj, scope)
}

// propertyElements reads the property elements of subj up to the end of the enclosing element.
func (r *xmlReader) propertyElements(subj rdf.Term, scope xmlScope) error {
	li := 0
	for {
		tok, err := r.next()
		if err != nil {
			return unexpectedEOF(r, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := r.propertyElement(t, subj, scope, &li); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return r.errorf("text %q where a property element belongs", strings.TrimSpace(string(t)))
			}
		}
	}
}

// propertyElement reads the property element el of subj.
func (r *xmlReader) propertyElement(el xml.StartElement, subj rdf.Term, scope xmlScope, li *int) error {
	start := r.d.InputOffset()
	scope = r.scope(scope, el)
	pred := el.Name.Space + el.Name.Local
	if el.Name.Space == nsRDF {
		switch {
		case el.Name.Local == "li":
			*li++
			pred = nsRDF + "_" + strconv.Itoa(*li)
		case syntaxNames[el.Name.Local] || el.Name.Local == "Description":
			return r.errorf("rdf:%s is not allowed as a property element", el.Name.Local)
		}
	}
	var (
		reify, parseType, datatype string
		object                     *rdf.Term
		props                      []xml.Attr
	)
	for _, a := range el.Attr {
		switch {
		case ignored(a):
		case a.Name.Space == nsRDF && a.Name.Local == "ID":
			iri, err := r.idIRI(scope.base, a.Value)
			if err != nil {
				return err
			}
			reify = iri
		case a.Name.Space == nsRDF && a.Name.Local == "parseType":
			parseType = a.Value
		case a.Name.Space == nsRDF && a.Name.Local == "datatype":
			datatype = rdf.ResolveIRI(scope.base, a.Value)
		case a.Name.Space == nsRDF && (a.Name.Local == "resource" || a.Name.Local == "nodeID"):
			if object != nil {
				return r.errorf("a property element has at most one of rdf:resource and rdf:nodeID")
			}
			o := rdf.NewIRI(rdf.ResolveIRI(scope.base, a.Value))
			if a.Name.Local == "nodeID" {
				var err error
				if o, err = r.nodeID(a.Value); err != nil {
					return err
				}
			}
			object = &o
		case a.Name.Space == nsRDF && (syntaxNames[a.Name.Local] || a.Name.Local == "li" || a.Name.Local == "Description"):
			return r.errorf("rdf:%s is not allowed on a property element", a.Name.Local)
		case a.Name.Space == "":
			return r.errorf("attribute %q has no namespace", a.Name.Local)
		default:
			props = append(props, a)
		}
	}
	if parseType != "" && (object != nil || datatype != "" || len(props) > 0) {
		return r.errorf("rdf:parseType cannot be combined with rdf:resource, rdf:nodeID, rdf:datatype or property attributes")
	}
	var obj rdf.Term
	switch parseType {
	case "":
		o, err := r.propertyContent(scope, object, datatype, props)
		if err != nil {
			return err
		}
		obj = o
	case "Resource":
		if err := r.nest(); err != nil {
			return err
		}
		defer func() { r.depth-- }()
		obj = r.newBlank()
		r.emit(subj, pred, obj)
		r.reify(reify, subj, pred, obj)
		return r.propertyElements(obj, scope)
	case "Collection":
		o, err := r.collection(scope)
		if err != nil {
			return err
		}
		obj = o
	default: // "Literal" and any other value: the element's content as an XML literal
		end, err := r.skipElement()
		if err != nil {
			return err
		}
		lex, err := r.canonicalXML(r.data[start:end], scope.ns)
		if err != nil {
			return err
		}
		obj = rdf.NewLiteral(lex, rdf.RDFNS+"XMLLiteral")
	}
	r.emit(subj, pred, obj)
	r.reify(reify, subj, pred, obj)
	return nil
}

// reify records the statement (s, p, o) under the IRI id, when id is not empty.
func (r *xmlReader) reify(id string, s rdf.Term, p string, o rdf.Term) {
	if id == "" {
		return
	}
	st := rdf.NewIRI(id)
	r.emit(st, nsRDF+"type", rdf.NewIRI(nsRDF+"Statement"))
	r.emit(st, nsRDF+"subject", s)
	r.emit(st, nsRDF+"predicate", rdf.NewIRI(p))
	r.emit(st, nsRDF+"object", o)
}

// propertyContent reads the content of a property element without rdf:parseType: a node element, text, or
// nothing (then the object is rdf:resource, rdf:nodeID, or a blank node carrying the property attributes).
func (r *xmlReader) propertyContent(scope xmlScope, object *rdf.Term, datatype string, props []xml.Attr) (rdf.Term, error) {
	var text strings.Builder
	var node *rdf.Term
	for {
		tok, err := r.next()
		if err != nil {
			return rdf.Term{}, unexpectedEOF(r, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if node != nil || strings.TrimSpace(text.String()) != "" {
				return rdf.Term{}, r.errorf("a property element holds one node element or text, not both or more")
			}
			if object != nil || datatype != "" || len(props) > 0 {
				return rdf.Term{}, r.errorf("a property element with a node element inside cannot have rdf:resource, rdf:nodeID, rdf:datatype or property attributes")
			}
			n, err := r.nodeElement(t, scope)
			if err != nil {
				return rdf.Term{}, err
			}
			node = &n
		case xml.CharData:
			if node != nil && len(bytes.TrimSpace(t)) > 0 {
				return rdf.Term{}, r.errorf("a property element holds one node element or text, not both")
			}
			text.Write(t)
		case xml.EndElement:
			switch {
			case node != nil:
				return *node, nil
			case object != nil || len(props) > 0:
				if strings.TrimSpace(text.String()) != "" {
					return rdf.Term{}, r.errorf("a property element with rdf:resource, rdf:nodeID or property attributes must be empty")
				}
				if datatype != "" {
					return rdf.Term{}, r.errorf("rdf:datatype on an empty property element")
				}
				o := r.newBlank()
				if object != nil {
					o = *object
				}
				for _, a := range props {
					if a.Name.Space == nsRDF && a.Name.Local == "type" {
						r.emit(o, nsRDF+"type", rdf.NewIRI(rdf.ResolveIRI(scope.base, a.Value)))
					} else {
						r.emit(o, a.Name.Space+a.Name.Local, plain(a.Value, scope.lang))
					}
				}
				return o, nil
			case datatype != "":
				return rdf.NewLiteral(text.String(), datatype), nil
			default:
				return plain(text.String(), scope.lang), nil
			}
		}
	}
}

// collection reads the node elements of an rdf:parseType="Collection" property and returns the head of
// the RDF list they form.
func (r *xmlReader) collection(scope xmlScope) (rdf.Term, error) {
	var items []rdf.Term
	for {
		tok, err := r.next()
		if err != nil {
			return rdf.Term{}, unexpectedEOF(r, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n, err := r.nodeElement(t, scope)
			if err != nil {
				return rdf.Term{}, err
			}
			items = append(items, n)
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return rdf.Term{}, r.errorf("text %q in a collection", strings.TrimSpace(string(t)))
			}
		case xml.EndElement:
			head := rdf.NewIRI(nsRDF + "nil")
			for i := len(items) - 1; i >= 0; i-- {
				cell := r.newBlank()
				r.emit(cell, nsRDF+"first", items[i])
				r.emit(cell, nsRDF+"rest", head)
				head = cell
			}
			return head, nil
		}
	}
}

// skipElement reads up to the end of the current element and returns the offset where its end tag starts.
func (r *xmlReader) skipElement() (int64, error) {
	depth := 0
	for {
		off := r.d.InputOffset()
		tok, err := r.next()
		if err != nil {
			return 0, unexpectedEOF(r, err)
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth == 0 {
				return off, nil
			}
			depth--
		}
	}
}
