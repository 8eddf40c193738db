package rdfxml

// The lexical form of XML literals: RDF/XML 1.1 (section 7.2.17) makes it
// the Exclusive XML Canonicalization (https://www.w3.org/TR/xml-exc-c14n/),
// with comments and an empty InclusiveNamespaces PrefixList, of the content
// of the rdf:parseType="Literal" element.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"
)

// c14nFrame is what an element of the literal passes to its children: the
// namespace declarations in scope, and those its output ancestors rendered.
type c14nFrame struct {
	ns, rendered *nsDecl
}

// canonicalXML returns the exclusive canonical form of src, the source text
// of an element's content, whose enclosing elements declare the namespaces
// ns. Namespace declarations are kept where a name uses them (and only
// there), attributes are sorted, empty elements get an end tag, and text and
// attribute values are escaped as canonical XML escapes them.
func (r *xmlReader) canonicalXML(src []byte, ns *nsDecl) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Entity = r.d.Entity
	var b strings.Builder
	stack := []c14nFrame{{ns: ns}}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return "", r.errorf("XML literal: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			f, err := startTag(&b, t, stack[len(stack)-1])
			if err != nil {
				return "", r.errorf("XML literal: %v", err)
			}
			stack = append(stack, f)
		case xml.EndElement:
			if len(stack) == 1 {
				return "", r.errorf("XML literal: end tag </%s> without a start tag", qname(t.Name))
			}
			stack = stack[:len(stack)-1]
			b.WriteString("</")
			b.WriteString(qname(t.Name))
			b.WriteByte('>')
		case xml.CharData:
			escapeC14N(&b, string(t), false)
		case xml.Comment:
			b.WriteString("<!--")
			b.Write(t)
			b.WriteString("-->")
		case xml.ProcInst:
			b.WriteString("<?")
			b.WriteString(t.Target)
			if len(t.Inst) > 0 {
				b.WriteByte(' ')
				b.Write(t.Inst)
			}
			b.WriteString("?>")
		case xml.Directive:
			return "", r.errorf("XML literal: a <!...> declaration in element content")
		}
	}
}

// qname returns the name as written: prefix:local, or local.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// startTag writes the canonical start tag of el, a raw token (its names
// keep their prefixes), under the frame of its parent, and returns its own.
func startTag(b *strings.Builder, el xml.StartElement, parent c14nFrame) (c14nFrame, error) {
	f := parent
	var attrs []xml.Attr
	for _, a := range el.Attr {
		switch {
		case a.Name.Space == "xmlns":
			f.ns = &nsDecl{a.Name.Local, a.Value, f.ns}
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			f.ns = &nsDecl{"", a.Value, f.ns}
		default:
			attrs = append(attrs, a)
		}
	}
	// The namespaces the element's names use: its own prefix (or the
	// default namespace) and its attributes' prefixes.
	used := []string{el.Name.Space}
	for _, a := range attrs {
		if a.Name.Space != "" && a.Name.Space != "xml" && !slices.Contains(used, a.Name.Space) {
			used = append(used, a.Name.Space)
		}
	}
	var decls []nsDecl
	for _, p := range used {
		uri, ok := f.ns.lookup(p)
		if !ok && p != "" {
			return f, errors.New("undeclared namespace prefix " + p)
		}
		// A binding is rendered unless the nearest output ancestor rendered
		// the same one; the empty default namespace only undoes a rendered
		// non-empty one.
		if prev, ok := parent.rendered.lookup(p); ok && prev == uri || !ok && uri == "" {
			continue
		}
		decls = append(decls, nsDecl{prefix: p, uri: uri})
	}
	slices.SortFunc(decls, func(x, y nsDecl) int { return strings.Compare(x.prefix, y.prefix) })
	for i := range decls {
		f.rendered = &nsDecl{decls[i].prefix, decls[i].uri, f.rendered}
	}
	// Attributes sort by namespace URI, then local name.
	uri := func(a xml.Attr) string {
		switch a.Name.Space {
		case "":
			return ""
		case "xml":
			return nsXML
		}
		u, _ := f.ns.lookup(a.Name.Space)
		return u
	}
	for _, a := range attrs {
		if _, ok := f.ns.lookup(a.Name.Space); !ok && a.Name.Space != "" && a.Name.Space != "xml" {
			return f, errors.New("undeclared namespace prefix " + a.Name.Space)
		}
	}
	slices.SortStableFunc(attrs, func(x, y xml.Attr) int {
		if c := strings.Compare(uri(x), uri(y)); c != 0 {
			return c
		}
		return strings.Compare(x.Name.Local, y.Name.Local)
	})
	b.WriteByte('<')
	b.WriteString(qname(el.Name))
	for _, d := range decls {
		b.WriteString(" xmlns")
		if d.prefix != "" {
			b.WriteByte(':')
			b.WriteString(d.prefix)
		}
		b.WriteString(`="`)
		escapeC14N(b, d.uri, true)
		b.WriteByte('"')
	}
	for _, a := range attrs {
		b.WriteByte(' ')
		b.WriteString(qname(a.Name))
		b.WriteString(`="`)
		escapeC14N(b, a.Value, true)
		b.WriteByte('"')
	}
	b.WriteByte('>')
	return f, nil
}

// escapeC14N writes s escaped as canonical XML escapes text (&, <, > and
// CR) or, when attr is set, attribute values (&, <, ", tab, LF and CR).
func escapeC14N(b *strings.Builder, s string, attr bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>' && !attr:
			b.WriteString("&gt;")
		case c == '"' && attr:
			b.WriteString("&quot;")
		case c == '\t' && attr:
			b.WriteString("&#x9;")
		case c == '\n' && attr:
			b.WriteString("&#xA;")
		case c == '\r':
			b.WriteString("&#xD;")
		default:
			b.WriteByte(c)
		}
	}
}
