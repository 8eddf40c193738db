package docs

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	mdext "github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	mdtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// commonMark parses CommonMark with the GitHub tables, strikethrough and bare
// URLs that descriptions use, and renders it through offlineRenderer. It is
// built once and only read afterwards: goldmark parsers and renderers may be
// used from several goroutines at once.
var commonMark = goldmark.New(
	goldmark.WithExtensions(
		mdext.NewTable(mdext.WithTableCellAlignMethod(mdext.TableCellAlignStyle)),
		mdext.Strikethrough,
		mdext.Linkify,
	),
	// A lower number wins: goldmark's own HTML renderer sits at 1000, the
	// extensions' at 500.
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(offlineRenderer{}, 100))),
)

// HTML renders the Markdown of a building block's description or
// example as HTML, following CommonMark with GitHub's tables,
// strikethrough and bare URLs. Headings move down by shift levels (at most
// to h6), so that a description's "#" sits below the page's own heading.
//
// The page stays offline and holds only markup made here: raw HTML, inline
// or as a block, is shown as text; an image becomes a link to the image;
// a link or an autolink whose scheme is not http, https, mailto or ftp
// loses its target and keeps its text; every other character of the input
// is HTML-escaped. Bytes that are not UTF-8, and NUL, become U+FFFD.
//
// Markdown whose blockquotes and lists may nest more than 512 deep (see
// Nesting) is shown as written, escaped, under a note naming the line.
func HTML(src string, shift int) string {
	return HTMLLinks(src, shift, nil)
}

// LinkFunc decides where a link of Markdown leads. It is given the
// destination as written (backslash escapes and character references
// resolved) and returns the URL to link to, or false to show the link's
// text (an image's label) without a link.
type LinkFunc func(dest string) (href string, ok bool)

// Node attributes that carry a LinkFunc's decision to the renderers.
var (
	attrHref = []byte("jrpcld-href")
	attrText = []byte("jrpcld-text")
)

// HTMLLinks renders src as HTML does, with each link, image and autolink
// going where resolve says: a register's pages resolve the links of its
// descriptions against the published files. The URLs resolve returns pass
// the same checks as written ones (a scheme other than http, https, mailto
// or ftp is shown as text). A nil resolve keeps every destination.
func HTMLLinks(src string, shift int, resolve LinkFunc) string {
	source := []byte(cleanUTF8(src))
	if line := Nesting(src); line > 0 {
		return fmt.Sprintf("<p><strong>Shown as written: line %d nests blockquotes and lists more than %d deep.</strong></p>\n<pre>%s</pre>\n",
			line, limits.Depth, util.EscapeHTML(source))
	}
	doc := commonMark.Parser().Parse(mdtext.NewReader(source))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		switch n := n.(type) {
		case *ast.Heading:
			n.Level = max(1, min(6, n.Level+shift))
			return ast.WalkContinue, nil
		case *ast.Link:
			dest = unescapeDest(n.Destination)
		case *ast.Image:
			dest = unescapeDest(n.Destination)
		case *ast.AutoLink:
			dest = autoLinkURL(n, source) // taken as written, as CommonMark does
		default:
			return ast.WalkContinue, nil
		}
		if resolve != nil {
			if href, ok := resolve(string(dest)); ok {
				n.SetAttribute(attrHref, []byte(href))
			} else {
				n.SetAttribute(attrText, true)
			}
		}
		return ast.WalkContinue, nil
	})
	var b bytes.Buffer
	if err := commonMark.Renderer().Render(&b, source, doc); err != nil {
		// The renderers here write to memory and return no error; should
		// one ever come, the text is still shown, escaped.
		return "<p>" + string(util.EscapeHTML(source)) + "</p>\n"
	}
	return b.String()
}

// Nesting returns the first line of the Markdown src whose blockquotes and
// lists may nest more than limits.Depth deep, or 0 when none may. At the
// start of a line, each '>' and each list marker counts one, and so does
// each column of indentation (a tab four) but the space just after a
// marker: no line nests deeper than that. goldmark's time grows with the
// square of the nesting (a blockquote 100,000 deep took 16 s, a list
// 16,000 deep 3 s).
func Nesting(src string) int {
	for line := 1; src != ""; line++ {
		text, rest, _ := strings.Cut(src, "\n")
		if lineNesting(text) > limits.Depth {
			return line
		}
		src = rest
	}
	return 0
}

// lineNesting returns the nesting Nesting counts for one line.
func lineNesting(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		end := i // the end of a marker at s[i]
		switch c := s[i]; {
		case c == ' ':
			n++
			continue
		case c == '\t':
			n += 4
			continue
		case c == '>':
		case c == '-' || c == '+' || c == '*':
			if !markerEnd(s, i+1) {
				return n
			}
		case c >= '0' && c <= '9':
			for end+1 < len(s) && end+1-i < 9 && s[end+1] >= '0' && s[end+1] <= '9' {
				end++
			}
			if end+1 == len(s) || s[end+1] != '.' && s[end+1] != ')' || !markerEnd(s, end+2) {
				return n
			}
			end++
		default:
			return n
		}
		n, i = n+1, end
		if i+1 < len(s) && s[i+1] == ' ' {
			i++
		}
	}
	return n
}

// markerEnd reports whether a list marker can end before s[i]: a space, a
// tab or the end of the line follows it.
func markerEnd(s string, i int) bool {
	return i == len(s) || s[i] == ' ' || s[i] == '\t'
}

// cleanUTF8 replaces each byte of s that is not part of valid UTF-8, and
// each NUL, with U+FFFD, as CommonMark asks for NUL.
func cleanUTF8(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0 || r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// safeURL returns u when its scheme is harmless (or it has none), else "".
func SafeURL(u string) string {
	u = strings.TrimSpace(u)
	colon := strings.IndexByte(u, ':')
	if colon < 0 || strings.ContainsAny(u[:colon], "/?#") {
		return u // relative
	}
	switch strings.ToLower(u[:colon]) {
	case "http", "https", "mailto", "ftp":
		return u
	}
	return ""
}

// offlineRenderer renders the nodes whose goldmark defaults would let the
// input put markup on the page or load something: links and autolinks
// (only safe schemes, never one link inside another), images (a link
// instead of <img>), and raw HTML (escaped, shown as text).
type offlineRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (offlineRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindLink, renderLink)
	r.Register(ast.KindAutoLink, renderAutoLink)
	r.Register(ast.KindImage, renderImage)
	r.Register(ast.KindRawHTML, renderRawHTML)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

// unescapeDest resolves the backslash escapes and character references of
// a link destination, as CommonMark does.
func unescapeDest(dest []byte) []byte {
	dest = util.UnescapePunctuations(dest)
	dest = util.ResolveNumericReferences(dest)
	return util.ResolveEntityNames(dest)
}

// autoLinkURL returns the URL an autolink leads to: its text, with mailto:
// before an e-mail address.
func autoLinkURL(n *ast.AutoLink, source []byte) []byte {
	u := n.URL(source)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(u), []byte("mailto:")) {
		u = append([]byte("mailto:"), u...)
	}
	return u
}

// safeHref returns the href to write for the URL u, escaped, or nil when
// its scheme is not safe.
func safeHref(u []byte) []byte {
	if SafeURL(string(u)) == "" {
		return nil
	}
	return util.EscapeHTML(util.URLEscape(bytes.TrimSpace(u), false))
}

// linkTarget returns the href to write for a link, image or autolink node
// whose destination is dest (escapes resolved): where a LinkFunc sent it,
// else dest; nil for text alone (a LinkFunc said so, or the scheme is not
// safe).
func linkTarget(n ast.Node, dest []byte) []byte {
	if _, ok := n.Attribute(attrText); ok {
		return nil
	}
	if v, ok := n.Attribute(attrHref); ok {
		return safeHref(v.([]byte))
	}
	return safeHref(dest)
}

// insideLink reports whether n sits in a link that is written as one, where
// another link would make invalid HTML.
func insideLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if l, ok := p.(*ast.Link); ok && linkTarget(l, unescapeDest(l.Destination)) != nil {
			return true
		}
	}
	return false
}

func renderLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	href := linkTarget(n, unescapeDest(n.Destination))
	if href == nil || insideLink(n) {
		return ast.WalkContinue, nil // the text alone
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(href)
	_ = w.WriteByte('"')
	if n.Title != nil {
		_, _ = w.WriteString(` title="`)
		html.DefaultWriter.Write(w, n.Title)
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	label := util.EscapeHTML(n.Label(source))
	href := linkTarget(n, autoLinkURL(n, source))
	if insideLink(n) || href == nil {
		_, _ = w.Write(label)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(href)
	_, _ = w.WriteString(`">`)
	_, _ = w.Write(label)
	_, _ = w.WriteString("</a>")
	return ast.WalkContinue, nil
}

// renderImage shows an image as a link to it, labelled "image: " and its
// description as plain text; inside a link, or with an unsafe target, as
// that label alone.
func renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	href := linkTarget(n, unescapeDest(n.Destination))
	link := href != nil && !insideLink(n)
	if link {
		_, _ = w.WriteString(`<a href="`)
		_, _ = w.Write(href)
		_, _ = w.WriteString(`">`)
	}
	_, _ = w.WriteString("image: ")
	writePlain(w, source, n)
	if link {
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkSkipChildren, nil
}

// writePlain writes the text of n's descendants, escaped, without their
// markup, as CommonMark does for an image's description.
func writePlain(w util.BufWriter, source []byte, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(source)
			if c.IsRaw() {
				html.DefaultWriter.RawWrite(w, v)
			} else {
				html.DefaultWriter.Write(w, v)
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				_ = w.WriteByte('\n')
			}
		case *ast.String:
			if c.IsCode() || c.IsRaw() {
				html.DefaultWriter.RawWrite(w, c.Value)
			} else {
				html.DefaultWriter.Write(w, c.Value)
			}
		case *ast.AutoLink:
			_, _ = w.Write(util.EscapeHTML(c.Label(source)))
		case *ast.RawHTML:
			writeSegments(w, source, c.Segments)
		default:
			writePlain(w, source, c)
		}
	}
}

func writeSegments(w util.BufWriter, source []byte, segs *mdtext.Segments) {
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		html.DefaultWriter.RawWrite(w, seg.Value(source))
	}
}

// renderRawHTML shows inline HTML as the text it is.
func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		writeSegments(w, source, node.(*ast.RawHTML).Segments)
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows an HTML block as a paragraph of its text.
func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var raw []byte
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		raw = append(raw, seg.Value(source)...)
	}
	if n.HasClosure() {
		raw = append(raw, n.ClosureLine.Value(source)...)
	}
	raw = bytes.TrimRight(raw, "\n")
	if len(bytes.TrimSpace(raw)) == 0 {
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<p>")
	html.DefaultWriter.RawWrite(w, raw)
	_, _ = w.WriteString("</p>\n")
	return ast.WalkContinue, nil
}
